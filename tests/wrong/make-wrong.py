#!/usr/bin/env python3
"""Writes the mutation set: tests/wrong/<name>/main.c and witness.in, and
tests/wrong/INDEX.

Usage: python3 tests/wrong/make-wrong.py [REPO_ROOT]

Each wrong solution is one realistic bug, in one of two bases:
  - the reference (reference/*.h, *.c, concatenated into one file that
    builds with `cc -std=c11 -O2 main.c -lm`) with one mutation (MUTATIONS);
  - tests/wrong/student.c, a correct solution written from scratch the way
    a student would (if-chains, printf, getchar), with one student-style bug
    (STUDENT): a double percentage, fgets into a fixed buffer, strtoull for
    hex, two-step rounding...
Every one carries a family (FAMILIES), a one-line description (its BUG
comment and its INDEX row) and a distinguishing input, witness.in, on which
it must disagree with the reference (`make test` checks it;
tests/wrong/fuzz-wrong.py finds such inputs independently, and `make
fuzz-wrong` checks that every one is really wrong and that student.c itself
is not). The hidden suite must fail every one on at least two cases
(tests/e2e/test_wrong_solutions.sh). The committed files are snapshots: a
mutation that no longer applies to a changed base makes this script stop
and name it, so it can be updated. Directories of solutions that are no
longer listed are removed.
"""
import os
import shutil
import sys

ORDER = ["lex.h", "model.h", "cmd.h", "lex.c", "model.c", "cmd.c", "main.c"]

# The families of the contract's rules; every wrong solution belongs to one.
FAMILIES = {
    "grammar": "the number grammar: signs, -0, hex, leading zeros, 2^48",
    "lines": "separators, comments, CR, line lengths, the final line",
    "args": "command names, argument counts and ranges",
    "precedence": "which error wins (gather's order of checks)",
    "labels": "labels, plurals and the text of the lines",
    "active": "the active-thread state",
    "union": "addresses, sectors and lines: the interval union",
    "rounding": "the efficiency's rounding (one-step half up)",
    "limits": "64-bit values, products and running time",
    "banks": "shared-memory banks and transposes",
}

# name -> (what the bug is, [(old, new), ...]): the first set, kept as is.
MUTATIONS = {
    "printf-rounding": (
        "prints the efficiency with printf(\"%.1f\") of a double",
        [("""	out_u64(o, eff / 10);
	out_str(o, ".");
	out_u64(o, eff % 10);
	out_str(o, "%\\n");""",
          """	char pct[64];
	(void)eff;
	snprintf(pct, sizeof pct, "%.1f%%\\n", 100.0 * (double)requested /
		 (double)moved);
	out_str(o, pct);""")]),
    "banks-count-threads": (
        "counts threads per bank, not distinct words (no broadcast)",
        [("while (j < count[k] && seen[k][j] != words[i])",
          "while (j < count[k])")]),
    "base-ignored": (
        "ignores the base: every strided warp starts aligned",
        [("r[t].start = (uint64_t)v[0] + (uint64_t)t * v[1] * v[2];",
          "r[t].start = (uint64_t)t * v[1] * v[2];")]),
    "active-ignored": (
        "accepts active but always simulates a full warp",
        [("	c->st->active = (int)v[0];\n", "	(void)v;\n")]),
    "overflow-32bit": (
        "keeps addresses and byte counts in 32-bit unsigned integers",
        [("struct model_range {\n\tuint64_t start, len;",
          "struct model_range {\n\tuint32_t start, len;"),
         ("uint64_t requested = n * size, moved = cov.sectors * MODEL_SECTOR;",
          "uint32_t requested = n * size, moved = cov.sectors * MODEL_SECTOR;")]),
    "stride-in-bytes": (
        "treats STRIDE as bytes instead of elements",
        [("r[t].start = (uint64_t)v[0] + (uint64_t)t * v[1] * v[2];",
          "r[t].start = (uint64_t)v[0] + (uint64_t)t * v[1];")]),
    "gather-count-first": (
        "checks gather's address count before the tokens and the size",
        [("	if (lex_number(&c->arg[0], &size) < 0 || size < 1 || size > 16)\n"
          "		goto usage;",
          "	if (c->argc - 1 != (size_t)c->st->active) {\n"
          "		out_str(&c->st->out, \"error: gather: need \");\n"
          "		out_u64(&c->st->out, (uint64_t)c->st->active);\n"
          "		out_str(&c->st->out,\n"
          "			c->st->active == 1 ? \" address\\n\" : \" addresses\\n\");\n"
          "		return;\n"
          "	}\n"
          "	if (lex_number(&c->arg[0], &size) < 0 || size < 1 || size > 16)\n"
          "		goto usage;")]),
    "gather-sign-first": (
        "reports a negative gather address before a wrong count",
        [("	if (c->argc - 1 != (size_t)c->st->active) {\n"
          "		out_str(&c->st->out, \"error: gather: need \");",
          "	if (negative) {\n"
          "		out_error(c, \"gather: addresses must be >= 0\");\n"
          "		return;\n"
          "	}\n"
          "	if (c->argc - 1 != (size_t)c->st->active) {\n"
          "		out_str(&c->st->out, \"error: gather: need \");")]),
    "active-clamps": (
        "a failed active still changes the count (clamped to 1-32)",
        [("	if (parse_args(c, v, lo, hi) < 0) {\n"
          "		out_usage(c);\n"
          "		return;\n"
          "	}\n"
          "	c->st->active = (int)v[0];",
          "	if (parse_args(c, v, lo, hi) < 0) {\n"
          "		if (lex_number(&c->arg[0], &v[0]) == 0)\n"
          "			c->st->active = v[0] < 1 ? 1 : v[0] > 32 ? 32 : (int)v[0];\n"
          "		out_usage(c);\n"
          "		return;\n"
          "	}\n"
          "	c->st->active = (int)v[0];")]),
    "walk-bytes": (
        "counts sectors and lines by walking every byte (too slow)",
        [("	sort_by_start(r, n);\n",
          "	sort_by_start(r, n);\n"
          "	uint64_t ls = UINT64_MAX, ll = UINT64_MAX, ns = 0, nl = 0;\n"
          "	for (size_t k = 0; k < n; k++)\n"
          "		for (uint64_t b = r[k].start; b < r[k].start + r[k].len; b++) {\n"
          "			if (ls == UINT64_MAX || b >> MODEL_SECTOR_SHIFT > ls) {\n"
          "				ls = b >> MODEL_SECTOR_SHIFT;\n"
          "				ns++;\n"
          "			}\n"
          "			if (ll == UINT64_MAX || b >> MODEL_LINE_SHIFT > ll) {\n"
          "				ll = b >> MODEL_LINE_SHIFT;\n"
          "				nl++;\n"
          "			}\n"
          "		}\n"
          "	return (struct model_coverage){ ns, nl };\n")]),
    "case-insensitive": (
        "matches command names without regard to case",
        [("memcmp(cmd_table[i].name, name->p, name->n) == 0)",
          "strncasecmp(cmd_table[i].name, name->p, name->n) == 0)"),
         ("#define _POSIX_C_SOURCE 200809L\n",
          "#define _POSIX_C_SOURCE 200809L\n#include <strings.h>\n")]),
    "hex-unsupported": (
        "parses decimal numbers only",
        [("	if (end - p >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {\n"
          "		base = 16;",
          "	if (0) {\n"
          "		base = 16;")]),
    "cr-not-blank": (
        "does not treat CR as whitespace",
        [("return c == ' ' || c == '\\t' || c == '\\r' || c == '\\v' || c == '\\f';",
          "return c == ' ' || c == '\\t' || c == '\\v' || c == '\\f';")]),
    "octal-leading-zero": (
        "reads a leading 0 as octal, like strtol with base 0",
        [("	if (p == end)\n		return -1;\n	/* v stays",
          "	if (base == 10 && end - p >= 2 && p[0] == '0')\n"
          "		base = 8;\n"
          "	if (p == end)\n		return -1;\n	/* v stays")]),
    "highest-bank": (
        "reports the highest-numbered worst bank",
        [("if (count[k] > b.passes) {", "if (count[k] >= b.passes) {")]),
    "comment-needs-space": (
        "'#' starts a comment only at the start of a token",
        [("		while (i < len && line[i] != '#' && !is_sep((unsigned char)line[i]))",
          "		while (i < len && !is_sep((unsigned char)line[i]))")]),
    "always-plural": (
        "prints '1 threads', '1 sectors', '1 lines'",
        [("	if (n != 1)\n		out_str(o, \"s\");", "	out_str(o, \"s\");")]),
    "no-magnitude-limit": (
        "accepts numbers of 2^48 and more (up to 2^62)",
        [("#define LEX_MAX_MAGNITUDE ((int64_t)1 << 48)",
          "#define LEX_MAX_MAGNITUDE ((int64_t)1 << 62)")]),
    "signed-efficiency": (
        "rounds with (2000 * requested + moved) / (2 * moved) in int64_t",
        [("	uint64_t q = requested / moved, rem = requested % moved;",
          "	return (uint64_t)((2000 * (int64_t)requested + (int64_t)moved) /\n"
          "			  (2 * (int64_t)moved));\n"
          "	uint64_t q = requested / moved, rem = requested % moved;")]),
    "aos-no-fit-check": (
        "does not check that the field fits in the struct",
        [("if (parse_args(c, v, lo, hi) < 0 || v[1] + v[2] > v[0]) {",
          "if (parse_args(c, v, lo, hi) < 0) {")]),
    "short-lines": (
        "reads lines with fgets into a 4096-byte buffer",
        [("	while ((n = getline(&line, &cap, stdin)) >= 0) {\n"
          "		size_t len = (size_t)n;",
          "	line = malloc(4096);\n"
          "	cap = 4096;\n"
          "	while (line && fgets(line, (int)cap, stdin)) {\n"
          "		size_t len = strlen(line);\n"
          "		(void)n;")]),
    "last-line-dropped": (
        "ignores a last line that has no newline",
        [("		if (len && line[len - 1] == '\\n')\n			len--;",
          "		if (len && line[len - 1] == '\\n')\n			len--;\n"
          "		else\n			break;")]),
    "transpose-row-read": (
        "reads a row of the tile instead of a column",
        [("w[t] = (uint64_t)(t % v[0]) * (uint64_t)(v[0] + v[1]) +\n"
          "		       (uint64_t)(t / v[0]);",
          "w[t] = (uint64_t)(t / v[0]) * (uint64_t)(v[0] + v[1]) +\n"
          "		       (uint64_t)(t % v[0]);")]),
    "lines-from-sectors": (
        "derives lines as sectors / 4, rounded up, instead of counting them",
        [("					line.total + line.hi - line.lo + 1 };",
          "					(sec.total + sec.hi - sec.lo + 1 + 3) / 4 };")]),
    "start-sector-only": (
        "counts only the sector and line of each range's first byte",
        [("uint64_t first = r[i].start, last = r[i].start + r[i].len - 1;",
          "uint64_t first = r[i].start, last = first;")]),
    "unknown-prints-line": (
        "echoes the whole line, not the first token, for an unknown command",
        [("		out_bytes(&st->out, name->p, name->n);",
          "		out_bytes(&st->out, name->p, (size_t)(line + len - name->p));")]),
    "vt-ff-not-blank": (
        "separates tokens by space, tab and CR only",
        [("return c == ' ' || c == '\\t' || c == '\\r' || c == '\\v' || c == '\\f';",
          "return c == ' ' || c == '\\t' || c == '\\r';")]),
    "plus-sign-accepted": (
        "accepts a leading '+' like strtol",
        [("	if (p < end && *p == '-') {\n		neg = 1;",
          "	if (p < end && (*p == '-' || *p == '+')) {\n		neg = *p == '-';")]),
    "truncate-efficiency": (
        "truncates the efficiency instead of rounding it",
        [("	if (rem >= moved - rem)\n		q++;", "	(void)rem;")]),
    "gather-extra-ignored": (
        "accepts more gather addresses than active threads",
        [("	if (c->argc - 1 != (size_t)c->st->active) {",
          "	if (c->argc - 1 < (size_t)c->st->active) {")]),
    "transpose-no-pad-limit": (
        "does not limit PAD to 0-8",
        [("lo[] = { 1, 0 }, hi[] = { 64, 8 };",
          "lo[] = { 1, 0 }, hi[] = { 64, ANY };")]),
    "active-extra-args": (
        "ignores extra arguments to active, as sscanf would",
        [("	{ \"active\", 1, 1, \"active: 1-32\", cmd_active },",
          "	{ \"active\", 1, SIZE_MAX, \"active: 1-32\", cmd_active },"),
         ("	int64_t v[1];\n\n	if (parse_args(c, v, lo, hi) < 0) {",
          "	int64_t v[1];\n\n	c->argc = 1;\n	if (parse_args(c, v, lo, hi) < 0) {")]),
}

MAXV = (1 << 48) - 1
HUGE_AOS = "aos %d 0 %d\n" % (MAXV, MAXV)


def long_line(n):
    """A line of n bytes that a reader with a shorter buffer splits in two:
    the tail ("8") then becomes a line (and a command) of its own."""
    head = "strided 4 1 "
    return head + " " * (n - len(head) - 1) + "8\n"


# name -> (family, distinguishing input) for the first set.
META = {
    "printf-rounding": ("rounding", "active 1\nstrided 0 1 2\n"),
    "banks-count-threads": ("banks", "shared 0 0\n"),
    "base-ignored": ("union", "strided 4 1\n"),
    "active-ignored": ("active", "active 2\nstrided 0 1\n"),
    "overflow-32bit": ("limits", "aos 4294967296 0 4294967296\n"),
    "stride-in-bytes": ("union", "strided 0 1\n"),
    "gather-count-first": ("precedence", "active 1\ngather 17 0 0\n"),
    "gather-sign-first": ("precedence", "active 1\ngather 4 -1 0\n"),
    "active-clamps": ("active", "active 4\nactive 40\nstrided 0 1\n"),
    "walk-bytes": ("limits", HUGE_AOS),
    "case-insensitive": ("args", "Strided 0 1\n"),
    "hex-unsupported": ("grammar", "strided 0x10 1\n"),
    "cr-not-blank": ("lines", "strided 0 1\r\n"),
    "octal-leading-zero": ("grammar", "strided 010 1\n"),
    "highest-bank": ("banks", "shared 0 2\n"),
    "comment-needs-space": ("lines", "strided 0 1#c\n"),
    "always-plural": ("labels", "strided 0 1\n"),
    "no-magnitude-limit": ("grammar", "strided 281474976710656 1\n"),
    "signed-efficiency": ("limits", HUGE_AOS),
    "aos-no-fit-check": ("args", "aos 4 2 4\n"),
    "short-lines": ("lines", long_line(5000)),
    "last-line-dropped": ("lines", "strided 0 1"),
    "transpose-row-read": ("banks", "transpose 32 0\n"),
    "lines-from-sectors": ("union", "strided 0 32\n"),
    "start-sector-only": ("union", "active 1\nstrided 30 0\n"),
    "unknown-prints-line": ("labels", "foo bar\n"),
    "vt-ff-not-blank": ("lines", "strided\v0 1\n"),
    "plus-sign-accepted": ("grammar", "strided +5 1\n"),
    "truncate-efficiency": ("rounding", "active 1\nstrided 0 1 2\n"),
    "gather-extra-ignored": ("args", "active 1\ngather 4 0 0\n"),
    "transpose-no-pad-limit": ("args", "transpose 32 9\n"),
    "active-extra-args": ("args", "active 8 8\nstrided 0 1\n"),
}


def mut(name, family, what, witness, *edits):
    assert name not in MUTATIONS and family in FAMILIES, name
    MUTATIONS[name] = (what, list(edits))
    META[name] = (family, witness)


# Frequently edited places of the reference.
SEP = "return c == ' ' || c == '\\t' || c == '\\r' || c == '\\v' || c == '\\f';"
HEXPFX = "\t\tbase = 16;\n\t\tp += 2;\n\t}"
EMPTY = "\tif (p == end)\n\t\treturn -1;\n\t/* v stays"
STEP = "\t\tv = v * base + d;\n\t\tif (v >= LEX_MAX_MAGNITUDE)\n\t\t\treturn -1;"
NEGSTORE = "\t*out = neg ? -v : v;"
DIGIT_BAD = "\t\tif (d < 0)\n\t\t\treturn -1;"
STRIDED_RANGE = "lo[] = { 0, 0, 1 }, hi[] = { ANY, ANY, 16 };"
AOS_RANGE = "lo[] = { 1, 0, 1 }, hi[] = { ANY, ANY, ANY };"
SHARED_RANGE = "lo[] = { 0, 0 }, hi[] = { ANY, ANY };"
TRANSPOSE_RANGE = "lo[] = { 1, 0 }, hi[] = { 64, 8 };"
FIT = "if (parse_args(c, v, lo, hi) < 0 || v[1] + v[2] > v[0]) {"
GSIZE = ("\tif (lex_number(&c->arg[0], &size) < 0 || size < 1 || size > 16)\n"
         "\t\tgoto usage;")
GSIGN = "\t\tif (addr < 0)\n\t\t\tnegative = 1;"
GCOUNT = "\tif (c->argc - 1 != (size_t)c->st->active) {"
COUNT_BLOCK = ("\tif (c->argc - 1 != (size_t)c->st->active) {\n"
               "\t\tout_str(&c->st->out, \"error: gather: need \");\n"
               "\t\tout_u64(&c->st->out, (uint64_t)c->st->active);\n"
               "\t\tout_str(&c->st->out,\n"
               "\t\t\tc->st->active == 1 ? \" address\\n\" : \" addresses\\n\");\n"
               "\t\treturn;\n\t}\n")
EFF_ROUND = "\tif (rem >= moved - rem)\n\t\tq++;"
STRIDED_START = "r[t].start = (uint64_t)v[0] + (uint64_t)t * v[1] * v[2];"
LAST = "uint64_t first = r[i].start, last = r[i].start + r[i].len - 1;"
MAIN_NL = "\t\tif (len && line[len - 1] == '\\n')\n\t\t\tlen--;"
FGETS = ("\twhile ((n = getline(&line, &cap, stdin)) >= 0) {\n"
         "\t\tsize_t len = (size_t)n;")


def fgets_edit(size):
    return (FGETS,
            "\tline = malloc(%d);\n\tcap = %d;\n"
            "\twhile (line && fgets(line, (int)cap, stdin)) {\n"
            "\t\tsize_t len = strlen(line);\n\t\t(void)n;" % (size, size))


# ---- grammar
mut("hex-lowercase-only", "grammar", "accepts only lowercase hex digits",
    "strided 0xA 1\n",
    ("\telse if (c >= 'A' && c <= 'F')\n\t\td = c - 'A' + 10;\n", ""))
mut("hex-0X-rejected", "grammar", "accepts the 0x prefix but not 0X",
    "strided 0X10 1\n",
    ("(p[1] == 'x' || p[1] == 'X')", "p[1] == 'x'"))
mut("neg-zero-rejected", "grammar", "rejects -0 as not a number",
    "strided -0 1\n",
    (NEGSTORE, "\tif (neg && v == 0)\n\t\treturn -1;\n" + NEGSTORE))
mut("double-minus", "grammar", "reads --5 as 5 (each '-' flips the sign)",
    "strided --5 1\n",
    ("\tif (p < end && *p == '-') {\n\t\tneg = 1;\n\t\tp++;\n\t}",
     "\twhile (p < end && *p == '-') {\n\t\tneg = !neg;\n\t\tp++;\n\t}"))
mut("hex-second-prefix", "grammar",
    "accepts a second 0x after 0x, as strtoull(body, 16) does",
    "strided 0x0x10 1\n",
    (HEXPFX, "\t\tbase = 16;\n\t\tp += 2;\n\t\tif (end - p >= 2 && p[0] == '0' && "
     "(p[1] == 'x' || p[1] == 'X'))\n\t\t\tp += 2;\n\t}"))
mut("hex-signed-body", "grammar",
    "accepts a sign after 0x (0x+10, 0x-0), as strtoull(body, 16) does",
    "strided 0x+10 1\n",
    (HEXPFX, "\t\tbase = 16;\n\t\tp += 2;\n\t\tif (p < end && (*p == '+' || "
     "*p == '-')) {\n\t\t\tneg ^= *p == '-';\n\t\t\tp++;\n\t\t}\n\t}"))
mut("dec-digit-limit", "grammar",
    "rejects decimal numbers of more than 15 digits, leading zeros included",
    "strided 0000000000000001 1\n",
    (EMPTY, "\tif (base == 10 && end - p > 15)\n\t\treturn -1;\n" + EMPTY))
mut("hex-digit-limit", "grammar",
    "rejects hex numbers of more than 12 digits, leading zeros included",
    "strided 0x0000000000001 1\n",
    (EMPTY, "\tif (base == 16 && end - p > 12)\n\t\treturn -1;\n" + EMPTY))
mut("magnitude-inclusive", "grammar", "accepts a magnitude of exactly 2^48",
    "strided 281474976710656 1\n",
    ("\t\tif (v >= LEX_MAX_MAGNITUDE)", "\t\tif (v > LEX_MAX_MAGNITUDE)"))
mut("magnitude-excludes-max", "grammar", "rejects 2^48-1 (limit off by one)",
    "strided 281474976710655 1\n",
    ("#define LEX_MAX_MAGNITUDE ((int64_t)1 << 48)",
     "#define LEX_MAX_MAGNITUDE (((int64_t)1 << 48) - 1)"))
mut("magnitude-checked-at-end", "grammar",
    "checks the magnitude after the loop, so huge values wrap around",
    "strided 18446744073709551617 1\n",
    (STEP, "\t\tv = (int64_t)((uint64_t)v * (uint64_t)base + (uint64_t)d);"),
    (NEGSTORE, "\tif (v < 0 || v >= LEX_MAX_MAGNITUDE)\n\t\treturn -1;\n" +
     NEGSTORE))
mut("bare-0x-is-zero", "grammar", "reads 0x with no digits as 0",
    "strided 0x 1\n",
    (EMPTY, "\tif (p == end && base == 10)\n\t\treturn -1;\n\t/* v stays"))
mut("bare-minus-is-zero", "grammar", "reads a lone - as 0",
    "strided - 1\n",
    (EMPTY, "\tif (p == end && !(neg && base == 10))\n\t\treturn -1;\n"
     "\t/* v stays"))
mut("trailing-garbage", "grammar", "stops at the first non-digit, like atoi",
    "strided 12abc 1\n",
    (DIGIT_BAD, "\t\tif (d < 0)\n\t\t\tbreak;"))
mut("decimal-point", "grammar", "accepts 4.0 (the part after '.' dropped)",
    "strided 4.0 1\n",
    (DIGIT_BAD, "\t\tif (d < 0 && *p == '.' && base == 10)\n\t\t\tbreak;\n" +
     DIGIT_BAD))
mut("hex-digits-in-decimal", "grammar", "accepts a-f digits in decimal",
    "strided 1a 1\n",
    ("return d < base ? d : -1;", "return d;"))
mut("minus-not-a-number", "grammar", "treats any '-' as not a number",
    "active 1\ngather 4 -1\n",
    ("\tif (p < end && *p == '-') {\n\t\tneg = 1;",
     "\tif (p < end && *p == '-') {\n\t\treturn -1;\n\t\tneg = 1;"))
mut("neg-magnitude-inclusive", "grammar", "accepts -2^48 (the negative limit "
    "off by one)", "active 1\ngather 4 -281474976710656\n",
    ("\t\tif (v >= LEX_MAX_MAGNITUDE)",
     "\t\tif (v > LEX_MAX_MAGNITUDE || (v == LEX_MAX_MAGNITUDE && !neg))"))
mut("parse-32bit", "grammar", "accumulates numbers in 32 bits, so they wrap",
    "strided 4294967297 1\n",
    ("\tint neg = 0, base = 10;\n\tint64_t v = 0;",
     "\tint neg = 0, base = 10;\n\tuint32_t v = 0;"))
mut("neg-zero-negative-gather", "grammar",
    "calls a gather address negative when its text starts with '-' (-0)",
    "active 1\ngather 4 -0\n",
    (GSIGN, "\t\tif (addr < 0 || c->arg[i].p[0] == '-')\n\t\t\tnegative = 1;"))
mut("neg-zero-out-of-range", "grammar",
    "range checks reject any value written with '-', -0 included",
    "strided -0 1\n",
    ("if (lex_number(&c->arg[i], &v[i]) < 0 || v[i] < lo[i] ||",
     "if (lex_number(&c->arg[i], &v[i]) < 0 || v[i] < lo[i] ||\n"
     "\t\t    (c->arg[i].p[0] == '-' && lo[i] >= 0) ||"))

# ---- lines
mut("cr-only-at-end", "lines",
    "strips CRs at the end of the line but does not separate tokens by CR",
    "strided\r0 1\n",
    (SEP, "return c == ' ' || c == '\\t' || c == '\\v' || c == '\\f';"),
    (MAIN_NL, MAIN_NL + "\n\t\twhile (len && line[len - 1] == '\\r')\n"
     "\t\t\tlen--;"))
mut("cr-ends-line", "lines", "treats a CR as the end of the line",
    "strided 0 1\r16\n",
    (MAIN_NL, MAIN_NL + "\n\t\tchar *cr = memchr(line, '\\r', len);\n"
     "\t\tif (cr)\n\t\t\tlen = (size_t)(cr - line);"))
mut("tab-not-blank", "lines", "does not separate tokens by tab",
    "strided\t0 1\n",
    (SEP, "return c == ' ' || c == '\\r' || c == '\\v' || c == '\\f';"))
mut("vt-not-blank", "lines", "does not separate tokens by VT",
    "strided\v0 1\n",
    (SEP, "return c == ' ' || c == '\\t' || c == '\\r' || c == '\\f';"))
mut("ff-not-blank", "lines", "does not separate tokens by FF",
    "strided\f0 1\n",
    (SEP, "return c == ' ' || c == '\\t' || c == '\\r' || c == '\\v';"))
mut("control-chars-blank", "lines",
    "separates tokens by every control character (c <= ' ')",
    "strided 0\x01 1\n",
    (SEP, "return c <= ' ';"))
mut("comment-at-start-only", "lines",
    "'#' starts a comment only as the line's first token",
    "strided 0 1 # x\n",
    ("\twhile (i < len && line[i] != '#') {",
     "\twhile (i < len && (t->n > 0 || line[i] != '#')) {"),
    ("\t\twhile (i < len && line[i] != '#' && !is_sep((unsigned char)line[i]))",
     "\t\twhile (i < len && (t->n > 0 || line[i] != '#') && "
     "!is_sep((unsigned char)line[i]))"))
mut("blank-line-error", "lines",
    "a line of blanks (not empty, no comment) is an unknown command",
    " \n",
    ("\tif (st->toks.n == 0)\n\t\treturn 0;",
     "\tif (st->toks.n == 0) {\n\t\tif (len && memchr(line, '#', len) == NULL)\n"
     "\t\t\tout_str(&st->out, \"error: unknown command \\n\");\n"
     "\t\treturn 0;\n\t}"))
mut("last-line-chopped", "lines",
    "drops the last byte of every line, newline or not",
    "strided 0 1 16",
    (MAIN_NL, "\t\tif (len)\n\t\t\tlen--;"))
mut("empty-line-ends-input", "lines", "stops reading at the first empty line",
    "\nstrided 0 1\n",
    (MAIN_NL, MAIN_NL + "\n\t\tif (len == 0)\n\t\t\tbreak;"))
mut("fgets-64k", "lines", "reads lines with fgets into a 64 KiB buffer",
    long_line(70000), fgets_edit(65536))
mut("fgets-128k", "lines", "reads lines with fgets into a 128 KiB buffer",
    long_line(140000), fgets_edit(131072))
mut("fgets-1m", "lines", "reads lines with fgets into a 1 MiB buffer",
    long_line((1 << 20) + 4096), fgets_edit(1 << 20))

# ---- args
mut("strided-size-0-ok", "args", "accepts SIZE 0", "strided 0 1 0\n",
    (STRIDED_RANGE, "lo[] = { 0, 0, 0 }, hi[] = { ANY, ANY, 16 };"))
mut("strided-size-17-ok", "args", "accepts SIZE 17", "strided 0 1 17\n",
    (STRIDED_RANGE, "lo[] = { 0, 0, 1 }, hi[] = { ANY, ANY, 17 };"))
mut("strided-size-max-8", "args", "limits SIZE to 8", "strided 0 1 16\n",
    (STRIDED_RANGE, "lo[] = { 0, 0, 1 }, hi[] = { ANY, ANY, 8 };"))
mut("strided-neg-stride-ok", "args",
    "accepts a negative STRIDE (valid while addresses stay >= 0)",
    "active 1\nstrided 0 -1\n",
    (STRIDED_RANGE, "lo[] = { 0, -ANY, 1 }, hi[] = { ANY, ANY, 16 };"))
mut("strided-neg-base-ok", "args", "accepts a negative BASE",
    "strided -1 1\n",
    (STRIDED_RANGE, "lo[] = { -ANY, 0, 1 }, hi[] = { ANY, ANY, 16 };"))
mut("strided-4-args-ok", "args", "ignores a fourth strided argument",
    "strided 0 1 4 4\n",
    ("\t{ \"strided\", 2, 3,", "\t{ \"strided\", 2, 4,"),
    ("\tint64_t v[3] = { 0, 0, 4 };",
     "\tint64_t v[3] = { 0, 0, 4 };\n\n\tif (c->argc > 3)\n\t\tc->argc = 3;"))
mut("strided-needs-size", "args", "requires SIZE (3 arguments)",
    "strided 0 1\n",
    ("\t{ \"strided\", 2, 3,", "\t{ \"strided\", 3, 3,"))
mut("strided-default-size-1", "args", "SIZE defaults to 1, not 4",
    "strided 0 1\n",
    ("\tint64_t v[3] = { 0, 0, 4 };", "\tint64_t v[3] = { 0, 0, 1 };"))
mut("aos-fit-strict", "args", "requires OFFSET + FIELD < STRUCT (strictly)",
    "aos 4 0 4\n",
    (FIT, "if (parse_args(c, v, lo, hi) < 0 || v[1] + v[2] >= v[0]) {"))
mut("aos-fit-unsigned-sub", "args",
    "checks the fit as STRUCT - FIELD < OFFSET in unsigned arithmetic",
    "aos 4 0 8\n",
    (FIT, "if (parse_args(c, v, lo, hi) < 0 ||\n\t    (uint64_t)(v[0] - v[2]) < "
     "(uint64_t)v[1]) {"))
mut("aos-offset-only", "args", "checks only OFFSET < STRUCT", "aos 4 2 4\n",
    (FIT, "if (parse_args(c, v, lo, hi) < 0 || v[1] >= v[0]) {"))
mut("aos-field-0-ok", "args", "accepts FIELD_SIZE 0", "aos 4 0 0\n",
    (AOS_RANGE, "lo[] = { 1, 0, 0 }, hi[] = { ANY, ANY, ANY };"))
mut("aos-neg-offset-ok", "args", "accepts a negative FIELD_OFFSET",
    "aos 8 -4 4\n",
    (AOS_RANGE, "lo[] = { 1, -ANY, 1 }, hi[] = { ANY, ANY, ANY };"))
mut("shared-neg-stride-ok", "args",
    "accepts a negative STRIDE_WORDS (valid while words stay >= 0)",
    "active 1\nshared 0 -1\n",
    (SHARED_RANGE, "lo[] = { 0, -ANY }, hi[] = { ANY, ANY };"))
mut("shared-neg-base-ok", "args", "accepts a negative BASE_WORD",
    "shared -1 0\n",
    (SHARED_RANGE, "lo[] = { -ANY, 0 }, hi[] = { ANY, ANY };"))
mut("shared-3-args-ok", "args", "ignores a third shared argument",
    "shared 0 1 2\n",
    ("\t{ \"shared\", 2, 2,", "\t{ \"shared\", 2, 3,"),
    ("static const int64_t " + SHARED_RANGE + "\n\tint64_t v[2];",
     "static const int64_t lo[] = { 0, 0, 0 }, hi[] = { ANY, ANY, ANY };\n"
     "\tint64_t v[3];"))
mut("transpose-tile-65-ok", "args", "accepts TILE 65", "transpose 65 0\n",
    (TRANSPOSE_RANGE, "lo[] = { 1, 0 }, hi[] = { 65, 8 };"))
mut("transpose-tile-max-32", "args", "limits TILE to 32", "transpose 64 0\n",
    (TRANSPOSE_RANGE, "lo[] = { 1, 0 }, hi[] = { 32, 8 };"))
mut("transpose-tile-0-ok", "args", "accepts TILE 0 (and divides by it)",
    "transpose 0 0\n",
    (TRANSPOSE_RANGE, "lo[] = { 0, 0 }, hi[] = { 64, 8 };"))
mut("transpose-pad-max-7", "args", "limits PAD to 7", "transpose 32 8\n",
    (TRANSPOSE_RANGE, "lo[] = { 1, 0 }, hi[] = { 64, 7 };"))
mut("transpose-neg-pad-ok", "args", "accepts a negative PAD",
    "transpose 32 -1\n",
    (TRANSPOSE_RANGE, "lo[] = { 1, -8 }, hi[] = { 64, 8 };"))
mut("transpose-default-pad", "args", "takes PAD as optional (default 0)",
    "transpose 32\n",
    ("\t{ \"transpose\", 2, 2,", "\t{ \"transpose\", 1, 2,"),
    ("static const int64_t " + TRANSPOSE_RANGE + "\n\tint64_t v[2];",
     "static const int64_t " + TRANSPOSE_RANGE + "\n\tint64_t v[2] = { 0, 0 };"))
mut("active-max-31", "args", "limits active to 1-31",
    "active 5\nactive 32\nstrided 0 1\n",
    ("hi[] = { MODEL_WARP };", "hi[] = { MODEL_WARP - 1 };"))
mut("active-0-ok", "args", "accepts active 0", "active 0\nshared 0 1\n",
    ("lo[] = { 1 }, hi[] = { MODEL_WARP };", "lo[] = { 0 }, hi[] = { MODEL_WARP };"))
mut("gather-size-0-ok", "args", "accepts gather SIZE 0",
    "active 1\ngather 0 0\n",
    (GSIZE, GSIZE.replace("size < 1", "size < 0")))
mut("gather-size-17-ok", "args", "accepts gather SIZE 17",
    "active 1\ngather 17 0\n",
    (GSIZE, GSIZE.replace("size > 16", "size > 17")))
mut("cmd-prefix-match", "args",
    "matches a command by the token's length (strncmp): 'stride' is strided",
    "stride 0 1\n",
    ("if (strlen(cmd_table[i].name) == name->n &&",
     "if (strlen(cmd_table[i].name) >= name->n &&"))
mut("cmd-ignores-suffix", "args",
    "matches a command by the name's length: 'stridedx' is strided",
    "stridedx 0 1\n",
    ("if (strlen(cmd_table[i].name) == name->n &&\n"
     "\t\t    memcmp(cmd_table[i].name, name->p, name->n) == 0)",
     "if (strlen(cmd_table[i].name) <= name->n &&\n"
     "\t\t    memcmp(cmd_table[i].name, name->p, strlen(cmd_table[i].name)) == 0)"))

# ---- precedence
mut("gather-size-after-count", "precedence",
    "checks gather's SIZE range after the address count",
    "active 1\ngather 17 0 0\n",
    (GSIZE, "\tif (lex_number(&c->arg[0], &size) < 0)\n\t\tgoto usage;"),
    ("\tif (negative) {", "\tif (size < 1 || size > 16)\n\t\tgoto usage;\n"
     "\tif (negative) {"))
mut("gather-magnitude-after-count", "precedence",
    "an address of 2^48 or more is reported after the address count",
    "active 1\ngather 4 281474976710656 0\n",
    ("\t\tif (lex_number(&c->arg[i], &addr) < 0)\n\t\t\tgoto usage;",
     "\t\tif (lex_number(&c->arg[i], &addr) < 0) {\n"
     "\t\t\tsize_t k = 0;\n\t\t\tconst char *q = c->arg[i].p;\n"
     "\t\t\tif (k < c->arg[i].n && q[k] == '-')\n\t\t\t\tk++;\n"
     "\t\t\tif (k == c->arg[i].n)\n\t\t\t\tgoto usage;\n"
     "\t\t\twhile (k < c->arg[i].n && q[k] >= '0' && q[k] <= '9')\n"
     "\t\t\t\tk++;\n\t\t\tif (k < c->arg[i].n)\n\t\t\t\tgoto usage;\n"
     "\t\t\tbig = 1;\n\t\t\tcontinue;\n\t\t}"),
    ("\tint negative = 0;", "\tint negative = 0, big = 0;"),
    ("\tif (negative) {", "\tif (big)\n\t\tgoto usage;\n\tif (negative) {"))
mut("gather-tokens-after-count", "precedence",
    "checks the address count before the addresses are parsed",
    "active 1\ngather 4 x 0\n",
    ("\tfor (size_t i = 1; i < c->argc; i++) {\n\t\tif (lex_number(&c->arg[i], &addr)",
     COUNT_BLOCK + "\tfor (size_t i = 1; i < c->argc; i++) {\n"
     "\t\tif (lex_number(&c->arg[i], &addr)"))
mut("gather-sign-stops-parse", "precedence",
    "reports a negative address as soon as it is read",
    "active 2\ngather 4 -1 x\n",
    (GSIGN, "\t\tif (addr < 0) {\n\t\t\tout_error(c, \"gather: addresses must "
     "be >= 0\");\n\t\t\treturn;\n\t\t}"))
mut("gather-sign-first-addr-only", "precedence",
    "checks only the first address's sign", "active 2\ngather 4 0 -4\n",
    (GSIGN, "\t\tif (addr < 0 && i == 1)\n\t\t\tnegative = 1;"))

# ---- labels
mut("thread-always-plural", "labels", "prints '1 threads' in global loads",
    "active 1\nstrided 0 1\n",
    ("\tout_count(o, n, \"thread\");", "\tout_u64(o, n);\n\tout_str(o, \" threads\");"))
mut("sector-always-plural", "labels", "prints '1 sectors'", "strided 0 0\n",
    ("\tout_count(o, cov.sectors, \"sector\");",
     "\tout_u64(o, cov.sectors);\n\tout_str(o, \" sectors\");"))
mut("line-always-plural", "labels", "prints '1 lines'", "strided 0 1\n",
    ("\tout_count(o, cov.lines, \"line\");",
     "\tout_u64(o, cov.lines);\n\tout_str(o, \" lines\");"))
mut("bank-thread-always-plural", "labels",
    "prints '1 threads' in shared loads", "active 1\nshared 0 1\n",
    ("\tout_count(o, (uint64_t)c->st->active, \"thread\");",
     "\tout_u64(o, (uint64_t)c->st->active);\n\tout_str(o, \" threads\");"))
mut("pass-plural", "labels", "prints '1 passes, no conflict'", "shared 0 1\n",
    ("\", 1 pass, no conflict\\n\"", "\", 1 passes, no conflict\\n\""))
mut("need-address-plural", "labels", "prints 'need 1 addresses'",
    "active 1\ngather 4\n",
    ("c->st->active == 1 ? \" address\\n\" : \" addresses\\n\"",
     "\" addresses\\n\""))
mut("size-label-omitted", "labels", "omits size= when SIZE is not given",
    "strided 0 1\n",
    ("\tlabel_kv(&c->st->out, \" size=\", v[2]);",
     "\tif (c->argc == 3)\n\t\tlabel_kv(&c->st->out, \" size=\", v[2]);"))
mut("label-echo-token", "labels",
    "prints strided's BASE as written (0x10, 007, -0), not in decimal",
    "strided 0x10 1\n",
    ("\tlabel_kv(&c->st->out, \"strided base=\", v[0]);",
     "\tout_str(&c->st->out, \"strided base=\");\n"
     "\tout_bytes(&c->st->out, c->arg[0].p, c->arg[0].n);"))
mut("gather-label-echo", "labels", "prints gather's SIZE as written",
    "active 1\ngather 0x4 0\n",
    ("\tlabel_kv(&c->st->out, \"gather size=\", size);",
     "\tout_str(&c->st->out, \"gather size=\");\n"
     "\tout_bytes(&c->st->out, c->arg[0].p, c->arg[0].n);"))
mut("soa-label-struct", "labels", "prints the struct size in the soa label",
    "aos 12 4 4\n",
    ("label_kv(o, \"soa field=\", v[2]);", "label_kv(o, \"soa field=\", v[0]);"))
mut("aos-label-swapped", "labels", "swaps offset= and field= in the label",
    "aos 12 0 4\n",
    ("\tlabel_kv(o, \" offset=\", v[1]);\n\tlabel_kv(o, \" field=\", v[2]);",
     "\tlabel_kv(o, \" offset=\", v[2]);\n\tlabel_kv(o, \" field=\", v[1]);"))
mut("unknown-name-15", "labels",
    "prints at most 15 bytes of an unknown command (a char[16])",
    "abcdefghijklmnopqrstuvwxyz\n",
    ("\t\tout_bytes(&st->out, name->p, name->n);",
     "\t\tout_bytes(&st->out, name->p, name->n < 15 ? name->n : 15);"))
mut("unknown-name-255", "labels",
    "prints at most 255 bytes of an unknown command (a char[256])",
    "x" * 300 + "\n",
    ("\t\tout_bytes(&st->out, name->p, name->n);",
     "\t\tout_bytes(&st->out, name->p, name->n < 255 ? name->n : 255);"))
mut("efficiency-no-zero-decimal", "labels",
    "prints 100% instead of 100.0% (the decimal only when not 0, like %g)",
    "strided 0 1\n",
    ("\tout_u64(o, eff / 10);\n\tout_str(o, \".\");\n\tout_u64(o, eff % 10);",
     "\tout_u64(o, eff / 10);\n\tif (eff % 10) {\n\t\tout_str(o, \".\");\n"
     "\t\tout_u64(o, eff % 10);\n\t}"))
mut("errors-to-stderr", "labels", "writes usage errors to stderr",
    "active 0\n",
    ("static void out_error(struct cmd_ctx *c, const char *text)\n{\n",
     "static void out_error(struct cmd_ctx *c, const char *text)\n{\n"
     "\tfprintf(stderr, \"error: %s\\n\", text);\n\treturn;\n"))
mut("moved-in-sectors", "labels", "prints moved as the sector count",
    "strided 0 1\n",
    ("\tout_u64(o, moved);", "\tout_u64(o, cov.sectors);"))
mut("requested-per-thread", "labels", "prints requested as the size of one "
    "thread's read", "strided 0 1\n",
    ("\tout_u64(o, requested);", "\tout_u64(o, size);"))
mut("way-off-by-one", "labels", "prints (P-1)-way for P passes",
    "shared 0 2\n",
    ("\tout_str(o, \" passes, \");\n\tout_u64(o, b.passes);",
     "\tout_str(o, \" passes, \");\n\tout_u64(o, b.passes - 1);"))

# ---- active
mut("active-one-shot", "active", "active applies to the next command only",
    "active 2\nstrided 0 1\nstrided 0 1\n",
    ("\t} else {\n\t\trow->handler(&c);\n\t}",
     "\t} else {\n\t\trow->handler(&c);\n\t\tif (row->handler != cmd_active)\n"
     "\t\t\tst->active = MODEL_WARP;\n\t}"))
mut("active-failed-resets", "active", "a failed active resets the count to 32",
    "active 4\nactive 0\nstrided 0 1\n",
    ("\tif (parse_args(c, v, lo, hi) < 0) {\n\t\tout_usage(c);\n\t\treturn;\n"
     "\t}\n\tc->st->active = (int)v[0];",
     "\tif (parse_args(c, v, lo, hi) < 0) {\n\t\tc->st->active = MODEL_WARP;\n"
     "\t\tout_usage(c);\n\t\treturn;\n\t}\n\tc->st->active = (int)v[0];"))
mut("active-extra-args-sets", "active",
    "active N M prints the usage line but still sets N",
    "active 8 8\nstrided 0 1\n",
    ("\t} else if (c.argc < row->min_args || c.argc > row->max_args) {\n",
     "\t} else if (c.argc < row->min_args || c.argc > row->max_args) {\n"
     "\t\tint64_t x;\n\t\tif (row->handler == cmd_active && c.argc > 1 &&\n"
     "\t\t    lex_number(&c.arg[0], &x) == 0 && x >= 1 && x <= 32)\n"
     "\t\t\tst->active = (int)x;\n"))
mut("banks-ignore-active", "active",
    "shared and transpose count all 32 threads' words",
    "active 4\nshared 0 32\n",
    ("\tfor (int t = 0; t < c->st->active; t++)\n\t\tw[t] = (uint64_t)v[0]",
     "\tfor (int t = 0; t < MODEL_WARP; t++)\n\t\tw[t] = (uint64_t)v[0]"),
    ("\tfor (int t = 0; t < c->st->active; t++)\n\t\tw[t] = (uint64_t)(t % v[0])",
     "\tfor (int t = 0; t < MODEL_WARP; t++)\n\t\tw[t] = (uint64_t)(t % v[0])"),
    ("model_bank_conflicts(words, c->st->active)",
     "model_bank_conflicts(words, MODEL_WARP)"))
mut("soa-ignores-active", "active", "the soa line always uses 32 threads",
    "active 4\naos 12 4 4\n",
    ("\tfor (int t = 0; t < c->st->active; t++)\n\t\tr[t].start = (uint64_t)t * v[2];\n"
     "\tlabel_kv(o, \"soa field=\", v[2]);\n\treport_global(c, r, (uint64_t)v[2]);",
     "\tint keep = c->st->active;\n\tc->st->active = MODEL_WARP;\n"
     "\tfor (int t = 0; t < MODEL_WARP; t++)\n"
     "\t\tr[t] = (struct model_range){ (uint64_t)t * v[2], (uint64_t)v[2] };\n"
     "\tlabel_kv(o, \"soa field=\", v[2]);\n\treport_global(c, r, (uint64_t)v[2]);\n"
     "\tc->st->active = keep;"))
mut("gather-needs-32", "active", "gather always wants 32 addresses",
    "active 1\ngather 4 0\n",
    (GCOUNT, "\tif (c->argc - 1 != MODEL_WARP) {"))
mut("requested-full-warp", "active", "requested counts all 32 threads",
    "active 4\nstrided 0 1\n",
    ("uint64_t requested = n * size,", "uint64_t requested = MODEL_WARP * size,"))

# ---- union
mut("union-unsorted", "union", "merges the ranges without sorting them",
    "active 2\ngather 4 128 0\n",
    ("\tsort_by_start(r, n);\n\t/* Both", "\t/* Both"))
mut("union-sort-low-32-bits", "union",
    "sorts the ranges by the low 32 bits of their start",
    "active 2\ngather 4 4294967296 4\n",
    ("if (r[i - 1].start <= r[i].start)",
     "if ((uint32_t)r[i - 1].start <= (uint32_t)r[i].start)"),
    ("} while (j > 0 && r[j - 1].start > x.start);",
     "} while (j > 0 && (uint32_t)r[j - 1].start > (uint32_t)x.start);"))
mut("union-sort-descending", "union",
    "sorts the ranges in descending order, then merges as if ascending",
    "active 2\ngather 4 0 128\n",
    ("if (r[i - 1].start <= r[i].start)", "if (r[i - 1].start >= r[i].start)"),
    ("} while (j > 0 && r[j - 1].start > x.start);",
     "} while (j > 0 && r[j - 1].start < x.start);"))
mut("union-shared-edge-twice", "union",
    "a range starting in the previous run's last sector starts a new run",
    "active 2\nstrided 0 1 2\n",
    ("\tif (lo > s->hi) {", "\tif (lo >= s->hi) {"))
mut("union-no-extend", "union", "never extends a run by an overlapping range",
    "active 2\ngather 16 0 24\n",
    ("\t} else if (hi > s->hi) {\n\t\ts->hi = hi;\n\t}", "\t}"))
mut("union-last-off-by-one", "union",
    "takes start + len, not start + len - 1, as a range's last byte",
    "active 1\nstrided 28 0\n",
    (LAST, "uint64_t first = r[i].start, last = r[i].start + r[i].len;"))
mut("sectors-per-thread-sum", "union",
    "adds up each thread's own sectors (no sharing between threads)",
    "strided 0 1\n",
    ("\t\tspan_add(&sec, first >> MODEL_SECTOR_SHIFT, last >> MODEL_SECTOR_SHIFT);",
     "\t\tsec.total += (last >> MODEL_SECTOR_SHIFT) - (first >> "
     "MODEL_SECTOR_SHIFT) + 1;"))
mut("sectors-from-lines", "union", "takes sectors as 4 per line",
    "strided 0 32\n",
    ("\treturn (struct model_coverage){ sec.total + sec.hi - sec.lo + 1,",
     "\treturn (struct model_coverage){ 4 * (line.total + line.hi - line.lo + 1),"))
mut("sectors-from-span", "union",
    "counts every sector from the first to the last, gaps included",
    "strided 0 16\n",
    ("\treturn (struct model_coverage){ sec.total + sec.hi - sec.lo + 1,",
     "\treturn (struct model_coverage){ sec.hi - (r[0].start >> "
     "MODEL_SECTOR_SHIFT) + 1,"))
mut("soa-keeps-offset", "union", "the soa load starts at FIELD_OFFSET",
    "aos 12 4 4\n",
    ("\t\tr[t].start = (uint64_t)t * v[2];",
     "\t\tr[t].start = (uint64_t)t * v[2] + v[1];"))
mut("soa-struct-stride", "union", "the soa load strides by STRUCT_SIZE",
    "aos 12 4 4\n",
    ("\t\tr[t].start = (uint64_t)t * v[2];",
     "\t\tr[t].start = (uint64_t)t * v[0];"))
mut("stride-times-4", "union", "multiplies the stride by 4, not by SIZE",
    "strided 0 1 8\n",
    (STRIDED_START, "r[t].start = (uint64_t)v[0] + (uint64_t)t * v[1] * 4;"))
mut("gather-ignores-size", "union", "each gather thread reads 4 bytes",
    "active 1\ngather 16 24\n",
    ("\t\t\t\t\t\t\t (uint64_t)size };", "\t\t\t\t\t\t\t 4 };"))
mut("moved-from-lines", "union", "moved = lines x 128", "strided 4 1\n",
    ("moved = cov.sectors * MODEL_SECTOR;", "moved = cov.lines * MODEL_LINE;"))

# ---- rounding
mut("round-two-step", "rounding",
    "rounds half up to hundredths, then that to tenths",
    "active 5\naos 33 22 11\n",
    ("for (int digit = 0; digit < 3; digit++) {",
     "for (int digit = 0; digit < 4; digit++) {"),
    (EFF_ROUND + "\n\treturn q;", EFF_ROUND + "\n\treturn (q + 5) / 10;"))
mut("round-half-down", "rounding", "rounds ties down",
    "active 1\nstrided 0 1 2\n",
    (EFF_ROUND, "\tif (rem > moved - rem)\n\t\tq++;"))
mut("round-half-even", "rounding", "rounds ties to even",
    "active 1\nstrided 0 1 2\n",
    (EFF_ROUND, "\tif (rem > moved - rem || (rem == moved - rem && q % 2))\n"
     "\t\tq++;"))
mut("round-up", "rounding", "rounds every remainder up (ceiling)",
    "aos 12 4 4\n",
    (EFF_ROUND, "\tif (rem)\n\t\tq++;"))

# ---- limits
mut("stride-product-32bit", "limits",
    "computes t * STRIDE * SIZE in 32 bits", "strided 0 134217728\n",
    (STRIDED_START,
     "r[t].start = (uint64_t)v[0] + (uint32_t)(t * v[1] * v[2]);"))
mut("requested-32bit", "limits", "keeps requested in 32 bits",
    "aos 4294967296 0 4294967296\n",
    ("uint64_t requested = n * size,", "uint64_t requested = (uint32_t)(n * size),"))
mut("moved-32bit", "limits", "keeps moved in 32 bits", HUGE_AOS,
    ("moved = cov.sectors * MODEL_SECTOR;",
     "moved = (uint32_t)(cov.sectors * MODEL_SECTOR);"))
mut("words-32bit", "limits", "keeps shared word indices in 32 bits",
    "shared 0 4294967296\n",
    ("\t\tw[t] = (uint64_t)v[0] + (uint64_t)t * v[1];",
     "\t\tw[t] = (uint32_t)((uint64_t)v[0] + (uint64_t)t * v[1]);"))
mut("label-32bit", "limits", "prints label values in 32 bits",
    "strided 4294967296 1\n",
    ("\tout_u64(o, (uint64_t)v);", "\tout_u64(o, (uint32_t)v);"))
mut("sector-index-32bit", "limits", "keeps sector indices in 32 bits",
    "active 2\ngather 4 0 137438953472\n",
    ("\t\tspan_add(&sec, first >> MODEL_SECTOR_SHIFT, last >> MODEL_SECTOR_SHIFT);",
     "\t\tspan_add(&sec, (uint32_t)(first >> MODEL_SECTOR_SHIFT),\n"
     "\t\t\t (uint32_t)(last >> MODEL_SECTOR_SHIFT));"))

# ---- banks
mut("banks-16", "banks", "uses 16 banks", "shared 0 16\n",
    ("(unsigned)(words[i] % MODEL_BANKS)", "(unsigned)(words[i] % 16)"))
mut("bank-from-bytes", "banks", "takes the bank of the word's byte address",
    "shared 0 1\n",
    ("(unsigned)(words[i] % MODEL_BANKS)",
     "(unsigned)((words[i] * 4) % MODEL_BANKS)"))
mut("transpose-pad-ignored", "banks", "ignores PAD in the row length",
    "transpose 32 1\n",
    ("(uint64_t)(v[0] + v[1]) +", "(uint64_t)v[0] +"))
mut("transpose-pad-twice", "banks", "adds PAD twice to the row length",
    "transpose 32 1\n",
    ("(uint64_t)(v[0] + v[1]) +", "(uint64_t)(v[0] + 2 * v[1]) +"))
mut("transpose-x-mod-32", "banks", "takes x = t mod 32, not t mod TILE",
    "transpose 1 0\n",
    ("w[t] = (uint64_t)(t % v[0]) *", "w[t] = (uint64_t)(t % MODEL_WARP) *"))
mut("worst-bank-first-thread", "banks",
    "reports thread 0's bank as the worst", "shared 3 2\n",
    ("\t\t\tb.bank = k;\n\t\t}\n\treturn b;",
     "\t\t\tb.bank = k;\n\t\t}\n\tb.bank = (unsigned)(words[0] % MODEL_BANKS);\n"
     "\treturn b;"))
mut("banks-gcd-formula", "banks",
    "shared passes = gcd(STRIDE, 32), right for full warps only",
    "active 4\nshared 0 32\n",
    ("\tlabel_kv(&c->st->out, \" stride=\", v[1]);\n\treport_banks(c, w);",
     "\tlabel_kv(&c->st->out, \" stride=\", v[1]);\n"
     "\tuint64_t g = 1, a = 32, bb = (uint64_t)v[1] % 32;\n"
     "\tif (v[1] != 0) {\n\t\twhile (bb) {\n\t\t\tuint64_t tt = a % bb;\n"
     "\t\t\ta = bb;\n\t\t\tbb = tt;\n\t\t}\n\t\tg = a;\n\t}\n"
     "\tstruct cmd_out *o = &c->st->out;\n\tout_str(o, \": \");\n"
     "\tout_count(o, (uint64_t)c->st->active, \"thread\");\n"
     "\tif (g == 1) {\n\t\tout_str(o, \", 1 pass, no conflict\\n\");\n"
     "\t\treturn;\n\t}\n\tout_str(o, \", \");\n\tout_u64(o, g);\n"
     "\tout_str(o, \" passes, \");\n\tout_u64(o, g);\n"
     "\tout_str(o, \"-way conflict on bank \");\n"
     "\tout_u64(o, (uint64_t)v[0] % g);\n\tout_str(o, \"\\n\");"))

# ---- issue 18: the classes the hidden suite once missed (scale, speed,
# every byte of a long line, ties that depend on the order of operations,
# orders of ranges). Their witnesses stay small, but for the quadratic
# trimming's 1.5 MiB of blanks (the time it must waste).
SORT_TEST = "\t\tif (r[i - 1].start <= r[i].start)"
SORT_SHIFT = "\t\t} while (j > 0 && r[j - 1].start > x.start);"
SPAN_MAX = "\t} else if (hi > s->hi) {"
EFF_BODY = "\tuint64_t q = requested / moved, rem = requested % moved;"
mut("union-sector-start-no-max", "union",
    "sorts the ranges by their first sector only and extends a run to the "
    "last range's end, not the largest",
    "active 2\ngather 16 24 0\n",
    (SORT_TEST, "\t\tif (r[i - 1].start >> MODEL_SECTOR_SHIFT <= "
     "r[i].start >> MODEL_SECTOR_SHIFT)"),
    (SORT_SHIFT, "\t\t} while (j > 0 && r[j - 1].start >> MODEL_SECTOR_SHIFT "
     "> x.start >> MODEL_SECTOR_SHIFT);"),
    (SPAN_MAX, "\t} else {"))
mut("union-sorted-by-end", "union",
    "sorts the ranges by their last sector, then merges as if by the first",
    "active 2\ngather 16 32 24\n",
    (SORT_TEST, "\t\tif ((r[i - 1].start + r[i - 1].len - 1) >> "
     "MODEL_SECTOR_SHIFT <= (r[i].start + r[i].len - 1) >> "
     "MODEL_SECTOR_SHIFT)"),
    (SORT_SHIFT, "\t\t} while (j > 0 && (r[j - 1].start + r[j - 1].len - 1) "
     ">> MODEL_SECTOR_SHIFT > (x.start + x.len - 1) >> "
     "MODEL_SECTOR_SHIFT);"))
mut("double-div-then-mul", "rounding",
    "rounds requested / (double) moved * 1000 + 0.5 (50.75 % prints 50.7)",
    "active 29\nstrided 0 2 14\n",
    (EFF_BODY, "\treturn (uint64_t)((double)requested / (double)moved * 1000 "
     "+ 0.5);\n" + EFF_BODY))
mut("double-percent-times-ten", "rounding",
    "rounds requested / (double) moved * 100 * 10 + 0.5 (63.75 % prints "
    "63.7)",
    "active 17\nstrided 27 1 6\n",
    (EFF_BODY, "\treturn (uint64_t)((double)requested / (double)moved * 100 "
     "* 10 + 0.5);\n" + EFF_BODY))
mut("output-64k", "limits", "writes at most 64 KiB of output, drops the rest",
    "strided 0 1\n" * 700,
    ("\tif (o->len && fwrite(o->buf, 1, o->len, stdout) != o->len)\n"
     "\t\treturn -1;",
     "\tstatic size_t total;\n"
     "\tsize_t keep = total >= 65536 ? 0 : 65536 - total < o->len ?\n"
     "\t\t65536 - total : o->len;\n"
     "\ttotal += keep;\n"
     "\tif (keep && fwrite(o->buf, 1, keep, stdout) != keep)\n"
     "\t\treturn -1;"))
mut("trim-blanks-one-at-a-time", "limits",
    "trims a line's leading blanks one memmove at a time (quadratic)",
    # 1.5 MiB of blanks: 10 s or more of memmove, far past the witness
    # check's 1 s (384 KiB took 0.8-1.5 s here: in L2, and flaky)
    " " * (3 << 19) + "strided 0 1\n",
    (MAIN_NL, MAIN_NL + "\n\t\twhile (len && (line[0] == ' ' || "
     "line[0] == '\\t')) {\n\t\t\tmemmove(line, line + 1, len - 1);\n"
     "\t\t\tlen--;\n\t\t}"))
mut("getline-drops-at-resize", "lines",
    "reads lines into a buffer of 1 KiB that doubles, losing the byte "
    "read when it grows",
    "strided" + " " * (1023 - 3 - 7) + "96 3 16\n",
    ("int main(int argc, char **argv)\n{",
     "static ssize_t read_line(char **line, size_t *cap, FILE *f)\n{\n"
     "\tsize_t n = 0;\n\tint c = EOF;\n\n"
     "\tif (!*line) {\n\t\t*cap = 1024;\n\t\t*line = malloc(*cap);\n\t}\n"
     "\twhile ((c = getc(f)) != EOF) {\n"
     "\t\tif (n + 1 >= *cap) {\n\t\t\t*cap *= 2;\n"
     "\t\t\t*line = realloc(*line, *cap);\n\t\t\tcontinue;\n\t\t}\n"
     "\t\t(*line)[n++] = (char)c;\n\t\tif (c == '\\n')\n\t\t\tbreak;\n\t}\n"
     "\treturn n == 0 && c == EOF ? -1 : (ssize_t)n;\n}\n\n"
     "int main(int argc, char **argv)\n{"),
    ("\twhile ((n = getline(&line, &cap, stdin)) >= 0) {",
     "\twhile ((n = read_line(&line, &cap, stdin)) >= 0) {"))


# ---- student-style bugs, in tests/wrong/student.c
STUDENT = {}


def student(name, family, what, witness, *edits):
    assert name not in MUTATIONS and name not in STUDENT, name
    STUDENT[name] = (what, list(edits))
    META[name] = (family, witness)


PRINT_EFF = ("\tif (2 * r >= moved)\n\t\tq++;\n"
             "\tprintf(\"%llu.%llu%%\\n\", q / 10, q % 10);")
READ_LINE_HEAD = "static char *read_line(void)\n{\n"


def student_fgets(size):
    return (READ_LINE_HEAD,
            READ_LINE_HEAD + "\tstatic char fb[%d];\n\n"
            "\tif (!fgets(fb, sizeof fb, stdin))\n\t\treturn NULL;\n"
            "\tfb[strcspn(fb, \"\\n\")] = '\\0';\n\treturn fb;\n" % size)


student("student-double-pct", "rounding",
        "prints 100.0 * requested / moved with %.1f",
        "active 1\nstrided 0 1 2\n",
        (PRINT_EFF, "\t(void)q;\n\tprintf(\"%.1f%%\\n\", 100.0 * req / moved);"))
student("student-two-step", "rounding",
        "rounds a double to hundredths, then to tenths",
        "active 5\naos 33 22 11\n",
        (PRINT_EFF, "\tdouble x = 100.0 * req / moved;\n"
         "\tlong long h = (long long)floor(x * 100 + 0.5);\n\t(void)q;\n"
         "\tprintf(\"%.1f%%\\n\", floor(h / 10.0 + 0.5) / 10);"))
student("student-fgets-256", "lines", "reads lines with fgets(buf, 256)",
        long_line(300), student_fgets(256))
student("student-fgets-128k", "lines",
        "reads lines with fgets into a static 128 KiB buffer",
        long_line(140000), student_fgets(131072))
student("student-strtoull-hex", "grammar",
        "parses hex bodies with strtoull(s, &end, 16)",
        "strided 0x0x10 1\n",
        ("\t\tfor (; *s; s++) {\n\t\t\tint d = hexval(*s);\n\t\t\tif (d < 0)\n"
         "\t\t\t\treturn 0;\n\t\t\tv = v * 16 + d;\n\t\t\tif (v >= LIMIT)\n"
         "\t\t\t\treturn 0;\n\t\t}",
         "\t\tchar *end;\n\t\terrno = 0;\n"
         "\t\tunsigned long long u = strtoull(s, &end, 16);\n"
         "\t\tif (end == s || *end || errno || u >= LIMIT)\n\t\t\treturn 0;\n"
         "\t\tv = (long long)u;"))
student("student-strtoll-base0", "grammar",
        "parses numbers with strtoll(s, &end, 0): octal, a '+' sign",
        "strided 010 1\n",
        ("static int parse_num(const char *s, long long *out)\n{\n",
         "static int parse_num(const char *s, long long *out)\n{\n"
         "\tchar *end;\n\terrno = 0;\n\tlong long x = strtoll(s, &end, 0);\n"
         "\tif (end == s || *end || errno || x >= LIMIT || x <= -LIMIT)\n"
         "\t\treturn 0;\n\t*out = x;\n\treturn 1;\n"))
student("student-unsigned-fit", "args",
        "checks the aos fit as (unsigned)(STRUCT - FIELD) < OFFSET",
        "aos 4 0 8\n",
        ("v[1] + v[2] > v[0]) {", "(u64)(v[0] - v[2]) < (u64)v[1]) {"))
student("student-name-buf", "labels",
        "copies an unknown command's name into a char[32]",
        "a" * 40 + "\n",
        ("\t\tprintf(\"error: unknown command %s\\n\", tok[0]);",
         "\t\tchar name[32];\n\t\tsnprintf(name, sizeof name, \"%s\", tok[0]);\n"
         "\t\tprintf(\"error: unknown command %s\\n\", name);"))
student("student-walk-sectors", "limits",
        "counts sectors and lines by visiting each one (too slow)",
        HUGE_AOS,
        ("\tu64 total = 0, lo = 0, hi = 0;\n",
         "\tu64 total = 0, lo = 0, hi = 0, last = 0;\n\tint seen = 0;\n\n"
         "\tfor (int i = 0; i < n; i++)\n"
         "\t\tfor (u64 u = r[i].start >> shift;\n"
         "\t\t     u <= (r[i].start + r[i].len - 1) >> shift; u++)\n"
         "\t\t\tif (!seen || u > last) {\n\t\t\t\ttotal++;\n\t\t\t\tlast = u;\n"
         "\t\t\t\tseen = 1;\n\t\t\t}\n\treturn total;\n"))
student("student-sort-int-cmp", "union",
        "sorts with a qsort comparator returning (int)(a - b)",
        "active 2\ngather 4 4294967296 4\n",
        ("\treturn x->start < y->start ? -1 : x->start > y->start;",
         "\treturn (int)(x->start - y->start);"))
student("student-neg-stride", "args",
        "does not check that STRIDE is >= 0",
        "active 1\nstrided 0 -1\n",
        ("v[0] < 0 || v[1] < 0 ||\n\t\t    v[2] < 1", "v[0] < 0 ||\n\t\t    v[2] < 1"))
student("student-cr-strip", "lines",
        "strips a CR at the end of the line; CR is not a separator",
        "strided 0\r1\n",
        ("\tif (c == EOF && n == 0)\n\t\treturn NULL;",
         "\tif (c == EOF && n == 0)\n\t\treturn NULL;\n"
         "\tif (n && buf[n - 1] == '\\r')\n\t\tn--;"),
        ("return c == ' ' || c == '\\t' || c == '\\r' || c == '\\v' || c == '\\f';",
         "return c == ' ' || c == '\\t' || c == '\\v' || c == '\\f';"))

student("student-strtok-blanks", "lines",
        "splits tokens with strtok(line, \" \\t\\r\\n\"): no VT, no FF",
        "strided 0\f1\n",
        ("return c == ' ' || c == '\\t' || c == '\\r' || c == '\\v' || c == '\\f';",
         "return c == ' ' || c == '\\t' || c == '\\r' || c == '\\n';"))
student("student-int-gather", "limits",
        "stores gather addresses in an int",
        "active 2\ngather 4 0 4294967296\n",
        ("\t\t\telse if (i - 2 < 32)\n\t\t\t\tr[i - 2] = (struct rng){ (u64)a, (u64)size };",
         "\t\t\telse if (i - 2 < 32) {\n\t\t\t\tint ia = (int)a;\n"
         "\t\t\t\tr[i - 2] = (struct rng){ (u64)ia, (u64)size };\n\t\t\t}"))
student("student-float-pct", "rounding",
        "prints a float percentage with %.1f",
        "active 1\nstrided 0 1 2\n",
        (PRINT_EFF, "\t(void)q;\n"
         "\tprintf(\"%.1f%%\\n\", (float)req * 100.0f / (float)moved);"))


def base_source(root):
    parts = ["/* A wrong solution: the reference with one bug (see BUG below). */\n"
             "#define _POSIX_C_SOURCE 200809L\n#include <stdio.h>\n"]
    for name in ORDER:
        with open(os.path.join(root, "reference", name)) as f:
            text = f.read()
        text = "".join(l for l in text.splitlines(True)
                       if not l.startswith('#include "reference/'))
        parts.append("/* ---- reference/%s ---- */\n%s" % (name, text))
    return "\n".join(parts)


def apply(name, src, edits):
    for old, new in edits:
        if src.count(old) != 1:
            sys.exit("make-wrong: %s: the text to change is not in its base "
                     "exactly once:\n%s" % (name, old))
        src = src.replace(old, new)
    return src


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    wdir = os.path.join(root, "tests", "wrong")
    ref = base_source(root)
    with open(os.path.join(wdir, "student.c")) as f:
        stu = f.read()
    out = {}
    for name, (what, edits) in MUTATIONS.items():
        src = apply(name, ref, edits)
        out[name] = src.replace("/* A wrong solution: the reference with one "
                                "bug (see BUG below). */",
                                "/* A wrong solution. BUG: %s. */" % what, 1)
    for name, (what, edits) in STUDENT.items():
        src = apply(name, stu, edits)
        out[name] = src.replace("/* A student's solution of the coalescing "
                                "exercise, written from scratch. */",
                                "/* A student's solution. BUG: %s. */" % what, 1)
    index = ["# name\tfamily\tbase\twhat the bug is"]
    for name in sorted(out):
        d = os.path.join(wdir, name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "main.c"), "w") as f:
            f.write(out[name])
        family, witness = META[name]
        with open(os.path.join(d, "witness.in"), "wb") as f:
            f.write(witness.encode("latin-1"))
        what = (MUTATIONS.get(name) or STUDENT[name])[0]
        index.append("%s\t%s\t%s\t%s" % (name, family, "student" if name in
                                         STUDENT else "reference", what))
    for entry in sorted(os.listdir(wdir)):
        if os.path.isfile(os.path.join(wdir, entry, "main.c")) and \
                entry not in out:
            shutil.rmtree(os.path.join(wdir, entry))
    with open(os.path.join(wdir, "INDEX"), "w") as f:
        f.write("\n".join(index) + "\n")


if __name__ == "__main__":
    main()
