#!/bin/sh
# The student kit end to end: `make student-kit` writes the tarball, which is
# unpacked in a temporary directory, built with its own Makefile, and used
# to self-check a correct program (exit 0), a correct source directory and
# a wrong program (exit non-zero, diffs and hints). Nothing from reference/
# or hidden-tests/ may be inside: no such path, and no file with the content
# of a reference source or of a hidden test.
set -u
case "$WG_BUILD" in /*) ;; *) WG_BUILD=$WG_ROOT/$WG_BUILD ;; esac
# As root, a sandbox uid range of its own: another grade running at the
# same time (a parallel test, the same test in another checkout) must not
# share, and so kill, its uids. The pid makes the range this run's.
WG_UID_BASE=$((200000 + ($$ % 100000) * 8 + 6)); export WG_UID_BASE
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
# The reference as a plain program: a sanitizer build of it could not start
# under the grader's address-space limit.
ref=$tmp/reference
cc -std=c11 -D_GNU_SOURCE -O1 -I"$WG_ROOT" -o "$ref" "$WG_ROOT"/reference/*.c ||
	{ echo "FAIL: cannot build the reference"; exit 1; }
bad() { echo "FAIL: $*"; fail=1; }
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
(cd "$kit" && make -s selfcheck BIN="$tmp/wrong") > "$tmp/wrong.log" 2>&1 &&
	bad "selfcheck of a wrong program succeeded"
grep -q 'WA' "$tmp/wrong.log" || bad "no WA for the wrong program"
grep -q '^ *+efficiency 6.2%' "$tmp/wrong.log" || bad "no diff in the selfcheck output"
grep -q '^  hint (rounding): Round half up' "$tmp/wrong.log" || bad "no rounding hint"
(cd "$kit" && make -s selfcheck) > /dev/null 2>&1 && bad "selfcheck without BIN or SRC succeeded"
exit $fail
