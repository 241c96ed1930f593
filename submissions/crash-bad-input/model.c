#include "model.h"

/* Insertion sort: strided and aos ranges arrive sorted, so this is one
 * pass for them; a gather of 32 is at worst a few hundred moves. */
static void sort_by_start(struct model_range *r, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct model_range x = r[i];
		size_t j = i;
		while (j > 0 && r[j - 1].start > x.start) {
			r[j] = r[j - 1];
			j--;
		}
		r[j] = x;
	}
}

/* Granule indices are monotonic in the byte address, so ranges sorted by
 * start give index intervals sorted by their low end: one merge pass. */
static uint64_t count_granules(const struct model_range *r, size_t n,
			       unsigned shift)
{
	uint64_t total = 0;

	for (size_t i = 0; i < n;) {
		uint64_t lo = r[i].start >> shift;
		uint64_t hi = (r[i].start + r[i].len - 1) >> shift;
		for (i++; i < n && r[i].start >> shift <= hi; i++) {
			uint64_t h = (r[i].start + r[i].len - 1) >> shift;
			if (h > hi)
				hi = h;
		}
		total += hi - lo + 1;
	}
	return total;
}

struct model_coverage model_cover(struct model_range *r, size_t n)
{
	sort_by_start(r, n);
	return (struct model_coverage){
		count_granules(r, n, MODEL_SECTOR_SHIFT),
		count_granules(r, n, MODEL_LINE_SHIFT),
	};
}

uint64_t model_efficiency_tenths(uint64_t requested, uint64_t moved)
{
	/* 100 * requested / moved to one decimal is 1000 * requested / moved:
	 * three decimal digits of the quotient, then half-up on the rest.
	 * The remainder stays below moved, so 10 * rem and 2 * rem fit. */
	uint64_t q = requested / moved, rem = requested % moved;

	for (int digit = 0; digit < 3; digit++) {
		rem *= 10;
		q = q * 10 + rem / moved;
		rem %= moved;
	}
	if (rem >= moved - rem)
		q++;
	return q;
}

struct model_banks model_bank_conflicts(const uint64_t *words, size_t n)
{
	/* Distinct words per bank; a word only needs comparing with the words
	 * already in its own bank. */
	uint64_t seen[MODEL_BANKS][MODEL_WARP];
	unsigned count[MODEL_BANKS] = { 0 };
	struct model_banks b = { 0, 0 };

	for (size_t i = 0; i < n; i++) {
		unsigned k = (unsigned)(words[i] % MODEL_BANKS), j = 0;
		while (j < count[k] && seen[k][j] != words[i])
			j++;
		if (j == count[k])
			seen[k][count[k]++] = words[i];
	}
	for (unsigned k = 0; k < MODEL_BANKS; k++)
		if (count[k] > b.passes) {
			b.passes = count[k];
			b.bank = k;
		}
	return b;
}
