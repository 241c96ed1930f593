/*
 * pool: a fixed set of worker threads pulling job indices (see pool.h).
 */
#include "grader/run/pool.h"

#include <pthread.h>
#include <stdlib.h>

struct pool {
	pthread_mutex_t lock;
	size_t next, njobs;
	pool_fn *fn;
	void *ctx;
};

struct worker {
	struct pool *p;
	int slot;
	pthread_t tid;
};

static int take(struct pool *p, size_t *job)
{
	int ok;

	pthread_mutex_lock(&p->lock);
	ok = p->next < p->njobs;
	if (ok)
		*job = p->next++;
	pthread_mutex_unlock(&p->lock);
	return ok;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	size_t job;

	while (take(w->p, &job))
		w->p->fn(w->p->ctx, job, w->slot);
	return NULL;
}

void pool_run(size_t njobs, int nslots, pool_fn *fn, void *ctx)
{
	struct pool p = { .next = 0, .njobs = njobs, .fn = fn, .ctx = ctx };
	struct worker *w;
	int started = 0;

	if (nslots <= 1 || njobs <= 1) {
		for (size_t i = 0; i < njobs; i++)
			fn(ctx, i, 0);
		return;
	}
	pthread_mutex_init(&p.lock, NULL);
	w = calloc((size_t)nslots, sizeof(*w));
	nslots = w ? nslots : 0;
	for (int i = 0; i < nslots; i++) {
		w[i].p = &p;
		w[i].slot = i;
		if (pthread_create(&w[i].tid, NULL, work, &w[i]) != 0)
			break;
		started++;
	}
	if (started == 0) {
		/* No thread at all: do the work here rather than not at all. */
		work(&(struct worker){ .p = &p, .slot = 0 });
	}
	for (int i = 0; i < started; i++)
		pthread_join(w[i].tid, NULL);
	free(w);
	pthread_mutex_destroy(&p.lock);
}
