/*
 * Test helper (limits as judges mean them): reads "N SECONDS" from stdin
 * (else argv[1] and argv[2]), starts N threads (default 2, at most 16),
 * each burning SECONDS of its own CPU (default 0.2, at most 3; and never
 * more than 10 s of wall time), joins them and
 * prints "threads N cpus C": C is how many CPUs it may run on. A
 * pthread_create that fails prints why and exits 1 (a program that
 * ignored it would do none of its work and still pass).
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double burn;

static double seconds(clockid_t clk)
{
	struct timespec t;

	clock_gettime(clk, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void *spin(void *arg)
{
	double cpu0 = seconds(CLOCK_THREAD_CPUTIME_ID), wall0 = seconds(CLOCK_MONOTONIC);
	volatile unsigned long x = 0;

	while (seconds(CLOCK_THREAD_CPUTIME_ID) - cpu0 < burn &&
	       seconds(CLOCK_MONOTONIC) - wall0 < 10)
		for (int i = 0; i < 100000; i++)
			x += (unsigned long)i;
	return arg;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2;
	pthread_t t[16];
	cpu_set_t set;

	burn = argc > 2 ? atof(argv[2]) : 0.2;
	if (scanf("%d %lf", &n, &burn) != 2 && argc < 2)
		n = 2, burn = 0.2;
	if (n < 1 || n > 16)
		n = 2;
	if (burn < 0 || burn > 3)
		burn = 3;
	for (int i = 0; i < n; i++) {
		int e = pthread_create(&t[i], NULL, spin, NULL);
		if (e) {
			printf("pthread_create: %s\n", strerror(e));
			return 1;
		}
	}
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return 1;
	printf("threads %d cpus %d\n", n, CPU_COUNT(&set));
	return 0;
}
