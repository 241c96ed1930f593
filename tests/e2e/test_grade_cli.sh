#!/bin/sh
# grade's command line end to end, on a tiny suite and shell-script
# submissions: usage errors (exit 2, a message naming what), a bad suite
# (exit 2, file:line:col), a bad submission path, the JSON report's keys,
# --exact against the default rule, colour (never/always/NO_COLOR), the
# student and staff views of a hidden case, an internal error (exit 3,
# excluded from max_score), and the exporters' files.
set -u
. "$(dirname "$0")/lib.sh"
root=$WG_ROOT

# expect STATUS PATTERN CMD...: the exit status, and PATTERN (grep -E) in
# stdout+stderr ("" for none).
expect() {
	want=$1 pat=$2
	shift 2
	"$@" > "$tmp/out" 2>&1
	rc=$?
	[ "$rc" -eq "$want" ] || bad "exit $rc, not $want: $*"
	if [ -n "$pat" ] && ! grep -Eq -- "$pat" "$tmp/out"; then
		bad "no '$pat' in the output of: $*"
		sed 's/^/    /' "$tmp/out" | head -n 10
	fi
}

# The suite: "up" is visible, "down" hidden; 3 points each.
s=$tmp/suite
mkdir -p "$s"
cat > "$s/suite.json" <<'J'
{"name": "tiny", "limits": {"cpu_seconds": 1, "memory_mib": 64, "output_kib": 64,
            "processes": 4},
 "cases": [{"name": "up", "category": "one", "points": 3, "visibility": "visible"},
           {"name": "down", "category": "two", "points": 3, "visibility": "hidden"}]}
J
printf 'a b\nc\n' > "$s/up.in";   printf 'a b\nc\n' > "$s/up.out"
printf 'x y\nz\n' > "$s/down.in"; printf 'x y\nz\n' > "$s/down.out"

mk() { printf '#!/bin/sh\n%s\n' "$2" > "$tmp/$1"; chmod 755 "$tmp/$1"; }
mk echo 'exec cat'
mk trailing "sed 's/\$/  /'"
mk wrong "sed 's/ /  /'"
printf 'not a program\n' > "$tmp/noexec"; chmod 755 "$tmp/noexec"

# Usage errors.
expect 2 'missing SUITE_DIR' "$grade"
expect 2 'missing SUBMISSION' "$grade" "$s"
expect 2 "unknown option '--bogus'" "$grade" --bogus "$s" "$tmp/echo"
expect 2 "'--json' needs an argument" "$grade" "$s" "$tmp/echo" --json
expect 2 '--time-limit.*abc' "$grade" --time-limit abc "$s" "$tmp/echo"
expect 2 '-j.*0' "$grade" -j 0 "$s" "$tmp/echo"
expect 2 '--color.*purple' "$grade" --color=purple "$s" "$tmp/echo"
expect 0 'usage: grade' "$grade" --help
expect 0 '^grade \(warpgrade\) [0-9]' "$grade" --version

# Suite and submission errors name the file (and line:column for JSON).
expect 2 "suite.json'?" "$grade" "$tmp/nowhere" "$tmp/echo"
mkdir -p "$tmp/badsuite"
printf '{"name": "x",\n "cases": [}\n' > "$tmp/badsuite/suite.json"
expect 2 'badsuite/suite.json:2:[0-9]+: ' "$grade" "$tmp/badsuite" "$tmp/echo"
expect 2 "submission '$tmp/missing'" "$grade" "$s" "$tmp/missing"
printf 'x\n' > "$tmp/plain"
expect 2 "'$tmp/plain' is not a program, a .c file or a folder of C sources; give the folder that holds your .c files" "$grade" "$s" "$tmp/plain"
# A single .c file is a submission: built, then graded (a failed build
# prints the compiler and one last line).
printf 'int main(void) { return nope; }\n' > "$tmp/one.c"
expect 1 'your program did not compile: no case was run' "$grade" "$s" "$tmp/one.c"
# A Gradescope results.json is checked by --validate-gradescope.
printf '{"score": 1, "tests": [{"name": "a", "status": "maybe"}]}\n' > "$tmp/results.json"
expect 2 "results.json: tests\[0\].status: must be a string Gradescope knows" "$grade" --validate-gradescope "$tmp/results.json"
printf '{"score": 1, "tests": [' > "$tmp/results.json"
expect 2 "results.json:1:[0-9]+: " "$grade" --validate-gradescope "$tmp/results.json"
printf '{"score": 1, "tests": []}\n' > "$tmp/results.json"
expect 0 '' "$grade" --validate-gradescope "$tmp/results.json"

# Exit 0 when every case is accepted; 1 otherwise.
expect 0 'total.* 6/6' "$grade" --color=never "$s" "$tmp/echo"
expect 1 'total.* 0/6' "$grade" --color=never "$s" "$tmp/wrong"

# The default rule ignores trailing blanks at line ends; --exact does not.
expect 0 '6/6' "$grade" "$s" "$tmp/trailing"
expect 1 'first difference' "$grade" --exact "$s" "$tmp/trailing"

# Student view (default): the visible case's diff, not the hidden one's;
# whitespace made visible with the caret under the column.
expect 1 'hidden case: the details are shown to staff only' "$grade" "$s" "$tmp/wrong"
# Nor its detail or its time: the first difference's column answers guesses
# at the expected output, and the time is a channel the program chooses.
"$grade" --color=never "$s" "$tmp/wrong" > "$tmp/sv" 2>&1
grep -q 'first difference on line 1, column' "$tmp/sv" &&
	grep 'down' "$tmp/sv" | grep -q 'column' && bad "the student view shows a hidden case's first difference"
grep -E '^  down +two +WA +[0-9]' "$tmp/sv" && bad "the student view shows a hidden case's time"
grep -q 'expected: a·b' "$tmp/out" || bad "visible case: no visible whitespace"
grep -q 'expected: x·y' "$tmp/out" && bad "student view shows a hidden diff"
expect 1 'expected: x·y' "$grade" --staff "$s" "$tmp/wrong"
expect 1 '^ +@@ -1,2 \+1,2 @@' "$grade" --verbose --staff "$s" "$tmp/wrong"
expect 1 '' "$grade" --quiet "$s" "$tmp/wrong"
# One line on stdout (a warning about a missing sandbox layer goes to
# stderr).
[ "$("$grade" --quiet "$s" "$tmp/wrong" 2>/dev/null | wc -l)" -eq 1 ] ||
	bad "--quiet printed more than one line"

# Colour: never / always / auto (not a terminal here) / NO_COLOR.
esc=$(printf '\033')
expect 1 '' "$grade" --color=always "$s" "$tmp/wrong"
grep -q "$esc\[" "$tmp/out" || bad "--color=always: no escape sequence"
expect 1 '' "$grade" --color=never "$s" "$tmp/wrong"
grep -q "$esc" "$tmp/out" && bad "--color=never: escape sequence"
expect 1 '' "$grade" "$s" "$tmp/wrong"
grep -q "$esc" "$tmp/out" && bad "--color=auto on a pipe: escape sequence"
if command -v script > /dev/null 2>&1; then
	NO_COLOR=1 script -qec "$grade $s $tmp/wrong" /dev/null > "$tmp/tty" 2>&1
	grep -q "$esc\[1;3" "$tmp/tty" && bad "NO_COLOR on a terminal: colour"
	script -qec "$grade $s $tmp/wrong" /dev/null > "$tmp/tty" 2>&1
	grep -q "$esc\[1;3" "$tmp/tty" || bad "auto on a terminal: no colour"
fi

# What grade must hide from the programs has to be a folder, and not one
# that holds the scratch tree (that would unmask it).
expect 2 "cannot hide '$tmp/echo': not a folder" "$grade" --hide "$tmp/echo" "$s" "$tmp/echo"
expect 2 'holds the scratch folder' env TMPDIR="$s" "$grade" "$s" "$tmp/echo"

# A submission that is not a program (no #! line) is the student's fault:
# RTE "cannot run", exit 1.
expect 1 'cannot run: Exec format error' "$grade" "$s" "$tmp/noexec"

# An internal error (here: the grader runs out of descriptors, so it cannot
# make the pipes) is IE, exit 3, and its points leave max_score. How many
# descriptors the grader needs first depends on the machine: lower the
# limit until the runs fail.
# Each in a TMPDIR of its own: a grade stopped for want of descriptors
# still removes its scratch tree (scratch.c), from 4 up.
ie=0
mkdir -m 0755 "$tmp/fdt"
for n in 4 5 6 7 8 9 10 11 12; do
	rm -f "$tmp/ie.json"
	TMPDIR="$tmp/fdt" sh -c "ulimit -n $n; exec \"\$0\" \"\$@\"" "$grade" --json "$tmp/ie.json" \
		"$s" "$tmp/echo" > "$tmp/out" 2>&1
	rc=$?
	[ -z "$(ls -A "$tmp/fdt")" ] ||
		bad "ulimit -n $n: grade left $(ls -A "$tmp/fdt") (exit $rc: $(head -c 200 "$tmp/out"))"
	rm -rf "$tmp/fdt"/*
	if [ $rc -eq 3 ] && grep -q '"verdict": "IE"' "$tmp/ie.json" 2>/dev/null; then
		ie=1
		break
	fi
done
[ $ie -eq 1 ] || bad "no IE report with exit 3 under a descriptor limit"

# The JSON report: the documented keys, the WA diff, the hidden flag.
expect 1 '' "$grade" --json "$tmp/r.json" --junit "$tmp/r.xml" \
	--gradescope "$tmp/gs.json" "$s" "$tmp/echo" "$tmp/wrong"
[ -s "$tmp/r.xml" ] || bad "--junit wrote nothing"
[ -s "$tmp/gs.json" ] || bad "--gradescope wrote nothing"
if command -v python3 > /dev/null 2>&1; then
	python3 - "$tmp/r.json" "$tmp/ie.json" <<'PY' || bad "JSON report check failed"
import json, sys
r = json.load(open(sys.argv[1]))
for k in ("suite", "suite_dir", "grader_version", "exact", "submissions"):
    assert k in r, k
assert r["suite"] == "tiny" and r["exact"] is False
ok, wrong = r["submissions"]
for s in (ok, wrong):
    for k in ("submission", "score", "max_score", "build", "categories", "verdicts", "cases"):
        assert k in s, k
    for c in s["cases"]:
        for k in ("name", "category", "visibility", "verdict", "score", "max_score",
                  "cpu_ms", "wall_ms", "max_rss_kb", "detail", "diff", "stderr_tail"):
            assert k in c, k
        assert ("exit_code" in c) != ("signal" in c)
assert (ok["score"], ok["max_score"]) == (6, 6)
assert ok["build"]["status"] == "none"
assert (wrong["score"], wrong["max_score"]) == (0, 6)
assert [c["verdict"] for c in wrong["cases"]] == ["WA", "WA"]
assert wrong["cases"][1]["visibility"] == "hidden"
assert "first difference" in wrong["cases"][1]["diff"]   # JSON keeps hidden diffs
assert wrong["verdicts"]["WA"] == 2
ie = json.load(open(sys.argv[2]))["submissions"][0]
assert all(c["verdict"] == "IE" and c.get("excluded") for c in ie["cases"])
assert (ie["score"], ie["max_score"], ie["excluded_points"]) == (0, 0, 6)
PY
else
	for k in '"suite"' '"submissions"' '"max_score"' '"verdict"' '"cpu_ms"' \
	         '"max_rss_kb"' '"exit_code"' '"detail"'; do
		grep -q "$k" "$tmp/r.json" || bad "JSON report lacks $k"
	done
fi
exit $fail
