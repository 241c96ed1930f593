/*
 * spawn: one process started under a run's limits (spawn.h); the bottom
 * of grader/run. The theory of vfork and the status pipe is runner.c's.
 */
#include "grader/run/spawn.h"
#include "grader/run/spawn_child.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static uid_t slot_base = RUN_SLOT_UID_BASE;
static pthread_once_t probe_once = PTHREAD_ONCE_INIT;
static int can_raise;            /* hard rlimits may be raised */

uid_t run_slot_uid(int slot)
{
	return slot_base + (uid_t)slot;
}

void run_set_slot_uid_base(uid_t base)
{
	slot_base = base;
}

int spawn_fail(struct run_child *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->res.error, sizeof(c->res.error), fmt, ap);
	va_end(ap);
	return -1;
}

void spawn_close_fd(int *fd)
{
	if (*fd >= 0) {
		close(*fd);
		*fd = -1;
	}
}

/* Move a new descriptor above 2, so that the child's dup2 onto 0..2 never
 * finds a source already sitting on a target (which would keep its
 * close-on-exec flag, or be overwritten by an earlier dup2). */
int spawn_lift_fd(int fd)
{
	int hi;

	if (fd > 2)
		return fd;
	hi = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	close(fd);
	return hi;
}

int spawn_pipe(int p[2])
{
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	p[0] = spawn_lift_fd(p[0]);
	p[1] = spawn_lift_fd(p[1]);
	if (p[0] < 0 || p[1] < 0) {
		int e = errno;

		spawn_close_fd(&p[0]);
		spawn_close_fd(&p[1]);
		errno = e;
		return -1;
	}
	return 0;
}

/* Whole seconds of RLIMIT_CPU for a limit in seconds (no libm needed). */
rlim_t spawn_cpu_soft(double sec)
{
	rlim_t s = (rlim_t)(sec > SPAWN_MAX_SEC ? SPAWN_MAX_SEC : sec);

	return (double)s < sec ? s + 1 : s;
}

/* CAP_SYS_RESOURCE in the effective set: hard limits may be raised. */
/* This process's own limits, read once: nothing in the grader sets its
 * own (only children's, between vfork and exec), and a fork inherits
 * them with this copy. getrlimit nine times a run was ~3 us of it. */
static struct rlimit own_limits[RLIM_NLIMITS];
static int own_known[RLIM_NLIMITS];

static void probe(void)
{
	struct { uint32_t version; int pid; } hdr = { 0x20080522, 0 };
	struct { uint32_t eff, prm, inh; } data[2];

	can_raise = syscall(SYS_capget, &hdr, data) == 0 &&
		    ((data[0].eff >> 24) & 1);    /* CAP_SYS_RESOURCE = 24 */
	for (int r = 0; r < RLIM_NLIMITS; r++)
		own_known[r] = getrlimit(r, &own_limits[r]) == 0;
}

static const struct rlimit *own_limit(int res)
{
	run_probe_privileges();
	return res >= 0 && res < RLIM_NLIMITS && own_known[res] ? &own_limits[res] : NULL;
}

void run_probe_privileges(void)
{
	pthread_once(&probe_once, probe);
}

/* Never above the grader's own hard limit unless it may raise it (root
 * with CAP_SYS_RESOURCE): raising would fail, and a lower limit is only
 * stricter (grade warns when the suite's limits are cut that way). */
static void plan_rlimit(struct child_plan *p, int res, rlim_t soft, rlim_t hard)
{
	const struct rlimit *cur = own_limit(res);

	if (!can_raise && cur && cur->rlim_max != RLIM_INFINITY) {
		if (hard > cur->rlim_max)
			hard = cur->rlim_max;
		if (soft > hard)
			soft = hard;
	}
	p->rl_res[p->n_rl] = res;
	p->rl[p->n_rl].rlim_cur = soft;
	p->rl[p->n_rl].rlim_max = hard;
	p->n_rl++;
}

static void plan_limits(struct child_plan *p, const struct run_limits *l)
{
	const struct rlimit *nofile;

	if (l->cpu_sec > 0) {
		rlim_t s = spawn_cpu_soft(l->cpu_sec);

		plan_rlimit(p, RLIMIT_CPU, s, s + 1);
	}
	if (l->as_bytes || l->mem_bytes) {
		uint64_t as = l->as_bytes ? l->as_bytes : l->mem_bytes;

		plan_rlimit(p, RLIMIT_AS, as, as);
	}
	if (l->fsize_bytes)
		plan_rlimit(p, RLIMIT_FSIZE, l->fsize_bytes, l->fsize_bytes);
	if (l->stack_bytes)
		plan_rlimit(p, RLIMIT_STACK, l->stack_bytes, l->stack_bytes);
	plan_rlimit(p, RLIMIT_CORE, 0, 0);
	/* No POSIX message queue can be made (their bytes count against this
	 * limit): nothing of the kind outlives a run, and the sandbox need
	 * not look for any. */
	plan_rlimit(p, RLIMIT_MSGQUEUE, 0, 0);
	plan_rlimit(p, RLIMIT_NOFILE, l->nofile > 0 ? l->nofile : RUN_DEFAULT_NOFILE,
		    l->nofile > 0 ? l->nofile : RUN_DEFAULT_NOFILE);
	if (l->nproc > 0)
		plan_rlimit(p, RLIMIT_NPROC, l->nproc, l->nproc);
	p->max_fd = 65535;
	nofile = own_limit(RLIMIT_NOFILE);
	if (nofile && nofile->rlim_cur != RLIM_INFINITY && nofile->rlim_cur < 1u << 20)
		p->max_fd = (int)nofile->rlim_cur - 1;
}

/* Only a root harness switches, never to root nor to its own uid. */
gid_t spawn_gid(const struct run_child *c)
{
	return c->gid == (gid_t)-1 ? (gid_t)c->uid : c->gid;
}

int spawn_switches_uid(const struct run_child *c)
{
	return c->uid != (uid_t)-1 && c->uid != 0 && geteuid() == 0 &&
	       c->uid != getuid();
}

int spawn_reap(struct run_child *c, int *status, struct rusage *ru)
{
	pid_t r;

	do
		r = wait4(c->pid, status, 0, ru);
	while (r < 0 && errno == EINTR);
	c->reaped = 1;
	return r == c->pid ? 0 : -1;
}

static int build_env(const struct run_child *c, char *home, size_t home_sz,
		     const char **envp)
{
	int n = snprintf(home, home_sz, "HOME=%s", c->dir ? c->dir : "/");

	if (n < 0 || (size_t)n >= home_sz)
		return -1;
	envp[0] = "PATH=/usr/bin:/bin";
	envp[1] = "LANG=C";
	envp[2] = home;
	envp[3] = NULL;
	return 0;
}

/* The child enters c->dir before exec: a relative program path is made
 * absolute against the grader's own cwd first. */
static int exec_path(const struct run_child *c, char *buf, size_t sz,
		     const char **path)
{
	int n;

	*path = c->argv[0];
	if (!c->dir || c->argv[0][0] == '/')
		return 0;
	if (!getcwd(buf, sz))
		return -1;
	n = snprintf(buf + strlen(buf), sz - strlen(buf), "/%s", c->argv[0]);
	if (n < 0 || (size_t)n >= sz - strlen(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	*path = buf;
	return 0;
}

static void status_failed(struct run_child *c, const struct status_rec *rec)
{
	c->res.exec_errno = rec->err ? rec->err : EIO;
	c->res.exec_stage = rec->stage >= 0 && rec->stage < ST_COUNT ?
			    spawn_stage_name(rec->stage) : "setup";
}

/* Read the child's verdict on its own setup: 0 exec ok or failed (a
 * result), -1 a setup step failed (the harness's fault). */
static int read_status(struct run_child *c)
{
	struct status_rec rec;
	ssize_t n;

	do
		n = read(c->fd_status, &rec, sizeof(rec));
	while (n < 0 && errno == EINTR);
	spawn_close_fd(&c->fd_status);
	if (n == 0)
		return 0;
	if (n != (ssize_t)sizeof(rec)) {
		rec.stage = -1;
		rec.err = n < 0 ? errno : EIO;
	}
	status_failed(c, &rec);
	if (rec.stage == ST_EXEC)
		return 0;
	return spawn_fail(c, "cannot set up the child for '%s': %s: %s", c->argv[0],
		    c->res.exec_stage, strerror(c->res.exec_errno));
}

static int spawn(struct run_child *c, struct child_plan *p)
{
	sigset_t all, old;
	int e;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	/* The child only runs child_exec() (system calls, the plan made
	 * before, its own stack) and ends in execve or _exit. */
	c->pid = vfork();
	e = errno;
	if (c->pid == 0)
		spawn_child_exec(p);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return c->pid < 0 ? -1 : 0;
}

int run_spawn_local(struct run_child *c, const int child_ends[3],
		    const struct run_spawn_extra *x)
{
	struct child_plan p;
	char home[4200], abs[8192];
	const char *envp[4];
	int st[2], rc = 0;

	memset(&p, 0, sizeof(p));
	if (!c->env && build_env(c, home, sizeof(home), envp) < 0)
		return spawn_fail(c, "directory name too long: '%s'", c->dir);
	if (exec_path(c, abs, sizeof(abs), &p.path) < 0)
		return spawn_fail(c, "cannot resolve '%s': %s", c->argv[0],
			    strerror(errno));
	if (spawn_pipe(st) < 0)
		return spawn_fail(c, "cannot create a pipe for '%s': %s", c->argv[0],
			    strerror(errno));
	c->fd_status = st[0];
	p.argv = (char *const *)c->argv;
	p.envp = (char *const *)(c->env ? c->env : envp);
	p.dir = c->dir;
	memcpy(p.fds, child_ends, sizeof(p.fds));
	p.status_fd = st[1];
	plan_limits(&p, &c->lim);
	p.switch_uid = spawn_switches_uid(c);
	p.uid = c->uid;
	p.gid = spawn_gid(c);
	p.parent = getpid();
	p.session = !(x && x->in_session);
	sigemptyset(&p.empty);
	c->res.uid_switched = p.switch_uid;
	if (x) {
		p.cg_fds = x->cg_fds;
		p.n_cg = x->n_cg;
		p.unshare_ipc = x->unshare_ipc;
		p.reset = x->reset_signals;
		p.filter = x->filter;
		p.affinity = x->affinity;
	}
	if (spawn(c, &p) < 0)
		rc = spawn_fail(c, "cannot fork for '%s': %s", c->argv[0], strerror(errno));
	close(st[1]);
	if (rc < 0) {
		spawn_close_fd(&c->fd_status);
		return -1;
	}
	c->res.pid = c->pid;
	if (read_status(c) < 0) {
		int status;

		kill(-c->pid, SIGKILL);
		spawn_reap(c, &status, NULL);
		return -1;
	}
	return 0;
}

/* ---- names ---- */

#define SIG(n) { n, #n }
static const struct { int sig; const char *name; } sig_table[] = {
	SIG(SIGHUP), SIG(SIGINT), SIG(SIGQUIT), SIG(SIGILL), SIG(SIGTRAP),
	SIG(SIGABRT), SIG(SIGBUS), SIG(SIGFPE), SIG(SIGKILL), SIG(SIGUSR1),
	SIG(SIGSEGV), SIG(SIGUSR2), SIG(SIGPIPE), SIG(SIGALRM), SIG(SIGTERM),
	SIG(SIGSTKFLT), SIG(SIGCHLD), SIG(SIGCONT), SIG(SIGSTOP), SIG(SIGTSTP),
	SIG(SIGTTIN), SIG(SIGTTOU), SIG(SIGURG), SIG(SIGXCPU), SIG(SIGXFSZ),
	SIG(SIGVTALRM), SIG(SIGPROF), SIG(SIGWINCH), SIG(SIGIO), SIG(SIGPWR),
	SIG(SIGSYS),
};
#undef SIG

const char *run_signal_name(int sig)
{
	static _Thread_local char buf[32];
	size_t i;

	for (i = 0; i < sizeof(sig_table) / sizeof(sig_table[0]); i++)
		if (sig_table[i].sig == sig)
			return sig_table[i].name;
	if (sig >= SIGRTMIN && sig <= SIGRTMAX)
		snprintf(buf, sizeof(buf), "SIGRTMIN+%d", sig - SIGRTMIN);
	else
		snprintf(buf, sizeof(buf), "signal %d", sig);
	return buf;
}
