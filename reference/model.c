#include "reference/model.h"

/* Index intervals [lo, hi], inclusive so a range ending at the top fits. */
struct span {
	uint64_t lo, hi;
};

uint64_t model_count_granules(struct model_range *r, size_t n,
			      uint64_t granule)
{
	struct span s[MODEL_WARP];
	uint64_t total = 0;

	for (size_t i = 0; i < n; i++) {
		struct span x = { r[i].start / granule,
				  (r[i].start + r[i].len - 1) / granule };
		size_t j = i;
		while (j > 0 && s[j - 1].lo > x.lo) {
			s[j] = s[j - 1];
			j--;
		}
		s[j] = x;
	}
	for (size_t i = 0; i < n;) {
		uint64_t lo = s[i].lo, hi = s[i].hi;
		for (i++; i < n && s[i].lo <= hi; i++)
			if (s[i].hi > hi)
				hi = s[i].hi;
		total += hi - lo + 1;
	}
	return total;
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
	unsigned count[MODEL_BANKS] = { 0 };
	struct model_banks b = { 0, 0 };

	for (size_t i = 0; i < n; i++) {
		size_t j = 0;
		while (j < i && words[j] != words[i])
			j++;
		if (j == i)
			count[words[i] % MODEL_BANKS]++;
	}
	for (unsigned k = 0; k < MODEL_BANKS; k++)
		if (count[k] > b.passes) {
			b.passes = count[k];
			b.bank = k;
		}
	return b;
}
