/*
 * bench_spawn: the bare spawn floor for `make bench-grade`. For each input
 * file, ROUNDS times: fork (or vfork, with -v, as the grader does), exec
 * PROGRAM with the file as stdin and a pipe as stdout, read the pipe to
 * EOF, wait. No limits, no comparison. Prints the number of runs and the
 * total wall time in nanoseconds. A run that does not exit 0 stops it,
 * but with -a (any status: what starting a program costs, whatever it
 * says; its stderr is the caller's).
 *
 *   bench_spawn [-v] [-a] ROUNDS PROGRAM INPUT...
 *
 * Not hostile: it runs each program once per input and round, then stops.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int use_vfork, any_status;

static int spawn(const char *prog, const char *input)
{
	char buf[65536];
	char *const argv[] = { (char *)prog, NULL };
	int p[2], st;
	pid_t pid;

	if (pipe(p) < 0)
		return -1;
	pid = use_vfork ? vfork() : fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int in = open(input, O_RDONLY);
		if (in < 0 || dup2(in, 0) < 0 || dup2(p[1], 1) < 0)
			_exit(126);
		close(p[0]);
		execv(prog, argv);
		_exit(127);
	}
	close(p[1]);
	while (read(p[0], buf, sizeof(buf)) > 0)
		;
	close(p[0]);
	while (waitpid(pid, &st, 0) < 0)
		;
	return any_status || (WIFEXITED(st) && WEXITSTATUS(st) == 0) ? 0 : -1;
}

int main(int argc, char **argv)
{
	while (argc > 1 && (!strcmp(argv[1], "-v") || !strcmp(argv[1], "-a"))) {
		use_vfork |= argv[1][1] == 'v';
		any_status |= argv[1][1] == 'a';
		argv++;
		argc--;
	}
	if (argc < 4) {
		fprintf(stderr, "usage: bench_spawn [-v] [-a] ROUNDS PROGRAM INPUT...\n");
		return 2;
	}
	int rounds = atoi(argv[1]);
	long runs = 0;
	long long t0 = now_ns();

	for (int r = 0; r < rounds; r++)
		for (int i = 3; i < argc; i++, runs++)
			if (spawn(argv[2], argv[i]) < 0) {
				fprintf(stderr, "bench_spawn: '%s' < '%s' failed\n",
					argv[2], argv[i]);
				return 1;
			}
	printf("%ld %lld\n", runs, now_ns() - t0);
	return 0;
}
