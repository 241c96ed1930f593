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
 * What. After each run (every process of the uid is dead by then), each
 * root is walked whole: every entry the uid owns is removed (a folder with
 * all it holds, whoever owns that: another slot's uid may have planted a
 * folder in it and then lost the right to search it); other folders the
 * uid cannot search are not entered (it could not have written below
 * them). A folder of another uid inside the uid's that must move up
 * (below) is first given to the uid. Everything goes through descriptors opened
 * with O_NOFOLLOW from the root down, never a path: other users (another
 * slot's program) may rename entries meanwhile. A chain of folders deeper
 * than SWEEP_FDS is moved up to its root and swept from there, so its
 * depth costs no descriptors.
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
/* Entries visited per run at most: a bound on the work, never reached by
 * a machine's own /tmp; past it the rest waits for the next run. */
#define SWEEP_BUDGET 1000000L

struct sweep_root {
	int fd;
	dev_t dev;
	ino_t ino;
};

static struct sweep_root roots[SBX_SWEEP_ROOTS];
static int nroots = -1;
static dev_t skip_dev;          /* the scratch tree's folder */
static ino_t skip_ino;
static unsigned long moved;     /* names given to moved-up chains */
static int again;               /* one was moved: another pass */

static int is_skipped(const struct stat *st)
{
	return st->st_dev == skip_dev && st->st_ino == skip_ino;
}

/* Depth-first over the folders below fd (depth levels below "/"). */
static void find_roots(int fd, int depth)
{
	int dup_fd = dup(fd);
	DIR *d = dup_fd < 0 ? NULL : fdopendir(dup_fd);
	struct dirent *e;
	struct stat st;

	if (!d) {
		if (dup_fd >= 0)
			close(dup_fd);
		return;
	}
	while ((e = readdir(d)) && nroots < SBX_SWEEP_ROOTS) {
		if (e->d_name[0] == '.' && (!e->d_name[1] ||
		    (e->d_name[1] == '.' && !e->d_name[2])))
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

void sbx_sweep_init(const char *scratch)
{
	struct stat st;
	int top = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	nroots = 0;
	if (scratch && stat(scratch, &st) == 0) {
		skip_dev = st.st_dev;
		skip_ino = st.st_ino;
	}
	if (top >= 0) {
		find_roots(top, 0);
		close(top);
	}
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

/* May the uid have written below this folder? It needs search rights. */
static int searchable_by(const struct stat *st, uid_t uid)
{
	return st->st_uid == uid || (st->st_mode & S_IXOTH);
}

static void sweep_at(int fd, int root, uid_t uid, int all, int depth,
		     long *budget);

/* A folder of the uid's (or any folder below one: all), name below fd:
 * emptied of whatever it holds, then removed. Everything below a folder of
 * the uid's got there with its leave: a peer slot's program may plant a
 * folder in it, which that peer's sweep cannot reach once the uid closed
 * this one (tests/helpers/sb_sweeprace.c), so all of it goes. The folder
 * is opened once, without following a link, and checked to be the uid's:
 * the other slot's program may swap the name for a symlink meanwhile, and
 * anything done by name (a chmod, as before) would follow it to a host
 * file. Root needs no mode to open, search or empty a folder. */
static void remove_dir(int fd, const char *name, int root, uid_t uid,
		       int all, int depth, long *budget)
{
	struct stat st;
	int sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (sub < 0)
		return;
	if (fstat(sub, &st) == 0 && (all || st.st_uid == uid))
		sweep_at(sub, root, uid, 1, depth + 1, budget);
	close(sub);
	unlinkat(fd, name, AT_REMOVEDIR);
}

/* Too deep for another descriptor: the uid's folder moves up to the root
 * under a name of ours, to be swept by the next pass (sbx_sweep). */
static void move_up(int fd, const char *name, int root)
{
	char to[64];

	for (int tries = 0; tries < 16; tries++) {
		snprintf(to, sizeof(to), ".wg-sweep-%ld-%lu", (long)getpid(), moved++);
		if (renameat(fd, name, root, to) == 0) {
			again = 1;
			return;
		}
		if (errno != EEXIST && errno != ENOTEMPTY)
			return;
	}
}

/* all: fd is (below) a folder of the uid's, whose every entry goes. */
static void sweep_at(int fd, int root, uid_t uid, int all, int depth,
		     long *budget)
{
	int dup_fd = dup(fd);
	DIR *d = dup_fd < 0 ? NULL : fdopendir(dup_fd);
	struct dirent *e;
	struct stat st;

	if (!d) {
		if (dup_fd >= 0)
			close(dup_fd);
		return;
	}
	/* The duplicate shares fd's offset, at the end after the last pass. */
	rewinddir(d);
	while ((e = readdir(d)) && --*budget > 0) {
		if (e->d_name[0] == '.' && (!e->d_name[1] ||
		    (e->d_name[1] == '.' && !e->d_name[2])))
			continue;
		if (fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    is_skipped(&st))
			continue;
		int ours = all || st.st_uid == uid;

		if (!S_ISDIR(st.st_mode)) {
			if (ours)
				unlinkat(fd, e->d_name, 0);
			continue;
		}
		/* A moved-up folder is swept as the uid's: it must be its. */
		if (ours && depth >= SWEEP_FDS &&
		    (st.st_uid == uid ||
		     fchownat(fd, e->d_name, uid, (gid_t)-1, AT_SYMLINK_NOFOLLOW) == 0))
			move_up(fd, e->d_name, root);
		else if (ours)
			remove_dir(fd, e->d_name, root, uid, all, depth, budget);
		else if (searchable_by(&st, uid) && depth < SWEEP_FDS) {
			int sub = openat(fd, e->d_name, O_RDONLY | O_DIRECTORY |
					 O_NOFOLLOW | O_CLOEXEC);
			if (sub >= 0) {
				sweep_at(sub, root, uid, 0, depth + 1, budget);
				close(sub);
			}
		}
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
		for (int i = 0; i < nroots; i++)
			sweep_at(roots[i].fd, roots[i].fd, uid, 0, 0, &budget);
	} while (again && budget > 0);
}
