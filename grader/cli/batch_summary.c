/*
 * batch_summary: DIR/summary.json (the class's figures: scores and their
 * distribution, verdicts, categories, the most failed cases with their
 * hints, who was not graded) and DIR/summary.txt, the same for a person.
 */
#include "grader/cli/batch_int.h"
#include "grader/cli/batch_keys.h"

#include <stdlib.h>
#include <string.h>

#include "grader/judge/verdict.h"
#include "grader/lib/escape.h"
#include "grader/lib/usage.h"
#include "grader/report/report_read.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int cmp_failed(const void *a, const void *b)
{
	const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	json_int_t fx = report_int(x, BK_FAILED);
	json_int_t fy = report_int(y, BK_FAILED);

	if (fx != fy)
		return fx < fy ? 1 : -1;
	return strcmp(report_str(x, BK_CASE),
		      report_str(y, BK_CASE));
}

/* The most failed cases, most first, each with its category's hint. */
static json_t *most_failed(const struct batch *b, size_t graded)
{
	json_t *all = batch_tally_failures(b), *arr = json_array(), **v;
	size_t n = json_array_size(all);

	if (!all || !arr)
		die("out of memory");
	v = xmalloc((n + 1) * sizeof *v);
	for (size_t i = 0; i < n; i++)
		v[i] = json_array_get(all, i);
	if (n)
		qsort(v, n, sizeof *v, cmp_failed);
	for (size_t i = 0; i < n && i < TOP_FAILED; i++) {
		const char *cat = report_str(v[i], RK_CATEGORY);
		const char *h = cat ? batch_tally_hint(b, cat) : NULL;

		json_object_set_new(v[i], BK_OF, json_integer((json_int_t)graded));
		json_object_set_new(v[i], RK_HINT, h ? json_string(h) : json_null());
		json_array_append(arr, v[i]);
	}
	free(v);
	json_decref(all);
	return arr;
}

static json_t *category_stats(const struct batch *b)
{
	json_t *arr = json_array();

	for (size_t c = 0; c < b->suite.ncategories; c++) {
		const char *cat = b->suite.categories[c];
		double sum = 0, max = 0;
		size_t n = 0, full = 0;
		const char *h = batch_tally_hint(b, cat);

		for (size_t i = 0; i < b->n; i++) {
			const struct batch_row_cat *e = b->st[i].row.cats ?
				&b->st[i].row.cats[c] : NULL;
			double sc = e ? e->score : 0;

			if (!e || !e->has)
				continue;
			max = e->max;
			sum += sc;
			n++;
			full += sc >= max;
		}
		json_array_append_new(arr, json_pack("{s:s, s:f, s:f, s:i, s:i, s:o}",
			RK_CATEGORY, cat, BK_MEAN, n ? sum / (double)n : 0.0,
			RK_MAX_SCORE, max, BK_FULL_MARKS, (int)full,
			BK_STUDENTS, (int)n,
			RK_HINT, h ? json_string(h) : json_null()));
	}
	return arr;
}

static json_t *score_stats(const struct batch *b, double *max_out)
{
	double *sc = xmalloc((b->n + 1) * sizeof *sc), max = 0, sum = 0;
	int hist[HIST_BINS] = { 0 };
	size_t n = 0;
	json_t *h = json_array(), *res;

	for (size_t i = 0; i < b->n; i++) {
		const struct batch_row *r = &b->st[i].row;
		double m, pct;
		int bin;

		if (!r->sub)
			continue;
		m = r->max;
		sc[n] = r->score;
		max = m > max ? m : max;
		sum += sc[n];
		pct = m > 0 ? 100.0 * sc[n] / m : 0;
		bin = (int)(pct / (100.0 / HIST_BINS));
		hist[bin >= HIST_BINS ? HIST_BINS - 1 : bin < 0 ? 0 : bin]++;
		n++;
	}
	if (n)
		qsort(sc, n, sizeof *sc, cmp_double);
	for (int i = 0; i < HIST_BINS; i++)
		json_array_append_new(h, json_pack("{s:i, s:i, s:i}",
			BK_FROM_PERCENT, i * (100 / HIST_BINS),
			BK_TO_PERCENT, (i + 1) * (100 / HIST_BINS),
			BK_COUNT, hist[i]));
	res = json_pack("{s:f, s:f, s:f, s:f, s:f, s:o}",
		RK_MAX_SCORE, max,
		BK_MEAN, n ? sum / (double)n : 0.0,
		BK_MEDIAN, n ? (n % 2 ? sc[n / 2] :
			       (sc[n / 2 - 1] + sc[n / 2]) / 2) : 0.0,
		BK_LOWEST, n ? sc[0] : 0.0,
		BK_HIGHEST, n ? sc[n - 1] : 0.0,
		BK_HISTOGRAM, h);
	free(sc);
	*max_out = max;
	return res;
}

static json_t *verdict_totals(const struct batch *b)
{
	json_t *t = json_object();

	for (size_t v = 0; v < VERDICT_COUNT; v++) {
		json_int_t sum = 0;

		for (size_t i = 0; i < b->n; i++)
			sum += b->st[i].row.verdicts[v];
		json_object_set_new(t, verdict_code((enum verdict)v), json_integer(sum));
	}
	return t;
}

/* The students in state st (not_started: only those, else not those). */
static json_t *students_in(const struct batch *b, enum student_state st,
			   int not_started, int with_error)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < b->n; i++) {
		const struct student *s = &b->st[i];

		if (s->state != st || (st == ST_FAILED && s->not_started != not_started))
			continue;
		json_array_append_new(arr, with_error
			? json_pack("{s:s, s:s}", RK_STUDENT, s->name, RK_ERROR, s->error)
			: json_string(s->name));
	}
	return arr;
}

/* What grade --merge needs of a shard's summary, besides the figures:
 * which shard it is, the whole class (found before the shard filter, so
 * that a merge can name the students no shard graded), the keys every
 * student report carries (a shard without students has none), the
 * suite's points; and, in a merge's summary, what was merged. */
static int add_shard_keys(json_t *sum, const struct batch *b)
{
	int rc = 0;

	rc |= json_object_set_new(sum, BK_SHARD, batch_shard_json(&b->shard));
	rc |= json_object_set_new(sum, BK_CLASS_STUDENTS, b->class_students ?
				  json_incref(b->class_students) : json_array());
	rc |= json_object_set_new(sum, RK_GRADER_VERSION, json_string(WG_VERSION));
	rc |= json_object_set_new(sum, BK_SUITE_HASH, json_string(b->suite_hash));
	rc |= json_object_set_new(sum, BK_GRADE_OPTIONS,
				  json_string(b->options_key ? b->options_key : ""));
	rc |= json_object_set_new(sum, BK_SUITE_MAX_SCORE,
				  json_integer((json_int_t)b->suite_max));
	if (b->merge)
		rc |= json_object_set_new(sum, BK_MERGE, json_incref(b->merge));
	return rc ? -1 : 0;
}

/* An interrupted batch's figures are over the students graded so far, and
 * say so: "partial", "graded" of "students". Students never started are
 * one count and one list, not one error each. */
json_t *batch_summary_json(const struct batch *b)
{
	double max;
	size_t graded = b->graded + b->skipped;
	json_t *scores = score_stats(b, &max);
	json_t *not_started = students_in(b, ST_FAILED, 1, 0);
	int partial = b->stop_signal != 0 || b->partial;
	json_t *sum;

	json_object_set_new(scores, BK_PARTIAL, json_boolean(partial));
	json_object_set_new(scores, BK_STUDENTS, json_integer((json_int_t)graded));
	sum = json_pack("{s:s, s:s, s:b, s:i, s:i, s:i, s:i, s:i, s:i, s:o, "
			 "s:i, s:o, s:o, s:o, s:o, s:o, s:o}",
		RK_SUITE, b->suite.name, RK_SUITE_DIR, b->suite_dir,
		BK_PARTIAL, partial,
		BK_STUDENTS, (int)b->n, BK_GRADED, (int)graded,
		BK_GRADED_NOW, (int)b->graded,
		BK_UNCHANGED, (int)b->skipped,
		BK_NOT_GRADED, (int)(b->failed - json_array_size(not_started)),
		BK_NO_SUBMISSION, (int)b->no_submission,
		BK_NO_SUBMISSION_STUDENTS, students_in(b, ST_NO_SUBMISSION, 0, 0),
		BK_NOT_STARTED, (int)json_array_size(not_started),
		BK_NOT_STARTED_STUDENTS, not_started,
		BK_SCORES, scores,
		RK_VERDICTS, verdict_totals(b),
		RK_CATEGORIES, category_stats(b),
		BK_MOST_FAILED, most_failed(b, graded),
		BK_ERRORS, students_in(b, ST_FAILED, 0, 1));
	if (sum && add_shard_keys(sum, b) != 0) {
		json_decref(sum);
		return NULL;
	}
	return sum;
}

static void text_histogram(FILE *f, const json_t *scores)
{
	size_t i;
	const json_t *h;
	json_int_t top = 1;

	json_array_foreach(json_object_get(scores, BK_HISTOGRAM), i, h)
		if (report_int(h, BK_COUNT) > top)
			top = report_int(h, BK_COUNT);
	fputs("\nScore distribution (% of the maximum):\n", f);
	json_array_foreach(json_object_get(scores, BK_HISTOGRAM), i, h) {
		json_int_t c = report_int(h, BK_COUNT);
		int bar = (int)(c * 40 / top);

		fprintf(f, "  [%3lld%%, %3lld%%%s |",
			(long long)report_int(h, BK_FROM_PERCENT),
			(long long)report_int(h, BK_TO_PERCENT),
			i == HIST_BINS - 1 ? "]" : ")");
		for (int k = 0; k < bar; k++)
			fputc('#', f);
		fprintf(f, " %lld\n", (long long)c);
	}
}

static void text_failed(FILE *f, const json_t *failed)
{
	size_t i;
	const json_t *e;

	if (!json_array_size(failed))
		return;
	fputs("\nMost often failed cases:\n", f);
	json_array_foreach(failed, i, e) {
		const char *sep = "";
		const char *hint = report_str(e, RK_HINT);

		fprintf(f, "  %-24s %-14s failed by %lld of %lld (",
			report_str(e, BK_CASE),
			report_str(e, RK_CATEGORY) ?
			report_str(e, RK_CATEGORY) : "?",
			(long long)report_int(e, BK_FAILED),
			(long long)report_int(e, BK_OF));
		for (size_t k = 0; k < VERDICT_COUNT; k++) {
			json_int_t c = report_int(json_object_get(e, RK_VERDICTS),
						  verdict_code((enum verdict)k));

			if (c <= 0)
				continue;
			fprintf(f, "%s%s %lld", sep, verdict_code((enum verdict)k),
				(long long)c);
			sep = ", ";
		}
		fputs(")\n", f);
		if (hint)
			fprintf(f, "      hint: %s\n", hint);
	}
}

/* A student's text in summary.txt: scrubbed (usage.h). */
static void put_scrubbed(FILE *f, const char *s)
{
	if (s)
		escape_fput_scrubbed(f, s, strlen(s), 0);
}

#define LONG_LIST 20   /* names printed on one line before "..." */

/* "label (N): a, b, c" for a list of names. */
static void text_names(FILE *f, const char *label, const json_t *names)
{
	size_t i;
	const json_t *e;

	if (!json_array_size(names))
		return;
	fprintf(f, "%s (%zu): ", label, json_array_size(names));
	json_array_foreach(names, i, e) {
		if (i == LONG_LIST) {
			fputs(", ...", f);
			break;
		}
		fputs(i ? ", " : "", f);
		put_scrubbed(f, json_string_value(e));
	}
	fputc('\n', f);
}

/* "label (N): 2, 3" for a list of numbers. */
static void text_numbers(FILE *f, const char *label, const json_t *nums)
{
	size_t i;
	const json_t *e;

	if (!json_array_size(nums))
		return;
	fprintf(f, "%s (%zu): ", label, json_array_size(nums));
	json_array_foreach(nums, i, e)
		fprintf(f, "%s%lld", i ? ", " : "",
			(long long)json_integer_value(e));
	fputc('\n', f);
}

/* "shard K of N" for a shard; the folders merged for a merge. */
static void text_shard(FILE *f, const json_t *sum)
{
	const json_t *sh = json_object_get(sum, BK_SHARD);
	const json_t *merge = json_object_get(sum, BK_MERGE);
	size_t i;
	const json_t *e;

	if (report_int(sh, BK_COUNT) > 1)
		fprintf(f, "shard %lld of %lld: %lld of the class's %zu students "
			"(grade --merge combines the shards)\n",
			report_int(sh, BK_INDEX), report_int(sh, BK_COUNT),
			report_int(sum, BK_STUDENTS),
			json_array_size(json_object_get(sum, BK_CLASS_STUDENTS)));
	if (!merge)
		return;
	fprintf(f, "merged from %zu shard outputs:",
		json_array_size(json_object_get(merge, BK_SHARDS)));
	json_array_foreach(json_object_get(merge, BK_SHARDS), i, e)
		fprintf(f, " %s", json_string_value(e));
	fputc('\n', f);
}

void batch_write_summary_text(FILE *f, const json_t *sum)
{
	const json_t *sc = json_object_get(sum, BK_SCORES);
	int partial = json_is_true(json_object_get(sum, BK_PARTIAL));
	const json_t *merge = json_object_get(sum, BK_MERGE);
	size_t i;
	const json_t *e;

	fprintf(f, "warpgrade batch: suite %s (%s)\n",
		report_str(sum, RK_SUITE),
		report_str(sum, RK_SUITE_DIR));
	text_shard(f, sum);
	if (partial && merge)
		fprintf(f, "PARTIAL: a shard or a student is missing from the "
			"merge (below); %lld of %lld graded\n",
			report_int(sum, BK_GRADED), report_int(sum, BK_STUDENTS));
	else if (partial)
		fprintf(f, "PARTIAL: the batch was interrupted; %lld of %lld "
			"graded\n", report_int(sum, BK_GRADED), report_int(sum, BK_STUDENTS));
	fprintf(f, "%lld students: %lld graded now, %lld unchanged since the "
		"last run, %lld not graded", report_int(sum, BK_STUDENTS),
		report_int(sum, BK_GRADED_NOW), report_int(sum, BK_UNCHANGED),
		report_int(sum, BK_NOT_GRADED));
	if (report_int(sum, BK_NOT_STARTED))
		fprintf(f, ", %lld not started", report_int(sum, BK_NOT_STARTED));
	if (report_int(sum, BK_NO_SUBMISSION))
		fprintf(f, ", %lld without a submission", report_int(sum, BK_NO_SUBMISSION));
	fputs("\n", f);
	if (partial)
		fprintf(f, "Score out of %g (partial: over the %lld of %lld "
			"graded): mean %.2f, median %g, lowest %g, highest %g\n",
			report_num(sc, RK_MAX_SCORE),
			report_int(sum, BK_GRADED), report_int(sum, BK_STUDENTS),
			report_num(sc, BK_MEAN),
			report_num(sc, BK_MEDIAN),
			report_num(sc, BK_LOWEST),
			report_num(sc, BK_HIGHEST));
	else
		fprintf(f, "Score out of %g: mean %.2f, median %g, lowest %g, "
			"highest %g\n",
			report_num(sc, RK_MAX_SCORE),
			report_num(sc, BK_MEAN),
			report_num(sc, BK_MEDIAN),
			report_num(sc, BK_LOWEST),
			report_num(sc, BK_HIGHEST));
	verdict_print_legend(f);
	text_histogram(f, sc);
	fputs("\nBy category (mean / max, students with full marks):\n", f);
	json_array_foreach(json_object_get(sum, RK_CATEGORIES), i, e)
		fprintf(f, "  %-20s %6.2f / %-4g %lld of %lld\n",
			report_str(e, RK_CATEGORY),
			report_num(e, BK_MEAN),
			report_num(e, RK_MAX_SCORE),
			report_int(e, BK_FULL_MARKS), report_int(e, BK_STUDENTS));
	text_failed(f, json_object_get(sum, BK_MOST_FAILED));
	if (json_array_size(json_object_get(sum, BK_ERRORS)))
		fputs("\nNot graded (run the batch again to retry them):\n", f);
	json_array_foreach(json_object_get(sum, BK_ERRORS), i, e) {
		fputs("  ", f);
		put_scrubbed(f, report_str(e, RK_STUDENT));
		fputs(": ", f);
		put_scrubbed(f, report_str(e, RK_ERROR));
		fputc('\n', f);
	}
	if (json_array_size(json_object_get(sum, BK_NOT_STARTED_STUDENTS)) ||
	    json_array_size(json_object_get(sum, BK_NO_SUBMISSION_STUDENTS)))
		fputc('\n', f);
	text_names(f, "Not started (run the batch again to grade them)",
		   json_object_get(sum, BK_NOT_STARTED_STUDENTS));
	text_names(f, "No submission (no .c file, or sources in two folders)",
		   json_object_get(sum, BK_NO_SUBMISSION_STUDENTS));
	if (merge && (json_array_size(json_object_get(merge, BK_MISSING_SHARDS)) ||
		      json_array_size(json_object_get(merge, BK_MISSING_STUDENTS))))
		fputc('\n', f);
	text_numbers(f, "Missing shards (not given to the merge)",
		     json_object_get(merge, BK_MISSING_SHARDS));
	text_names(f, "Graded by no shard given",
		   json_object_get(merge, BK_MISSING_STUDENTS));
}

int batch_put_summary_text(FILE *f, const void *sum)
{
	batch_write_summary_text(f, sum);
	return 0;
}
