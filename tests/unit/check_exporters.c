/*
 * Every verdict of the enum (verdict.h) through every exporter of a report:
 * JUnit, Gradescope, the HTML page (its students' table, its cases failed
 * most, its drill-down data and the script that reads it) and the batch
 * gradebook's columns. A verdict an exporter keeps a list of its own for
 * (html_int.h's table, the page script's) cannot drop out of that list, or
 * move in it, without this failing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grader/judge/verdict.h"
#include "grader/lib/strbuf.h"
#include "grader/report/gradescope.h"
#include "grader/report/html.h"
#include "grader/report/junit.h"
#include "grader/report/keys.h"
#include "tests/unit/report_fixture.h"
#include "tests/unit/wg_check.h"

/* The "single" fixture with one case per verdict, "case_<CODE>", in the
 * enum's order, and the submission's verdict counts to match. */
static json_t *every_verdict_report(void)
{
	json_t *r = report_fixture_json("single");
	json_t *sub = json_array_get(json_object_get(r, RK_SUBMISSIONS), 0);
	json_t *cases = json_object_get(sub, RK_CASES);
	json_t *model = json_deep_copy(json_array_get(cases, 0));
	json_t *counts = json_object();

	ck_assert_ptr_nonnull(model);
	json_array_clear(cases);
	for (int v = 0; v < VERDICT_COUNT; v++) {
		json_t *k = json_deep_copy(model);
		char name[64];

		snprintf(name, sizeof(name), "case_%s", verdict_code((enum verdict)v));
		json_object_set_new(k, RK_NAME, json_string(name));
		json_object_set_new(k, RK_VERDICT,
				    json_string(verdict_code((enum verdict)v)));
		json_array_append_new(cases, k);
		json_object_set_new(counts, verdict_code((enum verdict)v),
				    json_integer(1));
	}
	json_object_set_new(sub, RK_VERDICTS, counts);
	json_decref(model);
	return r;
}

/* What fn wrote for r, NUL-terminated. Caller frees. */
static char *written(int (*fn)(FILE *, const json_t *), const json_t *r)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&buf, &n);

	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(fn(m, r), 0);
	fclose(m);
	return buf;
}

/* JUnit: AC passes, IE is an <error>, every other verdict a <failure>
 * of its own code. */
START_TEST(test_junit)
{
	json_t *r = every_verdict_report();
	char *doc = written(junit_write, r), want[256];
	enum verdict v = (enum verdict)_i;
	const char *code = verdict_code(v);

	snprintf(want, sizeof(want), "<testcase name=\"case_%s\"", code);
	const char *at = strstr(doc, want), *end;

	ck_assert_msg(at != NULL, "no testcase for %s", code);
	end = strstr(at + 1, "<testcase");
	end = end ? end : at + strlen(at);
	snprintf(want, sizeof(want), "<%s message=\"%s\" type=\"%s\">",
		 v == VERDICT_IE ? "error" : "failure", code, code);
	if (v == VERDICT_AC) {
		ck_assert_ptr_null(memmem(at, (size_t)(end - at), "<failure", 8));
		ck_assert_ptr_null(memmem(at, (size_t)(end - at), "<error", 6));
	} else {
		ck_assert_msg(memmem(at, (size_t)(end - at), want, strlen(want)),
			      "%s: no %s", code, want);
	}
	free(doc);
	json_decref(r);
}
END_TEST

/* Gradescope: passed for AC only; the output names the verdict's title
 * and code. */
START_TEST(test_gradescope)
{
	json_t *r = every_verdict_report();
	char *doc = written(gradescope_write, r), name[64], want[128];
	enum verdict v = (enum verdict)_i;
	json_t *g = json_loads(doc, 0, NULL), *t;
	size_t i;
	int found = 0;

	ck_assert_ptr_nonnull(g);
	snprintf(name, sizeof(name), "case_%s", verdict_code(v));
	snprintf(want, sizeof(want), "%s (%s)", verdict_title(v), verdict_code(v));
	json_array_foreach(json_object_get(g, "tests"), i, t) {
		const char *out = json_string_value(json_object_get(t, "output"));

		if (!strstr(json_string_value(json_object_get(t, "name")), name))
			continue;
		found = 1;
		ck_assert_str_eq(json_string_value(json_object_get(t, "status")),
				 v == VERDICT_AC ? "passed" : "failed");
		ck_assert_msg(out && strstr(out, want), "%s: output '%s'", name,
			      out ? out : "(none)");
	}
	ck_assert_msg(found, "no test %s", name);
	json_decref(g);
	free(doc);
	json_decref(r);
}
END_TEST

/* The page's data block: case `name`'s verdict, as the page encodes it. */
static const json_t *data_verdict(const json_t *data, const char *name)
{
	return json_array_get(report_fixture_html_case(data, 0, name), 1);
}

/* HTML: the students' table has the verdict's chip, the cases failed most
 * name it (never "other"), its colour is styled, and the drill-down's
 * data gives it as an index that the page's script maps back to the code. */
START_TEST(test_html)
{
	json_t *r = every_verdict_report();
	char *doc = written(html_write, r), want[256], name[64];
	enum verdict v = (enum verdict)_i;
	const char *code = verdict_code(v);
	json_t *data = report_fixture_html_data(doc);
	const json_t *dv;
	struct strbuf script = STRBUF_INIT;

	snprintf(want, sizeof(want), "<span class=\"v v-%s\">%s 1</span>", code,
		 code);
	ck_assert_msg(strstr(doc, want), "no chip %s", want);
	snprintf(want, sizeof(want), ".v-%s{", code);
	ck_assert_msg(strstr(doc, want), "no style %s", want);
	ck_assert_ptr_null(strstr(doc, "class=\"v v-other\""));
	/* The script's list, in the enum's order. */
	strbuf_addstr(&script, "var V = [");
	for (int i = 0; i < VERDICT_COUNT; i++)
		strbuf_addf(&script, "%s'%s'", i ? ", " : "",
			    verdict_code((enum verdict)i));
	strbuf_addstr(&script, "];");
	ck_assert_msg(strstr(doc, script.buf), "no %s", script.buf);
	ck_assert_ptr_nonnull(data);
	snprintf(name, sizeof(name), "case_%s", code);
	dv = data_verdict(data, name);
	ck_assert_msg(json_is_integer(dv) && json_integer_value(dv) == (json_int_t)v,
		      "%s: the data block's verdict is not %d", name, (int)v);
	strbuf_release(&script);
	json_decref(data);
	free(doc);
	json_decref(r);
}
END_TEST

Suite *make_exporters_suite(void)
{
	Suite *s = suite_create("exporters");
	TCase *t = tcase_create("every verdict");

	tcase_add_loop_test(t, test_junit, 0, VERDICT_COUNT);
	tcase_add_loop_test(t, test_gradescope, 0, VERDICT_COUNT);
	tcase_add_loop_test(t, test_html, 0, VERDICT_COUNT);
	suite_add_tcase(s, t);
	return s;
}
