/*
 * junit: XML escaping of hostile bytes and the counts and shape of the
 * document for the "mixed" report of report_fixture.h, written by the real
 * report_json(): a submission with AC, WA (hostile bytes), a hidden WA
 * whose diff holds a secret, a hidden TLE and an IE case, and one that
 * failed to build. Expected counts are worked out by hand from it.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grader/report/junit.h"
#include "grader/lib/escape.h"
#include "tests/unit/report_fixture.h"

Suite *make_junit_suite(void);

static json_t *load_fixture(const char *name)
{
	json_t *j = report_fixture_json(name);

	ck_assert_ptr_nonnull(j);
	return j;
}

/* Caller frees the result. */
static char *escaped(const char *s, size_t len, int attr)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&buf, &n);

	ck_assert_ptr_nonnull(m);
	escape_xml(m, s, len, attr ? ESCAPE_ATTR : 0);
	fclose(m);
	return buf;
}

static char *document(const json_t *report)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&buf, &n);

	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(junit_write(m, report), 0);
	fclose(m);
	return buf;
}

#define ck_escape(in, attr, want) do { \
		char *got_ = escaped(in, sizeof(in) - 1, attr); \
		ck_assert_str_eq(got_, want); \
		free(got_); \
	} while (0)

START_TEST(test_escape_markup)
{
	ck_escape("a&b<c>\"d'e", 0, "a&amp;b&lt;c&gt;&quot;d&apos;e");
	ck_escape("plain text 12", 1, "plain text 12");
}
END_TEST

START_TEST(test_escape_whitespace)
{
	ck_escape("a\tb\nc\rd", 0, "a\tb\nc&#13;d");
	ck_escape("a\tb\nc\rd", 1, "a&#9;b&#10;c&#13;d");
}
END_TEST

START_TEST(test_escape_control)
{
	/* XML 1.0 forbids these even as character references. */
	ck_escape("\x01x\x1b[0m\x7f", 0, "\\x01x\\x1B[0m\\x7F");
	ck_escape("a\0b", 0, "a\\x00b");
}
END_TEST

START_TEST(test_escape_utf8)
{
	ck_escape("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x99\x82", 0,
		  "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x99\x82");
	ck_escape("\xff", 0, "\\xFF");
	ck_escape("\xc0\x80", 0, "\\xC0\\x80");          /* overlong NUL */
	ck_escape("\xed\xa0\x80", 0, "\\xED\\xA0\\x80");  /* surrogate */
	ck_escape("\xef\xbf\xbe", 0, "\\xEF\\xBF\\xBE");  /* U+FFFE */
	ck_escape("\xe2\x82", 0, "\\xE2\\x82");           /* truncated */
	ck_escape("\xc3", 0, "\\xC3");
}
END_TEST

START_TEST(test_counts)
{
	json_t *r = load_fixture("mixed");
	char *doc = document(r);

	/* rounding: 6 cases, WA WA TLE failed, IE an error, time the sum of
	 * the visible cases' wall times (the student view leaves hidden
	 * cases' times out: a channel their programs choose); no-compile: its build failed (1), its six cases
	 * were skipped. */
	ck_assert_ptr_nonnull(strstr(doc,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuites name=\"warpgrade hidden\" tests=\"13\" "
		"failures=\"4\" errors=\"1\" time=\"0.253\">"));
	/* The hidden TLE (1.02 s of wall time) shows no time to students. */
	ck_assert_ptr_nonnull(strstr(doc,
		"<testcase name=\"misaligned_slow\" "
		"classname=\"submissions/rounding.misaligned\" time=\"0.000\">"));
	ck_assert_ptr_nonnull(strstr(doc,
		"<testsuite name=\"submissions/rounding\" tests=\"6\" "
		"failures=\"3\" errors=\"1\" skipped=\"0\" time=\"0.253\">"));
	ck_assert_ptr_nonnull(strstr(doc,
		"<testsuite name=\"submissions/no-compile\" tests=\"7\" "
		"failures=\"1\" errors=\"0\" skipped=\"6\" time=\"0.000\">"));
	ck_assert_ptr_nonnull(strstr(doc,
		"<property name=\"score\" value=\"3\"/>\n"
		"      <property name=\"max_score\" value=\"7\"/>"));
	free(doc);
	json_decref(r);
}
END_TEST

START_TEST(test_cases)
{
	json_t *r = load_fixture("mixed");
	char *doc = document(r);

	ck_assert_ptr_nonnull(strstr(doc,
		"<testcase name=\"strided_basic\" "
		"classname=\"submissions/rounding.strided\" time=\"0.003\"/>"));
	/* The detail, then the whole diff as the writer stored it: markup
	 * escaped, the program's stray bytes as the diff escaped them. */
	ck_assert_ptr_nonnull(strstr(doc,
		"<testcase name=\"strided_round\" "
		"classname=\"submissions/rounding.strided\" time=\"0.250\">\n"
		"      <failure message=\"WA\" type=\"WA\">WA: first difference "
		"on line 3, column 14\n\nfirst difference: line 3, column 14\n"));
	ck_assert_ptr_nonnull(strstr(doc,
		"-efficiency 6.3% &quot;q&quot; &apos;a&apos; &lt;&amp;&gt;\n"
		"+efficiency 6.2%\\x01\\x1b[0m\\r\n</failure>"));
	ck_assert_ptr_nonnull(strstr(doc,
		"<system-err>warn\\x07 bell</system-err>"));
	ck_assert_ptr_nonnull(strstr(doc,
		"<error message=\"IE\" type=\"IE\">IE: grader failure: cannot fork"));
	/* A failed build: a testcase of its own that carries the log; the
	 * cases did not run. No suite-level <system-out>, which GitLab hides. */
	ck_assert_ptr_nonnull(strstr(doc,
		"<testcase name=\"build\" classname=\"submissions/no-compile\" "
		"time=\"0.000\">\n      <failure message=\"CE\" type=\"CE\">"
		"your program did not compile: no case was run\n\n"
		"main.c:3:1: error: expected &apos;;&apos; "
		"before &apos;}&apos; token</failure>"));
	ck_assert_ptr_nonnull(strstr(doc,
		"<testcase name=\"misaligned_ie\" "
		"classname=\"submissions/no-compile.misaligned\" time=\"0.000\">\n"
		"      <skipped message=\"not run: the build failed\"/>"));
	ck_assert_ptr_null(strstr(doc, "<system-out>"));
	free(doc);
	json_decref(r);
}
END_TEST

/* The student view (the default, and a report without "view") gives a
 * hidden case's verdict only; the staff view gives its detail and diff. */
START_TEST(test_views)
{
	json_t *r = load_fixture("mixed");
	char *doc = document(r);

	ck_assert_ptr_nonnull(strstr(doc,
		"<failure message=\"TLE\" type=\"TLE\">TLE (cpu time) "
		"(hidden case)</failure>"));
	ck_assert_ptr_nonnull(strstr(doc,
		"<failure message=\"WA\" type=\"WA\">WA (hidden case)</failure>"));
	ck_assert_ptr_null(strstr(doc, "SECRET"));
	free(doc);
	json_object_del(r, "view");
	doc = document(r);
	ck_assert_ptr_null(strstr(doc, "SECRET"));
	free(doc);
	json_object_set_new(r, "view", json_string("staff"));
	doc = document(r);
	ck_assert_ptr_nonnull(strstr(doc,
		"<failure message=\"TLE\" type=\"TLE\">TLE (cpu time): "
		"cpu time 1.01 s over the 1 s limit"));
	ck_assert_ptr_nonnull(strstr(doc, "-SECRET_EXPECTED 42"));
	free(doc);
	json_decref(r);
}
END_TEST

/* The same submission twice: every (classname, name) pair stays unique. */
START_TEST(test_unique_pairs)
{
	json_t *r = load_fixture("mixed");
	json_t *subs = json_object_get(r, "submissions");
	char *doc;

	json_array_append(subs, json_array_get(subs, 0));
	json_array_append(subs, json_array_get(subs, 1));
	doc = document(r);
	ck_assert_ptr_nonnull(strstr(doc,
		"<testcase name=\"strided_basic\" "
		"classname=\"submissions/rounding (2).strided\""));
	ck_assert_ptr_nonnull(strstr(doc,
		"<testcase name=\"strided_basic\" "
		"classname=\"submissions/rounding.strided\""));
	ck_assert_ptr_nonnull(strstr(doc,
		"<testcase name=\"build\" classname=\"submissions/no-compile (2)\""));
	free(doc);
	json_decref(r);
}
END_TEST

START_TEST(test_empty_report)
{
	json_t *r = json_pack("{s:s, s:[]}", "suite", "s", "submissions");
	char *doc = document(r);

	ck_assert_str_eq(doc,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuites name=\"warpgrade s\" tests=\"0\" failures=\"0\" "
		"errors=\"0\" time=\"0.000\">\n</testsuites>\n");
	free(doc);
	json_decref(r);
}
END_TEST

START_TEST(test_write_error)
{
	json_t *r = load_fixture("mixed");
	FILE *f = report_fixture_full_stream();

	ck_assert_ptr_nonnull(f);
	errno = 0;
	ck_assert_int_eq(junit_write(f, r), -1);
	ck_assert_int_ne(errno, 0);
	fclose(f);
	json_decref(r);
}
END_TEST

Suite *make_junit_suite(void)
{
	Suite *s = suite_create("junit");
	TCase *tc = tcase_create("junit");

	tcase_add_test(tc, test_escape_markup);
	tcase_add_test(tc, test_escape_whitespace);
	tcase_add_test(tc, test_escape_control);
	tcase_add_test(tc, test_escape_utf8);
	tcase_add_test(tc, test_counts);
	tcase_add_test(tc, test_cases);
	tcase_add_test(tc, test_views);
	tcase_add_test(tc, test_unique_pairs);
	tcase_add_test(tc, test_empty_report);
	tcase_add_test(tc, test_write_error);
	suite_add_tcase(s, tc);
	return s;
}
