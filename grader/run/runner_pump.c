/*
 * runner_pump: the parent's side while the child runs (runner_int.h). One
 * poll over stdin (POLLOUT while input is left), stdout, stderr and the
 * child's pidfd; the timeout is the time left to the wall deadline. stdout
 * is kept up to its cap, stderr's last bytes in a buffer of up to twice
 * its cap; both are strbufs that become the run_result's at the end.
 * An input file (input_path) goes to the pipe as the pipe takes it, at
 * most CHUNK bytes a call, so its size never shows in our memory.
 */
#include "grader/run/runner_int.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- the pump ---- */

/* Append to the stdout capture, up to the cap. */
static int keep_out(struct run_child *c, const char *buf, size_t n, size_t cap)
{
	size_t room = cap > c->out_buf.len ? cap - c->out_buf.len : 0;

	if (n > room)
		n = room;
	return n ? strbuf_add(&c->out_buf, buf, n) : 0;
}

/* Keep the last `cap` bytes of stderr in a buffer of up to 2 * cap: append,
 * and when full slide the last bytes to the front. */
static int keep_err(struct run_child *c, const char *buf, size_t n, size_t cap)
{
	struct strbuf *sb = &c->err_buf;

	if (n >= cap) {
		strbuf_setlen(sb, 0);
		return strbuf_add(sb, buf + n - cap, cap);
	}
	if (sb->len + n > 2 * cap) {
		size_t keep = cap - n;

		memmove(sb->buf, sb->buf + sb->len - keep, keep);
		strbuf_setlen(sb, keep);
	}
	return strbuf_add(sb, buf, n);
}

/* Whether input is left to feed. */
static int input_left(const struct run_child *c)
{
	return c->input_path ? c->fd_input >= 0 : c->in_off < c->input_len;
}

/* One CHUNK of the input file into the pipe: by splice (page references,
 * no copy), or where the file system refuses that, by pread at in_off
 * and write (bytes the pipe did not take are read again next time).
 * Returns what write(2) would, -2 when reading the file failed. */
static ssize_t feed_chunk(struct run_child *c)
{
	char buf[CHUNK];
	ssize_t n, w;

	if (!c->in_copy) {
		loff_t off = (loff_t)c->in_off;

		w = splice(c->fd_input, &off, c->fd_in, NULL, CHUNK,
			   SPLICE_F_NONBLOCK);
		if (w >= 0 || errno == EAGAIN || errno == EINTR || errno == EPIPE)
			return w;
		c->in_copy = 1;
	}
	n = pread(c->fd_input, buf, CHUNK, (off_t)c->in_off);
	if (n <= 0)
		return n < 0 && errno != EINTR ? -2 : n;
	w = write(c->fd_in, buf, (size_t)n);
	return w;
}

/* The input file fed until the pipe is full (0), to EOF or to a child
 * that closed its stdin (both ends closed: 0); -1 when the file could not
 * be read (a harness failure, c->res.error set). */
static int feed_file(struct run_child *c)
{
	for (;;) {
		ssize_t w = feed_chunk(c);

		if (w == -2)
			return spawn_fail(c, "cannot read the input '%s': %s",
					   c->input_path, strerror(errno));
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EAGAIN)
			return 0;
		if (w <= 0)
			break;          /* EOF, or EPIPE: the child will not read */
		c->in_off += (size_t)w;
	}
	spawn_close_fd(&c->fd_input);
	spawn_close_fd(&c->fd_in);
	return 0;
}

static int write_input(struct run_child *c)
{
	if (c->input_path)
		return feed_file(c);
	while (c->in_off < c->input_len) {
		size_t n = c->input_len - c->in_off;
		ssize_t w = write(c->fd_in, c->input + c->in_off,
				  n > CHUNK ? CHUNK : n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EAGAIN)
			return 0;
		if (w < 0)
			break;          /* EPIPE: the child will not read */
		c->in_off += (size_t)w;
	}
	spawn_close_fd(&c->fd_in);    /* all written: the child sees EOF */
	return 0;
}

/* Read what is there (a bounded number of chunks); 1 at EOF, -1 on a
 * harness failure, else 0. */
static int read_stream(struct run_child *c, struct pump *pm, int is_err)
{
	char buf[CHUNK];
	int *fd = is_err ? &c->fd_err : &c->fd_out;
	int i;

	for (i = 0; i < READS_PER_TURN; i++) {
		ssize_t n = read(*fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n <= 0) {
			spawn_close_fd(fd);
			return 1;
		}
		if (is_err) {
			c->res.stderr_bytes += (uint64_t)n;
			if (keep_err(c, buf, (size_t)n, pm->err_cap) < 0)
				return -1;
		} else {
			c->res.stdout_bytes += (uint64_t)n;
			if (keep_out(c, buf, (size_t)n, pm->out_cap) < 0)
				return -1;
		}
	}
	return 0;
}

static int over_caps(struct run_child *c)
{
	if (c->res.stdout_bytes > runner_out_cap(&c->lim))
		c->res.output_exceeded = 1;
	if (c->lim.stderr_kill_bytes &&
	    c->res.stderr_bytes > c->lim.stderr_kill_bytes)
		c->res.stderr_exceeded = 1;
	if (c->lim.total_kill_bytes && c->res.stdout_bytes +
	    c->res.stderr_bytes > c->lim.total_kill_bytes)
		c->res.total_exceeded = 1;
	return c->res.output_exceeded || c->res.stderr_exceeded ||
	       c->res.total_exceeded;
}

static int child_gone(struct run_child *c)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)c->pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0)
		return errno != EINTR;
	return si.si_pid == c->pid;
}

/* One poll over the live descriptors; ms < 0: no timeout. */
static int pump_once(struct run_child *c, struct pump *pm, int ms)
{
	struct pollfd pf[4];
	int n = 0, i_in = -1, i_out = -1, i_err = -1, i_pid = -1, r;
	int watch = !pm->exited;        /* still waiting for the child */

	if (c->fd_in >= 0 && input_left(c)) {
		i_in = n;
		pf[n++] = (struct pollfd){ c->fd_in, POLLOUT, 0 };
	}
	if (c->fd_out >= 0) {
		i_out = n;
		pf[n++] = (struct pollfd){ c->fd_out, POLLIN, 0 };
	}
	if (c->fd_err >= 0) {
		i_err = n;
		pf[n++] = (struct pollfd){ c->fd_err, POLLIN, 0 };
	}
	if (watch && (c->fd_pid >= 0 || c->fd_keeper >= 0)) {
		i_pid = n;
		pf[n++] = (struct pollfd){ c->fd_pid >= 0 ? c->fd_pid : c->fd_keeper,
					   POLLIN, 0 };
	} else if (watch && (ms < 0 || ms > 10)) {
		ms = 10;        /* no pidfd: look at the child every tick */
	}
	r = poll(pf, (nfds_t)n, ms);
	if (r < 0)
		return errno == EINTR ? 0 : -1;
	if (i_in >= 0 && pf[i_in].revents && write_input(c) < 0)
		return -1;
	if (i_out >= 0 && pf[i_out].revents && read_stream(c, pm, 0) < 0)
		return -1;
	if (i_err >= 0 && pf[i_err].revents && read_stream(c, pm, 1) < 0)
		return -1;
	if (watch && (i_pid >= 0 ? pf[i_pid].revents != 0 : child_gone(c)))
		pm->exited = 1;
	return 0;
}

static int ms_left(int64_t deadline)
{
	int64_t left = deadline - runner_now_ns();

	if (left <= 0)
		return 0;
	left = (left + 999999) / 1000000;
	return left > 1000000 ? 1000000 : (int)left;
}

int runner_pump_loop(struct run_child *c, struct pump *pm)
{
	double wall = c->lim.wall_sec > SPAWN_MAX_SEC ? SPAWN_MAX_SEC : c->lim.wall_sec;
	int64_t deadline = wall > 0 ? c->t0_ns + (int64_t)(wall * 1e9) : 0;

	if (!input_left(c))
		spawn_close_fd(&c->fd_in);
	while (!pm->exited) {
		int ms = deadline ? ms_left(deadline) : -1;

		if (deadline && ms == 0) {
			c->res.timed_out_wall = 1;
			pm->killed = 1;
			return 0;
		}
		if (pump_once(c, pm, ms) < 0)
			return c->res.error[0] ? -1 : spawn_fail(c,
				"cannot poll the pipes of '%s': %s",
				c->argv[0], strerror(errno));
		if (over_caps(c)) {
			pm->killed = 1;
			return 0;
		}
	}
	return 0;
}

/* After the kill: whatever is buffered, and EOF once every holder of the
 * write ends is dead; never longer than RUN_DRAIN_MS. */
int runner_drain(struct run_child *c, struct pump *pm)
{
	int64_t until = runner_now_ns() + (int64_t)RUN_DRAIN_MS * 1000000;

	spawn_close_fd(&c->fd_in);
	spawn_close_fd(&c->fd_pid);
	pm->exited = 1;         /* reaped: only the pipes are left */
	while (c->fd_out >= 0 || c->fd_err >= 0) {
		int ms = ms_left(until);

		if (ms == 0)
			break;
		if (pump_once(c, pm, ms) < 0)
			return -1;
	}
	over_caps(c);
	runner_close_all(c);
	return 0;
}

