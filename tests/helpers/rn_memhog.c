/*
 * Runner test helper: allocate and touch 16 MiB blocks, up to argv[1] MiB
 * (default and at most 1024). Prints "got N MiB"; exits 3 when an
 * allocation failed (the address-space limit), 0 when it got everything.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	int want = argc > 1 ? atoi(argv[1]) : 1024, got = 0;

	if (want > 1024)
		want = 1024;
	while (got < want) {
		/* volatile: a compiler may not drop the allocation (clang
		 * removes a malloc whose memory is never read). */
		char *volatile p = malloc(16 << 20);

		if (!p) {
			printf("got %d MiB\n", got);
			return 3;
		}
		memset(p, 1, 16 << 20);
		got += 16;
	}
	printf("got %d MiB\n", got);
	return 0;
}
