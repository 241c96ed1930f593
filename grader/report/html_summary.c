/*
 * html_summary: the class at a glance (html.h's page, under its head):
 * one pass over the submissions gathers the figures (scores, categories,
 * failed cases) into small C arrays that copy their strings (each
 * submission is let go once read: html.h's struct html_rows), then the
 * sections that show them are written: the scores and their
 * histogram, each category, the cases failed most.
 */
#include "grader/report/html_int.h"

#include <stdlib.h>
#include <string.h>

/* Each verdict's colour (the chips' CSS uses the same), the last one for a
 * verdict not in the table. */
static const char *const verdict_colors[NVERDICTS + 1] = {
	[VERDICT_AC] = "#2a7d2e", [VERDICT_WA] = "#c62828", [VERDICT_TLE] = "#e67e00",
	[VERDICT_MLE] = "#7b1fa2", [VERDICT_OLE] = "#795548", [VERDICT_RTE] = "#ad1457",
	[VERDICT_CE] = "#616161", [VERDICT_IE] = "#1565c0", [NVERDICTS] = "#999",
};

static struct cat *cat_of(struct page *pg, const char *name)
{
	struct cat *c;

	for (size_t i = 0; i < pg->ncats; i++)
		if (strcmp(pg->cats[i].name, name) == 0)
			return &pg->cats[i];
	c = realloc(pg->cats, (pg->ncats + 1) * sizeof *c);
	if (!c)
		return NULL;
	pg->cats = c;
	c += pg->ncats;
	*c = (struct cat){ .name = strdup(name) };
	if (!c->name)
		return NULL;
	pg->ncats++;
	return c;
}

static struct failed *failed_of(struct page *pg, const char *name,
				const char *category)
{
	struct failed *e;

	for (size_t i = 0; i < pg->nfails; i++)
		if (strcmp(pg->fails[i].name, name) == 0)
			return &pg->fails[i];
	e = realloc(pg->fails, (pg->nfails + 1) * sizeof *e);
	if (!e)
		return NULL;
	pg->fails = e;
	e += pg->nfails;
	*e = (struct failed){ .name = strdup(name),
			      .category = category ? strdup(category) : NULL };
	if (!e->name || (category && !e->category)) {
		free(e->name);
		free(e->category);
		return NULL;
	}
	pg->nfails++;
	return e;
}

/* Whether sub has a failed case in cat that the view shows in full. */
static int shown_failure(const struct page *pg, const json_t *sub,
			 const char *cat)
{
	size_t i;
	const json_t *k;

	json_array_foreach(json_object_get(sub, RK_CASES), i, k)
		if (str_is(get_str(k, RK_CATEGORY), cat) &&
		    report_verdict(k) != VERDICT_AC && !secret(pg, k))
			return 1;
	return 0;
}

static int gather_sub(struct page *pg, const json_t *sub)
{
	size_t i;
	const json_t *c, *k;

	json_array_foreach(json_object_get(sub, RK_CATEGORIES), i, c) {
		const char *name = get_str(c, RK_CATEGORY);
		const char *hint = get_str(c, RK_HINT);
		double sc = get_num(c, RK_SCORE), max = get_num(c, RK_MAX_SCORE);
		struct cat *e;

		if (!name)
			continue;
		if (!(e = cat_of(pg, name)))
			return -1;
		e->sum += sc;
		e->max = max > e->max ? max : e->max;
		e->n++;
		e->full += sc >= max;
		if (!e->hint && hint && (!pg->student || shown_failure(pg, sub, name)) &&
		    !(e->hint = strdup(hint)))
			return -1;
	}
	json_array_foreach(json_object_get(sub, RK_CASES), i, k) {
		const char *name = get_str(k, RK_NAME), *v = get_str(k, RK_VERDICT);
		struct failed *e;

		if (!name || verdict_is(v, VERDICT_AC))
			continue;
		if (!(e = failed_of(pg, name, get_str(k, RK_CATEGORY))))
			return -1;
		e->failed++;
		e->by[verdict_index(v)]++;
	}
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int cmp_failed(const void *a, const void *b)
{
	const struct failed *x = a, *y = b;

	if (x->failed != y->failed)
		return x->failed < y->failed ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* One submission's score into the figures. */
static int gather_score(struct page *pg, const json_t *sub)
{
	double sc = get_num(sub, RK_SCORE), max = get_num(sub, RK_MAX_SCORE);
	double pct = max > 0 ? 100.0 * sc / max : 0;
	int bin = (int)(pct / (100.0 / HIST_BINS));

	if (!graded(sub))
		return 0;
	pg->scores[pg->graded++] = sc;
	pg->max_score = max > pg->max_score ? max : pg->max_score;
	pg->hist[bin >= HIST_BINS ? HIST_BINS - 1 : bin < 0 ? 0 : bin]++;
	return gather_sub(pg, sub);
}

int htmlp_gather(struct page *pg)
{
	size_t n = pg->rows->n;

	pg->scores = malloc((n + 1) * sizeof *pg->scores);
	if (!pg->scores)
		return -1;
	for (size_t i = 0; i < n; i++) {
		json_t *sub = htmlp_sub(pg, i);
		int rc = sub ? gather_score(pg, sub) : -1;

		json_decref(sub);
		if (rc < 0)
			return -1;
	}
	if (pg->graded)
		qsort(pg->scores, pg->graded, sizeof *pg->scores, cmp_double);
	if (pg->nfails)
		qsort(pg->fails, pg->nfails, sizeof *pg->fails, cmp_failed);
	return 0;
}

/* Mean, median, lowest, highest, and the histogram in tenths of the
 * maximum: one bar per tenth, its count above it. */
static void write_scores(const struct page *pg)
{
	FILE *f = pg->f;
	size_t n = pg->graded, most = 1;
	const double *sc = pg->scores;
	const int W = 600, H = 200, L = 10, B = 22, T = 18;
	const double bw = (double)(W - 2 * L) / HIST_BINS;
	double sum = 0;

	fputs("<h2>Scores</h2>\n<p id=\"stats\">", f);
	if (!n) {
		fputs("No submission was graded.</p>\n", f);
	} else {
		for (size_t i = 0; i < n; i++)
			sum += sc[i];
		fputs("Out of ", f);
		num(f, pg->max_score);
		fprintf(f, ": mean %.1f, median ", sum / (double)n);
		num(f, n % 2 ? sc[n / 2] : (sc[n / 2 - 1] + sc[n / 2]) / 2);
		fputs(", lowest ", f);
		num(f, sc[0]);
		fputs(", highest ", f);
		num(f, sc[n - 1]);
		fputs(".</p>\n", f);
	}
	for (int i = 0; i < HIST_BINS; i++)
		most = pg->hist[i] > most ? pg->hist[i] : most;
	fprintf(f, "<svg id=\"histogram\" role=\"img\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" xmlns=\"http://www.w3.org/2000/svg\">\n"
		"<title>Scores in tenths of the maximum</title>\n", W, H, W, H);
	for (int i = 0; i < HIST_BINS; i++) {
		double h = (double)(H - B - T) * (double)pg->hist[i] / (double)most;
		double x = L + i * bw;
		int lo = i * (100 / HIST_BINS), hi = lo + 100 / HIST_BINS;

		fprintf(f, "<rect class=\"bar\" data-bin=\"%d\" data-count=\"%zu\" "
			"x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\">"
			"<title>%d-%d%%%s: %zu</title></rect>\n",
			i, pg->hist[i], x + 2, (double)(H - B) - h, bw - 4, h,
			lo, hi, i == HIST_BINS - 1 ? " (inclusive)" : "",
			pg->hist[i]);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%zu</text>\n",
			x + bw / 2, (double)(H - B) - h - 4, pg->hist[i]);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d%%</text>\n",
			x + bw / 2, H - 6, lo);
	}
	fputs("</svg>\n", f);
}

static void write_categories(const struct page *pg)
{
	FILE *f = pg->f;

	if (!pg->ncats)
		return;
	fputs("<h2>Categories</h2>\n<table id=\"categories\">\n<thead><tr>"
	      "<th>category</th><th class=\"num\">mean</th><th class=\"num\">of</th>"
	      "<th class=\"num\">full marks</th><th></th><th>hint</th></tr></thead>\n"
	      "<tbody>\n", f);
	for (size_t i = 0; i < pg->ncats; i++) {
		const struct cat *c = &pg->cats[i];
		double share = c->n ? (double)c->full / (double)c->n : 0;

		fputs("<tr><td>", f);
		esc(f, c->name);
		fprintf(f, "</td><td class=\"num\">%.2f</td><td class=\"num\">",
			c->n ? c->sum / (double)c->n : 0.0);
		num(f, c->max);
		fprintf(f, "</td><td class=\"num\">%zu of %zu (%.0f%%)</td>"
			"<td><svg width=\"100\" height=\"10\" role=\"img\">"
			"<rect width=\"100\" height=\"10\" fill=\"#ddd\"/>"
			"<rect width=\"%.1f\" height=\"10\" fill=\"#2a7d2e\"/></svg></td><td>",
			c->full, c->n, 100 * share, 100 * share);
		esc(f, c->hint);
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody>\n</table>\n", f);
}

/* The verdict mix of a failed case: a stacked bar and its words. */
static void write_mix(FILE *f, const struct failed *e)
{
	double x = 0;

	fputs("<svg width=\"120\" height=\"10\" role=\"img\">", f);
	for (size_t v = 0; v <= NVERDICTS; v++) {
		double w = 120.0 * (double)e->by[v] / (double)e->failed;

		if (!e->by[v])
			continue;
		fprintf(f, "<rect x=\"%.1f\" width=\"%.1f\" height=\"10\" "
			"fill=\"%s\"/>", x, w, verdict_colors[v]);
		x += w;
	}
	fputs("</svg> ", f);
	for (size_t v = 0; v <= NVERDICTS; v++)
		if (e->by[v])
			fprintf(f, "<span class=\"v v-%s\">%s %zu</span>",
				v < NVERDICTS ? verdict_code((enum verdict)v) : "other",
				v < NVERDICTS ? verdict_code((enum verdict)v) : "other", e->by[v]);
}

static const char *hint_of(const struct page *pg, const char *cat)
{
	for (size_t i = 0; cat && i < pg->ncats; i++)
		if (strcmp(pg->cats[i].name, cat) == 0)
			return pg->cats[i].hint;
	return NULL;
}

static void write_failed(const struct page *pg)
{
	FILE *f = pg->f;

	fputs("<h2>Most failed cases</h2>\n", f);
	if (!pg->nfails) {
		fputs("<p>No case failed.</p>\n", f);
		return;
	}
	fputs("<table id=\"failed\">\n<thead><tr><th>case</th><th>category</th>"
	      "<th class=\"num\">failed</th><th>verdicts</th><th>hint</th>"
	      "</tr></thead>\n<tbody>\n", f);
	for (size_t i = 0; i < pg->nfails && i < TOP_FAILED; i++) {
		const struct failed *e = &pg->fails[i];

		fputs("<tr><td>", f);
		esc(f, e->name);
		fputs("</td><td>", f);
		esc(f, e->category);
		fprintf(f, "</td><td class=\"num\">%zu of %zu</td><td>", e->failed,
			pg->graded);
		write_mix(f, e);
		fputs("</td><td>", f);
		esc(f, hint_of(pg, e->category));
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody>\n</table>\n", f);
}

/* One submission (a self-check, a student's own page) is shown as one:
 * its score and its categories' points, no histogram, mean or median of
 * one, and its cases are in its table below. */
static void write_one(const struct page *pg)
{
	FILE *f = pg->f;
	json_t *sub = htmlp_sub(pg, 0);
	double sc = get_num(sub, RK_SCORE), max = get_num(sub, RK_MAX_SCORE);

	fputs("<h2>Score</h2>\n<p id=\"stats\">", f);
	if (!graded(sub)) {
		/* The batch's word: "no submission", "not graded". */
		fputs("Not graded: ", f);
		esc(f, get_str(sub, RK_STATUS) ? get_str(sub, RK_STATUS) : "not graded");
		fputs(".</p>\n", f);
		json_decref(sub);
		return;
	}
	json_decref(sub);
	num(f, sc);
	fputs(" of ", f);
	num(f, max);
	fprintf(f, " (%.0f%%).</p>\n", max > 0 ? 100 * sc / max : 0.0);
	if (!pg->ncats)
		return;
	fputs("<h2>Categories</h2>\n<table id=\"categories\">\n<thead><tr>"
	      "<th>category</th><th class=\"num\">points</th><th>hint</th>"
	      "</tr></thead>\n<tbody>\n", f);
	for (size_t i = 0; i < pg->ncats; i++) {
		const struct cat *c = &pg->cats[i];

		fputs("<tr><td>", f);
		esc(f, c->name);
		fputs("</td><td class=\"num\">", f);
		num(f, c->sum);
		fputs(" / ", f);
		num(f, c->max);
		fputs("</td><td>", f);
		if (c->sum < c->max)
			esc(f, c->hint);
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody>\n</table>\n", f);
}

void htmlp_write_summary(const struct page *pg)
{
	if (pg->rows->n == 1) {
		write_one(pg);
		return;
	}
	write_scores(pg);
	write_categories(pg);
	write_failed(pg);
}

void htmlp_release(struct page *pg)
{
	for (size_t i = 0; i < pg->ncats; i++) {
		free(pg->cats[i].name);
		free(pg->cats[i].hint);
	}
	for (size_t i = 0; i < pg->nfails; i++) {
		free(pg->fails[i].name);
		free(pg->fails[i].category);
	}
	free(pg->scores);
	free(pg->cats);
	free(pg->fails);
}
