/*
 * Runner test helper: a tree that uses CPU in several processes, each
 * under its own RLIMIT_CPU. Forks argv[1] workers (default 4, at most 8),
 * each burning argv[2] seconds of its own CPU (default 0.9, at most 0.95:
 * under a 1 s per-process limit), never more than 10 s of wall time; waits
 * for them and prints "done N". Only a count of the whole tree's CPU,
 * live, stops it before "done".
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double seconds(clockid_t clk)
{
	struct timespec t;

	clock_gettime(clk, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void burn(double cpu)
{
	double wall0 = seconds(CLOCK_MONOTONIC);
	volatile unsigned long x = 0;

	while (seconds(CLOCK_PROCESS_CPUTIME_ID) < cpu &&
	       seconds(CLOCK_MONOTONIC) - wall0 < 10)
		for (int i = 0; i < 100000; i++)
			x += (unsigned long)i;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4, done = 0;
	double cpu = argc > 2 ? atof(argv[2]) : 0.9;

	n = n < 1 ? 1 : n > 8 ? 8 : n;
	cpu = cpu > 0.95 ? 0.95 : cpu;
	for (int i = 0; i < n; i++) {
		pid_t p = fork();

		if (p == 0) {
			burn(cpu);
			_exit(0);
		}
		if (p < 0)
			return 2;
	}
	while (wait(NULL) > 0)
		done++;
	printf("done %d\n", done);
	return 0;
}
