/*
 * usage's scrubbing (grader/lib/usage.h): what a submission chose never
 * reaches a terminal or a text file as a control sequence.
 */
#include "wg_check.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grader/lib/escape.h"
#include "grader/lib/usage.h"

static const struct {
	const char *in, *out, *out_nl;   /* out: newlines scrubbed too */
} cases[] = {
	{ "plain name.c", "plain name.c", "plain name.c" },
	{ "\033[31mred\033[0m", "?[31mred?[0m", "?[31mred?[0m" },
	{ "@\033]0;title\007x.c", "@?]0;title?x.c", "@?]0;title?x.c" },
	{ "a\nb\tc\rd", "a?b\tc?d", "a\nb\tc?d" },
	{ "del\177", "del?", "del?" },
	/* C1 CSI as UTF-8 (U+009B) and as a lone byte: one '?' each. */
	{ "x\xc2\x9b" "31m", "x?31m", "x?31m" },
	{ "x\x9b" "31m", "x?31m", "x?31m" },
	/* Valid UTF-8 stays; a truncated or overlong sequence does not. */
	{ "caf\xc3\xa9 \xe6\x97\xa5", "caf\xc3\xa9 \xe6\x97\xa5", "caf\xc3\xa9 \xe6\x97\xa5" },
	{ "bad\xc3", "bad?", "bad?" },
	{ "over\xc0\xaf", "over??", "over??" },
	{ "", "", "" },
};

START_TEST(test_scrub_table)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		for (int nl = 0; nl < 2; nl++) {
			char *d = escape_scrub_dup(cases[i].in, nl);
			const char *want = nl ? cases[i].out_nl : cases[i].out;

			ck_assert_ptr_nonnull(d);
			ck_assert_msg(!strcmp(d, want), "case %zu (newlines %d): got '%s'",
				      i, nl, d);
			free(d);
		}
	}
}
END_TEST

/* In place, the result is the same as the copy's and NUL-terminated. */
START_TEST(test_scrub_in_place)
{
	char buf[] = "a\xc2\x9b" "b\033c";
	size_t n = escape_scrub(buf, strlen(buf), 0);

	ck_assert_uint_eq(n, 5);
	ck_assert_str_eq(buf, "a?b?c");
}
END_TEST

/* NUL bytes inside a counted buffer are controls too. */
START_TEST(test_fput_counted)
{
	char *got = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&got, &len);

	ck_assert_ptr_nonnull(f);
	escape_fput_scrubbed(f, "a\0b\033[2Jc\n", 9, 1);
	fclose(f);
	ck_assert_str_eq(got, "a?b?[2Jc\n");
	free(got);
}
END_TEST

/* error() and warning() print a message with a submission's name in it
 * scrubbed, as git's usage.c does. */
START_TEST(test_reporters_scrub)
{
	char path[PATH_MAX], buf[256];
	int fd = mkstemp(check_scratch(path, sizeof(path), "usage-XXXXXX"));
	int saved = dup(2);
	ssize_t n;

	ck_assert_int_ge(fd, 0);
	unlink(path);
	ck_assert_int_ge(saved, 0);
	fflush(stderr);
	dup2(fd, 2);
	error("source '%s' refused", "@\033[31mx\033]0;t\007.c");
	warning("and \x9b" "again");
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	close(fd);
	ck_assert_int_gt(n, 0);
	buf[n] = '\0';
	ck_assert_msg(!strchr(buf, '\033') && !strchr(buf, '\007') &&
		      !strchr(buf, '\x9b'), "raw control in: %s", buf);
	ck_assert_ptr_nonnull(strstr(buf, "source '@?[31mx?]0;t?.c' refused\n"));
	ck_assert_ptr_nonnull(strstr(buf, "and ?again\n"));
}
END_TEST

Suite *make_usage_suite(void)
{
	Suite *s = suite_create("usage");
	TCase *t = tcase_create("scrub");

	tcase_add_test(t, test_scrub_table);
	tcase_add_test(t, test_scrub_in_place);
	tcase_add_test(t, test_fput_counted);
	tcase_add_test(t, test_reporters_scrub);
	suite_add_tcase(s, t);
	return s;
}
