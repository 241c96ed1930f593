#!/bin/sh
# A page per student and the LMS imports, from the batch (issue 19, item
# 2): DIR/students/NAME.html is the student view of that student's report
# (a hidden case's verdict only; no other student), self-contained;
# DIR/canvas.csv and DIR/moodle.csv follow Canvas's and Moodle's CSV
# columns, with ids from --roster FILE (or the folder names); a roster with
# a fault stops the batch before grading, with FILE:LINE.
set -u
. "$(dirname "$0")/lib.sh"
e2e_uid_base 0
[ -x "$grade" ] || e2e_skip "no $grade"
[ -d "$WG_ROOT/submissions/bank-threads" ] || e2e_skip "no sample submissions"
mkdir "$tmp/class" "$tmp/class/nothing"
cp -R "$WG_ROOT/submissions/bank-threads" "$tmp/class/alice"
cp -R "$WG_ROOT/submissions/crash-bad-input" "$tmp/class/bob"
cp -R "$WG_ROOT/submissions/correct" "$tmp/class/carol"
echo "no sources" > "$tmp/class/nothing/README"
suite=$WG_ROOT/hidden-tests
cat > "$tmp/roster.csv" <<'CSV'
Folder,ID,Name,Email,Section,SIS Login ID
alice,5001,"Liddell, Alice",alice@example.edu,S1,aliddell
bob,5002,Bob,bob@example.edu,S2,bob
nothing,5004,Nick,nick@example.edu,S1,nick
CSV
"$grade" --batch "$suite" "$tmp/class" --out "$tmp/out" -j 2 --roster "$tmp/roster.csv" \
	--assignment 'Lab 3' > "$tmp/stdout" 2> "$tmp/stderr"
rc=$?
[ $rc -eq 1 ] || bad "batch: exit $rc: $(tail -n 5 "$tmp/stderr")"
grep -q "roster '$tmp/roster.csv' has no row for 'carol'" "$tmp/stderr" ||
	bad "no warning for a student not in the roster: $(cat "$tmp/stderr")"
for s in alice bob carol; do
	[ -s "$tmp/out/students/$s.html" ] || bad "no students/$s.html"
done
python3 - "$tmp/out" <<'PY' || bad "the student pages"
import json, re, sys
out = sys.argv[1]
names = ["alice", "bob", "carol"]
for me in names:
    page = open(f"{out}/students/{me}.html", encoding="utf-8").read()
    rep = json.load(open(f"{out}/students/{me}.json"))
    assert '<span id="view">student</span>' in page, me
    for other in names:
        if other != me:
            assert other not in page, (me, other)
    # Self-contained: nothing fetched from elsewhere.
    assert not re.search(r'(src|href)="(https?:)?//', page), me
    assert "Content-Security-Policy" in page, me
    cases = rep["submissions"][0]["cases"]
    def lines(c):
        text = "\n".join(c.get(k) or "" for k in ("diff", "output_head", "stderr_tail", "detail"))
        return {l.strip() for l in text.split("\n") if len(l.strip()) > 12}
    shown = set()
    for c in cases:
        if c["visibility"] != "hidden":
            shown |= lines(c)
    def html(t):
        return (t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                 .replace('"', "&quot;").replace("'", "&#39;"))
    for c in cases:
        if c["visibility"] == "hidden" and c["verdict"] != "AC":
            for l in lines(c) - shown:
                assert html(l) not in page, (me, c["name"], l)
    # One submission: no histogram, no median.
    assert 'id="histogram"' not in page and "median" not in page, me
PY
# A visible failure's detail is on its student's page.
grep -q 'class="v v-RTE">RTE' "$tmp/out/students/bob.html" || bad "bob's page lacks his verdicts"

# Canvas: its export's columns and Points Possible row; Moodle: its export's
# names; ids from the roster, carol (not in it) left out.
max=$(awk -F, 'NR == 2 { print $3 }' "$tmp/out/gradebook.csv")
cat > "$tmp/canvas.want" <<CSV
Student,ID,SIS User ID,SIS Login ID,Section,Lab 3
    Points Possible,,,,,$max
CSV
head -n 2 "$tmp/out/canvas.csv" | cmp -s - "$tmp/canvas.want" ||
	bad "canvas.csv header: $(head -n 2 "$tmp/out/canvas.csv")"
grep -q '^"Liddell, Alice",5001,,aliddell,S1,[0-9][0-9]*$' "$tmp/out/canvas.csv" ||
	bad "canvas.csv: alice's row: $(cat "$tmp/out/canvas.csv")"
grep -q '^Nick,5004,,nick,S1,0$' "$tmp/out/canvas.csv" ||
	bad "canvas.csv: no submission is not 0"
grep -q carol "$tmp/out/canvas.csv" "$tmp/out/moodle.csv" && bad "carol is in an LMS file"
[ "$(head -n 1 "$tmp/out/moodle.csv")" = 'ID number,Email address,Full name,Assignment: Lab 3 (Real),Feedback' ] ||
	bad "moodle.csv header: $(head -n 1 "$tmp/out/moodle.csv")"
grep -q "^5002,bob@example.edu,Bob,[0-9]*,[0-9]*/$max (RTE [0-9]*)\$" "$tmp/out/moodle.csv" ||
	bad "moodle.csv: bob's row: $(cat "$tmp/out/moodle.csv")"
python3 - "$tmp/out" <<'PY' || bad "the LMS files do not agree with gradebook.csv"
import csv, sys
out = sys.argv[1]
book = {r["student"]: r for r in csv.DictReader(open(f"{out}/gradebook.csv"))}
canvas = list(csv.DictReader(open(f"{out}/canvas.csv")))[1:]
ids = {"5001": "alice", "5002": "bob", "5004": "nothing"}
assert sorted(r["ID"] for r in canvas) == sorted(ids), canvas
for r in canvas:
    assert r["Lab 3"] == book[ids[r["ID"]]]["score"], (r, book[ids[r["ID"]]])
PY

# Without a roster the folder names are the ids.
"$grade" --batch "$suite" "$tmp/class" --out "$tmp/out" -j 2 > /dev/null 2>&1
grep -q "^carol,carol,,,,$max\$" "$tmp/out/canvas.csv" ||
	bad "without a roster: $(cat "$tmp/out/canvas.csv")"
# A roster with a fault: exit 2 before grading, with FILE:LINE.
printf 'folder,id\nalice,1\nalice,2\n' > "$tmp/dup.csv"
"$grade" --batch "$suite" "$tmp/class" --out "$tmp/out2" --roster "$tmp/dup.csv" > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] || bad "a roster with a folder twice: not exit 2"
grep -q "$tmp/dup.csv:3: the folder 'alice' is in the roster twice" "$tmp/err" ||
	bad "roster fault: $(cat "$tmp/err")"
[ -e "$tmp/out2/students/alice.json" ] && bad "graded despite a bad roster"
printf 'name,id\nx,1\n' > "$tmp/nofolder.csv"
"$grade" --batch "$suite" "$tmp/class" --out "$tmp/out2" --roster "$tmp/nofolder.csv" > /dev/null 2> "$tmp/err"
grep -q "$tmp/nofolder.csv:1: no 'folder' column" "$tmp/err" || bad "no folder column: $(cat "$tmp/err")"
printf 'folder,id\n"alice,1\n' > "$tmp/quote.csv"
"$grade" --batch "$suite" "$tmp/class" --out "$tmp/out2" --roster "$tmp/quote.csv" > /dev/null 2> "$tmp/err"
grep -q "$tmp/quote.csv:2:9: an unterminated quote" "$tmp/err" || bad "quote: $(cat "$tmp/err")"
exit $fail
