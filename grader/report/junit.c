/*
 * junit: the grade report as JUnit XML. See junit.h for the document shape.
 *
 * The report's strings come from jansson and so are UTF-8 already, but the
 * diff and stderr tail hold whatever the student's program printed; escaping
 * (grader/lib/escape.h) therefore validates UTF-8 itself rather than trusting
 * its input, because a single stray byte makes the whole file unreadable to
 * an XML parser.
 */
#include "grader/report/junit.h"

#include "grader/judge/verdict.h"
#include "grader/lib/escape.h"
#include "grader/report/keys.h"
#include "grader/report/report_read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void esc_str(FILE *f, const char *s, int attr)
{
	if (s)
		escape_xml(f, s, strlen(s), attr ? ESCAPE_ATTR : 0);
}

struct counts {
	size_t tests, failures, errors, skipped;
	double seconds;
};

/* IE is the grader's own failure; CI shows it as an error, not a failure. */
static int is_error(const char *verdict)
{
	return verdict_is(verdict, VERDICT_IE);
}

static int is_pass(const char *verdict)
{
	return verdict_is(verdict, VERDICT_AC);
}

static int build_failed(const json_t *sub)
{
	const char *status = report_str(json_object_get(sub, RK_BUILD), RK_BUILD_STATUS);

	return status && strcmp(status, RK_BUILD_FAILED) == 0;
}

/* A failed build is one failed testcase, "build", and every case skipped:
 * none of them ran. */
static int secret(const json_t *k, int student);

/* The times of hidden cases are left out of the student view's sums. */
static void count_cases(const json_t *sub, struct counts *c, int student)
{
	const json_t *cases = json_object_get(sub, RK_CASES);
	size_t i;
	const json_t *k;

	if (build_failed(sub)) {
		c->tests += 1 + json_array_size(cases);
		c->failures++;
		c->skipped += json_array_size(cases);
		return;
	}
	json_array_foreach(cases, i, k) {
		const char *v = report_str(k, RK_VERDICT);

		c->tests++;
		if (is_error(v))
			c->errors++;
		else if (!is_pass(v))
			c->failures++;
		if (!secret(k, student))
			c->seconds += report_num(k, RK_WALL_MS) / 1000.0;
	}
}

/* In the student view a hidden case shows its verdict and nothing else:
 * no detail, no diff (the expected lines), no stderr. */
static int secret(const json_t *k, int student)
{
	const char *v = report_str(k, RK_VISIBILITY);

	return student && !(v && strcmp(v, RK_VISIBLE) == 0);
}

static void write_failure(FILE *f, const json_t *k, const char *verdict,
			  int student)
{
	const char *detail = report_str(k, RK_DETAIL);
	const char *diff = report_str(k, RK_DIFF);
	const char *tag = is_error(verdict) ? "error" : "failure";
	const char *limit = report_str(k, RK_LIMIT);

	fprintf(f, "      <%s message=\"", tag);
	esc_str(f, verdict ? verdict : "?", 1);
	fputs("\" type=\"", f);
	esc_str(f, verdict ? verdict : "?", 1);
	fputs("\">", f);
	esc_str(f, verdict ? verdict : "?", 0);
	if (limit) {
		fputs(" (", f);
		esc_str(f, limit, 0);
		fputs(" time)", f);
	}
	if (secret(k, student)) {
		fputs(" (hidden case)", f);
	} else {
		if (detail && *detail) {
			fputs(": ", f);
			esc_str(f, detail, 0);
		}
		if (diff && *diff) {
			fputs("\n\n", f);
			esc_str(f, diff, 0);
		}
	}
	fprintf(f, "</%s>\n", tag);
}

/* <testcase name=NAME classname=CLASS time=...> (not closed). */
static void open_case(FILE *f, const char *classname, const char *name,
		      double seconds)
{
	fputs("    <testcase name=\"", f);
	esc_str(f, name, 1);
	fputs("\" classname=\"", f);
	esc_str(f, classname, 1);
	fprintf(f, "\" time=\"%.3f\"", seconds);
}

static void write_case(FILE *f, const json_t *k, const char *classname,
		       int skipped, int student)
{
	const char *verdict = report_str(k, RK_VERDICT);
	const char *err = secret(k, student) ? NULL : report_str(k, RK_STDERR_TAIL);

	/* A hidden case's time is a channel its program chooses: none in the
	 * student view. */
	open_case(f, classname, report_str(k, RK_NAME),
		  skipped || secret(k, student) ? 0 : report_num(k, RK_WALL_MS) / 1000.0);
	if (skipped) {
		fputs(">\n      <skipped message=\"not run: the build failed\"/>\n"
		      "    </testcase>\n", f);
		return;
	}
	if (is_pass(verdict) && !(err && *err)) {
		fputs("/>\n", f);
		return;
	}
	fputs(">\n", f);
	if (!is_pass(verdict))
		write_failure(f, k, verdict, student);
	if (err && *err) {
		fputs("      <system-err>", f);
		esc_str(f, err, 0);
		fputs("</system-err>\n", f);
	}
	fputs("    </testcase>\n", f);
}

/* The failed build as a testcase of its own, the compiler's messages in
 * its failure: GitLab shows a testcase's failure, not a suite's
 * <system-out>. */
static void write_build(FILE *f, const json_t *sub, const char *classname)
{
	const char *log = report_str(json_object_get(sub, RK_BUILD), RK_BUILD_LOG);

	open_case(f, classname, "build", 0);
	fputs(">\n      <failure message=\"CE\" type=\"CE\">"
	      "your program did not compile: no case was run", f);
	if (log && *log) {
		fputs("\n\n", f);
		esc_str(f, log, 0);
	}
	fputs("</failure>\n    </testcase>\n", f);
}

static void write_property(FILE *f, const char *name, const char *value)
{
	fprintf(f, "      <property name=\"%s\" value=\"", name);
	esc_str(f, value, 1);
	fputs("\"/>\n", f);
}

static void write_properties(FILE *f, const json_t *sub)
{
	const json_t *build = json_object_get(sub, RK_BUILD);
	char num[64];

	fputs("    <properties>\n", f);
	snprintf(num, sizeof num, "%g", report_num(sub, RK_SCORE));
	write_property(f, "score", num);
	snprintf(num, sizeof num, "%g", report_num(sub, RK_MAX_SCORE));
	write_property(f, "max_score", num);
	if (report_str(build, RK_BUILD_STATUS))
		write_property(f, "build", report_str(build, RK_BUILD_STATUS));
	fputs("    </properties>\n", f);
}

/* ---- unique (classname, name) pairs ---- */

/* GitLab keeps one test case per (classname, name): each submission's
 * cases are named "SUBMISSION.CATEGORY" / "CASE" (and its failed build
 * "SUBMISSION" / "build"). Case names are unique within a suite, so a
 * pair can repeat only across submissions (the same path given twice, or
 * "a.b" + "c" against "a" + "b.c"); then the later submission's prefix
 * gets " (2)", " (3)"... seen is the set of pairs so far, as object keys
 * "CLASSNAME\nNAME". */
static char *pair_key(const char *prefix, const char *cat, const char *name)
{
	char *key = NULL;

	if (asprintf(&key, "%s%s%s\n%s", prefix, cat ? "." : "", cat ? cat : "",
		     name ? name : "") < 0)
		return NULL;
	return key;
}

/* One pair_key (freed here): 1 when it is already in seen, else 0; added
 * to seen when add; -1 when key is NULL (out of memory). */
static int pair_seen(json_t *seen, char *key, int add)
{
	int hit;

	if (!key)
		return -1;
	hit = json_object_get(seen, key) != NULL;
	if (add)
		json_object_set_new(seen, key, json_true());
	free(key);
	return hit;
}

/* Adds (add) or looks up the submission's pairs under prefix; 1 when one
 * of them is already in seen, -1 when out of memory. */
static int pairs(json_t *seen, const json_t *sub, const char *prefix, int add)
{
	const json_t *k;
	size_t i;
	int hit = 0, h;

	if (build_failed(sub)) {
		h = pair_seen(seen, pair_key(prefix, NULL, "build"), add);
		if (h < 0)
			return -1;
		hit |= h;
	}
	json_array_foreach(json_object_get(sub, RK_CASES), i, k) {
		h = pair_seen(seen, pair_key(prefix, report_str(k, RK_CATEGORY),
					     report_str(k, RK_NAME)), add);
		if (h < 0)
			return -1;
		hit |= h;
	}
	return hit;
}

/* The submission's prefix, unique as above (malloc'd), NULL when out of
 * memory. */
static char *unique_prefix(json_t *seen, const json_t *sub)
{
	const char *name = report_str(sub, RK_SUBMISSION);
	char *prefix = strdup(name ? name : "?");
	int hit;

	for (int n = 2; prefix && (hit = pairs(seen, sub, prefix, 0)) != 0; n++) {
		free(prefix);
		if (hit < 0 || asprintf(&prefix, "%s (%d)", name ? name : "?", n) < 0)
			return NULL;
	}
	if (prefix && pairs(seen, sub, prefix, 1) < 0) {
		free(prefix);
		return NULL;
	}
	return prefix;
}

static int write_submission(FILE *f, const json_t *sub, json_t *seen,
			    int student)
{
	const json_t *cases = json_object_get(sub, RK_CASES);
	struct counts c = { 0, 0, 0, 0, 0.0 };
	char *prefix = unique_prefix(seen, sub), *classname;
	int failed = build_failed(sub);
	size_t i;
	const json_t *k;

	if (!prefix)
		return -1;
	count_cases(sub, &c, student);
	fputs("  <testsuite name=\"", f);
	esc_str(f, report_str(sub, RK_SUBMISSION), 1);
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" "
		"skipped=\"%zu\" time=\"%.3f\">\n",
		c.tests, c.failures, c.errors, c.skipped, c.seconds);
	write_properties(f, sub);
	if (failed)
		write_build(f, sub, prefix);
	json_array_foreach(cases, i, k) {
		const char *cat = report_str(k, RK_CATEGORY);
		if (asprintf(&classname, "%s.%s", prefix, cat ? cat : "") < 0) {
			free(prefix);
			return -1;
		}
		write_case(f, k, classname, failed, student);
		free(classname);
	}
	fputs("  </testsuite>\n", f);
	free(prefix);
	return 0;
}

int junit_write(FILE *f, const json_t *report)
{
	const json_t *subs = json_object_get(report, RK_SUBMISSIONS);
	const char *view = report_str(report, RK_VIEW);
	/* Only an explicit staff report shows hidden diffs. */
	int student = !(view && strcmp(view, RK_VIEW_STAFF) == 0);
	struct counts all = { 0, 0, 0, 0, 0.0 };
	json_t *seen = json_object();
	size_t i;
	const json_t *sub;

	if (!seen) {
		errno = ENOMEM;
		return -1;
	}
	json_array_foreach(subs, i, sub)
		count_cases(sub, &all, student);
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fputs("<testsuites name=\"warpgrade ", f);
	esc_str(f, report_str(report, RK_SUITE), 1);
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" "
		"time=\"%.3f\">\n", all.tests, all.failures, all.errors,
		all.seconds);
	json_array_foreach(subs, i, sub)
		if (write_submission(f, sub, seen, student) < 0) {
			json_decref(seen);
			errno = ENOMEM;
			return -1;
		}
	json_decref(seen);
	fputs("</testsuites>\n", f);
	if (fflush(f) != 0 || ferror(f)) {
		if (errno == 0)
			errno = EIO;
		return -1;
	}
	return 0;
}
