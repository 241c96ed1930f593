#!/bin/sh
# grade --batch end to end: a small class (correct, wrong, does not compile,
# hangs past the student deadline, no sources: "no submission"), the
# gradebook's rows, the
# per-student reports and the summary; then a second run that skips the
# unchanged students and regrades the one whose sources changed.
set -u
. "$(dirname "$0")/lib.sh"
# As root, a sandbox uid range of its own: another grade running at the
# same time (a parallel test, the same test in another checkout) must not
# share, and so kill, its uids. The pid makes the range this run's.
e2e_uid_base 0
[ -x "$grade" ] || e2e_skip "no $grade"
suite=$WG_ROOT/public-tests
subs=$tmp/class
out=$tmp/out
mkdir -p "$subs/good" "$subs/wrong" "$subs/broken" "$subs/hangs" "$subs/empty"

# A correct student: the sample, or else the reference's sources made
# stand-alone.
if [ -d "$WG_ROOT/submissions/correct" ]; then
	cp "$WG_ROOT"/submissions/correct/*.[ch] "$subs/good/"
else
	for f in "$WG_ROOT"/reference/*.[ch]; do
		sed 's|"reference/|"|' "$f" > "$subs/good/${f##*/}"
	done
	sed -i '1i #define _POSIX_C_SOURCE 200809L' "$subs/good/main.c"
fi
cp "$subs"/good/* "$subs/wrong/"
# Wrong on every load line: the label loses a letter.
sed -i 's/efficiency/efficency/' "$subs"/wrong/*.c
grep -q efficency "$subs"/wrong/*.c || bad "could not make the wrong student"
echo 'int main(void) { return undeclared; }' > "$subs/broken/main.c"
printf '#include <unistd.h>\nint main(void) { for (;;) pause(); }\n' > "$subs/hangs/main.c"
echo "no sources here" > "$subs/empty/README"

# The hanging student sleeps through every case (a wall TLE each, 15 x 3 s):
# the student deadline, far below that and far above what the others need
# even on a loaded machine, must stop it and let the batch go on.
"$grade" --batch "$suite" "$subs" --out "$out" -j 2 --student-timeout 10 \
	--wall-limit 3 > "$tmp/stdout" 2> "$tmp/stderr"
rc=$?
[ $rc -eq 3 ] || bad "first run: exit $rc, want 3 (one student not graded)"
for f in gradebook.csv summary.txt summary.json; do
	[ -s "$out/$f" ] || bad "no $f"
done
for s in good wrong broken empty; do
	[ -s "$out/students/$s.json" ] || bad "no report for $s"
done
for s in good wrong broken; do
	[ -s "$out/logs/$s.log" ] || bad "no log for $s"
done
grep -q '"status": "no submission"' "$out/students/empty.json" ||
	bad "empty: $(cat "$out/students/empty.json")"
[ -e "$out/students/hangs.json" ] && bad "the stopped student got a report"
for f in "$out"/students/*.tmp "$out"/students/*.part; do
	[ -e "$f" ] && bad "temporary file left: $f"
done

# Nothing of the stopped student may survive it (as root: its worker uid).
if [ "$(id -u)" -eq 0 ]; then
	n=1
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		n=$(ps -eo uid= | awk -v u="$WG_UID_BASE" '$1 == u || $1 == u + 1' | wc -l)
		[ "$n" -eq 0 ] && break
		sleep 0.2
	done
	[ "$n" -eq 0 ] || bad "$n processes of the batch's sandbox uids survive"
fi
max=$(awk -F, '$1 == "good" { print $3 }' "$out/gradebook.csv")
row() { awk -F, -v s="$1" '$1 == s' "$out/gradebook.csv"; }
head -n 1 "$out/gradebook.csv" | grep -q '^student,score,max_score,misaligned,.*,AC,WA,TLE,MLE,OLE,RTE,CE,IE,build,status,error$' ||
	bad "gradebook header: $(head -n 1 "$out/gradebook.csv")"
[ "$(wc -l < "$out/gradebook.csv")" -eq 6 ] || bad "gradebook: want 5 rows"
row good | grep -q "^good,$max,$max,.*,ok,graded,$" || bad "good row: $(row good)"
row wrong | grep -q "^wrong,[0-9]*,$max,.*,ok,graded,$" || bad "wrong row: $(row wrong)"
[ "$(row wrong | cut -d, -f2)" -lt "$max" ] || bad "wrong student got full marks"
row broken | grep -q "^broken,0,$max,.*,failed,graded,$" || bad "broken row: $(row broken)"
row empty | grep -q "^empty,0,$max,.*,,no submission,$" || bad "empty row: $(row empty)"
row hangs | grep -q '^hangs,,,.*,not graded,"*grading took longer than 10 s' ||
	bad "hangs row: $(row hangs)"
grep -q '"source_hash": "[0-9a-f]\{16\}"' "$out/students/good.json" || bad "no source_hash"
grep -q 'Most often failed cases' "$out/summary.txt" || bad "summary: no failed cases"
grep -q 'hint: ' "$out/summary.txt" || bad "summary: no hints"
grep -q 'Score distribution' "$out/summary.txt" || bad "summary: no distribution"
grep -q '^\[[0-9]/5\] good: ' "$tmp/stderr" || bad "no progress line for good"
if command -v python3 >/dev/null 2>&1; then
	python3 - "$out/summary.json" <<'PY' || bad "summary.json"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["students"] == 5 and s["graded_now"] == 3 and s["not_graded"] == 1, s
assert s["no_submission"] == 1 and s["no_submission_students"] == ["empty"], s
assert not s["partial"] and s["not_started"] == 0, s
assert sum(h["count"] for h in s["scores"]["histogram"]) == 3
assert s["most_failed"] and all("hint" in e for e in s["most_failed"])
assert s["errors"][0]["student"] == "hangs"
PY
fi

# Second run: the hanging one now finishes; the wrong one is fixed. The
# two others graded are unchanged and must not be regraded (their reports
# stay byte for byte, graded_at included); the empty one is still without
# a submission.
cp "$out/students/good.json" "$tmp/good.before"
printf '#include <unistd.h>\nint main(void) { return 0; }\n' > "$subs/hangs/main.c"
cp "$subs"/good/*.c "$subs/wrong/"
"$grade" --batch "$suite" "$subs" --out "$out" -j 2 --student-timeout 60 \
	--wall-limit 3 > "$tmp/stdout" 2> "$tmp/stderr"
rc=$?
[ $rc -eq 1 ] || bad "second run: exit $rc, want 1"
cmp -s "$tmp/good.before" "$out/students/good.json" || bad "good was regraded"
row good | grep -q ',unchanged,$' || bad "good not unchanged: $(row good)"
row broken | grep -q ',unchanged,$' || bad "broken not unchanged: $(row broken)"
row wrong | grep -q "^wrong,$max,$max,.*,graded,$" || bad "wrong not regraded: $(row wrong)"
row hangs | grep -q "^hangs,0,$max,.*,graded,$" || bad "hangs not retried: $(row hangs)"
row empty | grep -q ',no submission,$' || bad "empty: $(row empty)"
grep -q 'students (2 unchanged)' "$tmp/stderr" || bad "stderr: $(cat "$tmp/stderr")"

# Changing the options regrades everyone.
"$grade" --batch "$suite" "$subs" --out "$out" -j 2 --wall-limit 3 --exact \
	> /dev/null 2> "$tmp/stderr"
grep -q 'students (0 unchanged)' "$tmp/stderr" || bad "--exact did not regrade"

# An interrupted batch keeps what finished, says who was interrupted, and
# leaves nothing running.
mkdir -p "$tmp/class2/a-good" "$tmp/class2/b-hangs"
cp "$subs"/good/* "$tmp/class2/a-good/"
printf '#include <unistd.h>\nint main(void) { for (;;) pause(); }\n' > "$tmp/class2/b-hangs/main.c"
"$grade" --batch "$suite" "$tmp/class2" --out "$tmp/out2" -j 2 --wall-limit 3 \
	> /dev/null 2> "$tmp/stderr2" &
pid=$!
for _ in $(seq 1 150); do
	[ -e "$tmp/out2/students/a-good.json" ] && break
	sleep 0.2
done
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] || bad "interrupted batch: exit $rc, want 130"
grep -q '^a-good,.*,graded,$' "$tmp/out2/gradebook.csv" || bad "interrupted: a-good lost"
grep -q '^b-hangs,.*,not graded,interrupted' "$tmp/out2/gradebook.csv" ||
	bad "interrupted: b-hangs row: $(grep b-hangs "$tmp/out2/gradebook.csv")"

# Usage errors.
"$grade" --batch "$suite" "$subs" > /dev/null 2>&1
[ $? -eq 2 ] || bad "no --out: want exit 2"
"$grade" --batch "$suite" "$subs" --out "$out" --json x > /dev/null 2>&1
[ $? -eq 2 ] || bad "--json with --batch: want exit 2"
"$grade" --batch "$suite" "$tmp/nonexistent" --out "$out" > /dev/null 2>&1
[ $? -eq 2 ] || bad "missing submissions dir: want exit 2"
[ -n "${WG_DEBUG:-}" ] && cat "$out/gradebook.csv" "$tmp/stderr"
exit $fail
