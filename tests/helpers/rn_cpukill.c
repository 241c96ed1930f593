/*
 * Runner test helper: burn argv[1] seconds of its own CPU (default 0.5, at
 * most 3; never more than 10 s of wall time), then SIGKILL itself: what
 * the kernel's kill at the hard RLIMIT_CPU looks like from outside. It
 * ignores SIGXCPU, as a program that the hard limit kills does: the soft
 * limit's clock (tick-sampled) may run ahead of the one it burns by on a
 * loaded machine, and its SIGXCPU would end the burn early.
 */
#include <signal.h>
#include <stdlib.h>
#include <time.h>

static double seconds(clockid_t clk)
{
	struct timespec t;

	clock_gettime(clk, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double cpu = argc > 1 ? atof(argv[1]) : 0.5, wall0;
	volatile unsigned long x = 0;

	signal(SIGXCPU, SIG_IGN);
	cpu = cpu > 3 ? 3 : cpu;
	wall0 = seconds(CLOCK_MONOTONIC);
	while (seconds(CLOCK_PROCESS_CPUTIME_ID) < cpu &&
	       seconds(CLOCK_MONOTONIC) - wall0 < 10)
		for (int i = 0; i < 100000; i++)
			x += (unsigned long)i;
	raise(SIGKILL);
	return x == 1;
}
