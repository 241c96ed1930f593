#!/bin/sh
# prints the witness input on stdout
i=0
while [ $i -lt 9500 ]; do
	printf '# %01000d\n' $i
	i=$((i + 1))
done
printf 'strided 0 1\n'
