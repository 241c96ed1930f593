/*
 * Test helper: a 2 GiB zero-filled static array, every page of which is
 * touched: under a small limit either it cannot be loaded (an address-
 * space limit) or the memory cgroup's OOM killer stops it; both MLE.
 * Touches at most 2 GiB, then exits 0.
 */
#include <stddef.h>

static volatile char big[(size_t)1 << 31];

int main(void)
{
	for (size_t i = 0; i < sizeof(big); i += 4096)
		big[i] = 1;
	return big[4096 * 7] != 1;
}
