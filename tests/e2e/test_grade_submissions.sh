#!/bin/sh
# Every sample submission in submissions/ graded against hidden-tests/:
# the verdict kinds each one's bug must produce, a case that shows it, and,
# on the committed suite, its exact verdict counts and score (update the
# table when the suite changes on purpose). The correct one gets everything,
# on the public suite too; the one that does not compile nothing. The
# samples are single files of their own design (submissions/*/README says
# each one's bug), not copies of the reference.
# Bounded: -j 2 and a 2 s wall limit (the looping one burns 1 s of CPU per
# case it hangs on; the flooding one stops at the output cap).
set -u
. "$(dirname "$0")/lib.sh"
root=$WG_ROOT
if ! command -v python3 > /dev/null 2>&1; then
	echo "python3 is needed to read the JSON report"
	exit 77
fi
if ! command -v "${CC:-cc}" > /dev/null 2>&1; then
	echo "no C compiler to build the submissions"
	exit 77
fi

cd "$root" || exit 1
"$grade" -j 2 --wall-limit 2 --quiet --json "$tmp/r.json" hidden-tests submissions/* \
	> "$tmp/out" 2>&1
rc=$?
cat "$tmp/out"
[ $rc -eq 1 ] || { echo "FAIL: grade exited $rc, not 1"; exit 1; }
"$grade" --quiet --json "$tmp/p.json" public-tests submissions/correct \
	> "$tmp/pout" 2>&1
rc=$?
[ $rc -eq 0 ] || { cat "$tmp/pout"; echo "FAIL: correct on public-tests: exit $rc, not 0"; exit 1; }

python3 - "$tmp/r.json" "$tmp/p.json" <<'PY'
import collections, json, sys
r = json.load(open(sys.argv[1]))
subs = {s["submission"].rstrip("/").split("/")[-1]: s for s in r["submissions"]}

# name: (verdicts other than AC that must all appear and nothing else,
#        cases that must fail with one of them)
expect = {
    "correct":              (set(), []),
    "float-rounding":       ({"WA"}, ["round-ties"]),
    "bank-threads":         ({"WA"}, ["bc-shared"]),
    "no-misalignment":      ({"WA"}, ["mis-bases"]),
    "ignores-partial-warp": ({"WA"}, ["pw-sweep"]),
    "crash-bad-input":      ({"RTE"}, ["err-argcount"]),
    "infinite-loop":        ({"TLE"}, ["parse-crlf"]),
    "output-flood":         ({"OLE", "TLE"}, ["ga-error-order"]),
    "compile-error":        ({"CE"}, []),
    "sector-bitmap":        ({"MLE"}, ["ls-huge"]),
}
# The score and the verdict counts of each on the committed hidden suite
# (91 cases, 189 points).
scores = {"correct": 189,
          "float-rounding": 163,
          "bank-threads": 164,
          "no-misalignment": 72,
          "ignores-partial-warp": 103,
          "crash-bad-input": 167,
          "infinite-loop": 169,
          "output-flood": 160,
          "compile-error": 0,
          "sector-bitmap": 175}
counts = {"correct": {"AC": 91},
          "float-rounding": {"AC": 79, "WA": 12},
          "bank-threads": {"AC": 79, "WA": 12},
          "no-misalignment": {"AC": 34, "WA": 57},
          "ignores-partial-warp": {"AC": 49, "WA": 42},
          "crash-bad-input": {"AC": 82, "RTE": 9},
          "infinite-loop": {"AC": 82, "TLE": 9},
          "output-flood": {"AC": 77, "OLE": 12, "TLE": 2},
          "compile-error": {"CE": 91},
          "sector-bitmap": {"AC": 85, "MLE": 6}}
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
    got_counts = dict(collections.Counter(c["verdict"] for c in s["cases"]))
    if got_counts != counts[name]:
        bad.append(f"{name}: verdict counts {sorted(got_counts.items())}, "
                   f"expected {sorted(counts[name].items())}")
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
        if c["verdict"] == "OLE" and "standard output" not in c.get("detail", ""):
            bad.append(f"{name}: {c['name']} OLE not on stdout ({c.get('detail')})")
        if c["verdict"] == "MLE" and not any(w in c.get("detail", "") for w in ("allocation failed", "OOM killer")):
            bad.append(f"{name}: {c['name']} MLE neither by a failed allocation nor by the OOM killer ({c.get('detail')})")
pub = json.load(open(sys.argv[2]))["submissions"][0]
if (pub["score"], pub["max_score"]) != (16, 16) or \
        any(c["verdict"] != "AC" for c in pub["cases"]):
    bad.append(f"correct on public-tests: {pub['score']}/{pub['max_score']}")
print("\n".join(f"FAIL: {b}" for b in bad) or "all sample submissions graded as expected")
sys.exit(1 if bad else 0)
PY
