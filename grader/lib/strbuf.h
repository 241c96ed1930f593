#ifndef WG_STRBUF_H
#define WG_STRBUF_H
/*
 * strbuf: the one growable byte buffer of the grader (after git's strbuf).
 *
 * A buffer that is not empty is always NUL-terminated, so sb.buf can be
 * handed to string functions; it may also hold NUL bytes of its own (len
 * counts them). STRBUF_INIT is an empty buffer that owns no memory;
 * strbuf_str() is "" for it.
 *
 * Allocation failure is sticky, in the manner of a stdio error flag: the
 * call that fails returns -1, sets sb->failed, and every later add is a
 * no-op that returns -1 too. A writer may therefore append many pieces and
 * test once, at the end (strbuf_failed), without ever crashing or losing
 * the buffer it had: the grader turns that into its own internal error,
 * never into a verdict against a student.
 *
 * Who frees: the buffer owns buf until strbuf_release (frees it) or
 * strbuf_detach (hands it to the caller, who frees it with free()).
 *
 * Errors: -1 when memory runs out, sticky (above); strbuf_read_fd and
 * strbuf_read_file: -1 and errno.
 */
#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	char *buf;       /* NULL until something is added */
	size_t len;      /* bytes in use, not counting the final NUL */
	size_t alloc;    /* bytes allocated */
	int failed;      /* an allocation failed (sticky) */
};

#define STRBUF_INIT { NULL, 0, 0, 0 }

void strbuf_init(struct strbuf *sb);
/* Room for extra more bytes (and the NUL). 0, or -1. */
int strbuf_grow(struct strbuf *sb, size_t extra);
int strbuf_add(struct strbuf *sb, const void *data, size_t len);
int strbuf_addstr(struct strbuf *sb, const char *s);
int strbuf_addch(struct strbuf *sb, int c);
int strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* Reads fd to its end, appending; more than max bytes in all is an error
 * (errno EFBIG; what was read stays). 0, or -1 with errno. */
int strbuf_read_fd(struct strbuf *sb, int fd, size_t max);
/* The same for a file by path (opened O_RDONLY|O_CLOEXEC). */
int strbuf_read_file(struct strbuf *sb, const char *path, size_t max);

/* Empty again, keeping the memory (and the failed flag cleared). */
void strbuf_reset(struct strbuf *sb);
/* Cuts to len bytes (len <= sb->len). */
void strbuf_setlen(struct strbuf *sb, size_t len);
void strbuf_release(struct strbuf *sb);
/* The bytes, to be freed by the caller (never NULL unless failed: an
 * empty buffer gives a malloc'd ""); *len if len is not NULL. The
 * buffer is empty again afterwards. */
char *strbuf_detach(struct strbuf *sb, size_t *len);
/* sb->buf, or "" when nothing was added. */
const char *strbuf_str(const struct strbuf *sb);
static inline int strbuf_failed(const struct strbuf *sb)
{
	return sb->failed;
}

#endif
