/* options: the one way every mode reads an option's value (options_value,
 * options_is) and finds a row of the table (options_find). */
#include <stdio.h>
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

/* options_walk: positional words, options with their rows and values,
 * "--" with OPTIONS_DASHDASH, and a stop. */
struct seen {
	char log[256];
};

static int note(void *ctx, int argc, char **argv, int *i,
		const struct cli_option *o, int positional)
{
	struct seen *s = ctx;
	size_t n = strlen(s->log);

	if (positional)
		snprintf(s->log + n, sizeof(s->log) - n, "P:%s ", argv[*i]);
	else if (!o)
		snprintf(s->log + n, sizeof(s->log) - n, "?:%s ", argv[*i]);
	else if (o->has_arg)
		snprintf(s->log + n, sizeof(s->log) - n, "%s=%s ", o->name,
			 options_value(argc, argv, i));
	else
		snprintf(s->log + n, sizeof(s->log) - n, "%s ", o->name);
	return !strcmp(argv[*i], "stop") ? 7 : 0;
}

START_TEST(test_walk)
{
	char *argv[] = { "grade", "a", "--json", "r.json", "-q", "--nope", "-",
			 "--", "--json", "b", NULL };
	char *stop[] = { "grade", "x", "stop", "y", NULL };
	struct seen s = { "" };

	ck_assert_int_eq(options_walk(10, argv, OPTIONS_DASHDASH, note, &s), 0);
	ck_assert_str_eq(s.log, "P:a json=r.json quiet ?:--nope P:- P:--json P:b ");
	s.log[0] = '\0';
	ck_assert_int_eq(options_walk(10, argv, 0, note, &s), 0);
	ck_assert_str_eq(s.log, "P:a json=r.json quiet ?:--nope P:- ?:-- json=b ");
	s.log[0] = '\0';
	ck_assert_int_eq(options_walk(4, stop, 0, note, &s), 7);
	ck_assert_str_eq(s.log, "P:x P:stop ");
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
	tcase_add_test(t, test_walk);
	tcase_add_test(t, test_find);
	suite_add_tcase(s, t);
	return s;
}
