"""The hidden cases of issue 18, imported by tests/gen-cases.py: scale,
speed, every byte of a long line, systematic rounding ties, orders.

Two kinds of case come from here:
  - small ones (ties, orders), committed like every other case;
  - BIG ones (names starting "big-"): inputs of several MiB, generated at
    build time (`make` runs `gen-cases.py --big`, then the reference for
    the .out files) and checked against hidden-tests/generated.sha256, so
    the tree holds this generator and 2 KB of hashes, not 80 MB of blanks.

Every case is built from the contract's structure, not from any program:
each run kind, each power-of-two boundary, each rounding method, each
order is enumerated, and the generator asserts the property that makes a
case useful (every byte of a boundary window changes the answer; every tie
kept is one that some usual computation gets wrong).
"""
import math
import random
import struct
from fractions import Fraction

MIB = 1 << 20
BIG_PREFIX = "big-"

# The suite's limits and where they come from (suite.json's description
# and docs/suites.md, "Time and output limits"): one limit per suite, as Kattis has
# one per problem. CPU: 10 x the reference's slowest case (measured by
# `make suite-limits`, which fails when a case needs more than a tenth of
# the limit), at least 1 s; the slow cases are sized so that a quadratic
# step needs 10 x the limit. Output: Kattis's default 8 MiB, above 1.5 x
# the largest expected output (5.1 MiB).
LIMITS = {"cpu_seconds": 1, "memory_mib": 256, "output_kib": 8192}
CPU_FACTOR = 10


def lines(*rows):
    return "".join(r + "\n" for r in rows)


# ------------------------------------------------------------ helpers

def lcg_text(n, alphabet, seed):
    """n bytes from alphabet, deterministic and aperiodic enough that a
    dropped, doubled or swapped byte changes the text."""
    out = bytearray(n)
    x = seed
    k = len(alphabet)
    for i in range(n):
        x = (x * 6364136223846793005 + 1442695040888963407) & ((1 << 64) - 1)
        out[i] = alphabet[(x >> 33) % k]
    return out.decode("latin-1")


def number(tok):
    """A decimal token's value (the leading zeros may be megabytes), or
    None past the contract's 2^48."""
    digits = tok.lstrip("0") or "0"
    v = int(digits) if len(digits) <= 15 else 1 << 48
    return v if v < 1 << 48 else None


def sectors_lines(addrs, size):
    """The contract's union: distinct sectors and lines of [a, a+size)."""
    sec, lin = set(), set()
    for a in addrs:
        sec.update(range(a >> 5, ((a + size - 1) >> 5) + 1))
        lin.update(range(a >> 7, ((a + size - 1) >> 7) + 1))
    return len(sec), len(lin)


# --------------------------------------------- every byte (item 3)
# Boundaries 2^8 .. 2^22: where a buffer that starts at 256 bytes (or any
# smaller power of two) and doubles is resized. A window of significant
# bytes covers B-7 .. B+8 at each one, so dropping, doubling or replacing
# the byte at B-2, B-1, B or B+1 changes the answer.
BOUNDARIES = [1 << k for k in range(8, 23)]


def gather_across_boundaries():
    """One gather line of 32 addresses past 4 MiB: for each boundary B a
    pair of equal 7-digit addresses, the first ending at B-1 and the
    second starting at B+1 (the separator at B); each value in its own
    sectors, so a digit lost or doubled adds a sector, and a separator
    lost leaves 31 addresses. Leading zeros fill the space between."""
    head = "gather 4 "
    digits = "123456789"
    rnd = random.Random(1801)
    vals = []
    while len(vals) < len(BOUNDARIES):
        v = int("".join(rnd.sample(digits, 7)))
        if all(abs(v - w) > 256 for w in vals):
            vals.append(v)
    parts = [head]
    pos = len(head)
    for b, v in zip(BOUNDARIES, vals):
        s = str(v)
        pad = b - len(s) - pos          # the first token ends at b-1
        assert pad >= 1
        parts.append("0" * pad + s + " " + s + " ")
        pos = b + 1 + len(s) + 1
    parts.append("00000000000000000 4")   # addresses 31 and 32
    line = "".join(parts)
    toks = line.split()
    addrs = [number(t) for t in toks[2:]]
    assert len(addrs) == 32 and len(line) > (4 << 20)
    want = sectors_lines(addrs, 4)
    # Dropping one byte of a window changes only the tokens from the
    # space before the window to the space after the next token.
    starts = [i + 1 for i, c in enumerate(line) if c == " "]
    for b in BOUNDARIES:
        i = max(k for k, st in enumerate(starts) if st <= b - 8)
        lo, hi = starts[i], starts[i + 3] - 1      # three tokens
        before = [number(t) for t in line[:lo].split()[2:]] \
            if lo < 4096 else addrs[:i - 1]
        after = addrs[i + 2:]
        for p in range(b - 7, b + 9):
            mid = (line[lo:p] + line[p + 1:hi]).split()
            got = before + [number(t) for t in mid] + after
            res = sectors_lines(got, 4) \
                if len(got) == 32 and None not in got else None
            assert res != want, "byte %d of the gather line is filler" % p
    return line


def strided_at_boundaries():
    """For each boundary B a strided line whose three arguments "96 3 16"
    sit on B-3 .. B+3, after a run of blanks: the label echoes each value,
    so every byte of the window shows."""
    rows = []
    for i, b in enumerate(BOUNDARIES):
        blank = " \t"[i % 2]
        rows.append("strided" + blank * (b - 3 - 7) + "96 3 16")
        assert rows[-1][b - 3:b + 4] == "96 3 16"
    return rows


def echo_across_boundaries():
    """An unknown command is echoed as written: a 4 MiB name whose every
    byte is in the output, once from the line's first byte and once after
    three blanks (the token's boundaries then fall 3 bytes later)."""
    alphabet = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_."
    name = "Z" + lcg_text((4 << 20) + 40, alphabet, 18)
    short = "Q" + lcg_text((1 << 20) + 40, alphabet, 81)
    return [name + " 0 1", "   " + short + "\t7"]


# ------------------------------------------- scale and speed (items 1, 2)
# Each run is 1.5 MiB, where quadratic work per byte (trimming a blank at
# a time, strlen in a loop, re-scanning the tokens for each one: L^2 / 2
# byte steps, 13 s at 1 MB on the machine of issue 18) costs 30 s or more,
# 30 x the limit, against the reference's milliseconds; one line is past
# 8 MiB and each input past 16 MiB (22 MiB), with what follows the 8 MiB
# and the 16 MiB marks significant.
RUN = (3 << 19) + 17
HUGE = (17 << 19) + 5


def mixed_blanks(n, seed):
    return lcg_text(n, b" \t\x0b\x0c\r", seed)


def runs(v):
    """Runs of 1.5 MiB in every place of a line (leading, between tokens,
    trailing) and of each common class (spaces, tabs, all five separators
    mixed), then leading zeros, a comment, a million tokens, a long name,
    and a line past 8 MiB. Both variants hold every kind, so a program
    slow on one kind fails both."""
    text = b"abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ,;:!?()[]"
    name_abc = b"abcdefghijklmnopqrstuvwxyz"
    if v == 0:
        return [
            " " * RUN + "strided 4 1",                    # leading
            "\t" * RUN + "strided 8 1 2",
            "strided 8 1" + "\t" * RUN,                   # trailing
            "strided 12 1" + " " * RUN,
            "strided" + mixed_blanks(RUN, 1) + "12 1 2",  # between tokens
            "strided 0 " + "0" * RUN + "36 4",            # leading zeros
            "strided 0 1 #" + lcg_text(RUN, text, 2),     # a comment
            "gather 4" + " 7" * (RUN // 2),               # many tokens
            "Y" + lcg_text(RUN, name_abc, 3) + " 1",      # a long name
            "active 3",
            "shared 5" + " " * HUGE + "3",                # past 8 MiB
            "strided 0 1",
            "active 32",
        ]
    return [
        "active 5",
        "\t" * RUN + "shared 1 2",
        " " * RUN + "transpose 8 1",
        "shared 7 4" + " " * RUN,
        "strided 0 16" + "\t" * RUN,
        "gather 16" + mixed_blanks(RUN, 4) + " 1 2 3 4 5",
        "shared 0 " + "0" * RUN + "0x21",
        "shared 1 1#" + lcg_text(RUN, text, 5),
        "gather 8" + " 0" * (RUN // 2) + "#",
        "X" + lcg_text(RUN, name_abc, 6),
        "strided 64" + "\t" * HUGE + " 2 8",              # past 8 MiB
        "active 32",
        "transpose 32 1",
    ]


def many_commands(n, seed):
    """n commands of every kind, with errors and state changes: an
    expected output past 1 MiB."""
    rnd = random.Random(seed)
    rows = []
    for i in range(n):
        k = rnd.randrange(10)
        # Never two actives in a row: a failed one among them could not be
        # told from the output (docs/suites.md, line_map), and nothing is gained.
        if k == 0 and rows and rows[-1].startswith("active"):
            k = 1
        if k == 0:
            rows.append("active %d" % rnd.choice([1, 2, 7, 16, 31, 32, 33]))
        elif k == 1:
            rows.append("strided %d %d %d" % (rnd.randrange(1 << 20),
                                              rnd.randrange(64),
                                              rnd.randrange(1, 17)))
        elif k == 2:
            s = rnd.randrange(1, 200)
            f = rnd.randrange(1, s + 1)
            rows.append("aos %d %d %d" % (s, rnd.randrange(s - f + 1), f))
        elif k == 3:
            rows.append("gather %d %s" % (rnd.randrange(1, 17), " ".join(
                str(rnd.randrange(1 << 16)) for _ in range(32))))
        elif k == 4:
            rows.append("shared %d %d" % (rnd.randrange(1 << 12),
                                          rnd.randrange(70)))
        elif k == 5:
            rows.append("transpose %d %d" % (rnd.randrange(1, 65),
                                             rnd.randrange(9)))
        elif k == 6:
            rows.append(rnd.choice(["strided 0 1 17", "aos 4 2 4", "foo %d" % i,
                                    "gather 4 1 2", "shared 1", "# %d" % i]))
        else:
            rows.append("strided %d %d" % (rnd.randrange(256),
                                           rnd.randrange(40)))
    return rows


def big_cases():
    """(name, category, points, description, text) of the generated cases,
    in suite order."""
    return [
        ("big-runs-a", "parsing", 2,
         "1.5 MiB runs of spaces, tabs and mixed blanks in every place, "
         "zeros, a comment, tokens, a name; an 8.5 MiB line; 22 MiB",
         lines(*runs(0))),
        ("big-runs-b", "parsing", 2,
         "the same kinds of run elsewhere in the line; an 8.5 MiB line of "
         "tabs",
         lines(*runs(1))),
        ("big-bytes-gather", "gather", 2,
         "a 4 MiB gather whose addresses and separators straddle every "
         "power of two from 256",
         lines(gather_across_boundaries(), "shared 0 1")),
        ("big-bytes-strided", "parsing", 2,
         "arguments on every power of two from 256 to 4 MiB",
         lines(*strided_at_boundaries())),
        ("big-bytes-echo", "errors", 2,
         "an unknown 4 MiB name, echoed: 5 MiB of output",
         lines(*echo_across_boundaries())),
        ("big-output", "partial-warp", 2,
         "40000 commands of every kind: 3 MiB of output",
         lines(*many_commands(40000, 1818))),
    ]


# --------------------------------------------------- ties (item 4)
# A tie: 1000 * R / M = k + 1/2 exactly. The contract rounds it up. The
# usual ways of computing it: integer truncation, printf("%.1f") of a
# double, and doubles (or floats) in either order (100.0 * R / M,
# R / (double) M * 100, ...) rounded by floor(x + 0.5), (long)(x + 0.5),
# lround or rint. Every tie is enumerated for each command's reachable
# (R, M); the kept ones are, for each method, the first two it gets wrong.

def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def tenths(R, M):
    q, r = divmod(1000 * R, M)
    return q + (1 if 2 * r >= M else 0)


def is_tie(R, M):
    return (2000 * R) % M == 0 and ((2000 * R) // M) % 2 == 1


def lround(t):
    fl = math.floor(t)
    return fl + (1 if Fraction(t) - fl >= Fraction(1, 2) else 0)


def printf_tenths(p):
    return int(("%.1f" % p).replace(".", ""))


def method_tenths(R, M):
    """What each usual computation prints, in tenths of a percent."""
    values = (
        ("1000.0*R/M", 1000.0 * R / M),
        ("R/(double)M*1000", R / float(M) * 1000),
        ("100.0*R/M*10", 100.0 * R / M * 10),
        ("R/(double)M*100*10", R / float(M) * 100 * 10),
        ("1000.0f*R/M", f32(f32(1000.0 * R) / M)),
        ("(float)R/M*1000", f32(f32(R / float(M)) * 1000)),
    )
    out = {}
    for name, t in values:
        out["floor(%s+0.5)" % name] = math.floor(t + 0.5)
        out["(long)(%s+0.5)" % name] = int(t + 0.5)
        out["lround(%s)" % name] = lround(t)
        out["rint(%s)" % name] = round(t)
    # Single precision all the way: 100.0f * (float)R / (float)M, then
    # floorf(p * 10.0f + 0.5f), every step rounded to float.
    rf, mf = f32(float(R)), f32(float(M))
    p = f32(f32(100.0 * rf) / mf)
    out["floorf(100.0f*R/M*10.0f+0.5f)"] = math.floor(f32(f32(p * 10) + 0.5))
    out['printf("%.1f",100.0f*R/M)'] = printf_tenths(p)
    out['printf("%.1f",100.0*R/M)'] = printf_tenths(100.0 * R / M)
    out['printf("%.1f",R/(double)M*100)'] = printf_tenths(R / float(M) * 100)
    out["1000*R/M"] = 1000 * R // M
    return out


def is_near_tie(R, M):
    """1000 R / M within 1/100 of k + 1/2, but not on it: where a float, or
    a double after a large product, can land on the wrong side."""
    x = (2000 * R) % (2 * M)            # 2 M (frac(1000 R / M))
    return x != M and abs(x - M) * 100 <= 2 * M


def choose_ties(candidates, realize, per_method=2, keep=is_tie):
    """candidates: (R, M, key) in a fixed order. Keeps, for every method,
    the first per_method ties (or near ties) it gets wrong that
    realize(key) can build."""
    kept, count = [], {}
    for R, M, key in candidates:
        if not keep(R, M):
            continue
        right = tenths(R, M)
        wrong = [m for m, t in method_tenths(R, M).items() if t != right]
        if not any(count.get(m, 0) < per_method for m in wrong):
            continue
        rows = realize(key)
        if rows is None:
            continue
        for m in wrong:
            count[m] = count.get(m, 0) + 1
        kept.append(rows)
    return kept, count


def strided_sectors(n, base, stride, size):
    return sectors_lines([base + t * stride * size for t in range(n)],
                         size)[0]


def realize_strided(key):
    n, size, s = key
    for stride in range(0, 100):
        for base in range(32):
            if strided_sectors(n, base, stride, size) == s:
                return ["active %d" % n,
                        "strided %d %d %d" % (base, stride, size)]
    return None


def realize_gather(key):
    """s sectors from n threads of size bytes: s threads each in a sector
    of its own (the first s - n of them straddling two) and the rest
    sharing the first."""
    n, size, s = key
    two = max(0, s - n)
    if two > n or (two and size == 1) or s < 1:
        return None
    addrs, used = [], 0
    for t in range(n):
        if t < two:
            addrs.append(64 * t + 31)           # two sectors
            used += 2
        elif used < s:
            addrs.append(64 * t)                # one sector
            used += 1
        else:
            addrs.append(0 if not two else 64 * 0 + 31)
    assert sectors_lines(addrs, size)[0] == s
    return ["active %d" % n,
            "gather %d %s" % (size, " ".join(map(str, addrs)))]


def realize_aos(key):
    """The aos line: n threads, field f, k sectors each (no sharing)."""
    n, f, k = key
    for o in range(32):
        if (o + f - 1) // 32 + 1 == k:
            struct_size = 32 * ((o + f + 31) // 32) + 32
            return ["active %d" % n, "aos %d %d %d" % (struct_size, o, f)]
    return None


def realize_soa(key):
    n, f = key
    return ["active %d" % n, "aos %d 0 %d" % (f, f)]


def tie_rows(kept):
    return [r for rows in kept for r in rows] + ["active 32"]


def ties_strided(keep=is_tie):
    cands = [(n * size, 32 * s, (n, size, s)) for s in range(1, 65)
             for n in range(1, 33) for size in range(1, 17) if s <= 2 * n]
    return choose_ties(cands, realize_strided, keep=keep)


def ties_gather(keep=is_tie):
    cands = [(n * size, 32 * s, (n, size, s)) for s in range(1, 65)
             for n in range(1, 33) for size in range(1, 17) if s <= 2 * n]
    return choose_ties(cands, realize_gather, keep=keep)


def realize_aos_small(key):
    """The aos line: n threads of a field of f <= 16 bytes in structs of
    up to 64 bytes (sectors shared between threads): s sectors."""
    n, f, s = key
    for size in range(f, 65):
        for o in range(size - f + 1):
            got = sectors_lines([t * size + o for t in range(n)], f)[0]
            if got == s:
                return ["active %d" % n, "aos %d %d %d" % (size, o, f)]
    return None


def ties_aos(keep=is_tie, per_method=2):
    """The aos line's (N f, 32 s) for small structs, then (N f, 32 N k)
    for fields up to 4096 bytes in structs that share no sector, and the
    soa line's (N f, 32 ceil(N f / 32))."""
    cands = [(n * f, 32 * s, ("small", n, f, s)) for s in range(1, 65)
             for n in range(1, 33) for f in range(1, 17) if s <= 2 * n]
    for f in range(1, 4097):
        k0 = (f + 31) // 32
        for n in range(1, 33):
            for k in (k0, k0 + 1):
                cands.append((n * f, 32 * n * k, ("aos", n, f, k)))
            cands.append((n * f, 32 * ((n * f + 31) // 32), ("soa", n, f)))
    # One thread and fields up to 1 MiB: efficiencies just under 100 %
    # over large numbers, where single precision runs out of digits.
    for f in range(4097, (1 << 20) + 1):
        k0 = (f + 31) // 32
        for k in (k0, k0 + 1):
            cands.append((f, 32 * k, ("aos", 1, f, k)))

    def realize(key):
        how = {"small": realize_aos_small, "aos": realize_aos,
               "soa": realize_soa}
        return how[key[0]](key[1:])
    return choose_ties(cands, realize, per_method, keep)


# --------------------------------------------------- orders (item 5)
# gather is the one command that takes a list; its ranges all have SIZE
# bytes, but their sector (and line) intervals differ: [a/32, (a+SIZE-1)/32].
# Each set below holds intervals with equal starts and different ends and
# with equal ends and different starts (and duplicates, containment,
# adjacency), and comes in several orders: by address both ways, by
# interval end then start, by start then end descending, interleaved, and
# shuffled with fixed seeds. The answer is the same for every order.

def interval(a, size, shift):
    return (a >> shift, (a + size - 1) >> shift)


def order_sets(shift):
    """(size, addresses) sets with both kinds of tie at granule g = 1 <<
    shift. In a cluster, A = [0, 0], B = [0, 1] (A's start, a later end)
    and C = [1, 1] (B's end, a later start), as granule intervals; the
    clusters hold each pair alone (AB, BC, AC), where no third interval
    hides a merge that went wrong, and all three."""
    g = 1 << shift
    kinds = ["AB", "BC", "AC", "ABC"]
    sets = []
    for size in (16, 9, 2):
        where = {"A": 0, "B": g - size // 2, "C": g}
        addrs = []
        for c in range(8):                   # 8 clusters of 4 threads
            at = c * 4 * g + (c % 3) * g
            kind = kinds[c % 4]
            members = (kind * 2)[:4]
            addrs += [at + where[m] for m in members]
        sets.append((size, addrs))
    for kind in kinds:                       # part of a warp: one cluster
        sets.append((16, [{"A": 0, "B": g - 8, "C": g}[m] for m in kind]))
    for size, addrs in sets:
        iv = [interval(a, size, shift) for a in addrs]
        assert any(x[0] == y[0] and x[1] != y[1] for x in iv for y in iv) or \
            any(x[1] == y[1] and x[0] != y[0] for x in iv for y in iv) or \
            len(set(iv)) == 2
    return sets


def orders(addrs, size, shift):
    iv = {a: interval(a, size, shift) for a in addrs}
    out = [sorted(addrs), sorted(addrs, reverse=True),
           sorted(addrs, key=lambda a: (iv[a][1], -iv[a][0])),
           sorted(addrs, key=lambda a: (iv[a][0], -iv[a][1])),
           sorted(addrs, key=lambda a: (-iv[a][1], iv[a][0])),
           sorted(addrs)[1::2] + sorted(addrs)[0::2]]
    for seed in (1, 2):
        x = list(addrs)
        random.Random(seed).shuffle(x)
        out.append(x)
    return out


def order_rows(shift):
    rows = []
    for size, addrs in order_sets(shift):
        rows.append("active %d" % len(addrs))
        for o in orders(addrs, size, shift):
            rows.append("gather %d %s" % (size, " ".join(map(str, o))))
    return rows + ["active 32"]


def hard_cases():
    """The committed cases of issue 18 (ties, orders, finite domains)."""
    st, _ = ties_strided()
    ga, _ = ties_gather()
    ao, _ = ties_aos()
    near = ties_strided(is_near_tie)[0] + ties_gather(is_near_tie)[0]
    # Four per method, alternately in two files.
    near_aos = ties_aos(is_near_tie, 4)[0]
    return [
        ("round-ties-strided", "rounding", 2,
         "every strided tie that some usual computation rounds wrong",
         lines(*tie_rows(st))),
        ("round-ties-gather-all", "rounding", 2,
         "every gather tie that some usual computation rounds wrong",
         lines(*tie_rows(ga))),
        ("round-ties-aos-all", "rounding", 2,
         "every aos and soa tie that some usual computation rounds wrong",
         lines(*tie_rows(ao))),
        ("round-near-ties", "rounding", 2,
         "strided, gather and aos values within 0.001 % of a tie that some "
         "usual "
         "computation puts on the wrong side",
         lines(*tie_rows(near + near_aos[0::2]))),
        ("round-near-ties-aos", "rounding", 2,
         "aos and soa values within 0.001 % of a tie that some usual "
         "computation puts on the wrong side",
         lines(*tie_rows(near_aos[1::2]))),
        ("ga-orders-sectors", "gather", 2,
         "one set of sector intervals in eight orders; equal starts, equal "
         "ends", lines(*order_rows(5))),
        ("ga-orders-lines", "gather", 2,
         "one set of line intervals in eight orders; equal starts, equal "
         "ends", lines(*order_rows(7))),
    ] + domain_cases()


# ------------------------------------------- finite domains, enumerated
# The single-case kills (an aos with the wrong argument count, a
# gather of 35 tokens, the transpose's y rule, 00x10) each come from a
# small finite domain: every element of it is in the suite, twice, in two
# files with other values.

# command -> (fewest, most) arguments; None: no upper bound.
ARITY = {"active": (1, 1), "strided": (2, 3), "aos": (3, 3),
         "shared": (2, 2), "transpose": (2, 2), "gather": (1, None)}


def argcount_rows(v):
    """Every command with every wrong argument count from 0 to its most
    plus 3, with values that would be valid in each position."""
    vals = {0: ["8", "4", "2", "1", "1", "1"], 1: ["16", "2", "1", "0", "3", "5"]}[v]
    rows = []
    for cmd, (lo, hi) in ARITY.items():
        top = (hi if hi is not None else 33) + 3
        for n in range(0, top + 1):
            if lo <= n and (hi is None or n <= hi):
                continue
            if cmd == "gather" and n > 0:
                continue            # gather's counts: gather_count_rows
            rows.append(" ".join([cmd] + vals[:n] +
                                 ["1"] * max(0, n - len(vals))))
            rows.append("strided 0 1")          # shows N, and state
    return rows + ["active 32"]


def gather_count_rows(v):
    """With N active threads, gather with every address count from 0 to
    N + 4, and far more."""
    rows = []
    for n in ((32, 1, 3) if v == 0 else (31, 2, 16)):
        rows.append("active %d" % n)
        size = 4 if v == 0 else 8
        for k in list(range(0, n + 5)) + [64, 100]:
            addrs = " ".join(str(size * ((t * 7 + v) % 40))
                             for t in range(k))
            rows.append(("gather %d %s" % (size, addrs)).rstrip())
    return rows + ["active 32"]


def transpose_rows(v):
    """Every TILE 1-64 with every PAD 0-8 (v = 0), or with part of a warp
    (v = 1: 5, 17 and 31 threads)."""
    rows = []
    for n in ((32,) if v == 0 else (5, 17, 31)):
        rows.append("active %d" % n)
        for tile in range(1, 65):
            for pad in range(0, 9):
                rows.append("transpose %d %d" % (tile, pad))
    return rows + ["active 32"]


def number_shape_rows(v):
    """Token shapes around the grammar: a sign, zeros, a 0x or 0X prefix,
    doubled or misplaced, each in every numeric position of strided."""
    heads = ["", "-", "0", "00", "-0", "+", "-00", "0-"]
    bodies = ["x10", "X10", "0x10", "10", "x", "xx10", "x-10", "1x0", "10x",
              "0", ""]
    tokens = [h + b for h in heads for b in bodies if h + b]
    rows = []
    for i, tok in enumerate(tokens):
        pos = (i + v) % 3
        args = ["64", "2", "8"]
        args[pos] = tok
        rows.append("strided " + " ".join(args))
        if v == 1:
            rows.append("shared %s 3" % tok)
    return rows


def domain_cases():
    return [
        ("err-argcounts-a", "errors", 2,
         "every command with every wrong number of arguments",
         lines(*argcount_rows(0))),
        ("err-argcounts-b", "errors", 2,
         "every wrong number of arguments, other values",
         lines(*argcount_rows(1))),
        ("ga-counts-a", "gather", 2,
         "every address count from 0 to N + 4, 1 to 32 threads",
         lines(*gather_count_rows(0))),
        ("ga-counts-b", "partial-warp", 2,
         "every address count from 0 to N + 4, other sizes",
         lines(*gather_count_rows(1))),
        ("ga-bad-token-a", "gather", 2,
         "a bad token at every index of lists of 1 to 72 addresses",
         lines(*bad_token_rows(0))),
        ("ga-bad-token-b", "errors", 2,
         "the same with 3 threads and other bad tokens",
         lines(*bad_token_rows(1))),
        ("tp-all", "transpose-padded", 2, "every tile 1-64 with every pad 0-8",
         lines(*transpose_rows(0))),
        ("tu-all-partial", "transpose-unpadded", 2,
         "every tile and pad with 5, 17 and 31 threads",
         lines(*transpose_rows(1))),
        ("parse-shapes-a", "parsing", 2,
         "signs, zeros and 0x prefixes in every combination",
         lines(*number_shape_rows(0))),
        ("err-shapes-b", "errors", 2,
         "the same shapes in other positions and in shared",
         lines(*number_shape_rows(1))),
    ]


def bad_token_rows(v):
    """gather's order of checks at every position of its list: a bad
    token (not a number, or past 2^48) at every index of lists from 1 to
    72 addresses, and far later; then a negative one, which the count
    check must come before."""
    bad = ["x", "1e3", "+4", "281474976710656", "-", "0x"][v::2]
    rows = ["active %d" % (32 if v == 0 else 3)]
    for length in list(range(1, 73)) + [100, 1000]:
        for i, tok in enumerate(bad):
            at = (length - 1 - i * 7) % length
            addrs = [str(4 * t) for t in range(length)]
            addrs[at] = tok
            rows.append("gather 4 " + " ".join(addrs))
    for length in (2, 31, 32, 33, 40, 41, 64, 65):
        addrs = [str(8 * t) for t in range(length)]
        addrs[-1] = "-8"
        rows.append("gather 8 " + " ".join(addrs))
    return rows + ["active 32"]
