/*
 * batch_workers: one grade --serve per slot (serve.h), kept from student
 * to student, so that a class pays the sandbox's set-up (the keepers,
 * their namespaces, mounts and cgroups, the scratch tree, the uid locks)
 * once per slot, not once per student (batch_int.h).
 *
 * Lifecycle of a slot's grader: started at the slot's first student, with
 * a SOCK_SEQPACKET socket as its stdin; each student is one request (the
 * student's sources, its report's path, its log's descriptor) and one
 * answer (the exit status a grade of the student alone would have had).
 * The scheduler (batch_sched.c) polls the sockets of busy graders and
 * reaps the dead ones; a late student's grader is signalled, like a
 * student's own grade, and is reaped before its slot (and uid) serves
 * again. At the end each socket is closed and each grader waited for.
 */
#include "grader/cli/batch_int.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "grader/cli/child_grade.h"
#include "grader/lib/strbuf.h"
#include "grader/lib/usage.h"

size_t batch_grade_argv(const struct batch *b, char **v, char *uid)
{
	size_t k = 0;

	v[k++] = (char *)"grade";
	for (size_t i = 0; i < b->npass; i++)
		v[k++] = b->pass[i];
	/* Students run side by side; each grades its cases one at a time,
	 * as root under its worker's own uid (slot 0 of a grade is its
	 * --uid-base), so no two students share a sandbox uid at once. One
	 * worker's students share it one after another: what a student's
	 * runs leave to that uid is removed before the next one's build
	 * (the sandbox's areas, or without them the slot's folder, emptied
	 * after each case: engine.c). */
	v[k++] = (char *)"-j";
	v[k++] = (char *)"1";
	v[k++] = (char *)"--uid-base";
	v[k++] = uid;
	/* No student reads another's sources or reports (root only). */
	v[k++] = (char *)"--hide";
	v[k++] = (char *)b->subs_dir;
	v[k++] = (char *)"--hide";
	v[k++] = (char *)b->out;
	/* The log is the staff's: every diff in it. */
	v[k++] = (char *)"--staff";
	v[k++] = (char *)"--color=never";
	return k;
}

static int start(struct batch *b, int slot, const sigset_t *oldmask,
		 struct strbuf *why)
{
	struct batch_worker *w = &b->workers[slot];
	char **v = xmalloc((b->npass + 18) * sizeof(*v));
	char uid[32];
	int sv[2];
	size_t k;

	snprintf(uid, sizeof(uid), "%ld", b->uid_base + slot);
	k = batch_grade_argv(b, v, uid);
	v[k++] = (char *)"--serve";
	v[k++] = (char *)b->suite_dir;
	v[k] = NULL;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		strbuf_addf(why, "cannot make a socket pair: %s", strerror(errno));
		free(v);
		return -1;
	}
	w->pid = child_grade_start(&(struct child_grade){ .argv = v, .in_fd = sv[1],
		.out_fd = -1, .err_fd = -1, .own_group = 1, .mask = oldmask });
	close(sv[1]);
	free(v);
	if (w->pid < 0) {
		strbuf_addf(why, "cannot fork: %s", strerror(errno));
		close(sv[0]);
		w->pid = 0;
		return -1;
	}
	w->sock = sv[0];
	w->dying = 0;
	return 0;
}

static int request(int sock, const char *src, const char *part, int log)
{
	char ctl[CMSG_SPACE(sizeof(int))];
	struct strbuf msg = STRBUF_INIT;
	struct iovec iov;
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = ctl, .msg_controllen = sizeof(ctl) };
	struct cmsghdr *c;
	ssize_t n;

	strbuf_add(&msg, src, strlen(src) + 1);
	strbuf_add(&msg, part, strlen(part) + 1);
	if (strbuf_failed(&msg))
		die("out of memory");
	iov = (struct iovec){ msg.buf, msg.len };
	memset(ctl, 0, sizeof(ctl));
	c = CMSG_FIRSTHDR(&mh);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &log, sizeof(int));
	while ((n = sendmsg(sock, &mh, MSG_NOSIGNAL)) < 0 && errno == EINTR)
		;
	strbuf_release(&msg);
	return n < 0 ? -1 : 0;
}

pid_t batch_worker_give(struct batch *b, const struct student *s, int log,
			const char *part, const sigset_t *oldmask, struct strbuf *why)
{
	struct batch_worker *w = &b->workers[s->slot];

	if (w->pid <= 0 && start(b, s->slot, oldmask, why) < 0)
		return -1;
	if (request(w->sock, s->src, part, log) < 0) {
		/* Gone between two students: its reaping frees the slot. */
		strbuf_addf(why, "its grader is gone: %s", strerror(errno));
		batch_worker_dismiss(b, s->slot);
		return -1;
	}
	return w->pid;
}

int batch_worker_answer(struct batch *b, int slot, int *code)
{
	struct batch_worker *w = &b->workers[slot];
	unsigned char status;
	ssize_t n;

	if (w->pid <= 0 || w->dying)
		return 0;
	while ((n = recv(w->sock, &status, 1, MSG_DONTWAIT)) < 0 && errno == EINTR)
		;
	if (n == 1) {
		*code = status;
		/* The grader's own failure: a new one for the next student. */
		if (status == WG_EXIT_INTERNAL)
			batch_worker_dismiss(b, slot);
		return 1;
	}
	if (n == 0)
		batch_worker_dismiss(b, slot);
	return 0;
}

void batch_worker_dismiss(struct batch *b, int slot)
{
	struct batch_worker *w = &b->workers[slot];

	if (w->pid > 0 && !w->dying) {
		close(w->sock);
		w->sock = -1;
		w->dying = 1;
	}
}

void batch_worker_reaped(struct batch *b, pid_t pid)
{
	for (long i = 0; b->workers && i < b->jobs; i++)
		if (b->workers[i].pid == pid) {
			if (!b->workers[i].dying)
				close(b->workers[i].sock);
			b->workers[i] = (struct batch_worker){ .pid = 0, .sock = -1 };
		}
}

void batch_workers_end(struct batch *b)
{
	for (long i = 0; b->workers && i < b->jobs; i++)
		batch_worker_dismiss(b, (int)i);
	for (long i = 0; b->workers && i < b->jobs; i++) {
		pid_t pid = b->workers[i].pid;
		int st;

		if (pid <= 0)
			continue;
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		/* Anything of its group left behind goes with it. */
		kill(-pid, SIGKILL);
		b->workers[i] = (struct batch_worker){ .pid = 0, .sock = -1 };
	}
}
