/*
 * score: subtotals per category and the total (see score.h).
 */
#include "grader/judge/score.h"

#include <stdlib.h>
#include <string.h>

static size_t category_index(const struct suite *s, const char *name)
{
	for (size_t i = 0; i < s->ncategories; i++)
		if (!strcmp(s->categories[i], name))
			return i;
	return 0;
}

int score_submission(const struct suite *s, const struct judge_result *results,
		     struct score_total *t)
{
	memset(t, 0, sizeof(*t));
	t->cats = calloc(s->ncategories ? s->ncategories : 1, sizeof(*t->cats));
	if (!t->cats)
		return -1;
	t->ncats = s->ncategories;
	for (size_t i = 0; i < s->ncategories; i++) {
		t->cats[i].name = s->categories[i];
		t->cats[i].hint = s->hints ? s->hints[i] : NULL;
	}
	for (size_t i = 0; i < s->ncases; i++) {
		const struct suite_case *c = &s->cases[i];
		const struct judge_result *r = &results[i];
		struct score_category *cat = &t->cats[category_index(s, c->category)];

		t->counts[r->verdict < VERDICT_COUNT ? r->verdict : VERDICT_IE]++;
		if (r->verdict == VERDICT_IE) {
			t->excluded_points += c->points;
			continue;
		}
		cat->max_score += c->points;
		cat->score += r->score;
		t->max_score += c->points;
		t->score += r->score;
	}
	return 0;
}

void score_release(struct score_total *t)
{
	free(t->cats);
	t->cats = NULL;
	t->ncats = 0;
}
