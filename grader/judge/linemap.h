#ifndef WG_LINEMAP_H
#define WG_LINEMAP_H

/*
 * linemap: which input line answered a given line of the expected output,
 * by a suite's "line_map" rule (suite.h), so that a wrong answer can say
 * "input line 12" rather than only "output line 9".
 *
 * The rule reads the input line by line. Text from the comment marker on
 * is dropped; a line left with no token answers nothing. Otherwise its
 * first token is the command, which answers commands[name] lines of the
 * expected output (default_lines when not listed), unless it failed: a
 * failed command answers exactly one line, which starts with error_prefix.
 * The expected output tells which commands failed: one that answers one
 * line or more failed when its first line starts with the prefix; one that
 * answers nothing failed when the next line starts with the prefix, its
 * own name and ':' (for this exercise, "error: active: 1-32").
 *
 * One case can stay ambiguous: a run of R commands of one name that answer
 * nothing (blank lines between them allowed) with E failures among them.
 * The output says E, not which ones: the j-th failure is one of the
 * commands j .. R-E+j of the run, and the answer is that range (exact when
 * E = R, as in "active 40; active 50"; a range for "active 8; active 0").
 * Without an error_prefix, no command is taken to fail.
 *
 * Errors: -1 when the rule places no input line (no message); nothing is
 * allocated.
 */

#include <stddef.h>

#include "grader/judge/suite.h"

/* Sets *lo and *hi (1-based input lines, *lo == *hi unless ambiguous) to
 * the input line that answered line out_line (1-based) of the expected
 * output out. Returns 0, or -1 when the rule places no input line there
 * (out_line past the expected output, or input and output that do not
 * follow the rule). */
int linemap_find(const struct suite_line_map *m, const char *in, size_t in_len,
		 const char *out, size_t out_len, long out_line, long *lo,
		 long *hi);

#endif
