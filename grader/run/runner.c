/*
 * runner: fork, sandbox, exec, pump, kill, reap. See runner.h for the
 * contract; this is the theory of operation.
 *
 * run_start blocks every signal in the calling thread, vforks, and restores
 * the mask. vfork, not fork: the child borrows the grader's memory until it
 * execs, so no page table of a large, threaded grader is copied only to be
 * thrown away by execve (that copy was most of the grader's cost per case;
 * with vfork a case costs within about a tenth of a bare fork+exec+wait).
 * It also means the child may write nothing but its own stack frames, and
 * may call nothing but system calls, until execve or _exit: the parent's
 * thread sleeps meanwhile, the other threads run on. The child runs
 * child_exec(): it starts with every signal
 * blocked, so no handler of the grader can run in it; it resets the
 * dispositions, sets up its sandbox with async-signal-safe calls only
 * (everything it needs, the environment included, was computed before
 * fork) and
 * unblocks signals just before execve. A step that fails writes {stage,
 * errno} to the status pipe, whose write end is close-on-exec: the parent's
 * blocking read returns 0 (EOF) exactly when exec succeeded.
 *
 * run_finish polls up to four descriptors at once: stdin (POLLOUT while
 * input is left), stdout, stderr, and a pidfd that becomes readable when
 * the child exits. The poll timeout is the time left to the wall deadline.
 * A closed stdout/stderr only leaves the poll set; the loop ends when the
 * child exits, at the deadline, or at an output cap. Then: SIGKILL to the
 * process group, and with a dedicated uid to every process of that uid
 * (sandbox_kill_uid: found in /proc and killed from root, never by becoming
 * that uid, which such a process could stop);
 * wait4 for rusage; and a drain of the pipes bounded by RUN_DRAIN_MS, for
 * output still buffered or a descendant that has not died yet.
 */
#include "grader/run/runner.h"
#include "grader/run/runner_child.h"
#include "grader/run/runner_int.h"
#include "grader/run/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>


static uid_t slot_base = RUN_SLOT_UID_BASE;
static pthread_once_t probe_once = PTHREAD_ONCE_INIT;
static int can_raise;            /* hard rlimits may be raised */
static pthread_once_t sigpipe_once = PTHREAD_ONCE_INIT;

uid_t run_slot_uid(int slot)
{
	return slot_base + (uid_t)slot;
}

void run_set_slot_uid_base(uid_t base)
{
	slot_base = base;
}

int64_t runner_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

__attribute__((format(printf, 2, 3)))
int runner_fail(struct run_child *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->res.error, sizeof(c->res.error), fmt, ap);
	va_end(ap);
	return -1;
}

void runner_close_fd(int *fd)
{
	if (*fd >= 0) {
		close(*fd);
		*fd = -1;
	}
}

static void ignore_sigpipe(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, NULL);
}

/* Move a new descriptor above 2, so that the child's dup2 onto 0..2 never
 * finds a source already sitting on a target (which would keep its
 * close-on-exec flag, or be overwritten by an earlier dup2). */
static int lift_fd(int fd)
{
	int hi;

	if (fd > 2)
		return fd;
	hi = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	close(fd);
	return hi;
}

static int make_pipe(int p[2])
{
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	p[0] = lift_fd(p[0]);
	p[1] = lift_fd(p[1]);
	if (p[0] < 0 || p[1] < 0) {
		int e = errno;

		runner_close_fd(&p[0]);
		runner_close_fd(&p[1]);
		errno = e;
		return -1;
	}
	return 0;
}

/* A fresh pipe end of ours: no status flag set but the access mode,
 * which F_SETFL ignores (one call a pipe end, not two). */
static int set_nonblock(int fd)
{
	return fcntl(fd, F_SETFL, O_NONBLOCK);
}

/* ---- the parent ---- */

uint64_t runner_out_cap(const struct run_limits *l)
{
	return l->output_bytes ? l->output_bytes : RUN_DEFAULT_OUTPUT_BYTES;
}


/* Whole seconds of RLIMIT_CPU for a limit in seconds (no libm needed). */
static rlim_t cpu_soft(double sec)
{
	rlim_t s = (rlim_t)(sec > MAX_SEC ? MAX_SEC : sec);

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
		rlim_t s = cpu_soft(l->cpu_sec);

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
static int wants_switch(const struct run_child *c)
{
	return c->uid != (uid_t)-1 && c->uid != 0 && geteuid() == 0 &&
	       c->uid != getuid();
}

void runner_close_all(struct run_child *c)
{
	runner_close_fd(&c->fd_in);
	runner_close_fd(&c->fd_out);
	runner_close_fd(&c->fd_err);
	runner_close_fd(&c->fd_status);
	runner_close_fd(&c->fd_pid);
	runner_close_fd(&c->fd_input);
}

static int reap(struct run_child *c, int *status, struct rusage *ru)
{
	pid_t r;

	do
		r = wait4(c->pid, status, 0, ru);
	while (r < 0 && errno == EINTR);
	c->reaped = 1;
	return r == c->pid ? 0 : -1;
}

/* SIGKILL to the group and, with a dedicated uid, to that uid; -1 with
 * errno when the uid could not be cleaned. */
static int kill_all(struct run_child *c)
{
	kill(-c->pid, SIGKILL);
	if (c->res.uid_switched && sandbox_kill_uid(c->uid) > 0) {
		errno = EBUSY;
		return -1;
	}
	return 0;
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
			    runner_stage_name(rec->stage) : "setup";
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
	runner_close_fd(&c->fd_status);
	if (n == 0)
		return 0;
	if (n != (ssize_t)sizeof(rec)) {
		rec.stage = -1;
		rec.err = n < 0 ? errno : EIO;
	}
	status_failed(c, &rec);
	if (rec.stage == ST_EXEC)
		return 0;
	return runner_fail(c, "cannot set up the child for '%s': %s: %s", c->argv[0],
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
		runner_child_exec(p);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return c->pid < 0 ? -1 : 0;
}

/* The three pipes: the parent's ends go to c (non-blocking), the child's
 * to child_ends. On failure everything is closed. */
/*
 * Whether the input file itself may be the program's stdin, as judges give
 * it (isolate, runguard): then nothing is fed through a pipe, and no
 * wake-up of ours follows each 4 KiB the program reads (a 24 MB input
 * cost 2.3x the floor through a pipe). Only where the program cannot
 * change the file through its descriptor (a reopen of /proc/self/fd/0,
 * fchmod): it runs under a slot uid (root switches to it) that neither
 * owns the file nor may write it as group or others. A program learns
 * the file's name (readlink) and may seek in it; it reaches nothing else.
 */
static int input_direct(const struct run_child *c)
{
	gid_t gid = c->gid == (gid_t)-1 ? (gid_t)c->uid : c->gid;
	struct stat st;

	if (c->uid == (uid_t)-1 || c->uid == 0 || geteuid() != 0 ||
	    fstat(c->fd_input, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size == 0)    /* or empty, or made when read (/proc) */
		return 0;
	return st.st_uid != c->uid && !(st.st_mode & S_IWOTH) &&
	       !(st.st_gid == gid && (st.st_mode & S_IWGRP));
}

/* A pipe the input file is fed through: 1 MiB (best effort: past the
 * user's pipe-user-pages-soft the kernel refuses) when the file is larger
 * than the default 64 KiB. A full pipe still wakes us at each read of the
 * program, but less often (the big-* cases: 9-11k context switches a
 * grade down to 3.5-6.4k, 10% less CPU). */
#define PIPE_BIG (1 << 20)
static void grow_input_pipe(const struct run_child *c, int fd)
{
	struct stat st;

	if (c->fd_input >= 0 && fstat(c->fd_input, &st) == 0 &&
	    st.st_size > CHUNK)
		(void)fcntl(fd, F_SETPIPE_SZ, PIPE_BIG);
}

static int open_pipes(struct run_child *c, int child_ends[3])
{
	int io[3][2] = { { -1, -1 }, { -1, -1 }, { -1, -1 } };
	int i, e;

	if (c->fd_input >= 0 && input_direct(c)) {
		io[0][0] = lift_fd(c->fd_input);   /* the child's from here on */
		c->fd_input = -1;
		if (io[0][0] < 0)
			goto fail;
	} else if (make_pipe(io[0]) < 0 || set_nonblock(io[0][1]) < 0) {
		goto fail;
	} else {
		grow_input_pipe(c, io[0][1]);
	}
	for (i = 1; i < 3; i++)
		if (make_pipe(io[i]) < 0)
			goto fail;
	if (set_nonblock(io[1][0]) < 0 || set_nonblock(io[2][0]) < 0)
		goto fail;
	c->fd_in = io[0][1];
	c->fd_out = io[1][0];
	c->fd_err = io[2][0];
	for (i = 0; i < 3; i++)
		child_ends[i] = io[i][i > 0];
	return 0;
fail:
	e = errno;
	for (i = 0; i < 3; i++) {
		runner_close_fd(&io[i][0]);
		runner_close_fd(&io[i][1]);
	}
	errno = e;
	return -1;
}

static void reset_state(struct run_child *c)
{
	memset(&c->res, 0, sizeof(c->res));
	c->res.tree_cpu_ms = -1;
	c->pid = -1;
	c->started = 0;
	c->reaped = 0;
	c->in_off = 0;
	c->in_copy = 0;
	strbuf_reset(&c->out_buf);
	strbuf_reset(&c->err_buf);
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
		return runner_fail(c, "directory name too long: '%s'", c->dir);
	if (exec_path(c, abs, sizeof(abs), &p.path) < 0)
		return runner_fail(c, "cannot resolve '%s': %s", c->argv[0],
			    strerror(errno));
	if (make_pipe(st) < 0)
		return runner_fail(c, "cannot create a pipe for '%s': %s", c->argv[0],
			    strerror(errno));
	c->fd_status = st[0];
	p.argv = (char *const *)c->argv;
	p.envp = (char *const *)(c->env ? c->env : envp);
	p.dir = c->dir;
	memcpy(p.fds, child_ends, sizeof(p.fds));
	p.status_fd = st[1];
	plan_limits(&p, &c->lim);
	p.switch_uid = wants_switch(c);
	p.uid = c->uid;
	p.gid = c->gid == (gid_t)-1 ? (gid_t)c->uid : c->gid;
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
		rc = runner_fail(c, "cannot fork for '%s': %s", c->argv[0], strerror(errno));
	close(st[1]);
	if (rc < 0) {
		runner_close_fd(&c->fd_status);
		return -1;
	}
	c->res.pid = c->pid;
	if (read_status(c) < 0) {
		int status;

		kill(-c->pid, SIGKILL);
		reap(c, &status, NULL);
		return -1;
	}
	return 0;
}

int run_start(struct run_child *c)
{
	int child_ends[3] = { -1, -1, -1 }, i, rc;

	reset_state(c);
	if (!c->argv || !c->argv[0])
		return runner_fail(c, "no program to run");
	pthread_once(&sigpipe_once, ignore_sigpipe);
	if (c->input_path &&
	    (c->fd_input = open(c->input_path, O_RDONLY | O_CLOEXEC)) < 0)
		return runner_fail(c, "cannot open the input '%s': %s",
				   c->input_path, strerror(errno));
	if (open_pipes(c, child_ends) < 0) {
		runner_fail(c, "cannot create pipes for '%s': %s", c->argv[0],
			    strerror(errno));
		runner_close_fd(&c->fd_input);
		return -1;
	}
	c->t0_ns = runner_now_ns();
	if (c->sbx) {
		rc = sandbox_spawn(c->sbx, c, child_ends);
		c->fd_keeper = rc == 0 ? sandbox_fd(c->sbx) : -1;
	} else {
		rc = run_spawn_local(c, child_ends, NULL);
	}
	for (i = 0; i < 3; i++)
		close(child_ends[i]);
	if (rc < 0) {
		runner_close_all(c);
		return -1;
	}
#ifdef SYS_pidfd_open
	if (!c->sbx)
		c->fd_pid = (int)syscall(SYS_pidfd_open, c->pid, 0);
#endif
	c->started = 1;
	return 0;
}

static void classify(struct run_child *c, int status, const struct rusage *ru,
		     const struct pump *pm)
{
	struct run_result *r = &c->res;
	long soft_ms = (long)cpu_soft(c->lim.cpu_sec) * 1000;

	r->cpu_ms = (long)(ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) * 1000 +
		    (long)(ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) / 1000;
	r->max_rss_kb = ru->ru_maxrss;
	/* The whole tree's CPU (the cgroup's), where it was measured. */
	if (r->tree_cpu_ms > r->cpu_ms)
		r->cpu_ms = r->tree_cpu_ms;
	if (WIFSIGNALED(status)) {
		r->status = RUN_SIGNALED;
		r->term_signal = WTERMSIG(status);
	} else {
		r->status = RUN_EXITED;
		r->exit_code = WEXITSTATUS(status);
	}
	if (c->lim.cpu_sec <= 0)
		return;
	if (r->status == RUN_SIGNALED && r->term_signal == SIGXCPU)
		r->cpu_exceeded = 1;
	if (r->tree_cpu_killed)
		r->cpu_exceeded = 1;
	/* The kernel's SIGKILL at the hard limit (soft + 1 s). rusage can read
	 * a quarter under what the limit counted on a loaded machine, hence
	 * the margin. Not the OOM killer's SIGKILL: that one is MLE, however
	 * much CPU the program had used. */
	if (r->status == RUN_SIGNALED && r->term_signal == SIGKILL &&
	    !pm->killed && !r->oom_killed && r->cpu_ms >= soft_ms * 3 / 4)
		r->cpu_exceeded = 1;
	if (r->cpu_ms > (long)(c->lim.cpu_sec * 1000))
		r->cpu_exceeded = 1;
	/* The kernel (RLIMIT_CPU's SIGXCPU or SIGKILL) or the tree's count
	 * found the limit passed; rusage, tick-sampled, can read a little
	 * (under load a quarter) below what they counted. A CPU TLE never
	 * shows less CPU than the limit it names. */
	if (r->cpu_exceeded && r->cpu_ms < (long)(c->lim.cpu_sec * 1000))
		r->cpu_ms = (long)(c->lim.cpu_sec * 1000);
}

/* The captures become the result's (the last cap bytes of stderr). */
static int finish_output(struct run_child *c)
{
	struct run_result *r = &c->res;
	struct strbuf *err = &c->err_buf;
	size_t cap = c->lim.stderr_bytes ? c->lim.stderr_bytes :
		     RUN_DEFAULT_STDERR_BYTES;

	if (err->len > cap) {
		memmove(err->buf, err->buf + err->len - cap, cap);
		strbuf_setlen(err, cap);
	}
	free(r->out);
	free(r->err);
	r->out = strbuf_detach(&c->out_buf, &r->out_len);
	r->err = strbuf_detach(&c->err_buf, &r->err_len);
	return r->out && r->err ? 0 : -1;
}

/* The end of a run through the sandbox's keeper: it kills what is left
 * (asked to, when we stopped early), reaps, cleans up and reports. */
static int finish_sandboxed(struct run_child *c, const struct pump *pm,
			    int *status, struct rusage *ru)
{
	int rc = 0;

	if (!pm->exited && sandbox_kill(c->sbx) < 0)
		rc = -1;
	if (sandbox_wait(c->sbx, c, status, ru) < 0)
		rc = -1;
	c->reaped = 1;
	c->fd_keeper = -1;
	return rc;
}

int run_finish(struct run_child *c)
{
	struct pump pm;
	struct rusage ru;
	int status = 0, rc;

	if (!c->started || c->reaped)
		return runner_fail(c, "run_finish without a started child");
	memset(&pm, 0, sizeof(pm));
	pm.out_cap = runner_out_cap(&c->lim);
	pm.err_cap = c->lim.stderr_bytes ? c->lim.stderr_bytes :
		     RUN_DEFAULT_STDERR_BYTES;
	rc = runner_pump_loop(c, &pm);
	memset(&ru, 0, sizeof(ru));
	if (c->sbx) {
		if (finish_sandboxed(c, &pm, &status, &ru) < 0 && rc == 0)
			rc = -1;        /* sandbox_wait set res.error */
	} else {
		if (kill_all(c) < 0 && rc == 0)
			rc = runner_fail(c, "cannot kill the processes of uid %u: %s",
				  (unsigned)c->uid, strerror(errno));
		if (reap(c, &status, &ru) < 0 && rc == 0)
			rc = runner_fail(c, "cannot reap '%s' (pid %d): %s", c->argv[0],
				  (int)c->pid, strerror(errno));
	}
	c->res.wall_ms = (long)((runner_now_ns() - c->t0_ns) / 1000000);
	if (runner_drain(c, &pm) < 0 && rc == 0)
		rc = runner_fail(c, "cannot drain the pipes of '%s': %s", c->argv[0],
			  strerror(errno));
	classify(c, status, &ru, &pm);
	if (finish_output(c) < 0 && rc == 0)
		rc = runner_fail(c, "out of memory capturing the output of '%s'",
			  c->argv[0]);
	return rc;
}

int run_command(struct run_child *c)
{
	if (run_start(c) < 0)
		return -1;
	return run_finish(c);
}

void run_child_release(struct run_child *c)
{
	if (c->started && !c->reaped && c->sbx) {
		struct pump pm = { 0 };
		struct rusage ru;
		int status;

		finish_sandboxed(c, &pm, &status, &ru);
	} else if (c->pid > 0 && !c->reaped) {
		int status;

		kill_all(c);
		reap(c, &status, NULL);
	}
	runner_close_all(c);
	strbuf_release(&c->out_buf);
	strbuf_release(&c->err_buf);
	free(c->res.out);
	free(c->res.err);
	c->res.out = c->res.err = NULL;
	c->res.out_len = c->res.err_len = 0;
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
