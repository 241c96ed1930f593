/*
 * sandbox_wait: the one wait for a run, whoever waits for it (the keeper
 * for a run it started, the spawner for its own, the keeper for a run it
 * had the spawner start), and the one live kill on the tree's CPU
 * (sandbox_int.h, struct sbx_wait).
 */
#include "grader/run/sandbox_int.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static long tv_us(struct timeval tv)
{
	return (long)tv.tv_sec * 1000000 + (long)tv.tv_usec;
}

/* Reaps the ended child into m. Its group first: while the child is a
 * zombie its pid, and so its group, cannot be reused. */
void sbx_reap_run(pid_t pid, struct msg *m)
{
	struct rusage ru;
	int status = 0;

	kill(-pid, SIGKILL);
	memset(&ru, 0, sizeof(ru));
	while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR)
		;
	m->status = status;
	m->utime_us = tv_us(ru.ru_utime);
	m->stime_us = tv_us(ru.ru_stime);
	m->maxrss_kb = ru.ru_maxrss;
}

/* Stops the run: its group, or the spawner's word (once); and every
 * process of the slot's cgroup where it can be killed whole. */
static void stop(struct sbx_wait *w)
{
	if (w->kill_via < 0) {
		kill(-w->pid, SIGKILL);
	} else if (!w->killed) {
		memset(w->fwd, 0, offsetof(struct msg, strings));
		w->fwd->type = M_KILL;
		sbx_send(w->kill_via, w->fwd, NULL, 0);
	}
	w->killed = 1;
	if (w->cg && (w->cg->caps & CG_KILL))
		cg_kill_all(w->cg);
}

static int ended(const struct sbx_wait *w, const struct pollfd *done)
{
	if (w->done >= 0)
		return done->revents != 0;
	return waitid(P_PID, (id_t)w->pid, &(siginfo_t){ 0 },
		      WEXITED | WNOHANG | WNOWAIT) == 0;
}

int sbx_wait_run(struct sbx_wait *w, struct msg *m)
{
	int watch_cpu = w->cg && (w->cg->caps & CG_CPU) && w->cpu_limit_ns > 0;
	int tick = watch_cpu ? CPU_TICK_MS : w->done < 0 ? 10 : -1;

	for (;;) {
		struct pollfd pf[2] = { { w->ctl, POLLIN, 0 }, { w->done, POLLIN, 0 } };
		int n = poll(pf, w->done >= 0 ? 2 : 1, tick), fds[1];

		if (n < 0 && errno != EINTR)
			return -1;
		/* The end first: once the spawner has answered grade, what
		 * waits on ctl is grade's next request, for the main loop. */
		if (ended(w, &pf[1]))
			return 0;
		if (n > 0 && pf[0].revents) {
			if (sbx_recv(w->ctl, m, fds, 1) < 0)
				_exit(0);       /* whoever sent runs is gone */
			if (m->type == M_KILL)
				stop(w);
		}
		if (watch_cpu && !w->tree_killed &&
		    cg_cpu_ns(w->cg) - (int64_t)w->cpu0 > w->cpu_limit_ns) {
			w->tree_killed = 1;
			stop(w);
		}
	}
}
