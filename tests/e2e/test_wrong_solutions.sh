#!/bin/sh
# The hidden suite must fail every wrong solution in tests/wrong/<name>/ (the
# reference with one realistic bug each): some hidden case's output must
# differ from the committed NAME.out. Each solution is built with
# `cc -std=c11 -O2 *.c -lm` and run plainly (timeout 5, a memory cap), not
# through the grader, and we stop at its first failing case to stay fast.
# WG_WRONG_ALL=1 runs every case and prints how many each solution fails.
set -u
root=${WG_ROOT:-.}
cc=${CC:-cc}
all=${WG_WRONG_ALL:-0}
if ! command -v "$cc" >/dev/null 2>&1; then
	echo "no C compiler ($cc) to build the wrong solutions"
	exit 77
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

status=0
n=0
for dir in "$root"/tests/wrong/*/; do
	name=$(basename "$dir")
	n=$((n + 1))
	if ! "$cc" -std=c11 -O2 -w -o "$tmp/$name" "$dir"*.c -lm 2>"$tmp/cc.log"; then
		echo "FAIL $name: does not build:"
		head -n 5 "$tmp/cc.log"
		status=1
		continue
	fi
	failed=0 failing=""
	for in in "$root"/hidden-tests/*.in; do
		(ulimit -v 1048576 2>/dev/null; ulimit -t 10 2>/dev/null
		 timeout 5 "$tmp/$name" <"$in" >"$tmp/out"; exit $?) 2>/dev/null
		if ! cmp -s "$tmp/out" "${in%.in}.out"; then
			failed=$((failed + 1))
			failing="$failing $(basename "$in" .in)"
			[ "$all" = 1 ] || break
		fi
	done
	if [ $failed -eq 0 ]; then
		echo "FAIL $name: passes every hidden case"
		status=1
	elif [ "$all" = 1 ]; then
		echo "$name: fails $failed hidden cases:$failing"
	else
		echo "ok $name: fails$failing"
	fi
done
[ $n -gt 0 ] || { echo "no wrong solutions under $root/tests/wrong"; exit 1; }
exit $status
