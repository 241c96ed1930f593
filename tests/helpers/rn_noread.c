/* Runner test helper: never read stdin; print "bye", sleep argv[1] ms
 * (default 50, at most 5000), exit 0. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
	long ms = argc > 1 ? atol(argv[1]) : 50;
	struct timespec ts;

	if (ms > 5000)
		ms = 5000;
	printf("bye\n");
	fflush(stdout);
	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (ms % 1000) * 1000000L;
	nanosleep(&ts, NULL);
	return 0;
}
