#!/usr/bin/env bash
# Checks the blind wrong solutions: builds each one and verifies that it
# differs from the reference on its witness.
#
# usage: tests/wrong-blind/check.sh [-v] REFERENCE [CC]
#
# -v prints one line per solution (its family, and the CPU seconds of both
# programs for the speed family).
#
# Each solution NAME/ holds main.c and either witness.in or witness.sh (which
# prints a larger witness on stdout). For family "speed" (see INDEX) the check
# is CPU time: the solution must use more than 10x the reference's CPU time
# and more than 1 s (a run killed at the time limit counts as slow). For every
# other family its stdout must differ from the reference's.
#
# Every run is bounded: 10 s of CPU (ulimit -t, so a killed run's CPU time is
# still counted), 60 s of wall time (timeout, then SIGKILL), 4 GiB of address
# space, 64 MiB of file output and stdout capped at 16 MiB, so a solution that
# loops, floods or eats memory cannot hang the machine. Prints one line per failure,
# then "N passed, N failed"; exits 1 if any failed, 2 on a usage error.
set -u

die_usage() {
	echo "usage: $0 [-v] REFERENCE [CC]" >&2
	exit 2
}

verbose=
if [ "${1:-}" = -v ]; then
	verbose=1
	shift
fi

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	die_usage
fi
here=$(cd "$(dirname "$0")" && pwd)
ref=$1
cc=${2:-${CC:-cc}}
case $ref in /*) ;; *) ref=$(pwd)/$ref ;; esac
[ -x "$ref" ] || { echo "$0: $ref: not an executable" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/wrong-blind.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

CPU_LIMIT=10
WALL_LIMIT=60
MEM_KIB=4194304
OUT_CAP=16777216

# run PROG IN OUT: runs PROG bounded, stdout (capped) into OUT; prints the
# CPU seconds (user + system) it took, children included.
run() {
	local t
	t=$( {
		TIMEFORMAT='%3U %3S'
		time (
			ulimit -t $CPU_LIMIT -v $MEM_KIB -f 65536 -c 0
			# TERM first: timeout -s KILL would kill itself too, and the
			# child's CPU time would be lost with it.
			timeout -k 5 $WALL_LIMIT "$1" <"$2" 2>/dev/null |
				head -c $OUT_CAP >"$3"
		)
	} 2>&1 )
	awk -v t="$t" 'BEGIN { split(t, a, " "); printf "%.3f\n", a[1] + a[2] }'
}

pass=0
fail=0
failed() {
	echo "FAIL $1: $2"
	fail=$((fail + 1))
}

while IFS="$(printf '\t')" read -r name family _; do
	[ -n "$name" ] || continue
	dir=$here/$name
	bin=$tmp/$name.bin
	in=$tmp/$name.in
	if ! "$cc" -std=c11 -O2 -w -o "$bin" "$dir"/*.c -lm 2>"$tmp/$name.cc"; then
		failed "$name" "does not build: $(head -c 300 "$tmp/$name.cc")"
		continue
	fi
	if [ -f "$dir/witness.in" ]; then
		cp "$dir/witness.in" "$in"
	elif [ -f "$dir/witness.sh" ]; then
		timeout -s KILL 60 sh "$dir/witness.sh" | head -c 67108864 >"$in"
	else
		failed "$name" "no witness.in or witness.sh"
		continue
	fi
	ref_cpu=$(run "$ref" "$in" "$tmp/$name.ref")
	got_cpu=$(run "$bin" "$in" "$tmp/$name.out")
	if [ "$family" = speed ]; then
		if awk -v g="$got_cpu" -v r="$ref_cpu" 'BEGIN { exit !(g > 10 * r && g > 1) }'; then
			pass=$((pass + 1))
			[ -z "$verbose" ] || echo "ok $name ($family): ${got_cpu}s CPU vs reference ${ref_cpu}s"
		else
			failed "$name" "not slow enough: ${got_cpu}s CPU vs reference ${ref_cpu}s"
		fi
	elif cmp -s "$tmp/$name.ref" "$tmp/$name.out"; then
		failed "$name" "same output as the reference on its witness"
	else
		pass=$((pass + 1))
		[ -z "$verbose" ] || echo "ok $name ($family): output differs"
	fi
	rm -f "$bin" "$in" "$tmp/$name".*
done <"$here/INDEX"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
