#!/bin/sh
# The degraded mode's sweep (WG_NO_NAMESPACES=1, root: sandbox_sweep.c)
# against the other slot's program (tests/helpers/sb_sweeprace.c plays the
# student in both slots, under two uids, with -j 2):
#  1. a swapped symlink never makes root act on a host file: a file the
#     program names (mode 0644) keeps its mode after every grade;
#  2. a folder of one slot uid planted inside another's is swept all the
#     same: nothing the programs made is left in /tmp after grade.
# Only as root (without a uid switch there is no sweep): else skipped.
set -u
. "$(dirname "$0")/lib.sh"
root=$WG_ROOT
b=$WG_BUILD
[ "$(id -u)" = 0 ] || e2e_skip "skipped: the sweep runs only as root"
e2e_uid_base 3
tag=wg-race-$$
cleanup() {
	rm -rf "$tmp" /tmp/"$tag"-*
}
e2e_at_exit cleanup
chmod 755 "$tmp"

printf 'host file\n' > "$tmp/victim"
chmod 644 "$tmp/victim"
mkdir "$tmp/suite"
cases=""
for i in $(seq 1 24); do
	printf 'race %s %s\n' "$tag" "$tmp/victim" > "$tmp/suite/c$i.in"
	printf 'done\n' > "$tmp/suite/c$i.out"
	cases="$cases${cases:+,}{\"name\": \"c$i\", \"category\": \"x\", \"points\": 1}"
done
printf '{"name": "race", "limits": {"cpu_seconds": 2}, "cases": [%s]}\n' "$cases" \
	> "$tmp/suite/suite.json"
cp "$b/helpers/sb_sweeprace" "$tmp/student"

for round in 1 2 3; do
	WG_NO_NAMESPACES=1 "$grade" --staff -j 2 "$tmp/suite" "$tmp/student" \
		> "$tmp/log" 2>&1
	rc=$?
	[ $rc -eq 0 ] || bad "round $round: grade exited $rc: $(tail -n 3 "$tmp/log")"
	mode=$(stat -c %a "$tmp/victim")
	[ "$mode" = 644 ] || bad "round $round: the sweep changed a host file's mode to $mode"
	chmod 644 "$tmp/victim"
	left=$(ls -d /tmp/"$tag"-* 2>/dev/null)
	[ -z "$left" ] || bad "round $round: left in /tmp: $left"
	rm -rf /tmp/"$tag"-*
done
exit $fail
