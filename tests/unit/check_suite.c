/*
 * Unit tests for grader/judge/suite.c. Valid suites under tests/data/suites/valid
 * are checked field by field; every folder under tests/data/suites/invalid
 * holds a suite.json and the one-line expected-error, in which @DIR@ stands
 * for the folder's path (jansson's own test-suite layout). Positions in the
 * expected errors were counted by hand from the files.
 */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grader/judge/suite.h"
#include "tests/unit/suite_fixture.h"
#include "tests/unit/failalloc.h"

static const char *data_dir(void)
{
	static char buf[4096];
	const char *root = getenv("WG_ROOT");

	snprintf(buf, sizeof buf, "%s/tests/data/suites", root ? root : ".");
	return buf;
}

/* The first line of a file, without its newline; "" if unreadable. */
static void read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (f) {
		if (!fgets(buf, (int)size, f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
}

/* Replaces every @DIR@ in tmpl with dir. */
static void expand(const char *tmpl, const char *dir, char *out, size_t size)
{
	size_t used = 0;

	while (*tmpl && used + 1 < size) {
		if (!strncmp(tmpl, "@DIR@", 5)) {
			used += (size_t)snprintf(out + used, size - used, "%s", dir);
			tmpl += 5;
		} else {
			out[used++] = *tmpl++;
		}
	}
	out[used < size ? used : size - 1] = '\0';
}

START_TEST(test_minimal_defaults)
{
	char dir[4200], err[1024], path[4300];
	struct suite s;

	snprintf(dir, sizeof dir, "%s/valid/minimal", data_dir());
	ck_assert_msg(load(&s, dir, err, sizeof err) == 0, "%s", err);
	ck_assert_str_eq(s.name, "minimal");
	ck_assert_str_eq(s.dir, dir);
	ck_assert_ptr_null(s.description);
	ck_assert(s.cpu_seconds == 1.0);
	ck_assert_int_eq(s.memory_mib, 256);
	ck_assert_int_eq(s.output_kib, 1024);
	ck_assert(s.wall_seconds == 0);
	ck_assert_int_eq(s.tmp_mib, SUITE_DEFAULT_TMP_MIB);
	ck_assert_int_eq(s.processes, 1);
	ck_assert_int_eq(s.stack_mib, 0);
	/* The compiler's limits default to build.h's. */
	ck_assert(s.build.cpu_seconds == 60.0);
	ck_assert(s.build.wall_seconds == 120.0);
	ck_assert_int_eq(s.build.memory_mib, 2048);
	ck_assert_int_eq(s.build.processes, 32);
	ck_assert_int_eq(s.build.file_size_mib, 64);
	ck_assert_int_eq(s.build.output_kib, 256);
	ck_assert_int_eq(s.build.tmp_mib, 256);
	ck_assert_uint_eq(s.ncases, 1);
	ck_assert_str_eq(s.cases[0].name, "only");
	ck_assert_str_eq(s.cases[0].category, "gather");
	ck_assert_ptr_null(s.cases[0].description);
	ck_assert_int_eq(s.cases[0].points, 0);
	ck_assert_int_eq(s.cases[0].hidden, 1);
	snprintf(path, sizeof path, "%s/only.in", dir);
	ck_assert_str_eq(s.cases[0].in_path, path);
	snprintf(path, sizeof path, "%s/only.out", dir);
	ck_assert_str_eq(s.cases[0].out_path, path);
	ck_assert_uint_eq(s.ncategories, 1);
	ck_assert_str_eq(s.categories[0], "gather");
	ck_assert_ptr_null(s.hints[0]);
	ck_assert_ptr_null(suite_hint(&s, "gather"));
	ck_assert_int_eq(suite_max_score(&s), 0);
	suite_free(&s);
	ck_assert_ptr_null(s.name);
	ck_assert_uint_eq(s.ncases, 0);
}
END_TEST

START_TEST(test_full)
{
	char dir[4200], given[4210], err[1024];
	struct suite s;

	snprintf(dir, sizeof dir, "%s/valid/full", data_dir());
	snprintf(given, sizeof given, "%s//", dir);	/* slashes are dropped */
	ck_assert_msg(load(&s, given, err, sizeof err) == 0, "%s", err);
	ck_assert_str_eq(s.dir, dir);
	ck_assert_str_eq(s.name, "full");
	ck_assert_str_eq(s.description, "every key the format knows");
	ck_assert(s.cpu_seconds == 0.25);
	ck_assert_int_eq(s.memory_mib, 64);
	ck_assert_int_eq(s.output_kib, 16);
	ck_assert(s.wall_seconds == 1.5);
	ck_assert_int_eq(s.tmp_mib, 8);
	ck_assert_int_eq(s.processes, 3);
	ck_assert_int_eq(s.stack_mib, 16);
	ck_assert(s.build.cpu_seconds == 30.0);
	ck_assert(s.build.wall_seconds == 45.5);
	ck_assert_int_eq(s.build.memory_mib, 1024);
	ck_assert_int_eq(s.build.processes, 16);
	ck_assert_int_eq(s.build.file_size_mib, 8);
	ck_assert_int_eq(s.build.output_kib, 64);
	ck_assert_int_eq(s.build.tmp_mib, 12);
	ck_assert_uint_eq(s.ncases, 4);
	ck_assert_str_eq(s.cases[0].name, "example");
	ck_assert_str_eq(s.cases[0].description, "the contract's example");
	ck_assert_int_eq(s.cases[0].hidden, 0);
	ck_assert_int_eq(s.cases[1].hidden, 1);
	ck_assert_int_eq(s.cases[1].points, 3);
	ck_assert_int_eq(s.cases[2].hidden, 1);
	ck_assert_str_eq(s.cases[2].name, "misc-1.x");
	/* categories in order of first appearance, gather only once */
	ck_assert_uint_eq(s.ncategories, 3);
	ck_assert_str_eq(s.categories[0], "gather");
	ck_assert_str_eq(s.categories[1], "vector");
	ck_assert_str_eq(s.categories[2], "misaligned");
	ck_assert_str_eq(s.hints[0], "mind the check order");
	ck_assert_str_eq(s.hints[1], "a float4 is 16 bytes");
	ck_assert_ptr_null(s.hints[2]);
	ck_assert_str_eq(suite_hint(&s, "vector"), "a float4 is 16 bytes");
	ck_assert_ptr_null(suite_hint(&s, "misaligned"));
	ck_assert_ptr_null(suite_hint(&s, "nonesuch"));
	ck_assert_int_eq(suite_max_score(&s), 7);
	suite_free(&s);
	suite_free(&s);		/* a freed suite is empty: freeing is a no-op */
}
END_TEST

START_TEST(test_invalid_cases)
{
	char base[4200], dir[4500], path[4600], tmpl[2048], want[8192];
	char err[2048];
	struct dirent *de;
	int seen = 0;
	DIR *d;

	snprintf(base, sizeof base, "%s/invalid", data_dir());
	d = opendir(base);
	ck_assert_msg(d != NULL, "cannot open '%s'", base);
	while ((de = readdir(d))) {
		struct suite s;

		if (de->d_name[0] == '.')
			continue;
		snprintf(dir, sizeof dir, "%s/%s", base, de->d_name);
		snprintf(path, sizeof path, "%s/expected-error", dir);
		read_line(path, tmpl, sizeof tmpl);
		ck_assert_msg(*tmpl, "%s: no expected-error", de->d_name);
		expand(tmpl, dir, want, sizeof want);
		ck_assert_msg(load(&s, dir, err, sizeof err) == -1,
			      "%s: loaded", de->d_name);
		ck_assert_msg(!strcmp(err, want), "%s:\n got  %s\n want %s",
			      de->d_name, err, want);
		ck_assert_msg(s.name == NULL && s.ncases == 0 && s.cases == NULL,
			      "%s: suite not left empty", de->d_name);
		seen++;
	}
	closedir(d);
	ck_assert_int_ge(seen, 25);
}
END_TEST

START_TEST(test_missing_dir)
{
	char err[256];
	struct suite s;

	ck_assert_int_eq(load(&s, "/nonexistent-wg/x/", err, sizeof err),
			 -1);
	ck_assert_str_eq(err, "cannot open '/nonexistent-wg/x/suite.json': "
			      "No such file or directory");
}
END_TEST

/* The reason is appended to what the caller's buffer holds. */
START_TEST(test_error_appended)
{
	struct strbuf err = STRBUF_INIT;
	struct suite s;

	strbuf_addstr(&err, "x: ");
	ck_assert_int_eq(suite_load(&s, "/nonexistent-wg", &err), -1);
	ck_assert_str_eq(strbuf_str(&err), "x: cannot open "
			 "'/nonexistent-wg/suite.json': No such file or directory");
	strbuf_release(&err);
}
END_TEST

/* Every JSON allocation of suite_load() made to fail in turn, on the
 * public suite (hints, a line_map, 15 cases): -1 with an error and an
 * empty suite (grade exits 2), or a whole suite; no JSON value leaked
 * (make sanitize checks the rest). Not the very same suite: jansson 2.14's
 * lexer drops the byte it could not store and goes on ("studnts" in a
 * description, "25" for 256), which no caller can see. */
START_TEST(test_allocation_failures)
{
	const char *root = getenv("WG_ROOT");
	struct suite full, s, empty;
	char dir[4096], err[512];
	size_t n, failures = 0;

	snprintf(dir, sizeof dir, "%s/public-tests", root ? root : ".");
	failalloc_install();
	ck_assert_msg(load(&full, dir, err, sizeof err) == 0, "%s", err);
	ck_assert_ptr_nonnull(full.line_map);
	memset(&empty, 0, sizeof empty);
	for (n = 1; ; n++) {
		int rc;

		err[0] = '\0';
		failalloc_fail_at(n);
		rc = load(&s, dir, err, sizeof err);
		failalloc_fail_at(0);
		if (rc == 0) {
			ck_assert_uint_eq(s.ncases, full.ncases);
			ck_assert_uint_eq(s.ncategories, full.ncategories);
			ck_assert_ptr_nonnull(s.line_map);
			ck_assert_ptr_nonnull(s.hints);
			suite_free(&s);
		} else {
			ck_assert_int_eq(rc, -1);
			ck_assert_msg(err[0] && err[strlen(err) - 1] != ' ',
				      "allocation %zu failed: error '%s'", n, err);
			ck_assert(!memcmp(&s, &empty, sizeof s));
			failures++;
		}
		ck_assert_int_eq(failalloc_live(), 0);
		if (!failalloc_failed())
			break;
	}
	suite_free(&full);
	ck_assert_uint_gt(failures, 0);
	failalloc_uninstall();
}
END_TEST

Suite *make_suite_suite(void);

Suite *make_suite_suite(void)
{
	Suite *s = suite_create("suite");
	TCase *tc = tcase_create("load");

	tcase_add_test(tc, test_minimal_defaults);
	tcase_add_test(tc, test_full);
	tcase_add_test(tc, test_invalid_cases);
	tcase_add_test(tc, test_missing_dir);
	tcase_add_test(tc, test_error_appended);
	suite_add_tcase(s, tc);
	tc = tcase_create("allocation");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_allocation_failures);
	suite_add_tcase(s, tc);
	return s;
}
