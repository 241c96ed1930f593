/*
 * Runner test helper: fork a grandchild that keeps stdout and stderr open
 * and sleeps 30 s; with "setsid" as argv[1] it first leaves the process
 * group (a new session). The parent waits until the grandchild is where it
 * will stay (after its setsid: else the cleanup's kill of the group could
 * still reach it, and a test of the escapee would depend on that race),
 * prints the grandchild's pid and exits 0.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int sync[2];
	char c;
	pid_t p;

	if (pipe(sync) < 0)
		return 2;
	p = fork();
	if (p == 0) {
		close(sync[0]);
		if (argc > 1 && !strcmp(argv[1], "setsid"))
			setsid();
		close(sync[1]);       /* settled: the parent's read ends */
		sleep(30);
		_exit(0);
	}
	if (p < 0)
		return 2;
	close(sync[1]);
	while (read(sync[0], &c, 1) > 0)
		;
	printf("%d\n", (int)p);
	return 0;
}
