/*
 * report_read: the one reader of a report's members. Every verdict of the
 * table reads back as itself; a missing member, one of another type, an
 * unknown code or a NULL object reads as NULL, 0 or VERDICT_COUNT.
 */
#include <jansson.h>

#include "grader/judge/verdict.h"
#include "grader/report/keys.h"
#include "grader/report/report_read.h"
#include "tests/unit/wg_check.h"

START_TEST(test_every_verdict)
{
	for (int v = 0; v < VERDICT_COUNT; v++) {
		json_t *k = json_pack("{s:s}", RK_VERDICT, verdict_code((enum verdict)v));

		ck_assert_ptr_nonnull(k);
		ck_assert_int_eq(report_verdict(k), v);
		json_decref(k);
	}
}
END_TEST

START_TEST(test_not_a_verdict)
{
	json_t *unknown = json_pack("{s:s}", RK_VERDICT, "OK");
	json_t *number = json_pack("{s:i}", RK_VERDICT, 0);
	json_t *none = json_object();

	ck_assert_int_eq(report_verdict(unknown), VERDICT_COUNT);
	ck_assert_int_eq(report_verdict(number), VERDICT_COUNT);
	ck_assert_int_eq(report_verdict(none), VERDICT_COUNT);
	ck_assert_int_eq(report_verdict(NULL), VERDICT_COUNT);
	json_decref(unknown);
	json_decref(number);
	json_decref(none);
}
END_TEST

START_TEST(test_members)
{
	json_t *o = json_pack("{s:s, s:i, s:f, s:b, s:n}", "s", "text", "i", 7,
			      "r", 2.5, "b", 1, "z");

	ck_assert_ptr_nonnull(o);
	ck_assert_str_eq(report_str(o, "s"), "text");
	ck_assert_ptr_null(report_str(o, "i"));
	ck_assert_ptr_null(report_str(o, "missing"));
	ck_assert_ptr_null(report_str(NULL, "s"));
	ck_assert_str_eq(report_text(o, "s"), "text");
	ck_assert_str_eq(report_text(o, "i"), "");
	ck_assert_str_eq(report_text(NULL, "s"), "");
	ck_assert(report_num(o, "i") == 7.0);
	ck_assert(report_num(o, "r") == 2.5);
	ck_assert(report_num(o, "s") == 0.0);
	ck_assert(report_num(o, "b") == 0.0);
	ck_assert(report_num(NULL, "i") == 0.0);
	ck_assert_int_eq(report_int(o, "i"), 7);
	ck_assert_int_eq(report_int(o, "r"), 0);
	ck_assert_int_eq(report_int(o, "z"), 0);
	ck_assert_int_eq(report_int(NULL, "i"), 0);
	json_decref(o);
}
END_TEST

Suite *make_report_read_suite(void)
{
	Suite *s = suite_create("report_read");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_every_verdict);
	tcase_add_test(tc, test_not_a_verdict);
	tcase_add_test(tc, test_members);
	suite_add_tcase(s, tc);
	return s;
}
