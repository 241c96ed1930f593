#!/usr/bin/env python3
"""Writes every NAME.in and the suite.json of public-tests/ and hidden-tests/.

Usage: python3 tests/gen-cases.py [--big | --big-names] [REPO_ROOT]

Without an option: every NAME.in and both suite.json. --big: only the
generated hidden cases (big-*.in, several MiB each: tests/gen_hard.py),
which are not committed; `make` writes them at build time, the reference
their .out, and checks both against hidden-tests/generated.sha256.
--big-names: prints those cases' names, one a line.

The inputs are deterministic (no randomness without a fixed seed), so running
this again reproduces the committed files byte for byte; the expected .out
files come from the reference (`make regen`), never from this script. Each
case is a (name, category, points, description, input) row; the long-line
cases are built here because a 100 KB line does not belong in a source file.
"""
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_hard  # noqa: E402  (the cases of issue 18)

MAXV = (1 << 48) - 1            # the largest magnitude the contract allows
TOO_BIG = 1 << 48

HINTS = {
    "misaligned": "A base that is not a multiple of 32 (or 128) makes the "
                  "warp's bytes straddle one more sector (or line).",
    "large-stride": "The stride counts elements: thread t starts at "
                    "BASE + t*STRIDE*SIZE bytes.",
    "vector": "With SIZE up to 16 one thread's range can cover two sectors; "
              "count the union of byte ranges.",
    "broadcast": "Threads reading the same bytes share sectors: efficiency "
                 "can exceed 100%, and same-word shared reads never conflict.",
    "partial-warp": "Only the first N threads take part, and a failed "
                    "'active' leaves N unchanged; mind '1 thread'.",
    "gather": "Check gather in order: valid numbers and SIZE 1-16, then "
              "the address count, then the signs.",
    "transpose-unpadded": "Thread t reads word (t mod TILE)*(TILE+PAD) + "
                          "t div TILE; count distinct words per bank.",
    "transpose-padded": "Padding changes the row length to TILE+PAD words; "
                        "the worst bank is the lowest-numbered one.",
    "errors": "Every failed command prints exactly one error line on "
              "stdout and changes nothing.",
    "aos": "aos prints two lines; FIELD_OFFSET + FIELD_SIZE must fit in "
           "the struct, and fields can be huge.",
    "shared": "Count distinct words per bank (bank = word mod 32), not "
              "threads; report the lowest-numbered worst bank.",
    "parsing": "Tokens are split by space, tab, CR, VT, FF; '#' ends the "
               "line even inside a token; 010 is decimal, 0x10 is hex.",
    "rounding": "Round half up with exact integers: 6.25 prints as 6.3, "
                "which printf(\"%.1f\") gets wrong.",
    "magnitude": "Values reach 2^48-1 and products exceed 2^63: use "
                 "unsigned 64-bit arithmetic and divide before multiplying.",
}


def lines(*rows):
    return "".join(r + "\n" for r in rows)


# ---------------------------------------------------------------- public

EXAMPLE = lines(
    "# Global loads: coalesced, misaligned, strided, broadcast, vector",
    "strided 0 1",
    "strided 4 1          # misaligned base: one extra sector and line",
    "strided 0 32         # column-major read of a 32-wide float matrix",
    "strided 0 0          # broadcast: every thread reads the same word",
    "strided 0 1 16       # float4 loads",
    "active 7             # a partial warp",
    "strided 0 1",
    "active 32",
    "aos 12 4 4           # field y of struct { float x, y, z; }",
    "gather 4 0 4 8 12 16 20 24 28 32 36 40 44 48 52 56 60 64 68 72 76 80 "
    "84 88 92 96 100 104 108 112 116 120 124",
    "# Shared memory banks",
    "shared 0 1",
    "shared 0 2",
    "shared 5 0",
    "transpose 32 0",
    "transpose 32 1",
    "# Errors",
    "active 40",
    "strided 0",
    "gather 4 1 2 3",
    "Strided 0 1",
)

PUBLIC = [
    ("example", "misaligned", 2, "the example of the handout", EXAMPLE),
    ("misaligned-basic", "misaligned", 1, "small misaligned bases",
     lines("strided 1 1", "strided 32 1", "strided 64 1 2", "strided 100 1")),
    ("large-stride-basic", "large-stride", 1, "strides of 2 to 64 floats",
     lines("strided 0 2", "strided 0 8", "strided 0 64", "strided 0 2 8")),
    ("vector-basic", "vector", 1, "float2 and float4 loads",
     lines("strided 0 1 8", "strided 0 1 16", "strided 0 2 16")),
    ("broadcast-basic", "broadcast", 1, "every thread reads one word",
     lines("strided 0 0", "strided 8 0 8", "shared 3 0")),
    ("partial-warp-basic", "partial-warp", 1, "a few active threads",
     lines("active 16", "strided 0 1", "active 1", "strided 0 1",
           "shared 0 32", "active 32", "strided 0 1")),
    ("gather-basic", "gather", 1, "a gather and its count error",
     lines("gather 4 " + " ".join(str(4 * ((t * 7) % 32)) for t in range(32)),
           "active 2", "gather 8 0 256", "gather 8 0")),
    ("transpose-unpadded-basic", "transpose-unpadded", 1,
     "column reads of square tiles",
     lines("transpose 32 0", "transpose 16 0", "transpose 8 0")),
    ("transpose-padded-basic", "transpose-padded", 1, "padding by one word",
     lines("transpose 32 1", "transpose 16 1", "transpose 32 2")),
    ("errors-basic", "errors", 1, "usage errors of each kind",
     lines("active 0", "strided 0 1 17", "aos 4 2 4", "shared 1",
           "transpose 65 0", "gather 0 1", "stride 0 1")),
    ("aos-basic", "aos", 1, "array of structs against struct of arrays",
     lines("aos 8 0 4", "aos 16 12 4", "aos 4 0 4")),
    ("shared-basic", "shared", 1, "bank conflicts of small strides",
     lines("shared 0 1", "shared 0 3", "shared 0 4", "shared 0 32")),
    ("parsing-basic", "parsing", 1, "hex, leading zeros, comments, tabs",
     lines("strided 0x10 1", "strided 010 01", "\tstrided  0\t1 # tab",
           "strided 0 1#glued", "   # just a comment", "")),
    ("rounding-basic", "rounding", 1, "a tie rounds half up",
     lines("active 1", "strided 0 1 2", "strided 0 1 3")),
    ("magnitude-basic", "magnitude", 1, "the largest allowed base",
     lines("strided 281474976710655 1", "strided 281474976710656 1")),
]

# ---------------------------------------------------------------- hidden


def h_misaligned():
    bases = [1, 2, 3, 4, 8, 16, 28, 31, 32, 33, 60, 64, 96, 100, 124, 125,
             127, 128, 129, 255, 4096 + 68]
    yield ("mis-bases", "misaligned", 2,
           "a float warp at many bases",
           lines(*("strided %d 1" % b for b in bases)))
    yield ("mis-sizes", "misaligned", 2,
           "misaligned bases with 1- to 16-byte elements",
           lines("strided 1 1 1", "strided 127 1 1", "strided 31 1 1",
                 "strided 8 1 16", "strided 4 1 8", "strided 126 1 2",
                 "strided 2 1 16", "strided 120 1 12", "strided 30 1 3"))
    yield ("mis-strided", "misaligned", 2,
           "misaligned bases with strides above one",
           lines("strided 4 2", "strided 124 32", "strided 30 8",
                 "strided 126 16 2", "strided 1 3 5", "strided\x0c4\x0b2 8"))
    yield ("mis-gather", "misaligned", 2,
           "every thread straddles a sector boundary",
           lines("gather 4 " + " ".join(str(30 + 32 * t) for t in range(32)),
                 "gather 8 " + " ".join(str(124 + 128 * t)
                                        for t in range(32)),
                 "gather 16 " + " ".join(str(17 + 16 * t)
                                         for t in range(32))))


def h_large_stride():
    yield ("ls-powers", "large-stride", 2, "strides 2 to 2^20 floats",
           lines(*("strided 0 %d" % (1 << k) for k in range(1, 21))))
    yield ("ls-size", "large-stride", 3,
           "the stride counts elements of SIZE bytes",
           lines("strided 0 8 16", "strided 0 32 1", "strided 0 3 2",
                 "strided 0 2 16", "strided 0 4 8", "strided 0 128 1",
                 "strided 0 5 12", "strided 0 16 2", "strided 64 6 4"))
    yield ("ls-odd", "large-stride", 2, "odd strides",
           lines(*("strided 0 %d" % s for s in (3, 5, 7, 9, 17, 31, 33,
                                               63, 65, 127, 129)),
                 "strided 0 1000#a glued comment",
                 # CR, VT and FF separate tokens anywhere, not only at the
                 # line's end; other control bytes do not (an error).
                 "strided 0\r35", "strided\r0 37\r", "strided\v0\f39",
                 "strided 0\x0141"))
    yield ("ls-huge", "large-stride", 2, "strides near 2^48",
           lines("strided 0 %d 16" % MAXV, "strided %d %d" % (MAXV, MAXV),
                 "strided 7 %d 1" % (1 << 40), "strided 0 4294967296 4",
                 "strided 0 1073741824"))


def h_vector():
    yield ("vec-sizes", "vector", 2, "every element size from 1 to 16",
           lines(*("strided 0 1 %d" % s for s in range(1, 17))))
    yield ("vec-strided", "vector", 2, "vector loads with strides",
           lines("strided 0 2 16", "strided 16 1 16", "strided 0 3 16",
                 "strided 0 2 8", "strided 48 1 12", "strided 0 0 16"))
    yield ("vec-gather", "vector", 2, "16-byte gathers, CRLF line ends",
           "".join(r + "\r\n" for r in (
               "gather 16 " + " ".join(str(16 * t) for t in range(32)),
               "gather 16 " + " ".join(str(16 * (31 - t)) for t in range(32)),
               "gather 16 " + " ".join(str(8 + 16 * t) for t in range(32)))))
    yield ("vec-aos", "vector", 2, "float3 and float4 fields",
           lines("aos 16 0 16", "aos 32 16 16", "aos 12 0 12", "aos 48 32 16"))


def h_broadcast():
    yield ("bc-stride0", "broadcast", 2, "stride 0 at several bases",
           lines("strided 0 0", "strided 5 0", "strided 30 0 4",
                 "strided 126 0 4", "strided 0 0 1", "strided 0 0 16",
                 "strided 120 0 16"))
    yield ("bc-gather", "broadcast", 2, "gathers of repeated addresses",
           lines("gather 4 " + " ".join(["64"] * 32),
                 "gather 4 " + " ".join(str(4 * (t % 2)) for t in range(32)),
                 "gather 4 " + " ".join(str(128 * (t % 4)) for t in range(32)),
                 "gather 2 " + " ".join(str(t // 2) for t in range(32))))
    yield ("bc-shared", "broadcast", 2, "same-word shared reads",
           lines("shared 7 0", "shared 0 0", "shared %d 0" % MAXV,
                 "active 5", "shared 31 0", "active 32", "shared 0 32"))
    yield ("bc-aos", "broadcast", 1, "a one-byte struct shares sectors",
           lines("aos 1 0 1", "aos 2 1 1", "aos 3 0 3"))


def h_partial_warp():
    rows = []
    for n in (1, 2, 3, 8, 9, 16, 17, 31, 32):
        rows += ["active %d" % n, "strided 0 1", "strided 4 8"]
    yield ("pw-sweep", "partial-warp", 2, "plurals and counts for 1 to 32",
           lines(*rows))
    yield ("pw-gather", "partial-warp", 2, "gather wants N addresses",
           lines("active 3", "gather 4 0 4 8", "gather 4 0 4",
                 "gather 4 0 4 8 12", "active 1", "gather 16 100",
                 "gather 16", "gather 16 1 2", "gather 16 -1 -2",
                 "gather 16 -1 x", "gather 99 -1 -2", "active 2",
                 "gather 4 0 0"))
    yield ("pw-banks", "partial-warp", 2, "bank conflicts of part of a warp",
           lines("active 16", "shared 0 2", "shared 0 4", "transpose 32 0",
                 "active 5", "shared 0 32", "transpose 4 0", "active 1",
                 "shared 9 32", "transpose 64 8"))
    yield ("pw-failed-active", "partial-warp", 3,
           "a failed active keeps the previous count",
           lines("active 8", "active 0", "strided 0 1", "active 33",
                 "strided 0 1", "active -1", "strided 0 1", "active 0x21",
                 "strided 0 1", "active", "strided 0 1", "active 8 8",
                 "strided 0 1", "active 4x", "shared 0 32", "active 1e1",
                 "gather 4 0 4 8 12 16 20 24 28", "active 010",
                 "strided 0 1"))
    yield ("pw-aos", "partial-warp", 1, "aos with a partial warp",
           lines("active 4", "aos 12 4 4", "active 1", "aos 100 50 50"))


def h_gather():
    rnd = random.Random(2026)
    scattered = [rnd.randrange(0, 1 << 20) for _ in range(32)]
    yield ("ga-patterns", "gather", 2, "coalesced, reversed and scattered",
           lines("gather 4 " + " ".join(str(4 * (31 - t)) for t in range(32)),
                 "gather 4 " + " ".join(str(a) for a in scattered),
                 "gather 1 " + " ".join(str(t * 33) for t in range(32)),
                 "gather 8 " + " ".join(str(1000 * t) for t in range(32)),
                 "gather 4 " + " ".join(str(4 * t) for t in range(33))))
    yield ("ga-error-order", "gather", 3, "the order of gather's checks",
           lines("active 4",
                 "gather 4 1 2 x",            # bad token before the count
                 "gather 17 1 2",             # size range before the count
                 "gather 0 1 2 3 4",
                 "gather -4 1 2 3 4",
                 "gather 4 -1 2",             # count before the sign
                 "gather 4 -1 2 3 4",         # then the sign
                 "gather 4 1 2 3 %d" % TOO_BIG,
                 "gather 4 1 2 3 -%d" % TOO_BIG,
                 "gather 4 1 2 3 1e3",
                 "gather 4 1 2 3 +4",
                 "gather",
                 "gather 4 -0 0 -0 0",        # -0 is not negative
                 "gather 4 1 2 3 4 5",
                 "gather 4 -1 -2 -3 -4 -5",
                 "gather x"))
    yield ("ga-overlap", "gather", 2, "unsorted overlapping ranges",
           lines("gather 16 " + " ".join(str((t * 13) % 40) for t in range(32)),
                 "gather 16 " + " ".join(str(256 - 8 * t) for t in range(32)),
                 "gather 3 " + " ".join(str(31 + 96 * (t % 3))
                                        for t in range(32))))
    yield ("ga-huge", "gather", 2, "addresses near 2^48",
           lines("gather 16 " + " ".join(str(MAXV - 16 * t)
                                         for t in range(32)),
                 "gather 1 " + " ".join(str(MAXV - (t << 40))
                                        for t in range(32))))
    # 100 KB of zeros in front of each address: one line near 100 KB.
    pad = "0" * 3000
    yield ("ga-long-line", "gather", 2, "a 100 KB gather line",
           lines("gather 4 " + " ".join(pad + str(4 * t) for t in range(32)),
                 "gather 4" + (" " * 50000) + " ".join(
                     str(128 * t) for t in range(32)) + "\t" * 1000))


def h_transpose_unpadded():
    yield ("tu-tiles", "transpose-unpadded", 2, "tiles from 1 to 64",
           lines(*("transpose %d 0" % t for t in range(1, 65))))
    yield ("tu-partial", "transpose-unpadded", 2,
           "unpadded transposes with part of a warp",
           lines("active 8", "transpose 32 0", "transpose 8 0", "active 20",
                 "transpose 16 0", "transpose 3 0", "active 32",
                 "transpose 33 0", "active 16 16", "transpose 33 0"))
    yield ("tu-powers", "transpose-unpadded", 1, "power-of-two tiles",
           lines("transpose 2 0", "transpose 4 0", "transpose 64 0",
                 "transpose 0x20 0", "transpose 032 000"))


def h_transpose_padded():
    rows = ["transpose %d %d" % (t, p) for t in (8, 16, 24, 32, 48, 64)
            for p in range(1, 9)]
    yield ("tp-grid", "transpose-padded", 2, "tiles and every pad 1-8",
           lines(*rows))
    yield ("tp-small", "transpose-padded", 2, "small tiles with padding",
           lines(*("transpose %d %d" % (t, p) for t in range(1, 8)
                   for p in (1, 3, 8)), "transpose 4 9", "transpose 64 16"))
    yield ("tp-partial", "transpose-padded", 2,
           "padded, part of a warp; no newline at the end",
           lines("active 16", "transpose 32 1", "transpose 16 2",
                 "active 7", "transpose 64 4") + "transpose 5 5")


def h_errors():
    yield ("err-unknown", "errors", 2, "unknown and miscased commands",
           lines("Strided 0 1", "STRIDED 0 1", "foo", "Active 2",
                 "strided, 0 1", "active8", "GATHER 4", "Transpose 32 0",
                 "sharedd 0 1", "a", "0x10 1", "-",
                 # Past 255 bytes: a name copied into a fixed buffer shows.
                 "Strided" + "x" * 300 + " 0 1"))
    yield ("err-argcount", "errors", 2, "wrong numbers of arguments",
           lines("active", "active 1 2", "strided", "strided 0",
                 "strided 0 1 4 4", "aos 1 0", "aos 4 0 4 4", "shared 0",
                 "shared 0 1 2", "transpose 32", "transpose 32 0 0",
                 "gather"))
    yield ("err-range", "errors", 2, "arguments out of range",
           lines("strided 0 1 0", "strided 0 1 17", "strided -1 1",
                 "strided 0 -1", "strided 0 1 -4", "aos 0 0 1", "aos 4 0 0",
                 "aos 4 1 4", "aos 4 4 1", "aos 4 -1 2", "aos 5 1 4",
                 "shared -1 0", "shared 0 -1", "transpose 0 0",
                 "transpose 65 0", "transpose 32 9", "transpose 32 -1",
                 "transpose 64 8", "active 33", "active -32", "gather 16 " +
                 " ".join(["0"] * 32), "gather 17 " + " ".join(["0"] * 32)))
    yield ("err-numbers", "errors", 3, "tokens that are not numbers",
           lines("strided +5 1", "strided 1e3 1", "strided 0x 1",
                 "strided 12abc 1", "strided 2^8 1", "strided 4.0 1",
                 "strided --5 1", "strided - 1", "strided 0x-5 1",
                 "strided 0xg 1", "strided 0b101 1", "strided 0o17 1",
                 "strided 1_000 1", "strided 0 1 x", "shared 0 one",
                 "strided 0 1 0x10", "strided 0 1 0x11", "strided 0X1F 0x00"))
    yield ("err-state", "errors", 2,
           "errors between good commands change nothing",
           lines("active 4", "strided 0 1", "strided 0 1 99", "strided 0 1",
                 "active 99", "shared 0 32", "gather 4 1", "gather 4 1 2 3 4",
                 "bogus", "transpose 4 0", "strided 4 1#x", "strided 0 1"))


def h_aos():
    yield ("aos-fields", "aos", 2, "structs of many shapes",
           lines("aos 12 4 4", "aos 12 0 4", "aos 12 8 4", "aos 8 4 4",
                 "aos 16 12 4", "aos 20 2 2", "aos 24 8 16", "aos 100 99 1",
                 "aos 128 0 4", "aos 1024 4 8", "aos 36 12 12"))
    yield ("aos-huge", "aos", 3, "huge structs and fields",
           lines("aos %d 0 %d" % (MAXV, MAXV),
                 "aos %d 1 %d" % (MAXV, MAXV - 1),
                 "aos %d %d 1" % (MAXV, MAXV - 1),
                 "aos %d 0 4" % (1 << 40),
                 "aos %d %d %d" % (1 << 47, 1 << 46, 1 << 46),
                 "aos 4294967296 0 4294967296",
                 "aos %d 0 %d" % (MAXV, TOO_BIG)))
    yield ("aos-partial", "aos", 1, "aos with 1 and 3 threads",
           lines("active 3", "aos 12 4 4", "aos 4096 100 4000", "active 1",
                 "aos 1 0 1",
                 # 91.145...% and 3.645...%: 91.1 and 3.6 in one step of
                 # half up, 91.2 and 3.7 through hundredths.
                 "active 7", "aos 25 0 25", "aos 24 18 1"))


def h_shared():
    yield ("sh-strides", "shared", 2, "strides 0 to 33 and some above",
           lines(*("shared 0 %d" % s for s in list(range(34)) +
                   [48, 64, 96, 100, 1024, 1025]), "shared +0 1",
                 # A 140 KB line: a 128 KiB line buffer splits it.
                 "shared 0" + " " * 140000 + "3"))
    yield ("sh-lowest-bank", "shared", 3,
           "the worst bank is the lowest-numbered one",
           lines("shared 3 2", "shared 5 4", "shared 17 8", "shared 31 16",
                 "shared 1 64", "shared 33 6", "shared 7 12"))
    yield ("sh-huge", "shared", 2, "words near 2^48",
           lines("shared %d 1" % MAXV, "shared %d %d" % (MAXV, MAXV),
                 "shared 0 %d" % (1 << 47), "shared 4294967295 4294967296"))


def h_parsing():
    yield ("parse-hex", "parsing", 2, "hexadecimal in every position",
           lines("strided 0x0 0x1", "strided 0X80 0x01 0x10",
                 "strided 0xaBcD 0XfF", "aos 0xC 0x4 0x4",
                 "shared 0x1F 0x2", "transpose 0x20 0x1", "active 0x10",
                 "gather 0x4 " + " ".join(hex(8 * t) for t in range(16)),
                 "active 0X20", "strided -0x0 0", "strided 0xFFFFFFFFFFFF 0"))
    yield ("parse-zeros", "parsing", 2, "leading zeros are decimal",
           lines("strided 010 010", "strided 0008 0009", "active 08",
                 "gather 04 " + " ".join("0%d" % (4 * t) for t in range(8)),
                 "active 032", "transpose 016 01",
                 "strided %s32 1" % ("0" * 60), "strided 00 00 016",
                 "strided 0%d 0" % MAXV, "strided 00x10 1"))
    yield ("parse-crlf", "parsing", 2, "CRLF line ends everywhere",
           "strided 0 1\r\nactive 16\r\nstrided 4 1 8\r\n\r\n# c\r\n"
           "active 32\r\nshared 0 2\r\ntranspose 32 1\r\naos 12 4 4 \r\n"
           "gather 4 " + " ".join(str(4 * t) for t in range(32)) + "\r\n"
           "Strided 0 1\r\nactive 40\r\n\r\r\n   \r\n")
    yield ("parse-whitespace", "parsing", 2, "tabs, VT, FF and runs of them",
           "\tstrided\t0\t1\n  strided   4 \t 1  \n\x0bstrided\x0b0\x0c2\x0c\n"
           "strided 0 1 \x0c\x0b\t\r\n\t\t\t\n\x0c\n shared\t0 2\n"
           "transpose 32\t\t0\n")
    yield ("parse-comments", "parsing", 2, "comments glued to tokens",
           lines("strided 0 1#c", "strided 4 1#", "#strided 0 1",
                 "strided#0 1", "strided 0#1", "active 4#x", "strided 0 1",
                 "gather 4 0 4 8 12#16 20", "gather 4 0 4#8 12",
                 "active 32 #", "Strided#0 1", "shared 0 1 # 2 3", "#",
                 " #", "strided 0 0x1#f", "strided 0 1 # ## #"))
    yield ("parse-long", "parsing", 2, "long lines of blanks and comments",
           lines(" " * 60000 + "strided 4 1",
                 "strided 0 1 #" + "x" * 60000,
                 "#" + "#" * 20000,
                 "strided 0 " + "0" * 50000 + "1 4",
                 "active" + "\t" * 30000 + "16",
                 "strided 0 1"))
    yield ("parse-no-final-newline", "parsing", 1,
           "the last line has no newline",
           "strided 0 1\n\n\nactive 2\nstrided 0 1")


def h_rounding():
    # tie cases: 100 * R / M = x.x5 exactly with an even digit before the 5
    yield ("round-ties", "rounding", 3, "exact ties round up",
           lines("active 1", "strided 0 1 2", "strided 0 1 10",
                 "active 2", "strided 0 1 9", "strided 0 1 13",
                 "active 4", "strided 0 1 3", "active 6", "strided 0 1 3",
                 "active 3", "strided 0 1 6", "strided 0 1 10"))
    yield ("round-ties-gather", "rounding", 2, "ties from gathers",
           lines("active 2", "gather 1 0 32", "gather 5 0 64",
                 "active 4", "gather 2 0 33 66 99", "gather 9 0 32 64 96",
                 "active 1", "gather 2 30"))
    yield ("round-thirds", "rounding", 2, "repeating decimals",
           lines("aos 12 4 4", "aos 24 0 4", "aos 12 0 8", "active 7",
                 "strided 0 1 1", "active 3", "strided 0 1 3", "strided 0 7",
                 "active 32", "strided 0 3 1", "strided 0 6 1"))
    # (active, struct, offset, field) rows whose array-of-structs line is
    # an exact tie after an even digit, which printf("%.1f") rounds down
    ties = [(3, 94, 0, 6), (7, 19, 13, 6), (5, 13, 7, 6), (12, 25, 14, 11),
            (2, 67, 26, 41), (7, 94, 0, 56), (1, 130, 24, 106),
            (3, 97, 21, 76), (7, 112, 26, 86), (12, 133, 0, 111),
            (3, 46, 0, 46), (1, 148, 0, 146), (7, 67, 0, 66),
            (12, 133, 0, 131), (1, 4000, 1, 3998)]
    yield ("round-aos-ties", "rounding", 2, "ties from array-of-structs loads",
           lines(*("active %d\naos %d %d %d" % t for t in ties)))


def h_magnitude():
    yield ("mag-limits", "magnitude", 3, "2^48-1 in every position",
           lines("strided %d %d 16" % (MAXV, MAXV),
                 "shared %d %d" % (MAXV, MAXV),
                 "gather 16 " + " ".join([str(MAXV)] * 32),
                 "aos %d 0 %d" % (MAXV, MAXV),
                 "strided -%d 0" % MAXV,
                 "strided 0x%X 0xffffffffffff 0x10" % MAXV))
    yield ("mag-too-big", "magnitude", 2, "values of 2^48 and beyond",
           lines("strided %d 1" % TOO_BIG, "strided 0x1000000000000 1",
                 "strided 99999999999999999999999 1",
                 "strided 18446744073709551617 1",
                 "strided 0 18446744073709551616", "shared 4294967296 0",
                 "shared %d 0" % TOO_BIG, "aos %d 0 1" % TOO_BIG,
                 "strided 9223372036854775808 1",
                 "strided 0x10000000000000001 1",
                 "gather 4 " + " ".join([str(1 << 64 | 4)] * 32)))
    yield ("mag-32bit", "magnitude", 2, "values past 32 bits",
           lines("strided 4294967296 1", "strided 4294967292 1",
                 "strided 0 134217728", "strided 0 2147483648 16",
                 "shared 4294967296 1", "aos 4294967296 4 8",
                 "aos 8589934592 0 8589934592",
                 "gather 4 " + " ".join(str((1 << 32) + 4 * t)
                                        for t in range(32))))
    yield ("mag-efficiency", "magnitude", 2,
           "an efficiency product past 2^63",
           lines("aos %d 0 %d" % (MAXV, MAXV),
                 "aos %d 5 %d" % (MAXV, MAXV - 5),
                 "aos %d 3 %d" % (MAXV, MAXV - 100),
                 "active 31", "aos %d 1 %d" % (MAXV, MAXV - 2)))


# ------------------------------------------------------- edges (issue 13)
# Each bug of tests/wrong/ must fail on two cases in different files, so
# every probe below comes in two variants (v = 0, 1) with other values, and
# the variants go to different files. A probe that changes `active` sets it
# back to 32.


def edge_numbers(v):
    """Numbers at the edge of the grammar: -0, long bodies with leading
    zeros, what strtoull/strtol/atoi would accept but the contract does not,
    values just around 2^48 and 2^64."""
    return [
        ["strided -0 1", "shared -0 -0", "transpose 32 -0", "aos 12 -0 4"]
        if v == 0 else
        ["strided 4 -0 8", "shared -00 1", "transpose 8 -0", "aos 8 -0 4"],
        ["shared -0x0 1", "strided -0X00 2"][v],
        ["strided 0x0x10 1", "shared 0X0x2 1"][v],
        ["strided 0x+10 1", "aos 0x+c 4 4"][v],
        ["strided 0x-0 1", "strided 0X-0 0"][v],
        ["strided 00000000000000000004 1",
         "shared 0000000000000000000000000001 2"][v],
        ["strided 0x00000000000000000010 1", "shared 0X0000000000000000001f 1"][v],
        ["strided 0x0000000000000000000000000000FFFFFFFFFFFF 0",
         "shared 0000000000000000000000281474976710655 0"][v],
        ["strided 0x 1", "shared 0 0X"][v],
        ["strided - 1", "transpose 32 -"][v],
        ["strided 4.0 1", "shared 1.5 1"][v],
        ["strided --4 1", "shared --0 1"][v],
        ["strided 18446744073709551620 1", "shared 18446744073709551616 1"][v],
        ["strided 4294967297 1", "shared 4294967328 1"][v],
        ["strided 0xA 0xb 0xC", "shared 0XaB 0xF"][v],
        ["strided 0X20 1", "transpose 0X10 0x1"][v],
        ["strided 281474976710656 1", "shared -281474976710656 0"][v],
        ["strided 1a 1", "shared 7f 1"][v],
    ]


def edge_separators(v):
    """A CR inside a line, control characters that are not separators,
    single tabs, VTs and FFs, blank lines in the middle."""
    return [
        ["strided\r4 1", "shared 0\r2"][v],
        ["strided 0 1\r8", "transpose 32\r1\r"][v],
        ["strided 0\x01 1", "shared\x1b0 1"][v],
        ["strided\t8\t1", "shared\t1\t2"][v],
        ["strided\x0b8 1", "shared 1\x0b3"][v],
        ["strided 8\x0c1", "shared\x0c1 4"][v],
        "", "   \t", "# a comment",
    ]


def edge_args(v):
    """Ranges and counts: negative values whose addresses stay valid, a
    field larger than its struct, one argument too many or too few,
    prefixes of command names, unknown names longer than small buffers."""
    return [
        ["active 0", "strided 0 1"] if v == 0 else ["active 0", "shared 0 1"],
        ["active 4 4", "strided 0 1", "active 32"] if v == 0 else
        ["active 2 1", "shared 0 32"],
        ["aos 4 0 0", "aos 1 1 0"][v],
        ["aos 4 0 8", "aos 12 0 100"][v],
        ["aos 5 6 1", "aos 4 8 0x10"][v],
        ["aos 8 -4 4", "aos 16 -0x4 8"][v],
        ["shared 0 1 2", "shared 0 2 0"][v],
        ["shared -1 0", "shared -5 1"][v],
        ["active 1", "shared 0 -1", "strided 0 -1", "active 32"] if v == 0 else
        ["active 1", "shared 5 -3", "strided 64 -2 8", "active 32"],
        ["strided 0 1 4 4", "strided 4 1 8 0"][v],
        ["strided 0 1 0", "strided 8 2 0"][v],
        ["transpose 32", "transpose 8"][v],
        ["transpose 32 -1", "transpose 16 -8"][v],
        ["transpose 0 0", "transpose 0 4"][v],
        ["transpose 65 0", "transpose 0x41 1"][v],
        ["stride 0 1", "share 0 1"][v],
        ["stridedx 0 1", "shared2 0 1"][v],
        ["active 1", "transpose 4 0", "active 32"] if v == 0 else
        ["active 1", "shared 3 1", "active 32"],
        ["shared 0 4294967296", "shared 4294967296 8589934592"][v],
        ("u" * 16 + "nknown") if v == 0 else ("Strided" + "x" * 30),
        ("x" * 300) if v == 0 else ("gather" + "_" * 1000),
    ]


def edge_gather(v):
    """gather's order of checks at its edges, and its plurals."""
    if v == 0:
        return ["active 1", "gather 4", "gather 4 281474976710656 0",
                "gather 0 8", "gather 4 -281474976710656",
                "gather 8 -0x0", "active 2", "gather 4 0 -4",
                "gather 4 -0 4", "gather 0 0 4", "active 32"]
    return ["active 1", "gather 8 0 0", "gather 4 -0", "gather 16 0x0 -1",
            "active 2", "gather 4 281474976710657",
            "gather 4 0 -0x1000000000000", "gather 0 4 4", "active 3",
            "gather 4 8 4 -1", "gather 4 -0 -0 0", "active 32"]


def edge_two_step(v):
    """Efficiencies whose hundredths digit is 4 followed by 5 or more:
    rounding to hundredths first, then to tenths, goes up; one step not."""
    rows = ([(5, "aos 33 22 11"), (8, "aos 41 28 13"), (11, "aos 15 10 5"),
             (17, "aos 12 0 5"), (25, "aos 7 0 7"), (32, "aos 11 0 6")]
            if v == 0 else
            [(5, "strided 0 4 11"), (13, "strided 0 4 14"),
             (19, "strided 30 3 3"), (23, "strided 39 1 11"),
             (29, "strided 0 2 10"), (32, "strided 18 5 4")])
    out = []
    for n, cmd in rows:
        out += ["active %d" % n, cmd]
    return out + ["active 32"]


def flatten(rows):
    out = []
    for r in rows:
        out += r if isinstance(r, list) else [r]
    return out


def h_edges():
    yield ("parse-edge", "parsing", 3,
           "numbers and separators at the edge of the grammar",
           lines(*flatten(edge_numbers(0) + edge_separators(0))))
    yield ("err-edge-numbers", "errors", 3,
           "tokens a library parser would take but the grammar does not",
           lines(*flatten(edge_separators(1) + edge_numbers(1))))
    yield ("err-edge-args", "errors", 3,
           "ranges, counts and names at their edges",
           lines(*flatten(edge_args(0))))
    yield ("err-edge-ranges", "errors", 3,
           "negative values that keep addresses valid, fields too large",
           lines(*flatten(edge_args(1))))
    yield ("ga-edge-order", "gather", 2, "gather's checks at their edges",
           lines(*edge_gather(0)))
    yield ("pw-gather-edge", "partial-warp", 2,
           "gather with 1 to 3 threads at the edges of its checks",
           lines(*edge_gather(1)))
    yield ("round-two-step", "rounding", 2,
           "half up in one step, not via hundredths (array of structs)",
           lines(*edge_two_step(0)))
    yield ("round-two-step-strided", "rounding", 2,
           "half up in one step, not via hundredths (strided)",
           lines(*edge_two_step(1)))
    # Lines past 1 MiB: fixed buffers of 64 KiB to 1 MiB split them.
    yield ("parse-huge-line", "parsing", 2, "a 1.1 MB line of blanks",
           lines("strided 4 1" + " " * (1 << 20) + " 8", "strided 0 1"))
    yield ("ga-huge-line", "gather", 2, "a 1.1 MB gather line",
           lines("gather 4 " + " ".join("0" * 35000 + str(8 * t)
                                       for t in range(32)),
                 "shared 0 1"))


def h_hard():
    yield from gen_hard.hard_cases()
    yield from gen_hard.big_cases()


HIDDEN_GENS = [h_misaligned, h_large_stride, h_vector, h_broadcast,
               h_partial_warp, h_gather, h_transpose_unpadded,
               h_transpose_padded, h_errors, h_aos, h_shared, h_parsing,
               h_rounding, h_magnitude, h_edges, h_hard]

HIDDEN_DESCRIPTION = (
    "the graded cases: every category of the exercise and its traps. "
    "Limits, one per suite as Kattis has one per problem: cpu_seconds is "
    "%d x the reference's CPU time on its slowest case, rounded up, and at "
    "least 1 s (make suite-limits re-measures it and fails when a case "
    "needs more than 1/%d of it); the big-* cases hold runs of 1.5 MiB, "
    "where a quadratic step needs %d x the limit or more. output_kib is "
    "Kattis's default of 8 MiB, 1.5 x the largest expected output. The "
    "big-* cases are written at build time by tests/gen-cases.py --big "
    "(their outputs by the reference) and checked against generated.sha256"
    % (gen_hard.CPU_FACTOR, gen_hard.CPU_FACTOR, gen_hard.CPU_FACTOR))

# Hidden cases whose data students may see: a handful of plain ones.
VISIBLE_HIDDEN = {"mis-bases", "vec-sizes", "tu-tiles"}


def write_input(d, name, text):
    with open(os.path.join(d, name + ".in"), "wb") as f:
        f.write(text.encode("latin-1"))


def write_suite(root, dirname, suite_name, description, cases, visible,
                limits):
    d = os.path.join(root, dirname)
    os.makedirs(d, exist_ok=True)
    used = []
    entries = []
    for name, cat, points, desc, text in cases:
        write_input(d, name, text)
        if cat not in used:
            used.append(cat)
        entries.append({"name": name, "category": cat, "points": points,
                        "visibility": "visible" if visible(name) else
                        "hidden", "description": desc})
    doc = {"name": suite_name, "description": description,
           "limits": limits,
           "hints": {c: HINTS[c] for c in used},
           "line_map": LINE_MAP,
           "cases": entries}
    with open(os.path.join(d, "suite.json"), "w") as f:
        f.write(json_text(doc))


# Which input line answered each output line (the handout's Output
# section): every command answers one line, `active` none and `aos` two,
# and a failed command one "error: " line instead.
LINE_MAP = {"comment": "#", "error_prefix": "error: ", "default": 1,
            "commands": {"active": 0, "aos": 2}}


def json_text(doc):
    """One case per line: easy to read and to diff."""
    head = {k: v for k, v in doc.items() if k != "cases"}
    out = json.dumps(head, indent=2)[:-2] + ",\n  \"cases\": [\n"
    out += ",\n".join("    " + json.dumps(c) for c in doc["cases"])
    return out + "\n  ]\n}\n"


def main():
    args = sys.argv[1:]
    mode = args.pop(0) if args and args[0].startswith("--") else None
    if mode not in (None, "--big", "--big-names") or len(args) > 1:
        sys.exit("usage: gen-cases.py [--big | --big-names] [REPO_ROOT]")
    root = args[0] if args else \
        os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    if mode == "--big-names":
        print("\n".join(c[0] for c in gen_hard.big_cases()))
        return
    if mode == "--big":
        d = os.path.join(root, "hidden-tests")
        for name, _, _, _, text in gen_hard.big_cases():
            write_input(d, name, text)
        return
    write_suite(root, "public-tests", "public",
                "the cases students get: the handout's example and one "
                "small case per category", PUBLIC, lambda n: True,
                {"cpu_seconds": 1, "memory_mib": 256, "output_kib": 1024})
    hidden = [c for gen in HIDDEN_GENS for c in gen()]
    write_suite(root, "hidden-tests", "hidden", HIDDEN_DESCRIPTION, hidden,
                lambda n: n in VISIBLE_HIDDEN, gen_hard.LIMITS)


if __name__ == "__main__":
    main()
