#!/bin/sh
# Reports are private and cannot be redirected. Every file grade writes is
# 0600 whatever the umask (batch folders 0700); a link planted at a report
# path is replaced, never followed; as root, a report folder the sandbox
# uids could write is refused (a sticky one such as /tmp is fine). Then a
# graded program (as root, under its slot uid) tries what a student would:
# read the report of an earlier run and an earlier batch's student report,
# and plant a link at this run's own report path. Not root: the programs
# run as the user and could read what the user can, so only the modes and
# the link replacement are checked.
set -u
. "$(dirname "$0")/lib.sh"
root=$WG_ROOT
b=$WG_BUILD
e2e_uid_base 4
[ -x "$grade" ] || e2e_skip "no $grade"
e2e_need python3
chmod 755 "$tmp"
suite=$root/public-tests
mode() { stat -c %a "$1"; }
umask 022

# 1. Modes: reports 0600, batch folders 0700, whatever the umask.
mkdir -p "$tmp/reports" "$tmp/class/good"
cp "$root"/submissions/correct/*.[ch] "$tmp/class/good/"
"$grade" -q --json "$tmp/reports/first.json" --junit "$tmp/reports/j.xml" \
	--gradescope "$tmp/reports/gs.json" "$suite" "$tmp/class/good" > /dev/null 2>&1 ||
	bad "first run failed"
for f in first.json j.xml gs.json; do
	[ "$(mode "$tmp/reports/$f")" = 600 ] || bad "$f: mode $(mode "$tmp/reports/$f")"
done
ls -a "$tmp/reports" | grep -q '^\.wg-' && bad "temporary file left in reports/"
"$grade" --batch "$suite" "$tmp/class" --out "$tmp/out1" -j 1 -q > /dev/null 2>&1 ||
	bad "first batch failed"
for d in "" /students /logs; do
	[ "$(mode "$tmp/out1$d")" = 700 ] || bad "out1$d: mode $(mode "$tmp/out1$d")"
done
for f in students/good.json logs/good.log gradebook.csv summary.txt summary.json; do
	[ "$(mode "$tmp/out1/$f")" = 600 ] || bad "$f: mode $(mode "$tmp/out1/$f")"
done

# 2. A link planted at the report path (in a sticky folder, like /tmp) is
# replaced; the file it points to is untouched.
mkdir -p "$tmp/pub"
chmod 1777 "$tmp/pub"
echo "root only" > "$tmp/victim"
chmod 600 "$tmp/victim"
ln -s "$tmp/victim" "$tmp/pub/r.json"
"$grade" -q --json "$tmp/pub/r.json" "$suite" "$tmp/class/good" > /dev/null 2>&1 ||
	bad "grading into a sticky folder failed"
[ "$(cat "$tmp/victim")" = "root only" ] || bad "the report went through the link"
[ -L "$tmp/pub/r.json" ] && bad "the link is still there"
[ "$(mode "$tmp/pub/r.json")" = 600 ] || bad "pub/r.json: mode $(mode "$tmp/pub/r.json")"

if [ "$(id -u)" -ne 0 ]; then
	[ $fail -eq 0 ] && echo "not root: sandbox reading and folder refusal not checked"
	exit $fail
fi

# 3. As root: a folder the sandbox uids could write is refused up front.
mkdir -p "$tmp/open"
chmod 777 "$tmp/open"
"$grade" -q --json "$tmp/open/r.json" "$suite" "$tmp/class/good" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 2 ] || bad "open folder: exit $rc, want 2"
grep -q "report folder '$tmp/open' refused: the sandboxed programs can write it" "$tmp/err" ||
	bad "open folder: $(cat "$tmp/err")"
[ -e "$tmp/open/r.json" ] && bad "a report was written in the open folder"
"$grade" --batch "$suite" "$tmp/class" --out "$tmp/open/out" -q > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] || bad "batch --out in an open folder: not refused"

# 4. A program that reads the earlier reports and plants a link at this
# run's own report path; it says on stderr what it managed. (Where the
# sandbox gives it a private /tmp it cannot even see them.)
mkdir -p "$tmp/snoop"
cat > "$tmp/snoop/main.c" <<C
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
static void try_read(const char *what, const char *path)
{
	FILE *f = fopen(path, "r");
	fprintf(stderr, "%s: %s\n", what, f ? "READ" : strerror(errno));
	if (f)
		fclose(f);
}
int main(void)
{
	try_read("report", "$tmp/reports/first.json");
	try_read("batch", "$tmp/out1/students/good.json");
	try_read("log", "$tmp/out1/logs/good.log");
	fprintf(stderr, "plant: %s\n",
		symlink("$tmp/victim", "$tmp/pub/second.json") == 0 ? "PLANTED"
		: strerror(errno));
	return 0;
}
C
chmod -R a+rX "$tmp/snoop"
"$grade" -q --json "$tmp/pub/second.json" "$suite" "$tmp/snoop" > /dev/null 2>&1
python3 - "$tmp/pub/second.json" <<'PY' > "$tmp/said" || bad "no report from the snooping run"
import json, sys
s = json.load(open(sys.argv[1]))["submissions"][0]
print(s["cases"][0]["stderr_tail"])
PY
# Denied, or not even visible (a sandbox with a private /tmp): not READ.
for what in report batch log; do
	grep -Eq "^$what: (Permission denied|No such file or directory)$" "$tmp/said" ||
		bad "the program could read the earlier $what: $(grep "^$what" "$tmp/said")"
done
grep -q '^plant: ' "$tmp/said" || bad "the program did not run: $(cat "$tmp/said")"
[ "$(cat "$tmp/victim")" = "root only" ] || bad "the report went through the planted link"
[ -L "$tmp/pub/second.json" ] && bad "the planted link survived"
exit $fail
