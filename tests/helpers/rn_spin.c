/*
 * Runner test helper: burn CPU for at most argv[1] seconds of wall time
 * (default 10), then exit 0. With "ignxcpu" as argv[2] it ignores SIGXCPU,
 * so only the hard RLIMIT_CPU (SIGKILL) stops it early.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv)
{
	double limit = argc > 1 ? atof(argv[1]) : 10;
	volatile unsigned long x = 0;
	struct timespec t0, t;

	if (limit > 10)
		limit = 10;
	if (argc > 2 && !strcmp(argv[2], "ignxcpu"))
		signal(SIGXCPU, SIG_IGN);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		for (int i = 0; i < 1000000; i++)
			x += (unsigned long)i;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if ((t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 > limit)
			return x == 1;     /* x read once: no compiler drops the loop */
	}
}
