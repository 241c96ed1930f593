#include "reference/model.h"

/* Insertion sort: strided and aos ranges arrive sorted, so this is one
 * comparison per range for them (nothing is written back); a gather of 32
 * is at worst a few hundred moves. */
static void sort_by_start(struct model_range *r, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		if (r[i - 1].start <= r[i].start)
			continue;
		struct model_range x = r[i];
		size_t j = i;
		do {
			r[j] = r[j - 1];
			j--;
		} while (j > 0 && r[j - 1].start > x.start);
		r[j] = x;
	}
}

/* A run of granule indices [lo, hi] being merged. */
struct span {
	uint64_t lo, hi, total;
};

/* Granule indices are monotonic in the byte address, so ranges sorted by
 * start give index intervals sorted by their low end: each new one either
 * extends the current run or closes it. */
static void span_add(struct span *s, uint64_t lo, uint64_t hi)
{
	if (lo > s->hi) {
		s->total += s->hi - s->lo + 1;
		s->lo = lo;
		s->hi = hi;
	} else if (hi > s->hi) {
		s->hi = hi;
	}
}

struct model_coverage model_cover(struct model_range *r, size_t n)
{
	struct span sec = { 0, 0, 0 }, line = { 0, 0, 0 };

	if (n == 0)
		return (struct model_coverage){ 0, 0 };
	sort_by_start(r, n);
	/* Both granularities in one pass over the sorted ranges. */
	for (size_t i = 0; i < n; i++) {
		uint64_t first = r[i].start, last = r[i].start + r[i].len - 1;
		if (i == 0) {
			sec = (struct span){ first >> MODEL_SECTOR_SHIFT,
					     last >> MODEL_SECTOR_SHIFT, 0 };
			line = (struct span){ first >> MODEL_LINE_SHIFT,
					      last >> MODEL_LINE_SHIFT, 0 };
			continue;
		}
		span_add(&sec, first >> MODEL_SECTOR_SHIFT, last >> MODEL_SECTOR_SHIFT);
		span_add(&line, first >> MODEL_LINE_SHIFT, last >> MODEL_LINE_SHIFT);
	}
	return (struct model_coverage){ sec.total + sec.hi - sec.lo + 1,
					line.total + line.hi - line.lo + 1 };
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
