#!/bin/sh
# The student kit end to end: `make student-kit` writes the tarball, which is
# unpacked in a temporary directory, built with its own Makefile, and used
# to self-check a correct program (exit 0), a correct source directory and
# a wrong program (exit non-zero, diffs and hints). Nothing from reference/
# or hidden-tests/ may be inside: no such path, and no file with the content
# of a reference source or of a hidden test.
set -u
. "$(dirname "$0")/lib.sh"
# As root, a sandbox uid range of its own: another grade running at the
# same time (a parallel test, the same test in another checkout) must not
# share, and so kill, its uids. The pid makes the range this run's.
e2e_uid_base 6
# The reference as a plain program: a sanitizer build of it could not start
# under the grader's address-space limit.
ref=$tmp/reference
cc -std=c11 -D_GNU_SOURCE -O1 -I"$WG_ROOT" -o "$ref" "$WG_ROOT"/reference/*.c ||
	{ echo "FAIL: cannot build the reference"; exit 1; }
unset MAKEFLAGS MFLAGS MAKELEVEL

make -s -C "$WG_ROOT" student-kit KIT_OUT="$tmp/kit.tar.gz" > /dev/null ||
	{ echo "FAIL: make student-kit"; exit 1; }
tar tzf "$tmp/kit.tar.gz" > "$tmp/list" || { echo "FAIL: not a tarball"; exit 1; }
grep -E '(^|/)(reference|hidden-tests)(/|$)' "$tmp/list" && bad "reference or hidden paths inside"
grep -q '^warpgrade-student/public-tests/example.out$' "$tmp/list" || bad "no public .out files"
grep -q '^warpgrade-student/HANDOUT.md$' "$tmp/list" || bad "no handout"
grep -q '^warpgrade-student/Makefile$' "$tmp/list" || bad "no Makefile"
# Hidden case names appear only where a public case has the same name.
for f in "$WG_ROOT"/hidden-tests/*.in; do
	n=${f##*/}
	[ -e "$WG_ROOT/public-tests/$n" ] && continue
	grep -q "/$n\$" "$tmp/list" && bad "hidden case file $n inside"
done
mkdir "$tmp/kit"
tar xzf "$tmp/kit.tar.gz" -C "$tmp/kit" || { echo "FAIL: cannot unpack"; exit 1; }
kit=$tmp/kit/warpgrade-student

# Contents: CRC and size of every kit file against every secret file; a
# hidden file identical to a public one is public.
{
	find "$WG_ROOT/public-tests" -type f -exec cksum {} + | sed 's/^/P /'
	find "$kit" -type f -exec cksum {} + | sed 's/^/K /'
	find "$WG_ROOT/reference" "$WG_ROOT/hidden-tests" -type f -exec cksum {} + | sed 's/^/S /'
} | awk '$1 == "P" { pub[$2 " " $3] = 1 } $1 == "K" { kit[$2 " " $3] = $4 }
	 $1 == "S" && ($2 " " $3) in kit && !($4 ~ /hidden-tests/ && ($2 " " $3) in pub) {
		print kit[$2 " " $3] " = " $4 }' > "$tmp/leaks"
[ -s "$tmp/leaks" ] && bad "secret content inside: $(cat "$tmp/leaks")"
# No hidden expected output hides inside a bigger file either.
for f in "$WG_ROOT"/hidden-tests/*.out; do
	line=$(awk 'length($0) > 40 { print; exit }' "$f")
	[ -n "$line" ] || continue
	grep -rqF -- "$line" "$WG_ROOT/public-tests" && continue
	grep -rqF -- "$line" "$kit" && bad "a line of ${f##*/} is in the kit"
done

rm -f "$kit/grade"
make -s -C "$kit" CFLAGS=-O1 > "$tmp/build.log" 2>&1 ||
	{ cat "$tmp/build.log"; echo "FAIL: the kit does not build"; exit 1; }
[ -x "$kit/grade" ] || bad "no grade built"

(cd "$kit" && make -s selfcheck BIN="$ref") > "$tmp/ok.log" 2>&1 ||
	{ bad "selfcheck of the reference failed"; tail -n 20 "$tmp/ok.log"; }
grep -q 'AC' "$tmp/ok.log" || bad "selfcheck printed no verdicts"
grep -q 'hint (' "$tmp/ok.log" && bad "hints for a program that lost nothing"

if [ -d "$WG_ROOT/submissions/correct" ]; then
	(cd "$kit" && make -s selfcheck SRC="$WG_ROOT/submissions/correct") > "$tmp/src.log" 2>&1 ||
		{ bad "selfcheck SRC=submissions/correct failed"; tail -n 20 "$tmp/src.log"; }
fi

printf '#!/bin/sh\necho "efficiency 6.2%%"\n' > "$tmp/wrong"
chmod 755 "$tmp/wrong" "$tmp"
[ -x "$kit/selfcheck" ] || bad "no executable ./selfcheck in the kit"
(cd "$kit" && ./selfcheck "$tmp/wrong") > "$tmp/wrong.log" 2>&1
rc=$?
[ $rc -eq 1 ] || bad "./selfcheck of a wrong program: exit $rc, want 1"
grep -q 'WA' "$tmp/wrong.log" || bad "no WA for the wrong program"
grep -q '^ *+efficiency 6.2%' "$tmp/wrong.log" || bad "no diff in the selfcheck output"
grep -q '^  hint (rounding): Round half up' "$tmp/wrong.log" || bad "no rounding hint"
(cd "$kit" && ./selfcheck BIN="$tmp/wrong") > /dev/null 2>&1
[ $? -eq 1 ] || bad "./selfcheck BIN=: not exit 1"
(cd "$kit" && ./selfcheck) > /dev/null 2>&1
[ $? -eq 2 ] || bad "./selfcheck without a program: not exit 2"

# make selfcheck: the last line a student reads is the result, never
# make's own "make: *** [Makefile:NN: selfcheck] Error 1".
(cd "$kit" && make selfcheck BIN="$tmp/wrong") > "$tmp/make.log" 2>&1
rc=$?
[ $rc -eq 0 ] || bad "make selfcheck of a graded (wrong) program: exit $rc, want 0"
grep -q 'make: \*\*\*' "$tmp/make.log" && bad "make's error line: $(grep 'make: \*\*\*' "$tmp/make.log")"
tail -n 1 "$tmp/make.log" | grep -q '^  hint (' ||
	bad "make selfcheck does not end with the result: $(tail -n 1 "$tmp/make.log")"

# A build failure: the compiler's messages, then one line; no table, no
# hints (the last line is what a student reads).
mkdir "$tmp/broken"
printf 'int main(void)\n{\n\treturn undeclared_x;\n}\n' > "$tmp/broken/main.c"
(cd "$kit" && ./selfcheck "$tmp/broken") > "$tmp/ce.log" 2>&1
rc=$?
[ $rc -eq 1 ] || bad "CE: exit $rc, want 1"
[ "$(tail -n 1 "$tmp/ce.log")" = "your program did not compile: no case was run" ] ||
	bad "CE: the last line is '$(tail -n 1 "$tmp/ce.log")'"
grep -q "main.c:3:.*undeclared_x" "$tmp/ce.log" || bad "CE: no compiler message"
grep -qE 'hint \(|subtotal|^  case ' "$tmp/ce.log" && bad "CE: a table or hints: $(cat "$tmp/ce.log")"
[ "$(grep -c . "$tmp/ce.log")" -le 12 ] || bad "CE: $(grep -c . "$tmp/ce.log") lines for one error"

# A single .c file is a submission; a file that is neither gets the folder
# suggested.
cp "$WG_ROOT/tests/wrong/active-ignored/main.c" "$tmp/coalesce.c"
(cd "$kit" && ./selfcheck "$tmp/coalesce.c") > "$tmp/one.log" 2>&1
rc=$?
[ $rc -eq 1 ] || bad "SRC=one file: exit $rc, want 1 (a wrong solution)"
grep -q 'AC' "$tmp/one.log" && grep -q 'WA' "$tmp/one.log" || bad "SRC=one file: not graded: $(tail -n 3 "$tmp/one.log")"
(cd "$kit" && make -s selfcheck SRC="$tmp/coalesce.c") > /dev/null 2>&1 ||
	bad "make selfcheck SRC=FILE.c failed"
echo notes > "$tmp/notes.txt"
(cd "$kit" && ./grade public-tests "$tmp/notes.txt") > "$tmp/notes.log" 2>&1
[ $? -eq 2 ] || bad "a text file: not exit 2"
grep -q 'give the folder that holds your .c files' "$tmp/notes.log" || bad "no folder suggestion: $(cat "$tmp/notes.log")"

# A wrong answer says how to reproduce it, as a student would type it in
# the kit, and the input line whose answer differs. The commands printed
# are run as printed, and each input line is checked against the
# reference: its answer includes the expected line named, the line before
# it does not.
cp -R "$WG_ROOT/tests/wrong/active-ignored" "$tmp/wa"
(cd "$kit" && ./selfcheck "$tmp/wa") > "$tmp/wa.log" 2>&1
grep -q "^    reproduce:  cc -std=c11 -O2 $tmp/wa/\*.c -lm && ./a.out < public-tests/example.in | diff -u --label expected --label actual public-tests/example.out -\$" "$tmp/wa.log" ||
	bad "no reproduce command for sources: $(grep reproduce "$tmp/wa.log" | head -n 1)"
grep -q '^    input file: public-tests/example.in$' "$tmp/wa.log" || bad "no input file"
grep -q '^    input line 8 (answered by expected line 6): strided 0 1$' "$tmp/wa.log" ||
	bad "example: not input line 8: $(grep 'input line' "$tmp/wa.log" | head -n 1)"
cmd=$(sed -n 's/^    reproduce:  //p' "$tmp/wa.log" | head -n 1)
(cd "$kit" && sh -c "$cmd") > "$tmp/repro.out" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q '^+strided base=0 stride=1 size=4: 32 threads' "$tmp/repro.out" ||
	bad "the reproduce command (exit $rc) does not show the difference: $(head -n 5 "$tmp/repro.out")"
# Its diff has the grader's signs and labels: '-' expected, '+' actual.
[ "$(head -n 2 "$tmp/repro.out")" = "$(printf -- '--- expected\n+++ actual')" ] ||
	bad "the reproduce diff's labels: $(head -n 2 "$tmp/repro.out")"
grep -q '^ *--- expected$' "$tmp/wa.log" && grep -q '^ *+++ actual$' "$tmp/wa.log" ||
	bad "the grader's diff lost its labels"
sed -n 's/^+\([^+]\)/\1/p' "$tmp/repro.out" | head -n 3 | while IFS= read -r l; do
	grep -qF -- "+$l" "$tmp/wa.log" || echo "FAIL: '+$l' of the reproduce diff is not in the grader's"
done > "$tmp/signs"
[ -s "$tmp/signs" ] && bad "$(cat "$tmp/signs")"
# Run from outside the kit, the paths are still relative (to where the
# student is): kit/public-tests, never the absolute path.
kitname=${kit##*/}
(cd "$kit/.." && "./$kitname/selfcheck" "$tmp/wa") > "$tmp/outside.log" 2>&1
grep -q "^    input file: $kitname/public-tests/example.in\$" "$tmp/outside.log" ||
	bad "from outside the kit: $(grep 'input file' "$tmp/outside.log" | head -n 1)"
grep -q "$kit/public-tests" "$tmp/outside.log" && bad "an absolute path from outside the kit"
grep -c '^    input line' "$tmp/wa.log" > "$tmp/n"
[ "$(cat "$tmp/n")" -ge 3 ] || bad "fewer than 3 input lines named"
sed -n 's/^    input line \([0-9]*\) (answered by expected line \([0-9]*\)).*/\1 \2/p' "$tmp/wa.log" > "$tmp/lines"
grep -B 30 '^    input line' "$tmp/wa.log" | sed -n 's/^  \([a-z0-9-]*\): wrong answer$/\1/p' > "$tmp/names"
paste -d ' ' "$tmp/names" "$tmp/lines" | while read -r name in_line out_line; do
	n_at=$(head -n "$in_line" "$kit/public-tests/$name.in" | "$ref" | wc -l)
	n_before=$(head -n $((in_line - 1)) "$kit/public-tests/$name.in" | "$ref" | wc -l)
	[ "$n_at" -ge "$out_line" ] && [ "$n_before" -lt "$out_line" ] ||
		echo "FAIL: $name: input line $in_line does not answer expected line $out_line ($n_before, $n_at)"
done > "$tmp/mapfail"
[ -s "$tmp/mapfail" ] && bad "$(cat "$tmp/mapfail")"
grep -q "^    reproduce:  $tmp/wrong < public-tests/example.in | diff -u --label expected --label actual public-tests/example.out -\$" "$tmp/wrong.log" ||
	bad "no reproduce command for a program: $(grep reproduce "$tmp/wrong.log" | head -n 1)"

# No sandbox warning for a suite without hidden cases, even where no layer
# can be built; still there for one with a hidden case. Run as a normal
# user (nobody when this test is root), on a machine that allows no
# namespace (WG_NO_NAMESPACES=1).
as_user() { "$@"; }
if [ "$(id -u)" -eq 0 ]; then
	if command -v setpriv >/dev/null 2>&1; then
		as_user() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
	else
		as_user() { :; }
		echo "note: no setpriv, the warning check is skipped"
	fi
fi
mkdir "$tmp/hsuite"
cp "$kit/public-tests/example.in" "$kit/public-tests/example.out" "$tmp/hsuite/"
printf '{"name": "h", "cases": [{"name": "example", "category": "c", "points": 1}]}\n' > "$tmp/hsuite/suite.json"
chmod -R a+rX "$tmp/hsuite" "$kit"
(cd "$kit" && WG_NO_NAMESPACES=1 as_user ./selfcheck "$ref") > "$tmp/user.log" 2>&1
grep -q 'warning' "$tmp/user.log" && bad "a sandbox warning in the kit: $(grep warning "$tmp/user.log")"
grep -q 'AC' "$tmp/user.log" || bad "selfcheck as a user: no verdicts: $(tail -n 3 "$tmp/user.log")"
if [ "$(id -u)" -ne 0 ] || command -v setpriv >/dev/null 2>&1; then
	(cd "$kit" && WG_NO_NAMESPACES=1 as_user ./grade "$tmp/hsuite" "$ref") > "$tmp/hidden.log" 2>&1
	grep -q 'grade: warning: hidden tests may leak here: the programs can read' "$tmp/hidden.log" ||
		bad "no warning for a hidden suite graded without masks"
fi

# The Dockerfile, as far as a machine without docker can check it: known
# instructions, FROM a Debian image, RUN lines that sh accepts, make deps
# and make, a JSON CMD running make selfcheck, a normal USER, and the
# targets it names exist in the kit's Makefile.
python3 - "$kit/Dockerfile" > "$tmp/docker.log" 2>&1 <<'PY' || bad "Dockerfile: $(cat "$tmp/docker.log")"
import json, subprocess, sys
known = {"FROM", "RUN", "CMD", "LABEL", "EXPOSE", "ENV", "ADD", "COPY",
         "ENTRYPOINT", "VOLUME", "USER", "WORKDIR", "ARG", "ONBUILD",
         "STOPSIGNAL", "HEALTHCHECK", "SHELL"}
steps, cur = [], ""
for raw in open(sys.argv[1]):
    line = raw.rstrip("\n")
    if not cur and (not line.strip() or line.lstrip().startswith("#")):
        continue
    cur += line[:-1] + " " if line.endswith("\\") else line
    if not line.endswith("\\"):
        steps.append(cur.strip()); cur = ""
assert not cur, "a continued line at the end"
ins = [s.split(None, 1) for s in steps]
for i in ins:
    assert i[0] in known and i[0] == i[0].upper(), "unknown instruction " + i[0]
assert ins[0][0] == "FROM" and ins[0][1].startswith("debian:"), ins[0]
runs = [i[1] for i in ins if i[0] == "RUN"]
for r in runs:
    subprocess.run(["sh", "-n", "-c", r], check=True)
assert any("make deps" in r for r in runs), "no make deps"
cmd = json.loads([i[1] for i in ins if i[0] == "CMD"][-1])
assert cmd[:3] == ["make", "-s", "selfcheck"], cmd
users = [i[1] for i in ins if i[0] == "USER"]
assert users and users[-1] not in ("root", "0"), users
PY
(cd "$kit" && make -n deps selfcheck SRC=/src) > /dev/null 2>&1 || bad "Dockerfile: the kit has no deps/selfcheck targets"
(cd "$kit" && sh deps.sh make) > /dev/null 2>&1 || bad "make deps does not see make installed"
exit $fail
