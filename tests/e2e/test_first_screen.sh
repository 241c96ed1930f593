#!/bin/sh
# What `make grade` shows (issue 19, item 1): no compiler command lines
# (they go to build-commands.log; V=1 prints them), one line per
# submission, the class summary with its verdict letters explained in one
# line, and where the details are; the per-case tables are in the logs
# (V=1 prints them). The staff's report says "did not compile" and names
# the submission's real files, not the build folder's ./main.c.
set -u
. "$(dirname "$0")/lib.sh"
e2e_uid_base 0
[ -x "$WG_BUILD/bin/grade" ] || e2e_skip "no $WG_BUILD/bin/grade"
[ -d "$WG_ROOT/submissions/correct" ] || e2e_skip "no sample submissions"

# The compiler's command lines: in the log, not on the terminal.
(cd "$WG_ROOT" && make B="$tmp/b" "$tmp/b/bin/reference") > "$tmp/build.out" 2>&1 ||
	{ cat "$tmp/build.out"; bad "the reference does not build"; }
[ -s "$tmp/build.out" ] && bad "make printed: $(head -3 "$tmp/build.out")"
grep -q -- '-c -o .*reference/main.o reference/main.c' "$tmp/b/build-commands.log" ||
	bad "no compiler command in build-commands.log"
rm -rf "$tmp/b"
(cd "$WG_ROOT" && make V=1 B="$tmp/b" "$tmp/b/bin/reference") > "$tmp/build.out" 2>&1
grep -q -- '-c -o .*reference/main.o reference/main.c' "$tmp/build.out" ||
	bad "V=1 did not print the compiler's command lines"
rm -rf "$tmp/b"

# A class of three: accepted, crashes, does not compile.
mkdir "$tmp/class"
for s in correct crash-bad-input compile-error; do
	cp -R "$WG_ROOT/submissions/$s" "$tmp/class/$s"
done
cd "$WG_ROOT" || exit 1
make -s B="$WG_BUILD" GRADE_CLASS="$tmp/class" GRADE_OUT="$tmp/out" grade \
	> "$tmp/screen" 2>&1 || bad "make grade failed: $(tail -5 "$tmp/screen")"
# A line per student and a bounded summary: the header, the histogram
# (10 bins), a line per category (the hidden suite has 14), the ten most
# failed cases with their hints, the top similar pairs, where the details
# are. It was 1,684 lines for ten students.
n=$(wc -l < "$tmp/screen")
[ "$n" -le 85 ] || bad "make grade printed $n lines"
grep -E -q '^cc |gcc | -c -o ' "$tmp/screen" && bad "a compiler command line on the screen"
for s in correct crash-bad-input compile-error; do
	[ "$(grep -c "^\[[0-9]*/3\] $s: [0-9]*/[0-9]*" "$tmp/screen")" = 1 ] ||
		bad "not one line for $s"
done
grep -q '^\[[0-9]/3\] crash-bad-input: [0-9]*/[0-9]* (RTE [0-9]*) in [0-9.]* s$' \
	"$tmp/screen" || bad "no score, verdict counts and time for crash-bad-input"
grep -q '^Verdicts: AC accepted, WA wrong answer, TLE time limit exceeded.*IE internal error' \
	"$tmp/screen" || bad "no one-line legend of the verdict letters"
grep -q 'mean .* median' "$tmp/screen" || bad "no class summary"
grep -q "^  $tmp/out/logs/ .*every diff" "$tmp/screen" || bad "no pointer to the logs"
grep -q "^  $tmp/out/report.html " "$tmp/screen" || bad "no pointer to the page"
# The details are where it says, and not on the screen.
grep -q 'case  *category  *verdict' "$tmp/screen" && bad "a per-case table on the screen"
grep -q 'case  *category  *verdict' "$tmp/out/logs/crash-bad-input.log" ||
	bad "no per-case table in the log"
log=$tmp/out/logs/compile-error.log
tail -n 1 "$log" | grep -qx 'did not compile: no case was run' ||
	bad "the staff's log does not say 'did not compile': $(tail -n 1 "$log")"
grep -q 'your program' "$log" && bad "the staff's log speaks to the student"
grep -q "^  $tmp/class/compile-error/main.c:[0-9]*:[0-9]*: error" "$log" ||
	bad "the compiler's messages do not name the real file: $(sed -n 2p "$log")"
grep -q '\./main\.c' "$log" && bad "the staff's log shows ./main.c"

# V=1: the per-case tables too.
make -s B="$WG_BUILD" GRADE_CLASS="$tmp/class" GRADE_OUT="$tmp/out" V=1 grade \
	> "$tmp/verbose" 2>&1 || bad "make grade V=1 failed"
grep -q 'case  *category  *verdict' "$tmp/verbose" || bad "V=1 shows no per-case table"

# The student view (no --staff) still speaks to the student.
"$WG_BUILD/bin/grade" public-tests "$tmp/class/compile-error" > "$tmp/student" 2>&1
tail -n 1 "$tmp/student" | grep -qx 'your program did not compile: no case was run' ||
	bad "the student view changed: $(tail -n 1 "$tmp/student")"
exit $fail
