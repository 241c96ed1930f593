#!/bin/sh
# prints the witness input on stdout
i=0
while [ $i -lt 2047 ]; do
	printf '# %029d\n' $i
	i=$((i + 1))
done
printf '# padding %19s\n' ''
printf 'strided 0 1 16\n'
