/* options: the one way every mode reads an option's value (options_value,
 * options_is) and finds a row of the table (options_find). */
#include <string.h>

#include "grader/cli/options.h"
#include "grader/lib/usage.h"
#include "tests/unit/wg_check.h"

START_TEST(test_is)
{
	ck_assert(options_is("--suite-report-json", "--suite-report-json"));
	ck_assert(options_is("--suite-report-json=x", "--suite-report-json"));
	ck_assert(!options_is("--suite-report-jsonx", "--suite-report-json"));
	ck_assert(!options_is("--suite-report-js", "--suite-report-json"));
	ck_assert(!options_is("-suite-report-json", "--suite-report-json"));
}
END_TEST

START_TEST(test_value)
{
	char *argv[] = { "grade", "--out=o1", "--out", "o2", "-j4", "-j", "3",
			 "--hide=", NULL };
	int argc = 8, i = 1;

	ck_assert_str_eq(options_value(argc, argv, &i), "o1");
	ck_assert_int_eq(i, 1);
	i = 2;
	ck_assert_str_eq(options_value(argc, argv, &i), "o2");
	ck_assert_int_eq(i, 3);         /* past the value */
	i = 4;
	ck_assert_str_eq(options_value(argc, argv, &i), "4");
	ck_assert_int_eq(i, 4);
	i = 5;
	ck_assert_str_eq(options_value(argc, argv, &i), "3");
	ck_assert_int_eq(i, 6);
	i = 7;
	ck_assert_str_eq(options_value(argc, argv, &i), "");   /* given empty */
}
END_TEST

/* A value missing at the end of the line is a usage error (exit 2). */
START_TEST(test_value_missing)
{
	char *argv[] = { "grade", "--out", NULL };
	int i = 1;

	options_value(2, argv, &i);
}
END_TEST

START_TEST(test_find)
{
	const struct cli_option *o = options_find("--json=report.json");

	ck_assert_ptr_nonnull(o);
	ck_assert_str_eq(o->name, "json");
	ck_assert_ptr_nonnull(options_find("-j4"));
	ck_assert_ptr_null(options_find("--jsonx"));
	ck_assert_ptr_null(options_find("-"));
}
END_TEST

Suite *make_options_suite(void)
{
	Suite *s = suite_create("options");
	TCase *t = tcase_create("values");

	tcase_add_test(t, test_is);
	tcase_add_test(t, test_value);
	tcase_add_exit_test(t, test_value_missing, WG_EXIT_USAGE);
	tcase_add_test(t, test_find);
	suite_add_tcase(s, t);
	return s;
}
