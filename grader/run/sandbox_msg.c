/*
 * sandbox_msg: the messages between grade, the keeper and the spawner
 * (sandbox_int.h's struct msg). Each is one SOCK_SEQPACKET datagram: the
 * fixed part of the struct, then only the strings_len bytes of strings in
 * use; descriptors travel as SCM_RIGHTS beside it. A RUN carries a run's
 * path, folder, argv and env NUL-separated in that trailing buffer.
 */
#include "grader/run/sandbox_int.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* ---- messages ---- */

int sbx_send(int sock, const struct msg *m, const int *fds, int nfds)
{
	size_t len = offsetof(struct msg, strings) + m->strings_len;
	union { char buf[CMSG_SPACE(4 * sizeof(int))]; struct cmsghdr align; } u;
	struct iovec iov = { (void *)m, len };
	struct msghdr h = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	if (nfds) {
		struct cmsghdr *c;

		memset(&u, 0, sizeof(u));
		h.msg_control = u.buf;
		h.msg_controllen = CMSG_SPACE((size_t)nfds * sizeof(int));
		c = CMSG_FIRSTHDR(&h);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN((size_t)nfds * sizeof(int));
		memcpy(CMSG_DATA(c), fds, (size_t)nfds * sizeof(int));
	}
	do
		n = sendmsg(sock, &h, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)len ? 0 : -1;
}

/* 0 with *m filled (fds: up to 4 received, the rest -1); -1 on EOF
 * (errno 0) or error. */
int sbx_recv(int sock, struct msg *m, int *fds, int maxfds)
{
	union { char buf[CMSG_SPACE(4 * sizeof(int))]; struct cmsghdr align; } u;
	struct iovec iov = { m, sizeof(*m) };
	struct msghdr h = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = u.buf, .msg_controllen = sizeof(u.buf) };
	struct cmsghdr *c;
	ssize_t n;

	for (int i = 0; i < maxfds; i++)
		fds[i] = -1;
	do
		n = recvmsg(sock, &h, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n <= 0) {
		if (n == 0)
			errno = 0;
		return -1;
	}
	for (c = CMSG_FIRSTHDR(&h); c; c = CMSG_NXTHDR(&h, c)) {
		int k = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		for (int i = 0; i < k; i++) {
			int fd;

			memcpy(&fd, CMSG_DATA(c) + (size_t)i * sizeof(int), sizeof(int));
			if (i < maxfds)
				fds[i] = fd;
			else
				close(fd);
		}
	}
	if ((size_t)n < offsetof(struct msg, strings)) {
		errno = EPROTO;
		return -1;
	}
	return 0;
}

/* Packs c into RUN. */
int sbx_pack_run(struct msg *m, const struct run_child *c)
{
	size_t off = 0;
	int i;

#define PUT(str) do { size_t l_ = strlen(str) + 1; \
	if (off + l_ > STRINGS) return -1; \
	memcpy(m->strings + off, (str), l_); off += l_; } while (0)
	memset(m, 0, offsetof(struct msg, strings));
	m->type = M_RUN;
	m->lim = c->lim;
	m->uid = c->uid;
	m->gid = c->gid;
	m->has_dir = c->dir != NULL;
	m->bind_dir = c->bind_dir;
	PUT(c->argv[0]);
	PUT(c->dir ? c->dir : "");
	for (i = 0; c->argv[i]; i++) {
		if (i >= MAX_ARGS - 1)
			return -1;
		PUT(c->argv[i]);
	}
	m->argc = i;
	for (i = 0; c->env && c->env[i]; i++) {
		if (i >= MAX_ARGS - 1)
			return -1;
		PUT(c->env[i]);
	}
	m->envc = i;
#undef PUT
	m->strings_len = off;
	return 0;
}

/* Unpacks RUN into c (pointers into m->strings). */
int sbx_unpack_run(struct msg *m, struct run_child *c, const char **argv,
		      const char **env)
{
	const char *p = m->strings, *end = m->strings + m->strings_len;
	const char *path, *dir;
	int i;

	if (m->argc < 1 || m->argc >= MAX_ARGS || m->envc < 0 || m->envc >= MAX_ARGS ||
	    m->strings_len > STRINGS || (m->strings_len && end[-1]))
		return -1;
	path = p;
	p += strlen(p) + 1;
	dir = p;
	p += strlen(p) + 1;
	for (i = 0; i < m->argc + m->envc; i++) {
		if (p >= end)
			return -1;
		if (i < m->argc)
			argv[i] = p;
		else
			env[i - m->argc] = p;
		p += strlen(p) + 1;
	}
	argv[0] = path;
	argv[m->argc] = NULL;
	env[m->envc] = NULL;
	c->argv = argv;
	c->env = m->envc ? env : NULL;
	c->dir = m->has_dir ? dir : NULL;
	c->lim = m->lim;
	c->uid = m->uid;
	c->gid = m->gid;
	c->bind_dir = m->bind_dir;
	return 0;
}
