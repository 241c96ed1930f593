#ifndef WG_USAGE_H
#define WG_USAGE_H
#include <stddef.h>
#include <stdio.h>
/*
 * usage: the grader's one error vocabulary (after git's usage.c).
 *
 * Library code (grader/run, grader/judge, grader/report) never prints and
 * never exits. A function returns 0 (or a count, or a pointer) on success
 * and -1 (or NULL) on failure, and says why in one of two ways, stated in
 * its header:
 *   - a struct strbuf *err from its caller, given the whole message
 *     ("FILE:LINE:COLUMN: text" where there is a file, as jansson does);
 *   - errno, for thin wrappers around system calls.
 * It never abort()s on bad input and never exit()s: the caller decides.
 *
 * Only grader/cli prints and exits, with these:
 *   error(fmt, ...)      "grade: error: ..." on stderr; returns -1, so
 *                        that `return error("...");` reads as it does
 *   warning(fmt, ...)    "grade: warning: ..." on stderr
 *   die_usage(fmt, ...)  the user's command line or an input file the user
 *                        named is wrong: "grade: ..." and a pointer to
 *                        --help, exit WG_EXIT_USAGE (2)
 *   die(fmt, ...)        the grader's own failure (out of memory, a
 *                        sandbox that cannot be built): "grade: fatal:
 *                        ...", exit WG_EXIT_INTERNAL (3)
 * A student's program failing is never an exit status of grade: it is a
 * verdict in the report. The grader failing on one case is the IE verdict
 * for that case (verdict.h), and exit 3 only where nothing can be graded.
 *
 * Scrubbing: every human-readable output, these reporters' included,
 * goes through escape_scrub (escape.h): no text a submission chose drives
 * the reader's terminal.
 *
 * Errors: these are the reporters themselves: error() returns -1, die()
 * and die_usage() exit, the x* allocators die() when memory runs out.
 */

/* grade's exit statuses (docs/grade.md, "Exit statuses"). */
enum {
	WG_EXIT_ALL_AC = 0,     /* every submission got full points */
	WG_EXIT_NOT_AC = 1,     /* some submission lost points */
	WG_EXIT_USAGE = 2,      /* bad command line, suite or input file */
	WG_EXIT_INTERNAL = 3    /* the grader's own failure */
};

/* The word before every message: "grade" or "grade: batch". */
void usage_set_prefix(const char *prefix);

int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
__attribute__((noreturn, format(printf, 1, 2)))
void die(const char *fmt, ...);
__attribute__((noreturn, format(printf, 1, 2)))
void die_usage(const char *fmt, ...);

/* malloc, calloc, realloc and strdup that die() when memory runs out: for
 * grader/cli only (library code returns -1 instead). */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

#endif
