#!/bin/sh
# prints the witness input on stdout
printf 'strided 0 1'
head -c 800000 /dev/zero | tr '\0' ' '
printf '\n'
