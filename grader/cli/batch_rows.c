/*
 * batch_rows: what a batch keeps of each student's report, so that its
 * memory does not grow with the class (issue 22). A report (68 cases with
 * their diffs: a third of a megabyte parsed) is let go as soon as it is
 * kept; what stays is
 *
 *   - the row (struct batch_row in struct student, a fixed size: about
 *     130 bytes and 24 per category of the suite): the figures of the
 *     gradebook, the LMS files and the summary: score, points, each
 *     category's, the verdict counts, the build's status;
 *   - the class's running tallies (struct batch_tally, bounded by the
 *     suite): each category's hint and each case's failures, for the
 *     summary's hints and "most_failed";
 *   - the whole report, in the spool: a file of compact JSON, one report
 *     after another, in DIR (unlinked as soon as it is made, so that
 *     nothing is left behind), from which report.html (html_write_rows)
 *     and a merge's pages read one student at a time.
 *
 * Students finish in any order, yet the outputs are those of the class's
 * order: where the old writers took "the first report that has it", a
 * tally keeps what it saw with the student's index and case position, and
 * the lowest wins.
 */
#include "grader/cli/batch_int.h"
#include "grader/cli/batch_keys.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grader/judge/verdict.h"
#include "grader/lib/strbuf.h"
#include "grader/lib/usage.h"
#include "grader/lib/util.h"
#include "grader/report/html.h"
#include "grader/report/keys.h"
#include "grader/report/report_read.h"

/* Where in the class a thing was seen first: student index, then case. */
struct first {
	size_t st, pos;
};

static int earlier(struct first a, struct first b)
{
	return a.st < b.st || (a.st == b.st && a.pos < b.pos);
}

struct hint_tally {
	char *category, *hint;
	size_t st;               /* the student that carried it */
};

struct code_tally {
	char *code;              /* a verdict, as the report spells it */
	json_int_t n;
	struct first first;      /* its key's place in "verdicts" */
};

struct fail_tally {
	char *name;
	json_t *category;        /* of the first failure seen */
	struct first first;
	json_int_t failed;
	struct code_tally *codes;
	size_t ncodes;
};

struct batch_tally {
	struct hint_tally *hints;
	size_t nhints;
	struct fail_tally *fails;
	size_t nfails;
	json_t *index;           /* case name -> its index in fails */
};

static struct batch_tally *tally_of(struct batch *b)
{
	if (!b->tally) {
		b->tally = xcalloc(1, sizeof *b->tally);
		if (!(b->tally->index = json_object()))
			die("out of memory");
	}
	return b->tally;
}

/* ---- the running tallies ---- */

static void tally_hint(struct batch_tally *t, const char *cat, const char *hint,
		       size_t st)
{
	struct hint_tally *h;

	for (size_t i = 0; i < t->nhints; i++)
		if (!strcmp(t->hints[i].category, cat)) {
			if (st < t->hints[i].st) {
				free(t->hints[i].hint);
				t->hints[i].hint = xstrdup(hint);
				t->hints[i].st = st;
			}
			return;
		}
	t->hints = xrealloc(t->hints, (t->nhints + 1) * sizeof *t->hints);
	h = &t->hints[t->nhints++];
	h->category = xstrdup(cat);
	h->hint = xstrdup(hint);
	h->st = st;
}

/* Each category's first entry in sub, as batch_category_of finds it. */
static void tally_hints(struct batch_tally *t, const json_t *sub, size_t st)
{
	size_t i;
	const json_t *c;

	json_array_foreach(json_object_get(sub, RK_CATEGORIES), i, c) {
		const char *name = report_str(c, RK_CATEGORY);
		const char *hint = report_str(c, RK_HINT);

		if (name && hint && batch_category_of(sub, name) == c)
			tally_hint(t, name, hint, st);
	}
}

static struct fail_tally *fail_of(struct batch_tally *t, const char *name)
{
	const json_t *at = json_object_get(t->index, name);
	struct fail_tally *e;

	if (at)
		return &t->fails[json_integer_value(at)];
	if (json_object_set_new(t->index, name, json_integer((json_int_t)t->nfails)))
		die("out of memory");
	t->fails = xrealloc(t->fails, (t->nfails + 1) * sizeof *t->fails);
	e = &t->fails[t->nfails++];
	memset(e, 0, sizeof *e);
	e->name = xstrdup(name);
	e->first.st = (size_t)-1;
	return e;
}

static void count_code(struct fail_tally *e, const char *v, struct first at)
{
	struct code_tally *c;

	for (size_t i = 0; i < e->ncodes; i++)
		if (!strcmp(e->codes[i].code, v)) {
			e->codes[i].n++;
			if (earlier(at, e->codes[i].first))
				e->codes[i].first = at;
			return;
		}
	e->codes = xrealloc(e->codes, (e->ncodes + 1) * sizeof *e->codes);
	c = &e->codes[e->ncodes++];
	c->code = xstrdup(v);
	c->n = 1;
	c->first = at;
}

/* The summary's count of failures (batch_summary.c): a case not accepted,
 * with a name, a verdict and a category (a case without one was never
 * counted). */
static void tally_failures(struct batch_tally *t, const json_t *sub, size_t st)
{
	size_t i;
	const json_t *k;

	json_array_foreach(json_object_get(sub, RK_CASES), i, k) {
		const char *name = report_str(k, RK_NAME);
		const char *v = report_str(k, RK_VERDICT);
		const json_t *cat = json_object_get(k, RK_CATEGORY);
		struct first at = { st, i };
		struct fail_tally *e;

		if (!name || !v || !cat || verdict_from_code(v) == VERDICT_AC)
			continue;
		e = fail_of(t, name);
		if (earlier(at, e->first)) {
			json_decref(e->category);
			if (!(e->category = json_deep_copy(cat)))
				die("out of memory");
			e->first = at;
		}
		e->failed++;
		count_code(e, v, at);
	}
}

const char *batch_tally_hint(const struct batch *b, const char *cat)
{
	const char *h = suite_hint(&b->suite, cat);

	for (size_t i = 0; !h && b->tally && i < b->tally->nhints; i++)
		if (!strcmp(b->tally->hints[i].category, cat))
			h = b->tally->hints[i].hint;
	return h;
}

static int cmp_first(const void *a, const void *b)
{
	const struct code_tally *x = a, *y = b;

	return earlier(x->first, y->first) ? -1 : earlier(y->first, x->first);
}

/* One case's entry as the summary has it. */
static json_t *failure_json(struct fail_tally *e)
{
	json_t *vs = json_object();

	if (!vs)
		return NULL;
	qsort(e->codes, e->ncodes, sizeof *e->codes, cmp_first);
	for (size_t i = 0; i < e->ncodes; i++)
		if (json_object_set_new(vs, e->codes[i].code, json_integer(e->codes[i].n))) {
			json_decref(vs);
			return NULL;
		}
	return json_pack("{s:s, s:O, s:I, s:o}", BK_CASE, e->name, RK_CATEGORY,
			 e->category, BK_FAILED, e->failed, RK_VERDICTS, vs);
}

json_t *batch_tally_failures(const struct batch *b)
{
	json_t *arr = json_array();

	for (size_t i = 0; arr && b->tally && i < b->tally->nfails; i++)
		if (json_array_append_new(arr, failure_json(&b->tally->fails[i]))) {
			json_decref(arr);
			return NULL;
		}
	return arr;
}

static void tally_free(struct batch_tally *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nhints; i++) {
		free(t->hints[i].category);
		free(t->hints[i].hint);
	}
	for (size_t i = 0; i < t->nfails; i++) {
		free(t->fails[i].name);
		json_decref(t->fails[i].category);
		for (size_t k = 0; k < t->fails[i].ncodes; k++)
			free(t->fails[i].codes[k].code);
		free(t->fails[i].codes);
	}
	free(t->hints);
	free(t->fails);
	json_decref(t->index);
	free(t);
}

/* ---- the row ---- */

static void fill_row(const struct batch *b, struct batch_row *r, const json_t *report)
{
	const json_t *sub = batch_only_sub(report);
	const json_t *counts = json_object_get(sub, RK_VERDICTS);
	const json_t *sc = json_object_get(sub, RK_SCORE);
	const char *build = report_str(
		json_object_get(sub, RK_BUILD), RK_BUILD_STATUS);

	r->report = 1;
	r->sub = sub != NULL;
	r->has_score = sc != NULL;
	r->has_max = json_object_get(sub, RK_MAX_SCORE) != NULL;
	r->accepted = batch_all_accepted(report) != 0;
	r->score = json_number_value(sc);
	r->max = report_num(sub, RK_MAX_SCORE);
	for (size_t v = 0; v < VERDICT_COUNT; v++)
		r->verdicts[v] = report_int(counts, verdict_code((enum verdict)v));
	r->build = build ? xstrdup(build) : NULL;
	r->cats = xcalloc(b->suite.ncategories + 1, sizeof *r->cats);
	for (size_t c = 0; c < b->suite.ncategories; c++) {
		const json_t *e = batch_category_of(sub, b->suite.categories[c]);
		const json_t *cs = json_object_get(e, RK_SCORE);

		r->cats[c].has = e != NULL;
		r->cats[c].has_score = cs != NULL;
		r->cats[c].score = json_number_value(cs);
		r->cats[c].max = report_num(e, RK_MAX_SCORE);
	}
}

void batch_row_free(struct batch_row *r)
{
	free(r->build);
	free(r->cats);
	memset(r, 0, sizeof *r);
}

void batch_row_describe(const struct batch_row *r, struct strbuf *sb)
{
	const char *sep = " (";

	strbuf_addf(sb, "%g/%g", r->score, r->max);
	for (int v = VERDICT_AC + 1; v < VERDICT_COUNT; v++) {
		if (r->verdicts[v] <= 0)
			continue;
		strbuf_addf(sb, "%s%s %lld", sep, verdict_code((enum verdict)v),
			    (long long)r->verdicts[v]);
		sep = ", ";
	}
	if (*sep == ',')
		strbuf_addch(sb, ')');
}

/* ---- the spool ---- */

/* DIR/.spool-XXXXXX, or one in $TMPDIR when DIR is not made yet (a
 * merge reads its shards first), unlinked at once: 0, or -1 (reported). */
static int open_spool(struct batch *b)
{
	struct strbuf path = STRBUF_INIT;
	int fd = wg_open_unlinked(b->out, ".spool", &path);

	if (fd < 0 && errno == ENOMEM)
		die("out of memory");
	if (fd < 0)
		error("cannot make the batch's spool '%s': %s", strbuf_str(&path),
		      strerror(errno));
	strbuf_release(&path);
	if (fd < 0)
		return -1;
	b->spool_fd = fd;
	b->spool_open = 1;
	return 0;
}

static int spool_put(struct batch *b, struct batch_row *r, const json_t *report)
{
	char *text;
	size_t len, done = 0;

	if (!b->spool_open && open_spool(b) < 0)
		return -1;
	text = json_dumps(report, JSON_COMPACT);
	if (!text)
		return error("out of memory");
	len = strlen(text);
	while (done < len) {
		ssize_t n = pwrite(b->spool_fd, text + done, len - done,
				   b->spool_len + (off_t)done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			free(text);
			return error("cannot write the batch's spool: %s",
				     n < 0 ? strerror(errno) : "no space");
		}
		done += (size_t)n;
	}
	free(text);
	r->off = b->spool_len;
	r->len = len;
	b->spool_len += (off_t)len;
	return 0;
}

int batch_row_keep(struct batch *b, struct student *s, const json_t *report)
{
	size_t st = (size_t)(s - b->st);

	batch_row_free(&s->row);
	if (spool_put(b, &s->row, report) < 0)
		return -1;
	fill_row(b, &s->row, report);
	tally_hints(tally_of(b), batch_only_sub(report), st);
	tally_failures(tally_of(b), batch_only_sub(report), st);
	return 0;
}

json_t *batch_row_report(const struct batch *b, const struct student *s)
{
	const struct batch_row *r = &s->row;
	char *buf;
	size_t done = 0;
	json_error_t err;
	json_t *j;

	if (!r->report || !b->spool_open)
		return NULL;
	buf = xmalloc(r->len + 1);
	while (done < r->len) {
		ssize_t n = pread(b->spool_fd, buf + done, r->len - done,
				  r->off + (off_t)done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			error("cannot read the batch's spool: %s",
			      n < 0 ? strerror(errno) : "cut short");
			free(buf);
			return NULL;
		}
		done += (size_t)n;
	}
	j = json_loadb(buf, r->len, 0, &err);
	if (!j)
		error("the batch's spool, %s's report: %s", s->name, err.text);
	free(buf);
	return j;
}

void batch_rows_release(struct batch *b)
{
	if (b->spool_open)
		close(b->spool_fd);
	b->spool_open = 0;
	tally_free(b->tally);
	b->tally = NULL;
}

/* ---- the class page's rows ---- */

struct page_rows {
	const struct batch *b;
	size_t *idx;             /* the listed students' indexes in st */
};

/* A student's row of the class page as batch_put_html made it, its report
 * read back from the spool. */
static json_t *page_row(void *arg, size_t i)
{
	const struct page_rows *pr = arg;
	const struct student *s = &pr->b->st[pr->idx[i]];
	json_t *report = batch_row_report(pr->b, s);
	json_t *one = html_class_new(NULL, NULL), *row = NULL;

	if ((report || !s->row.report) && one &&
	    html_class_add(one, s->name, batch_status_word(s), s->error, report) == 0)
		row = json_incref(json_array_get(json_object_get(one, RK_SUBMISSIONS), 0));
	json_decref(one);
	json_decref(report);
	return row;
}

/* DIR/report.html (html.h): the staff's page, each finished student's row
 * made from its report alone, with the gradebook's status words. */
int batch_put_html(FILE *f, const void *arg)
{
	const struct batch *b = arg;
	json_t *cls = html_class_new(b->suite.name, RK_VIEW_STAFF);
	struct page_rows pr = { b, xcalloc(b->n + 1, sizeof(size_t)) };
	struct html_rows rows = { 0, page_row, &pr };
	int rc = cls ? html_class_set_compact(cls) : -1;

	for (size_t i = 0; i < b->n; i++)
		if (b->st[i].state != ST_PENDING && b->st[i].state != ST_RUNNING)
			pr.idx[rows.n++] = i;
	if (rc == 0 && b->similarity)
		rc = json_object_set(cls, SK_SIMILARITY, b->similarity);
	if (rc == 0)
		rc = html_write_rows(f, cls, &rows);
	json_decref(cls);
	free(pr.idx);
	return rc;
}
