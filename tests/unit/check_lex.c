/* The tokenizer and the number grammar, worked out by hand from the contract. */
#include "tests/unit/wg_check.h"
#include <stdlib.h>
#include <string.h>

#include "reference/lex.h"

static int num(const char *s, int64_t *v)
{
	struct lex_token t = { s, strlen(s) };
	return lex_number(&t, v);
}

START_TEST(numbers_valid)
{
	int64_t v;
	ck_assert_int_eq(num("0", &v), 0); ck_assert_int_eq(v, 0);
	ck_assert_int_eq(num("010", &v), 0); ck_assert_int_eq(v, 10);
	ck_assert_int_eq(num("0x1F", &v), 0); ck_assert_int_eq(v, 31);
	ck_assert_int_eq(num("0XaB", &v), 0); ck_assert_int_eq(v, 171);
	ck_assert_int_eq(num("-12", &v), 0); ck_assert_int_eq(v, -12);
	ck_assert_int_eq(num("-0x10", &v), 0); ck_assert_int_eq(v, -16);
	ck_assert_int_eq(num("-0", &v), 0); ck_assert_int_eq(v, 0);
	ck_assert_int_eq(num("0x0", &v), 0); ck_assert_int_eq(v, 0);
	ck_assert_int_eq(num("000000000000000000000000000042", &v), 0);
	ck_assert_int_eq(v, 42);
	/* 2^48 - 1 is the largest magnitude. */
	ck_assert_int_eq(num("281474976710655", &v), 0);
	ck_assert_int_eq(v, 281474976710655LL);
	ck_assert_int_eq(num("0xFFFFFFFFFFFF", &v), 0);
	ck_assert_int_eq(v, 281474976710655LL);
	ck_assert_int_eq(num("-281474976710655", &v), 0);
	ck_assert_int_eq(v, -281474976710655LL);
}
END_TEST

START_TEST(numbers_invalid)
{
	static const char *bad[] = {
		"", "-", "+5", "1e3", "0x", "0X", "-0x", "12abc", "2^8",
		"0x1G", "1.5", "--5", "0b101", " 1", "1 ", "x10", "0xx1",
		"281474976710656",            /* 2^48 */
		"0x1000000000000",            /* 2^48 */
		"-281474976710656",
		"99999999999999999999999999", /* would wrap 64 bits */
		"0xFFFFFFFFFFFFFFFFFFFF",
	};
	int64_t v = 7;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(num(bad[i], &v) < 0, "accepted '%s'", bad[i]);
	ck_assert_int_eq(v, 7);
}
END_TEST

START_TEST(number_with_nul)
{
	struct lex_token t = { "1\0002", 3 };
	int64_t v;
	ck_assert_int_lt(lex_number(&t, &v), 0);
}
END_TEST

static void expect_tokens(const char *line, size_t len, const char **want,
			  size_t n)
{
	struct lex_tokens t = { 0 };
	ck_assert_int_eq(lex_split(&t, line, len), 0);
	ck_assert_uint_eq(t.n, n);
	for (size_t i = 0; i < n; i++) {
		ck_assert_uint_eq(t.v[i].n, strlen(want[i]));
		ck_assert(memcmp(t.v[i].p, want[i], t.v[i].n) == 0);
	}
	lex_tokens_free(&t);
}

START_TEST(split_separators)
{
	const char *line = " \tstrided\v0x10\f\f 010\r";
	const char *want[] = { "strided", "0x10", "010" };
	expect_tokens(line, strlen(line), want, 3);
}
END_TEST

START_TEST(split_comments)
{
	const char *a = "strided 0 1#comment glued";
	const char *wa[] = { "strided", "0", "1" };
	expect_tokens(a, strlen(a), wa, 3);
	const char *b = "# only a comment";
	expect_tokens(b, strlen(b), NULL, 0);
	const char *c = "act#ive 3";
	const char *wc[] = { "act" };
	expect_tokens(c, strlen(c), wc, 1);
	expect_tokens("", 0, NULL, 0);
	expect_tokens(" \t\r", 3, NULL, 0);
}
END_TEST

START_TEST(split_keeps_other_bytes)
{
	/* Newline is not a separator inside a line; NUL is a token byte. */
	const char line[] = { 'a', '\0', 'b', ' ', '\n', 'c' };
	struct lex_tokens t = { 0 };
	ck_assert_int_eq(lex_split(&t, line, sizeof(line)), 0);
	ck_assert_uint_eq(t.n, 2);
	ck_assert_uint_eq(t.v[0].n, 3);
	ck_assert_uint_eq(t.v[1].n, 2);
	lex_tokens_free(&t);
}
END_TEST

START_TEST(split_many_tokens)
{
	/* 100000 tokens on one line: the token array grows. */
	size_t n = 100000, len = 2 * n;
	char *line = malloc(len);
	for (size_t i = 0; i < n; i++) {
		line[2 * i] = 'x';
		line[2 * i + 1] = ' ';
	}
	struct lex_tokens t = { 0 };
	ck_assert_int_eq(lex_split(&t, line, len), 0);
	ck_assert_uint_eq(t.n, n);
	ck_assert(t.v[n - 1].p == line + len - 2);
	lex_tokens_free(&t);
	free(line);
}
END_TEST

Suite *make_lex_suite(void)
{
	Suite *s = suite_create("lex");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, numbers_valid);
	tcase_add_test(tc, numbers_invalid);
	tcase_add_test(tc, number_with_nul);
	tcase_add_test(tc, split_separators);
	tcase_add_test(tc, split_comments);
	tcase_add_test(tc, split_keeps_other_bytes);
	tcase_add_test(tc, split_many_tokens);
	suite_add_tcase(s, tc);
	return s;
}
