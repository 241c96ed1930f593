#!/bin/sh
# A case's input is fed to the program as it is read (runner.h's
# input_path), in pieces of a fixed buffer, not loaded whole: a 3 MiB input
# (many times the buffer) reaches the reference entire, so it answers its
# last line; a wrong answer to that line still names it (the line map
# reads the input where it lies). (A case file that cannot be read when
# its case runs, IE: check_judge.c.)
set -u
. "$(dirname "$0")/lib.sh"
root=$WG_ROOT
fail() { echo "FAIL: $*"; exit 1; }

s=$tmp/suite
mkdir "$s"
awk 'BEGIN {
	for (n = 0; n < 60000; n++)
		print "# padding padding padding padding padding padding pad"
	print "strided 1 1"
}' > "$s/big.in"
[ "$(wc -c < "$s/big.in")" -gt 3000000 ] || fail "the input is not 3 MB"
lines=$(wc -l < "$s/big.in")
"$ref" < "$s/big.in" > "$s/big.out"
[ -s "$s/big.out" ] || fail "the reference printed nothing"
cp "$s/big.in" "$s/wrong.in"
sed 's/efficiency/EFFICIENCY/' "$s/big.out" > "$s/wrong.out"
cat > "$s/suite.json" <<'JSON'
{"name": "stream",
 "line_map": {"comment": "#", "error_prefix": "error: ", "default": 1,
              "commands": {"active": 0, "aos": 2}},
 "cases": [{"name": "big", "category": "c", "points": 1, "visibility": "visible"},
           {"name": "wrong", "category": "c", "points": 1, "visibility": "visible"}]}
JSON

"$grade" -j 1 --json "$tmp/r.json" "$s" "$ref" > "$tmp/out" 2>&1
rc=$?
[ $rc -eq 1 ] || { cat "$tmp/out"; fail "grade exited $rc, not 1"; }
grep -Eq '^  big +c +AC ' "$tmp/out" || { cat "$tmp/out"; fail "big: not AC"; }
grep -Eq '^  wrong +c +WA ' "$tmp/out" || { cat "$tmp/out"; fail "wrong: not WA"; }
grep -q "^    input line $lines (answered by expected line 1): strided 1 1\$" "$tmp/out" ||
	{ cat "$tmp/out"; fail "wrong: its input line $lines is not named"; }

echo "ok"
