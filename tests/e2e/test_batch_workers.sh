#!/bin/sh
# grade --batch grades a slot's students one after another through one
# grader (grade --serve, serve.h), its sandbox set up once:
# - with -j 1 one log of the class holds the sandbox's set-up (the
#   grader's first student's: WG_STEP_TIMES marks "keepers-ready"), with
#   --grade-per-student every log does;
# - every result is the same either way (reports, gradebook), a late
#   student's included, and the student after a late one on the same
#   slot is graded by a new grader;
# - a student gets a clean world after another's in the same grader:
#   what a-leaves wrote in /tmp, /var/tmp, /dev/shm and its working
#   folder is not there for b-looks (which would print "LEFT" first);
# - what the next student finds does not tell whether the last one
#   changed its world (a red team's channel: the private folders were
#   remade only when a run had written there, so the inode of the next
#   program's copy and the folders' times told): b-looks's first case
#   sees the same inode after a-leaves as after a correct a-clean;
# - the keepers a grader starts under its first student's request do not
#   hold that student's log;
# - a grader that fails on a student (exit 3: its keeper killed under
#   it) is let go and the student graded again by a new one, once
#   (progress line, the first try's log kept as NAME.log.1);
# - grade --serve itself: a submission in no hidden folder is refused
#   (answer 2, the reason in its log), a malformed request ends it with
#   exit 2, end of file with exit 0 and no scratch tree left.
set -u
. "$(dirname "$0")/lib.sh"
e2e_uid_base 3
e2e_need python3
chmod 755 "$tmp"
suite=$WG_ROOT/public-tests
mkdir -p "$tmp/scratch"
TMPDIR=$tmp/scratch; export TMPDIR

c=$tmp/class
for s in a-leaves b-looks c-hangs d-after e-compile; do mkdir -p "$c/$s"; done
cp "$WG_ROOT"/submissions/correct/main.c "$c/a-leaves/"
cat > "$c/a-leaves/leave.c" <<'C'
#include <stdio.h>
#include <sys/stat.h>
__attribute__((constructor)) static void leave(void)
{
	const char *p[] = { "/tmp/wg-left", "/var/tmp/wg-left", "/dev/shm/wg-left", "wg-left" };
	for (int i = 0; i < 4; i++) {
		FILE *f = fopen(p[i], "w");
		if (f) { fputs("x", f); fclose(f); }
	}
	mkdir("/tmp/wg-dir", 0777);
}
C
cp "$WG_ROOT"/submissions/correct/main.c "$c/b-looks/"
cat > "$c/b-looks/look.c" <<'C'
#include <stdio.h>
#include <unistd.h>
__attribute__((constructor)) static void look(void)
{
	const char *p[] = { "/tmp/wg-left", "/var/tmp/wg-left", "/dev/shm/wg-left", "wg-left", "/tmp/wg-dir" };
	for (int i = 0; i < 5; i++)
		if (access(p[i], F_OK) == 0)
			printf("LEFT %s\n", p[i]);
}
C
cat > "$c/b-looks/ino.c" <<'C'
#include <stdio.h>
#include <sys/stat.h>
__attribute__((constructor)) static void ino(void)
{
	struct stat st;
	if (stat("/proc/self/exe", &st) == 0)
		fprintf(stderr, "ino %lu\n", (unsigned long)st.st_ino);
}
C
printf '#include <unistd.h>\nint main(void) { for (;;) pause(); }\n' > "$c/c-hangs/main.c"
cp "$WG_ROOT"/submissions/correct/main.c "$c/d-after/"
echo 'int main(void) { return syntax error; }' > "$c/e-compile/main.c"

batch() {   # batch OUT [options]
	o=$1; shift
	WG_STEP_TIMES=1 "$grade" --batch "$suite" "$c" --out "$o" -j 1 -q \
		--wall-limit 1 --student-timeout 4 "$@" > "$o.stdout" 2> "$o.stderr"
}
# Exit 3: c-hangs is not graded.
batch "$tmp/served"
rc=$?
[ $rc -eq 3 ] || bad "served batch: exit $rc, want 3: $(cat "$tmp/served.stderr")"
batch "$tmp/own" --grade-per-student
rc=$?
[ $rc -eq 3 ] || bad "per-student batch: exit $rc, want 3: $(cat "$tmp/own.stderr")"

# The set-up: the first student of each grader.
setups() { grep -l ' grade keepers-ready$' "$1"/logs/*.log | sed 's|.*/||' | tr '\n' ' '; }
[ "$(setups "$tmp/served")" = "a-leaves.log d-after.log " ] ||
	bad "served: the set-ups are in $(setups "$tmp/served"), want a-leaves (the first grader) and d-after (the one after c-hangs')"
[ "$(setups "$tmp/own")" = "a-leaves.log b-looks.log c-hangs.log d-after.log e-compile.log " ] ||
	bad "per student: the set-ups are in $(setups "$tmp/own")"

# The same results.
for f in gradebook.csv canvas.csv moodle.csv; do
	cmp -s "$tmp/served/$f" "$tmp/own/$f" || bad "$f differs: $(diff "$tmp/served/$f" "$tmp/own/$f")"
done
python3 - "$tmp/served" "$tmp/own" <<'PY' || bad "the students' reports differ"
import json, os, sys
def norm(x):
    if isinstance(x, dict):
        return {k: norm(v) for k, v in x.items()
                if not any(t in k for t in ("ms", "time", "_at", "rss", "memory", "seconds", "stderr"))}
    if isinstance(x, list):
        return [norm(v) for v in x]
    return x
a, b = sys.argv[1:3]
for f in sorted(os.listdir(a + "/students")):
    if f.endswith(".json"):
        x, y = (norm(json.load(open(d + "/students/" + f))) for d in (a, b))
        assert x == y, f
PY
row() { awk -F, -v s="$1" '$1 == s' "$tmp/served/gradebook.csv"; }
max=$(awk -F, '$1 == "a-leaves" { print $3 }' "$tmp/served/gradebook.csv")
row a-leaves | grep -q "^a-leaves,$max,$max," || bad "a-leaves: $(row a-leaves)"
row b-looks | grep -q "^b-looks,$max,$max," || bad "b-looks found what a-leaves left: $(row b-looks)"
row d-after | grep -q "^d-after,$max,$max," || bad "d-after (after the late one): $(row d-after)"
row c-hangs | grep -q "took longer than 4 s" || bad "c-hangs: $(row c-hangs)"
row e-compile | grep -q "^e-compile,0,$max," || bad "e-compile: $(row e-compile)"

# The world b-looks finds after a student that wrote nothing.
c2=$tmp/class2
mkdir -p "$c2/a-clean"
cp "$WG_ROOT"/submissions/correct/main.c "$c2/a-clean/"
cp -R "$c/b-looks" "$c2/"
"$grade" --batch "$suite" "$c2" --out "$tmp/clean" -j 1 -q > /dev/null 2>&1 ||
	bad "the batch after a clean student: exit $?"
first_err() {
	python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["submissions"][0]["cases"][0]["stderr_tail"])' "$1"
}
after_dirty=$(first_err "$tmp/served/students/b-looks.json")
after_clean=$(first_err "$tmp/clean/students/b-looks.json")
case $after_dirty in ino\ [0-9]*) ;; *) bad "b-looks said no inode: '$after_dirty'" ;; esac
# Without private folders the program runs from the host's scratch tree,
# whose inode numbers are the host file system's (docs/sandbox.md).
if [ "$(e2e_json "$tmp/served/students/b-looks.json" 'r["sandbox"]["private_tmp"]')" = true ] &&
   [ "$after_dirty" != "$after_clean" ]; then
	bad "b-looks's world tells what the student before it did: '$after_dirty' after a-leaves, '$after_clean' after a-clean"
fi

# The grader's own failure: x-slow's runs sleep, the test kills the
# slot's keeper meanwhile (the keepers of the grader hiding this class).
c3=$tmp/class3
mkdir -p "$c3/x-slow"
cp "$WG_ROOT"/submissions/correct/main.c "$c3/x-slow/"
printf '#include <unistd.h>
__attribute__((constructor)) static void slow(void) { usleep(200000); }
' \
	> "$c3/x-slow/slow.c"
"$grade" --batch "$suite" "$c3" --out "$tmp/out3" -j 1 > "$tmp/out3.stdout" 2> "$tmp/out3.stderr" &
bpid=$!
killed=
for _ in $(seq 1 100); do
	w=$(pgrep -P "$bpid" 2>/dev/null | head -n 1)
	k=${w:+$(pgrep -P "$w" -x grade-keeper 2>/dev/null | head -n 1)}
	if [ -n "$k" ] && [ -e "$tmp/out3/logs/x-slow.log" ]; then
		sleep 0.5
		# The keeper, started under x-slow's request, holds no log:
		# it serves the slot's next students too.
		ls -l "/proc/$k/fd" 2>/dev/null | grep -q "$tmp/out3/logs" &&
			bad "the keeper holds a student's log: $(ls -l "/proc/$k/fd")"
		kill -KILL "$k" && killed=1
		break
	fi
	sleep 0.1
done
wait $bpid
rc=$?
[ -n "$killed" ] || bad "no keeper to kill"
[ $rc -eq 0 ] || bad "retry batch: exit $rc, want 0: $(cat "$tmp/out3.stderr")"
grep -q 'x-slow: its grader failed (logs/x-slow.log.1); grading it again' "$tmp/out3.stderr" ||
	bad "no retry line: $(cat "$tmp/out3.stderr")"
[ -s "$tmp/out3/logs/x-slow.log.1" ] || bad "the first try's log is gone"
grep -q '^x-slow,[0-9]*,[0-9]*,.*,ok,graded,$' "$tmp/out3/gradebook.csv" ||
	bad "x-slow not graded the second time: $(cat "$tmp/out3/gradebook.csv")"

# grade --serve by hand.
cp -R "$WG_ROOT/submissions/correct" "$tmp/outside"
python3 - "$grade" "$suite" "$c" "$tmp" <<'PY' || bad "grade --serve"
import array, os, socket, subprocess, sys
grade, suite, hidden, tmp = sys.argv[1:5]
def serve():
    a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    p = subprocess.Popen([grade, "--serve", "-q", "--hide", hidden, suite], stdin=b,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    b.close()
    return a, p
def ask(a, sub, name):
    log = os.open(tmp + "/" + name + ".log", os.O_WRONLY | os.O_CREAT, 0o600)
    a.sendmsg([sub.encode() + b"\0" + (tmp + "/" + name + ".json").encode() + b"\0"],
              [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [log]))])
    os.close(log)
    return a.recv(1)
a, p = serve()
assert ask(a, hidden + "/d-after", "in") == b"\0", "a hidden submission"
assert ask(a, tmp + "/outside", "out") == b"\2", "a submission in no hidden folder"
assert "is in no hidden folder" in open(tmp + "/out.log").read()
assert not os.path.exists(tmp + "/out.json")
a.close()
assert p.wait(timeout=30) == 0, "end of file"
a, p = serve()
a.send(b"no descriptor\0at all\0")
assert p.wait(timeout=30) == 2, "a malformed request"
PY
ls "$tmp/scratch" | grep -q . && bad "scratch left: $(ls "$tmp/scratch")"
exit $fail
