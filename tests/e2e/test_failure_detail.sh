#!/bin/sh
# Failures a student can act on (issue 19, item 4): a crash and a time-out
# name the input line the program fails on (found by rerunning it on
# shorter starts of the input) and show what it wrote; an output-limit
# failure shows the first lines it wrote; the JSON, Gradescope and HTML
# reports carry the same. A page of one submission has no histogram or
# median.
set -u
. "$(dirname "$0")/lib.sh"
e2e_uid_base 0
[ -x "$grade" ] || e2e_skip "no $grade"

# A suite of three cases of six lines; the program answers "ok LINE" per
# line (buffered: a crash loses it), crashes on "boom", spins on "spin",
# floods on "flood".
mkdir "$tmp/suite" "$tmp/prog"
for c in crash spin flood; do
	printf 'one\ntwo\nthree\n%s\nfive\nsix\n' "$c" |
		sed "s/^crash\$/boom/; s/^spin\$/spin/; s/^flood\$/flood/" > "$tmp/suite/$c.in"
	sed 's/^/ok /' "$tmp/suite/$c.in" > "$tmp/suite/$c.out"
done
cat > "$tmp/suite/suite.json" <<'JSON'
{"name": "stops", "limits": {"cpu_seconds": 1, "wall_seconds": 3, "output_kib": 64},
 "cases": [{"name": "crash", "category": "c", "points": 1, "visibility": "visible"},
           {"name": "spin", "category": "c", "points": 1, "visibility": "visible"},
           {"name": "flood", "category": "c", "points": 1, "visibility": "visible"}]}
JSON
cat > "$tmp/prog/main.c" <<'C'
#include <signal.h>
#include <stdio.h>
#include <string.h>
int main(void)
{
	char line[256];
	volatile unsigned long n = 0;

	while (fgets(line, sizeof line, stdin)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strcmp(line, "boom"))
			raise(SIGSEGV);
		if (!strcmp(line, "spin"))
			for (;;)
				n++;
		if (!strcmp(line, "flood"))
			for (unsigned long i = 0; i < 100000; i++)
				printf("flood %lu\n", i);
		printf("ok %s\n", line);
	}
	return 0;
}
C
"$grade" --json "$tmp/r.json" --gradescope "$tmp/gs.json" --html "$tmp/r.html" \
	"$tmp/suite" "$tmp/prog" > "$tmp/out" 2>&1
[ $? -eq 1 ] || bad "exit status $?: $(cat "$tmp/out")"
grep -q '^  crash: run-time error' "$tmp/out" || bad "crash: not RTE: $(cat "$tmp/out")"
grep -q '^    it fails once it reads input line 4: boom$' "$tmp/out" ||
	bad "crash: no input line: $(grep -A3 '^  crash' "$tmp/out")"
grep -q '^    its output: nothing (what it printed may have been lost' "$tmp/out" ||
	bad "crash: its (lost) output not said"
grep -q '^  spin: time limit exceeded' "$tmp/out" || bad "spin: not TLE"
grep -q '^    it runs out of time once it reads input line 4: spin$' "$tmp/out" ||
	bad "spin: no input line: $(grep -A3 '^  spin' "$tmp/out")"
grep -q '^  flood: output limit exceeded' "$tmp/out" || bad "flood: not OLE"
grep -A4 '^  flood: output limit' "$tmp/out" | grep -q '^    its output ([0-9]* lines; the first ones):$' ||
	bad "flood: no output head: $(grep -A4 '^  flood' "$tmp/out")"
grep -A6 '^  flood: output limit' "$tmp/out" | grep -q '^      ok one$' ||
	bad "flood: the first line it wrote is not shown"
python3 - "$tmp/r.json" "$tmp/gs.json" <<'PY' || bad "the JSON or Gradescope report lacks it"
import json, sys
r = json.load(open(sys.argv[1]))
cases = {c["name"]: c for c in r["submissions"][0]["cases"]}
assert cases["crash"]["stop_line"] == 4 and cases["crash"]["stop_input"] == "boom", cases["crash"]
assert cases["spin"]["stop_line"] == 4, cases["spin"]
assert cases["flood"]["output_head"].startswith("ok one\nok two\nok three\nflood 0\n"), cases["flood"]
assert cases["flood"]["output_lines"] > 1000, cases["flood"]
g = json.load(open(sys.argv[2]))
out = {t["name"].split(" ")[-1]: t["output"] for t in g["tests"]}
crash = [o for n, o in out.items() if "crash" in n][0]
assert "It fails once it reads input line 4: boom" in crash, crash
PY
# The page: in the drill-down's data (html_drill.c), the crash's input
# line and its text.
python3 - "$tmp/r.html" <<'PY' || bad "the page does not name the input line"
import html, json, re, sys
s = open(sys.argv[1], encoding="utf-8").read()
d = json.loads(html.unescape(re.search(r'<pre id="wg-data" hidden>(.*?)</pre>', s, re.S).group(1)))
s0 = d["s"][0]
ids = s0.get("i", range(d["n"]))
names = [d["k"][ids[c[0]]][0] for c in s0["c"]]
crash = [c for n, c in zip(names, s0["c"]) if n == "crash"][0]
assert crash[11] == 4 and d["t"][crash[12]] == "boom", crash
flood = [c for n, c in zip(names, s0["c"]) if n == "flood"][0]
assert d["t"][flood[9]].startswith("ok one\n"), flood
PY
# One submission is one: no histogram, no median.
grep -q 'id="histogram"' "$tmp/r.html" && bad "a histogram of one submission"
grep -q 'median' "$tmp/r.html" && bad "a median of one submission"
grep -q '<p id="stats">0 of 3 (0%).</p>' "$tmp/r.html" || bad "no score line on the page of one"
exit $fail
