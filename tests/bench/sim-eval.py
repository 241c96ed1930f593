#!/usr/bin/env python3
"""make bench-similarity's scorer: one tool's pair scores against the test
set's labels (tests/similarity/disguise.py writes labels.tsv).

    sim-eval.py LABELS PAIRS      PAIRS: "A<TAB>B<TAB>SCORE" lines, any order;
                                  a pair not listed scored 0

Prints one line: ROC AUC of the copy pairs (a solution and its disguised
copies, or two copies of one solution) against the independent pairs
(different solutions, the shared starter code included), the lowest copy
score and the highest independent score, and how many partial copies
(a third of a solution pasted into another) score above every independent
pair, i.e. are found at a threshold that accuses no independent pair.
"""
import sys


def main(labels_path, pairs_path):
    label = {}
    for line in open(labels_path):
        name, origin, kind, extra = (line.rstrip("\n").split("\t") + [""])[:4]
        label[name] = (origin, kind, extra)
    score = {}
    for line in open(pairs_path):
        parts = line.split()
        if len(parts) < 3 or parts[0] not in label or parts[1] not in label:
            continue
        key = tuple(sorted(parts[:2]))
        score[key] = max(score.get(key, 0.0), float(parts[2]))
    names = sorted(label)
    pos, neg, partial = [], [], []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            s = score.get((a, b), 0.0)
            la, lb = label[a], label[b]
            if la[1] == "partial" or lb[1] == "partial":
                p, o = (la, lb) if la[1] == "partial" else (lb, la)
                if la[1] == lb[1]:
                    continue
                if o[1] == "original" and o[0] == p[2]:
                    partial.append(s)
                continue
            (pos if la[0] == lb[0] else neg).append(s)
    # AUC: the chance that a copy pair outscores an independent pair.
    neg_sorted = sorted(neg)
    import bisect
    wins = sum(bisect.bisect_left(neg_sorted, s) + 0.5 * (bisect.bisect_right(neg_sorted, s)
               - bisect.bisect_left(neg_sorted, s)) for s in pos)
    auc = wins / (len(pos) * len(neg)) if pos and neg else float("nan")
    hi_neg = max(neg) if neg else 0.0
    found = sum(1 for s in partial if s > hi_neg)
    print("AUC %.4f  lowest copy %.3f  highest independent %.3f  %s  "
          "partial copies found %d/%d  (%d copy, %d independent pairs)"
          % (auc, min(pos), hi_neg, "SEPARATED" if min(pos) > hi_neg else "overlap",
             found, len(partial), len(pos), len(neg)))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
