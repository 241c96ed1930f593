/*
 * sandbox_sweep: without a private /tmp (no mount namespace), what a slot
 * uid left where it can write, removed after every run, as isolate's
 * cleanup removes what the box's uid owns.
 *
 * Where. A slot uid is a uid of its own (scratch.h): it owns nothing on
 * the host, so it can write only in world-writable folders (and in what it
 * makes there). The keeper finds them once, before the first run: every
 * world-writable folder up to SWEEP_DEPTH levels below "/" (this machine:
 * /tmp, /var/tmp, /dev/shm, /run/lock), never /proc, /sys or the scratch
 * tree (grade empties the slot's working folder itself; a build folder
 * belongs to the slot uid while grade still needs it). A world-writable
 * folder deeper than that, not inside one of these, is not swept:
 * grade --check-env lists the roots.
 *
 * What. Once, at the same time, each root is walked and every
 * world-writable folder in it that the uid can reach (every folder on the
 * way searchable by others) is kept open too (at most SWEEP_DIRS): the
 * folders where the uid can make an entry. A world-writable folder made
 * later by someone else is not among them. After each run (every process
 * of the uid is dead by then) each of those folders is read, not walked:
 * an entry the uid owns is removed, a folder with everything in it,
 * whoever owns it (only sandboxed programs can write in a slot uid's
 * folder). Everything goes through descriptors opened with O_NOFOLLOW,
 * never a path: other users (another slot's program) may rename entries
 * meanwhile. A chain of folders deeper than SWEEP_FDS is moved up under a
 * name of ours and removed by another pass, so its depth costs no
 * descriptors. Cost per run: a readdir of each folder kept (~0.1 ms here).
 *
 * Without a uid switch (not root) the programs run as the caller, whose
 * own files grade cannot tell from theirs: nothing is swept, and the
 * account says so (sandbox.c).
 */
#include "grader/run/sandbox_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SWEEP_DEPTH 3
#define SWEEP_FDS 32
#define SWEEP_DIRS 128
/* Entries looked at, at most: per run, and by the walk that finds the
 * folders; never reached by a machine's own /tmp. Past it the rest waits
 * for the next run (or is not kept). */
#define SWEEP_BUDGET 1000000L

struct sweep_root {
	int fd;
	dev_t dev;
	ino_t ino;
};

static struct sweep_root roots[SBX_SWEEP_ROOTS];
static int nroots = -1;
static int dirs[SWEEP_DIRS];    /* world-writable folders, roots first */
static int ndirs;
static dev_t skip_dev;          /* the scratch tree's folder */
static ino_t skip_ino;
static unsigned long moved;     /* names given to moved-up chains */
static int again;               /* one was moved: another pass */

/* A stream over the folder open at fd, from its start, leaving fd open:
 * a duplicate (it shares fd's offset, at the end after the last pass,
 * hence the rewind). NULL on failure. */
static DIR *dir_of(int fd)
{
	int dup_fd = dup(fd);
	DIR *d = dup_fd < 0 ? NULL : fdopendir(dup_fd);

	if (!d && dup_fd >= 0)
		close(dup_fd);
	if (d)
		rewinddir(d);
	return d;
}

static int is_skipped(const struct stat *st)
{
	return st->st_dev == skip_dev && st->st_ino == skip_ino;
}

static int is_dot(const char *name)
{
	return name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]));
}

/* Depth first over the folders below fd (depth levels below "/"). */
static void find_roots(int fd, int depth)
{
	DIR *d = dir_of(fd);
	struct dirent *e;
	struct stat st;

	if (!d)
		return;
	while ((e = readdir(d)) && nroots < SBX_SWEEP_ROOTS) {
		if (is_dot(e->d_name))
			continue;
		if (depth == 0 && (!strcmp(e->d_name, "proc") || !strcmp(e->d_name, "sys")))
			continue;
		if (fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISDIR(st.st_mode) || is_skipped(&st))
			continue;
		int sub = openat(fd, e->d_name, O_RDONLY | O_DIRECTORY |
				 O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0)
			continue;
		int dup_root = 0;
		for (int i = 0; i < nroots; i++)
			dup_root |= roots[i].dev == st.st_dev && roots[i].ino == st.st_ino;
		if ((st.st_mode & S_IWOTH) && !dup_root) {
			roots[nroots++] = (struct sweep_root){ sub, st.st_dev, st.st_ino };
			continue;
		}
		if (!dup_root && depth + 1 < SWEEP_DEPTH)
			find_roots(sub, depth + 1);
		close(sub);
	}
	closedir(d);
}

/* The world-writable folders below fd that others can reach, into dirs. */
static void find_dirs(int fd, int depth, long *budget)
{
	DIR *d = dir_of(fd);
	struct dirent *e;
	struct stat st;

	if (!d)
		return;
	while ((e = readdir(d)) && --*budget > 0 && ndirs < SWEEP_DIRS) {
		if (is_dot(e->d_name) ||
		    fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISDIR(st.st_mode) || is_skipped(&st) || !(st.st_mode & S_IXOTH))
			continue;
		int sub = openat(fd, e->d_name, O_RDONLY | O_DIRECTORY |
				 O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0)
			continue;
		if (depth + 1 < SWEEP_FDS)
			find_dirs(sub, depth + 1, budget);
		if ((st.st_mode & S_IWOTH) && ndirs < SWEEP_DIRS)
			dirs[ndirs++] = sub;
		else
			close(sub);
	}
	closedir(d);
}

void sbx_sweep_init(const char *scratch)
{
	struct stat st;
	int top = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	long budget = SWEEP_BUDGET;

	nroots = ndirs = 0;
	if (scratch && stat(scratch, &st) == 0) {
		skip_dev = st.st_dev;
		skip_ino = st.st_ino;
	}
	if (top >= 0) {
		find_roots(top, 0);
		close(top);
	}
	for (int i = 0; i < nroots; i++)
		dirs[ndirs++] = roots[i].fd;
	for (int i = 0; i < nroots; i++)
		find_dirs(roots[i].fd, 0, &budget);
}

int sbx_sweep_roots(char (*out)[PATH_MAX], int max)
{
	int n = 0;

	for (int i = 0; i < nroots && n < max; i++) {
		char link[64];
		ssize_t len;

		snprintf(link, sizeof(link), "/proc/self/fd/%d", roots[i].fd);
		len = readlink(link, out[n], PATH_MAX - 1);
		if (len > 0) {
			out[n][len] = '\0';
			n++;
		}
	}
	return n;
}

static void empty_dir(int fd, int top, int depth, long *budget);

/* Removes the folder name below fd with everything in it; owner: whose it
 * must be ((uid_t)-1: anyone's, below a folder of the uid's). It is opened
 * once, without following a link, and checked: another slot's program may
 * swap the name for a symlink meanwhile, and anything done by name (a
 * chmod, as once) would follow it to a host file (red team:
 * tests/helpers/sb_sweeprace.c). Root needs no mode to open, search or
 * empty a folder. */
static void remove_dir(int fd, const char *name, uid_t owner, int top,
		       int depth, long *budget)
{
	struct stat st;
	int sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (sub < 0)
		return;
	if (fstat(sub, &st) < 0 || (owner != (uid_t)-1 && st.st_uid != owner)) {
		close(sub);
		return;
	}
	empty_dir(sub, top, depth + 1, budget);
	close(sub);
	unlinkat(fd, name, AT_REMOVEDIR);
}

/* Too deep for another descriptor: the folder moves up to top under a
 * name of ours, to be removed by the next pass (sbx_sweep). */
static void move_up(int fd, const char *name, int top)
{
	char to[64];

	for (int tries = 0; tries < 16; tries++) {
		snprintf(to, sizeof(to), ".wg-sweep-%ld-%lu", (long)getpid(), moved++);
		if (renameat(fd, name, top, to) == 0) {
			again = 1;
			return;
		}
		if (errno != EEXIST && errno != ENOTEMPTY)
			return;
	}
}

/* Everything in the folder at fd, whoever owns it. */
static void empty_dir(int fd, int top, int depth, long *budget)
{
	DIR *d = dir_of(fd);
	struct dirent *e;
	struct stat st;

	if (!d)
		return;
	while ((e = readdir(d)) && --*budget > 0) {
		if (is_dot(e->d_name) ||
		    fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (!S_ISDIR(st.st_mode))
			unlinkat(fd, e->d_name, 0);
		else if (depth >= SWEEP_FDS)
			move_up(fd, e->d_name, top);
		else
			remove_dir(fd, e->d_name, (uid_t)-1, top, depth, budget);
	}
	closedir(d);
}

/* 1 when name is a chain this keeper moved up. */
static int ours(const char *name)
{
	char mine[32];
	int n = snprintf(mine, sizeof(mine), ".wg-sweep-%ld-", (long)getpid());

	return !strncmp(name, mine, (size_t)n);
}

/* The entries of the world-writable folder at fd that uid owns. */
static void sweep_dir(int fd, uid_t uid, long *budget)
{
	DIR *d = dir_of(fd);
	struct dirent *e;
	struct stat st;

	if (!d)
		return;
	while ((e = readdir(d)) && --*budget > 0) {
		if (is_dot(e->d_name) ||
		    fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    is_skipped(&st) || (st.st_uid != uid && !ours(e->d_name)))
			continue;
		if (S_ISDIR(st.st_mode))
			remove_dir(fd, e->d_name, st.st_uid, fd, 0, budget);
		else
			unlinkat(fd, e->d_name, 0);
	}
	closedir(d);
}

void sbx_sweep(uid_t uid)
{
	long budget = SWEEP_BUDGET;

	if (uid == (uid_t)-1 || uid == 0 || uid == geteuid())
		return;
	do {
		again = 0;
		for (int i = 0; i < ndirs; i++)
			sweep_dir(dirs[i], uid, &budget);
	} while (again && budget > 0);
}
