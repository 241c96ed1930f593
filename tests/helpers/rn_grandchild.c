/*
 * Runner test helper: fork a grandchild that keeps stdout and stderr open
 * and sleeps 30 s; with "setsid" as argv[1] it first leaves the process
 * group (a new session). The parent prints the grandchild's pid and exits 0
 * at once.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	pid_t p = fork();

	if (p == 0) {
		if (argc > 1 && !strcmp(argv[1], "setsid"))
			setsid();
		sleep(30);
		_exit(0);
	}
	if (p < 0)
		return 2;
	printf("%d\n", (int)p);
	return 0;
}
