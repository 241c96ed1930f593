/*
 * gradescope: the grade report as Gradescope's results.json. See
 * gradescope.h for the shape. The text pieces (each test's output, the
 * summary) are composed with open_memstream and then handed to jansson,
 * which owns everything from there; one cleanup path frees the rest.
 */
#include "grader/report/gradescope.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grader/judge/verdict.h"
#include "grader/lib/escape.h"
#include "grader/lib/strbuf.h"
#include "grader/lib/usage.h"
#include "grader/report/report.h"
#include "grader/report/keys.h"
#include "grader/report/report_read.h"

/* The summary carries the compiler's messages; a runaway log (thousands of
 * template errors) is cut to its head, which holds the first error. */
#define BUILD_LOG_MAX 8192

const char *gradescope_verdict_name(const char *verdict)
{
	const char *title;

	if (!verdict)
		return "?";
	title = verdict_title(verdict_from_code(verdict));
	return title ? title : verdict;
}

/* Whole points stay integers in the JSON; fractional ones stay exact.
 * (Compared by a cast, not floor(), so grade needs no libm.) */
static json_t *number(double v)
{
	if (v > -1e15 && v < 1e15 && v == (double)(json_int_t)v)
		return json_integer((json_int_t)v);
	return json_real(v);
}

static const char *visibility(const json_t *k)
{
	static const char *const passthrough[] = {
		"hidden", "after_due_date", "after_published", "visible",
	};
	const char *v = report_str(k, RK_VISIBILITY);

	if (!v || strcmp(v, RK_VISIBLE) == 0)
		return "visible";
	/* A hidden case stays secret until the grades are published. */
	if (strcmp(v, RK_HIDDEN) == 0)
		return "after_published";
	for (size_t i = 0; i < sizeof passthrough / sizeof *passthrough; i++)
		if (strcmp(v, passthrough[i]) == 0)
			return v;
	return "after_published"; /* unknown word: err on the secret side */
}

static int is_hidden(const json_t *k)
{
	return strcmp(visibility(k), "visible") != 0;
}

/* Takes ownership of the memstream buffer; NULL on failure. */
static json_t *take_text(FILE *m, char **buf, size_t *len)
{
	json_t *s;

	if (fclose(m) != 0) {
		free(*buf);
		return NULL;
	}
	/* Shown to students and staff as text: what a submission chose (a
	 * file name in a build log) is scrubbed (usage.h). */
	*len = escape_scrub(*buf, *len, 1);
	s = json_stringn(*buf, *len);
	if (!s) /* not UTF-8: keep what jansson accepts rather than nothing */
		s = json_string("(output not valid UTF-8)");
	free(*buf);
	return s;
}

/* A run that stopped early: the input line it fails on and the first
 * lines it wrote (report.h's "stop_line", "output_head"). */
static void put_progress(FILE *m, const json_t *k)
{
	json_int_t line = report_int(k, RK_STOP_LINE);
	const char *in = report_str(k, RK_STOP_INPUT), *head = report_str(k, RK_OUTPUT_HEAD);

	if (line > 0)
		fprintf(m, "\n\nIt %s once it reads input line %lld%s%s",
			report_verdict(k) == VERDICT_TLE
			? "runs out of time" : "fails", (long long)line,
			in ? ": " : "", in ? in : "");
	if (head)
		fprintf(m, "\n\nIts output (%lld lines; the first ones):\n%s",
			(long long)report_int(k, RK_OUTPUT_LINES),
			head);
}

static json_t *case_output(const json_t *k)
{
	const char *verdict = report_str(k, RK_VERDICT);
	const char *detail = report_str(k, RK_DETAIL);
	const char *diff = report_str(k, RK_DIFF);
	const char *limit = report_str(k, RK_LIMIT);
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	fprintf(m, "%s (%s)", gradescope_verdict_name(verdict),
		verdict ? verdict : "?");
	if (!is_hidden(k)) {
		if (limit)
			fprintf(m, ", %s time", limit);
		if (detail && *detail)
			fprintf(m, ": %s", detail);
		if (diff && *diff)
			fprintf(m, "\n\n%s", diff);
		put_progress(m, k);
	}
	return take_text(m, &buf, &len);
}

/* Position of the case's category among those seen so far (1-based),
 * adding it when new; cats is an array of strings. */
static size_t category_index(json_t *cats, const char *cat)
{
	size_t i;
	json_t *c;

	json_array_foreach(cats, i, c)
		if (strcmp(json_string_value(c), cat) == 0)
			return i + 1;
	json_array_append_new(cats, json_string(cat));
	return json_array_size(cats);
}

static json_t *make_test(const json_t *k, const char *prefix, json_t *cats,
			 json_t *per_cat)
{
	const char *cat = report_str(k, RK_CATEGORY);
	const char *name = report_str(k, RK_NAME);
	const char *verdict = report_str(k, RK_VERDICT);
	size_t ci, pos;
	char number_s[64], *full = NULL;
	json_t *t;

	cat = cat ? cat : "default";
	ci = category_index(cats, cat);
	while (json_array_size(per_cat) < ci)
		json_array_append_new(per_cat, json_integer(0));
	pos = (size_t)json_integer_value(json_array_get(per_cat, ci - 1)) + 1;
	json_array_set_new(per_cat, ci - 1, json_integer((json_int_t)pos));
	snprintf(number_s, sizeof number_s, "%zu.%zu", ci, pos);
	if (prefix && asprintf(&full, "%s: %s", prefix, name ? name : "?") < 0)
		return NULL;
	t = json_pack("{s:s, s:s, s:o, s:o, s:s, s:o*, s:s, s:[s]}",
		      "name", full ? full : (name ? name : "?"),
		      "number", number_s,
		      "score", number(report_num(k, RK_SCORE)),
		      "max_score", number(report_num(k, RK_MAX_SCORE)),
		      "status", verdict_is(verdict, VERDICT_AC) ?
				"passed" : "failed",
		      "output", case_output(k),
		      "visibility", visibility(k),
		      "tags", cat);
	free(full);
	return t;
}

/* An IE case is the grader's failure: out of both score and maximum. */
static int excluded(const json_t *k)
{
	return json_is_true(json_object_get(k, RK_EXCLUDED)) ||
	       report_verdict(k) == VERDICT_IE;
}

/* Verdict counts of the visible cases, in the fixed table order, zero
 * counts left out. */
static void summary_verdicts(FILE *m, const json_t *sub)
{
	const json_t *cases = json_object_get(sub, RK_CASES), *k;
	const char *sep = "Verdicts: ";
	size_t j;

	for (int v = 0; v < VERDICT_COUNT; v++) {
		long n = 0;

		json_array_foreach(cases, j, k)
			n += !is_hidden(k) &&
			     report_verdict(k) == (enum verdict)v;
		if (n <= 0)
			continue;
		fprintf(m, "%s%s %ld", sep, verdict_code((enum verdict)v), n);
		sep = ", ";
	}
	if (*sep == ',') /* something was printed */
		fputc('\n', m);
}

/* Each category's subtotal over its visible cases (a category with none
 * is left out), with its hint when those lost points. IE cases are the
 * grader's, left out of both sides. */
static void summary_categories(FILE *m, const json_t *sub)
{
	const json_t *cats = json_object_get(sub, RK_CATEGORIES);
	const json_t *cases = json_object_get(sub, RK_CASES);
	const char *title = "By category (visible cases):\n";
	size_t i, j;
	const json_t *c, *k;

	json_array_foreach(cats, i, c) {
		const char *name = report_str(c, RK_CATEGORY), *hint = report_str(c, RK_HINT);
		double score = 0, max = 0;
		int n = 0;

		json_array_foreach(cases, j, k) {
			const char *cat = report_str(k, RK_CATEGORY);
			if (is_hidden(k) || !cat || !name || strcmp(cat, name) ||
			    excluded(k))
				continue;
			score += report_num(k, RK_SCORE);
			max += report_num(k, RK_MAX_SCORE);
			n++;
		}
		if (!n)
			continue;
		fprintf(m, "%s  %-20s %g / %g", title, name, score, max);
		title = "";
		if (score < max && hint && *hint)
			fprintf(m, "  hint: %s", hint);
		fputc('\n', m);
	}
}

/* The score of the visible cases, and whether there are hidden ones. */
static int summary_score(FILE *m, const json_t *sub)
{
	const json_t *cases = json_object_get(sub, RK_CASES), *k;
	double score = 0, max = 0;
	int hidden = 0;
	size_t j;

	json_array_foreach(cases, j, k) {
		if (is_hidden(k)) {
			hidden = 1;
			continue;
		}
		if (excluded(k))
			continue;
		score += report_num(k, RK_SCORE);
		max += report_num(k, RK_MAX_SCORE);
	}
	if (!hidden)
		fprintf(m, "Score: %g / %g\n", score, max);
	else
		fprintf(m, "Score on the visible cases: %g / %g\n", score, max);
	return hidden;
}

static int build_failed(const json_t *sub)
{
	const char *status = report_str(json_object_get(sub, RK_BUILD), RK_BUILD_STATUS);

	return status && strcmp(status, RK_BUILD_FAILED) == 0;
}

/* The compiler's messages, cut to BUILD_LOG_MAX, then the one line. */
static void summary_build(FILE *m, const json_t *sub)
{
	const char *log = report_str(json_object_get(sub, RK_BUILD), RK_BUILD_LOG);
	size_t n = log ? strlen(log) : 0;

	fputs("The compiler said:\n", m);
	if (n > BUILD_LOG_MAX) {
		/* Cut on a UTF-8 boundary so jansson accepts the text. */
		n = BUILD_LOG_MAX;
		while (n > 0 && ((unsigned char)log[n] & 0xC0) == 0x80)
			n--;
	}
	if (n)
		fwrite(log, 1, n, m);
	if (log && n < strlen(log))
		fputs("\n[... compiler messages cut ...]", m);
	if (n && log[n - 1] != '\n')
		fputc('\n', m);
	fputs(REPORT_CE_LINE "\n", m);
}

static json_t *summary(const json_t *report)
{
	const json_t *subs = json_object_get(report, RK_SUBMISSIONS);
	char *buf = NULL;
	size_t len = 0, i;
	const json_t *sub;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	fprintf(m, "warpgrade %s, suite %s\n",
		report_str(report, RK_GRADER_VERSION) ?
			report_str(report, RK_GRADER_VERSION) : "",
		report_str(report, RK_SUITE) ? report_str(report, RK_SUITE) : "?");
	json_array_foreach(subs, i, sub) {
		if (json_array_size(subs) > 1)
			fprintf(m, "\n%s\n", report_str(sub, RK_SUBMISSION) ?
				report_str(sub, RK_SUBMISSION) : "?");
		if (build_failed(sub)) {
			summary_build(m, sub);
			continue;
		}
		int hidden = summary_score(m, sub);
		summary_verdicts(m, sub);
		summary_categories(m, sub);
		if (hidden)
			fputs("The hidden cases are graded too: their results, and "
			      "your total score, appear when the grades are "
			      "published.\n", m);
	}
	return take_text(m, &buf, &len);
}

static int add_tests(json_t *tests, const json_t *sub, int prefixed)
{
	const json_t *cases = json_object_get(sub, RK_CASES);
	json_t *cats = json_array(), *per_cat = json_array();
	const char *prefix = prefixed ? report_str(sub, RK_SUBMISSION) : NULL;
	int rc = -1;
	size_t i;
	const json_t *k;

	if (!cats || !per_cat)
		goto out;
	/* No case ran: the summary's compiler messages are the result. */
	if (build_failed(sub))
		cases = NULL;
	json_array_foreach(cases, i, k) {
		json_t *t = make_test(k, prefix, cats, per_cat);

		if (!t || json_array_append_new(tests, t) != 0)
			goto out;
	}
	rc = 0;
out:
	json_decref(cats);
	json_decref(per_cat);
	return rc;
}

json_t *gradescope_results(const json_t *report)
{
	const json_t *subs = json_object_get(report, RK_SUBMISSIONS);
	json_t *res = NULL, *tests = json_array();
	double total = 0;
	size_t i;
	const json_t *sub;

	if (!tests)
		return NULL;
	json_array_foreach(subs, i, sub) {
		total += report_num(sub, RK_SCORE);
		if (add_tests(tests, sub, json_array_size(subs) > 1) != 0)
			goto out;
	}
	/* No execution_time: students see it at once, and a hidden case's
	 * time limit would show in it. */
	res = json_pack("{s:o, s:o*, s:s, s:s, s:s, s:O}",
			"score", number(total),
			"output", summary(report),
			"output_format", "text",
			"test_output_format", "text",
			"stdout_visibility", "hidden",
			"tests", tests);
out:
	json_decref(tests);
	return res;
}

int gradescope_write(FILE *f, const json_t *report)
{
	json_t *res = gradescope_results(report);
	int rc;

	if (!res) {
		errno = ENOMEM;
		return -1;
	}
	rc = json_dumpf(res, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(res);
	if (rc == 0 && fputc('\n', f) == EOF)
		rc = -1;
	if (rc == 0 && fflush(f) != 0)
		rc = -1;
	if (rc != 0 && errno == 0)
		errno = EIO;
	return rc == 0 ? 0 : -1;
}

/* ---- validation ---- */

static const char *const visibilities[] = {
	"hidden", "after_due_date", "after_published", "visible", NULL,
};
static const char *const formats[] = {
	"text", "html", "simple_format", "md", "ansi", NULL,
};
static const char *const statuses[] = { "passed", "failed", NULL };

/* What the spec allows at the top level and in a test: key, JSON type,
 * the words a string may be (NULL: any), required. */
struct gs_field {
	const char *key;
	json_type type;
	const char *const *words;
	int required;
};

static const struct gs_field top_fields[] = {
	{ "score", JSON_REAL, NULL, 1 },
	{ "execution_time", JSON_REAL, NULL, 0 },
	{ "output", JSON_STRING, NULL, 0 },
	{ "output_format", JSON_STRING, formats, 0 },
	{ "test_output_format", JSON_STRING, formats, 0 },
	{ "test_name_format", JSON_STRING, formats, 0 },
	{ "visibility", JSON_STRING, visibilities, 0 },
	{ "stdout_visibility", JSON_STRING, visibilities, 0 },
	{ "extra_data", JSON_OBJECT, NULL, 0 },
	{ "tests", JSON_ARRAY, NULL, 1 },
	{ "leaderboard", JSON_ARRAY, NULL, 0 },
	{ NULL, 0, NULL, 0 },
};
static const struct gs_field test_fields[] = {
	{ "score", JSON_REAL, NULL, 0 },
	{ "max_score", JSON_REAL, NULL, 0 },
	{ "status", JSON_STRING, statuses, 0 },
	{ "name", JSON_STRING, NULL, 1 },
	{ "name_format", JSON_STRING, formats, 0 },
	{ "number", JSON_STRING, NULL, 0 },
	{ "output", JSON_STRING, NULL, 0 },
	{ "output_format", JSON_STRING, formats, 0 },
	{ "tags", JSON_ARRAY, NULL, 0 },
	{ "visibility", JSON_STRING, visibilities, 0 },
	{ "extra_data", JSON_OBJECT, NULL, 0 },
	{ NULL, 0, NULL, 0 },
};

static int type_ok(const json_t *v, json_type t)
{
	return t == JSON_REAL ? json_is_number(v) : json_typeof(v) == t;
}

static const char *type_name(json_type t)
{
	switch (t) {
	case JSON_REAL: return "a number";
	case JSON_STRING: return "a string";
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	default: return "a value";
	}
}

static int word_ok(const char *s, const char *const *words)
{
	for (; *words; words++)
		if (!strcmp(s, *words))
			return 1;
	return 0;
}

/* Checks object o (named where) against fields. */
static int check_fields(const json_t *o, const char *where,
			const struct gs_field *fields, struct strbuf *err)
{
	const char *key;
	const json_t *v;

	if (!json_is_object(o)) {
		strbuf_addf(err, "%s: must be an object", where);
		return -1;
	}
	json_object_foreach((json_t *)o, key, v) {
		const struct gs_field *f = fields;

		while (f->key && strcmp(f->key, key))
			f++;
		if (!f->key) {
			strbuf_addf(err, "%s%s%s: unknown key", where,
				    *where ? "." : "", key);
			return -1;
		}
		if (!type_ok(v, f->type) ||
		    (f->words && !word_ok(json_string_value(v), f->words))) {
			strbuf_addf(err, "%s%s%s: must be %s%s", where,
				    *where ? "." : "", key, type_name(f->type),
				    f->words ? " Gradescope knows" : "");
			return -1;
		}
	}
	for (const struct gs_field *f = fields; f->key; f++)
		if (f->required && !json_object_get(o, f->key)) {
			strbuf_addf(err, "%s%smissing key '%s'", where,
				    *where ? ": " : "", f->key);
			return -1;
		}
	return 0;
}

int gradescope_validate(const json_t *res, struct strbuf *err)
{
	const json_t *t;
	char where[64];
	size_t i;

	if (check_fields(res, "", top_fields, err) < 0)
		return -1;
	json_array_foreach(json_object_get(res, "tests"), i, t) {
		const json_t *tag;
		size_t j;

		snprintf(where, sizeof where, "tests[%zu]", i);
		if (check_fields(t, where, test_fields, err) < 0)
			return -1;
		json_array_foreach(json_object_get(t, "tags"), j, tag)
			if (!json_is_string(tag)) {
				strbuf_addf(err, "%s.tags[%zu]: must be a string",
					    where, j);
				return -1;
			}
	}
	return 0;
}

int gradescope_validate_file(const char *path, struct strbuf *err)
{
	json_error_t jerr;
	json_t *res = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	size_t mark = err->len;
	int rc;

	if (!res) {
		strbuf_addf(err, "%s:%d:%d: %s", path, jerr.line, jerr.column,
			    jerr.text);
		return -1;
	}
	/* "PATH: " before gradescope_validate's text, taken back if valid. */
	strbuf_addf(err, "%s: ", path);
	rc = gradescope_validate(res, err);
	if (rc == 0)
		strbuf_setlen(err, mark);
	json_decref(res);
	return rc;
}
