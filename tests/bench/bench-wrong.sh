#!/bin/sh
# make bench-wrong: what a large wrong answer costs. One case of
# BENCH_LINES (1,000,000) "shared" commands, one output line each, run by
# the reference; three expected outputs make its answer
#   right       the reference's own output
#   all wrong   every line differs (at its end)
#   last wrong  only the last line differs
# and the program alone is the same run with no grader (bench_spawn -v,
# stdout read to EOF). Per case is the slope between grade with the
# program named ROUNDS times and once, so the set-up is left out.
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
grade_run() {
	t0=$(ns)
	# shellcheck disable=SC2086
	"$grade" -q -j 1 "$@" > /dev/null || [ $? -le 1 ] || {
		echo "bench-wrong: grade $* failed" >&2; exit 1; }
	echo $(($(ns) - t0))
}
alone=""
for kind in right all last; do eval "many_$kind= one_$kind="; done
k=0
while [ $k -lt "$reps" ]; do
	alone=$(min "$alone" "$("$spawn" -v "$rounds" "$ref" "$tmp/c.in" | awk '{ print $2 }')")
	for kind in right all last; do
		# shellcheck disable=SC2086
		eval "many_$kind=\$(min \"\$many_$kind\" \"\$(grade_run \"\$tmp/$kind\" $subs)\")"
		eval "one_$kind=\$(min \"\$one_$kind\" \"\$(grade_run \"\$tmp/$kind\" \"\$ref\")\")"
	done
	k=$((k + 1))
done

# shellcheck disable=SC2154
awk -v r="$rounds" -v lines="$lines" -v al="$alone" -v reps="$reps" \
    -v mr="$many_right" -v orr="$one_right" -v ma="$many_all" -v oa="$one_all" \
    -v ml="$many_last" -v ol="$one_last" 'BEGIN {
	p = al / r
	printf "bench-wrong: one case of %d lines, grade -j 1 per case (best of %d)\n", lines, reps
	printf "  %-28s %8.1f ms\n", "the program alone", p / 1e6
	n = split("right all last", kinds, " ")
	m["right"] = mr; o["right"] = orr; m["all"] = ma; o["all"] = oa
	m["last"] = ml; o["last"] = ol
	name["right"] = "right answer"; name["all"] = "every line wrong"
	name["last"] = "last line wrong"
	for (i = 1; i <= n; i++) {
		k = kinds[i]
		s = (m[k] - o[k]) / (r - 1)
		printf "  %-28s %8.1f ms  (%.2fx the program, %+.1f ms over right)\n",
			"grade, " name[k], s / 1e6, s / p, (s - (mr - orr) / (r - 1)) / 1e6
	}
}'
