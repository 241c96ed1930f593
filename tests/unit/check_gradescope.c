/*
 * gradescope: results.json built from the reports of report_fixture.h,
 * written by the real report_json(). Hidden cases must reveal nothing but
 * their verdict; the expected numbers are worked out by hand from the
 * fixtures.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grader/lib/strbuf.h"
#include "grader/report/gradescope.h"
#include "tests/unit/report_fixture.h"

Suite *make_gradescope_suite(void);

static json_t *load_fixture(const char *name)
{
	json_t *j = report_fixture_json(name);

	ck_assert_ptr_nonnull(j);
	return j;
}

static const char *test_str(const json_t *res, size_t i, const char *key)
{
	const json_t *t = json_array_get(json_object_get(res, "tests"), i);
	const char *s = json_string_value(json_object_get(t, key));

	ck_assert_msg(s != NULL, "tests[%zu].%s missing", i, key);
	return s;
}

START_TEST(test_totals)
{
	json_t *r = load_fixture("mixed");
	json_t *res = gradescope_results(r);

	ck_assert_ptr_nonnull(res);
	ck_assert(json_is_integer(json_object_get(res, "score")));
	ck_assert_int_eq(json_integer_value(json_object_get(res, "score")), 3);
	/* No execution time: a hidden TLE would show in it. */
	ck_assert_ptr_null(json_object_get(res, "execution_time"));
	ck_assert_str_eq(json_string_value(
		json_object_get(res, "stdout_visibility")), "hidden");
	/* The submission that did not compile ran no case: no tests. */
	ck_assert_int_eq(json_array_size(json_object_get(res, "tests")), 6);
	json_decref(res);
	json_decref(r);
}
END_TEST

START_TEST(test_visible_case)
{
	json_t *r = load_fixture("mixed");
	json_t *res = gradescope_results(r);
	const json_t *t = json_array_get(json_object_get(res, "tests"), 1);

	/* Two submissions in one report: names say whose case it is. */
	ck_assert_str_eq(test_str(res, 1, "name"),
			 "submissions/rounding: strided_round");
	ck_assert_str_eq(test_str(res, 1, "number"), "1.2");
	ck_assert_str_eq(test_str(res, 1, "status"), "failed");
	ck_assert_str_eq(test_str(res, 1, "visibility"), "visible");
	ck_assert_int_eq(json_integer_value(json_object_get(t, "score")), 0);
	ck_assert_int_eq(json_integer_value(json_object_get(t, "max_score")), 2);
	ck_assert_str_eq(json_string_value(json_array_get(
		json_object_get(t, "tags"), 0)), "strided");
	ck_assert_ptr_nonnull(strstr(test_str(res, 1, "output"),
		"Wrong Answer (WA): first difference on line 3, column 14\n\n"
		"first difference: line 3, column 14\n"
		"  expected: efficiency 6.3% \"q\" 'a' <&>\n"));
	ck_assert_ptr_nonnull(strstr(test_str(res, 1, "output"),
		"--- expected\n+++ actual\n"));
	ck_assert_str_eq(test_str(res, 0, "status"), "passed");
	ck_assert_str_eq(test_str(res, 0, "output"), "Accepted (AC)");
	json_decref(res);
	json_decref(r);
}
END_TEST

START_TEST(test_hidden_case)
{
	json_t *r = load_fixture("mixed");
	json_t *res = gradescope_results(r);
	char *all;

	ck_assert_str_eq(test_str(res, 3, "name"),
			 "submissions/rounding: misaligned_secret");
	ck_assert_str_eq(test_str(res, 3, "number"), "3.1");
	ck_assert_str_eq(test_str(res, 3, "visibility"), "after_published");
	ck_assert_str_eq(test_str(res, 3, "output"), "Wrong Answer (WA)");
	ck_assert_str_eq(test_str(res, 4, "output"),
			 "Time Limit Exceeded (TLE)");
	ck_assert_str_eq(test_str(res, 2, "visibility"), "after_published");
	ck_assert_str_eq(test_str(res, 4, "number"), "3.2");
	ck_assert_str_eq(test_str(res, 5, "number"), "3.3");
	ck_assert_str_eq(test_str(res, 5, "visibility"), "visible");
	/* Neither the hidden detail nor its diff may leak anywhere. */
	all = json_dumps(res, 0);
	ck_assert_ptr_null(strstr(all, "SECRET"));
	free(all);
	json_decref(res);
	json_decref(r);
}
END_TEST

START_TEST(test_summary)
{
	json_t *r = load_fixture("mixed");
	json_t *res = gradescope_results(r);
	const char *out = json_string_value(json_object_get(res, "output"));

	ck_assert_ptr_nonnull(out);
	/* Shown at once: the visible cases only (the IE one left out), and
	 * no hint that only a hidden case earned (misaligned's). */
	ck_assert_ptr_nonnull(strstr(out, "Score on the visible cases: 2 / 4\n"
		"Verdicts: AC 1, WA 1, IE 1\n"
		"By category (visible cases):\n"
		"  strided              2 / 4  hint: round half up in integers, "
		"not with printf\n"
		"The hidden cases are graded too"));
	ck_assert_ptr_null(strstr(out, "a range that crosses"));
	ck_assert_ptr_null(strstr(out, "shared"));
	ck_assert_ptr_null(strstr(out, "TLE"));
	ck_assert_ptr_null(strstr(out, "3 / 7"));
	/* A build failure: the compiler's messages, then one line. */
	ck_assert_ptr_nonnull(strstr(out, "The compiler said:\n"
		"main.c:3:1: error: expected ';' before '}' token\n"
		"your program did not compile: no case was run\n"));
	json_decref(res);
	json_decref(r);
}
END_TEST

/* Points are whole numbers in what grade writes, but the report's are
 * JSON numbers: 1.5 + 1 stays 2.5. */
START_TEST(test_single_fractional)
{
	json_t *r = load_fixture("single");
	json_t *sub = json_array_get(json_object_get(r, "submissions"), 0);
	json_t *a = json_array_get(json_object_get(sub, "cases"), 0);
	json_t *res;

	json_object_set_new(a, "score", json_real(1.5));
	json_object_set_new(a, "max_score", json_real(1.5));
	json_object_set_new(sub, "score", json_real(2.5));
	json_object_set_new(sub, "max_score", json_real(2.5));
	res = gradescope_results(r);

	ck_assert(json_is_real(json_object_get(res, "score")));
	ck_assert(json_real_value(json_object_get(res, "score")) == 2.5);
	ck_assert_str_eq(test_str(res, 0, "name"), "a");   /* no prefix */
	ck_assert_str_eq(test_str(res, 1, "number"), "1.2");
	ck_assert_str_eq(test_str(res, 1, "status"), "passed");
	json_decref(res);
	json_decref(r);
}
END_TEST

START_TEST(test_verdict_names)
{
	ck_assert_str_eq(gradescope_verdict_name("RTE"), "Runtime Error");
	ck_assert_str_eq(gradescope_verdict_name("XYZ"), "XYZ");
	ck_assert_str_eq(gradescope_verdict_name(NULL), "?");
}
END_TEST

START_TEST(test_write)
{
	json_t *r = load_fixture("single");
	char *buf = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&buf, &n);
	json_error_t err;
	json_t *back;
	FILE *full;

	ck_assert_int_eq(gradescope_write(m, r), 0);
	fclose(m);
	back = json_loads(buf, 0, &err);
	ck_assert_msg(back != NULL, "%d:%d: %s", err.line, err.column,
		      err.text);
	ck_assert_int_eq(json_array_size(json_object_get(back, "tests")), 2);
	json_decref(back);
	free(buf);
	full = report_fixture_full_stream();
	ck_assert_ptr_nonnull(full);
	ck_assert_int_eq(gradescope_write(full, r), -1);
	fclose(full);
	json_decref(r);
}
END_TEST

/* What grade writes validates; each kind of fault is named by its key. */
START_TEST(test_validate)
{
	static const struct {
		const char *json, *error;
	} bad[] = {
		{ "[]", ": must be an object" },
		{ "{\"tests\": []}", "missing key 'score'" },
		{ "{\"score\": \"3\", \"tests\": []}", "score: must be a number" },
		{ "{\"score\": 1}", "missing key 'tests'" },
		{ "{\"score\": 1, \"tests\": [], \"sore\": 2}", "sore: unknown key" },
		{ "{\"score\": 1, \"tests\": [{\"name\": \"a\", \"status\": \"ok\"}]}",
		  "tests[0].status: must be a string Gradescope knows" },
		{ "{\"score\": 1, \"tests\": [{\"name\": \"a\", \"visibility\": \"later\"}]}",
		  "tests[0].visibility: must be a string Gradescope knows" },
		{ "{\"score\": 1, \"tests\": [{\"score\": 1}]}", "tests[0]: missing key 'name'" },
		{ "{\"score\": 1, \"tests\": [{\"name\": \"a\", \"tags\": [1]}]}",
		  "tests[0].tags[0]: must be a string" },
	};
	json_t *r = load_fixture("mixed");
	json_t *res = gradescope_results(r);
	struct strbuf err = STRBUF_INIT;

	ck_assert_msg(gradescope_validate(res, &err) == 0, "%s", strbuf_str(&err));
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		json_t *j = json_loads(bad[i].json, 0, NULL);

		ck_assert_ptr_nonnull(j);
		strbuf_reset(&err);
		ck_assert_int_eq(gradescope_validate(j, &err), -1);
		ck_assert_msg(strcmp(strbuf_str(&err), bad[i].error) == 0,
			      "%s: got '%s'", bad[i].json, strbuf_str(&err));
		json_decref(j);
	}
	strbuf_release(&err);
	json_decref(res);
	json_decref(r);
}
END_TEST

/* The texts Gradescope shows are scrubbed of what a submission chose
 * (usage.h): an escape in a case's detail reaches no "output" raw. */
START_TEST(test_output_scrubbed)
{
	json_t *r = load_fixture("mixed");
	json_t *k = json_array_get(json_object_get(json_array_get(
		json_object_get(r, "submissions"), 0), "cases"), 1);
	json_t *res;
	const char *out;

	ck_assert_int_eq(json_object_set_new(k, "detail",
		json_string("name '\033[31mx\033]0;t\007\xc2\x9b' refused")), 0);
	res = gradescope_results(r);
	out = test_str(res, 1, "output");
	ck_assert_msg(!strchr(out, '\033') && !strchr(out, '\007') &&
		      !strstr(out, "\xc2\x9b"), "raw: %s", out);
	ck_assert_ptr_nonnull(strstr(out, "name '?[31mx?]0;t?" "?' refused"));
	json_decref(res);
	json_decref(r);
}
END_TEST

Suite *make_gradescope_suite(void)
{
	Suite *s = suite_create("gradescope");
	TCase *tc = tcase_create("gradescope");

	tcase_add_test(tc, test_totals);
	tcase_add_test(tc, test_visible_case);
	tcase_add_test(tc, test_hidden_case);
	tcase_add_test(tc, test_summary);
	tcase_add_test(tc, test_single_fractional);
	tcase_add_test(tc, test_verdict_names);
	tcase_add_test(tc, test_write);
	tcase_add_test(tc, test_validate);
	tcase_add_test(tc, test_output_scrubbed);
	suite_add_tcase(s, tc);
	return s;
}
