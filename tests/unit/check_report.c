/*
 * report: the JSON report that report_json() writes, on the fixtures of
 * report_fixture.h (numbers worked out by hand below), and its behaviour
 * when JSON allocations fail: NULL (grade then exits 3, IE) or the whole
 * report, never a partial one, and nothing leaked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grader/run/cgroup.h"
#include "grader/report/report.h"
#include "tests/unit/failalloc.h"
#include "tests/unit/report_fixture.h"
#include "tests/unit/wg_check.h"

#define get(j, k) json_object_get(j, k)

static long num(const json_t *j, const char *key)
{
	const json_t *v = json_object_get(j, key);

	ck_assert_msg(json_is_integer(v), "'%s' is not an integer", key);
	return (long)json_integer_value(v);
}

static const char *str(const json_t *j, const char *key)
{
	const char *s = json_string_value(json_object_get(j, key));

	ck_assert_msg(s != NULL, "'%s' is not a string", key);
	return s;
}

static json_t *nth(const json_t *j, const char *key, size_t i)
{
	json_t *v = json_array_get(json_object_get(j, key), i);

	ck_assert_msg(v != NULL, "no %s[%zu]", key, i);
	return v;
}

/* rounding: AC 2 + WA 2 + AC 1 + WA 1 + TLE 1 + IE 1: 3 of 7 points, the
 * IE case's 1 left out; no-compile: 8 points, all CE. */
START_TEST(test_totals)
{
	json_t *r = report_fixture_json("mixed");
	json_t *a, *b;

	ck_assert_ptr_nonnull(r);
	ck_assert_str_eq(str(r, "suite"), "hidden");
	ck_assert_str_eq(str(r, "suite_dir"), "hidden-tests");
	ck_assert_str_eq(str(r, "grader_version"), WG_VERSION);
	ck_assert_str_eq(str(r, "view"), "student");
	ck_assert(json_is_false(get(r, "exact")));
	ck_assert(json_is_null(get(r, "sandbox")));
	ck_assert_ptr_null(get(r, "build_limits"));
	ck_assert_int_eq(num(get(r, "limits"), "memory_mib"), 256);
	ck_assert_uint_eq(json_array_size(get(r, "submissions")), 2);
	a = nth(r, "submissions", 0);
	ck_assert_str_eq(str(a, "submission"), "submissions/rounding");
	ck_assert_int_eq(num(a, "score"), 3);
	ck_assert_int_eq(num(a, "max_score"), 7);
	ck_assert_int_eq(num(a, "excluded_points"), 1);
	ck_assert_int_eq(json_object_size(get(a, "verdicts")), VERDICT_COUNT);
	ck_assert_int_eq(num(get(a, "verdicts"), "AC"), 2);
	ck_assert_int_eq(num(get(a, "verdicts"), "WA"), 2);
	ck_assert_int_eq(num(get(a, "verdicts"), "TLE"), 1);
	ck_assert_int_eq(num(get(a, "verdicts"), "IE"), 1);
	ck_assert_int_eq(num(get(a, "verdicts"), "CE"), 0);
	ck_assert_str_eq(str(get(a, "build"), "status"), "ok");
	ck_assert(json_is_null(get(get(a, "build"), "reason")));
	b = nth(r, "submissions", 1);
	ck_assert_int_eq(num(b, "score"), 0);
	ck_assert_int_eq(num(b, "max_score"), 8);
	ck_assert_int_eq(num(get(b, "verdicts"), "CE"), 6);
	ck_assert_str_eq(str(get(b, "build"), "status"), "failed");
	ck_assert_ptr_nonnull(strstr(str(get(b, "build"), "log"), "expected ';'"));
	ck_assert_uint_eq(json_array_size(get(b, "cases")), 6);
	json_decref(r);
}
END_TEST

/* A category's hint only where points were lost there. */
START_TEST(test_categories)
{
	json_t *r = report_fixture_json("mixed");
	json_t *a = nth(r, "submissions", 0);
	json_t *strided = nth(a, "categories", 0), *shared = nth(a, "categories", 1);
	json_t *mis = nth(a, "categories", 2);

	ck_assert_uint_eq(json_array_size(get(a, "categories")), 3);
	ck_assert_str_eq(str(strided, "category"), "strided");
	ck_assert_int_eq(num(strided, "score"), 2);
	ck_assert_int_eq(num(strided, "max_score"), 4);
	ck_assert_str_eq(str(strided, "hint"),
			 "round half up in integers, not with printf");
	ck_assert_int_eq(num(shared, "score"), 1);
	ck_assert_int_eq(num(shared, "max_score"), 1);
	ck_assert_ptr_null(get(shared, "hint"));
	ck_assert_int_eq(num(mis, "score"), 0);
	ck_assert_int_eq(num(mis, "max_score"), 2);    /* the IE case left out */
	ck_assert_ptr_nonnull(get(mis, "hint"));
	json_decref(r);
}
END_TEST

/* Each case: exit code or signal, limit, diff, stderr, exclusion. */
START_TEST(test_cases)
{
	json_t *r = report_fixture_json("mixed");
	json_t *a = nth(r, "submissions", 0);
	json_t *ac = nth(a, "cases", 0), *wa = nth(a, "cases", 1);
	json_t *tle = nth(a, "cases", 4), *ie = nth(a, "cases", 5);
	json_t *ce = nth(nth(r, "submissions", 1), "cases", 2);

	ck_assert_str_eq(str(ac, "verdict"), "AC");
	ck_assert_int_eq(num(ac, "score"), 2);
	ck_assert_int_eq(num(ac, "max_score"), 2);
	ck_assert_int_eq(num(ac, "exit_code"), 0);
	ck_assert_str_eq(str(ac, "visibility"), "visible");
	ck_assert(json_is_null(get(ac, "diff")));
	ck_assert_ptr_null(get(ac, "limit"));
	ck_assert_ptr_null(get(ac, "excluded"));

	ck_assert_str_eq(str(wa, "verdict"), "WA");
	ck_assert_int_eq(num(wa, "score"), 0);
	ck_assert_int_eq(num(wa, "diff_line"), 3);
	ck_assert_str_eq(str(wa, "detail"), "first difference on line 3, column 14");
	ck_assert_ptr_nonnull(strstr(str(wa, "diff"), "--- expected\n+++ actual\n"));
	ck_assert_str_eq(str(wa, "stderr_tail"), "warn\\x07 bell");
	ck_assert_int_eq(num(wa, "wall_ms"), 250);

	ck_assert_str_eq(str(nth(a, "cases", 3), "visibility"), "hidden");
	ck_assert_str_eq(str(tle, "verdict"), "TLE");
	ck_assert_str_eq(str(tle, "limit"), "cpu");
	ck_assert_str_eq(str(tle, "signal"), "SIGXCPU");
	ck_assert_ptr_null(get(tle, "exit_code"));

	ck_assert_str_eq(str(ie, "verdict"), "IE");
	ck_assert(json_is_true(get(ie, "excluded")));
	ck_assert(json_is_null(get(ie, "exit_code")));
	ck_assert(json_is_null(get(ie, "stderr_tail")));

	ck_assert_str_eq(str(ce, "verdict"), "CE");
	ck_assert_str_eq(str(ce, "detail"), "compilation failed");
	ck_assert_int_eq(num(ce, "max_score"), 1);
	json_decref(r);
}
END_TEST

/* --staff and the compiler's limits are recorded; text that is not UTF-8
 * (a path, a message) is escaped, not dropped. */
START_TEST(test_options_and_bytes)
{
	struct build_limits bl = BUILD_LIMITS_INIT;
	struct report_fixture f;
	json_t *r, *a;

	ck_assert_int_eq(report_fixture_init(&f, "single"), 0);
	f.opts.staff = 1;
	f.opts.exact = 1;
	f.opts.build = &bl;
	f.subs[0].path = "sub\xff";
	snprintf(f.subs[0].cases[1].detail, sizeof(f.subs[0].cases[1].detail),
		 "caf\xe9");
	r = report_json(&f.suite, f.subs, f.nsubs, &f.opts);
	ck_assert_ptr_nonnull(r);
	ck_assert_str_eq(str(r, "view"), "staff");
	ck_assert(json_is_true(get(r, "exact")));
	ck_assert_int_eq(num(get(r, "build_limits"), "memory_mib"), 2048);
	ck_assert_int_eq(num(get(r, "build_limits"), "output_kib"), 256);
	a = nth(r, "submissions", 0);
	ck_assert_str_eq(str(a, "submission"), "sub\\xff");
	ck_assert_str_eq(str(nth(a, "cases", 1), "detail"), "caf\\xe9");
	ck_assert_int_eq(num(a, "score"), 2);
	json_decref(r);
	report_fixture_release(&f);
}
END_TEST

/* What the sandbox gave the runs: its layers, controls and what is
 * missing, one entry per "; "-separated reason. */
START_TEST(test_sandbox)
{
	struct sandbox_layers layers = { .uid_switch = 1, .mount_ns = 1,
		.cgroup = "v2", .cgroup_caps = CG_KILL | CG_PIDS,
		.missing = "no pid namespace: EPERM; no network namespace" };
	struct report_fixture f;
	json_t *r, *sb;

	ck_assert_int_eq(report_fixture_init(&f, "single"), 0);
	f.opts.sandbox = &layers;
	r = report_json(&f.suite, f.subs, f.nsubs, &f.opts);
	sb = get(r, "sandbox");
	ck_assert(json_is_true(get(sb, "uid_switch")));
	ck_assert(json_is_false(get(sb, "pid_namespace")));
	ck_assert_str_eq(str(sb, "cgroup"), "v2");
	ck_assert_uint_eq(json_array_size(get(sb, "cgroup_controls")), 2);
	ck_assert_str_eq(json_string_value(nth(sb, "cgroup_controls", 1)), "pids");
	ck_assert_uint_eq(json_array_size(get(sb, "missing")), 2);
	ck_assert_str_eq(json_string_value(nth(sb, "missing", 1)),
			 "no network namespace");
	ck_assert_int_eq(num(sb, "processes"), 1);
	json_decref(r);
	report_fixture_release(&f);
}
END_TEST

/* Every JSON allocation of report_json() made to fail in turn: NULL, or
 * the very report of a run without failures; nothing leaked. With every
 * part: the sandbox's layers, the compiler's limits, text that is not
 * UTF-8. */
/* The text report (report_print): a hidden case's CPU time is no channel
 * in the student view (staff see it), and a detail is scrubbed. */
static char *printed(struct report_fixture *f)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&buf, &n);

	ck_assert_ptr_nonnull(m);
	report_print(m, &f->suite, f->subs, f->nsubs, &f->opts);
	fclose(m);
	return buf;
}

/* The line of case `name` in text (NUL-terminated copy; caller frees). */
static char *line_of(const char *text, const char *name)
{
	const char *a = strstr(text, name), *b;

	ck_assert_msg(a != NULL, "no line for %s", name);
	b = strchr(a, '\n');
	return strndup(a, b ? (size_t)(b - a) : strlen(a));
}

START_TEST(test_text_views)
{
	struct report_fixture f;
	char *text, *line;

	ck_assert_int_eq(report_fixture_init(&f, "mixed"), 0);
	for (size_t i = 0; i < f.suite.ncases; i++)    /* "reproduce:" */
		ck_assert(asprintf(&f.suite.cases[i].in_path, "hidden-tests/%s.in",
				   f.suite.cases[i].name) > 0 &&
			  asprintf(&f.suite.cases[i].out_path, "hidden-tests/%s.out",
				   f.suite.cases[i].name) > 0);
	snprintf(f.subs[0].cases[5].detail, sizeof(f.subs[0].cases[5].detail),
		 "grader failure \033[2Jhere\x9b");
	text = printed(&f);
	line = line_of(text, "misaligned_slow");   /* hidden, TLE cpu */
	ck_assert_msg(!strstr(line, ">1000"), "student view: '%s'", line);
	free(line);
	ck_assert_ptr_null(strchr(text, '\033'));
	ck_assert_ptr_null(strchr(text, '\x9b'));
	ck_assert_msg(strstr(text, "grader failure ?[2Jhere?"), "%s", text);
	free(text);
	f.opts.staff = 1;
	text = printed(&f);
	line = line_of(text, "misaligned_slow");
	ck_assert_msg(strstr(line, ">1000"), "staff view: '%s'", line);
	free(line);
	free(text);
	report_fixture_release(&f);
}
END_TEST

START_TEST(test_allocation_failures)
{
	struct sandbox_layers layers = { .uid_switch = 1, .cgroup = "v2",
		.cgroup_caps = CG_KILL | CG_MEM,
		.missing = "no pid namespace: EPERM; no network namespace" };
	struct build_limits bl = BUILD_LIMITS_INIT;
	struct report_fixture f;
	size_t n, failures = 0;
	json_t *full, *r;

	failalloc_install();
	ck_assert_int_eq(report_fixture_init(&f, "mixed"), 0);
	f.opts.sandbox = &layers;
	f.opts.build = &bl;
	f.subs[1].path = "submissions/caf\xe9";
	full = report_json(&f.suite, f.subs, f.nsubs, &f.opts);
	ck_assert_ptr_nonnull(full);
	for (n = 1; ; n++) {
		failalloc_fail_at(n);
		r = report_json(&f.suite, f.subs, f.nsubs, &f.opts);
		failalloc_fail_at(0);
		if (!failalloc_failed()) {
			ck_assert(json_equal(r, full));
			json_decref(r);
			break;
		}
		ck_assert_msg(!r || json_equal(r, full),
			      "allocation %zu failed: a partial report", n);
		failures += !r;
		json_decref(r);
	}
	json_decref(full);
	ck_assert_int_eq(failalloc_live(), 0);
	ck_assert_uint_gt(n, 100);     /* it did allocate, and fail */
	ck_assert_uint_gt(failures, 0);
	report_fixture_release(&f);
	failalloc_uninstall();
}
END_TEST

Suite *make_report_suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("json");
	TCase *tm = tcase_create("allocation");

	tcase_add_test(tc, test_totals);
	tcase_add_test(tc, test_categories);
	tcase_add_test(tc, test_cases);
	tcase_add_test(tc, test_options_and_bytes);
	tcase_add_test(tc, test_sandbox);
	tcase_add_test(tc, test_text_views);
	suite_add_tcase(s, tc);
	tcase_set_timeout(tm, 30);
	tcase_add_test(tm, test_allocation_failures);
	suite_add_tcase(s, tm);
	return s;
}
