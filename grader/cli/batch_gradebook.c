/*
 * batch_gradebook: DIR/gradebook.csv, one row per student (a spreadsheet's
 * view of the reports), and the two accessors of a one-submission report.
 */
#include "grader/cli/batch_int.h"

#include <stdlib.h>
#include <string.h>

#include "grader/judge/verdict.h"
#include "grader/lib/escape.h"
#include "grader/lib/usage.h"
#include "grader/report/html.h"
#include "grader/report/keys.h"
#include "grader/report/report_read.h"

/* One CSV field: quoted when it holds a separator, quote or line break;
 * a leading = + - @ gets a ' so spreadsheets never run it as a formula. */
void batch_csv_field(FILE *f, const char *raw, int text)
{
	/* A student's text (a name, an error) reaches a spreadsheet or a
	 * terminal: scrubbed (usage.h). */
	char *copy = escape_scrub_dup(raw, 1);
	const char *s = copy ? copy : "?";
	int quote = strpbrk(s, ",\"\r\n") != NULL;

	if (quote)
		fputc('"', f);
	if (text && s[0] && strchr("=+-@\t\r", s[0]))
		fputc('\'', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	if (quote)
		fputc('"', f);
	free(copy);
}

const json_t *batch_only_sub(const json_t *r)
{
	return json_array_get(json_object_get(r, RK_SUBMISSIONS), 0);
}

const json_t *batch_category_of(const json_t *sub, const char *cat)
{
	size_t i;
	const json_t *c;

	json_array_foreach(json_object_get(sub, RK_CATEGORIES), i, c) {
		const char *name = report_str(c, RK_CATEGORY);

		if (name && strcmp(name, cat) == 0)
			return c;
	}
	return NULL;
}

/* A number the report had; nothing for one it had not. */
static void csv_number(FILE *f, int has, double v)
{
	if (has)
		fprintf(f, "%g", v);
}

static void gradebook_row(FILE *f, const struct batch *b,
			  const struct student *s)
{
	const struct batch_row *r = &s->row;

	batch_csv_field(f, s->name, 1);
	fputc(',', f);
	if (s->state == ST_NO_SUBMISSION) {
		fprintf(f, "0,%ld", b->suite_max);
	} else {
		csv_number(f, r->has_score, r->score);
		fputc(',', f);
		csv_number(f, r->has_max, r->max);
	}
	for (size_t c = 0; c < b->suite.ncategories; c++) {
		fputc(',', f);
		if (r->cats)
			csv_number(f, r->cats[c].has_score, r->cats[c].score);
	}
	for (size_t v = 0; v < VERDICT_COUNT; v++) {
		fputc(',', f);
		if (r->report)
			fprintf(f, "%lld", (long long)r->verdicts[v]);
	}
	fputc(',', f);
	batch_csv_field(f, r->build ? r->build : "", 1);
	fputc(',', f);
	batch_csv_field(f, batch_status_word(s), 0);
	fputc(',', f);
	batch_csv_field(f, s->error ? s->error : "", 1);
	fputc('\n', f);
}

const char *batch_status_word(const struct student *s)
{
	if (s->state == ST_FAILED)
		return s->not_started ? "not started" : "not graded";
	if (s->state == ST_NO_SUBMISSION)
		return "no submission";
	return s->state == ST_SKIPPED ? "unchanged" : "graded";
}

static void write_gradebook(FILE *f, const struct batch *b)
{
	fputs("student,score,max_score", f);
	for (size_t c = 0; c < b->suite.ncategories; c++) {
		fputc(',', f);
		batch_csv_field(f, b->suite.categories[c], 1);
	}
	for (size_t v = 0; v < VERDICT_COUNT; v++)
		fprintf(f, ",%s", verdict_code((enum verdict)v));
	fputs(",build,status,error\n", f);
	for (size_t i = 0; i < b->n; i++)
		if (b->st[i].state != ST_PENDING && b->st[i].state != ST_RUNNING)
			gradebook_row(f, b, &b->st[i]);
}
/* Write errors surface through ferror() in batch_write_file. */
int batch_put_gradebook(FILE *f, const void *b)
{
	write_gradebook(f, b);
	return 0;
}
