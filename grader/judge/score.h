#ifndef WG_SCORE_H
#define WG_SCORE_H

/*
 * score: points per category and in total for one submission.
 *
 * A case is worth its points when AC, else 0. An IE case (the grader's own
 * failure) is never counted against the student: its points leave both
 * score and max_score, and it is counted in 'excluded'. CE cases count
 * (the student's code did not build).
 *
 * Errors: score_submission: -1 when out of memory (no message);
 * score_release cannot fail.
 */

#include <stddef.h>

#include "grader/judge/judge.h"
#include "grader/judge/suite.h"
#include "grader/judge/verdict.h"

struct score_category {
	const char *name;        /* owned by the suite */
	const char *hint;        /* owned by the suite; may be NULL */
	long score, max_score;
};

struct score_total {
	long score, max_score;
	long excluded_points;    /* points of IE cases, left out of max_score */
	int counts[VERDICT_COUNT];
	struct score_category *cats;  /* suite order; malloc'd */
	size_t ncats;
};

/* Sums results[i] (one per suite case). Returns 0, or -1 when out of
 * memory. score_release() frees t->cats. */
int score_submission(const struct suite *s, const struct judge_result *results,
		     struct score_total *t);
void score_release(struct score_total *t);

#endif
