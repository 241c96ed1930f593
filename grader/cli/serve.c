/* serve: see serve.h. */
#include "grader/cli/serve.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "grader/cli/engine.h"
#include "grader/cli/options.h"
#include "grader/lib/strbuf.h"
#include "grader/lib/usage.h"

#include <fcntl.h>

/* The requests' socket: stdin at start, then moved to a descriptor of its
 * own (close-on-exec), stdin becoming /dev/null: the keepers, forks of
 * this grader, would otherwise hold the batch's socket. */
static int serve_fd = -1;

static int take_socket(void)
{
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

	serve_fd = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3);
	if (serve_fd < 0 || null < 0 || dup2(null, STDIN_FILENO) < 0)
		return -1;
	close(null);
	return 0;
}

struct request {
	char buf[2 * PATH_MAX + 2];
	const char *submission, *report;
	int log;                 /* the descriptor sent with it, or -1 */
};

/* One request: 1, 0 at end of file, -1 when it is not of the form. */
static int receive(struct request *r)
{
	char ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { r->buf, sizeof(r->buf) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = ctl, .msg_controllen = sizeof(ctl) };
	struct cmsghdr *c;
	ssize_t n;

	r->log = -1;
	while ((n = recvmsg(serve_fd, &mh, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR)
		;
	if (n == 0)
		return 0;
	c = n > 0 ? CMSG_FIRSTHDR(&mh) : NULL;
	if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS &&
	    c->cmsg_len == CMSG_LEN(sizeof(int)))
		memcpy(&r->log, CMSG_DATA(c), sizeof(int));
	if (n <= 0 || (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) || r->log < 0)
		return -1;
	/* Exactly two strings, each ended by its NUL. */
	size_t a = strnlen(r->buf, (size_t)n);
	if (a == 0 || a + 1 >= (size_t)n)
		return -1;
	size_t b = strnlen(r->buf + a + 1, (size_t)n - a - 1);
	if (b == 0 || a + 1 + b + 1 != (size_t)n)
		return -1;
	r->submission = r->buf;
	r->report = r->buf + a + 1;
	return 1;
}

/* Grades one request, its log as stdout and stderr. */
static int grade_one(struct grading **g, const struct options *o,
		     const struct suite *s, const struct request *r)
{
	struct options each = *o;
	char *path = (char *)r->submission;
	struct strbuf why = STRBUF_INIT;
	int is_dir = 0, rc;

	each.json = r->report;
	if ((rc = engine_check_paths(&path, 1, &is_dir, &each)) != 0)
		return rc;
	if (!*g && (rc = engine_open(g, o, s, NULL, 0, NULL)) != 0) {
		engine_close(*g);
		*g = NULL;
		return rc;
	}
	if (!engine_servable(*g, path, is_dir, &why)) {
		error("--serve: %s", strbuf_str(&why));
		strbuf_release(&why);
		return WG_EXIT_USAGE;
	}
	return engine_run(*g, &each, &path, 1, &is_dir);
}

int serve_main(const struct options *o, const struct suite *s)
{
	struct grading *g = NULL;
	int out = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	int err = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3), rc = 0;
	struct request r;

	if (out < 0 || err < 0 || take_socket() < 0)
		die("--serve: cannot keep its descriptors: %s", strerror(errno));
	engine_keepers_output(err);
	for (;;) {
		int got = receive(&r);
		unsigned char status;

		if (got <= 0) {
			if (got < 0)
				rc = error("--serve: a request is not SUBMISSION, "
					   "REPORT and a log (serve.h)");
			if (r.log >= 0)
				close(r.log);
			break;
		}
		fflush(stdout);
		dup2(r.log, STDOUT_FILENO);
		dup2(r.log, STDERR_FILENO);
		close(r.log);
		status = (unsigned char)grade_one(&g, o, s, &r);
		fflush(stdout);
		dup2(out, STDOUT_FILENO);
		dup2(err, STDERR_FILENO);
		if (send(serve_fd, &status, 1, MSG_NOSIGNAL) != 1 || engine_stop_signal())
			break;
		/* Slots that could not be opened are not tried again here:
		 * the batch starts a new grader for the next student. */
		if (!g && status == WG_EXIT_INTERNAL)
			break;
	}
	engine_close(g);
	close(out);
	close(err);
	close(serve_fd);
	return rc < 0 ? WG_EXIT_USAGE : 0;
}
