#!/bin/sh
# grade --batch --shard K/N and grade --merge end to end: a class of seven
# (six sample submissions and one without sources) graded whole and in
# three shards; the merge of the shards must equal the whole run:
#   - gradebook.csv byte for byte (report.html shows the measurements:
#     it is only checked to hold every student);
#   - summary.json but for "merge" (only a merge has it: the folders it
#     merged), summary.txt but for the "merged from ..." line;
#   - each students/NAME.json but for "graded_at" (a date), "shard" (which
#     shard graded it: 1 of 1 in the whole run) and the measurements of
#     each run (cpu_ms, wall_ms, max_rss_kb), which differ from run to run.
# Then the refusals (a shard graded against another suite, or with other
# options: exit 2, the folder and the key named, nothing written), a
# missing shard (a partial merge: exit 3, the students listed) and a shard
# given twice (exit 2, the students graded twice named).
set -u
. "$(dirname "$0")/lib.sh"
e2e_uid_base 6
[ -x "$grade" ] || e2e_skip "no $grade"
e2e_need python3
suite=$WG_ROOT/public-tests
subs=$tmp/class

# Names chosen so that each of the three shards holds two or three
# students (FNV-1a of the name mod 3: ben dan -> 1, cal max -> 2,
# amy eli ned -> 3); the test checks the split rather than trust this.
mkdir -p "$subs/ned"
for pair in amy:correct ben:compile-error cal:crash-bad-input \
	    dan:float-rounding eli:no-misalignment max:sector-bitmap; do
	name=${pair%%:*} sample=${pair#*:}
	[ -d "$WG_ROOT/submissions/$sample" ] || e2e_skip "no sample $sample"
	mkdir "$subs/$name"
	cp "$WG_ROOT/submissions/$sample"/*.c "$subs/$name/"
done

batch() { "$grade" --batch "$@" -j 2 --wall-limit 3 -q > /dev/null 2>> "$tmp/stderr"; }
batch "$suite" "$subs" --out "$tmp/all"
rc=$?
[ $rc -eq 1 ] || bad "whole class: exit $rc, want 1"
for k in 1 2 3; do
	batch "$suite" "$subs" --out "$tmp/s$k" --shard $k/3
	rc=$?
	[ $rc -le 1 ] || bad "shard $k: exit $rc"
	grep -q "^shard $k of 3: " "$tmp/s$k/summary.txt" ||
		bad "shard $k: summary.txt does not say 'shard $k of 3'"
done
"$grade" --merge --out "$tmp/m" "$tmp/s1" "$tmp/s2" "$tmp/s3" > "$tmp/merge.out" 2>&1
rc=$?
[ $rc -eq 1 ] || bad "merge: exit $rc, want 1: $(cat "$tmp/merge.out")"
cmp -s "$tmp/all/gradebook.csv" "$tmp/m/gradebook.csv" ||
	bad "merged gradebook differs: $(diff "$tmp/all/gradebook.csv" "$tmp/m/gradebook.csv")"
grep -v '^merged from 3 shard outputs: ' "$tmp/m/summary.txt" |
	cmp -s "$tmp/all/summary.txt" - || bad "merged summary.txt differs"
# report.html shows each run's measurements (time, memory): it is
# batch's own page of the merged students, each one on it.
for n in amy ben cal dan eli max ned; do
	grep -q ">$n<" "$tmp/m/report.html" || bad "merged report.html: no $n"
done
grep -q '^merged from 3 shard outputs: ' "$tmp/m/summary.txt" ||
	bad "merged summary.txt does not say what it merged"
# Each student's log comes along from its shard, as it was written there.
for k in 1 2 3; do
	for f in "$tmp/s$k/logs/"*.log; do
		[ -e "$f" ] || continue
		cmp -s "$f" "$tmp/m/logs/${f##*/}" || bad "merged logs/${f##*/} is not shard $k's"
	done
done
[ "$(ls "$tmp/m/logs" | wc -l)" -eq "$(ls "$tmp"/s1/logs "$tmp"/s2/logs "$tmp"/s3/logs | grep -c '\.log$')" ] ||
	bad "merged logs: $(ls "$tmp/m/logs")"
[ "$(ls "$tmp/m/logs" | wc -l)" -gt 0 ] || bad "no log came along from the shards"

python3 - "$tmp" <<'PY' || bad "the shards or the merge (above)"
import json, os, sys
t = sys.argv[1]
load = lambda *p: json.load(open(os.path.join(t, *p)))
klass = ["amy", "ben", "cal", "dan", "eli", "max", "ned"]
want = {1: ["ben", "dan"], 2: ["cal", "max"], 3: ["amy", "eli", "ned"]}
for k in (1, 2, 3):
    s = load("s%d" % k, "summary.json")
    assert s["shard"] == {"index": k, "count": 3}, s["shard"]
    assert s["class_students"] == klass, s["class_students"]
    got = sorted(os.listdir(os.path.join(t, "s%d" % k, "students")))
    # Each student's report and page (students/NAME.html).
    assert got == sorted([n + e for n in want[k] for e in (".json", ".html")]), (k, got)
    for n in want[k]:
        assert load("s%d" % k, "students", n + ".json")["shard"] == \
            {"index": k, "count": 3}, n
whole, merged = load("all", "summary.json"), load("m", "summary.json")
assert whole["shard"] == {"index": 1, "count": 1}, whole["shard"]
m = merged.pop("merge")
assert m["shards"] == [os.path.join(t, "s%d" % k) for k in (1, 2, 3)], m
assert m["missing_shards"] == [] and m["missing_students"] == [], m
assert merged == whole, "summary.json: merged %s, whole %s" % (merged, whole)
NOISE = {"graded_at", "shard", "cpu_ms", "wall_ms", "max_rss_kb"}
def clean(j):
    if isinstance(j, dict):
        return {k: clean(v) for k, v in j.items() if k not in NOISE}
    if isinstance(j, list):
        return [clean(v) for v in j]
    return j
assert sorted(os.listdir(os.path.join(t, "m", "students"))) == \
    sorted([n + e for n in klass for e in (".json", ".html")])
for n in klass:
    a, b = load("all", "students", n + ".json"), load("m", "students", n + ".json")
    assert clean(a) == clean(b), "students/%s.json differs" % n
PY

# Refusals: nothing written, exit 2, the folder and the key named. The
# other suite is the same suite with one more description; the other
# options, --exact. Shard 1 (two students) is graded again each time.
mkdir "$tmp/suite2"
cp -r "$suite"/. "$tmp/suite2/"
echo >> "$tmp/suite2/suite.json"
batch "$tmp/suite2" "$subs" --out "$tmp/s1-suite" --shard 1/3
batch "$suite" "$subs" --out "$tmp/s1-exact" --shard 1/3 --exact
refused() {   # refused KEY OUT...: the merge of OUT... is refused for KEY
	key=$1; shift
	"$grade" --merge --out "$tmp/refused" "$@" > "$tmp/refused.out" 2>&1
	rc=$?
	[ $rc -eq 2 ] || bad "$key: exit $rc, want 2: $(cat "$tmp/refused.out")"
	grep -q "$key" "$tmp/refused.out" ||
		bad "$key: the message does not name it: $(cat "$tmp/refused.out")"
	[ -e "$tmp/refused" ] && bad "$key: the refused merge wrote $tmp/refused"
}
refused "'$tmp/s1-suite' was graded against another suite .*: suite_hash" \
	"$tmp/s2" "$tmp/s1-suite" "$tmp/s3"
refused "'$tmp/s1-exact' was graded with other options .*: grade_options '--exact --wall-limit 3', not '--wall-limit 3'" \
	"$tmp/s2" "$tmp/s3" "$tmp/s1-exact"
# Shard 2 twice: an overlap, with the students both graded.
cp -r "$tmp/s2" "$tmp/s2b"
refused "'$tmp/s2' and '$tmp/s2b' are both shard 2 of 3; graded by both: cal, max" \
	"$tmp/s1" "$tmp/s2" "$tmp/s3" "$tmp/s2b"
refused "another N\|the same N" "$tmp/s1" "$tmp/all"
refused "cannot read '$tmp/nowhere/summary.json'" "$tmp/s1" "$tmp/nowhere"
# Into one of its own shard outputs: refused before anything is read.
cp "$tmp/s1/summary.json" "$tmp/s1.summary"
"$grade" --merge --out "$tmp/s1/" "$tmp/s1" "$tmp/s2" "$tmp/s3" > "$tmp/self.out" 2>&1
rc=$?
[ $rc -eq 2 ] || bad "merge into a shard's own folder: exit $rc, want 2"
grep -q "is the shard output '$tmp/s1': merge into a folder of its own" "$tmp/self.out" ||
	bad "merge into a shard's own folder: $(cat "$tmp/self.out")"
cmp -s "$tmp/s1/summary.json" "$tmp/s1.summary" || bad "the refused merge changed s1"

# Shard 3 missing: a partial merge, written and said so, exit 3.
"$grade" --merge --out "$tmp/p" "$tmp/s1" "$tmp/s2" > "$tmp/p.out" 2>&1
rc=$?
[ $rc -eq 3 ] || bad "missing shard: exit $rc, want 3"
grep -q '^PARTIAL: ' "$tmp/p/summary.txt" || bad "missing shard: summary.txt not PARTIAL"
grep -q '^Missing shards (not given to the merge) (1): 3$' "$tmp/p/summary.txt" ||
	bad "missing shard: summary.txt: $(cat "$tmp/p/summary.txt")"
grep -q '^amy,,,.*,not graded,"in shard 3 of 3, which was not given to the merge"$' \
	"$tmp/p/gradebook.csv" || bad "missing shard: gradebook: $(cat "$tmp/p/gradebook.csv")"
python3 - "$tmp/p/summary.json" <<'PY' || bad "missing shard: summary.json"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["partial"] and s["merge"]["missing_shards"] == [3], s["merge"]
assert s["merge"]["missing_students"] == ["amy", "eli", "ned"], s["merge"]
assert s["students"] == 7 and s["graded"] == 4, s
PY
[ -n "${WG_DEBUG:-}" ] && cat "$tmp/stderr" "$tmp/merge.out"
exit $fail
