/*
 * compare: the default rule (trailing spaces, tabs and CRs at line ends and
 * trailing blank lines ignored; everything else counts) and --exact (bytes).
 * Each expectation is worked out by hand from that rule.
 */
#include <stdio.h>
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
	/* A line is equal to another, not to one that starts with it. */
	ck_assert(!cmp_line_equal("x", 1, "xy", 2, 0));
	ck_assert(!cmp_line_equal("xy", 2, "x", 1, 0));
}
END_TEST

/* The common part is measured a block at a time (4096, then 64 bytes):
 * a difference on either side of each block's edge is found exactly. */
START_TEST(test_common_prefix)
{
	static char a[10000], b[10000];
	const size_t at[] = { 0, 1, 63, 64, 65, 4095, 4096, 4097, 8191, 8192,
			      9999 };

	memset(a, 'x', sizeof(a));
	memcpy(b, a, sizeof(b));
	ck_assert_uint_eq(cmp_common_prefix(a, b, 0), 0);
	ck_assert_uint_eq(cmp_common_prefix(a, b, sizeof(a)), sizeof(a));
	for (size_t i = 0; i < sizeof(at) / sizeof(*at); i++) {
		b[at[i]] = 'y';
		ck_assert_uint_eq(cmp_common_prefix(a, b, sizeof(a)), at[i]);
		ck_assert_uint_eq(cmp_common_prefix(a, b, at[i]), at[i]);
		b[at[i]] = 'x';
	}
}
END_TEST

/* n lines "l%05d\n" (7 bytes each) into buf; returns the length. */
static size_t numbered(char *buf, int n)
{
	size_t k = 0;

	for (int i = 1; i <= n; i++)
		k += (size_t)sprintf(buf + k, "l%05d\n", i);
	return k;
}

/* After a long identical part, the rule still applies to the line that
 * holds the first differing byte, wherever it falls against the blocks:
 * a trailing blank there is no difference, another byte is; and what
 * follows (a missing or extra line, a missing final newline, trailing
 * blank lines) counts as on a short output. */
START_TEST(test_long_common_part)
{
	static char e[40000], a[40000];
	size_t n = numbered(e, 5000), len;

	for (size_t at = 4090; at < 4100; at++) {
		/* A blank before the line's '\n', or a byte changed. */
		size_t eol = at + (7 - at % 7) - 1;   /* the line's '\n' */

		memcpy(a, e, eol);
		a[eol] = ' ';
		memcpy(a + eol + 1, e + eol, n - eol);
		ck_assert(cmp_equal(e, n, a, n + 1, 0));
		ck_assert(!cmp_equal(e, n, a, n + 1, 1));
		memcpy(a, e, n);
		a[at] = 'X';            /* in a line, or for its '\n' */
		ck_assert(!cmp_equal(e, n, a, n, 0));
	}
	ck_assert(!cmp_equal(e, n, e, n - 7, 0));     /* one line missing */
	ck_assert(!cmp_equal(e, n - 7, e, n, 0));     /* one line more */
	ck_assert(cmp_equal(e, n, e, n - 1, 0));      /* no final newline */
	ck_assert(!cmp_equal(e, n, e, n - 1, 1));
	memcpy(a, e, n);
	len = n + (size_t)sprintf(a + n, "\n \n");
	ck_assert(cmp_equal(e, n, a, len, 0));        /* blank lines after */
	ck_assert(!cmp_equal(e, n, a, len, 1));
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
	tcase_add_test(tc, test_common_prefix);
	tcase_add_test(tc, test_long_common_part);
	suite_add_tcase(s, tc);
	return s;
}
