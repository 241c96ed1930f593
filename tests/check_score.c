/*
 * score: subtotals per category and the total, with IE cases left out of
 * max_score (never counted against the student) and CE counted. Worked by
 * hand: cases a (cat x, 2 points, AC), b (x, 3, WA), c (y, 4, IE),
 * d (y, 1, CE).
 */
#include "grader/score.h"
#include "wg_check.h"

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
	struct judge_result r[4] = {
		{ .verdict = VERDICT_AC, .score = 2 },
		{ .verdict = VERDICT_WA },
		{ .verdict = VERDICT_IE },
		{ .verdict = VERDICT_CE },
	};
	struct score_total t;

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
}
END_TEST

Suite *make_score_suite(void)
{
	Suite *s = suite_create("score");
	TCase *tc = tcase_create("totals");

	tcase_add_test(tc, test_totals);
	suite_add_tcase(s, tc);
	return s;
}
