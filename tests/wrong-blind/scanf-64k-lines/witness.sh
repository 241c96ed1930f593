#!/bin/sh
# prints the witness input on stdout
printf 'strided 0 1'
head -c 70000 /dev/zero | tr '\0' ' '
printf '16\n'
