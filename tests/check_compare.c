/*
 * compare: the default rule (trailing spaces, tabs and CRs at line ends and
 * trailing blank lines ignored; everything else counts) and --exact (bytes).
 * Each expectation is worked out by hand from that rule.
 */
#include <string.h>

#include "grader/judge/compare.h"
#include "wg_check.h"

static int eq(const char *a, const char *b, int exact)
{
	return cmp_equal(a, strlen(a), b, strlen(b), exact);
}

START_TEST(test_identical)
{
	ck_assert(eq("", "", 0));
	ck_assert(eq("a\nb\n", "a\nb\n", 0));
	ck_assert(eq("a\nb\n", "a\nb\n", 1));
}
END_TEST

START_TEST(test_trailing_space_at_line_end)
{
	ck_assert(eq("a b\n", "a b  \n", 0));
	ck_assert(eq("a b\n", "a b\t\n", 0));
	ck_assert(eq("a b\n", "a b\r\n", 0));
	ck_assert(eq("a b \r\t\n", "a b\n", 0));
	ck_assert(!eq("a b\n", "a b  \n", 1));
	ck_assert(!eq("a b\n", "a b\r\n", 1));
}
END_TEST

START_TEST(test_trailing_blank_lines)
{
	ck_assert(eq("a\n", "a\n\n\n", 0));
	ck_assert(eq("a\n\n", "a\n", 0));
	ck_assert(eq("a\n", "a\n \n\t\r\n", 0));    /* blank after trimming */
	ck_assert(eq("", "\n\n", 0));
	ck_assert(!eq("a\n", "a\n\n", 1));
}
END_TEST

START_TEST(test_missing_final_newline)
{
	ck_assert(eq("a\nb\n", "a\nb", 0));
	ck_assert(eq("a\nb", "a\nb\n", 0));
	ck_assert(!eq("a\nb\n", "a\nb", 1));
}
END_TEST

START_TEST(test_what_still_counts)
{
	ck_assert(!eq("a b\n", " a b\n", 0));         /* leading space */
	ck_assert(!eq("a b\n", "a  b\n", 0));         /* inner space */
	ck_assert(!eq("a\tb\n", "a b\n", 0));         /* tab for space */
	ck_assert(!eq("a\nb\n", "a\n\nb\n", 0));      /* blank line inside */
	ck_assert(!eq("A\n", "a\n", 0));              /* case */
	ck_assert(!eq("a\n", "a\nb\n", 0));           /* extra line */
	ck_assert(!eq("a\nb\n", "a\n", 0));           /* missing line */
	ck_assert(!eq("", "x", 0));
}
END_TEST

START_TEST(test_nul_bytes)
{
	ck_assert(cmp_equal("a\0b\n", 4, "a\0b\n", 4, 0));
	ck_assert(!cmp_equal("a\0b\n", 4, "a\0c\n", 4, 0));
	ck_assert(!cmp_equal("a\n", 2, "a\0\n", 3, 0));  /* NUL is not blank */
}
END_TEST

START_TEST(test_trim_and_line_equal)
{
	ck_assert_uint_eq(cmp_trim_len("ab \t\r", 5), 2);
	ck_assert_uint_eq(cmp_trim_len("   ", 3), 0);
	ck_assert_uint_eq(cmp_trim_len(" a", 2), 2);
	ck_assert(cmp_line_equal("x ", 2, "x", 1, 0));
	ck_assert(!cmp_line_equal("x ", 2, "x", 1, 1));
}
END_TEST

Suite *make_compare_suite(void)
{
	Suite *s = suite_create("compare");
	TCase *tc = tcase_create("rule");

	tcase_add_test(tc, test_identical);
	tcase_add_test(tc, test_trailing_space_at_line_end);
	tcase_add_test(tc, test_trailing_blank_lines);
	tcase_add_test(tc, test_missing_final_newline);
	tcase_add_test(tc, test_what_still_counts);
	tcase_add_test(tc, test_nul_bytes);
	tcase_add_test(tc, test_trim_and_line_equal);
	suite_add_tcase(s, tc);
	return s;
}
