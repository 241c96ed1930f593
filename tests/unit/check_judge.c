/*
 * judge: judge_case() on the runner's bounded helpers (tests/helpers/,
 * from check_main.c's copy), one row of the table per verdict it can give:
 * the verdict, the TLE limit, the points (the case's on AC, else 0), the
 * run's figures, and a wrong answer's texts.
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grader/run/build.h"
#include "grader/judge/judge.h"
#include "tests/unit/case_fixture.h"
#include "tests/unit/wg_check.h"

#define POINTS 3

struct row {
	const char *what, *helper;
	const char *in, *out;
	int exact;
	double wall_sec;              /* 0: 3 s */
	uint64_t mem_bytes;           /* 0: 256 MiB */
	uint64_t output_bytes;        /* 0: 1 MiB */
	const char *dir;              /* NULL: /tmp */
	enum verdict verdict;
	enum verdict_limit limit;
	int ran;
	long diff_line;
	const char *detail;           /* a part of it; NULL: "" */
};

static const struct row rows[] = {
	{ "accepted", "rn_echo", "a 1\nb 2\n", "a 1\nb 2\n", 0, 0, 0, 0, NULL,
	  VERDICT_AC, 0, 1, 0, NULL },
	{ "trailing blanks are not a difference", "rn_echo", "a 1  \nb 2\n",
	  "a 1\nb 2\n", 0, 0, 0, 0, NULL, VERDICT_AC, 0, 1, 0, NULL },
	{ "unless exact", "rn_echo", "a 1  \nb 2\n", "a 1\nb 2\n", 1, 0, 0, 0,
	  NULL, VERDICT_WA, 0, 1, 1, "(whitespace only)" },
	{ "wrong answer", "rn_echo", "x\ny\nz\n", "x\nY\nz\n", 0, 0, 0, 0, NULL,
	  VERDICT_WA, 0, 1, 2, "first difference on line 2, column 1" },
	{ "missing output", "rn_exit", "x\n", "x\n", 0, 0, 0, 0, NULL,
	  VERDICT_WA, 0, 1, 1, "first difference on line 1" },
	{ "non-zero exit", "rn_closer", "x\n", "", 0, 0, 0, 0, NULL,
	  VERDICT_RTE, 0, 1, 0, "5" },
	{ "wall clock", "rn_sleep", "", "", 0, 0.3, 0, 0, NULL,
	  VERDICT_TLE, VERDICT_LIMIT_WALL, 1, 0, "wall-clock limit of 0.3 s" },
	{ "output flood", "rn_flood", "", "", 0, 0, 0, 64 << 10, NULL,
	  VERDICT_OLE, 0, 1, 0, "64 KiB" },
	{ "image over the memory limit", "rn_bigstatic", "", "", 0, 0,
	  (uint64_t)32 << 20, 0, NULL, VERDICT_MLE, 0, 1, 0, "32 MiB" },
	{ "the grader's own failure", "rn_echo", "x\n", "x\n", 0, 0, 0, 0,
	  "/nonexistent-wg-judge", VERDICT_IE, 0, 0, 0, "chdir" },
};

static void helper_path(const char *name, char *buf, size_t n)
{
	const char *h = getenv("WG_HELPERS"), *b = getenv("WG_BUILD");

	if (h)
		snprintf(buf, n, "%s/%s", h, name);
	else
		snprintf(buf, n, "%s/helpers/%s", b && *b ? b : "build", name);
}

static void judge_row(const struct row *w, struct judge_result *r)
{
	struct judge_config cfg = { .diff = DIFF_OPTS_INIT };
	struct case_files f;
	char prog[PATH_MAX];

	helper_path(w->helper, prog, sizeof(prog));
	cfg.exact = w->exact;
	cfg.diff.exact = w->exact;
	cfg.lim.cpu_sec = 1;
	cfg.lim.wall_sec = w->wall_sec ? w->wall_sec : 3;
	cfg.lim.mem_bytes = w->mem_bytes ? w->mem_bytes : (uint64_t)256 << 20;
	cfg.lim.stack_bytes = (uint64_t)8 << 20;
	cfg.lim.output_bytes = w->output_bytes ? w->output_bytes : 1 << 20;
	case_files_make(&f, w->in, strlen(w->in), w->out, strlen(w->out));
	judge_case(&cfg, prog, build_image_size(prog), w->dir ? w->dir : "/tmp",
		   (uid_t)-1, (gid_t)-1, NULL, &f.data, POINTS, r);
	case_files_remove(&f);
}

START_TEST(test_verdicts)
{
	const struct row *w = &rows[_i];
	struct judge_result r;

	judge_row(w, &r);
	ck_assert_msg(r.verdict == w->verdict, "%s: %s, not %s (%s)", w->what,
		      verdict_code(r.verdict), verdict_code(w->verdict), r.detail);
	ck_assert_msg(r.limit == w->limit, "%s: limit %d", w->what, r.limit);
	ck_assert_int_eq(r.score, r.verdict == VERDICT_AC ? POINTS : 0);
	ck_assert_int_eq(r.ran, w->ran);
	ck_assert_int_eq(r.diff_line, w->diff_line);
	if (w->detail)
		ck_assert_msg(strstr(r.detail, w->detail), "%s: detail '%s'",
			      w->what, r.detail);
	else
		ck_assert_str_eq(r.detail, "");
	/* Texts only for a wrong answer: the first difference, then it
	 * again followed by the unified diff. */
	if (r.verdict == VERDICT_WA) {
		ck_assert_ptr_nonnull(r.first);
		ck_assert_ptr_nonnull(r.diff);
		ck_assert(!strncmp(r.diff, r.first, strlen(r.first)));
		ck_assert_ptr_nonnull(strstr(r.diff, "\n--- expected\n+++ actual\n"));
	} else {
		ck_assert_ptr_null(r.first);
		ck_assert_ptr_null(r.diff);
	}
	if (!r.ran) {
		ck_assert_int_eq(r.cpu_ms, 0);
		ck_assert_ptr_null(r.stderr_tail);
	}
	judge_result_release(&r);
	ck_assert_ptr_null(r.diff);
}
END_TEST

/* What the run measured reaches the result: exit code, signal, stderr. */
START_TEST(test_run_figures)
{
	struct judge_result r;

	judge_row(&rows[5], &r);                /* rn_closer: exit 5 */
	ck_assert_int_eq(r.signaled, 0);
	ck_assert_int_eq(r.exit_code, 5);
	ck_assert_str_eq(r.stderr_tail, "closed\n");
	ck_assert_int_ge(r.wall_ms, 90);        /* it sleeps 100 ms */
	ck_assert_int_gt(r.max_rss_kb, 0);
	judge_result_release(&r);

	judge_row(&rows[6], &r);                /* rn_sleep: killed at 0.3 s */
	ck_assert_int_eq(r.signaled, 1);
	ck_assert_int_eq(r.term_signal, SIGKILL);
	ck_assert_int_ge(r.wall_ms, 290);
	ck_assert_int_lt(r.wall_ms, 2500);
	judge_result_release(&r);
}
END_TEST

/* The case's files are read when it runs: one the grader cannot read then
 * is its own failure (IE, no points), never the program's. */
START_TEST(test_unreadable_case_files)
{
	struct judge_config cfg = { .diff = DIFF_OPTS_INIT };
	struct judge_data d = { "/nonexistent-wg-judge/in", NULL, 0 };
	struct judge_result r;
	struct case_files f;
	char prog[PATH_MAX];

	helper_path("rn_echo", prog, sizeof(prog));
	cfg.lim.cpu_sec = 1;
	cfg.lim.wall_sec = 3;
	cfg.lim.mem_bytes = (uint64_t)256 << 20;
	cfg.lim.stack_bytes = (uint64_t)8 << 20;
	case_files_make(&f, "x\n", 2, "x\n", 2);
	d.out_path = f.out;
	judge_case(&cfg, prog, 0, "/tmp", (uid_t)-1, (gid_t)-1, NULL, &d, POINTS, &r);
	ck_assert_int_eq(r.verdict, VERDICT_IE);
	ck_assert_int_eq(r.score, 0);
	ck_assert_ptr_nonnull(strstr(r.detail, "cannot open the input "
				     "'/nonexistent-wg-judge/in'"));
	judge_result_release(&r);

	d = (struct judge_data){ f.in, "/nonexistent-wg-judge/out", 0 };
	judge_case(&cfg, prog, 0, "/tmp", (uid_t)-1, (gid_t)-1, NULL, &d, POINTS, &r);
	ck_assert_int_eq(r.verdict, VERDICT_IE);
	ck_assert_int_eq(r.score, 0);
	ck_assert_int_eq(r.ran, 1);
	ck_assert_str_eq(r.detail, "grader failure: cannot read "
			 "'/nonexistent-wg-judge/out': No such file or directory");
	judge_result_release(&r);
	case_files_remove(&f);
}
END_TEST

/* With a line map, a wrong answer names the input line that answered the
 * first differing line, cut and escaped as the report shows it. */
START_TEST(test_input_line)
{
	char *cmds[] = { (char *)"active" };
	long nlines[] = { 0 };
	struct suite_line_map m = { (char *)"#", (char *)"error: ", 1, cmds,
				    nlines, 1 };
	struct judge_config cfg = { .diff = DIFF_OPTS_INIT, .line_map = &m };
	struct judge_result r;
	struct case_files f;
	char prog[PATH_MAX], in[400], want[200];
	int n;

	helper_path("rn_echo", prog, sizeof(prog));
	cfg.lim.cpu_sec = 1;
	cfg.lim.wall_sec = 3;
	cfg.lim.mem_bytes = (uint64_t)256 << 20;
	cfg.lim.stack_bytes = (uint64_t)8 << 20;
	/* rn_echo answers its input; the expected output differs on its
	 * second line, which the input's third line (a long one, after a
	 * comment) answered. */
	n = snprintf(in, sizeof(in), "a\n# note\nb\t%0150d\nc\n", 7);
	case_files_make(&f, in, (size_t)n, "a\nX\nc\n", 6);
	judge_case(&cfg, prog, 0, "/tmp", (uid_t)-1, (gid_t)-1, NULL, &f.data,
		   POINTS, &r);
	ck_assert_int_eq(r.verdict, VERDICT_WA);
	ck_assert_int_eq(r.diff_line, 2);
	ck_assert_int_eq(r.input_lo, 3);
	ck_assert_int_eq(r.input_hi, 3);
	/* Cut at 100 bytes of the line, then escaped. */
	snprintf(want, sizeof(want), "b\\t%098d...", 0);
	ck_assert_str_eq(r.input_line, want);
	judge_result_release(&r);
	ck_assert_ptr_null(r.input_line);
	case_files_remove(&f);
}
END_TEST

Suite *make_judge_suite(void)
{
	Suite *s = suite_create("judge");
	TCase *tc = tcase_create("judge");

	tcase_set_timeout(tc, 30);
	tcase_add_loop_test(tc, test_verdicts, 0, sizeof(rows) / sizeof(*rows));
	tcase_add_test(tc, test_run_figures);
	tcase_add_test(tc, test_unreadable_case_files);
	tcase_add_test(tc, test_input_line);
	suite_add_tcase(s, tc);
	return s;
}
