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
#     stopping at a solution's second kill;
#  5. through `grade` itself: one solution of each family and the correct
#     tests/wrong/student.c, on a suite of those solutions' witnesses,
#     get the verdicts of the table below, case by case.
# The driver is checked first on the reference itself, which no case and no
# witness may kill. WG_WRONG_ALL=1 runs every pair and prints the whole
# kill matrix's figures (fewest kills, cases that kill nothing).
set -u
. "$(dirname "$0")/lib.sh"
root=$WG_ROOT
build=$WG_BUILD
km=$build/tests/killmatrix
cc=${CC:-cc}
jobs=${WG_JOBS:-2}
all=${WG_WRONG_ALL:-0}
if ! command -v "$cc" >/dev/null 2>&1; then
	echo "no C compiler ($cc) to build the wrong solutions"
	exit 77
fi
for p in "$km" "$ref" "$grade"; do
	[ -x "$p" ] || { echo "$p is not built"; exit 1; }
done
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

# The solutions are generated snapshots of the reference (or student.c)
# plus one bug each: they must be what make-wrong.py writes from today's
# bases, or a test of a reference that has moved on grades stale copies.
if command -v python3 > /dev/null 2>&1; then
	mkdir -p "$tmp/regen/tests/wrong"
	cp -R "$root/reference" "$tmp/regen/"
	cp "$root/tests/wrong/make-wrong.py" "$root/tests/wrong/student.c" "$tmp/regen/tests/wrong/"
	if ! python3 "$root/tests/wrong/make-wrong.py" "$tmp/regen" > /dev/null ||
	   ! diff -r -x fuzz-wrong.py "$root/tests/wrong" "$tmp/regen/tests/wrong" > "$tmp/regen.diff"; then
		echo "FAIL: tests/wrong is not what make-wrong.py writes now (run python3 tests/wrong/make-wrong.py):"
		head -n 8 "$tmp/regen.diff"
		status=1
	fi
else
	echo "SKIP the snapshot check: no python3"
fi

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

# 5. through grade: the table's solutions on a suite of their witnesses,
#    whose expected output is the reference's. A row is what grade must
#    say on each witness, in the table's order: the solution's own witness
#    kills it (WA), and some kill more than their own.
verdicts='
student.c          AC AC AC AC AC AC AC AC AC AC
active-0-ok        WA AC AC AC AC AC AC AC AC AC
active-clamps      WA WA AC AC AC AC AC AC AC AC
always-plural      AC WA WA AC AC AC AC AC WA WA
bank-from-bytes    WA AC AC WA AC AC AC AC AC AC
bare-0x-is-zero    AC AC AC AC WA AC AC AC AC AC
base-ignored       AC AC AC AC AC WA AC AC AC AC
blank-line-error   AC AC AC AC AC AC WA AC AC AC
gather-count-first AC AC AC AC AC AC AC WA AC AC
label-32bit        AC AC AC AC AC AC AC AC WA AC
printf-rounding    AC AC AC AC AC AC AC AC AC WA
'
if command -v python3 >/dev/null 2>&1; then
	suite=$tmp/witnesses
	mkdir "$suite" || exit 1
	sols=$(echo "$verdicts" | awk 'NF && $1 != "student.c" { print $1 }')
	subs=$root/tests/wrong/student.c
	{
		printf '{"name": "witnesses", "cases": ['
		sep=
		for s in $sols; do
			printf '%s\n {"name": "%s", "category": "w", "points": 1, "visibility": "visible"}' "$sep" "$s"
			sep=,
			cp "$root/tests/wrong/$s/witness.in" "$suite/$s.in"
			"$ref" < "$suite/$s.in" > "$suite/$s.out" || status=1
			subs="$subs $root/tests/wrong/$s/"
		done
		printf ']}\n'
	} > "$suite/suite.json"
	# shellcheck disable=SC2086
	"$grade" -j "$jobs" --quiet --json "$tmp/grade.json" "$suite" $subs > "$tmp/grade.out" 2>&1
	rc=$?
	[ $rc -eq 1 ] || { echo "FAIL: grade exited $rc, not 1"; cat "$tmp/grade.out"; status=1; }
	python3 - "$tmp/grade.json" "$verdicts" <<'PY' || status=1
import json, sys
r = json.load(open(sys.argv[1]))
want = {l.split()[0]: l.split()[1:] for l in sys.argv[2].splitlines() if l.strip()}
got = {s["submission"].rstrip("/").split("/")[-1]: [c["verdict"] for c in s["cases"]]
       for s in r["submissions"]}
bad = [f"{n}: grade says {' '.join(got.get(n, ['nothing']))}, the table {' '.join(v)}"
       for n, v in want.items() if got.get(n) != v]
print("\n".join("FAIL " + b for b in bad) or f"grade: {len(want)} solutions as the table says")
sys.exit(1 if bad else 0)
PY
else
	echo "step 5 not run: python3 is needed to read grade's JSON report"
fi
exit $status
