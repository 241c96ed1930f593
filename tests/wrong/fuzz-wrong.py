#!/usr/bin/env python3
"""Differential fuzzer of the mutation set: is every wrong solution really
wrong, and is tests/wrong/student.c really right?

Usage: python3 tests/wrong/fuzz-wrong.py --reference BIN --killmatrix BIN
           [--build DIR] [--seconds N] [--seed S] [--jobs J] [--minimize]

Builds every tests/wrong/*/main.c (and student.c, the control) into DIR,
then, round after round, writes a batch of generated programs into a
scratch suite (NAME.in, with the reference's NAME.out) and judges the
solutions not yet caught with killmatrix -a (the grader's comparison, the
suite's limits). The programs are contract-conforming random command
streams (every command, valid and invalid arguments in every number format,
runs of every separator, comments, unknown names, active changes, gathers
that follow the active count) and targeted edge inputs (lines past 64 KiB,
128 KiB and 1 MiB, a final line without newline, blank lines mid-input).
Nothing here reads the recorded witnesses: a solution counts as wrong only
when a generated input shows it.

With --minimize, each caught solution's first killing input is reduced line
by line and written to DIR/witness/NAME.in (a candidate witness.in).

Exit 0: every wrong solution differed and the control never did; 1: some
solution was not caught in time, or the control differed; 2: setup error.
"""
import argparse
import json
import concurrent.futures
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

MAXV = (1 << 48) - 1
SEPS = [" "] * 8 + ["\t", "\r", "\v", "\f"]
COMMANDS = ["active", "strided", "aos", "gather", "shared", "transpose"]
BAD_TOKENS = ["+5", "1e3", "0x", "12abc", "2^8", "4.0", "--5", "-", "0x-5",
              "0xg", "0b101", "0o17", "1_000", "0x0x10", "0x+10", "0x-0",
              "0X+0", "1.", ".5", "0x 1", "x", "1\x01", "\x1b", "4\x7f",
              "%d" % (1 << 48), "-%d" % (1 << 48), "0x1000000000000",
              "%d" % ((1 << 64) + 4), "99999999999999999999999",
              "%d" % (1 << 63), "0x10000000000000004"]


# ------------------------------------------------------------ generation

def rnum(rnd):
    r = rnd.random()
    if r < 0.35:
        return rnd.randrange(0, 40)
    if r < 0.5:
        return max(0, rnd.choice([32, 64, 96, 128, 256, 4096]) +
                   rnd.randrange(-3, 4))
    if r < 0.6:
        return max(0, (1 << rnd.randrange(0, 48)) + rnd.randrange(-1, 2))
    if r < 0.68:
        return (1 << 32) + rnd.randrange(-40, 40)
    if r < 0.76:
        return MAXV - rnd.randrange(0, 40)
    if r < 0.9:
        return rnd.randrange(0, 1 << 20)
    return rnd.randrange(0, 1 << 48)


def fmt(rnd, v):
    """A token for the integer v (|v| < 2^48) in one of the number formats."""
    neg, m = v < 0, abs(v)
    r = rnd.random()
    if r < 0.6:
        s = str(m)
    elif r < 0.72:
        s = "0" * rnd.randrange(1, 40) + str(m)
    elif r < 0.95:
        digits = format(m, rnd.choice("xX"))
        if rnd.random() < 0.2:
            digits = "0" * rnd.randrange(1, 30) + digits
        s = rnd.choice(["0x", "0X"]) + digits
    else:
        s = str(m)
    if neg or (m == 0 and rnd.random() < 0.25):
        s = "-" + s
    return s


def bad_token(rnd):
    return rnd.choice(BAD_TOKENS)


def arg(rnd, lo, hi):
    """Mostly a valid value in [lo, hi]; sometimes out of range or not a
    number at all."""
    r = rnd.random()
    if r < 0.05:
        return bad_token(rnd)
    if r < 0.12:
        return fmt(rnd, rnd.choice([lo - 1, hi + 1, -rnd.randrange(1, 40),
                                    -rnd.randrange(0, 2)]))
    if hi - lo < 100:
        return fmt(rnd, rnd.randrange(lo, hi + 1))
    return fmt(rnd, min(hi, max(lo, rnum(rnd))))


def unknown_name(rnd):
    r = rnd.random()
    name = rnd.choice(COMMANDS)
    if r < 0.25:
        return name.capitalize() if rnd.random() < 0.5 else name.upper()
    if r < 0.45:
        return name[:rnd.randrange(1, len(name))]
    if r < 0.6:
        return name + rnd.choice(["x", "s", "2", "_", ","])
    n = rnd.choice([1, 5, 15, 16, 17, 31, 32, 33, 64, 255, 256, 300, 1000])
    return "".join(rnd.choice("abcdefghijklmnopqrstuvwxyz_-.") for _ in range(n))


class Gen:
    def __init__(self, rnd):
        self.rnd = rnd
        self.active = 32

    def tokens(self):
        rnd = self.rnd
        cmd = rnd.choices(COMMANDS + ["unknown"],
                          [2, 5, 3, 3, 3, 2, 1])[0]
        if cmd == "unknown":
            return [unknown_name(rnd)] + [fmt(rnd, rnum(rnd))
                                          for _ in range(rnd.randrange(0, 3))]
        if cmd == "active":
            if rnd.random() < 0.85:
                n = rnd.randrange(1, 33) if rnd.random() < 0.6 else \
                    rnd.choice([1, 2, 3, 31, 32])
                toks = [fmt(rnd, n)]
                self.active = n
            else:
                toks = [arg(rnd, 1, 32)]
                if rnd.random() < 0.3:
                    toks.append(fmt(rnd, rnd.randrange(1, 33)))
            return ["active"] + self.count_noise(toks)
        if cmd == "strided":
            toks = [arg(rnd, 0, MAXV), arg(rnd, 0, MAXV)]
            if rnd.random() < 0.7:
                toks.append(arg(rnd, 1, 16))
            return ["strided"] + self.count_noise(toks)
        if cmd == "aos":
            if rnd.random() < 0.5:
                s = rnd.randrange(1, 160)
            else:
                s = max(1, rnum(rnd))
            f = rnd.randrange(1, s + 1) if rnd.random() < 0.7 else \
                max(1, rnum(rnd))
            o = rnd.randrange(0, s - f + 1) if f <= s and rnd.random() < 0.85 \
                else rnd.randrange(0, 200)
            toks = [fmt(rnd, s), fmt(rnd, o), fmt(rnd, f)]
            if rnd.random() < 0.1:
                toks[rnd.randrange(3)] = arg(rnd, 0, MAXV)
            return ["aos"] + self.count_noise(toks)
        if cmd == "gather":
            size = arg(rnd, 1, 16)
            n = self.active
            if rnd.random() < 0.15:
                n = max(0, n + rnd.choice([-1, 1, -n, 2]))
            base = rnum(rnd)
            spread = rnd.choice([0, 4, 16, 64, 200, 4096, 1 << 20])
            addrs = []
            for _ in range(n):
                a = base + rnd.randrange(0, spread + 1)
                if a > MAXV:
                    a = MAXV - rnd.randrange(0, 64)
                addrs.append(fmt(rnd, a))
            if addrs and rnd.random() < 0.1:
                k = rnd.randrange(len(addrs))
                addrs[k] = rnd.choice(["-1", "-0", "-0x0", "-4",
                                       bad_token(rnd)])
            return ["gather", size] + addrs
        if cmd == "shared":
            return ["shared"] + self.count_noise([arg(rnd, 0, MAXV),
                                                  arg(rnd, 0, MAXV)])
        return ["transpose"] + self.count_noise([arg(rnd, 1, 64),
                                                 arg(rnd, 0, 8)])

    def count_noise(self, toks):
        r = self.rnd.random()
        if r < 0.04 and toks:
            return toks[:-1]
        if r < 0.08:
            return toks + [fmt(self.rnd, self.rnd.randrange(0, 20))]
        return toks

    def sep(self):
        rnd = self.rnd
        if rnd.random() < 0.8:
            return " "
        return "".join(rnd.choice(SEPS) for _ in range(rnd.randrange(1, 4)))

    def line(self):
        rnd = self.rnd
        r = rnd.random()
        if r < 0.04:
            return ""
        if r < 0.07:
            return rnd.choice(["#", "# comment", "   ", "\t\r", " # x"])
        toks = self.tokens()
        text = self.sep().join(toks)
        if rnd.random() < 0.15:
            text = self.sep() + text
        if rnd.random() < 0.15:
            text += self.sep()
        if rnd.random() < 0.1:
            text += rnd.choice(["#", " #", "# c", "#5 6"])
        if rnd.random() < 0.05:
            text += "\r"
        return text

    def program(self, nlines):
        self.active = 32
        body = "\n".join(self.line() for _ in range(nlines))
        return body + ("" if self.rnd.random() < 0.2 else "\n")


def long_lines(rnd, size):
    """Lines of about `size` bytes: a command whose tokens are pushed apart by
    blanks or leading zeros, so any shorter buffer splits it visibly."""
    g = Gen(rnd)
    out = []
    for _ in range(2):
        toks = g.tokens()
        k = rnd.randrange(1, len(toks) + 1)
        pad = rnd.choice([" ", "\t", "0"]) if k < len(toks) else " "
        if pad == "0" and not re.fullmatch(r"-?[0-9]+", toks[k]):
            pad = " "
        if pad == "0":
            toks[k] = "0" * size + toks[k]
            out.append(" ".join(toks))
        else:
            out.append(" ".join(toks[:k]) + pad * size + " " +
                       " ".join(toks[k:]))
    return "\n".join(out) + "\nstrided 0 1\n"


def leading_blanks(rnd):
    """A command after a run of blanks long enough that trimming them one at
    a time (quadratic) needs far more than the suite's CPU limit."""
    size = rnd.choice([200000, 400000, 800000])
    return rnd.choice(" \t") * size + "strided 0 1\nstrided 4 1\n"


def small_strided(rnd, nlines):
    """Many small strided loads with a random active count: their ratios hit
    the exact ties (x.x5 %) that a reordered computation rounds wrong."""
    out = []
    for _ in range(nlines):
        out.append("active %d" % rnd.randrange(1, 33))
        out.append("strided %d %d %d" % (rnd.randrange(128), rnd.randrange(5),
                                         rnd.randrange(1, 17)))
    return "\n".join(out) + "\n"


def batch(rnd, round_no, count):
    """count programs: mostly random, with a share of targeted edges (long
    lines, long blank runs, outputs past 64 KiB, ties)."""
    progs = []
    for i in range(count):
        g = Gen(rnd)
        r = rnd.random()
        if i == 0 and round_no % 3 == 0:
            size = [300, 5000, 70000, 140000, (1 << 20) + 4096][
                (round_no // 3) % 5]
            progs.append(long_lines(rnd, size))
        elif i == 0 and round_no % 3 == 1:
            progs.append(leading_blanks(rnd))
        elif i == 0:
            progs.append(g.program(3000))
        elif i == 1:
            progs.append(small_strided(rnd, 200))
        elif r < 0.1:
            progs.append(g.program(rnd.randrange(1, 4)).rstrip("\n"))
        elif r < 0.2:
            progs.append("\n" + g.program(20))
        else:
            progs.append(g.program(rnd.randrange(20, 120)))
    return progs


# ------------------------------------------------------------ running

def build(root, outdir, jobs):
    """Compiles every wrong solution and the control; returns {name: path}."""
    os.makedirs(outdir, exist_ok=True)
    wdir = os.path.join(root, "tests", "wrong")
    srcs = {d: os.path.join(wdir, d, "main.c") for d in sorted(os.listdir(wdir))
            if os.path.isfile(os.path.join(wdir, d, "main.c"))}
    srcs["student.c"] = os.path.join(wdir, "student.c")

    def one(item):
        name, src = item
        out = os.path.join(outdir, name.replace(".c", "-control"))
        if not (os.path.exists(out) and
                os.path.getmtime(out) >= os.path.getmtime(src)):
            cc = os.environ.get("CC", "cc")
            r = subprocess.run([cc, "-std=c11", "-O2", "-w", "-o", out, src,
                                "-lm"], capture_output=True, text=True)
            if r.returncode:
                sys.exit("fuzz-wrong: %s does not build:\n%s" %
                         (src, r.stderr[:2000]))
        return name, out

    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        return dict(ex.map(one, srcs.items()))


KILLED = re.compile(r"^(?:FAIL )?(\S+): killed by (\d+)[^:]*:(.*)$")


def judge(killmatrix, suite, bins, jobs):
    """{binary basename: [killing case names]} for bins on suite."""
    r = subprocess.run([killmatrix, "-a", "-k", "1", "-j", str(jobs), suite]
                       + bins, capture_output=True, text=True)
    if r.returncode not in (0, 1):
        sys.exit("fuzz-wrong: killmatrix failed:\n" + r.stderr)
    out = {}
    for line in r.stdout.splitlines():
        m = KILLED.match(line)
        if m:
            out[m.group(1)] = m.group(3).split()
    return out


def hidden_limits(root):
    """The hidden suite's limits: a generated input is judged as a case of
    the graded suite would be."""
    with open(os.path.join(root, "hidden-tests", "suite.json")) as f:
        return json.load(f).get("limits", {})


def write_suite(suite, texts, limits):
    """DIR/suite.json naming the round's cases (killmatrix reads a suite as
    the grader does)."""
    doc = {"name": "fuzz-wrong", "limits": limits,
           "cases": [{"name": n, "category": "fuzz", "points": 1}
                     for n in sorted(texts)]}
    with open(os.path.join(suite, "suite.json"), "w") as f:
        json.dump(doc, f, indent=1)


def run(prog, data):
    try:
        p = subprocess.run([prog], input=data, capture_output=True, timeout=5)
        return p.returncode, p.stdout
    except subprocess.TimeoutExpired:
        return None, b""


def same(a, b):
    """The grader's default rule: trailing blanks and blank lines ignored."""
    def norm(x):
        ls = [l.rstrip(b" \t\r") for l in x.split(b"\n")]
        while ls and not ls[-1]:
            ls.pop()
        return ls
    return norm(a) == norm(b)


def differs(ref, prog, data):
    rc, out = run(prog, data)
    return rc != 0 or not same(run(ref, data)[1], out)


def minimize(ref, prog, text):
    """Line-based reduction of a killing input (ddmin-style halving)."""
    lines = text.split("\n")
    chunk = max(1, len(lines) // 2)
    while chunk >= 1:
        i = 0
        while i < len(lines):
            cand = lines[:i] + lines[i + chunk:]
            if cand and differs(ref, prog, "\n".join(cand).encode("latin-1")):
                lines = cand
            else:
                i += chunk
        chunk //= 2
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reference", required=True)
    ap.add_argument("--killmatrix", required=True)
    ap.add_argument("--root", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    ap.add_argument("--build", default="build/fuzz-wrong")
    ap.add_argument("--seconds", type=float, default=120)
    ap.add_argument("--seed", type=int, default=int(time.time()))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--batch", type=int, default=24)
    ap.add_argument("--minimize", action="store_true")
    a = ap.parse_args()

    bins = build(a.root, a.build, a.jobs)
    control = bins.pop("student.c")
    rnd = random.Random(a.seed)
    print("fuzz-wrong: %d wrong solutions, seed %d, at most %g s" %
          (len(bins), a.seed, a.seconds), flush=True)
    left = dict(bins)
    caught = {}
    control_bad = None
    start = time.monotonic()
    rounds = programs = 0
    limits = hidden_limits(a.root)
    scratch = tempfile.mkdtemp(prefix="fuzz-wrong.")
    try:
        while time.monotonic() - start < a.seconds and (left or rounds < 3):
            suite = os.path.join(scratch, "r%d" % rounds)
            os.makedirs(suite)
            texts = {}
            for i, text in enumerate(batch(rnd, rounds, a.batch)):
                name = "p%03d" % i
                data = text.encode("latin-1")
                texts[name] = text
                with open(os.path.join(suite, name + ".in"), "wb") as f:
                    f.write(data)
                rc, out = run(a.reference, data)
                if rc != 0:
                    sys.exit("fuzz-wrong: the reference failed on:\n" + text[:500])
                with open(os.path.join(suite, name + ".out"), "wb") as f:
                    f.write(out)
            write_suite(suite, texts, limits)
            kills = judge(a.killmatrix, suite, list(left.values()) + [control],
                          a.jobs)
            ck = kills.get(os.path.basename(control), [])
            if ck and control_bad is None:
                control_bad = texts[ck[0]]
            for name in list(left):
                k = kills.get(os.path.basename(left[name]), [])
                if k:
                    caught[name] = texts[k[0]]
                    del left[name]
            rounds += 1
            programs += len(texts)
            shutil.rmtree(suite)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    print("fuzz-wrong: %d rounds, %d programs, %.0f s: %d of %d wrong "
          "solutions caught" % (rounds, programs, time.monotonic() - start,
                                len(caught), len(bins)))
    if a.minimize:
        wdir = os.path.join(a.build, "witness")
        os.makedirs(wdir, exist_ok=True)
        for name, text in sorted(caught.items()):
            small = minimize(a.reference, bins[name], text)
            with open(os.path.join(wdir, name + ".in"), "wb") as f:
                f.write(small.encode("latin-1"))
        print("fuzz-wrong: minimized inputs in %s" % wdir)
    status = 0
    for name in sorted(left):
        print("FAIL %s: no generated input shows it wrong" % name)
        status = 1
    if control_bad is not None:
        print("FAIL tests/wrong/student.c differs from the reference on:\n%s"
              % control_bad[:1000])
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
