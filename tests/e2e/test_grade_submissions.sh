#!/bin/sh
# Every sample submission in submissions/ graded against hidden-tests/:
# the verdicts each one must get and its score. The suite's cases may be
# regenerated, so the checks name the verdict kinds each bug must produce
# and the cases that show it, not a score to the point; the correct one must
# get everything, the one that does not compile nothing.
# Bounded: -j 2 and a 2 s wall limit (the looping one burns 1 s of CPU).
set -u
root=${WG_ROOT:-.}
grade=$root/${WG_BUILD:-build}/bin/grade
[ -x "$grade" ] || grade=${WG_BUILD:-build}/bin/grade
if ! command -v python3 > /dev/null 2>&1; then
	echo "python3 is needed to read the JSON report"
	exit 77
fi
if ! command -v "${CC:-cc}" > /dev/null 2>&1; then
	echo "no C compiler to build the submissions"
	exit 77
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

cd "$root" || exit 1
"$grade" -j 2 --wall-limit 2 --quiet --json "$tmp/r.json" hidden-tests submissions/* \
	> "$tmp/out" 2>&1
rc=$?
cat "$tmp/out"
[ $rc -eq 1 ] || { echo "FAIL: grade exited $rc, not 1"; exit 1; }

python3 - "$tmp/r.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
subs = {s["submission"].rstrip("/").split("/")[-1]: s for s in r["submissions"]}

# name: (verdicts other than AC that must all appear and nothing else,
#        cases that must fail with the first of them, extra check)
expect = {
    "correct":              (set(), []),
    "float-rounding":       ({"WA"}, ["round-ties"]),
    "bank-threads":         ({"WA"}, ["bc-shared"]),
    "no-misalignment":      ({"WA"}, ["mis-bases"]),
    "ignores-partial-warp": ({"WA"}, ["pw-sweep"]),
    "crash-bad-input":      ({"RTE"}, ["err-unknown"]),
    "infinite-loop":        ({"TLE"}, ["parse-crlf"]),
    "output-flood":         ({"WA", "OLE"}, ["mis-bases"]),
    "compile-error":        ({"CE"}, []),
    "sector-bitmap":        ({"MLE"}, ["ls-huge"]),
}
# The score of each on the committed hidden suite (143 points).
scores = {"correct": 143, "float-rounding": 127, "bank-threads": 124,
          "no-misalignment": 58, "ignores-partial-warp": 85,
          "crash-bad-input": 126, "infinite-loop": 129, "output-flood": 31,
          "compile-error": 0, "sector-bitmap": 129}
bad = []
for name, (kinds, cases) in expect.items():
    s = subs.get(name)
    if s is None:
        bad.append(f"{name}: not graded")
        continue
    by = {c["name"]: c for c in s["cases"]}
    got = {c["verdict"] for c in s["cases"]} - {"AC"}
    if got != kinds:
        bad.append(f"{name}: verdicts {sorted(got)}, expected {sorted(kinds)}")
    first = sorted(kinds)[0] if kinds else None
    for c in cases:
        if c not in by:
            bad.append(f"{name}: the suite has no case {c}")
        elif by[c]["verdict"] not in kinds:
            bad.append(f"{name}: {c} is {by[c]['verdict']}")
    if s["score"] != scores[name]:
        bad.append(f"{name}: score {s['score']}, expected {scores[name]} "
                   "(if the hidden suite changed on purpose, update this table)")
    won = sum(c["score"] for c in s["cases"])
    if won != s["score"] or s["max_score"] != sum(c["max_score"] for c in s["cases"]):
        bad.append(f"{name}: score {s['score']}/{s['max_score']} does not add up")
    if name == "correct" and s["score"] != s["max_score"]:
        bad.append(f"correct: {s['score']}/{s['max_score']}")
    if name == "compile-error":
        if s["score"] != 0 or s["build"]["status"] != "failed":
            bad.append("compile-error: not a failed build with 0 points")
        if "stdbool" not in s["build"]["log"] and "bool" not in s["build"]["log"]:
            bad.append("compile-error: the compiler's message is not in the log")
    elif name != "correct" and not 0 < s["score"] < s["max_score"]:
        bad.append(f"{name}: score {s['score']}/{s['max_score']}")
    if s["build"]["status"] not in ("ok", "failed"):
        bad.append(f"{name}: build {s['build']['status']}")
    for c in s["cases"]:
        if c["verdict"] == "RTE" and c.get("signal") != "SIGSEGV":
            bad.append(f"{name}: {c['name']} RTE without SIGSEGV ({c.get('signal')})")
        if c["verdict"] == "TLE" and c.get("limit") not in ("cpu", "wall"):
            bad.append(f"{name}: {c['name']} TLE without its limit")
        if c["verdict"] == "WA" and not (c["diff"] or "").startswith("first difference"):
            bad.append(f"{name}: {c['name']} WA without a diff")
print("\n".join(f"FAIL: {b}" for b in bad) or "all sample submissions graded as expected")
sys.exit(1 if bad else 0)
PY
