/*
 * gradescope: the grade report as Gradescope's results.json. See
 * gradescope.h for the shape. The text pieces (each test's output, the
 * summary) are composed with open_memstream and then handed to jansson,
 * which owns everything from there; one cleanup path frees the rest.
 */
#include "grader/gradescope.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The summary carries the compiler's messages; a runaway log (thousands of
 * template errors) is cut to its head, which holds the first error. */
#define BUILD_LOG_MAX 8192

static const struct {
	const char *code, *name;
} verdict_names[] = {
	{ "AC", "Accepted" },
	{ "WA", "Wrong Answer" },
	{ "TLE", "Time Limit Exceeded" },
	{ "MLE", "Memory Limit Exceeded" },
	{ "OLE", "Output Limit Exceeded" },
	{ "RTE", "Runtime Error" },
	{ "CE", "Compilation Error" },
	{ "IE", "Internal Error (the grader's fault, not yours)" },
};

const char *gradescope_verdict_name(const char *verdict)
{
	if (!verdict)
		return "?";
	for (size_t i = 0; i < sizeof verdict_names / sizeof *verdict_names; i++)
		if (strcmp(verdict_names[i].code, verdict) == 0)
			return verdict_names[i].name;
	return verdict;
}

static const char *get_str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static double get_num(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
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
	const char *v = get_str(k, "visibility");

	if (!v || strcmp(v, "visible") == 0)
		return "visible";
	/* A hidden case stays secret until the grades are published. */
	if (strcmp(v, "hidden") == 0)
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
	s = json_stringn(*buf, *len);
	if (!s) /* not UTF-8: keep what jansson accepts rather than nothing */
		s = json_string("(output not valid UTF-8)");
	free(*buf);
	return s;
}

static json_t *case_output(const json_t *k)
{
	const char *verdict = get_str(k, "verdict");
	const char *detail = get_str(k, "detail");
	const char *diff = get_str(k, "diff");
	const char *limit = get_str(k, "limit");
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
	const char *cat = get_str(k, "category");
	const char *name = get_str(k, "name");
	const char *verdict = get_str(k, "verdict");
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
		      "score", number(get_num(k, "score")),
		      "max_score", number(get_num(k, "max_score")),
		      "status", verdict && strcmp(verdict, "AC") == 0 ?
				"passed" : "failed",
		      "output", case_output(k),
		      "visibility", visibility(k),
		      "tags", cat);
	free(full);
	return t;
}

/* Verdict counts in the fixed table order, zero counts left out. */
static void summary_verdicts(FILE *m, const json_t *sub)
{
	const json_t *counts = json_object_get(sub, "verdicts");
	const char *sep = "Verdicts: ";

	for (size_t i = 0; i < sizeof verdict_names / sizeof *verdict_names; i++) {
		json_int_t n = json_integer_value(
			json_object_get(counts, verdict_names[i].code));

		if (n <= 0)
			continue;
		fprintf(m, "%s%s %lld", sep, verdict_names[i].code,
			(long long)n);
		sep = ", ";
	}
	if (*sep == ',') /* something was printed */
		fputc('\n', m);
}

static void summary_categories(FILE *m, const json_t *sub)
{
	const json_t *cats = json_object_get(sub, "categories");
	size_t i;
	const json_t *c;

	if (json_array_size(cats))
		fputs("By category:\n", m);
	json_array_foreach(cats, i, c) {
		double s = get_num(c, "score"), mx = get_num(c, "max_score");
		const char *hint = get_str(c, "hint");

		fprintf(m, "  %-20s %g / %g", get_str(c, "category") ?
			get_str(c, "category") : "?", s, mx);
		if (s < mx && hint && *hint)
			fprintf(m, "  hint: %s", hint);
		fputc('\n', m);
	}
}

static void summary_build(FILE *m, const json_t *sub)
{
	const json_t *build = json_object_get(sub, "build");
	const char *status = get_str(build, "status");
	const char *log = get_str(build, "log");
	size_t n;

	if (!status || strcmp(status, "failed") != 0)
		return;
	fputs("\nThe build failed; the compiler said:\n", m);
	if (!log)
		return;
	n = strlen(log);
	if (n > BUILD_LOG_MAX) {
		/* Cut on a UTF-8 boundary so jansson accepts the text. */
		n = BUILD_LOG_MAX;
		while (n > 0 && ((unsigned char)log[n] & 0xC0) == 0x80)
			n--;
	}
	fwrite(log, 1, n, m);
	if (n < strlen(log))
		fputs("\n[... compiler messages cut ...]", m);
	fputc('\n', m);
}

static json_t *summary(const json_t *report)
{
	const json_t *subs = json_object_get(report, "submissions");
	char *buf = NULL;
	size_t len = 0, i;
	const json_t *sub;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	fprintf(m, "warpgrade %s, suite %s\n",
		get_str(report, "grader_version") ?
			get_str(report, "grader_version") : "",
		get_str(report, "suite") ? get_str(report, "suite") : "?");
	json_array_foreach(subs, i, sub) {
		if (json_array_size(subs) > 1)
			fprintf(m, "\n%s\n", get_str(sub, "submission") ?
				get_str(sub, "submission") : "?");
		fprintf(m, "Score: %g / %g\n", get_num(sub, "score"),
			get_num(sub, "max_score"));
		summary_verdicts(m, sub);
		summary_categories(m, sub);
		summary_build(m, sub);
	}
	return take_text(m, &buf, &len);
}

static int add_tests(json_t *tests, const json_t *sub, int prefixed)
{
	const json_t *cases = json_object_get(sub, "cases");
	json_t *cats = json_array(), *per_cat = json_array();
	const char *prefix = prefixed ? get_str(sub, "submission") : NULL;
	int rc = -1;
	size_t i;
	const json_t *k;

	if (!cats || !per_cat)
		goto out;
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

json_t *gradescope_results(const json_t *report, double execution_time_s)
{
	const json_t *subs = json_object_get(report, "submissions");
	json_t *res = NULL, *tests = json_array();
	double total = 0;
	size_t i;
	const json_t *sub;

	if (!tests)
		return NULL;
	json_array_foreach(subs, i, sub) {
		total += get_num(sub, "score");
		if (add_tests(tests, sub, json_array_size(subs) > 1) != 0)
			goto out;
	}
	res = json_pack("{s:o, s:I, s:o*, s:s, s:s, s:s, s:O}",
			"score", number(total),
			"execution_time",
			(json_int_t)(execution_time_s + 0.5),
			"output", summary(report),
			"output_format", "text",
			"test_output_format", "text",
			"stdout_visibility", "hidden",
			"tests", tests);
out:
	json_decref(tests);
	return res;
}

int gradescope_write(FILE *f, const json_t *report, double execution_time_s)
{
	json_t *res = gradescope_results(report, execution_time_s);
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
