#!/bin/sh
# The Gradescope autograder end to end: make-zip.sh builds the zip, which is
# unpacked into a temporary directory laid out like /autograder (source/,
# submission/, results/); warpgrade is built from the zip (as setup.sh does,
# without apt-get), and run_autograder (AUTOGRADER_ROOT set) grades a
# correct submission, one that does not compile and one without sources.
# Each results.json is checked against Gradescope's format.
set -u
. "$(dirname "$0")/lib.sh"
# As root, a sandbox uid range of its own: another grade running at the
# same time (a parallel test, the same test in another checkout) must not
# share, and so kill, its uids. The pid makes the range this run's.
e2e_uid_base 4
if ! command -v unzip >/dev/null 2>&1 || ! command -v zip >/dev/null 2>&1; then
	echo "zip/unzip not installed"; exit 77
fi
e2e_need python3
ag=$tmp/autograder
# The parent make's flags (B=, CFLAGS= of a sanitizer build) are not the
# image's.
unset MAKEFLAGS MFLAGS MAKELEVEL

(cd "$WG_ROOT" && sh gradescope/make-zip.sh "$tmp/autograder.zip") > /dev/null ||
	{ echo "FAIL: make-zip.sh"; exit 1; }
mkdir -p "$ag/source" "$ag/submission"
(cd "$ag/source" && unzip -q "$tmp/autograder.zip") || { echo "FAIL: unzip"; exit 1; }
for f in setup.sh run_autograder; do
	[ -x "$ag/source/$f" ] || bad "$f is not an executable at the top of the zip"
done
[ -f "$ag/source/warpgrade/hidden-tests/suite.json" ] || bad "no hidden tests in the zip"
make -s -C "$ag/source/warpgrade" build/bin/grade CFLAGS=-O1 > "$tmp/build.log" 2>&1 ||
	{ cat "$tmp/build.log"; echo "FAIL: warpgrade does not build from the zip"; exit 1; }
cp "$ag/source/run_autograder" "$ag/run_autograder"   # as Gradescope does

# setup.sh (apt-get stubbed: the packages are here) closes the tree and
# prints the sandbox's account into the image build log.
mkdir -p "$tmp/bin"
printf '#!/bin/sh\nexit 0\n' > "$tmp/bin/apt-get"
chmod 755 "$tmp/bin/apt-get"
PATH=$tmp/bin:$PATH sh "$ag/source/setup.sh" > "$tmp/setup.log" 2>&1 ||
	bad "setup.sh failed: $(tail -n 5 "$tmp/setup.log")"
grep -q '^sandbox layers:' "$tmp/setup.log" ||
	bad "setup.sh does not print the sandbox's account: $(tail -n 5 "$tmp/setup.log")"
grep -Eq '^(ok: |hidden tests may leak here:)' "$tmp/setup.log" ||
	bad "setup.sh's account has no verdict"

check() { # $1: what, then python asserts on r (results) and s (the suite)
	what=$1
	python3 - "$ag/results/results.json" "$ag/source/warpgrade/hidden-tests/suite.json" "$2" <<'PY' || bad "$what"
import json, sys
r = json.load(open(sys.argv[1]))
s = json.load(open(sys.argv[2]))
for k in ("score", "output", "tests", "stdout_visibility"):
    assert k in r, "no key " + k
# Shown to students at once, and a hidden TLE would show in it.
assert "execution_time" not in r
for t in r["tests"]:
    for k in ("name", "number", "score", "max_score", "status", "output", "visibility", "tags"):
        assert k in t, "test without " + k
    assert t["status"] in ("passed", "failed")
    assert t["visibility"] in ("visible", "hidden", "after_due_date", "after_published")
exec(sys.argv[3])
PY
}
run() {
	rm -rf "$ag/results"
	AUTOGRADER_ROOT=$ag sh "$ag/run_autograder" > "$tmp/run.log" 2>&1 ||
		bad "run_autograder exited non-zero"
	[ -s "$ag/results/results.json" ] || { bad "no results.json ($1)"; cat "$tmp/run.log"; }
}

# 1. A correct submission (in a folder, as students often zip it).
mkdir -p "$ag/submission/mywork"
if [ -d "$WG_ROOT/submissions/correct" ]; then
	cp "$WG_ROOT"/submissions/correct/*.[ch] "$ag/submission/mywork/"
else
	for f in "$WG_ROOT"/reference/*.[ch]; do
		sed 's|"reference/|"|' "$f" > "$ag/submission/mywork/${f##*/}"
	done
	sed -i '1i #define _POSIX_C_SOURCE 200809L' "$ag/submission/mywork/main.c"
fi
run correct
check "correct submission" '
cases = s["cases"]
assert len(r["tests"]) == len(cases), (len(r["tests"]), len(cases))
assert r["score"] == sum(c["points"] for c in cases), r["score"]
for t, c in zip(r["tests"], cases):
    assert t["name"] == c["name"] and t["tags"] == [c["category"]]
    assert t["status"] == "passed" and t["score"] == t["max_score"] == c["points"]
    want = "visible" if c.get("visibility") == "visible" else "after_published"
    assert t["visibility"] == want, (t["name"], t["visibility"])
vis = sum(c["points"] for c in cases if c.get("visibility") == "visible")
assert "Score on the visible cases: %d / %d\n" % (vis, vis) in r["output"], r["output"]
assert "%d /" % r["score"] not in r["output"], "the total is in the summary"
'

# 1b. What instructors see (run_autograder's stdout) opens with the
# sandbox's account; students' results.json holds none of it.
head -n 1 "$tmp/run.log" | grep -q '^run_autograder: sandbox: ' ||
	bad "the autograder's stdout does not open with the sandbox's account: $(head -n 2 "$tmp/run.log")"
grep -q '^sandbox layers:' "$tmp/run.log" || bad "no layer table in the autograder's stdout"
grep -q 'sandbox' "$ag/results/results.json" && bad "the sandbox's account reached results.json"
# Where no namespace can be made (Docker's default seccomp profile as
# Gradescope probably runs it), the first line says plainly that hidden
# tests may leak, and grading goes on.
rm -rf "$ag/results"
WG_NO_NAMESPACES=1 AUTOGRADER_ROOT=$ag sh "$ag/run_autograder" > "$tmp/run-nons.log" 2>&1
head -n 1 "$tmp/run-nons.log" | grep -q 'HIDDEN TESTS MAY LEAK HERE' ||
	bad "without namespaces the first line does not say hidden tests may leak: $(head -n 1 "$tmp/run-nons.log")"
grep -q '^  - ' "$tmp/run-nons.log" || bad "without namespaces, no reason given"
check "correct submission without namespaces" '
assert r["score"] == sum(c["points"] for c in s["cases"]), r["score"]
assert "leak" not in r["output"] and "sandbox" not in r["output"], r["output"]
'

# 2. It does not compile: every case CE, the compiler's message in the
# summary, and still no hidden data anywhere.
rm -rf "$ag/submission"/*
printf 'int main(void) { return undeclared_name; }\n' > "$ag/submission/main.c"
run ce
check "CE submission" '
assert r["score"] == 0
# No case ran: no tests, no table, no hints; the compiler, then one line.
assert r["tests"] == [], r["tests"][:1]
out = r["output"]
assert "undeclared_name" in out, out
assert out.rstrip("\n").split("\n")[-1] == "your program did not compile: no case was run", out
assert "hint" not in out and "category" not in out and "Verdicts" not in out, out
'

# 3. Wrong answers: hidden cases name their verdict and nothing else.
rm -rf "$ag/submission"/*
printf '#include <stdio.h>\nint main(void) { puts("nonsense"); return 0; }\n' > "$ag/submission/main.c"
run wa
check "WA submission" '
hidden = [t for t in r["tests"] if t["visibility"] != "visible"]
assert hidden and all(t["output"] == "Wrong Answer (WA)" for t in hidden), hidden[0]
assert "nonsense" not in json.dumps(hidden)
'

# 3b. What students see before publication says nothing of hidden cases:
# the summary and the visible tests of a submission that fails only hidden
# cases (active-ignored passes the visible three) are those of a correct
# one, byte for byte; only the hidden tests and the withheld total differ.
visible_parts() {
	python3 - "$ag/results/results.json" > "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
# "score" is the total, which Gradescope withholds while a test is hidden.
top = {k: v for k, v in r.items() if k not in ("score", "tests")}
print(json.dumps(top, sort_keys=True))
for t in r["tests"]:
    if t["visibility"] == "visible":
        print(json.dumps(t, sort_keys=True))
PY
}
rm -rf "$ag/submission"/*
cp "$WG_ROOT"/submissions/correct/*.[ch] "$ag/submission/"
run correct-again
visible_parts "$tmp/vis-correct"
rm -rf "$ag/submission"/*
cp "$WG_ROOT/tests/wrong/active-ignored/main.c" "$ag/submission/"
run hidden-only
check "hidden-only failures" '
cases = s["cases"]
hidden = [t for t in r["tests"] if t["visibility"] != "visible"]
assert any(t["status"] == "failed" for t in hidden), "no hidden failure to hide"
assert all(t["status"] == "passed" for t in r["tests"] if t["visibility"] == "visible")
assert r["score"] < sum(c["points"] for c in cases)
for c in cases:
    if c.get("visibility") != "visible":
        assert c["name"] not in r["output"], c["name"]
'
visible_parts "$tmp/vis-wrong"
cmp -s "$tmp/vis-correct" "$tmp/vis-wrong" ||
	bad "the visible parts differ with hidden results: $(diff "$tmp/vis-correct" "$tmp/vis-wrong" | head -n 6)"
grep -q '"after_published"' "$tmp/vis-wrong" && bad "a hidden test among the visible parts"

# 3c. grade writes results.json atomically (a rename: a new inode, no
# temporary file left), and what it writes validates.
# A second link keeps the old inode in use, so its number cannot be
# handed to the new file (run_autograder may write twice).
ln "$ag/results/results.json" "$tmp/old-results"
ls -i "$ag/results/results.json" | cut -d' ' -f1 > "$tmp/ino1"
AUTOGRADER_ROOT=$ag sh "$ag/run_autograder" > /dev/null 2>&1
ls -i "$ag/results/results.json" | cut -d' ' -f1 > "$tmp/ino2"
cmp -s "$tmp/ino1" "$tmp/ino2" && bad "results.json rewritten in place"
rm -f "$tmp/old-results"
[ "$(ls "$ag/results")" = "results.json" ] || bad "left behind: $(ls "$ag/results")"
"$ag/source/warpgrade/build/bin/grade" --validate-gradescope "$ag/results/results.json" ||
	bad "grade's own results.json does not validate"

# 3d. A grade that writes a broken results.json (not JSON; JSON without
# the required fields): run_autograder must notice, and say honestly that
# the autograder failed, claiming nobody was told.
real=$ag/source/warpgrade/build/bin/grade
for broken in '{"score": 3, "tests": [' '{"output": "all good"}'; do
	printf '%s\n' '#!/bin/sh' \
		"[ \"\$1\" = --validate-gradescope ] && exec '$real' \"\$@\"" \
		'while [ $# -gt 0 ]; do [ "$1" = --gradescope ] && f=$2; shift; done' \
		"printf '%s\\n' '$broken' > \"\$f\"" > "$tmp/fake-grade"
	chmod 755 "$tmp/fake-grade"
	rm -rf "$ag/results"
	AUTOGRADER_ROOT=$ag WARPGRADE_GRADE=$tmp/fake-grade sh "$ag/run_autograder" > "$tmp/run.log" 2>&1 ||
		bad "run_autograder exited non-zero"
	check "broken results.json ($broken)" '
assert r["score"] == 0 and r["tests"] == [], r
assert "autograder failed" in r["output"] and "not your fault" in r["output"], r["output"]
assert "has been told" not in r["output"] and "tell the course staff" in r["output"], r["output"]
'
	"$real" --validate-gradescope "$ag/results/results.json" || bad "the fallback does not validate"
	grep -q 'not valid' "$tmp/run.log" || bad "the reason is not in the autograder log: $(cat "$tmp/run.log")"
done

# 4. No sources at all: still a results.json, score 0 and the reason.
rm -rf "$ag/submission"/*
echo "I forgot the code" > "$ag/submission/notes.txt"
run empty
check "empty submission" '
assert r["score"] == 0 and r["tests"] == []
assert "No .c file" in r["output"], r["output"]
'
exit $fail
