/*
 * outfile: private report files, written through a new temporary file and
 * a rename, in folders no sandboxed program can write (see outfile.h).
 */
#include "grader/report/outfile.h"

#include "grader/lib/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#define TMP_TRIES 16

static uid_t sandbox_lo, sandbox_hi;

void outfile_set_sandbox_ids(uid_t lo, uid_t hi)
{
	sandbox_lo = lo;
	sandbox_hi = hi;
}

static int in_sandbox(unsigned id)
{
	return id >= sandbox_lo && id < sandbox_hi;
}

/* Whether a sandbox uid could create, rename or remove entries of st. */
static int sandbox_writable(const struct stat *st)
{
	return (st->st_mode & S_IWOTH) ||
	       ((st->st_mode & S_IWUSR) && in_sandbox(st->st_uid)) ||
	       ((st->st_mode & S_IWGRP) && in_sandbox(st->st_gid));
}

static int ours(uid_t uid)
{
	return uid == 0 || uid == geteuid();
}

/* dir, absolute: "." and relative names get the working directory. The
 * caller frees it. */
static char *absolute(const char *dir)
{
	char cwd[PATH_MAX];
	char *p;

	if (dir[0] == '/')
		return strdup(dir);
	if (!getcwd(cwd, sizeof(cwd)) || asprintf(&p, "%s/%s", cwd, dir) < 0)
		return NULL;
	return p;
}

/* Walks the absolute path dir from "/": every entry on the way must sit in
 * a folder the sandbox cannot write, or in a sticky one and belong to root
 * or the grader; and dir itself must not be writable unless sticky. */
static int check_chain(const char *dir, const char *shown, struct strbuf *err)
{
	char *p = strdup(dir);
	struct stat parent, entry;
	int rc = -1;

	if (!p || stat("/", &parent) < 0)
		goto sys;
	for (char *s = p + 1; *s;) {
		char *slash = strchr(s, '/'), saved = 0;

		if (slash)
			saved = *slash, *slash = '\0';
		if (*s && lstat(p, &entry) < 0)
			goto sys;
		if (*s && sandbox_writable(&parent) &&
		    (!(parent.st_mode & S_ISVTX) || !ours(entry.st_uid))) {
			strbuf_addf(err, "report folder '%s' refused: '%s' "
				    "lies in a folder the sandboxed programs can "
				    "write, so they could replace it", shown, p);
			goto out;
		}
		if (*s && stat(p, &parent) < 0)
			goto sys;
		if (!slash)
			break;
		*slash = saved;
		s = slash + 1;
	}
	if (!S_ISDIR(parent.st_mode)) {
		strbuf_addf(err, "report folder '%s' is not a folder", shown);
		goto out;
	}
	if (sandbox_writable(&parent) && !(parent.st_mode & S_ISVTX)) {
		strbuf_addf(err, "report folder '%s' refused: the sandboxed "
			    "programs can write it (mode %04o, not sticky); use a "
			    "folder only you can write", shown,
			    (unsigned)(parent.st_mode & 07777));
		goto out;
	}
	rc = 0;
	goto out;
sys:
	strbuf_addf(err, "cannot use report folder '%s': %s", shown,
		    strerror(errno));
out:
	free(p);
	return rc;
}

int outfile_check_dir(const char *dir, struct strbuf *err)
{
	char *abs, *real;
	int rc;

	if (geteuid() != 0)
		return 0;
	abs = absolute(dir);
	real = realpath(dir, NULL);
	if (!abs || !real) {
		strbuf_addf(err, "cannot use report folder '%s': %s", dir,
			    strerror(errno));
		rc = -1;
	} else {
		/* As given (a link planted on the way) and as resolved. */
		rc = check_chain(abs, dir, err);
		if (rc == 0)
			rc = check_chain(real, dir, err);
	}
	free(abs);
	free(real);
	return rc;
}

/* The folder of path ("." when none) and its last name, malloc'd. */
static int split(const char *path, char **dir, char **base)
{
	const char *slash = strrchr(path, '/');

	*dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path))
		     : strdup(".");
	*base = strdup(slash ? slash + 1 : path);
	return *dir && *base && **base ? 0 : -1;
}

int outfile_check(const char *path, struct strbuf *err)
{
	char *dir, *base;
	int rc;

	if (split(path, &dir, &base) < 0) {
		strbuf_addf(err, "cannot write '%s': not a file name", path);
		rc = -1;
	} else {
		rc = outfile_check_dir(dir, err);
	}
	/* The file is renamed over the name: a device there (--json
	 * /dev/null as root) would be replaced by a regular file, a FIFO
	 * or a folder would not be what the user meant. A link is replaced,
	 * never followed, as ever. */
	if (rc == 0) {
		struct stat st;

		if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
			strbuf_addf(err, "cannot write '%s': it is %s, not a file (grade "
				    "writes a new file and renames it there; '-' is standard "
				    "output)", path, S_ISDIR(st.st_mode) ? "a folder"
				    : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
				    : "a FIFO or socket");
			rc = -1;
		}
	}
	free(dir);
	free(base);
	return rc;
}

/* A new 0600 file in dfd with a random name (tmp, 32 bytes). */
static int new_temp(int dfd, char tmp[32])
{
	for (int i = 0; i < TMP_TRIES; i++) {
		unsigned char r[6];

		if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
			return -1;
		snprintf(tmp, 32, ".wg-%02x%02x%02x%02x%02x%02x.tmp", r[0], r[1],
			 r[2], r[3], r[4], r[5]);
		int fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
}

/* Opens path's folder (checked) and makes a temporary file in it. */
static int begin(const char *path, int *dfd, char tmp[32], char **base,
		 struct strbuf *err)
{
	char *dir = NULL;
	int fd = -1;

	*dfd = -1;
	*base = NULL;
	if (outfile_check(path, err) < 0)
		return -1;
	if (split(path, &dir, base) < 0)
		errno = ENOMEM;
	else if ((*dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0)
		fd = new_temp(*dfd, tmp);
	if (fd < 0)
		strbuf_addf(err, "cannot create a file in the folder of '%s': %s",
			    path, strerror(errno));
	free(dir);
	return fd;
}

static int finish(int dfd, const char *tmp, const char *base, const char *path,
		  struct strbuf *err)
{
	if (renameat(dfd, tmp, dfd, base) < 0) {
		strbuf_addf(err, "cannot rename a temporary file to '%s': %s",
			    path, strerror(errno));
		unlinkat(dfd, tmp, 0);
		return -1;
	}
	fsync(dfd);     /* the rename itself, best effort */
	return 0;
}

int outfile_write(const char *path, int (*fill)(FILE *, const void *),
		  const void *arg, struct strbuf *err)
{
	char tmp[32], *base;
	int dfd, rc = -1;
	int fd = begin(path, &dfd, tmp, &base, err);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (fd >= 0 && !f) {
		strbuf_addf(err, "cannot write '%s': %s", path, strerror(errno));
		close(fd);
	}
	if (f) {
		int bad = fill(f, arg) != 0 || fflush(f) != 0 || ferror(f) ||
			  fsync(fileno(f)) != 0;
		int saved = errno;

		if (fclose(f) != 0 && !bad)
			bad = 1, saved = errno;
		if (bad) {
			strbuf_addf(err, "cannot write '%s': %s", path,
				    strerror(saved));
			unlinkat(dfd, tmp, 0);
		} else {
			rc = finish(dfd, tmp, base, path, err);
		}
	}
	if (dfd >= 0)
		close(dfd);
	free(base);
	return rc;
}

int outfile_open_new(const char *path, struct strbuf *err)
{
	char tmp[32], *base;
	int dfd;
	int fd = begin(path, &dfd, tmp, &base, err);

	if (fd >= 0 && finish(dfd, tmp, base, path, err) < 0) {
		close(fd);
		fd = -1;
	}
	if (dfd >= 0)
		close(dfd);
	free(base);
	return fd;
}

int outfile_private_dir(const char *dir, struct strbuf *err)
{
	struct stat st;
	int fd;

	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		goto sys;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		if (fd >= 0)
			close(fd);
		goto sys;
	}
	if (st.st_uid != geteuid()) {
		strbuf_addf(err, "folder '%s' belongs to uid %u, not to the "
			    "grader (uid %u)", dir, (unsigned)st.st_uid,
			    (unsigned)geteuid());
		close(fd);
		return -1;
	}
	/* An earlier version's folder (0755) is closed too. */
	if ((st.st_mode & 07777) != 0700 && fchmod(fd, 0700) < 0) {
		close(fd);
		goto sys;
	}
	close(fd);
	return 0;
sys:
	{
		int saved = errno;
		strbuf_addf(err, "cannot create '%s': %s", dir,
			    lstat(dir, &st) == 0 && S_ISLNK(st.st_mode)
			    ? "it is a symbolic link" : strerror(saved));
	}
	return -1;
}
