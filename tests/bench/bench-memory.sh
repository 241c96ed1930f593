#!/bin/sh
# make bench-memory: what grade holds and what a case costs as the suite
# grows, on the reference:
#   peak memory  grade -j 1's peak RSS (/usr/bin/time's maximum resident
#                set, which covers grade, its keepers and the programs it
#                ran; the program's own peak is printed beside it) on the
#                suite (SUITE, 68 cases), on 16 copies of it as one suite
#                (1,088 cases) and on a suite of one case whose input is
#                BENCH_INPUT_MB (50) MB
#   per case     the same 1,088 runs as one submission of the 1,088-case
#                suite and as 16 submissions of SUITE: the time per case
#                (wall, and CPU of grade, its keepers and the programs,
#                steadier on a busy machine) must not grow with the suite
# Usage: bench-memory.sh BUILD_DIR SUITE   (BENCH_REPS=3: best of)
set -eu
b=$1 suite=$2
ref=$b/bin/reference grade=$b/bin/grade
reps=${BENCH_REPS:-3} mb=${BENCH_INPUT_MB:-50} copies=16
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
ns() { date +%s%N; }
min() { if [ -z "$1" ] || [ "$2" -lt "$1" ]; then echo "$2"; else echo "$1"; fi; }

# SUITE x copies as one suite: every case once per copy, renamed.
big=$tmp/big
mkdir "$big"
{
	printf '{"name": "big", "cases": [\n'
	sep=""
	k=0
	while [ $k -lt $copies ]; do
		for f in "$suite"/*.in; do
			c=$(basename "$f" .in)
			ln "$f" "$big/$k-$c.in" 2>/dev/null || cp "$f" "$big/$k-$c.in"
			ln "${f%.in}.out" "$big/$k-$c.out" 2>/dev/null ||
				cp "${f%.in}.out" "$big/$k-$c.out"
			printf '%s{"name": "%s", "category": "c", "points": 1}' "$sep" "$k-$c"
			sep=",
"
		done
		k=$((k + 1))
	done
	printf ']}\n'
} > "$big/suite.json"
ncases=$(ls "$suite"/*.in | wc -l)

# One case whose input is mb MB of comment lines and one command: the
# reference reads it line by line and prints one line.
huge=$tmp/huge
mkdir "$huge"
awk -v mb="$mb" 'BEGIN {
	line = "# padding padding padding padding padding padding padding pad"
	for (n = int(mb * 1048576 / 64); n > 0; n--) print line
	print "strided 1 1"
}' > "$huge/big.in"
"$ref" < "$huge/big.in" > "$huge/big.out"
printf '{"name": "huge", "limits": {"cpu_seconds": 10}, "cases": [
{"name": "big", "category": "c", "points": 1}]}\n' > "$huge/suite.json"

# Peak RSS in KiB (best of reps: the lowest) of a command.
peak() {
	p=""
	k=0
	while [ $k -lt "$reps" ]; do
		/usr/bin/time -f %M -o "$tmp/rss" "$@" > /dev/null 2>&1 || {
			[ $? -le 1 ] || { echo "bench-memory: $* failed" >&2; exit 1; }; }
		p=$(min "$p" "$(tail -n 1 "$tmp/rss")")
		k=$((k + 1))
	done
	echo "$p"
}
g68=$(peak "$grade" -q -j 1 "$suite" "$ref")
g1088=$(peak "$grade" -q -j 1 "$big" "$ref")
ghuge=$(peak "$grade" -q -j 1 "$huge" "$ref")
phuge=$(peak sh -c '"$1" < "$2"' sh "$ref" "$huge/big.in")

# The same 1,088 runs: 16 submissions of SUITE, one of the big suite.
subs=""
k=0
while [ $k -lt $copies ]; do subs="$subs $ref"; k=$((k + 1)); done
# "WALL_NS CPU_NS" of grade -j 1 ARGS.
grade_run() {
	t0=$(ns)
	/usr/bin/time -f '%U %S' -o "$tmp/cpu" "$grade" -q -j 1 "$@" > /dev/null 2>&1 ||
		[ $? -le 1 ] || { echo "bench-memory: grade $* failed" >&2; exit 1; }
	t1=$(ns)
	echo "$((t1 - t0)) $(awk '/^[0-9.]+ [0-9.]+$/ { printf "%.0f", ($1 + $2) * 1e9 }' "$tmp/cpu")"
}
# The lowest of each of two figures.
min2() {
	if [ -z "$1" ]; then echo "$2"; return; fi
	echo "$1 $2" | awk '{ print ($1 < $3 ? $1 : $3), ($2 < $4 ? $2 : $4) }'
}
spread="" one=""
k=0
while [ $k -lt "$reps" ]; do
	# shellcheck disable=SC2086
	spread=$(min2 "$spread" "$(grade_run "$suite" $subs)")
	one=$(min2 "$one" "$(grade_run "$big" "$ref")")
	k=$((k + 1))
done

echo "$spread $one" |
awk -v c="$ncases" -v n=$((ncases * copies)) -v mb="$mb" -v g68="$g68" \
    -v g1088="$g1088" -v gh="$ghuge" -v ph="$phuge" \
    -v reps="$reps" -v copies="$copies" '{
	printf "bench-memory: grade -j 1 on the reference (best of %d)\n", reps
	printf "  %-40s %8.1f MiB\n", "peak RSS, " c " cases", g68 / 1024
	printf "  %-40s %8.1f MiB\n", "peak RSS, " n " cases", g1088 / 1024
	printf "  %-40s %8.1f MiB  (the program alone: %.1f MiB)\n",
		"peak RSS, one case of a " mb " MB input", gh / 1024, ph / 1024
	printf "  %-40s %8s %8s\n", "per case", "wall", "CPU"
	printf "  %-40s %5.3f ms %5.3f ms\n", copies " submissions x " c " cases", $1 / n / 1e6, $2 / n / 1e6
	printf "  %-40s %5.3f ms %5.3f ms  (%.3fx / %.3fx)\n", "1 submission x " n " cases",
		$3 / n / 1e6, $4 / n / 1e6, $3 / $1, $4 / $2
}'
