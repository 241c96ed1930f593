#!/bin/sh
# Hidden cases never feed a visible result of the same grade
# (tests/helpers/sb_stash.c plays the student):
#  1. the barrier: with -j 2 every hidden case starts after every visible
#     case of every submission has ended, in either slot, and the report
#     keeps the suite's order;
#  2. without namespaces (WG_NO_NAMESPACES=1, as where Docker refuses
#     them): hidden cases stash their input in /tmp, /var/tmp, /dev/shm and
#     a folder of their own; no visible case of this grade, nor of the next
#     grade, finds any of it, and nothing is left after grade (as root: the
#     sweep after every case; as a normal user the report must say that
#     hidden tests may leak, and the test removes the stash itself).
set -u
. "$(dirname "$0")/lib.sh"
root=$WG_ROOT
b=$WG_BUILD
e2e_uid_base 5
e2e_need python3
name=wg-stash-$$
cleanup() {
	rm -rf "$tmp" "/tmp/$name" "/tmp/$name.d" "/var/tmp/$name" "/dev/shm/$name"
}
e2e_at_exit cleanup
chmod 755 "$tmp"

# suite DIR CASE:VISIBILITY:INPUT:OUTPUT...
suite() {
	d=$1
	shift
	mkdir -p "$d"
	cases=""
	for c in "$@"; do
		n=${c%%:*} rest=${c#*:}
		vis=${rest%%:*} rest=${rest#*:}
		printf '%s\n' "${rest%%:*}" > "$d/$n.in"
		printf '%s\n' "${rest#*:}" > "$d/$n.out"
		cases="$cases${cases:+,}{\"name\": \"$n\", \"category\": \"x\", \"points\": 1, \"visibility\": \"$vis\"}"
	done
	printf '{"name": "t", "limits": {"cpu_seconds": 2}, "cases": [%s]}\n' "$cases" \
		> "$d/suite.json"
}
cp "$b/helpers/sb_stash" "$tmp/one"
cp "$b/helpers/sb_stash" "$tmp/two"

# 1. The barrier, across two slots and two submissions. Visible and hidden
# cases alternate in the suite, so jobs taken in the suite's order would
# start a hidden case in one slot while a visible one runs in the other.
suite "$tmp/order" v1:visible:stamp:x h1:hidden:stamp:x v2:visible:stamp:x \
	h2:hidden:stamp:x v3:visible:stamp:x h3:hidden:stamp:x v4:visible:stamp:x
"$grade" -q -j 2 --json "$tmp/order.json" "$tmp/order" "$tmp/one" "$tmp/two" \
	> "$tmp/order.log" 2>&1
[ $? -eq 1 ] || bad "barrier grade: $(cat "$tmp/order.log")"
python3 - "$tmp/order.json" <<'PY' || bad "hidden cases started before the visible ones ended"
import json, re, sys
r = json.load(open(sys.argv[1]))
names = ["v1", "h1", "v2", "h2", "v3", "h3", "v4"]
vis_end, hid_start = [], []
for sub in r["submissions"]:
    assert [c["name"] for c in sub["cases"]] == names, "report order"
    for c in sub["cases"]:
        start, end = map(int, re.search(r"actual: +T (\d+) (\d+)", c["diff"]).groups())
        (vis_end.append(end) if c["visibility"] == "visible" else hid_start.append(start))
assert len(vis_end) == 8 and len(hid_start) == 6
if max(vis_end) > min(hid_start):
    print("a hidden case started %.1f ms before the last visible one ended"
          % ((max(vis_end) - min(hid_start)) / 1e6))
    sys.exit(1)
PY

# 2. The /tmp stash without namespaces.
suite "$tmp/stash" "v1:visible:look $name:nothing" "h1:hidden:hide $name SECRET-ONE:stashed" \
	"v2:visible:look $name:nothing" "h2:hidden:hide $name SECRET-TWO:stashed" \
	"v3:visible:look $name:nothing"
left() {
	ls -d "/tmp/$name" "/tmp/$name.d" "/var/tmp/$name" "/dev/shm/$name" 2>/dev/null
}
for j in 1 2; do
	for round in first second; do
		WG_NO_NAMESPACES=1 "$grade" --staff -j $j --json "$tmp/stash.json" \
			"$tmp/stash" "$tmp/one" > "$tmp/stash.log" 2>&1
		rc=$?
		python3 - "$tmp/stash.json" <<'PY' || bad "-j $j, $round grade: a visible case found a stash"
import json, sys
r = json.load(open(sys.argv[1]))
for c in r["submissions"][0]["cases"]:
    if c["visibility"] == "visible" and c["verdict"] != "AC":
        print(c["name"], c["verdict"], c["diff"])
        sys.exit(1)
PY
		[ $rc -eq 0 ] || bad "-j $j, $round grade exited $rc: $(tail -n 3 "$tmp/stash.log")"
		if [ "$(id -u)" = 0 ]; then
			[ -z "$(left)" ] || bad "-j $j: left after grade: $(left)"
		else
			python3 - "$tmp/stash.json" <<'PY' || bad "not root: the report does not say that hidden tests may leak"
import json, sys
s = json.load(open(sys.argv[1]))["sandbox"]
assert s["hidden_tests_may_leak"] is True, s
assert any("/tmp" in w for w in s["leaks"]), s["leaks"]
PY
			cleanup_stash=$(left)
			[ -n "$cleanup_stash" ] && rm -rf $cleanup_stash
		fi
	done
done
exit $fail
