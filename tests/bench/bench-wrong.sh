#!/bin/sh
# make bench-wrong: what a large wrong answer costs. One case of
# BENCH_LINES (1,000,000) "shared" commands, one output line each, run by
# the reference; three expected outputs make its answer
#   right       the reference's own output
#   all wrong   every line differs (at its end)
#   last wrong  only the last line differs
# and the program alone is the same run with no grader (bench_spawn -v,
# stdout read to EOF). Per case is the slope between grade with the
# program named ROUNDS times and once, so the set-up is left out; both in
# wall time and in CPU time (user + system of grade, its keepers and the
# programs: steadier than wall time on a busy machine).
# Usage: bench-wrong.sh BUILD_DIR [ROUNDS]   (BENCH_REPS=3: best of)
set -eu
b=$1 rounds=${2:-5}
grade=$b/bin/grade ref=$b/bin/reference spawn=$b/helpers/bench_spawn
reps=${BENCH_REPS:-3} lines=${BENCH_LINES:-1000000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
ns() { date +%s%N; }
min() { if [ -z "$1" ] || [ "$2" -lt "$1" ]; then echo "$2"; else echo "$1"; fi; }

awk -v n="$lines" 'BEGIN {
	for (i = 1; i <= n; i++) printf "shared %d %d\n", i % 64, i % 5 + 1
}' > "$tmp/c.in"
"$ref" < "$tmp/c.in" > "$tmp/c.out"
for kind in right all last; do
	mkdir "$tmp/$kind"
	ln "$tmp/c.in" "$tmp/$kind/c.in"
	awk -v n="$lines" -v kind="$kind" '{
		print $0 (kind == "all" || (kind == "last" && NR == n) ? "!" : "")
	}' "$tmp/c.out" > "$tmp/$kind/c.out"
	printf '{"name": "%s", "limits": {"cpu_seconds": 10, "output_kib": 262144},
"cases": [{"name": "c", "category": "c", "points": 1}]}\n' "$kind" > "$tmp/$kind/suite.json"
done

subs=""
r=0
while [ $r -lt "$rounds" ]; do subs="$subs $ref"; r=$((r + 1)); done
# "WALL_NS CPU_NS" of a command (its status 0 or 1).
timed() {
	t0=$(ns)
	/usr/bin/time -f '%U %S' -o "$tmp/cpu" "$@" > /dev/null 2>&1 || [ $? -le 1 ] || {
		echo "bench-wrong: $* failed" >&2; exit 1; }
	t1=$(ns)
	echo "$((t1 - t0)) $(awk '/^[0-9.]+ [0-9.]+$/ { printf "%.0f", ($1 + $2) * 1e9 }' "$tmp/cpu")"
}
# The lowest of each of two figures.
min2() {
	if [ -z "$1" ]; then echo "$2"; return; fi
	echo "$1 $2" | awk '{ print ($1 < $3 ? $1 : $3), ($2 < $4 ? $2 : $4) }'
}
alone=""
for kind in right all last; do eval "many_$kind= one_$kind="; done
k=0
while [ $k -lt "$reps" ]; do
	alone=$(min2 "$alone" "$(timed "$spawn" -v "$rounds" "$ref" "$tmp/c.in")")
	for kind in right all last; do
		# shellcheck disable=SC2086
		eval "many_$kind=\$(min2 \"\$many_$kind\" \"\$(timed \"\$grade\" -q -j 1 \"\$tmp/$kind\" $subs)\")"
		eval "one_$kind=\$(min2 \"\$one_$kind\" \"\$(timed \"\$grade\" -q -j 1 \"\$tmp/$kind\" \"\$ref\")\")"
	done
	k=$((k + 1))
done

# shellcheck disable=SC2154
echo "$alone $many_right $one_right $many_all $one_all $many_last $one_last" |
awk -v r="$rounds" -v lines="$lines" -v reps="$reps" '{
	printf "bench-wrong: one case of %d lines, grade -j 1 per case (best of %d)\n", lines, reps
	printf "  %-22s %9s %9s\n", "", "wall", "CPU"
	pw = $1 / r; pc = $2 / r
	printf "  %-22s %6.1f ms %6.1f ms\n", "the program alone", pw / 1e6, pc / 1e6
	split("right answer|every line wrong|last line wrong", name, "|")
	for (i = 0; i < 3; i++) {
		w[i] = ($(3 + 4 * i) - $(5 + 4 * i)) / (r - 1)
		c[i] = ($(4 + 4 * i) - $(6 + 4 * i)) / (r - 1)
		printf "  %-22s %6.1f ms %6.1f ms  (%.2fx / %.2fx the program; %+.1f / %+.1f ms over right)\n",
			"grade, " name[i + 1], w[i] / 1e6, c[i] / 1e6, w[i] / pw, c[i] / pc,
			(w[i] - w[0]) / 1e6, (c[i] - c[0]) / 1e6
	}
}'
