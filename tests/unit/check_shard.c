/* shard: parsing K/N, and shards that are disjoint, cover the class and
 * keep each student where it was when others are added. */
#include <stdio.h>
#include <stdlib.h>

#include "grader/cli/shard.h"
#include "tests/unit/wg_check.h"

START_TEST(test_parse)
{
	struct strbuf err = STRBUF_INIT;
	struct shard s;

	ck_assert_int_eq(shard_parse("2/3", &s, &err), 0);
	ck_assert_int_eq(s.index, 2);
	ck_assert_int_eq(s.count, 3);
	ck_assert_int_eq(shard_parse("1/1", &s, &err), 0);
	ck_assert_int_eq(shard_parse("0/3", &s, &err), -1);
	ck_assert_str_eq(err.buf, "--shard: '0/3' is not K/N with 1 <= K <= N <= 100000");
	strbuf_reset(&err);
	ck_assert_int_eq(shard_parse("4/3", &s, &err), -1);
	ck_assert_int_eq(shard_parse("3", &s, &err), -1);
	ck_assert_int_eq(shard_parse("a/3", &s, &err), -1);
	ck_assert_int_eq(shard_parse("1/", &s, &err), -1);
	ck_assert_int_eq(shard_parse("1/3x", &s, &err), -1);
	strbuf_release(&err);
}
END_TEST

START_TEST(test_partition)
{
	char name[32];
	int per[4] = { 0 };

	for (int i = 0; i < 1000; i++) {
		int in = 0;

		snprintf(name, sizeof(name), "student-%03d", i);
		for (long k = 1; k <= 4; k++) {
			struct shard s = { k, 4 };
			if (shard_holds(&s, name)) {
				in++;
				per[k - 1]++;
			}
		}
		ck_assert_int_eq(in, 1);            /* disjoint, and a cover */
	}
	for (int k = 0; k < 4; k++)                 /* roughly even */
		ck_assert(per[k] > 150 && per[k] < 350);
	/* One shard of one is everyone. */
	ck_assert(shard_holds(&(struct shard)SHARD_NONE, "anyone"));
	/* Fixed for good: a student's shard is a function of its name. */
	ck_assert_uint_eq(shard_hash("alice"), 0x508b2abb65a03907ULL);
}
END_TEST

Suite *make_shard_suite(void)
{
	Suite *s = suite_create("shard");
	TCase *t = tcase_create("shard");

	tcase_add_test(t, test_parse);
	tcase_add_test(t, test_partition);
	suite_add_tcase(s, t);
	return s;
}
