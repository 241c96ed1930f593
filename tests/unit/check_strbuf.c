/*
 * strbuf, util and usage (grader/lib): the one buffer, the shared helpers
 * and the error vocabulary's exits.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grader/lib/strbuf.h"
#include "grader/lib/usage.h"
#include "grader/lib/util.h"
#include "tests/unit/wg_check.h"

START_TEST(test_empty)
{
	struct strbuf sb = STRBUF_INIT;
	char *p;
	size_t n = 9;

	ck_assert_str_eq(strbuf_str(&sb), "");
	ck_assert_ptr_null(sb.buf);
	p = strbuf_detach(&sb, &n);
	ck_assert_str_eq(p, "");
	ck_assert_uint_eq(n, 0);
	free(p);
	strbuf_release(&sb);
}
END_TEST

START_TEST(test_add)
{
	struct strbuf sb = STRBUF_INIT;
	char big[5000];

	memset(big, 'x', sizeof(big));
	ck_assert_int_eq(strbuf_addstr(&sb, "ab"), 0);
	ck_assert_int_eq(strbuf_addch(&sb, 'c'), 0);
	ck_assert_int_eq(strbuf_add(&sb, "d\0e", 3), 0);
	ck_assert_uint_eq(sb.len, 6);
	ck_assert_int_eq(memcmp(sb.buf, "abcd\0e", 7), 0);
	ck_assert_int_eq(strbuf_add(&sb, big, sizeof(big)), 0);
	ck_assert_uint_eq(sb.len, 6 + sizeof(big));
	ck_assert_int_eq(sb.buf[sb.len], '\0');
	ck_assert_uint_ge(sb.alloc, sb.len + 1);
	strbuf_setlen(&sb, 2);
	ck_assert_str_eq(sb.buf, "ab");
	strbuf_reset(&sb);
	ck_assert_str_eq(strbuf_str(&sb), "");
	strbuf_release(&sb);
	ck_assert_ptr_null(sb.buf);
}
END_TEST

START_TEST(test_addf)
{
	struct strbuf sb = STRBUF_INIT;
	char want[600];

	ck_assert_int_eq(strbuf_addf(&sb, "%d-%s", 42, "x"), 0);
	ck_assert_str_eq(sb.buf, "42-x");
	/* Longer than the first guess: formatted again after growing. */
	memset(want, 'y', 599);
	want[599] = '\0';
	ck_assert_int_eq(strbuf_addf(&sb, "%s", want), 0);
	ck_assert_uint_eq(sb.len, 4 + 599);
	ck_assert_int_eq(strncmp(sb.buf + 4, want, 599), 0);
	strbuf_release(&sb);
}
END_TEST

/* A failed allocation: -1, the flag, no change, and every later add is
 * refused too; detach gives NULL and frees. */
START_TEST(test_sticky_failure)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "kept");
	ck_assert_int_eq(strbuf_grow(&sb, SIZE_MAX - 2), -1);
	ck_assert(strbuf_failed(&sb));
	ck_assert_str_eq(sb.buf, "kept");
	ck_assert_int_eq(strbuf_addstr(&sb, "more"), -1);
	ck_assert_int_eq(strbuf_addf(&sb, "%d", 1), -1);
	ck_assert_str_eq(sb.buf, "kept");
	ck_assert_ptr_null(strbuf_detach(&sb, NULL));
	ck_assert_ptr_null(sb.buf);

#ifndef __SANITIZE_ADDRESS__
	/* realloc itself refusing (more than the address space; ASan would
	 * report the request instead of returning NULL). */
	ck_assert_int_eq(strbuf_grow(&sb, SIZE_MAX / 2), -1);
	ck_assert(strbuf_failed(&sb));
#endif
	strbuf_reset(&sb);
	ck_assert(!strbuf_failed(&sb));
	ck_assert_int_eq(strbuf_addstr(&sb, "ok"), 0);
	strbuf_release(&sb);
}
END_TEST

START_TEST(test_read)
{
	struct strbuf sb = STRBUF_INIT;
	char path[PATH_MAX];
	int fd = mkstemp(check_scratch(path, sizeof(path), "strbuf-XXXXXX"));
	char data[20000];

	ck_assert_int_ge(fd, 0);
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (char)(i % 251);
	ck_assert_int_eq(write(fd, data, sizeof(data)), (ssize_t)sizeof(data));
	close(fd);
	ck_assert_int_eq(strbuf_read_file(&sb, path, sizeof(data)), 0);
	ck_assert_uint_eq(sb.len, sizeof(data));
	ck_assert_int_eq(memcmp(sb.buf, data, sizeof(data)), 0);
	strbuf_reset(&sb);
	errno = 0;
	ck_assert_int_eq(strbuf_read_file(&sb, path, sizeof(data) - 1), -1);
	ck_assert_int_eq(errno, EFBIG);
	unlink(path);
	errno = 0;
	ck_assert_int_eq(strbuf_read_file(&sb, path, 10), -1);
	ck_assert_int_eq(errno, ENOENT);
	strbuf_release(&sb);
}
END_TEST

START_TEST(test_parse)
{
	struct strbuf err = STRBUF_INIT;
	long v = 0;
	double d = 0;

	ck_assert_int_eq(wg_parse_long("-j", "8", 1, 64, &v, &err), 0);
	ck_assert_int_eq(v, 8);
	ck_assert_int_eq(wg_parse_long("-j", "65", 1, 64, &v, &err), -1);
	ck_assert_str_eq(err.buf, "-j: '65' is not an integer in 1-64");
	strbuf_reset(&err);
	ck_assert_int_eq(wg_parse_long("-j", " 8", 1, 64, &v, &err), -1);
	ck_assert_int_eq(wg_parse_long("-j", "8x", 1, 64, &v, &err), -1);
	ck_assert_int_eq(wg_parse_long("-j", "", 1, 64, &v, &err), -1);
	ck_assert_int_eq(wg_parse_long("-j", "99999999999999999999", 1, 64, &v, &err), -1);
	strbuf_reset(&err);
	ck_assert_int_eq(wg_parse_seconds("--time-limit", "1.5", 86400, &d, &err), 0);
	ck_assert(d == 1.5);
	ck_assert_int_eq(wg_parse_seconds("--time-limit", "0", 86400, &d, &err), -1);
	ck_assert_str_eq(err.buf, "--time-limit: '0' is not a number of seconds in (0, 86400]");
	ck_assert_int_eq(wg_parse_seconds("--time-limit", "nan", 86400, &d, &err), -1);
	ck_assert_int_eq(wg_parse_seconds("--time-limit", "1e9", 86400, &d, &err), -1);
	strbuf_release(&err);
}
END_TEST

START_TEST(test_paths)
{
	struct strbuf sb = STRBUF_INIT;

	wg_path_join(&sb, "/a", "b");
	ck_assert_str_eq(sb.buf, "/a/b");
	strbuf_reset(&sb);
	wg_path_join(&sb, "/a/", "b");
	ck_assert_str_eq(sb.buf, "/a/b");
	strbuf_release(&sb);
	ck_assert(wg_path_within("/a/b", "/a"));
	ck_assert(wg_path_within("/a", "/a"));
	ck_assert(wg_path_within("/a/b", "/a/"));
	ck_assert(!wg_path_within("/ab", "/a"));
	ck_assert(wg_now() > 0);
}
END_TEST

/* The argument strings blanked where they lie, all of them. */
START_TEST(test_blank_args)
{
	char mem[] = "grade\0--staff\0/suite\0/subs/alice";
	char *argv[] = { mem, mem + 6, mem + 14, mem + 21, NULL };

	wg_save_args(4, argv);
	wg_blank_args();
	for (size_t i = 0; i < sizeof(mem); i++)
		ck_assert_int_eq(mem[i], 0);
}
END_TEST

/* die() is the grader's own failure: exit 3; die_usage() exit 2. */
START_TEST(test_die)
{
	usage_set_prefix("grade: test");
	die("cannot %s", "go on");
}
END_TEST

START_TEST(test_die_usage)
{
	die_usage("-j: bad");
}
END_TEST

/* What error() and warning() print: the prefix, the kind, the message
 * scrubbed, one line each. stderr goes to a temporary file meanwhile (the
 * runner may have sent it to WG_CHECK_LOG: it is put back after). */
START_TEST(test_error)
{
	char path[PATH_MAX], buf[256];
	int fd = mkstemp(check_scratch(path, sizeof(path), "strbuf-err-XXXXXX"));
	int saved = dup(STDERR_FILENO);
	ssize_t n;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_ge(saved, 0);
	unlink(path);
	usage_set_prefix("grade");
	fflush(stderr);
	ck_assert_int_eq(dup2(fd, STDERR_FILENO), STDERR_FILENO);
	ck_assert_int_eq(error("something %d\033[2J", 1), -1);
	warning("only a warning");
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	close(fd);
	ck_assert_int_gt(n, 0);
	buf[n] = '\0';
	fputs(buf, stderr);      /* the test's log shows them still */
	ck_assert_str_eq(buf, "grade: error: something 1?[2J\n"
			      "grade: warning: only a warning\n");
	free(xstrdup("x"));
	free(xrealloc(xcalloc(2, 3), 10));
	free(xmalloc(0));
}
END_TEST

START_TEST(test_xmalloc_dies)
{
	xmalloc(SIZE_MAX / 2);
}
END_TEST

Suite *make_strbuf_suite(void)
{
	Suite *s = suite_create("strbuf");
	TCase *t = tcase_create("strbuf");

	tcase_add_test(t, test_empty);
	tcase_add_test(t, test_add);
	tcase_add_test(t, test_addf);
	tcase_add_test(t, test_sticky_failure);
	tcase_add_test(t, test_read);
	tcase_add_test(t, test_parse);
	tcase_add_test(t, test_paths);
	tcase_add_test(t, test_error);
	tcase_add_test(t, test_blank_args);
	tcase_add_exit_test(t, test_die, WG_EXIT_INTERNAL);
	tcase_add_exit_test(t, test_die_usage, WG_EXIT_USAGE);
#ifndef __SANITIZE_ADDRESS__
	tcase_add_exit_test(t, test_xmalloc_dies, WG_EXIT_INTERNAL);
#endif
	suite_add_tcase(s, t);
	return s;
}
