#!/bin/sh
# grade --junit end to end: the reference (all AC) and a hostile program
# whose output holds markup, quotes, control characters and invalid UTF-8
# must give a well-formed JUnit document (xmllint, else python3's parser)
# with one testsuite per submission, one testcase per case and the right
# failure counts.
set -u
. "$(dirname "$0")/lib.sh"
# As root, a sandbox uid range of its own: another grade running at the
# same time (a parallel test, the same test in another checkout) must not
# share, and so kill, its uids. The pid makes the range this run's.
e2e_uid_base 2
[ -x "$grade" ] || e2e_skip "no $grade"
if command -v xmllint >/dev/null 2>&1; then
	check_xml() { xmllint --noout "$1"; }
elif command -v python3 >/dev/null 2>&1; then
	check_xml() { python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$1"; }
else
	echo "neither xmllint nor python3"; exit 77
fi
# The reference as a plain program: a sanitizer build of it could not start
# under the grader's address-space limit.
ref=$tmp/reference
cc -std=c11 -D_GNU_SOURCE -O1 -I"$WG_ROOT" -o "$ref" "$WG_ROOT"/reference/*.c ||
	{ echo "FAIL: cannot build the reference"; exit 1; }
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
grep -q "classname=\"$ref.misaligned\"" "$tmp/out.xml" || bad "classname is not SUBMISSION.CATEGORY"
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
# The Jenkins/xUnit JUnit schema (tests/data/junit-10.xsd), with xmllint
# from libxml2-utils (make deps installs it). It must also refuse a
# document it should, or it proves nothing.
xsd=$WG_ROOT/tests/data/junit-10.xsd
if command -v xmllint >/dev/null 2>&1; then
	schema() { xmllint --noout --schema "$xsd" "$1" 2> "$tmp/xsd.log"; }
	schema "$tmp/out.xml" || bad "not valid against the JUnit schema: $(head -n 3 "$tmp/xsd.log")"
	printf '<testsuites><testsuite tests="1"><testcase classname="x"/></testsuite></testsuites>\n' > "$tmp/nameless.xml"
	schema "$tmp/nameless.xml" && bad "the schema accepts a testcase without a name"
else
	bad "xmllint (Debian package libxml2-utils, make deps) is needed for the schema check"
	schema() { return 0; }
fi

# A class in one file, as CI collects it: correct, hostile, not compiling,
# and the same submission twice. Every (classname, name) pair is unique
# (GitLab keeps only the first of a pair), the failed build is a testcase
# named "build" whose failure carries the compiler's message, and the
# whole file still validates.
mkdir "$tmp/broken"
printf 'int main(void)\n{\n\treturn undeclared_x;\n}\n' > "$tmp/broken/main.c"
chmod -R a+rX "$tmp/broken"
"$grade" --quiet --junit "$tmp/class.xml" "$suite" "$ref" "$tmp/hostile" "$tmp/broken" "$ref" > /dev/null
rc=$?
[ $rc -eq 1 ] || bad "class: grade exit $rc, want 1"
schema "$tmp/class.xml" || bad "the class file is not valid: $(head -n 3 "$tmp/xsd.log")"
python3 - "$tmp/class.xml" "$ncases" "$tmp/broken" <<'PY' || bad "class file"
import collections, sys, xml.etree.ElementTree as E
root = E.parse(sys.argv[1]).getroot()
n, broken = int(sys.argv[2]), sys.argv[3]
cases = list(root.iter("testcase"))
pairs = collections.Counter((c.get("classname"), c.get("name")) for c in cases)
dup = [p for p, k in pairs.items() if k > 1]
assert not dup, "repeated pairs: %r" % dup[:3]
assert len(cases) == 4 * n + 1, len(cases)
suites = root.findall("testsuite")
b = [s for s in suites if s.get("name") == broken][0]
build = [c for c in b.findall("testcase") if c.get("name") == "build"]
assert len(build) == 1 and build[0].get("classname") == broken, build
f = build[0].find("failure")
assert f is not None and f.get("type") == "CE", f
assert "undeclared_x" in f.text and "no case was run" in f.text, f.text
others = [c for c in b.findall("testcase") if c.get("name") != "build"]
assert len(others) == n and all(c.find("skipped") is not None for c in others)
assert b.get("tests") == str(n + 1) and b.get("failures") == "1" and b.get("skipped") == str(n), b.attrib
assert b.find("system-out") is None
assert int(root.get("tests")) == len(cases), root.get("tests")
PY

# --student (the default) leaves a hidden case's diff, and so its expected
# lines, out of the JUnit; --staff keeps them. example is made hidden, and
# a line of its expected output that no other case expects must appear in
# the staff file only.
mkdir "$tmp/hsuite"
cp "$suite"/*.in "$suite"/*.out "$tmp/hsuite/"
sed 's/\("name": "example".*"visibility": \)"visible"/\1"hidden"/' "$suite/suite.json" > "$tmp/hsuite/suite.json"
grep -q '"name": "example".*"hidden"' "$tmp/hsuite/suite.json" || bad "could not hide example"
line=$(while IFS= read -r l; do
	grep -qxF -- "$l" $(ls "$suite"/*.out | grep -v '/example.out$') || { echo "$l"; break; }
done < "$suite/example.out")
[ -n "$line" ] || bad "no line unique to example.out"
chmod -R a+rX "$tmp/hsuite"
"$grade" --quiet --junit "$tmp/student.xml" "$tmp/hsuite" "$tmp/hostile" > /dev/null
"$grade" --quiet --staff --junit "$tmp/staff.xml" "$tmp/hsuite" "$tmp/hostile" > /dev/null
grep -qF -- "$line" "$tmp/student.xml" && bad "a hidden expected line in the student JUnit: $line"
grep -qF -- "$line" "$tmp/staff.xml" || bad "the staff JUnit lacks the hidden diff"
grep -q '<failure message="WA" type="WA">WA (hidden case)</failure>' "$tmp/student.xml" ||
	bad "the hidden case does not name its verdict in the student JUnit"
schema "$tmp/student.xml" || bad "the student file is not valid"
exit $fail
