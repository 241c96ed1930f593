#ifndef WG_HTML_INT_H
#define WG_HTML_INT_H
/*
 * html_int: what the page's files share, private to them (html.h is
 * the public side).
 *   html.c          the escaping, the page's constant parts (style, script,
 *                   Content-Security-Policy), its head, the students'
 *                   table with every case, and the class of a batch;
 *   html_summary.c  the figures gathered from the report (scores,
 *                   categories, the cases failed most) and the sections
 *                   that show them;
 *   html_suite.c    the suite report's section (its escaping helpers);
 *   html_drill.c    the drill-downs' data block, which the page's script
 *                   turns into a student's cases when they are opened.
 * Errors: htmlp_gather returns -1 when out of memory (no message); the
 * writers write to pg->f and cannot fail otherwise (html_write checks
 * ferror).
 */
#include "grader/judge/verdict.h"
#include "grader/report/html.h"
#include "grader/report/keys.h"
#include "grader/report/report_read.h"
#include "grader/lib/escape.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define HIST_BINS 10
#define TOP_FAILED 10

/* The verdicts in the table's order (judge/verdict.c): verdict_code(i).
 * the page script's list V is the same (check_exporters compares them). */
#define NVERDICTS ((size_t)VERDICT_COUNT)

/* A report value: a JSON string, escaped whole (NUL bytes included). */
static inline void esc_json(FILE *f, const json_t *v)
{
	if (json_is_string(v))
		escape_html(f, json_string_value(v), json_string_length(v));
}

static inline void esc(FILE *f, const char *s)
{
	if (s)
		escape_html(f, s, strlen(s));
}

/* The report's reader (report_read.h), by the names this page's code uses. */
static inline const char *get_str(const json_t *o, const char *key)
{
	return report_str(o, key);
}

static inline double get_num(const json_t *o, const char *key)
{
	return report_num(o, key);
}

static inline int str_is(const char *s, const char *want)
{
	return s && strcmp(s, want) == 0;
}

/* The names and hints are copies: a class's submissions are read one at a
 * time (struct html_rows) and let go. */
struct cat {
	char *name;
	double sum, max;
	size_t n, full;
	char *hint;           /* shown (html.h: the view's rule), or NULL */
};

struct failed {
	char *name, *category;
	size_t failed;
	size_t by[NVERDICTS + 1];   /* the last: a verdict not in the table */
};

struct page {
	FILE *f;
	const json_t *report;     /* the page's own keys (suite, view...) */
	const struct html_rows *rows;   /* its submissions, one at a time */
	int student;              /* the student view */
	int compact;              /* a class page: texts cut (html_drill.c) */
	size_t graded;            /* submissions with cases */
	double *scores;           /* sorted; graded of them */
	double max_score;
	size_t hist[HIST_BINS];
	struct cat *cats;
	size_t ncats;
	struct failed *fails;
	size_t nfails;
};

static inline int graded(const json_t *sub)
{
	return json_is_array(json_object_get(sub, RK_CASES));
}

static inline int visible(const json_t *k)
{
	return str_is(get_str(k, RK_VISIBILITY), RK_VISIBLE);
}

/* In the student view a hidden case shows its verdict and nothing else. */
static inline int secret(const struct page *pg, const json_t *k)
{
	return pg->student && !visible(k);
}

/* v's place in the table; NVERDICTS for NULL or a code not in it. */
static inline size_t verdict_index(const char *v)
{
	return v ? (size_t)verdict_from_code(v) : NVERDICTS;
}

static inline void num(FILE *f, double v)
{
	fprintf(f, "%g", v);
}

/* Submission i of the page: a new reference (json_decref it), NULL when
 * out of memory or unreadable (html.c). */
json_t *htmlp_sub(const struct page *pg, size_t i);

/* Gathers pg's figures from pg->rows (html_summary.c). 0, or -1 when
 * out of memory; htmlp_release frees them either way. */
int htmlp_gather(struct page *pg);
void htmlp_release(struct page *pg);
/* The drill-downs' data block, <pre id="wg-data" hidden> (html_drill.c).
 * 0, or -1 when out of memory (the block may then be partial). */
int htmlp_write_data(const struct page *pg);
/* The scores, the categories and the cases failed most, in that order. */
void htmlp_write_summary(const struct page *pg);

#endif
