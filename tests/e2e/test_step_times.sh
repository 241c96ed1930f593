#!/bin/sh
# The set-up's step-by-step account (grader/lib/steptime.h, make
# bench-grade): with WG_STEP_TIMES=1 grade and its keeper mark every step
# on stderr, in time order, from "grade main" to "grade uids-released";
# tests/bench/setup-steps.awk turns them into the account. Unset or "0",
# not one mark, and the grade itself is the same either way.
set -u
. "$(dirname "$0")/lib.sh"
cd "$WG_ROOT" || exit 1
e2e_uid_base 0

WG_STEP_TIMES=1 "$grade" -j 1 public-tests "$ref" > "$tmp/on.out" 2> "$tmp/on.err" ||
	bad "grade with the marks: exit $?"
grep '^wg-step: ' "$tmp/on.err" | sort -k2 -n > "$tmp/steps"
head -n 1 "$tmp/steps" | grep -q ' grade main$' || bad "the first mark is not main: $(head -n 1 "$tmp/steps")"
tail -n 1 "$tmp/steps" | grep -q ' grade uids-released$' ||
	bad "the last mark is not scratch-removed: $(tail -n 1 "$tmp/steps")"
for step in 'grade suite-loaded' 'grade keepers-ready' 'keeper forked' 'keeper cgroups' \
	    'keeper spawner' 'keeper-first-run prepared' 'grade cases-run' \
	    'keeper pid-ns-ended' 'grade keepers-ended'; do
	[ "$(grep -c " $step\$" "$tmp/steps")" = 1 ] || bad "not one mark '$step'"
done
grep -v '^wg-step: [0-9]*\.[0-9]\{9\} [0-9]* [a-z-]* [a-z-]*$' "$tmp/steps" | head -n 1 |
	grep . && bad "a mark not in the documented form"
awk -f tests/bench/setup-steps.awk "$tmp/steps" > "$tmp/account"
grep -q 'median of 1 grade processes' "$tmp/account" || bad "the account: $(cat "$tmp/account")"
grep -q '^ *[0-9.]* ms  main() to exit, but for the cases$' "$tmp/account" ||
	bad "no total in the account: $(cat "$tmp/account")"
grep -q 'first case, not counted' "$tmp/account" ||
	bad "the first case counted without the suite's size: $(cat "$tmp/account")"
# With the suite's size, the first case's cold start is counted in.
n=$(ls public-tests/*.in | wc -l)
awk -v cases="$n" -f tests/bench/setup-steps.awk "$tmp/steps" > "$tmp/account2"
grep -q '^ *-\{0,1\}[0-9.]* ms  the first case beyond a later one' "$tmp/account2" ||
	bad "no cold start in the account: $(cat "$tmp/account2")"

for v in '' 0; do
	WG_STEP_TIMES=$v "$grade" -j 1 public-tests "$ref" > "$tmp/off.out" 2> "$tmp/off.err" ||
		bad "grade, WG_STEP_TIMES='$v': exit $?"
	grep -q 'wg-step' "$tmp/off.err" && bad "marks with WG_STEP_TIMES='$v'"
	# Every column but the CPU time, which varies run to run.
	awk '{ print $1, $2, $3, $5 }' "$tmp/on.out" > "$tmp/a"
	awk '{ print $1, $2, $3, $5 }' "$tmp/off.out" > "$tmp/b"
	cmp -s "$tmp/a" "$tmp/b" || bad "the report differs with the marks on"
done
exit $fail
