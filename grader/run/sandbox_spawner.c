/*
 * sandbox_spawner: the keeper's child that holds the seccomp filter and
 * starts the programs (theory below), and the keeper's side of a run
 * through it (sbx_spawn_via).
 */
#include "grader/run/sandbox_int.h"

#include <errno.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "grader/run/sysfilter.h"

/* Installs the seccomp filter on the calling process (sysfilter.h). */
static int install_filter(void)
{
	const struct sock_fprog *f = sysfilter_program();

	if (!f || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return -1;
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
		    SECCOMP_FILTER_FLAG_SPEC_ALLOW, f) == 0)
		return 0;
	return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, f) == 0 ? 0 : -1;
}

/* ---- the spawner ----
 *
 * A child of the keeper, in the slot's namespaces, that holds the seccomp
 * filter itself: the programs it starts inherit it, compiled once. Made
 * in each child instead, the filter cost ~45 us a run (the kernel compiles
 * it and runs it once per system call number); inherited, nothing. It
 * starts, kills on the keeper's word, waits for and reports each run; the
 * keeper keeps the folders, the cgroup and the clean-up.
 *
 * Where the keeper would add nothing to the report (one process, no
 * tree CPU to read, no SIGKILL that may be the OOM killer's), the spawner
 * answers grade itself on a copy of the keeper's socket, and the keeper
 * cleans up while grade compares: a wake-up and a message fewer on the
 * way to the verdict. */
static void spawner_report(int sock, struct msg *m)
{
	if (sbx_send(sock, m, NULL, 0) < 0)
		_exit(0);
}

static void spawner_run(struct keeper *k, int sock, struct msg *m, int fds[3])
{
	const char *argv[MAX_ARGS + 1], *env[MAX_ARGS + 1];
	struct run_child c = RUN_CHILD_INIT;
	struct run_spawn_extra x = { m->join, m->njoin, 0, &k->ignored, NULL, 1,
				     k->pinned ? &k->all_cpus : NULL };
	struct sbx_wait w = { .ctl = sock, .done = -1, .kill_via = -1 };
	int rc, direct = m->direct;

	/* The last run's orphans, killed by the keeper's clean-up after the
	 * spawner reported it, are its zombies now: reaped before the next
	 * program starts, for each one still counts against the slot uid's
	 * process limit (RLIMIT_NPROC) until it is. */
	sbx_reap_ended();
	rc = sbx_unpack_run(m, &c, argv, env) < 0 ? -1 : run_spawn_local(&c, fds, &x);
	for (int i = 0; i < 3; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	memset(m, 0, offsetof(struct msg, strings));
	m->type = M_DONE;
	if (rc < 0) {
		snprintf(m->text, sizeof(m->text), "%s",
			 c.res.error[0] ? c.res.error : "bad request to the spawner");
		spawner_report(sock, m);
		return;
	}
#ifdef SYS_pidfd_open
	w.done = (int)syscall(SYS_pidfd_open, c.pid, 0);
#endif
	w.pid = c.pid;
	sbx_wait_run(&w, m);
	if (w.done >= 0)
		close(w.done);
	memset(m, 0, offsetof(struct msg, strings));
	sbx_reap_run(c.pid, m);
	sbx_reap_ended();
	m->type = M_DONE;
	m->ok = 1;
	m->pid = c.pid;
	m->stage_err = c.res.exec_errno;
	m->tree_cpu_ms = -1;
	/* A SIGKILL may be the OOM killer's, which only the keeper can tell.
	 * Otherwise the keeper hears first, so that it never takes grade's
	 * next request for part of this run (sbx_spawn_via). */
	if (direct && !(WIFSIGNALED(m->status) && WTERMSIG(m->status) == SIGKILL)) {
		m->answered = 1;
		spawner_report(sock, m);
		m->answered = 0;
		spawner_report(k->sock, m);
		return;
	}
	spawner_report(sock, m);
}

static __attribute__((noreturn)) void spawner_main(struct keeper *k, int sock)
{
	struct msg *m = malloc(sizeof(*m));
	char ok = 1;

	prctl(PR_SET_NAME, "grade-spawner", 0, 0, 0);
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	if (!m || install_filter() < 0)
		ok = 0;
	if (write(sock, &ok, 1) != 1 || !ok)
		_exit(1);
	for (;;) {
		int fds[3];

		if (sbx_recv(sock, m, fds, 3) < 0)
			_exit(0);
		if (m->type == M_RUN)
			spawner_run(k, sock, m, fds);
		else
			for (int i = 0; i < 3; i++)
				if (fds[i] >= 0)
					close(fds[i]);
	}
}

/* After every other layer (the spawner is born in them all). Where it
 * cannot be started, or the programs would share its uid, each run
 * installs the filter itself. */
void sbx_start_spawner(struct keeper *k)
{
	int sv[2];
	char ok = 0;
	pid_t pid;

	/* Only where the programs run under a uid of their own: one that
	 * shared the spawner's could stop it, and so the run. */
	if (!k->L.seccomp || !k->L.uid_switch ||
	    (!k->fwd && !(k->fwd = malloc(sizeof(*k->fwd)))) ||
	    socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return;
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		close(sv[0]);
		/* k->sock stays: the spawner answers grade itself where the
		 * keeper has nothing to add (sbx_spawn_via). It only writes there. */
		/* Only the keeper may keep the PID namespaces' inits alive,
		 * or make one. */
		if (k->life >= 0)
			close(k->life);
		if (k->holder_life >= 0)
			close(k->holder_life);
		if (k->holder_ns >= 0)
			close(k->holder_ns);
		spawner_main(k, sv[1]);
	}
	close(sv[1]);
	if (pid < 0 || read(sv[0], &ok, 1) != 1 || !ok) {
		close(sv[0]);
		if (pid > 0)
			waitpid(pid, NULL, 0);
		return;
	}
	k->spawner = sv[0];
	k->spawner_pid = pid;
	k->spawner_wanted = 1;
}

/* Also after "the spawner died" (its socket closed, its zombie left): it
 * must be reaped before the PID namespace's init can finish exiting, for
 * that waits for every process of the namespace to be gone. */
void sbx_stop_spawner(struct keeper *k)
{
	if (k->spawner >= 0)
		close(k->spawner);
	k->spawner = -1;
	if (k->spawner_pid > 0) {
		kill(k->spawner_pid, SIGKILL);
		while (waitpid(k->spawner_pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	k->spawner_pid = 0;
}

/* A run through the spawner: the request goes on with the pipes; KILL
 * from grade and the tree's CPU limit are relayed; its report is the
 * run's end (m->answered: grade has it already). 0, or -1 with
 * c->res.error. */
int sbx_spawn_via(struct keeper *k, struct run_child *c, int fds[4],
		     const int *join, int njoin, uint64_t cpu0, struct msg *m,
		     int direct)
{
	struct sbx_wait w = { .ctl = k->sock, .done = k->spawner, .pid = -1,
			      .kill_via = k->spawner, .fwd = k->fwd, .cg = &k->cg,
			      .cpu0 = cpu0 };
	struct msg *f = k->fwd;
	int rc, fd1[1];

	if (k->processes != 1 && c->lim.cpu_sec > 0)
		w.cpu_limit_ns = (int64_t)(c->lim.cpu_sec * 1e9);
	if (sbx_pack_run(f, c) < 0) {
		snprintf(c->res.error, sizeof(c->res.error), "too many arguments");
		return -1;
	}
	f->bind_dir = c->bind_dir;
	f->njoin = njoin;
	f->direct = direct;
	memcpy(f->join, join, sizeof(int) * (size_t)njoin);
	rc = sbx_send(k->spawner, f, fds, 3);
	for (int i = 0; i < 4; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	if (rc < 0) {
		snprintf(c->res.error, sizeof(c->res.error), "cannot reach the spawner: %s",
			 strerror(errno));
		return -1;
	}
	while (sbx_wait_run(&w, m) < 0)
		;       /* the spawner's word is what ends a run here */
	if (sbx_recv(k->spawner, m, fd1, 1) < 0 || m->type != M_DONE) {
		snprintf(c->res.error, sizeof(c->res.error), "the spawner died");
		close(k->spawner);
		k->spawner = -1;
		return -1;
	}
	if (!m->ok) {
		snprintf(c->res.error, sizeof(c->res.error), "%s", m->text);
		return -1;
	}
	m->tree_cpu_killed = w.tree_killed;
	c->pid = m->pid;
	c->res.exec_errno = m->stage_err;
	return 0;
}
