/* sim_spool: see sim_spool.h. */
#include "grader/similarity/sim_spool.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grader/lib/strbuf.h"
#include "grader/lib/util.h"

/* In sp->dir, else (not given, or not made yet) in $TMPDIR or /tmp. */
static int spool_open(struct sim_spool *sp, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	int fd = wg_open_unlinked(sp->dir, ".sim-spool", &path);

	if (fd < 0)
		strbuf_addf(err, "cannot make the similarity spool '%s': %s",
			    path.len ? path.buf : ".sim-spool", strerror(errno));
	strbuf_release(&path);
	if (fd < 0)
		return -1;
	sp->fd = fd;
	sp->open = 1;
	sp->len = 0;
	return 0;
}

int sim_spool_put(struct sim_spool *sp, const void *data, size_t len,
		  uint64_t *off, struct strbuf *err)
{
	const char *p = data;
	size_t done = 0;

	if (!sp->open && spool_open(sp, err) < 0)
		return -1;
	while (done < len) {
		ssize_t n = pwrite(sp->fd, p + done, len - done,
				   (off_t)(sp->len + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			strbuf_addf(err, "cannot write the similarity spool: %s",
				    n < 0 ? strerror(errno) : "no space");
			return -1;
		}
		done += (size_t)n;
	}
	*off = sp->len;
	sp->len += len;
	return 0;
}

int sim_spool_get(const struct sim_spool *sp, uint64_t off, void *buf,
		  size_t len, struct strbuf *err)
{
	char *p = buf;
	size_t done = 0;

	while (done < len) {
		ssize_t n = sp->open ? pread(sp->fd, p + done, len - done,
					     (off_t)(off + done)) : 0;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			strbuf_addf(err, "cannot read the similarity spool: %s",
				    n < 0 ? strerror(errno) : "cut short");
			return -1;
		}
		done += (size_t)n;
	}
	return 0;
}

void sim_spool_close(struct sim_spool *sp)
{
	if (sp->open)
		close(sp->fd);
	sp->open = 0;
	sp->fd = -1;
	sp->len = 0;
}
