/* build: the loaded size of a program, which the MLE rule relies on. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "grader/build.h"
#include "tests/wg_check.h"

static const char *helper(const char *name, char *buf, size_t n)
{
	const char *b = getenv("WG_BUILD");

	snprintf(buf, n, "%s/helpers/%s", b && *b ? b : "build", name);
	return buf;
}

START_TEST(test_image_size_counts_static_arrays)
{
	char path[4096];
	uint64_t big = build_image_size(helper("rn_bigstatic", path, sizeof(path)));
	uint64_t small = build_image_size(helper("rn_exit", path, sizeof(path)));

	/* 64 MiB of .bss plus a few pages of code and data. */
	ck_assert_uint_ge(big, (uint64_t)64 << 20);
	ck_assert_uint_lt(big, (uint64_t)65 << 20);
	ck_assert_uint_gt(small, 0);
	ck_assert_uint_lt(small, (uint64_t)1 << 20);
}
END_TEST

START_TEST(test_image_size_of_non_elf)
{
	char path[] = "/tmp/wg-build-script-XXXXXX";
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "#!/bin/sh\nexit 0\n", 17), 17);
	close(fd);
	ck_assert_uint_eq(build_image_size(path), 0);
	unlink(path);
	ck_assert_uint_eq(build_image_size("/nonexistent/wg-prog"), 0);
}
END_TEST

Suite *make_build_suite(void)
{
	Suite *s = suite_create("build");
	TCase *tc = tcase_create("image");

	tcase_add_test(tc, test_image_size_counts_static_arrays);
	tcase_add_test(tc, test_image_size_of_non_elf);
	suite_add_tcase(s, tc);
	return s;
}
