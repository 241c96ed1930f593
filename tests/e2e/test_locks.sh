#!/bin/sh
# Where grade keeps its uid locks, and how it tells a live grade from a
# dead one (scratch.h, cgroup.h):
#  1. as root the locks are in /run/warpgrade, one per uid held while the
#     grade runs and none left after it; nothing named .warpgrade* in /tmp;
#  2. a grade in another PID namespace (unshare -p -f, its keeper's pid a
#     number no process has out here) is live for another grade started
#     meanwhile: its cgroups are not removed nor its programs killed (it
#     still ends all AC), and grade --check-env counts its uid as held.
set -u
. "$(dirname "$0")/lib.sh"
root=$WG_ROOT
b=$WG_BUILD
[ "$(id -u)" = 0 ] || e2e_skip "uid locks are root's only"
base=$((200000 + ($$ % 100000) * 8 + 3))
WG_UID_BASE=$base; export WG_UID_BASE
pids=
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	rm -rf "$tmp"
	rm -f /run/warpgrade/$base.lock /run/warpgrade/$((base + 1)).lock
}
e2e_at_exit cleanup
chmod 755 "$tmp"

# A suite of N cases that each sleep a second (rn_sleep's default).
suite() {
	mkdir -p "$1"
	cases=""
	for i in $(seq "$2"); do
		: > "$1/c$i.in"
		: > "$1/c$i.out"
		cases="$cases${cases:+,}{\"name\": \"c$i\", \"category\": \"x\", \"points\": 1, \"visibility\": \"visible\"}"
	done
	printf '{"name": "s", "limits": {"cpu_seconds": 2, "wall_seconds": 5}, "cases": [%s]}\n' \
		"$cases" > "$1/suite.json"
}
suite "$tmp/slow" 4
suite "$tmp/quick" 1
cp "$b/helpers/rn_sleep" "$tmp/sleeper"

# 1. The lock folder.
ls -a /tmp | grep -q '^\.warpgrade' && echo "note: /tmp holds an older grade's lock folder"
"$grade" -q "$tmp/slow" "$tmp/sleeper" > "$tmp/one.log" 2>&1 &
pids="$!"
one=$!
i=0
while [ ! -e "/run/warpgrade/$base.lock" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
[ -e "/run/warpgrade/$base.lock" ] || bad "no /run/warpgrade/$base.lock while grade runs"
[ "$(stat -c %a /run/warpgrade)" = 700 ] || bad "/run/warpgrade is not 0700"
wait "$one" || bad "grade exited $?: $(cat "$tmp/one.log")"
[ -e "/run/warpgrade/$base.lock" ] && bad "grade left /run/warpgrade/$base.lock"

# 2. A grade in another PID namespace. Its pids there start past this
# namespace's pid_max, so its keeper's number names no process here.
if ! command -v unshare > /dev/null || ! unshare -p -f --mount-proc true 2> /dev/null; then
	echo "skipped part 2: no PID namespace can be made here (no unshare, or no CAP_SYS_ADMIN)"
	exit $fail
fi
max=$(cat /proc/sys/kernel/pid_max)
unshare -p -f --mount-proc sh -c "echo $((max + 1000)) > /proc/sys/kernel/ns_last_pid &&
	exec \"$grade\" -q \"$tmp/slow\" \"$tmp/sleeper\"" > "$tmp/inner.log" 2>&1 &
inner=$!
pids="$pids $inner"
i=0
while [ ! -e "/run/warpgrade/$base.lock" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
sleep 0.3
# Another grade meanwhile: it removes the cgroups of keepers it takes for
# dead (slot 0, at its start), and says which uids are held.
"$grade" -q "$tmp/quick" "$tmp/sleeper" > "$tmp/outer.log" 2>&1 || bad "outer grade: $(cat "$tmp/outer.log")"
"$grade" --check-env > "$tmp/env" 2>&1
grep -q "free slot uids.*held by running graders" "$tmp/env" || bad "check-env: $(grep uids "$tmp/env")"
grep 'free slot uids' "$tmp/env" | grep -q " $base " && bad "check-env takes the inner grade's uid $base for free: $(grep uids "$tmp/env")"
wait "$inner"
rc=$?
[ $rc -eq 0 ] || bad "the grade in another PID namespace was disturbed (exit $rc): $(cat "$tmp/inner.log")"
exit $fail
