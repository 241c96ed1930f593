/*
 * Runner test helper: a bounded fork bomb. Every process writes 'P' to
 * stdout once, then tries to fork two children down to depth argv[1]
 * (default 10, at most 11: 4095 processes at most), writing 'E' for each
 * fork that failed. No process exits before every process has finished
 * forking (they all wait for EOF on a shared pipe whose write end each one
 * closes after its forks), so the number of 'P's is the peak number of
 * processes. Then each reaps its children and exits 0. alarm(10) in each
 * bounds the whole thing.
 */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static int gate[2];

static void node(int depth)
{
	char c;
	int i;

	alarm(10);
	(void)!write(1, "P", 1);
	for (i = 0; i < 2 && depth > 0; i++) {
		pid_t p = fork();

		if (p == 0) {
			node(depth - 1);
			_exit(0);
		}
		if (p < 0)
			(void)!write(1, "E", 1);
	}
	close(gate[1]);
	while (read(gate[0], &c, 1) > 0)
		;
	while (wait(NULL) > 0)
		;
}

int main(int argc, char **argv)
{
	int depth = argc > 1 ? atoi(argv[1]) : 10;

	if (depth > 11)
		depth = 11;
	if (pipe(gate) < 0)
		return 2;
	node(depth);
	return 0;
}
