/*
 * spawn_child: see spawn_child.h. Between vfork and exec the child may
 * write nothing but its own stack frames and call nothing but system calls.
 */
#include "grader/run/spawn_child.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *const stage_names[ST_COUNT] = {
	[ST_SETSID] = "setsid", [ST_SIGACTION] = "sigaction",
	[ST_DUP2] = "dup2", [ST_CLOSE] = "close fds",
	[ST_RLIMIT] = "setrlimit", [ST_SETGROUPS] = "setgroups",
	[ST_SETGID] = "setgid", [ST_SETUID] = "setuid",
	[ST_VERIFY] = "verify credentials", [ST_PRCTL] = "prctl",
	[ST_CHDIR] = "chdir", [ST_SIGMASK] = "sigprocmask",
	[ST_CGROUP] = "cgroup",
	[ST_IPC] = "ipc namespace", [ST_SECCOMP] = "seccomp",
	[ST_EXEC] = "exec",
};

const char *spawn_stage_name(int stage)
{
	return stage >= 0 && stage < ST_COUNT ? stage_names[stage] : "setup";
}

/* ---- the child, between fork and exec: async-signal-safe calls only ---- */

static __attribute__((noreturn)) void child_die(const struct child_plan *p,
						int stage)
{
	struct status_rec rec = { stage, errno };
	ssize_t n;

	do
		n = write(p->status_fd, &rec, sizeof(rec));
	while (n < 0 && errno == EINTR);
	_exit(127);
}

static void child_close_fds(const struct child_plan *p)
{
	unsigned st = (unsigned)p->status_fd;
	int fd;

#ifdef SYS_close_range
	if ((st == 3 || syscall(SYS_close_range, 3u, st - 1, 0u) == 0) &&
	    syscall(SYS_close_range, st + 1, ~0u, 0u) == 0)
		return;
	if (errno != ENOSYS)
		child_die(p, ST_CLOSE);
#endif
	for (fd = 3; fd <= p->max_fd; fd++)
		if (fd != p->status_fd)
			close(fd);
}

/* Every disposition back to the default. A caught signal is reset by
 * execve anyway; an ignored one is not. With p->reset (the keeper, whose
 * dispositions never change, names its ignored ones once) only those. */
static void child_signals(const struct child_plan *p)
{
	struct sigaction sa;
	int sig;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	for (sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP &&
		    (!p->reset || sigismember(p->reset, sig) == 1) &&
		    sigaction(sig, &sa, NULL) < 0 && errno != EINVAL)
			child_die(p, ST_SIGACTION);
}

/* Raw system calls: glibc's setuid() would try to broadcast the change to
 * threads that do not exist in this forked child. */
static void child_credentials(const struct child_plan *p)
{
	uid_t r, e, s;
	gid_t gr, ge, gs;

	if (syscall(SYS_setgroups, 0, NULL) < 0)
		child_die(p, ST_SETGROUPS);
	if (syscall(SYS_setresgid, p->gid, p->gid, p->gid) < 0)
		child_die(p, ST_SETGID);
	if (syscall(SYS_setresuid, p->uid, p->uid, p->uid) < 0)
		child_die(p, ST_SETUID);
	if (getresuid(&r, &e, &s) < 0 || getresgid(&gr, &ge, &gs) < 0)
		child_die(p, ST_VERIFY);
	if (r != p->uid || e != p->uid || s != p->uid || gr != p->gid ||
	    ge != p->gid || gs != p->gid || getgroups(0, NULL) != 0) {
		errno = EPERM;
		child_die(p, ST_VERIFY);
	}
}

void spawn_child_exec(const struct child_plan *p)
{
	int i;

	/* A group of its own (kill(-pid) reaches all it makes), in a session
	 * without the caller's terminal. Where the sandbox's keeper already
	 * made such a session (sbx_keeper_main), the group alone: a session
	 * per run is also a scheduler group per run where the kernel groups
	 * by session (autogroup), ~1% of a run's CPU here. */
	if (p->session ? setsid() < 0 : setpgid(0, 0) < 0)
		child_die(p, ST_SETSID);
	child_signals(p);
	/* Into the slot's cgroups while still privileged: every process it
	 * makes is then counted, limited and killed with it. */
	for (i = 0; i < p->n_cg; i++)
		if (write(p->cg_fds[i], "0", 1) != 1)
			child_die(p, ST_CGROUP);
	if (p->unshare_ipc && unshare(CLONE_NEWIPC) < 0)
		child_die(p, ST_IPC);
	/* Off the keeper's one CPU: a program's threads get every CPU the
	 * grader may use, whatever -j (sandbox.h, "cpu"). Where a cpuset
	 * refuses, the keeper's CPU stays: as before this existed. */
	if (p->affinity)
		sched_setaffinity(0, sizeof(*p->affinity), p->affinity);
	for (i = 0; i < 3; i++)
		if (dup2(p->fds[i], i) < 0)
			child_die(p, ST_DUP2);
	child_close_fds(p);
	for (i = 0; i < p->n_rl; i++)
		if (setrlimit(p->rl_res[i], &p->rl[i]) < 0)
			child_die(p, ST_RLIMIT);
	if (p->switch_uid)
		child_credentials(p);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
		child_die(p, ST_PRCTL);
	/* SPEC_ALLOW: no speculative-store-bypass mitigation forced on the
	 * program (it guards a process from itself; it slowed the reference
	 * by ~15% here). Kernels without the flag get the plain call. */
	if (p->filter &&
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_SPEC_ALLOW,
		    p->filter) < 0 &&
	    (errno != EINVAL ||
	     syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, p->filter) < 0))
		child_die(p, ST_SECCOMP);
	/* The grader is already gone (0: our parent is outside our PID
	 * namespace, the sandbox's keeper). */
	if (getppid() != p->parent && getppid() != 0)
		_exit(127);
	if (p->dir && chdir(p->dir) < 0)
		child_die(p, ST_CHDIR);
	if (sigprocmask(SIG_SETMASK, &p->empty, NULL) < 0)
		child_die(p, ST_SIGMASK);
	execve(p->path, p->argv, p->envp);
	child_die(p, ST_EXEC);
}

