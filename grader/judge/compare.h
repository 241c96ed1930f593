#ifndef WG_COMPARE_H
#define WG_COMPARE_H

/*
 * compare: is the program's output right?
 *
 * The default rule (what the handout promises): outputs are compared line by
 * line; at the end of every line, spaces, tabs and carriage returns are
 * ignored; blank lines at the end of the output are ignored, and so is a
 * missing newline after the last line. Everything else counts: leading and
 * inner whitespace, case, empty lines between lines.
 * The exact rule (--exact) compares the bytes.
 * Both sides may hold NUL bytes; lengths are explicit.
 *
 * Errors: cannot fail (nothing is allocated).
 */

#include <stddef.h>

/* 1 when equal under the rule (exact != 0: bytes), else 0. */
int cmp_equal(const char *exp, size_t elen, const char *act, size_t alen,
	      int exact);

/* How many leading bytes a[0..n) and b[0..n) have in common (n when all):
 * compared a block at a time, so that a long common part costs about a
 * memcmp. */
size_t cmp_common_prefix(const char *a, const char *b, size_t n);

/* Length of line[0..len) without its trailing spaces, tabs and CRs. */
size_t cmp_trim_len(const char *line, size_t len);

/* Two lines (without their '\n') equal under the rule. */
int cmp_line_equal(const char *a, size_t alen, const char *b, size_t blen,
		   int exact);

#endif
