/*
 * Runner test helper: die of the signal class named by argv[1], the way a
 * real bug would where that is portable: segv (NULL store), abrt (abort),
 * fpe (integer division by zero), bus (touching a mapping past the end of
 * an empty memfd), ill (the trap instruction on x86-64), pipe (writing to a
 * pipe nobody reads: proves SIGPIPE is back to its default), kill, term,
 * usr1, xcpu (raise); stop (SIGSTOP to itself: only the wall deadline
 * ends it).
 * Exits 99 if it survived.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static volatile int zero, one = 1;

static void die_bus(void)
{
	int fd = memfd_create("rn_signal", 0);
	volatile char *p;

	if (fd < 0)
		raise(SIGBUS);
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		raise(SIGBUS);
	p[0] = 1;
}

static void die_pipe(void)
{
	int p[2];

	if (pipe(p) < 0)
		return;
	close(p[0]);
	(void)!write(p[1], "x", 1);
}

int main(int argc, char **argv)
{
	const char *w = argc > 1 ? argv[1] : "";

	if (!strcmp(w, "segv"))
		*(volatile int *)(zero ? &zero : NULL) = 1;
	else if (!strcmp(w, "abrt"))
		abort();
	else if (!strcmp(w, "fpe"))
		printf("%d\n", one / zero);
	else if (!strcmp(w, "bus"))
		die_bus();
	else if (!strcmp(w, "ill"))
#if defined(__x86_64__) || defined(__i386__)
		__builtin_trap();
#else
		raise(SIGILL);
#endif
	else if (!strcmp(w, "pipe"))
		die_pipe();
	else if (!strcmp(w, "kill"))
		raise(SIGKILL);
	else if (!strcmp(w, "term"))
		raise(SIGTERM);
	else if (!strcmp(w, "usr1"))
		raise(SIGUSR1);
	else if (!strcmp(w, "xcpu"))
		raise(SIGXCPU);
	else if (!strcmp(w, "stop"))
		raise(SIGSTOP);
	return 99;
}
