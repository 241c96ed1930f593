#!/bin/sh
# The sandbox against a hostile submission (tests/helpers/sb_attack.c): each
# case tries one attack and prints the line a blocked attack prints, so a
# missing defence is a WA. A case counts only where the report says its
# layer is in force; the others are listed as skipped, with the layer, so
# the same test passes (and says what it could not check) as root, as root
# without CAP_SYS_ADMIN and as a normal user.
set -u
. "$(dirname "$0")/lib.sh"
root=$WG_ROOT
b=$WG_BUILD
attack=$b/helpers/sb_attack
listener=
cleanup() {
	[ -n "$listener" ] && kill "$listener" 2>/dev/null
	rm -rf "$tmp"
}
e2e_at_exit cleanup
chmod 755 "$tmp"
# The slot uids of every grade below (as root): WG_UID_BASE when set (each
# grader on a shared machine has its own), else a range of this run's own,
# from its pid, clear of grade's default 62000 and of check_runner's
# 40000-59999; the leftover check below counts only this range.
uid_base=${WG_UID_BASE:-$((20000 + $$ % 150 * 64))}
export WG_UID_BASE=$uid_base

# suite NAME LIMITS CASE:INPUT:OUTPUT...
suite() {
	d=$tmp/$1 lim=$2
	shift 2
	mkdir -p "$d"
	cases=""
	for c in "$@"; do
		n=${c%%:*} rest=${c#*:}
		printf '%s\n' "${rest%%:*}" > "$d/$n.in"
		printf '%s\n' "${rest#*:}" > "$d/$n.out"
		cases="$cases${cases:+,}{\"name\": \"$n\", \"category\": \"x\", \"points\": 1}"
	done
	printf '{"name": "%s", "limits": %s, "cases": [%s]}\n' "$1" "$lim" "$cases" \
		> "$d/suite.json"
}

# A listener outside the sandbox: TCP and UDP on one loopback port and an
# abstract unix socket. It gives up by itself after 60 s.
name=wg-e2e-$$
python3 - "$tmp/port" "$name" > /dev/null 2>&1 <<'P' &
import os, socket, sys, threading, time
t = socket.socket(); t.bind(("127.0.0.1", 0)); t.listen(8)
port = t.getsockname()[1]
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.bind(("127.0.0.1", port))
a = socket.socket(socket.AF_UNIX); a.bind("\0" + sys.argv[2]); a.listen(8)
open(sys.argv[1], "w").write(str(port))
for s in (t, a):
    threading.Thread(target=lambda s=s: [s.accept() for _ in range(100)], daemon=True).start()
time.sleep(60)
P
listener=$!
i=0
while [ ! -s "$tmp/port" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
port=$(cat "$tmp/port" 2>/dev/null || echo 9)

cp "$attack" "$tmp/one"
cp "$attack" "$tmp/two"
# Where /tmp is the host's, the attacks would write there for real (up to
# 512 MiB for "fill"): they run only where the sandbox has its own. The
# stack and RSS checks below hold everywhere.
"$grade" --check-env > "$tmp/env" 2>&1
attacks=1
if ! grep -q '^  private /tmp       yes' "$tmp/env"; then
	echo "skipped attacks: no private /tmp here ($(grep missing "$tmp/env"))"
	attacks=0
fi
if [ $attacks -eq 1 ]; then


suite attacks '{"cpu_seconds": 2}' \
	tmp1:tmp:clean tmp2:tmp:clean ipc1:ipc:clean ipc2:ipc:clean \
	"net:net $port $name:blocked" peek:peek:isolated ro:ro:readonly \
	mounts:mounts:neutral fill:fill:full tmp3:tmp:clean proc:proc:sealed \
	calls:calls:refused procs:procs:alone fds:fds:closed helpers:helpers:hidden \
	sysfs:sysfs:masked
timeout 120 "$grade" -j 2 --json "$tmp/a.json" "$tmp/attacks" "$tmp/one" "$tmp/two" \
	> "$tmp/a.out" 2>&1
rc=$?
[ $rc -le 1 ] || { bad "grade exit $rc"; cat "$tmp/a.out"; }

# The layer each case needs.
python3 - "$tmp/a.json" <<'P' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
sb = r["sandbox"]
need = {"tmp": "private_tmp", "ipc": "ipc_namespace", "net": "network_namespace",
        "peek": "private_tmp", "ro": "private_tmp", "mounts": "mount_namespace",
        "fill": "private_tmp", "proc": None,    # grade is never dumpable
        "calls": "seccomp", "procs": "private_proc",
        "fds": None,    # close-on-exec, and no one else's descriptors
        "helpers": "private_proc",    # and hidepid, where the kernel has it
        "sysfs": "private_tmp"}       # the top level masked
bad = 0
for sub in r["submissions"]:
    for c in sub["cases"]:
        layer = need[c["name"].rstrip("0123456789")]
        nohide = c["name"] == "helpers" and any("no hidepid" in m for m in sb["missing"])
        if (layer and not sb[layer]) or nohide:
            print("skipped %s: no %s (%s)" % (c["name"], layer, "; ".join(sb["missing"])))
        elif c["verdict"] != "AC":
            print("FAIL: %s %s: %s %s" % (sub["submission"], c["name"], c["verdict"],
                                          c.get("diff") or c.get("detail")))
            bad = 1
sys.exit(bad)
P

# Without namespaces, as root: each program runs from a copy in its own
# slot's working folder, and the other submissions' programs (BASE/bin,
# 0711, the grader's 0700 copies) and the other slot's folder are out of
# its reach: two submissions on two slots, each peeking (sb_attack peek),
# where a red-team submission once passed by running a classmate's
# program. Peeking writes nothing, so it needs no private /tmp.
if [ "$(id -u)" -eq 0 ]; then
	suite nons '{}' peek1:peek:isolated peek2:peek:isolated peek3:peek:isolated
	WG_NO_NAMESPACES=1 timeout 60 "$grade" -j 2 --staff "$tmp/nons" "$tmp/one" "$tmp/two" \
		> "$tmp/nons.out" 2>&1
	rc=$?
	[ $rc -eq 0 ] || { bad "without namespaces a program reached another's (exit $rc)"; cat "$tmp/nons.out"; }
	# A batch's worker (grade --serve) keeps its slot uid from student
	# to student, and the next one's compiler runs as that uid: the last
	# run's copy of a classmate's program must be gone from the slot's
	# folder by then (a red-team submission embedded it with .incbin).
	# -j 1: one worker, "a" (a correct sample) graded first, then "z",
	# whose build looks for the copy.
	suite nonsb '{}' c1:x:clean c2:x:clean
	mkdir -p "$tmp/nonsclass/z"
	cp -r "$root/submissions/correct" "$tmp/nonsclass/a"
	cat > "$tmp/nonsclass/z/main.c" <<'C'
#include <stdio.h>
#if __has_include("../slot-0/sub-0")
__asm__(".section .rodata\n.global wg_stolen\nwg_stolen:\n"
	".incbin \"../slot-0/sub-0\"\n.global wg_stolen_end\nwg_stolen_end:\n.previous\n");
extern const char wg_stolen[], wg_stolen_end[];
int main(void) { printf("STOLE %ld bytes\n", (long)(wg_stolen_end - wg_stolen)); return 0; }
#else
int main(void) { printf("clean\n"); return 0; }
#endif
C
	WG_NO_NAMESPACES=1 timeout 120 "$grade" --batch "$tmp/nonsb" "$tmp/nonsclass" \
		--out "$tmp/nonsout" -j 1 > "$tmp/nonsb.out" 2>&1
	grep -q '^z,2,2,' "$tmp/nonsout/gradebook.csv" 2>/dev/null ||
		bad "without namespaces a build read the last student's program: $(cat "$tmp/nonsout/gradebook.csv" 2>&1; grep -rh STOLE "$tmp/nonsout" | head -n 2)"
else
	echo "skipped peek without namespaces: not root (every program runs as grade's user)"
fi

# A file made and removed leaves every count of /tmp as it was, but not
# its times: cases in a row on one slot must still see a fresh /tmp.
# grade run from a terminal (script(1) gives it one): no program may
# open that terminal (each is born in a session without one).
if command -v script > /dev/null 2>&1; then
	suite tty '{}' tty1:tty:detached tty2:tty:detached
	timeout 60 script -qec "'$grade' --json '$tmp/tty.json' '$tmp/tty' '$tmp/one'" \
		/dev/null > "$tmp/tty.out" 2>&1
	grep -q '"verdict": "AC"' "$tmp/tty.json" 2>/dev/null &&
		! grep -q '"verdict": "WA"' "$tmp/tty.json" ||
		bad "a program opened grade's terminal: $(cat "$tmp/tty.out")"
else
	echo "skipped tty: no script(1)"
fi

suite stamps '{}' stamp1:stamp:clean stamp2:stamp:clean stamp3:stamp:clean
"$grade" --json "$tmp/st.json" "$tmp/stamps" "$tmp/one" > "$tmp/st.out" 2>&1
rc=$?
if python3 -c 'import json,sys; sys.exit(not json.load(open(sys.argv[1]))["sandbox"]["private_tmp"])' "$tmp/st.json"; then
	[ $rc -eq 0 ] || { bad "a /tmp time passed from case to case"; cat "$tmp/st.out"; }
else
	echo "skipped stamp: no private /tmp"
fi

# The whole tree: CPU of workers the program never waits for; shared
# memory past the memory limit.
suite tree '{"cpu_seconds": 1, "processes": 8, "memory_mib": 64, "tmp_mib": 512}' \
	"cpu:cpu 4 450:done" "shm:shm 200:wrote"
timeout 60 "$grade" --json "$tmp/t.json" "$tmp/tree" "$tmp/one" > "$tmp/t.out" 2>&1
rc=$?
[ $rc -le 1 ] || { bad "tree: grade exit $rc"; cat "$tmp/t.out"; }
python3 - "$tmp/t.json" <<'P' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
sb = r["sandbox"]
v = {c["name"]: c for c in r["submissions"][0]["cases"]}
bad = 0
if sb["children_cpu"]:
    if v["cpu"]["verdict"] != "TLE":
        print("FAIL: 4 x 450 ms of workers' CPU under a 1 s limit: %s, %s ms"
              % (v["cpu"]["verdict"], v["cpu"]["cpu_ms"])); bad = 1
else:
    print("skipped cpu: children's CPU is not counted here")
if "memory" in sb["cgroup_controls"]:
    if v["shm"]["verdict"] != "MLE":
        print("FAIL: 200 MiB of /dev/shm under a 64 MiB limit: %s (%s)"
              % (v["shm"]["verdict"], v["shm"]["detail"])); bad = 1
else:
    print("skipped shm: no memory cgroup")
sys.exit(bad)
P

# A leftover that SIGSTOPs everything it may for 3 s must not hang grade.
# Only where the programs cannot reach this shell (their own uid, or a PID
# namespace): elsewhere it would stop the test itself.
if python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["sandbox"]; sys.exit(not (s["uid_switch"] or s["pid_namespace"]))' "$tmp/t.json"; then
	suite stop '{"cpu_seconds": 1, "processes": 8}' "stop:stop 3000:ok"
	t0=$(date +%s)
	timeout 60 "$grade" --json "$tmp/p.json" "$tmp/stop" "$tmp/one" > "$tmp/p.out" 2>&1
	rc=$?
	[ $rc -le 1 ] || { bad "stop: grade exit $rc (124: it hung)"; cat "$tmp/p.out"; }
	[ $(($(date +%s) - t0)) -lt 30 ] || bad "stop: grade took $(($(date +%s) - t0)) s"
	grep -q '"verdict": "IE"' "$tmp/p.json" && bad "the stopper made an IE"
	# Nothing of this run's slot uids is left (as root).
	if [ "$(id -u)" -eq 0 ]; then
		left=$(ps -eo uid=,pid=,stat=,comm= | awk -v lo="$uid_base" \
			'$1 >= lo && $1 < lo + 64 && $3 !~ /Z/')
		[ -z "$left" ] || bad "processes left behind: $left"
	fi
else
	echo "skipped stop: the programs share this shell's uid and PID namespace"
fi

fi

# With more than one process, a case's forks move the PID namespace's pid
# counter, and a later case on the slot reads it back in its own pid (a
# channel for hidden inputs): after such a run the namespace is renewed,
# so every run is its namespace's first.
suite pids '{"processes": 8}' pid1:pid:fresh "fork1:fork 20:ok" pid2:pid:fresh \
	"fork2:fork 20:ok" pid3:pid:fresh
timeout 60 "$grade" -j 1 --json "$tmp/pid.json" "$tmp/pids" "$tmp/one" > "$tmp/pid.out" 2>&1
rc=$?
[ $rc -le 1 ] || { bad "pids: grade exit $rc"; cat "$tmp/pid.out"; }
python3 - "$tmp/pid.json" <<'P' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
sb = r["sandbox"]
why = [m for m in sb["missing"] if "PID namespace" in m]
if not sb["pid_namespace"] or why:
    print("skipped pids: no renewed PID namespace (%s)" % "; ".join(why or sb["missing"]))
    sys.exit(0)
bad = 0
for c in r["submissions"][0]["cases"]:
    if c["verdict"] != "AC":
        print("FAIL: pids %s: %s %s" % (c["name"], c["verdict"], c.get("diff") or c.get("detail")))
        bad = 1
sys.exit(bad)
P

# The stack limit is the suite's (the memory limit), whatever ulimit -s the
# caller had.
mem=64
suite stack "{\"memory_mib\": $mem}" "stack:stack:stack $((mem << 20))"
# (The soft limit: a hard one only root with CAP_SYS_RESOURCE could raise
# again, and grade warns when it cannot.)
for s in 8192 unlimited; do
	(ulimit -S -s $s 2>/dev/null || exit 0
	 "$grade" "$tmp/stack" "$tmp/one" > "$tmp/s.out" 2>&1) ||
		{ bad "ulimit -s $s: the stack limit follows the caller"; cat "$tmp/s.out"; }
done

# A tiny program's max RSS is its own, however much the grader holds (three
# 40 MiB inputs).
mkdir -p "$tmp/big"
for c in a b c; do
	{ echo rss; head -c $((40 << 20)) /dev/zero | tr '\0' '7'; } > "$tmp/big/$c.in"
	echo ok > "$tmp/big/$c.out"
done
printf '{"name": "big", "cases": [%s]}\n' \
	'{"name": "a", "category": "x", "points": 1}, {"name": "b", "category": "x", "points": 1}, {"name": "c", "category": "x", "points": 1}' \
	> "$tmp/big/suite.json"
"$grade" --json "$tmp/b.json" "$tmp/big" "$tmp/one" > "$tmp/b.out" 2>&1 ||
	{ bad "big suite: grade failed"; cat "$tmp/b.out"; }
python3 - "$tmp/b.json" <<'P' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
rss = [c["max_rss_kb"] for c in r["submissions"][0]["cases"]]
if max(rss) > 16384:
    print("FAIL: max_rss_kb %s of a program that allocates nothing" % rss); sys.exit(1)
P

# A grade killed with SIGKILL cannot clean up: its keepers die with it (and
# their PID namespaces with them), and the next grade removes its cgroups.
# grade makes the slots' groups itself, named by its own pid
# (grader/run/sandbox_groups.c): where the report says the slots have
# cgroups, they must be found by that name.
cgroups=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["sandbox"].get("cgroup") or "")' "$tmp/st.json" 2>/dev/null)
suite slow '{"cpu_seconds": 5, "wall_seconds": 20, "processes": 8}' "cpu:cpu 1 3000:done"
"$grade" "$tmp/slow" "$tmp/one" > /dev/null 2>&1 &
victim=$!
sleep 1
# Found while the grade lives: its keepers hold them, so no other grader
# running beside this test (whose every grade removes the groups of dead
# keepers) takes them before they are counted.
stale=$(find /sys/fs/cgroup -maxdepth 10 -type d -name "warpgrade-$victim-*" 2>/dev/null)
kill -9 $victim 2>/dev/null
wait $victim 2>/dev/null
sleep 0.5
"$grade" "$tmp/stack" "$tmp/one" > /dev/null 2>&1
if [ -n "$stale" ]; then
	for d in $stale; do
		[ -d "$d" ] && bad "the cgroup of a killed grade was not removed: $d"
	done
elif [ -n "$cgroups" ]; then
	bad "no cgroup named warpgrade-$victim-* though the slots had cgroups ($cgroups)"
else
	echo "skipped stale cgroups: no cgroup here"
fi
# grade makes the groups before it loads the suite: one that stops at a
# bad suite (exit 2) removes them, and so does one whose submission
# cannot be graded.
mkdir -p "$tmp/nosuite"
# Long enough to load (~4 MB, the error at its end) that the groups are
# made before grade gives up on it.
python3 -c 'import sys; sys.stdout.write("{\"name\": \"x\", \"cases\": [" +
	"{\"name\": \"c\", \"category\": \"x\", \"points\": 1}, " * 100000)' \
	> "$tmp/nosuite/suite.json"
# And one that grades, under a subreaper: its keepers have removed the
# groups and are reaped by grade itself before it ends. A keeper left to
# exit on its own would be reparented (to the subreaper here, else to
# init, which in a container may never reap it: a zombie per keeper).
# (Slot uids of its own: without a PID namespace, the killed grade's
# programs above may still be ending under the first ones.)
python3 - "$grade" "$tmp/stack" "$tmp/one" "$tmp/reap.json" $((uid_base + 32)) \
	> "$tmp/reap.out" 2>&1 <<'P'
import ctypes, os, subprocess, sys, time
ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)   # PR_SET_CHILD_SUBREAPER
p = subprocess.run([sys.argv[1], "-j", "2", "--uid-base", sys.argv[5], "--json", sys.argv[4],
                    sys.argv[2], sys.argv[3]],
                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
print("grade", p.returncode)
if p.returncode > 1:
    print(p.stdout.decode(errors="replace")[-3000:])
    print(open(sys.argv[4]).read()[-3000:])
end = time.time() + 1
while time.time() < end:
    try:
        pid, _ = os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        break
    if pid:
        print("orphan", pid)
    time.sleep(0.01)
P
grep -q '^grade [01]$' "$tmp/reap.out" || bad "grade under a subreaper: $(cat "$tmp/reap.out")"
grep -q '^orphan' "$tmp/reap.out" && bad "grade left processes to be reaped by others: $(cat "$tmp/reap.out")"
for s in nosuite stack; do
	"$grade" -j 2 "$tmp/$s" "$tmp/no-such-program" > /dev/null 2>&1 &
	early=$!
	wait $early
	left=$(find /sys/fs/cgroup -maxdepth 10 -type d -name "warpgrade-$early-*" 2>/dev/null)
	[ -z "$left" ] || bad "a grade ended early ($s) left its cgroups: $left"
done

[ $fail -eq 0 ] && echo "sandbox: every defence in force held"
exit $fail
