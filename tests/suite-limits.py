#!/usr/bin/env python3
"""Re-measures the suites' time limits against the reference (`make
suite-limits`).

Usage: python3 tests/suite-limits.py [--runs N] REFERENCE SUITE_DIR...

The rule (suite.json's description, docs/suites.md "Time and output limits"), in
the manner of Kattis, which derives one time limit per problem from its
slowest accepted solution times a multiplier: a suite's cpu_seconds is
FACTOR (10) x the reference's CPU time on its slowest case, rounded up to
a whole second, and at least 1 s. The factor leaves a correct student
solution room to be several times slower than the reference (getchar per
byte, a printf per number), and the slow cases are built so that a
quadratic step needs FACTOR x the limit or more.

For every case: the reference's CPU time (user + system, the slowest of N
runs, as Kattis takes the slowest run), the limit, their ratio, the input's
size and its longest line. Then the derived limit and the verdict: exit 0
when every suite's cpu_seconds is the rule's, 1 when one is not (a case
needs more than a tenth of the limit, or the limit is looser than the rule
allows, which would let a slow program pass), 2 on a usage or setup error.
A measurement, not a test: `make test` does not run it.
"""
import json
import math
import os
import subprocess
import sys

FACTOR = 10
FLOOR_SECONDS = 1


def cpu_seconds(ref, path):
    """CPU time of one run of ref on path (its output discarded)."""
    with open(path, "rb") as stdin, open(os.devnull, "wb") as null:
        p = subprocess.Popen([ref], stdin=stdin, stdout=null)
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit("suite-limits: the reference failed on %s (%d)"
                 % (path, p.returncode))
    return ru.ru_utime + ru.ru_stime


def longest_line(path):
    longest = cur = 0
    with open(path, "rb") as f:
        while True:
            block = f.read(1 << 20)
            if not block:
                break
            parts = block.split(b"\n")
            for part in parts[:-1]:
                longest = max(longest, cur + len(part))
                cur = 0
            cur += len(parts[-1])
    return max(longest, cur)


def measure(ref, d, runs):
    with open(os.path.join(d, "suite.json")) as f:
        suite = json.load(f)
    limit = suite.get("limits", {}).get("cpu_seconds", 1)
    rows = []
    print("%-28s %9s %7s %8s %10s %10s %10s" % (
        "case", "ref ms", "limit", "ratio", "input B", "line B", "output B"))
    for c in suite["cases"]:
        stem = os.path.join(d, c["name"])
        t = max(cpu_seconds(ref, stem + ".in") for _ in range(runs))
        size = os.path.getsize(stem + ".in")
        line = longest_line(stem + ".in")
        out = os.path.getsize(stem + ".out")
        ratio = limit / t if t > 0 else math.inf
        rows.append((c["name"], t, size, line, out))
        print("%-28s %9.1f %6gs %8s %10d %10d %10d" % (
            c["name"], 1000 * t, limit,
            "inf" if ratio == math.inf else "%.0f" % ratio, size, line, out))
    slowest = max(rows, key=lambda r: r[1])
    derived = max(FLOOR_SECONDS, math.ceil(FACTOR * slowest[1]))
    total = sum(r[1] for r in rows)
    print("%s: %d cases, %d bytes of input, %d of expected output; the "
          "reference: %.0f ms in all, slowest %s (%.1f ms); largest line "
          "%d B, largest input %d B, largest output %d B" % (
              d, len(rows), sum(r[2] for r in rows), sum(r[4] for r in rows),
              1000 * total, slowest[0], 1000 * slowest[1],
              max(r[3] for r in rows), max(r[2] for r in rows),
              max(r[4] for r in rows)))
    ok = limit == derived
    print("%s: cpu_seconds %g, the rule max(%d s, ceil(%d x %.3f s)) = %d s: "
          "%s" % (d, limit, FLOOR_SECONDS, FACTOR, slowest[1], derived,
                  "honest" if ok else "NOT HONEST: set cpu_seconds to %d "
                  "(tests/gen_hard.py LIMITS) and check the slow cases"
                  % derived))
    return ok


def main():
    args = sys.argv[1:]
    runs = 5
    if len(args) >= 2 and args[0] == "--runs":
        runs = int(args[1])
        args = args[2:]
    if len(args) < 2 or runs < 1:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        sys.exit(2)
    ok = all([measure(args[0], d, runs) for d in args[1:]])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
