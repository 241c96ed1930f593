#!/bin/sh
# Student folder names are hostile, or only foreign: a batch must grade
# every student and name each safely (batch_student_key), whole and in
# shards, and a merge must not make file names of what a summary says.
#   - a Latin-1 name (a zip unpacked with another code page): graded, in
#     the gradebook, the summary and the merge, as "Jos\xe9";
#   - the same with no .c file: "no submission", and the batch goes on;
#   - a name with a newline and an escape: no forged line in summary.txt,
#     no raw control byte anywhere;
#   - a 250-byte name: NAME.json would pass NAME_MAX; it is cut and
#     keyed with its hash, and graded;
#   - a name with a backslash: its key differs from the Latin-1 one's;
#   - a merge of a summary whose class names "../../escaped": refused,
#     nothing written outside DIR.
set -u
. "$(dirname "$0")/lib.sh"
e2e_uid_base 7
[ -x "$grade" ] || e2e_skip "no $grade"
e2e_need python3
suite=$WG_ROOT/public-tests
c=$tmp/class
src=$WG_ROOT/submissions/correct/main.c

long=$(printf 'L%.0s' $(seq 250))
mkdir -p "$c/alice" "$c/$(printf 'Jos\351')" "$c/$(printf 'emp\351ty')" \
	"$c/$(printf 'x\n\nScore out of 16: mean 99.00 FORGED\n\033[2Jz')" \
	"$c/$long" "$c/Jos\\xe9"
for d in alice "$(printf 'Jos\351')" "$long" "Jos\\xe9" \
	 "$(printf 'x\n\nScore out of 16: mean 99.00 FORGED\n\033[2Jz')"; do
	cp "$src" "$c/$d/"
done

"$grade" --batch "$suite" "$c" --out "$tmp/all" -j 2 -q > "$tmp/all.out" 2>&1
rc=$?
[ $rc -eq 0 ] || { bad "whole batch: exit $rc, want 0"; cat "$tmp/all.out"; }
for k in 1 2; do
	"$grade" --batch "$suite" "$c" --out "$tmp/s$k" --shard $k/2 -j 2 -q \
		> "$tmp/s$k.out" 2>&1 || bad "shard $k: exit $?: $(cat "$tmp/s$k.out")"
done
"$grade" --merge --out "$tmp/m" "$tmp/s1" "$tmp/s2" -q > "$tmp/m.out" 2>&1 ||
	bad "merge: exit $?: $(cat "$tmp/m.out")"

python3 - "$tmp" <<'PY' || fail=1
import csv, json, os, sys
t = sys.argv[1]
errors = []
def want(what, ok):
    if not ok:
        errors.append(what)
        print("FAIL: " + what)
for out in ("all", "m"):
    rows = {r["student"]: r for r in csv.DictReader(open(os.path.join(t, out, "gradebook.csv"), newline=""))}
    names = sorted(rows)
    want("%s: six rows, not %s" % (out, names), len(names) == 6)
    want("%s: Latin-1 name keyed" % out, rows.get("Jos\\xe9", {}).get("status") == "graded")
    want("%s: backslash name keyed apart" % out, rows.get("Jos\\x5cxe9", {}).get("status") == "graded")
    want("%s: empty Latin-1 folder is no submission" % out,
         rows.get("emp\\xe9ty", {}).get("status") == "no submission")
    longs = [n for n in names if n.startswith("LLLL")]
    want("%s: long name cut and keyed (%s)" % (out, longs),
         len(longs) == 1 and "~" in longs[0] and len(longs[0].encode()) <= 180 and
         rows[longs[0]]["status"] == "graded")
    want("%s: every graded student full marks" % out,
         all(r["score"] == r["max_score"] for r in rows.values() if r["status"] == "graded"))
    text = open(os.path.join(t, out, "summary.txt"), "rb").read()
    want("%s: no forged line in summary.txt" % out, b"FORGED" not in text.split(b"\n", 1)[0] and
         not any(l.startswith(b"Score out of 16: mean 99.00") for l in text.split(b"\n")))
    want("%s: no control byte in summary.txt" % out,
         not any(b < 0x20 and b not in (0x0a,) for b in text))
    s = json.load(open(os.path.join(t, out, "summary.json")))
    want("%s: summary.json not partial" % out, not s["partial"])
for k in (1, 2):
    s = json.load(open(os.path.join(t, "s%d" % k, "summary.json")))
    want("shard %d: class_students holds all six" % k, len(s["class_students"]) == 6)
sys.exit(1 if errors else 0)
PY

# A summary that names a student no batch could write: refused, and no
# file appears outside DIR.
mkdir -p "$tmp/deep/er"
cp -R "$tmp/s1" "$tmp/deep/er/forged"
python3 - "$tmp/deep/er/forged/summary.json" <<'PY'
import json, sys
p = sys.argv[1]
s = json.load(open(p))
s["class_students"].append("../../escaped")
json.dump(s, open(p, "w"))
PY
"$grade" --merge --out "$tmp/deep/er/m2" "$tmp/deep/er/forged" "$tmp/s2" > "$tmp/f.out" 2>&1
rc=$?
[ $rc -eq 2 ] || bad "forged class: exit $rc, want 2: $(cat "$tmp/f.out")"
grep -q "holds '../../escaped', not a student name" "$tmp/f.out" ||
	bad "forged class: $(cat "$tmp/f.out")"
[ -e "$tmp/deep/escaped.json" ] || [ -e "$tmp/deep/er/escaped.json" ] &&
	bad "forged class: a file was written outside DIR"
[ -e "$tmp/deep/er/m2" ] && bad "forged class: the refused merge wrote DIR"
exit $fail
