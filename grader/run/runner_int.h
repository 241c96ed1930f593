#ifndef WG_RUNNER_INT_H
#define WG_RUNNER_INT_H
/*
 * runner_int: what the runner's two files share, private to them.
 *   runner.c       starting a run (its pipes, then spawn.c or the slot's
 *                  keeper), finishing it (kill, reap, classify);
 *   runner_pump.c  the pump: feeding stdin, capturing stdout and the tail
 *                  of stderr (strbuf), the poll loop against the wall
 *                  deadline and the output caps, and the final drain.
 * Errors: as in runner.h, -1 with c->res.error set (spawn_fail); the
 * pipe helpers: -1 and errno.
 */
#include "grader/run/runner.h"

#include <stdint.h>

#define CHUNK 65536
#define READS_PER_TURN 16       /* then look at the clock again */

struct pump {
	size_t out_cap, err_cap;
	int killed;             /* we sent the SIGKILL (deadline or cap) */
	int exited;
};

/* CLOCK_MONOTONIC in nanoseconds. */
int64_t runner_now_ns(void);
/* Closes every pipe of c still open. */
void runner_close_all(struct run_child *c);
/* The stdout cap of l (its default when 0). */
uint64_t runner_out_cap(const struct run_limits *l);

/* Pumps until the child exits, the wall deadline, or an output cap: 0, or
 * -1 (harness failure, c->res.error set). */
int runner_pump_loop(struct run_child *c, struct pump *pm);
/* After the reap: reads what is left in the pipes for at most
 * RUN_DRAIN_MS. 0, or -1 with errno. */
int runner_drain(struct run_child *c, struct pump *pm);

#endif
