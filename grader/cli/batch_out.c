/*
 * batch_out: the batch's output folder DIR, its lock, and every file in it
 * written whole and private (outfile.h). See batch_int.h.
 */
#include "grader/cli/batch_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "grader/lib/strbuf.h"
#include "grader/lib/usage.h"
#include "grader/lib/util.h"
#include "grader/report/outfile.h"

/* Ours to the end: out of memory here is the grader's failure. */
static char *detach_or_die(struct strbuf *sb)
{
	char *p = strbuf_detach(sb, NULL);

	if (!p)
		die("out of memory");
	return p;
}

char *batch_path(const char *a, const char *b)
{
	struct strbuf sb = STRBUF_INIT;

	wg_path_join(&sb, a, b);
	return detach_or_die(&sb);
}

char *batch_out_path(const struct batch *b, const char *sub,
		     const char *name, const char *ext)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s/%s/%s%s", b->out, sub, name, ext);
	return detach_or_die(&sb);
}

/* Through a new temporary file (fn fills it), fsync and rename. */
int batch_write_file(const char *path, int (*fn)(FILE *, const void *),
		     const void *arg)
{
	struct strbuf err = STRBUF_INIT;
	int rc = 0;

	if (outfile_write(path, fn, arg, &err) < 0)
		rc = error("%s", strbuf_str(&err));
	strbuf_release(&err);
	return rc;
}

int batch_put_json(FILE *f, const void *j)
{
	return json_dumpf(j, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0 ||
	       fputc('\n', f) == EOF ? -1 : 0;
}
int batch_write_out(const struct batch *b, const char *name,
		    int (*fn)(FILE *, const void *), const void *arg)
{
	char *path = batch_path(b->out, name);
	int rc = batch_write_file(path, fn, arg);

	free(path);
	return rc;
}
/* DIR, DIR/students and DIR/logs: private (0700, even when an earlier
 * run made them 0755), and DIR in a folder no sandboxed program can
 * write (outfile.h). */
int batch_make_out_dirs(const struct batch *b)
{
	char *students = batch_path(b->out, "students"), *logs = batch_path(b->out, "logs");
	struct strbuf err = STRBUF_INIT;
	int rc = outfile_private_dir(b->out, &err) ||
		 outfile_check_dir(b->out, &err) ||
		 outfile_private_dir(students, &err) ||
		 outfile_private_dir(logs, &err);

	if (rc)
		error("%s", strbuf_str(&err));
	strbuf_release(&err);
	free(students);
	free(logs);
	return rc ? -1 : 0;
}

/* One batch per DIR: a flock on DIR/.lock for the life of the batch, the
 * file naming the holder's pid. The kernel drops the lock however the
 * batch ends, SIGKILL included, so there is no stale lock to clear. */
int batch_lock_out(struct batch *b)
{
	char *path = batch_path(b->out, ".lock"), buf[32], mine[32];
	int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	int len = snprintf(mine, sizeof mine, "%ld\n", (long)getpid());
	ssize_t n;

	if (fd < 0) {
		error("cannot open '%s': %s", path, strerror(errno));
		goto fail;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		n = errno == EWOULDBLOCK ? pread(fd, buf, sizeof buf - 1, 0) : -1;
		buf[n > 0 ? n : 0] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		if (n > 0)
			error("'%s' is in use by another batch (pid %s); "
				 "wait for it to end, or stop it", b->out, buf);
		else
			error("cannot lock '%s': %s", path, strerror(errno));
		goto fail;
	}
	if (ftruncate(fd, 0) < 0 || pwrite(fd, mine, (size_t)len, 0) != len) {
		error("cannot write '%s': %s", path, strerror(errno));
		goto fail;
	}
	free(path);
	b->lock_fd = fd;
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	free(path);
	return -1;
}
