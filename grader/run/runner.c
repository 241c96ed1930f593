/*
 * runner: a run from start to end, through spawn.c (fork, exec) or a
 * slot's keeper: pump, kill, reap. See runner.h for the contract; this is
 * the theory of operation, spawn.c's vfork included.
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

static pthread_once_t sigpipe_once = PTHREAD_ONCE_INIT;

int64_t runner_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void ignore_sigpipe(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, NULL);
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

void runner_close_all(struct run_child *c)
{
	spawn_close_fd(&c->fd_in);
	spawn_close_fd(&c->fd_out);
	spawn_close_fd(&c->fd_err);
	spawn_close_fd(&c->fd_status);
	spawn_close_fd(&c->fd_pid);
	spawn_close_fd(&c->fd_input);
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

/*
 * Whether the input file itself may be the program's stdin, as judges give
 * it (isolate, runguard): then nothing is fed through a pipe, and no
 * wake-up of ours follows each 4 KiB the program reads (a 24 MB input
 * cost 2.3x the floor through a pipe). Only where the program cannot
 * change the file through its descriptor (a reopen of /proc/self/fd/0,
 * fchmod): it runs under a slot uid (root switches to it) that does not
 * own the file, and the file has no write bit for group or others. A
 * program learns the file's name (readlink) and may seek in it, fstat
 * it, or fsync its file system; it reaches nothing else.
 */
static int input_direct(const struct run_child *c, const struct stat *st)
{
	if (!spawn_switches_uid(c) || !S_ISREG(st->st_mode) ||
	    st->st_size == 0)   /* or empty, or made when read (/proc) */
		return 0;
	/* No write for group or others, whatever the group: with a POSIX
	 * ACL the group bits are its mask, so an entry naming the slot uid
	 * or gid cannot grant a write either (a red team's finding). */
	return st->st_uid != c->uid && !(st->st_mode & (S_IWGRP | S_IWOTH));
}

/* A pipe the input file is fed through: 1 MiB (best effort: past the
 * user's pipe-user-pages-soft the kernel refuses) when the file is larger
 * than the default 64 KiB. A full pipe still wakes us at each read of the
 * program, but less often (the big-* cases: 9-11k context switches a
 * grade down to 3.5-6.4k, 10% less CPU). */
#define PIPE_BIG (1 << 20)

/* The three pipes: the parent's ends go to c (non-blocking), the child's
 * to child_ends. On failure everything is closed. */
static int open_pipes(struct run_child *c, int child_ends[3])
{
	int io[3][2] = { { -1, -1 }, { -1, -1 }, { -1, -1 } };
	struct stat st = { .st_mode = 0 };     /* one fstat a run, for both */
	int i, e;

	if (c->fd_input >= 0 && fstat(c->fd_input, &st) < 0)
		st.st_mode = 0;                 /* not known: a pipe, default size */
	if (c->fd_input >= 0 && input_direct(c, &st)) {
		io[0][0] = spawn_lift_fd(c->fd_input);   /* the child's from here on */
		c->fd_input = -1;
		if (io[0][0] < 0)
			goto fail;
	} else if (spawn_pipe(io[0]) < 0 || set_nonblock(io[0][1]) < 0) {
		goto fail;
	} else if (st.st_size > CHUNK) {
		(void)fcntl(io[0][1], F_SETPIPE_SZ, PIPE_BIG);
	}
	for (i = 1; i < 3; i++)
		if (spawn_pipe(io[i]) < 0)
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
		spawn_close_fd(&io[i][0]);
		spawn_close_fd(&io[i][1]);
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

int run_start(struct run_child *c)
{
	int child_ends[3] = { -1, -1, -1 }, i, rc;

	reset_state(c);
	if (!c->argv || !c->argv[0])
		return spawn_fail(c, "no program to run");
	pthread_once(&sigpipe_once, ignore_sigpipe);
	if (c->input_path &&
	    (c->fd_input = open(c->input_path, O_RDONLY | O_CLOEXEC)) < 0)
		return spawn_fail(c, "cannot open the input '%s': %s",
				   c->input_path, strerror(errno));
	if (open_pipes(c, child_ends) < 0) {
		spawn_fail(c, "cannot create pipes for '%s': %s", c->argv[0],
			    strerror(errno));
		spawn_close_fd(&c->fd_input);
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
	long soft_ms = (long)spawn_cpu_soft(c->lim.cpu_sec) * 1000;

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
		return spawn_fail(c, "run_finish without a started child");
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
			rc = spawn_fail(c, "cannot kill the processes of uid %u: %s",
				  (unsigned)c->uid, strerror(errno));
		if (spawn_reap(c, &status, &ru) < 0 && rc == 0)
			rc = spawn_fail(c, "cannot reap '%s' (pid %d): %s", c->argv[0],
				  (int)c->pid, strerror(errno));
	}
	c->res.wall_ms = (long)((runner_now_ns() - c->t0_ns) / 1000000);
	if (runner_drain(c, &pm) < 0 && rc == 0)
		rc = spawn_fail(c, "cannot drain the pipes of '%s': %s", c->argv[0],
			  strerror(errno));
	classify(c, status, &ru, &pm);
	if (finish_output(c) < 0 && rc == 0)
		rc = spawn_fail(c, "out of memory capturing the output of '%s'",
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
		spawn_reap(c, &status, NULL);
	}
	runner_close_all(c);
	strbuf_release(&c->out_buf);
	strbuf_release(&c->err_buf);
	free(c->res.out);
	free(c->res.err);
	c->res.out = c->res.err = NULL;
	c->res.out_len = c->res.err_len = 0;
}

