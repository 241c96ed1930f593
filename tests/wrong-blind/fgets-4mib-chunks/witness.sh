#!/bin/sh
# prints the witness input on stdout
printf 'strided 0 1'
head -c 5242880 /dev/zero | tr '\0' ' '
printf ' 8\n'
