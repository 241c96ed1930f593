#!/usr/bin/env python3
"""Writes tests/wrong/<name>/main.c: the reference with one realistic bug.

Usage: python3 tests/wrong/make-wrong.py [REPO_ROOT]

Each wrong solution is the reference (reference/*.h, *.c, concatenated into
one file that builds with `cc -std=c11 -O2 main.c -lm`) with exactly one
mutation, a bug a student could plausibly write. The hidden suite must fail
every one of them (tests/e2e/test_wrong_solutions.sh). The committed files
are snapshots: a mutation that no longer applies to a changed reference
makes this script stop and name it, so it can be updated.
"""
import os
import sys

ORDER = ["lex.h", "model.h", "cmd.h", "lex.c", "model.c", "cmd.c", "main.c"]

# name -> (what the bug is, [(old, new), ...])
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
          "while (j < count[k] && 0)")]),
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


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    base = base_source(root)
    for name, (what, edits) in sorted(MUTATIONS.items()):
        src = base
        for old, new in edits:
            if src.count(old) != 1:
                sys.exit("make-wrong: %s: the text to change is not in the "
                         "reference exactly once:\n%s" % (name, old))
            src = src.replace(old, new)
        src = src.replace("/* A wrong solution: the reference with one bug "
                          "(see BUG below). */",
                          "/* A wrong solution. BUG: %s. */" % what, 1)
        d = os.path.join(root, "tests", "wrong", name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "main.c"), "w") as f:
            f.write(src)


if __name__ == "__main__":
    main()
