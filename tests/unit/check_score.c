/*
 * score: subtotals per category and the total, with IE cases left out of
 * max_score (never counted against the student) and CE counted. The
 * results are judge_case()'s own, so the points each case earns are
 * assigned as grade assigns them (grade.c's case_job), not set here:
 * cases a (cat x, 2 points: rn_echo, right), b (x, 3: rn_echo, wrong),
 * c (y, 4: the grader cannot enter the folder, IE), d (y, 1: CE, as grade
 * marks the cases of a failed build).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grader/judge/score.h"
#include "tests/unit/case_fixture.h"
#include "tests/unit/wg_check.h"

/* judge_case() on rn_echo with input in, expected output out, in dir. */
static void judge_echo(const char *in, const char *out, const char *dir,
		       int points, struct judge_result *r)
{
	const char *h = getenv("WG_HELPERS"), *b = getenv("WG_BUILD");
	struct judge_config cfg = { .diff = DIFF_OPTS_INIT };
	struct case_files f;
	char prog[PATH_MAX];

	if (h)
		snprintf(prog, sizeof(prog), "%s/rn_echo", h);
	else
		snprintf(prog, sizeof(prog), "%s/helpers/rn_echo", b && *b ? b : "build");
	cfg.lim.cpu_sec = 1;
	cfg.lim.wall_sec = 3;
	cfg.lim.mem_bytes = (uint64_t)256 << 20;
	cfg.lim.stack_bytes = (uint64_t)8 << 20;
	case_files_make(&f, in, strlen(in), out, strlen(out));
	judge_case(&cfg, prog, 0, dir, (uid_t)-1, (gid_t)-1, NULL, &f.data, points, r);
	case_files_remove(&f);
}

START_TEST(test_totals)
{
	char x[] = "x", y[] = "y", na[] = "a", nb[] = "b", nc[] = "c", nd[] = "d";
	char hint[] = "count words";
	char *cats[] = { x, y }, *hints[] = { NULL, hint };
	struct suite_case cases[] = {
		{ .name = na, .category = x, .points = 2 },
		{ .name = nb, .category = x, .points = 3 },
		{ .name = nc, .category = y, .points = 4 },
		{ .name = nd, .category = y, .points = 1 },
	};
	struct suite s = { .cases = cases, .ncases = 4, .categories = cats,
			   .hints = hints, .ncategories = 2 };
	struct judge_result r[4] = { { 0 } };
	struct score_total t;

	judge_echo("1 2\n", "1 2\n", "/tmp", cases[0].points, &r[0]);
	judge_echo("1 2\n", "1 3\n", "/tmp", cases[1].points, &r[1]);
	judge_echo("1 2\n", "1 2\n", "/nonexistent-wg-score", cases[2].points, &r[2]);
	r[3].verdict = VERDICT_CE;
	ck_assert_int_eq(r[0].verdict, VERDICT_AC);
	ck_assert_int_eq(r[1].verdict, VERDICT_WA);
	ck_assert_int_eq(r[2].verdict, VERDICT_IE);

	ck_assert_int_eq(score_submission(&s, r, &t), 0);
	ck_assert_int_eq(t.score, 2);
	ck_assert_int_eq(t.max_score, 2 + 3 + 1);
	ck_assert_int_eq(t.excluded_points, 4);
	ck_assert_int_eq(t.counts[VERDICT_AC], 1);
	ck_assert_int_eq(t.counts[VERDICT_WA], 1);
	ck_assert_int_eq(t.counts[VERDICT_IE], 1);
	ck_assert_int_eq(t.counts[VERDICT_CE], 1);
	ck_assert_uint_eq(t.ncats, 2);
	ck_assert_str_eq(t.cats[0].name, "x");
	ck_assert_int_eq(t.cats[0].score, 2);
	ck_assert_int_eq(t.cats[0].max_score, 5);
	ck_assert_ptr_null(t.cats[0].hint);
	ck_assert_int_eq(t.cats[1].score, 0);
	ck_assert_int_eq(t.cats[1].max_score, 1);
	ck_assert_str_eq(t.cats[1].hint, "count words");
	score_release(&t);
	for (int i = 0; i < 4; i++)
		judge_result_release(&r[i]);
}
END_TEST

/* Every case right: the score is the suite's maximum, category by
 * category; a suite of one category. */
START_TEST(test_all_accepted)
{
	char x[] = "x", na[] = "a", nb[] = "b";
	char *cats[] = { x };
	struct suite_case cases[] = {
		{ .name = na, .category = x, .points = 5 },
		{ .name = nb, .category = x, .points = 0 },
	};
	struct suite s = { .cases = cases, .ncases = 2, .categories = cats,
			   .ncategories = 1 };
	struct judge_result r[2];
	struct score_total t;

	judge_echo("ok\n", "ok\n", "/tmp", cases[0].points, &r[0]);
	judge_echo("", "", "/tmp", cases[1].points, &r[1]);
	ck_assert_int_eq(score_submission(&s, r, &t), 0);
	ck_assert_int_eq(t.score, 5);
	ck_assert_int_eq(t.max_score, 5);
	ck_assert_int_eq(t.counts[VERDICT_AC], 2);
	ck_assert_int_eq(t.cats[0].score, 5);
	ck_assert_ptr_null(t.cats[0].hint);     /* no hints in the suite */
	score_release(&t);
	judge_result_release(&r[0]);
	judge_result_release(&r[1]);
}
END_TEST

Suite *make_score_suite(void)
{
	Suite *s = suite_create("score");
	TCase *tc = tcase_create("totals");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_totals);
	tcase_add_test(tc, test_all_accepted);
	suite_add_tcase(s, tc);
	return s;
}
