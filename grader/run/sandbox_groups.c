/*
 * sandbox_groups: the slots' cgroups, made by grade itself at its start,
 * in a thread, while it loads the suite and makes its scratch tree; each
 * keeper is then forked with its own (sandbox.h, sandbox_groups_begin).
 *
 * Why ahead: the first cgroup migration after an idle spell waits for an
 * RCU grace period, holding the kernel's cgroup_mutex (cgroup.c, cg_warm):
 * made in the first run's path it cost 7-12 ms on the test machine, and
 * it cannot start before the groups exist, for it would hold up their
 * mkdirs. Here the groups exist about 1 ms after grade starts, and the
 * thread then makes that first migration (a no-op move of grade into its
 * own group), which ends while the keepers build their namespaces and
 * mounts.
 *
 * The thread only makes groups and writes; grade waits for a slot's
 * groups (sandbox_groups_slot) before it forks that slot's keeper, not
 * for the write. A keeper keeps its own slot's descriptors (the flock that tells
 * its groups live is on an open file it shares with grade until
 * sandbox_groups_end closes grade's copies) and closes the others'.
 */
#include "grader/run/sandbox.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <unistd.h>

#include "grader/run/sandbox_int.h"

/* The descriptors grade keeps for itself before it makes groups ahead. */
#define GROUPS_SPARE_FDS 64

static struct {
	pthread_mutex_t lock;
	pthread_cond_t made;
	int begun, done, n;     /* done: the slots whose groups are made */
	pid_t owner;            /* grade, not a fork of it */
	struct cgroup *cg;
} G = { .lock = PTHREAD_MUTEX_INITIALIZER, .made = PTHREAD_COND_INITIALIZER };

/* G.n and G.cg are set before the thread starts, and grade changes them
 * only once every slot's groups are made (sandbox_groups_end): the thread
 * reads its own copies, and touches no group after that. */
static void *make_groups(void *arg)
{
	struct cgroup *cg = arg;
	int n = G.n, fd = -1;

	for (int i = 0; i < n; i++) {
		cg_open(&cg[i], i);
		/* The last slot's are made: the descriptor first, for grade
		 * may close every group's once they are all made. */
		fd = i == n - 1 ? cg_warm_fd(&cg[0]) : -1;
		pthread_mutex_lock(&G.lock);
		G.done = i + 1;
		pthread_cond_broadcast(&G.made);
		pthread_mutex_unlock(&G.lock);
	}
	cg_warm(fd);
	return NULL;
}

/* A grade that ends before its keepers are forked (a bad suite, a
 * failed set-up) removes the groups it made; its forks never do. */
static void at_exit(void)
{
	if (getpid() == G.owner)
		sandbox_groups_end(0);
}

void sandbox_groups_begin(int n)
{
	const char *off = getenv("WG_NO_CGROUP");
	struct rlimit nofile;
	pthread_attr_t a;
	pthread_t t;

	/* grade holds the groups' descriptors (CG_FDS a slot at most) until
	 * its keepers fork, while it loads the suite: under a tight limit on
	 * descriptors (ulimit -n) they could starve its own opens, which
	 * would then fail by chance; there the keepers make their own, as
	 * they did before. */
	if (getrlimit(RLIMIT_NOFILE, &nofile) < 0 ||
	    nofile.rlim_cur < (rlim_t)(GROUPS_SPARE_FDS + n * CG_FDS))
		return;
	if (G.begun || n <= 0 || geteuid() != 0 || (off && *off && strcmp(off, "0")) ||
	    !(G.cg = calloc((size_t)n, sizeof(*G.cg))))
		return;
	G.n = n;
	G.owner = getpid();
	if (atexit(at_exit) != 0 || pthread_attr_init(&a) != 0)
		goto none;
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	G.begun = pthread_create(&t, &a, make_groups, G.cg) == 0;
	pthread_attr_destroy(&a);
	if (G.begun)
		return;
none:
	free(G.cg);
	G.cg = NULL;
}

const struct cgroup *sandbox_groups_slot(int i)
{
	if (!G.begun || i < 0 || i >= G.n)
		return NULL;
	pthread_mutex_lock(&G.lock);
	while (G.done <= i)
		pthread_cond_wait(&G.made, &G.lock);
	pthread_mutex_unlock(&G.lock);
	return &G.cg[i];
}

void sandbox_groups_end(int started)
{
	if (!G.begun || !sandbox_groups_slot(G.n - 1))
		return;
	for (int i = 0; i < G.n; i++) {
		if (i < started)
			cg_forget(&G.cg[i]);
		else
			cg_close(&G.cg[i]);
	}
	free(G.cg);
	G.cg = NULL;
	G.n = 0;
	G.begun = 0;
}
