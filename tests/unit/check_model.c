/* Interval union, rounding and bank counting, expectations worked by hand. */
#include "tests/unit/wg_check.h"

#include "reference/model.h"

#define R(s, l) ((struct model_range){ (s), (l) })

START_TEST(granules_coalesced)
{
	struct model_range r[32];
	for (int t = 0; t < 32; t++)
		r[t] = R(4u * t, 4);
	/* 128 contiguous bytes from 0: sectors 0-3, line 0. */
	ck_assert_uint_eq(model_cover(r, 32).sectors, 4);
	ck_assert_uint_eq(model_cover(r, 32).lines, 1);
}
END_TEST

START_TEST(granules_misaligned)
{
	struct model_range r[32];
	for (int t = 0; t < 32; t++)
		r[t] = R(4 + 4u * t, 4);
	/* Bytes 4..131: sectors 0..4, lines 0..1. */
	ck_assert_uint_eq(model_cover(r, 32).sectors, 5);
	ck_assert_uint_eq(model_cover(r, 32).lines, 2);
}
END_TEST

START_TEST(granules_unsorted_overlapping)
{
	/* [100,140) [0,10) [130,200) [5,6): union [0,10) [100,200).
	 * Sectors: 0; 3..6 -> 5. Lines: 0; 0..1 -> 2. */
	struct model_range r[] = { R(100, 40), R(0, 10), R(130, 70), R(5, 1) };
	ck_assert_uint_eq(model_cover(r, 4).sectors, 5);
	ck_assert_uint_eq(model_cover(r, 4).lines, 2);
}
END_TEST

START_TEST(granules_range_crossing)
{
	/* One byte at 31 and one at 32 sit in two sectors, one line. */
	struct model_range r[] = { R(31, 2) };
	ck_assert_uint_eq(model_cover(r, 1).sectors, 2);
	ck_assert_uint_eq(model_cover(r, 1).lines, 1);
}
END_TEST

START_TEST(granules_huge)
{
	/* A field of 2^48 - 1 bytes at 0: sectors ceil((2^48-1)/32) = 2^43. */
	uint64_t f = (1ULL << 48) - 1;
	struct model_range r[] = { R(0, f), R(f, f) };
	ck_assert_uint_eq(model_cover(r, 1).sectors, 1ULL << 43);
	/* Two adjacent fields: 2f bytes from 0, ceil(2f/32) = 2^44. */
	ck_assert_uint_eq(model_cover(r, 2).sectors, 1ULL << 44);
	/* Far apart, near 2^58: still exact. */
	struct model_range far[] = { R(1ULL << 57, 32), R(0, 32) };
	ck_assert_uint_eq(model_cover(far, 2).sectors, 2);
}
END_TEST

START_TEST(efficiency_rounding)
{
	ck_assert_uint_eq(model_efficiency_tenths(128, 128), 1000);
	ck_assert_uint_eq(model_efficiency_tenths(128, 160), 800);
	ck_assert_uint_eq(model_efficiency_tenths(128, 32), 4000);
	/* 2/32 = 6.25% -> 6.3 (half up), where printf would give 6.2. */
	ck_assert_uint_eq(model_efficiency_tenths(2, 32), 63);
	/* 1/32 = 3.125% -> 3.1; 128/384 = 33.33% -> 33.3. */
	ck_assert_uint_eq(model_efficiency_tenths(1, 32), 31);
	ck_assert_uint_eq(model_efficiency_tenths(128, 384), 333);
	/* 2/3 = 66.666% -> 66.7; 28/32 = 87.5%. */
	ck_assert_uint_eq(model_efficiency_tenths(2, 3), 667);
	ck_assert_uint_eq(model_efficiency_tenths(28, 32), 875);
	/* 1/1600 = 0.0625% -> 0.1; 1/2000 = 0.05% -> 0.1; 1/2001 -> 0.0. */
	ck_assert_uint_eq(model_efficiency_tenths(1, 1600), 1);
	ck_assert_uint_eq(model_efficiency_tenths(1, 2000), 1);
	ck_assert_uint_eq(model_efficiency_tenths(1, 2001), 0);
}
END_TEST

START_TEST(efficiency_large)
{
	/* 1000 * requested passes 2^63: requested = 2^59, moved = 2^59 + 2^58
	 * -> 2/3 -> 66.7%. */
	uint64_t req = 1ULL << 59, moved = (1ULL << 59) + (1ULL << 58);
	ck_assert_uint_eq(model_efficiency_tenths(req, moved), 667);
	/* requested = moved = 2^59: exactly 100.0%. */
	ck_assert_uint_eq(model_efficiency_tenths(1ULL << 59, 1ULL << 59), 1000);
	/* moved = 2^59 + 1, requested 2^59: just under 100 -> 100.0. */
	ck_assert_uint_eq(model_efficiency_tenths(1ULL << 59, (1ULL << 59) + 1),
			  1000);
	/* 3 * 2^57 / 2^59 = 75.0%. */
	ck_assert_uint_eq(model_efficiency_tenths(3ULL << 57, 1ULL << 59), 750);
}
END_TEST

START_TEST(banks)
{
	uint64_t w[32];
	struct model_banks b;

	for (int t = 0; t < 32; t++)
		w[t] = (uint64_t)t;
	b = model_bank_conflicts(w, 32);
	ck_assert_uint_eq(b.passes, 1);

	for (int t = 0; t < 32; t++)
		w[t] = 2u * t;          /* banks 0,2,..,30 twice each */
	b = model_bank_conflicts(w, 32);
	ck_assert_uint_eq(b.passes, 2);
	ck_assert_uint_eq(b.bank, 0);

	for (int t = 0; t < 32; t++)
		w[t] = 5;               /* broadcast: one word */
	b = model_bank_conflicts(w, 32);
	ck_assert_uint_eq(b.passes, 1);

	/* Same word twice is one; words 3, 35, 67 in bank 3; 7, 39 in bank 7. */
	uint64_t x[] = { 7, 3, 35, 3, 39, 67, 35 };
	b = model_bank_conflicts(x, 7);
	ck_assert_uint_eq(b.passes, 3);
	ck_assert_uint_eq(b.bank, 3);

	/* A tie goes to the lowest bank: 9,41 (bank 9) and 4,36 (bank 4). */
	uint64_t y[] = { 9, 41, 4, 36 };
	b = model_bank_conflicts(y, 4);
	ck_assert_uint_eq(b.passes, 2);
	ck_assert_uint_eq(b.bank, 4);
}
END_TEST

Suite *make_model_suite(void)
{
	Suite *s = suite_create("model");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, granules_coalesced);
	tcase_add_test(tc, granules_misaligned);
	tcase_add_test(tc, granules_unsorted_overlapping);
	tcase_add_test(tc, granules_range_crossing);
	tcase_add_test(tc, granules_huge);
	tcase_add_test(tc, efficiency_rounding);
	tcase_add_test(tc, efficiency_large);
	tcase_add_test(tc, banks);
	suite_add_tcase(s, tc);
	return s;
}
