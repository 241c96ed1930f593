#!/usr/bin/env python3
"""The grader's layers, checked (docs/hacking.md, "Layers").

Reads every #include "grader/..." of grader/ and fails when
  - a folder includes from a layer above it: lib < run < judge < report
    < cli, with similarity beside judge on lib alone (each may include
    only what MAY lists); or
  - modules include each other in a circle. A module is X.c with X.h and
    its private X_int.h; a file that includes X_int.h belongs to X (the
    files of the sandbox, the runner, the batch, the page).

Usage: python3 tests/layers.py [ROOT]   (ROOT holds grader/; default .)
Prints every violation; exit 0 none, 1 some.
"""
import os
import re
import sys

MAY = {
    "lib": {"lib"},
    "run": {"lib", "run"},
    "judge": {"lib", "run", "judge"},
    "similarity": {"lib", "similarity"},
    "report": {"lib", "run", "judge", "similarity", "report"},
    "cli": {"lib", "run", "judge", "similarity", "report", "cli"},
}
INCLUDE = re.compile(r'^#include "(grader/[^"]+\.h)"', re.M)


def module(path, includes):
    """X for X.c, X.h, X_int.h and any file that includes X_int.h."""
    stem = os.path.splitext(path)[0]
    if stem.endswith("_int"):
        return stem[:-4]
    for inc in includes:
        if inc.endswith("_int.h"):
            return inc[:-len("_int.h")]
    return stem


def graph(root):
    edges = {}
    for d, _, names in os.walk(os.path.join(root, "grader")):
        for n in names:
            if not n.endswith((".c", ".h")):
                continue
            path = os.path.relpath(os.path.join(d, n), root)
            with open(os.path.join(root, path), encoding="utf-8") as f:
                incs = INCLUDE.findall(f.read())
            a = module(path, incs)
            deps = edges.setdefault(a, {})
            for inc in incs:
                b = module(inc, [])
                if b != a:
                    deps.setdefault(b, path)
    return edges


def circles(edges):
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    edges = graph(root)
    bad = 0
    for a in sorted(edges):
        la = a.split("/")[1]
        for b, where in sorted(edges[a].items()):
            lb = b.split("/")[1]
            if la not in MAY or lb not in MAY:
                print("layers: %s: %s is in no layer" % (where, a if la not in MAY else b))
                bad = 1
            elif lb not in MAY[la]:
                print("layers: %s includes %s.h: %s is above %s" % (where, b, lb, la))
                bad = 1
    for comp in circles(edges):
        print("layers: a circle of modules: %s" % " <-> ".join(comp))
        bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main())
