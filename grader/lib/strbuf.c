/* strbuf: see strbuf.h. */
#include "grader/lib/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void strbuf_init(struct strbuf *sb)
{
	*sb = (struct strbuf)STRBUF_INIT;
}

int strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t want;
	char *p;

	if (sb->failed)
		return -1;
	if (extra > SIZE_MAX - sb->len - 1) {
		sb->failed = 1;
		errno = ENOMEM;
		return -1;
	}
	want = sb->len + extra + 1;
	if (want <= sb->alloc)
		return 0;
	if (want < 64)
		want = 64;
	if (want < sb->alloc / 2 * 3 && sb->alloc / 2 * 3 > sb->alloc)
		want = sb->alloc / 2 * 3;
	if (!(p = realloc(sb->buf, want))) {
		sb->failed = 1;
		return -1;
	}
	if (!sb->buf)
		p[0] = '\0';
	sb->buf = p;
	sb->alloc = want;
	return 0;
}

int strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	if (strbuf_grow(sb, len) < 0)
		return -1;
	if (len)
		memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
	return 0;
}

int strbuf_addstr(struct strbuf *sb, const char *s)
{
	return strbuf_add(sb, s, strlen(s));
}

int strbuf_addch(struct strbuf *sb, int c)
{
	char ch = (char)c;

	return strbuf_add(sb, &ch, 1);
}

int strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	if (strbuf_grow(sb, 64) < 0)
		return -1;
	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, cp);
	va_end(cp);
	if (n < 0) {
		sb->buf[sb->len] = '\0';
		return -1;
	}
	if ((size_t)n >= sb->alloc - sb->len) {
		if (strbuf_grow(sb, (size_t)n) < 0) {
			sb->buf[sb->len] = '\0';
			return -1;
		}
		vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	}
	sb->len += (size_t)n;
	return 0;
}

int strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
	return rc;
}

int strbuf_read_fd(struct strbuf *sb, int fd, size_t max)
{
	size_t start = sb->len;

	for (;;) {
		ssize_t n;

		if (strbuf_grow(sb, 8192) < 0) {
			errno = ENOMEM;
			return -1;
		}
		n = read(fd, sb->buf + sb->len, sb->alloc - sb->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			return 0;
		sb->len += (size_t)n;
		sb->buf[sb->len] = '\0';
		if (sb->len - start > max) {
			errno = EFBIG;
			return -1;
		}
	}
}

int strbuf_read_file(struct strbuf *sb, const char *path, size_t max)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc, e;

	if (fd < 0)
		return -1;
	rc = strbuf_read_fd(sb, fd, max);
	e = errno;
	close(fd);
	errno = e;
	return rc;
}

void strbuf_reset(struct strbuf *sb)
{
	strbuf_setlen(sb, 0);
	sb->failed = 0;
}

void strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (sb->buf && len <= sb->len) {
		sb->len = len;
		sb->buf[len] = '\0';
	}
}

void strbuf_release(struct strbuf *sb)
{
	free(sb->buf);
	strbuf_init(sb);
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *p;

	if (sb->failed) {
		strbuf_release(sb);
		return NULL;
	}
	p = sb->buf ? sb->buf : strdup("");
	if (len)
		*len = sb->len;
	strbuf_init(sb);
	return p;
}

const char *strbuf_str(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}
