/*
 * verdict: the rule from a runner result to a verdict, in its documented
 * order (IE, OLE, TLE cpu/wall, MLE, RTE, then "compare"), the MLE rule's
 * two triggers, and the tables.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "grader/judge/verdict.h"
#include "wg_check.h"

static const struct verdict_limits lim = {
	.cpu_sec = 1, .wall_sec = 3, .mem_bytes = 256ULL << 20,
	.output_bytes = 1024 * 1024,
};

static struct verdict_info classify(int rc, struct run_result *r)
{
	struct verdict_info v;

	verdict_classify(rc, r, &lim, &v);
	return v;
}

START_TEST(test_clean_exit_is_compared)
{
	struct run_result r = { .status = RUN_EXITED, .exit_code = 0 };
	struct verdict_info v = classify(0, &r);

	ck_assert_int_eq(v.verdict, VERDICT_AC);
	ck_assert_str_eq(v.detail, "");
}
END_TEST

START_TEST(test_internal_errors)
{
	struct run_result r = { .status = RUN_EXITED };
	struct verdict_info v;

	strcpy(r.error, "cannot fork: Resource temporarily unavailable");
	v = classify(-1, &r);
	ck_assert_int_eq(v.verdict, VERDICT_IE);
	ck_assert_ptr_nonnull(strstr(v.detail, "cannot fork"));

	/* The program is not runnable: the submission's fault. */
	struct run_result x = { .status = RUN_EXITED, .exit_code = 127,
				.exec_errno = ENOEXEC, .exec_stage = "exec" };
	v = classify(0, &x);
	ck_assert_int_eq(v.verdict, VERDICT_RTE);
	ck_assert_str_eq(v.detail, "cannot run: Exec format error");
	/* The grader's copy is gone: the grader's fault. */
	struct run_result y = { .status = RUN_EXITED, .exit_code = 127,
				.exec_errno = ENOENT, .exec_stage = "exec" };
	v = classify(0, &y);
	ck_assert_int_eq(v.verdict, VERDICT_IE);
	ck_assert_str_eq(v.detail, "cannot run: No such file or directory");
}
END_TEST

START_TEST(test_limits)
{
	struct run_result r = { .status = RUN_SIGNALED, .term_signal = SIGKILL,
				.output_exceeded = 1, .timed_out_wall = 1 };
	struct verdict_info v = classify(0, &r);

	/* OLE comes first: the runner killed it for the output. */
	ck_assert_int_eq(v.verdict, VERDICT_OLE);
	ck_assert_int_eq(v.limit, VERDICT_LIMIT_NONE);

	r = (struct run_result){ .status = RUN_SIGNALED, .term_signal = SIGXCPU,
				 .cpu_exceeded = 1, .cpu_ms = 1000 };
	v = classify(0, &r);
	ck_assert_int_eq(v.verdict, VERDICT_TLE);
	ck_assert_int_eq(v.limit, VERDICT_LIMIT_CPU);
	ck_assert_str_eq(verdict_limit_name(v.limit), "cpu");

	r = (struct run_result){ .status = RUN_SIGNALED, .term_signal = SIGKILL,
				 .timed_out_wall = 1, .cpu_ms = 2 };
	v = classify(0, &r);
	ck_assert_int_eq(v.verdict, VERDICT_TLE);
	ck_assert_int_eq(v.limit, VERDICT_LIMIT_WALL);

	r = (struct run_result){ .status = RUN_SIGNALED, .term_signal = SIGKILL,
				 .stderr_exceeded = 1 };
	v = classify(0, &r);
	ck_assert_int_eq(v.verdict, VERDICT_OLE);
	ck_assert_ptr_nonnull(strstr(v.detail, "standard error"));
}
END_TEST

START_TEST(test_mle_rule)
{
	/* 90 % of 256 MiB is 235929.6 KiB: 235930 KiB and a death is MLE... */
	struct run_result r = { .status = RUN_SIGNALED, .term_signal = SIGSEGV,
				.max_rss_kb = 235930 };
	ck_assert_int_eq(classify(0, &r).verdict, VERDICT_MLE);
	/* ...235929 KiB is not (RTE)... */
	r.max_rss_kb = 235929;
	ck_assert_int_eq(classify(0, &r).verdict, VERDICT_RTE);
	/* The memory cgroup's OOM kill is MLE whatever the RSS read. */
	r = (struct run_result){ .status = RUN_SIGNALED, .term_signal = SIGKILL,
				 .oom_killed = 1, .max_rss_kb = 1024 };
	ck_assert_int_eq(classify(0, &r).verdict, VERDICT_MLE);
	/* ...nor is a clean exit at any size (compare the output). */
	r = (struct run_result){ .status = RUN_EXITED, .max_rss_kb = 262144 };
	ck_assert_int_eq(classify(0, &r).verdict, VERDICT_AC);

	/* An allocation failure on stderr, then a non-zero exit: MLE. */
	char msg[] = "prog: Out of memory\n";
	r = (struct run_result){ .status = RUN_EXITED, .exit_code = 1,
				 .max_rss_kb = 2000, .err = msg, .err_len = strlen(msg) };
	struct verdict_info v = classify(0, &r);
	ck_assert_int_eq(v.verdict, VERDICT_MLE);
	ck_assert_ptr_nonnull(strstr(v.detail, "exit status 1"));

	/* glibc's heap-corruption abort names malloc but is the program's
	 * bug: RTE SIGABRT, not MLE. */
	char corrupt[] = "malloc(): corrupted top size\n";
	r = (struct run_result){ .status = RUN_SIGNALED, .term_signal = SIGABRT,
				 .max_rss_kb = 2000, .err = corrupt,
				 .err_len = strlen(corrupt) };
	ck_assert_int_eq(classify(0, &r).verdict, VERDICT_RTE);
	r.err = msg;
	r.err_len = strlen(msg);

	/* A static image of 240 MiB (>= 90 % of 256 MiB) and a death with
	 * almost no RSS: it could not load. MLE, whatever the signal. */
	struct verdict_limits big = lim;
	big.image_bytes = 240ULL << 20;
	r = (struct run_result){ .status = RUN_SIGNALED, .term_signal = SIGSEGV,
				 .max_rss_kb = 300 };
	verdict_classify(0, &r, &big, &v);
	ck_assert_int_eq(v.verdict, VERDICT_MLE);
	ck_assert_ptr_nonnull(strstr(v.detail, "static data (240 MiB)"));
	/* 230 MiB is under 90 %: RTE SIGSEGV. */
	big.image_bytes = 230ULL << 20;
	verdict_classify(0, &r, &big, &v);
	ck_assert_int_eq(v.verdict, VERDICT_RTE);
	/* exec itself refused for lack of address space: MLE. */
	r = (struct run_result){ .status = RUN_EXITED, .exit_code = 127,
				 .exec_errno = ENOMEM, .exec_stage = "exec" };
	verdict_classify(0, &r, &lim, &v);
	ck_assert_int_eq(v.verdict, VERDICT_MLE);
	r.err = msg;
	r.err_len = strlen(msg);
	r.exec_errno = 0;

	/* Without a memory limit there is no MLE. */
	struct verdict_limits none = lim;
	none.mem_bytes = 0;
	verdict_classify(0, &r, &none, &v);
	ck_assert_int_eq(v.verdict, VERDICT_RTE);
}
END_TEST

START_TEST(test_rte_names_the_signal)
{
	struct run_result r = { .status = RUN_SIGNALED, .term_signal = SIGSEGV };
	struct verdict_info v = classify(0, &r);

	ck_assert_int_eq(v.verdict, VERDICT_RTE);
	ck_assert_str_eq(v.detail, "killed by SIGSEGV");

	r.term_signal = SIGABRT;
	ck_assert_str_eq(classify(0, &r).detail, "killed by SIGABRT");

	r = (struct run_result){ .status = RUN_EXITED, .exit_code = 3 };
	v = classify(0, &r);
	ck_assert_int_eq(v.verdict, VERDICT_RTE);
	ck_assert_str_eq(v.detail, "exit status 3 (the program must exit 0)");
}
END_TEST

START_TEST(test_tables)
{
	static const char *const codes[] = { "AC", "WA", "TLE", "MLE", "OLE",
					     "RTE", "CE", "IE" };

	for (int v = 0; v < VERDICT_COUNT; v++) {
		ck_assert_str_eq(verdict_code((enum verdict)v), codes[v]);
		ck_assert_int_eq(verdict_from_code(codes[v]), v);
		ck_assert_ptr_nonnull(verdict_long_name((enum verdict)v));
		ck_assert_int_eq(verdict_color((enum verdict)v)[0], '\033');
	}
	ck_assert_int_eq(verdict_from_code("XX"), VERDICT_COUNT);
	ck_assert_str_eq(verdict_long_name(VERDICT_WA), "wrong answer");
	ck_assert_ptr_null(verdict_limit_name(VERDICT_LIMIT_NONE));
}
END_TEST

Suite *make_verdict_suite(void)
{
	Suite *s = suite_create("verdict");
	TCase *tc = tcase_create("rule");

	tcase_add_test(tc, test_clean_exit_is_compared);
	tcase_add_test(tc, test_internal_errors);
	tcase_add_test(tc, test_limits);
	tcase_add_test(tc, test_mle_rule);
	tcase_add_test(tc, test_rte_names_the_signal);
	tcase_add_test(tc, test_tables);
	suite_add_tcase(s, tc);
	return s;
}
