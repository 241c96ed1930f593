#ifndef WG_SUITEREPORT_H
#define WG_SUITEREPORT_H

/*
 * suitereport: how strong a suite is against a set of wrong solutions.
 *
 * `grade --suite-report SUITE_DIR WRONG_DIR` grades every wrong solution
 * against the suite (grader/cli/suitereport_cmd.c, through grade itself)
 * and hands the result here as a kill matrix: one verdict per (solution,
 * case). A case KILLS a solution when it ran and its verdict is not AC:
 * not AC, not IE (the grader's own failure, which says nothing about the
 * suite: counted apart as "errors") and not CE (the build failed, so no
 * case ran: such a solution is "unbuilt", neither killed nor a survivor,
 * and left out of the fewest kills). From the matrix come:
 *   - the survivors: solutions that built and that no case kills;
 *   - the fragile ones: killed by exactly one case;
 *   - the redundant cases: cases that kill nothing;
 *   - per case category: how many distinct solutions its cases kill, and
 *     how many no other category kills;
 *   - per family of wrong solutions (when known): how many are killed.
 *
 * The report is a JSON object (docs/suites.md, "Suite reports", schema
 * "warpgrade-suite-report/1"); the terminal text is printed from that same
 * object, so the two always agree, and an HTML page can render it too.
 * Library code: nothing here exits; only suitereport_print prints, to the
 * FILE it is given.
 *
 * The files: suitereport.c the analysis (suitereport_kills,
 * suitereport_json); suitereport_grade.c the matrix from grade's report
 * and the families from tests/wrong/INDEX; suitereport_print.c the text.
 *
 * Errors: suitereport_json, suitereport_from_grade and
 * suitereport_read_index: NULL and a message in err; suitereport_print: -1
 * (no message) for an object it cannot read; suitereport_kills cannot
 * fail.
 */

#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

#include "grader/lib/strbuf.h"

#define SUITEREPORT_SCHEMA "warpgrade-suite-report/1"

/* A kill matrix: every pointer is borrowed (the caller keeps it alive
 * until suitereport_json returns; the result copies what it needs). */
struct suitereport_matrix {
	size_t nsols, ncases;
	const char *const *sols;       /* solution names, nsols */
	const char *const *families;   /* per solution, or NULL; an entry may
	                                  be NULL (family unknown) */
	const char *const *builds;     /* per solution the build status
	                                  ("ok", "failed", ...), or NULL */
	const char *const *cases;      /* case names, ncases, suite order */
	const char *const *categories; /* per case */
	const char *const *verdicts;   /* nsols * ncases, row by row (one row
	                                  per solution): "AC", "WA", ... */
};

/* 1 when a case with this verdict kills the solution: not AC, IE or CE. */
int suitereport_kills(const char *verdict);

/* The analysis of m as a new JSON object (the caller json_decref's it),
 * with "suite", "suite_dir" and "wrong_dir" null (the caller may set
 * them). NULL with err set when out of memory or m is inconsistent (a
 * NULL name or verdict). */
json_t *suitereport_json(const struct suitereport_matrix *m, struct strbuf *err);

/* The same from grade's own JSON report (docs/grade.md, "The JSON report"): one
 * solution per submission (named by its path's last component, or its
 * folder's for ".../main.c"), the cases of the first submission in order.
 * families: an object {solution name: family} or NULL. Sets "suite" and
 * "suite_dir" from the report. New reference, or NULL with err set ("grade
 * report: ..." naming the key at fault, or out of memory). */
json_t *suitereport_from_grade(const json_t *grade_report, const json_t *families,
			       struct strbuf *err);

/* The families of tests/wrong/INDEX's format: lines "NAME<TAB>FAMILY..."
 * ('#' starts a comment line). A new object {name: family}, or NULL with
 * err set ("PATH:LINE: ..." or the open error). */
json_t *suitereport_read_index(const char *path, struct strbuf *err);

/* The terminal report of a suitereport_json object: the matrix (one row
 * per solution, one column per case, 'X' a kill, '.' none, 'C' a CE,
 * '?' an IE),
 * the cases' numbers, names, categories and kills, then survivors,
 * fragile solutions, redundant cases, categories and families. Returns 0,
 * or -1 when sr is not such an object (nothing useful printed). */
int suitereport_print(FILE *f, const json_t *sr);

#endif
