#!/bin/sh
# prints the witness input on stdout
printf 'strided 0 1'
head -c 1000000 /dev/zero | tr '\0' ' '
printf '\n'
