#ifndef WG_POOL_H
#define WG_POOL_H

/*
 * pool: run jobs 0..njobs-1 on nslots worker threads.
 *
 * Each worker owns one slot number for its whole life, so a job knows which
 * scratch directory and which uid are its own: no two jobs of the same slot
 * ever run at once. Jobs are handed out in index order. With one slot the
 * jobs run in the calling thread. Forking from these threads is safe because
 * the runner's child only makes async-signal-safe calls before exec.
 *
 * Errors: cannot fail (threads that cannot be started only cost
 * parallelism).
 */

#include <stddef.h>

typedef void pool_fn(void *ctx, size_t job, int slot);

/* Returns when every job has run. When fewer threads than asked for can be
 * started, the ones that did start do all the work (with none, the calling
 * thread does). */
void pool_run(size_t njobs, int nslots, pool_fn *fn, void *ctx);

#endif
