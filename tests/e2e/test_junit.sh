#!/bin/sh
# grade --junit end to end: the reference (all AC) and a hostile program
# whose output holds markup, quotes, control characters and invalid UTF-8
# must give a well-formed JUnit document (xmllint, else python3's parser)
# with one testsuite per submission, one testcase per case and the right
# failure counts.
set -u
case "$WG_BUILD" in /*) ;; *) WG_BUILD=$WG_ROOT/$WG_BUILD ;; esac
# As root, a sandbox uid range of its own: another grade running at the
# same time (a parallel test, the same test in another checkout) must not
# share, and so kill, its uids. The pid makes the range this run's.
WG_UID_BASE=$((200000 + ($$ % 100000) * 8 + 2)); export WG_UID_BASE
grade=$WG_BUILD/bin/grade
[ -x "$grade" ] || { echo "no $grade"; exit 77; }
if command -v xmllint >/dev/null 2>&1; then
	check_xml() { xmllint --noout "$1"; }
elif command -v python3 >/dev/null 2>&1; then
	check_xml() { python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$1"; }
else
	echo "neither xmllint nor python3"; exit 77
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
# The reference as a plain program: a sanitizer build of it could not start
# under the grader's address-space limit.
ref=$tmp/reference
cc -std=c11 -D_GNU_SOURCE -O1 -I"$WG_ROOT" -o "$ref" "$WG_ROOT"/reference/*.c ||
	{ echo "FAIL: cannot build the reference"; exit 1; }
bad() { echo "FAIL: $*"; fail=1; }
suite=$WG_ROOT/public-tests
ncases=$(grep -c '"name": *"[^"]*", *"category"' "$suite/suite.json")

cat > "$tmp/hostile" <<'SH'
#!/bin/sh
printf 'efficiency <b>&amp;</b> "q" '"'"'a'"'"' \001\002\033[31m\377\376\300\200 ]]> \r\n'
printf 'stderr \007\010 <&> \377\n' >&2
exit 0
SH
chmod 755 "$tmp/hostile"
chmod 755 "$tmp"

"$grade" --quiet --junit "$tmp/out.xml" "$suite" "$ref" "$tmp/hostile" > /dev/null
rc=$?
[ $rc -eq 1 ] || bad "grade exit $rc, want 1"
[ -s "$tmp/out.xml" ] || { echo "FAIL: no JUnit file"; exit 1; }
check_xml "$tmp/out.xml" || bad "not well-formed XML"
[ "$(grep -c '<testsuite ' "$tmp/out.xml")" -eq 2 ] || bad "want 2 testsuites"
[ "$(grep -c '<testcase ' "$tmp/out.xml")" -eq $((2 * ncases)) ] ||
	bad "want $((2 * ncases)) testcases"
grep -q "<testsuites name=\"warpgrade public\" tests=\"$((2 * ncases))\" failures=\"$ncases\" errors=\"0\"" "$tmp/out.xml" ||
	bad "totals: $(grep '<testsuites' "$tmp/out.xml")"
grep -q "tests=\"$ncases\" failures=\"0\" errors=\"0\" skipped=\"0\"" "$tmp/out.xml" ||
	bad "the reference's testsuite is not all passed"
grep -q '<failure message="WA" type="WA">WA: ' "$tmp/out.xml" || bad "no WA failure"
grep -q 'classname="misaligned"' "$tmp/out.xml" || bad "classname is not the category"
grep -q '&lt;b&gt;&amp;amp;&lt;/b&gt; &quot;q&quot; &apos;a&apos;' "$tmp/out.xml" ||
	bad "markup not escaped"
grep -qi '\\x01\\x02\\x1B\[31m' "$tmp/out.xml" || bad "control characters not made visible"
LC_ALL=C grep -q "$(printf '[\001-\010\013\014\016-\037]')" "$tmp/out.xml" &&
	bad "raw control characters in the XML"
if command -v python3 >/dev/null 2>&1; then
	python3 - "$tmp/out.xml" "$ncases" <<'PY' || bad "structure"
import sys, xml.etree.ElementTree as E
root = E.parse(sys.argv[1]).getroot()
n = int(sys.argv[2])
suites = root.findall("testsuite")
assert [len(s.findall("testcase")) for s in suites] == [n, n]
assert all(c.find("failure") is None for c in suites[0].findall("testcase"))
fails = [c.find("failure") for c in suites[1].findall("testcase")]
assert all(f is not None and f.get("type") == "WA" for f in fails)
assert "efficiency <b>&amp;</b>" in fails[0].text, fails[0].text
assert all(float(c.get("time")) >= 0 for c in root.iter("testcase"))
PY
fi
exit $fail
