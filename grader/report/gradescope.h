#ifndef WG_GRADESCOPE_H
#define WG_GRADESCOPE_H

/*
 * gradescope: the grade JSON report as a Gradescope autograder
 * results.json (the file run_autograder leaves in /autograder/results/).
 *
 *   {"score": total, "output": summary,
 *    "output_format": "text", "test_output_format": "text",
 *    "stdout_visibility": "hidden",
 *    "tests": [{"name", "number": "C.K", "score", "max_score",
 *               "status": "passed"|"failed", "output", "visibility",
 *               "tags": [category]}]}
 *
 * What students may see before the grades are published (docs/workflows.md
 * states the rule): the summary ("output", shown at once) says nothing of
 * hidden cases: the score, verdict counts and category subtotals (with
 * their hints) are those of the visible cases only, and one sentence says
 * that hidden results and the total come with publication. A hidden case's
 * test is "after_published" and its output names only its verdict. The
 * total ("score") includes hidden points; Gradescope withholds it while a
 * test is not yet visible. There is no "execution_time": a hidden case's
 * TLE would show in it. When the build failed no case ran: "tests" is
 * empty and the summary is the compiler's messages and REPORT_CE_LINE.
 *
 * number C.K is the category's position and the case's position in it, so
 * Gradescope's ordering groups cases by category. A report's case may also
 * carry a Gradescope visibility word itself ("after_due_date",
 * "after_published"), which is passed through and counts as hidden.
 *
 * Errors: gradescope_write: -1 and errno; gradescope_results: NULL when out
 * of memory; the validators: -1 and a message in err.
 */

#include <stdio.h>
#include <jansson.h>

struct strbuf;

/* Writes results.json for report to f. Returns 0, or -1 with errno set. */
int gradescope_write(FILE *f, const json_t *report);

/* Builds the results object; NULL when out of memory. The caller owns the
 * returned reference (json_decref). */
json_t *gradescope_results(const json_t *report);

/* Checks a results object against Gradescope's format: an object with a
 * numeric "score" and a "tests" array, only the keys the spec names, each
 * of the right type, and visibility, status and format words Gradescope
 * knows. Returns 0, or -1 with err naming the key ("tests[3].status: ..."). */
int gradescope_validate(const json_t *res, struct strbuf *err);

/* Parses path and validates it; -1 with err "PATH:LINE:COL: text" or
 * "PATH: key: text". (grade --validate-gradescope FILE) */
int gradescope_validate_file(const char *path, struct strbuf *err);

/* The long name of a verdict ("Wrong Answer" for "WA"); the verdict itself
 * when unknown. Static storage. */
const char *gradescope_verdict_name(const char *verdict);

#endif
