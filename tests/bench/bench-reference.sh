#!/bin/sh
# make bench (reference part): generate a 1,000,000-line mixed input and
# print the reference's lines per second, against `cat` on the same file as
# the I/O floor. Usage: bench-reference.sh REFERENCE_BIN WORKDIR [LINES]
set -eu
ref=$1 dir=$2 lines=${3:-1000000}
mkdir -p "$dir"
in=$dir/bench-$lines.in
if [ ! -s "$in" ]; then
	awk -v n="$lines" 'BEGIN {
		srand(42)
		for (i = 0; i < n; i++) {
			k = i % 10
			if (k == 0) print "strided " int(rand() * 1000) " " int(rand() * 64) " " (1 + int(rand() * 16))
			else if (k == 1) print "aos " (16 + int(rand() * 100)) " 4 8   # a comment"
			else if (k == 2) print "shared " int(rand() * 100) " " int(rand() * 33)
			else if (k == 3) print "transpose " (1 + int(rand() * 64)) " " int(rand() * 9)
			else if (k == 4) print "active " (1 + int(rand() * 32))
			else if (k == 5) print "active 32"
			else if (k == 6) { s = "gather 4"; for (t = 0; t < 32; t++) s = s " " int(rand() * 4096); print s }
			else if (k == 7) print "strided 0x" sprintf("%x", int(rand() * 65536)) " 010 4\r"
			else if (k == 8) print "# just a comment"
			else print "strided 0 1 17"
		}
	}' > "$in"
fi
bytes=$(wc -c < "$in")
ns() { date +%s%N; }
t0=$(ns); cat "$in" > /dev/null; t1=$(ns)
best=0
for run in 1 2 3; do
	a=$(ns); "$ref" < "$in" > "$dir/bench.out"; b=$(ns)
	if [ $best -eq 0 ] || [ $((b - a)) -lt $best ]; then best=$((b - a)); fi
done
outb=$(wc -c < "$dir/bench.out")
awk -v n="$lines" -v b="$bytes" -v ob="$outb" -v best="$best" \
    -v cat="$((t1 - t0))" 'BEGIN {
	s = best / 1e9
	printf "reference: %d lines, %.1f MB in, %.1f MB out\n", n, b / 1e6, ob / 1e6
	printf "reference: best of 3 runs %.3f s = %.0f lines/s (%.0f ns/line, %.1f MB/s in)\n", s, n / s, best / n, b / 1e6 / s
	printf "reference: cat of the same input %.3f s (the I/O floor)\n", cat / 1e9
}'
