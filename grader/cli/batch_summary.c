/*
 * batch_summary: DIR/summary.json (the class's figures: scores and their
 * distribution, verdicts, categories, the most failed cases with their
 * hints, who was not graded) and DIR/summary.txt, the same for a person.
 */
#include "grader/cli/batch_int.h"

#include <stdlib.h>
#include <string.h>

#include "grader/judge/verdict.h"
#include "grader/lib/usage.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The hint for a category: the suite's, else one a report carried. */
static const char *hint_for(const struct batch *b, const char *cat)
{
	const char *h = suite_hint(&b->suite, cat);

	for (size_t i = 0; !h && i < b->n; i++) {
		const json_t *c = batch_category_of(batch_only_sub(b->st[i].report), cat);

		h = json_string_value(json_object_get(c, "hint"));
	}
	return h;
}

/* {case name: {"case", "category", "failed", "verdicts": {V: n}}} */
static void count_failures(json_t *map, const json_t *sub)
{
	size_t i;
	const json_t *k;

	json_array_foreach(json_object_get(sub, "cases"), i, k) {
		const char *name = json_string_value(json_object_get(k, "name"));
		const char *v = json_string_value(json_object_get(k, "verdict"));
		json_t *e, *vs;

		if (!name || !v || verdict_from_code(v) == VERDICT_AC)
			continue;
		e = json_object_get(map, name);
		if (!e) {
			e = json_pack("{s:s, s:O, s:i, s:{}}", "case", name,
				      "category", json_object_get(k, "category"),
				      "failed", 0, "verdicts");
			if (!e)
				continue;
			json_object_set_new(map, name, e);
		}
		json_object_set_new(e, "failed", json_integer(
			json_integer_value(json_object_get(e, "failed")) + 1));
		vs = json_object_get(e, "verdicts");
		json_object_set_new(vs, v, json_integer(
			json_integer_value(json_object_get(vs, v)) + 1));
	}
}

static int cmp_failed(const void *a, const void *b)
{
	const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	json_int_t fx = json_integer_value(json_object_get(x, "failed"));
	json_int_t fy = json_integer_value(json_object_get(y, "failed"));

	if (fx != fy)
		return fx < fy ? 1 : -1;
	return strcmp(json_string_value(json_object_get(x, "case")),
		      json_string_value(json_object_get(y, "case")));
}

/* The most failed cases, most first, each with its category's hint. */
static json_t *most_failed(const struct batch *b, size_t graded)
{
	json_t *map = json_object(), *arr = json_array(), **v;
	const char *key;
	json_t *e;
	size_t n = 0;

	for (size_t i = 0; i < b->n; i++)
		if (b->st[i].report)
			count_failures(map, batch_only_sub(b->st[i].report));
	v = xmalloc((json_object_size(map) + 1) * sizeof *v);
	json_object_foreach(map, key, e)
		v[n++] = e;
	if (n)
		qsort(v, n, sizeof *v, cmp_failed);
	for (size_t i = 0; i < n && i < TOP_FAILED; i++) {
		const char *cat = json_string_value(json_object_get(v[i],
								    "category"));
		const char *h = cat ? hint_for(b, cat) : NULL;

		json_object_set_new(v[i], "of", json_integer((json_int_t)graded));
		json_object_set_new(v[i], "hint", h ? json_string(h) : json_null());
		json_array_append(arr, v[i]);
	}
	free(v);
	json_decref(map);
	return arr;
}

static json_t *category_stats(const struct batch *b)
{
	json_t *arr = json_array();

	for (size_t c = 0; c < b->suite.ncategories; c++) {
		const char *cat = b->suite.categories[c];
		double sum = 0, max = 0;
		size_t n = 0, full = 0;
		const char *h = hint_for(b, cat);

		for (size_t i = 0; i < b->n; i++) {
			const json_t *e = batch_category_of(batch_only_sub(b->st[i].report),
						      cat);
			double sc = json_number_value(json_object_get(e, "score"));

			if (!e)
				continue;
			max = json_number_value(json_object_get(e, "max_score"));
			sum += sc;
			n++;
			full += sc >= max;
		}
		json_array_append_new(arr, json_pack("{s:s, s:f, s:f, s:i, s:i, s:o}",
			"category", cat, "mean", n ? sum / (double)n : 0.0,
			"max_score", max, "full_marks", (int)full,
			"students", (int)n,
			"hint", h ? json_string(h) : json_null()));
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
		const json_t *sub = batch_only_sub(b->st[i].report);
		double m, pct;
		int bin;

		if (!sub)
			continue;
		m = json_number_value(json_object_get(sub, "max_score"));
		sc[n] = json_number_value(json_object_get(sub, "score"));
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
			"from_percent", i * (100 / HIST_BINS),
			"to_percent", (i + 1) * (100 / HIST_BINS),
			"count", hist[i]));
	res = json_pack("{s:f, s:f, s:f, s:f, s:f, s:o}",
		"max_score", max,
		"mean", n ? sum / (double)n : 0.0,
		"median", n ? (n % 2 ? sc[n / 2] :
			       (sc[n / 2 - 1] + sc[n / 2]) / 2) : 0.0,
		"lowest", n ? sc[0] : 0.0,
		"highest", n ? sc[n - 1] : 0.0,
		"histogram", h);
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
			sum += json_integer_value(json_object_get(json_object_get(
				batch_only_sub(b->st[i].report), "verdicts"),
				verdict_code((enum verdict)v)));
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
			? json_pack("{s:s, s:s}", "student", s->name, "error", s->error)
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

	rc |= json_object_set_new(sum, "shard", batch_shard_json(&b->shard));
	rc |= json_object_set_new(sum, "class_students", b->class_students ?
				  json_incref(b->class_students) : json_array());
	rc |= json_object_set_new(sum, "grader_version", json_string(WG_VERSION));
	rc |= json_object_set_new(sum, "suite_hash", json_string(b->suite_hash));
	rc |= json_object_set_new(sum, "grade_options",
				  json_string(b->options_key ? b->options_key : ""));
	rc |= json_object_set_new(sum, "suite_max_score",
				  json_integer((json_int_t)b->suite_max));
	if (b->merge)
		rc |= json_object_set_new(sum, "merge", json_incref(b->merge));
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

	json_object_set_new(scores, "partial", json_boolean(partial));
	json_object_set_new(scores, "students", json_integer((json_int_t)graded));
	sum = json_pack("{s:s, s:s, s:b, s:i, s:i, s:i, s:i, s:i, s:i, s:o, "
			 "s:i, s:o, s:o, s:o, s:o, s:o, s:o}",
		"suite", b->suite.name, "suite_dir", b->suite_dir,
		"partial", partial,
		"students", (int)b->n, "graded", (int)graded,
		"graded_now", (int)b->graded,
		"unchanged", (int)b->skipped,
		"not_graded", (int)(b->failed - json_array_size(not_started)),
		"no_submission", (int)b->no_submission,
		"no_submission_students", students_in(b, ST_NO_SUBMISSION, 0, 0),
		"not_started", (int)json_array_size(not_started),
		"not_started_students", not_started,
		"scores", scores,
		"verdicts", verdict_totals(b),
		"categories", category_stats(b),
		"most_failed", most_failed(b, graded),
		"errors", students_in(b, ST_FAILED, 0, 1));
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

	json_array_foreach(json_object_get(scores, "histogram"), i, h)
		if (json_integer_value(json_object_get(h, "count")) > top)
			top = json_integer_value(json_object_get(h, "count"));
	fputs("\nScore distribution (% of the maximum):\n", f);
	json_array_foreach(json_object_get(scores, "histogram"), i, h) {
		json_int_t c = json_integer_value(json_object_get(h, "count"));
		int bar = (int)(c * 40 / top);

		fprintf(f, "  [%3lld%%, %3lld%%%s |",
			(long long)json_integer_value(json_object_get(h,
							"from_percent")),
			(long long)json_integer_value(json_object_get(h,
							"to_percent")),
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
		const char *hint = json_string_value(json_object_get(e, "hint"));

		fprintf(f, "  %-24s %-14s failed by %lld of %lld (",
			json_string_value(json_object_get(e, "case")),
			json_string_value(json_object_get(e, "category")) ?
			json_string_value(json_object_get(e, "category")) : "?",
			(long long)json_integer_value(json_object_get(e, "failed")),
			(long long)json_integer_value(json_object_get(e, "of")));
		for (size_t k = 0; k < VERDICT_COUNT; k++) {
			json_int_t c = json_integer_value(json_object_get(
				json_object_get(e, "verdicts"), verdict_code((enum verdict)k)));

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
		fprintf(f, "%s%s", i ? ", " : "", json_string_value(e));
	}
	fputc('\n', f);
}

static long long int_of(const json_t *o, const char *key)
{
	return (long long)json_integer_value(json_object_get(o, key));
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
	const json_t *sh = json_object_get(sum, "shard");
	const json_t *merge = json_object_get(sum, "merge");
	size_t i;
	const json_t *e;

	if (int_of(sh, "count") > 1)
		fprintf(f, "shard %lld of %lld: %lld of the class's %zu students "
			"(grade --merge combines the shards)\n",
			int_of(sh, "index"), int_of(sh, "count"),
			int_of(sum, "students"),
			json_array_size(json_object_get(sum, "class_students")));
	if (!merge)
		return;
	fprintf(f, "merged from %zu shard outputs:",
		json_array_size(json_object_get(merge, "shards")));
	json_array_foreach(json_object_get(merge, "shards"), i, e)
		fprintf(f, " %s", json_string_value(e));
	fputc('\n', f);
}

void batch_write_summary_text(FILE *f, const json_t *sum)
{
	const json_t *sc = json_object_get(sum, "scores");
	int partial = json_is_true(json_object_get(sum, "partial"));
	const json_t *merge = json_object_get(sum, "merge");
	size_t i;
	const json_t *e;

	fprintf(f, "warpgrade batch: suite %s (%s)\n",
		json_string_value(json_object_get(sum, "suite")),
		json_string_value(json_object_get(sum, "suite_dir")));
	text_shard(f, sum);
	if (partial && merge)
		fprintf(f, "PARTIAL: a shard or a student is missing from the "
			"merge (below); %lld of %lld graded\n",
			int_of(sum, "graded"), int_of(sum, "students"));
	else if (partial)
		fprintf(f, "PARTIAL: the batch was interrupted; %lld of %lld "
			"graded\n", int_of(sum, "graded"), int_of(sum, "students"));
	fprintf(f, "%lld students: %lld graded now, %lld unchanged since the "
		"last run, %lld not graded", int_of(sum, "students"),
		int_of(sum, "graded_now"), int_of(sum, "unchanged"),
		int_of(sum, "not_graded"));
	if (int_of(sum, "not_started"))
		fprintf(f, ", %lld not started", int_of(sum, "not_started"));
	if (int_of(sum, "no_submission"))
		fprintf(f, ", %lld without a submission", int_of(sum, "no_submission"));
	fputs("\n", f);
	if (partial)
		fprintf(f, "Score out of %g (partial: over the %lld of %lld "
			"graded): mean %.2f, median %g, lowest %g, highest %g\n",
			json_number_value(json_object_get(sc, "max_score")),
			int_of(sum, "graded"), int_of(sum, "students"),
			json_number_value(json_object_get(sc, "mean")),
			json_number_value(json_object_get(sc, "median")),
			json_number_value(json_object_get(sc, "lowest")),
			json_number_value(json_object_get(sc, "highest")));
	else
		fprintf(f, "Score out of %g: mean %.2f, median %g, lowest %g, "
			"highest %g\n",
			json_number_value(json_object_get(sc, "max_score")),
			json_number_value(json_object_get(sc, "mean")),
			json_number_value(json_object_get(sc, "median")),
			json_number_value(json_object_get(sc, "lowest")),
			json_number_value(json_object_get(sc, "highest")));
	text_histogram(f, sc);
	fputs("\nBy category (mean / max, students with full marks):\n", f);
	json_array_foreach(json_object_get(sum, "categories"), i, e)
		fprintf(f, "  %-20s %6.2f / %-4g %lld of %lld\n",
			json_string_value(json_object_get(e, "category")),
			json_number_value(json_object_get(e, "mean")),
			json_number_value(json_object_get(e, "max_score")),
			int_of(e, "full_marks"), int_of(e, "students"));
	text_failed(f, json_object_get(sum, "most_failed"));
	if (json_array_size(json_object_get(sum, "errors")))
		fputs("\nNot graded (run the batch again to retry them):\n", f);
	json_array_foreach(json_object_get(sum, "errors"), i, e)
		fprintf(f, "  %s: %s\n",
			json_string_value(json_object_get(e, "student")),
			json_string_value(json_object_get(e, "error")));
	if (json_array_size(json_object_get(sum, "not_started_students")) ||
	    json_array_size(json_object_get(sum, "no_submission_students")))
		fputc('\n', f);
	text_names(f, "Not started (run the batch again to grade them)",
		   json_object_get(sum, "not_started_students"));
	text_names(f, "No submission (no .c file)",
		   json_object_get(sum, "no_submission_students"));
	if (merge && (json_array_size(json_object_get(merge, "missing_shards")) ||
		      json_array_size(json_object_get(merge, "missing_students"))))
		fputc('\n', f);
	text_numbers(f, "Missing shards (not given to the merge)",
		     json_object_get(merge, "missing_shards"));
	text_names(f, "Graded by no shard given",
		   json_object_get(merge, "missing_students"));
}

int batch_put_summary_text(FILE *f, const void *sum)
{
	batch_write_summary_text(f, sum);
	return 0;
}
