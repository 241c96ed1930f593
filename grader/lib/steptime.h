#ifndef WG_STEPTIME_H
#define WG_STEPTIME_H
/*
 * steptime: a step-by-step account of where a grade process spends its
 * time, for `make bench-grade` (issue 22: the set-up of a grade process,
 * measured a step at a time).
 *
 * Off unless the environment has WG_STEP_TIMES set (not empty, not "0"):
 * then every steptime_mark() writes one line to standard error,
 *     "wg-step: SECONDS.NANOSECONDS PID WHO STEP\n"
 * with CLOCK_MONOTONIC's time, in one write(2) (whole even when several
 * processes write at once: under PIPE_BUF). WHO is the process's role
 * ("grade", "keeper", ...) and STEP the point just reached; the time
 * between two marks in time order is the cost of the later step.
 * tests/bench/setup-steps.awk turns the lines into the account.
 * Off, a mark costs one branch: the environment is read once per process
 * (steptime_init, before any fork, so every child inherits the answer).
 */

/* Reads WG_STEP_TIMES once; every later mark of this process and of its
 * forked children follows that answer. */
void steptime_init(void);

/* Whether marks are written. */
int steptime_on(void);

/* Writes the mark STEP of role WHO, if on and WHO is not NULL (a caller
 * marks only some of its passes that way). Async-signal-safe and
 * allocation-free: callable in a vforked or freshly forked child. */
void steptime_mark(const char *who, const char *step);

#endif
