/*
 * Test helper: burns the CPU seconds read from stdin (default 0.8, at most
 * 5), then allocates and touches 16 MiB blocks, 4 GiB at most: under a
 * memory cgroup the OOM killer's SIGKILL ends it, which must read as MLE,
 * never as the CPU limit's kill. Exits 3 when an allocation fails (an
 * address-space limit), 0 past 4 GiB.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(void)
{
	volatile unsigned long x = 0;
	double burn = 0.8;

	if (scanf("%lf", &burn) != 1 || burn < 0 || burn > 5)
		burn = 0.8;
	while ((double)clock() < CLOCKS_PER_SEC * burn)
		x++;
	for (int i = 0; i < 256; i++) {
		char *volatile p = malloc(16 << 20);

		if (!p)
			return 3;
		memset(p, 1, 16 << 20);
	}
	return 0;
}
