#ifndef WG_GRADESCOPE_H
#define WG_GRADESCOPE_H

/*
 * gradescope: the grade JSON report as a Gradescope autograder
 * results.json (the file run_autograder leaves in /autograder/results/).
 *
 *   {"score": total, "execution_time": seconds, "output": summary,
 *    "output_format": "text", "test_output_format": "text",
 *    "stdout_visibility": "hidden",
 *    "tests": [{"name", "number": "C.K", "score", "max_score",
 *               "status": "passed"|"failed", "output", "visibility",
 *               "tags": [category]}]}
 *
 * number C.K is the category's position and the case's position in it, so
 * Gradescope's ordering groups cases by category. A hidden case gets
 * visibility "after_published" and an output naming only its verdict (no
 * detail, no diff, no stderr); a visible one gets the detail and the diff.
 * A report's case may also carry a Gradescope visibility word itself
 * ("after_due_date", "after_published"), which is passed through. The
 * summary carries the score, the verdict counts, the one-line hint of each
 * category that lost points and, when the build failed, the compiler's
 * messages (they are about the student's own code).
 */

#include <stdio.h>
#include <jansson.h>

/* Writes results.json for report to f. execution_time_s is the wall time
 * of the whole grading. Returns 0, or -1 with errno set. */
int gradescope_write(FILE *f, const json_t *report, double execution_time_s);

/* Builds the results object; NULL when out of memory. The caller owns the
 * returned reference (json_decref). */
json_t *gradescope_results(const json_t *report, double execution_time_s);

/* The long name of a verdict ("Wrong Answer" for "WA"); the verdict itself
 * when unknown. Static storage. */
const char *gradescope_verdict_name(const char *verdict);

#endif
