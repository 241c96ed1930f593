#ifndef WG_DIFF_H
#define WG_DIFF_H

/*
 * diff: what a student reads for a wrong answer.
 *
 * diff_first() locates the first line that differs under the comparison
 * rule (compare.h) and shows the expected and actual lines one above the
 * other with a caret under the first differing column. Control bytes and
 * bytes >= 0x80 are always escaped (\t, \r, \xNN) so the caret lines up;
 * when whitespace is the only difference, spaces are shown as '·' too.
 * Long lines are cut to a window around the difference.
 *
 * diff_unified() is a unified diff (Myers' O(ND) algorithm, "--- expected",
 * "+++ actual", @@ hunks with context). It is bounded three ways, so that a
 * huge or wildly wrong output cannot blow up time or memory: common leading
 * and trailing lines are trimmed first; at most max_lines lines of each side
 * of the rest are diffed; past max_d edits the rest is shown as one
 * replaced block; the text stops at max_bytes with a note.
 *
 * Errors: out of memory alone: -1 or NULL, with no message.
 */

#include <stddef.h>

struct diff_opts {
	int exact;           /* compare bytes, not the default rule */
	size_t context;      /* context lines around each change */
	size_t max_lines;    /* lines of each side diffed after trimming */
	size_t max_d;        /* edit distance explored by Myers */
	size_t max_bytes;    /* cap on the returned text */
};

#define DIFF_OPTS_INIT { .exact = 0, .context = 3, .max_lines = 20000, \
	.max_d = 1000, .max_bytes = 16384 }

struct diff_first {
	long line;           /* 1-based first differing line; 0: equal */
	long column;         /* 1-based first differing column in that line */
	int ws_only;         /* the two lines differ only in whitespace */
	char *text;          /* multi-line explanation (malloc'd; NULL if equal) */
};

/* Fills *out; returns 0, or -1 when out of memory. The caller frees
 * out->text. */
int diff_first(const char *exp, size_t elen, const char *act, size_t alen,
	       int exact, struct diff_first *out);

/* A malloc'd NUL-terminated unified diff ("" when the sides are equal under
 * the rule), or NULL when out of memory. The caller frees it. */
char *diff_unified(const char *exp, size_t elen, const char *act,
		   size_t alen, const struct diff_opts *o);

/* diff_first (under o->exact) and diff_unified at once, the outputs
 * measured once: what a wrong answer shows. Returns 0, or -1 when out of
 * memory (the caller frees first->text and *unified, NULL or not). */
int diff_report(const char *exp, size_t elen, const char *act, size_t alen,
		const struct diff_opts *o, struct diff_first *first,
		char **unified);

#endif
