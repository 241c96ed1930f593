#!/bin/sh
# grade --batch cleans up after itself and reads submissions as students
# upload them:
# - sources at any depth (the one folder holding .c files; __MACOSX and
#   dot-folders ignored), two source folders an error naming both, a
#   folder without sources "no submission";
# - an interrupted batch's summary is partial ("1 of 4 graded"), the
#   students never started one count and one list;
# - a second batch on the same --out stops, naming the running pid;
# - a batch killed with SIGKILL takes its per-student graders with it,
#   and the scratch trees they leave are removed by the next grade.
set -u
. "$(dirname "$0")/lib.sh"
e2e_uid_base 6
[ -x "$grade" ] || e2e_skip "no $grade"
e2e_need python3
pids=
# The graders killed with the batch (4. below) leave their uid lock files
# (scratch.h): the ones of this run's uids that no one holds go too.
unlock() {
	for u in $(seq "$WG_UID_BASE" $((WG_UID_BASE + 8))); do
		f=/run/warpgrade/$u.lock
		[ -e "$f" ] && flock -n "$f" rm -f "$f"
	done
}
e2e_at_exit 'for p in $pids; do kill -9 $p 2>/dev/null; done; unlock'
chmod 755 "$tmp"
suite=$WG_ROOT/public-tests
# Scratch trees go here, where the test can see what is left.
mkdir -p "$tmp/scratch"
TMPDIR=$tmp/scratch; export TMPDIR

# 1. Discovery.
c=$tmp/class
mkdir -p "$c/nested/hw3/src" "$c/nested/__MACOSX/hw3" "$c/nested/.git" \
	"$c/two/a" "$c/two/b" "$c/empty/docs"
cp "$WG_ROOT"/submissions/correct/*.[ch] "$c/nested/hw3/src/"
echo 'garbage' > "$c/nested/__MACOSX/hw3/._main.c"
echo 'garbage' > "$c/nested/.git/hook.c"
echo 'int main(void) { return 0; }' > "$c/two/a/main.c"
echo 'int main(void) { return 0; }' > "$c/two/b/main.c"
echo 'my notes' > "$c/empty/docs/README.txt"
"$grade" --batch "$suite" "$c" --out "$tmp/out" -j 2 -q > /dev/null 2>&1
rc=$?
[ $rc -eq 0 ] || bad "discovery batch: exit $rc, want 0 (the one graded student is AC; a no submission is no failure of the grader)"
row() { awk -F, -v s="$1" '$1 == s' "$tmp/out/gradebook.csv"; }
max=$(awk -F, '$1 == "nested" { print $3 }' "$tmp/out/gradebook.csv")
row nested | grep -q "^nested,$max,$max,.*,ok,graded,$" || bad "nested: $(row nested)"
row empty | grep -q "^empty,0,$max,.*,,no submission,$" || bad "empty: $(row empty)"
# Two source folders: the student's to sort out, a "no submission" with
# the reason, never "not graded" (the grader's failure: exit 3).
row two | grep -q "^two,0,$max,.*no submission,\"*C sources in 2 folders, 'a' and 'b'" || bad "two: $(row two)"
grep -q '"status": "no submission"' "$tmp/out/students/empty.json" ||
	bad "empty: no 'no submission' report"
grep -q "C sources in 2 folders" "$tmp/out/students/two.json" || bad "two: no report with the reason"
grep -q '^No submission (no .c file, or sources in two folders) (2): empty, two$' "$tmp/out/summary.txt" ||
	bad "summary: $(cat "$tmp/out/summary.txt")"

# A hanging student (each case waits for the 3 s wall limit).
hang() {
	mkdir -p "$1"
	printf '#include <unistd.h>\nint main(void) { for (;;) pause(); }\n' > "$1/main.c"
}
# wait_for FILE: up to 30 s.
wait_for() {
	for _ in $(seq 1 150); do
		[ -e "$1" ] && return 0
		sleep 0.2
	done
	return 1
}

# 2. Interrupted with two students never started.
c2=$tmp/class2
mkdir -p "$c2/a-good"
cp "$WG_ROOT"/submissions/correct/*.[ch] "$c2/a-good/"
hang "$c2/b-hangs"; hang "$c2/c-later"; hang "$c2/d-later"
"$grade" --batch "$suite" "$c2" --out "$tmp/out2" -j 1 --wall-limit 3 \
	> "$tmp/stdout2" 2> "$tmp/stderr2" &
pid=$!
pids="$pids $pid"
wait_for "$tmp/out2/students/a-good.json" || bad "a-good never finished"
sleep 0.5
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] || bad "interrupted: exit $rc, want 130"
grep -q '^PARTIAL: the batch was interrupted; 1 of 4 graded$' "$tmp/out2/summary.txt" ||
	bad "summary.txt: $(head -n 3 "$tmp/out2/summary.txt")"
grep -q '^Score out of [0-9.]* (partial: over the 1 of 4 graded): mean' "$tmp/out2/summary.txt" ||
	bad "mean not labelled partial: $(grep Score "$tmp/out2/summary.txt")"
grep -q '^Not started (run the batch again to grade them) (2): c-later, d-later$' \
	"$tmp/out2/summary.txt" || bad "not started: $(cat "$tmp/out2/summary.txt")"
python3 - "$tmp/out2/summary.json" <<'PY' || bad "summary.json"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["partial"] is True and s["graded"] == 1 and s["students"] == 4, s
assert s["scores"]["partial"] is True and s["scores"]["students"] == 1, s
assert s["not_started"] == 2 and s["not_started_students"] == ["c-later", "d-later"], s
assert [e["student"] for e in s["errors"]] == ["b-hangs"], s["errors"]
PY

# 3. A second batch on the same --out, while the first runs.
c3=$tmp/class3
hang "$c3/x-hangs"; hang "$c3/y-hangs"
"$grade" --batch "$suite" "$c3" --out "$tmp/out3" -j 2 --wall-limit 3 \
	> /dev/null 2>&1 &
pid=$!
pids="$pids $pid"
wait_for "$tmp/out3/logs/y-hangs.log" || bad "the first batch did not start"
wait_for "$tmp/out3/.lock"
"$grade" --batch "$suite" "$c3" --out "$tmp/out3" -j 1 > /dev/null 2> "$tmp/err3"
rc=$?
[ $rc -eq 2 ] || bad "second batch: exit $rc, want 2"
grep -q "'$tmp/out3' is in use by another batch (pid $pid)" "$tmp/err3" ||
	bad "second batch: $(cat "$tmp/err3")"

# 4. SIGKILL the first: its per-student graders die with it.
# graders: the grade processes grading into out3 (each hides it: a slot's
# grade --serve, or a student's own grade).
graders() {
	for p in $(pgrep -f -- "--hide $tmp/out3" 2>/dev/null); do
		[ "$p" != "$pid" ] && echo "$p"
	done
}
[ -n "$(graders)" ] || bad "no per-student grader was running"
kill -KILL $pid
wait $pid 2>/dev/null
left=x
for _ in $(seq 1 25); do
	left=$(graders)
	[ -z "$left" ] && break
	sleep 0.2
done
[ -z "$left" ] || bad "graders outlived the batch: $left"
# Their scratch trees (killed, they could not remove them) are removed by
# the next grade that starts with the same TMPDIR.
ls "$tmp/scratch" | grep -q '^grade\.' || bad "no scratch tree left to clean"
"$grade" -q "$suite" "$WG_BUILD/bin/reference" > /dev/null 2>&1
ls "$tmp/scratch" | grep -q "^grade\." && bad "stale scratch trees: $(ls -la "$tmp/scratch"/* "$tmp/scratch"/*/.owner; cat "$tmp/scratch"/*/.owner)"
# Made by hand: a dead grader's tree caught mid-build (slot-0 and build-0
# of one uid, whose lock file exists: locking it twice would clash) goes;
# a tree without .owner (another version's) and one whose .owner is still
# empty (a grader setting up) stay.
for t in dead nolock settingup; do
	mkdir -p "$tmp/scratch/grade.$t/slot-0" "$tmp/scratch/grade.$t/build-0"
done
echo 4194304 > "$tmp/scratch/grade.dead/.owner"
: > "$tmp/scratch/grade.settingup/.owner"
if [ "$(id -u)" -eq 0 ]; then
	chown -R "$WG_UID_BASE" "$tmp/scratch/grade.dead/slot-0" \
		"$tmp/scratch/grade.dead/build-0"
fi
"$grade" -q "$suite" "$WG_BUILD/bin/reference" > /dev/null 2>&1
[ -e "$tmp/scratch/grade.dead" ] && bad "the dead tree was not removed"
[ -d "$tmp/scratch/grade.nolock" ] || bad "a tree without .owner was removed"
[ -d "$tmp/scratch/grade.settingup" ] || bad "a tree being set up was removed"
rm -rf "$tmp/scratch/grade.nolock" "$tmp/scratch/grade.settingup"

# And the lock went with the killed batch.
mkdir -p "$tmp/class4/nobody"
"$grade" --batch "$suite" "$tmp/class4" --out "$tmp/out3" -q > /dev/null 2> "$tmp/err4"
grep -q 'in use by another batch' "$tmp/err4" && bad "the lock outlived its batch"
exit $fail
