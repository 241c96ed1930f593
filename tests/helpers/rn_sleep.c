/*
 * Runner test helper: sleep argv[1] ms (at most 30 s), then exit 0. With
 * "ignterm" as argv[2] it first ignores SIGTERM and sends one to itself
 * (printing "survived"), so only SIGKILL can stop it.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv)
{
	long ms = argc > 1 ? atol(argv[1]) : 1000;
	struct timespec ts;

	if (ms > 30000)
		ms = 30000;
	if (argc > 2 && !strcmp(argv[2], "ignterm")) {
		signal(SIGTERM, SIG_IGN);
		raise(SIGTERM);
		printf("survived\n");
		fflush(stdout);
	}
	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (ms % 1000) * 1000000L;
	while (nanosleep(&ts, &ts) != 0)
		;
	return 0;
}
