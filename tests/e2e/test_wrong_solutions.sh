#!/bin/sh
# The mutation set (tests/wrong/, see make-wrong.py) against the hidden
# suite:
#  1. every wrong solution is listed in tests/wrong/INDEX with a known
#     family, and has its main.c and its distinguishing input witness.in;
#  2. each builds with `cc -std=c11 -O2 *.c -lm` (once, WG_JOBS in parallel);
#  3. each disagrees with the reference on its witness.in (so it is really
#     wrong; tests/wrong/fuzz-wrong.py, `make fuzz-wrong`, checks that
#     independently with random programs);
#  4. each is killed by at least two hidden cases (two different files), as
#     `grade` would judge them: tests/killmatrix.c runs each binary directly
#     under the suite's limits and compares with the grader's default rule,
#     stopping at a solution's second kill.
# The driver is checked first on the reference itself, which no case and no
# witness may kill. WG_WRONG_ALL=1 runs every pair and prints the whole
# kill matrix's figures (fewest kills, cases that kill nothing).
set -u
root=${WG_ROOT:-.}
build=${WG_BUILD:-build}
case $build in /*) ;; *) [ -d "$root/$build" ] && build=$root/$build ;; esac
km=$build/tests/killmatrix
ref=$build/bin/reference
cc=${CC:-cc}
jobs=${WG_JOBS:-2}
all=${WG_WRONG_ALL:-0}
if ! command -v "$cc" >/dev/null 2>&1; then
	echo "no C compiler ($cc) to build the wrong solutions"
	exit 77
fi
for p in "$km" "$ref"; do
	[ -x "$p" ] || { echo "$p is not built"; exit 1; }
done
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
status=0

# 1. the index and the files
families="grammar lines args precedence labels active union rounding limits banks"
n=0
for dir in "$root"/tests/wrong/*/; do
	name=$(basename "$dir")
	n=$((n + 1))
	family=$(awk -F'\t' -v n="$name" '$1 == n { print $2 }' "$root/tests/wrong/INDEX")
	case " $families " in
	*" $family "*) ;;
	*) echo "FAIL $name: no known family in tests/wrong/INDEX ('$family')"; status=1 ;;
	esac
	for f in main.c witness.in; do
		[ -s "$dir$f" ] || { echo "FAIL $name: no $f"; status=1; }
	done
done
[ $n -gt 0 ] || { echo "no wrong solutions under $root/tests/wrong"; exit 1; }
listed=$(grep -vc '^#' "$root/tests/wrong/INDEX")
[ "$listed" -eq $n ] || { echo "FAIL: INDEX lists $listed solutions, tests/wrong has $n"; status=1; }

# 2. build them all once
# shellcheck disable=SC2016 # expanded by the inner shell
printf '%s\n' "$root"/tests/wrong/*/ | CC=$cc OUT=$tmp xargs -P "$jobs" -n 1 sh -c '
	name=$(basename "$1")
	if "$CC" -std=c11 -O2 -w -o "$OUT/$name" "$1"*.c -lm 2>"$OUT/$name.log"; then
		cp "$1witness.in" "$OUT/$name.witness"
	else
		echo "FAIL $name: does not build:"; head -n 5 "$OUT/$name.log"
	fi' sh || status=1
bins=$(for d in "$root"/tests/wrong/*/; do
	b=$tmp/$(basename "$d"); [ -x "$b" ] && echo "$b"; done)
[ "$(echo "$bins" | wc -l)" -eq $n ] || status=1

# The driver itself: no case and no witness kills the reference, nor a
# copy of tests/wrong/student.c, the correct base of the student-style bugs
# (killmatrix exits 1 when a solution is not killed).
# (built like the solutions: a sanitizer build could not start under the
# driver's address-space limit)
"$cc" -std=c11 -O2 -w -I"$root" -o "$tmp/the-reference" "$root"/reference/*.c ||
	status=1
printf 'strided 0 1\n' > "$tmp/the-reference.witness"
"$km" -k 1 -j "$jobs" "$root/hidden-tests" "$tmp/the-reference" >/dev/null
[ $? -eq 1 ] || { echo "FAIL: killmatrix calls the reference wrong"; status=1; }
"$km" -w "$ref" "$tmp/the-reference" >/dev/null
[ $? -eq 1 ] || { echo "FAIL: killmatrix -w calls the reference wrong"; status=1; }
if "$cc" -std=c11 -O2 -w -o "$tmp/student" "$root/tests/wrong/student.c" -lm; then
	"$km" -k 1 -j "$jobs" "$root/hidden-tests" "$tmp/student" >/dev/null
	[ $? -eq 1 ] || { echo "FAIL: tests/wrong/student.c fails a hidden case"; status=1; }
else
	echo "FAIL: tests/wrong/student.c does not build"
	status=1
fi

# 3. each differs from the reference on its witness
# shellcheck disable=SC2086
"$km" -w "$ref" -j "$jobs" $bins || status=1

# 4. each is killed by two hidden cases
if [ "$all" = 1 ]; then
	echo "wrong solutions per family (base reference / student):"
	awk -F'\t' '!/^#/ { n[$2]++; b[$2 "/" $3]++ }
		END { for (f in n) printf "  %-11s %3d (%d / %d)\n", f, n[f],
		      b[f "/reference"], b[f "/student"] }' "$root/tests/wrong/INDEX" | sort
	# shellcheck disable=SC2086
	"$km" -a -k 2 -j "$jobs" "$root/hidden-tests" $bins || status=1
else
	# shellcheck disable=SC2086
	"$km" -k 2 -j "$jobs" "$root/hidden-tests" $bins || status=1
fi
exit $status
