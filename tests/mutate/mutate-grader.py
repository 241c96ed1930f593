#!/usr/bin/env python3
"""make mutate-grader: the mutation check of the grader's own code.

Reads tests/mutate/mutations.txt (its header says the format): one-line
mutations of grader/ (a dropped check, a flipped comparison, an off-by-one,
a second copy of a table changed, a missing scrub). For each, in a scratch
copy of the tree (never the working tree: the files git knows, plus the
untracked ones it does not ignore, copied once into a temporary folder with
its own build folder), it applies the mutation, builds (make reuses the
objects of the last build: only what the mutated file touches is rebuilt),
runs the tests and puts the file back. The tests: first the ones the entry
names (a Check suite "unit:SUITE" or an e2e script "e2e:NAME"), then, only
while the mutation survives, every Check suite and the fast e2e scripts
(FAST_E2E below). A mutation is caught when a test fails, or the build
fails (-Werror is not used: a warning is no catch). Prints one line per
mutation, then "N caught, N survived" and exits 0 when every one was
caught, 1 when one survived, 2 when the list is wrong (an original that is
not in its file exactly once) or the unmutated tree does not build or pass
the named tests.

Usage: tests/mutate/mutate-grader.py [--list FILE] [--keep] [NAME...]
  NAME...  only the mutations whose ids hold one of these words
  --keep   leave the scratch tree (its path is printed)
Bounds: the build and every test run under a timeout (BUILD_S, TEST_S).
"""
import argparse
import fcntl
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Fast e2e scripts (a few seconds each) run on a survivor after every unit
# suite passed; the entry's own e2e script is run first in any case.
# Each took 0.5-14 s on the 2-core machine (test_gradescope's 65 s and
# test_batch's minutes are left to make test).
FAST_E2E = ["grade_cli", "junit", "failure_detail", "suite_report", "check_env",
            "quiet_tests", "grade_stream", "hidden_last", "grade_hide",
            "reports_private", "shard", "grade_build", "suites"]
BUILD_S = 600
TEST_S = 300


def unescape(text):
    """\\n, \\t and \\\\ of an entry's from/to (a C source's own backslash
    is written \\\\)."""
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text) and text[i + 1] in "nt\\":
            out.append({"n": "\n", "t": "\t", "\\": "\\"}[text[i + 1]])
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def parse(path):
    """The entries of the list: dicts with id, file, from, to, tests, why."""
    entries, cur = [], None
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip():
                if cur:
                    entries.append(cur)
                cur = None
                continue
            if line.startswith("#"):
                continue
            key, sep, val = line.partition(":")
            if not sep or key not in ("id", "file", "from", "to", "tests", "why"):
                sys.exit(f"{path}:{n}: expected KEY: VALUE with KEY one of "
                         "id, file, from, to, tests, why")
            val = val[1:] if val.startswith(" ") else val
            cur = cur or {"line": n}
            if key in cur:
                sys.exit(f"{path}:{n}: '{key}' twice in one entry")
            cur[key] = val
    if cur:
        entries.append(cur)
    for e in entries:
        for k in ("id", "file", "from", "to", "tests", "why"):
            if k not in e:
                sys.exit(f"{path}:{e['line']}: entry without '{k}'")
        e["from"], e["to"] = unescape(e["from"]), unescape(e["to"])
    ids = [e["id"] for e in entries]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        sys.exit(f"{path}: ids used twice: {', '.join(sorted(dup))}")
    return entries


def copy_tree(dest):
    files = subprocess.run(["git", "-C", ROOT, "ls-files", "-co", "--exclude-standard", "-z"],
                           check=True, capture_output=True).stdout.split(b"\0")
    for rel in files:
        if not rel:
            continue
        rel = rel.decode()
        src = os.path.join(ROOT, rel)
        if not os.path.lexists(src) or os.path.isdir(src) and not os.path.islink(src):
            continue               # deleted, or a submodule
        os.makedirs(os.path.dirname(os.path.join(dest, rel)), exist_ok=True)
        shutil.copy2(src, os.path.join(dest, rel), follow_symlinks=False)


def run(cmd, cwd, timeout, env=None):
    """(ok, output tail) of cmd, bounded by timeout. At the timeout its
    whole session gets SIGTERM (the e2e scripts then remove what they
    made: tests/e2e/lib.sh), and SIGKILL 5 s later."""
    p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
        return p.returncode == 0, out.decode(errors="replace")[-3000:]
    except subprocess.TimeoutExpired:
        out = b""
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(p.pid, sig)
            except ProcessLookupError:
                pass
            try:
                out, _ = p.communicate(timeout=5)
                break
            except subprocess.TimeoutExpired:
                continue        # an escapee may hold the pipe: give up
        return False, out.decode(errors="replace")[-3000:] + \
            f"\n(timed out after {timeout} s)"


class Tree:
    def __init__(self, path):
        self.path = path
        self.env = dict(os.environ, WG_BUILD="build")
        for v in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL"):
            self.env.pop(v, None)
        self.suites = sorted(f[len("check_"):-2] for f in os.listdir(os.path.join(path, "tests", "unit"))
                             if f.startswith("check_") and f.endswith(".c") and f != "check_main.c")

    def build(self):
        return run(["make", "-s", "-j2", "B=build", "all", "helpers",
                    "build/tests/check_warpgrade", "build/tests/killmatrix"],
                   self.path, BUILD_S, self.env)

    def test(self, what):
        """Runs one test, "unit:SUITE" or "e2e:NAME": (passed, output)."""
        kind, _, name = what.partition(":")
        if kind == "unit":
            env = dict(self.env, CK_RUN_SUITE=name,
                       WG_CHECK_LOG=os.path.join(self.path, "build", "check.log"))
            return run(["build/tests/check_warpgrade"], self.path, TEST_S, env)
        if kind == "e2e":
            ok, out = run(["sh", "tests/run-e2e.sh", "test_" + name], self.path, TEST_S, self.env)
            # run-e2e.sh selects by substring: be sure the script ran.
            return ok and ("PASS test_" + name in out or "SKIP test_" + name in out), out
        sys.exit(f"unknown test '{what}' (unit:SUITE or e2e:NAME)")


def caught_by(tree, e, exhaustive):
    """The first test (or the build) that fails with e applied; None."""
    ok, out = tree.build()
    if not ok:
        return "the build", out
    named = e["tests"].split()
    rest = [] if not exhaustive else \
        ["unit:" + s for s in tree.suites] + ["e2e:" + n for n in FAST_E2E]
    for t in named + [t for t in rest if t not in named]:
        ok, out = tree.test(t)
        if not ok:
            return t, out
    return None, ""


def drop_stale_locks(since):
    """A mutant may leave uid lock files behind (a grader killed before it
    let go of its uid: scratch.h). Those of this run are removed as grade
    lets go of one: only while holding its lock (a live grader's is held,
    and stays), and only files made since the run began."""
    d = "/run/warpgrade" if os.geteuid() == 0 else None
    if not d or not os.path.isdir(d):
        return
    for name in os.listdir(d):
        path = os.path.join(d, name)
        if not name.endswith(".lock"):
            continue
        try:
            if os.lstat(path).st_mtime < since:
                continue
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            os.unlink(path)
        except OSError:
            pass
        finally:
            os.close(fd)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--list", default=os.path.join(ROOT, "tests", "mutate", "mutations.txt"))
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--no-exhaustive", action="store_true",
                    help="a survivor of its named tests is not tried on all the others")
    ap.add_argument("names", nargs="*")
    a = ap.parse_args()
    entries = parse(a.list)
    if a.names:
        entries = [e for e in entries if any(n in e["id"] for n in a.names)]
    for e in entries:
        with open(os.path.join(ROOT, e["file"]), encoding="utf-8") as f:
            n = f.read().count(e["from"])
        if n != 1:
            print(f"mutate-grader: {a.list}:{e['line']}: {e['id']}: the original "
                  f"is in {e['file']} {n} times, not once (the code changed: "
                  "update the entry)", file=sys.stderr)
            return 2
    t0 = time.monotonic()
    began = time.time()
    scratch = tempfile.mkdtemp(prefix="wg-mutate-")
    try:
        copy_tree(scratch)
        tree = Tree(scratch)
        ok, out = tree.build()
        if not ok:
            print(out + "\nmutate-grader: the unmutated tree does not build", file=sys.stderr)
            return 2
        print(f"mutate-grader: {len(entries)} mutations; scratch {scratch}; "
              f"built in {time.monotonic() - t0:.0f} s", flush=True)
        # Each entry's named tests must pass unmutated, or nothing is shown.
        for t in sorted({t for e in entries for t in e["tests"].split()}):
            ok, out = tree.test(t)
            if not ok:
                print(out + f"\nmutate-grader: {t} fails on the unmutated tree",
                      file=sys.stderr)
                return 2
        caught = survived = 0
        for e in entries:
            path = os.path.join(scratch, e["file"])
            with open(path, encoding="utf-8") as f:
                orig = f.read()
            t1 = time.monotonic()
            with open(path, "w", encoding="utf-8") as f:
                f.write(orig.replace(e["from"], e["to"], 1))
            try:
                by, out = caught_by(tree, e, not a.no_exhaustive)
            finally:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(orig)
            dt = time.monotonic() - t1
            if by:
                caught += 1
                print(f"caught    {e['id']:<28} by {by} ({dt:.0f} s)", flush=True)
            else:
                survived += 1
                print(f"SURVIVED  {e['id']:<28} {e['file']}: {e['why']} ({dt:.0f} s)",
                      flush=True)
        print(f"{caught} caught, {survived} survived "
              f"({time.monotonic() - t0:.0f} s)")
        return 0 if survived == 0 else 1
    finally:
        drop_stale_locks(began)
        if a.keep:
            print(f"mutate-grader: scratch tree left at {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
