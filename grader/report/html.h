#ifndef WG_HTML_H
#define WG_HTML_H

/*
 * html: the grade JSON report as one self-contained HTML page, for staff
 * (a class at a glance) and students (their own run), read offline from
 * file://. Inline CSS, inline SVG, and one constant script (sorting and
 * filtering the students' table) that holds no report data: every figure
 * and every word of the page is written by html_write() from the json_t,
 * so the page and the JSON cannot disagree.
 *
 * The page, top to bottom:
 *   - the suite, the view, how many submissions;
 *   - the scores: mean, median, lowest, highest, and a histogram in tenths
 *     of the maximum (<svg id="histogram">, one <rect class="bar"> per
 *     tenth, data-count on each);
 *   - each category's mean and the share of submissions with full marks
 *     (table#categories);
 *   - the ten cases failed most often, with their verdict mix and their
 *     category's hint (table#failed);
 *   - the suite report's section, when the report has "suite_report";
 *   - a table of the submissions (table#students, one <tbody
 *     class="student"> each, sortable by its headers and filterable by
 *     name and by state) with score, verdict counts, build status and, in
 *     a <details class="drill">, every case: verdict, points, CPU and wall
 *     time, memory, detail, and the diff and stderr tail, built by the
 *     script when the drill-down is opened, from the data block
 *     <pre id="wg-data" hidden> (html_drill.c: compact JSON, < > & as
 *     entities, each case and each text once in a table); a class page
 *     (html_class_set_compact) keeps per student only the cases not
 *     passed whole (AC implied, shown without times) and the first
 *     difference of each diff. The URL's fragment can set the table's
 *     state: #q=TEXT&show=MODE&sort=[-]KEY&open=NAME.
 *
 * Adding a section (another helper's, e.g. similarity): a function
 * `void html_NAME_section(FILE *f, const json_t *j)` in its own
 * html_NAME.c, self-contained (its own <section id="NAME"> with an <h2>,
 * every string through escape_html(), no script, no style of its own
 * beyond inline attributes the CSP allows), called by html_write() where
 * html_suite_section is, when the report (or the class JSON that
 * batch_put_html builds: json_object_set it there) has the member "NAME".
 *
 * Input: a report as report_json() writes it, or a class assembled with
 * html_class_new() and html_class_add() from a batch's per-student reports
 * (the same shape; each submission also carries "student", "status" and
 * maybe "error").
 *
 * The view is the report's "view", as for JUnit: only "staff" shows
 * everything; anything else (grade's default, --student) is the student
 * view, where a hidden case shows its verdict and nothing else (no points,
 * time, memory, limit, detail, diff or stderr), and a category's hint is
 * shown only when one of its visible cases failed (Gradescope's rule).
 * The totals (the score, each category's subtotal) count hidden cases
 * too, as grade's terminal student view and Gradescope's score do: a
 * student learns how many points the hidden cases gave, not which.
 *
 * Escaping: every string from the report (program output, file and
 * student names) goes through escape_html(), in text and in attributes
 * alike; no report data is ever written inside <script> or <style>. A
 * Content-Security-Policy allows no network at all and only the page's own
 * script (by its SHA-256), so markup that somehow got through still could
 * not run.
 *
 * Errors: html_write: -1 and errno; html_class_new and html_class_add: NULL
 * or -1 when out of memory; html_suite_section and escape_html (escape.h) write to f
 * and cannot fail otherwise (the caller checks ferror).
 */

#include <stdio.h>
#include <jansson.h>

/* Writes the page for report to f. Returns 0, or -1 with errno set (out of
 * memory, or writing failed; the page may then be partial). */
int html_write(FILE *f, const json_t *report);

/* A page's submissions read one at a time, so that a class of any size
 * is never whole in memory (a batch keeps its students' reports on disk):
 * n of them; get(arg, i) returns submission i (0 <= i < n) as
 * html_class_add makes it, a new reference the page lets go of at once,
 * or NULL when out of memory or unreadable. The page asks for each i in
 * order, 0 to n - 1, several times over (its figures, its table, its
 * data block). */
struct html_rows {
	size_t n;
	json_t *(*get)(void *arg, size_t i);
	void *arg;
};

/* html_write for a class whose submissions come from rows; cls holds the
 * rest (html_class_new's keys, html_class_set_compact, "similarity"...),
 * its own "submissions" not read. The page is the one html_write writes
 * for cls with those submissions in it. 0, or -1 with errno set. */
int html_write_rows(FILE *f, const json_t *cls, const struct html_rows *rows);

/* The suite report (suitereport.h's JSON) as a <section
 * id="suite-strength">: summary, survivors, fragile solutions, cases that
 * kill nothing, categories, and the kill matrix (table#sr-matrix, one
 * tr.sr-row per wrong solution). html_write() adds it when the report
 * has a "suite_report" member, as grade --suite-report-html writes. */
void html_suite_section(FILE *f, const json_t *sr);

/* The class's similarity (sim_report.h's record) as a <section
 * id="similarity">: a histogram of every pair's score (svg#sim-histogram,
 * one rect.simbar per bin, data-count on each), the clusters
 * (table#sim-clusters), and the pairs at or above the threshold
 * (table#sim-pairs, one tr.sim-row each, then a details.sim-pair with
 * the matched regions side by side, each span in a <mark>).
 * html_write() adds it when the report has a "similarity" member and is
 * the staff view: the student view never shows it. */
void html_similarity_section(FILE *f, const json_t *sim);

/* Marks cls a compact page: its data block leaves out the cases that
 * passed whole (AC, all their points, no text: the drill-down shows them
 * as AC without times), and each drill-down keeps the first difference
 * of a diff, the last lines of a stderr tail and the first of the
 * compiler's messages, each saying where the whole is (html_drill.c);
 * batch's report.html is one. 0, or -1 when out of memory. */
int html_class_set_compact(json_t *cls);

/* A new, empty class page: {"suite", "view", "submissions": []}. The
 * caller owns the result (json_decref); NULL when out of memory. */
json_t *html_class_new(const char *suite, const char *view);

/* Appends one student of a batch to cls. report is the student's batch
 * report (not changed; its first submission is shallow-copied with
 * "student", "status" and "error" added), or NULL for a student without
 * one; then the row has only the name, status ("not graded", "no
 * submission"...) and error (may be NULL). Returns 0, or -1 when out of
 * memory. */
int html_class_add(json_t *cls, const char *student, const char *status,
		   const char *error, const json_t *report);

#endif
