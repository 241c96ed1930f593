#!/bin/sh
# grade --batch keeps no student's report (grader/cli/batch_rows.c): its
# peak memory at 200 students is that of 20, within 16 MB. The student
# echoes its input, so every hidden case is wrong with a long diff (a
# report of about 300 KB, over 0.5 MB parsed): a batch that kept every
# report would hold 100 MB more at 200. One student is graded for real,
# then copied, folder and report (tests/bench/html-class.sh's way), and
# the two batches resume every student ("unchanged"): no child grade
# runs, and the peak is the batch's own (/usr/bin/time's maximum resident
# set; without it, python3's getrusage of its children, which cannot be
# below python's own, about 14 MB). The sources are one line each, so the class's similarity
# costs next to nothing. Then: every student in the outputs, and the
# batch's spool left nowhere. A sanitizer build (make sanitize) runs all
# but the measure: ASan's quarantine holds what is freed, so its peak grows
# with what the batch reads, kept or not.
set -u
. "$(dirname "$0")/lib.sh"
e2e_uid_base 5
suite=$WG_ROOT/hidden-tests
[ -x "$grade" ] || e2e_skip "no $grade"
e2e_need python3

mkdir -p "$tmp/class/s000"
printf '#include <stdio.h>\nint main(void) { int c; while ((c = getchar()) != EOF) putchar(c); return 0; }\n' \
	> "$tmp/class/s000/main.c"
"$grade" --batch "$suite" "$tmp/class" --out "$tmp/out" -j 2 --quiet > /dev/null 2>&1
[ $? -eq 1 ] || { echo "FAIL: the echoing student's batch: exit $?"; exit 1; }
size=$(wc -c < "$tmp/out/students/s000.json")
[ "$size" -gt 200000 ] || bad "the report is $size bytes, not the long one this test needs"

# The first N students of the class: folders and reports.
class() {
	i=1
	while [ $i -lt "$1" ]; do
		s=$(printf 's%03d' $i)
		[ -d "$tmp/class/$s" ] || {
			mkdir "$tmp/class/$s"
			cp "$tmp/class/s000/main.c" "$tmp/class/$s/"
			cp "$tmp/out/students/s000.json" "$tmp/out/students/$s.json"
		}
		i=$((i + 1))
	done
}
# The batch's peak RSS in KiB, or minus its exit status when not 1.
peak() {
	e2e_peak_rss 1 "$grade" --batch "$suite" "$tmp/class" --out "$tmp/out" -j 2 --quiet
}
class 20
small=$(peak)
class 200
large=$(peak)
e2e_peak_flat "the batch, 20 and 200 students (reports of $size bytes)" "$small" "$large" 16384

n=$(grep -c '^s[0-9]*,.*,unchanged,' "$tmp/out/gradebook.csv")
[ "$n" -eq 200 ] || bad "$n of 200 students unchanged in the gradebook"
n=$(grep -o '<tbody class="student"' "$tmp/out/report.html" | wc -l)
[ "$n" -eq 200 ] || bad "$n of 200 students in report.html"
grep -q '"graded": 200' "$tmp/out/summary.json" || bad "summary.json: not 200 graded"
[ -s "$tmp/out/students/s199.html" ] || bad "no page for s199"
ls -A "$tmp/out" | grep -q spool && bad "a spool was left in the output folder"
exit $fail
