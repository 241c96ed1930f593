#!/bin/sh
# prints the witness input on stdout
head -c 700000 /dev/zero | tr '\0' ' '
printf 'strided 0 1\n'
