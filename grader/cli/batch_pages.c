/*
 * batch_pages: DIR/students/NAME.html, each student's own page: the
 * student view (html.h) of that student's report alone, self-contained
 * like the class page. The report is the staff's record (every diff); the
 * student view shows a hidden case's verdict only, as Gradescope's
 * results do after publication, and the page holds no other student.
 * A batch writes each page when its student is finished, the report in
 * hand (batch_write_page); a merge writes them all at its end, each
 * report read back from the spool (batch_write_pages).
 */
#include "grader/cli/batch_int.h"

#include <stdlib.h>

#include "grader/lib/usage.h"
#include "grader/report/html.h"
#include "grader/report/keys.h"

static int put_page(FILE *f, const void *report)
{
	return html_write(f, report);
}

/* The page is a class of one, as the class page's rows are made
 * (html_class_add): the same row, status words and drill-down. */
static int write_page(const struct batch *b, const struct student *s,
		      const json_t *report)
{
	json_t *one = html_class_new(b->suite.name, RK_VIEW_STUDENT);
	char *path;
	int rc;

	if (!one || html_class_add(one, s->name, batch_status_word(s), NULL,
				   report) < 0) {
		json_decref(one);
		return error("out of memory");
	}
	path = batch_out_path(b, "students", s->name, ".html");
	rc = batch_write_file(path, put_page, one);
	free(path);
	json_decref(one);
	return rc;
}

void batch_write_page(struct batch *b, const struct student *s,
		      const json_t *report)
{
	if (write_page(b, s, report) < 0)
		b->pages_failed = 1;
}

/* Every student graded (now or before) or without a submission; not one
 * that could not be graded (the grader's failure, for staff to look at). */
int batch_write_pages(struct batch *b)
{
	int rc = 0;

	for (size_t i = 0; i < b->n; i++) {
		const struct student *s = &b->st[i];
		json_t *report;

		if (s->state != ST_DONE && s->state != ST_SKIPPED &&
		    s->state != ST_NO_SUBMISSION)
			continue;
		report = batch_row_report(b, s);
		if ((s->row.report && !report) || write_page(b, s, report) < 0)
			rc = -1;
		json_decref(report);
	}
	return rc;
}
