/*
 * scratch: temporary tree, slot identities, file helpers (see scratch.h).
 */
#include "grader/run/scratch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "grader/lib/strbuf.h"
#include "grader/run/runner.h"
#include "grader/run/sandbox.h"

/* ---- the uid locks ---- */

/* Where the lock folder may be, best first (scratch.h). */
static int lock_dir_candidates(char (*c)[PATH_MAX])
{
	const char *xdg = getenv("XDG_RUNTIME_DIR"), *home = getenv("HOME");
	int n = 0;

	if (geteuid() == 0)
		snprintf(c[n++], PATH_MAX, "%s", SCRATCH_LOCK_DIR_ROOT);
	if (xdg && xdg[0] == '/' &&
	    snprintf(c[n], PATH_MAX, "%s/warpgrade", xdg) < PATH_MAX)
		n++;
	if (home && home[0] == '/' &&
	    snprintf(c[n], PATH_MAX, "%s/.cache/warpgrade", home) < PATH_MAX)
		n++;
	return n;
}

/* 1 when path is a folder of ours that no one else may touch. */
static int lock_dir_safe(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISDIR(st.st_mode) &&
	       st.st_uid == geteuid() && !(st.st_mode & 077);
}

static char lock_dir_path[PATH_MAX];

const char *scratch_lock_dir(void)
{
	char c[3][PATH_MAX];
	int n;

	if (lock_dir_path[0])
		return lock_dir_path;
	n = lock_dir_candidates(c);
	for (int i = 0; i < n; i++)
		if (lock_dir_safe(c[i])) {
			memcpy(lock_dir_path, c[i], sizeof(lock_dir_path));
			return lock_dir_path;
		}
	return NULL;
}

/* The lock folder, made (or found) private and ours, never through a
 * symbolic link: the first candidate where that works. */
static const char *lock_dir(struct strbuf *err)
{
	char c[3][PATH_MAX];
	int n = lock_dir_candidates(c);

	if (scratch_lock_dir())
		return lock_dir_path;
	for (int i = 0; i < n; i++) {
		/* $HOME/.cache may not exist yet: its parent only. */
		if (strstr(c[i], "/.cache/warpgrade")) {
			char parent[PATH_MAX];
			memcpy(parent, c[i], sizeof(parent));
			*strrchr(parent, '/') = '\0';
			mkdir(parent, 0700);
		}
		if (mkdir(c[i], 0700) < 0 && errno != EEXIST)
			continue;
		if (lock_dir_safe(c[i]))
			return scratch_lock_dir();
		strbuf_addf(err, "unsafe uid lock folder '%s' (must be a folder of "
			    "uid %u, mode 0700)", c[i], (unsigned)geteuid());
		return NULL;
	}
	strbuf_addf(err, "cannot create a uid lock folder (%s%s%s): %s",
		    n ? c[0] : "no $HOME", n > 1 ? ", " : "", n > 1 ? c[n - 1] : "",
		    strerror(errno));
	return NULL;
}

/* Opens and locks dir/UID.lock when no one holds it: the descriptor, or -1
 * (held by a live grade, or an error with errno). The file a holder
 * removes on release may be the one just locked: the lock counts only
 * while the path still names the locked file. */
static int lock_uid(const char *dir, uid_t uid)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/%u.lock", dir, (unsigned)uid);
	for (int tries = 0; tries < 8; tries++) {
		struct stat a, b;
		int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);

		if (fd < 0)
			return -1;
		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			close(fd);
			errno = EWOULDBLOCK;
			return -1;
		}
		if (fstat(fd, &a) == 0 && lstat(path, &b) == 0 &&
		    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
			return fd;
		close(fd);      /* removed meanwhile: try the new one */
	}
	errno = EWOULDBLOCK;
	return -1;
}

/* Lets go of a uid: the file goes first, while still locked, so no lock
 * file is left behind by a grade that ended normally. Emptied before:
 * on ext4 the last close of an unlinked file that still holds data costs
 * ~0.2 ms more (measured: 253 against 36 us), once per grade process. */
static void unlock_uid(uid_t uid, int fd)
{
	char path[PATH_MAX + 32];

	if (fd < 0)
		return;
	if (ftruncate(fd, 0) < 0)
		errno = 0;      /* only slower */
	if (scratch_lock_dir()) {
		snprintf(path, sizeof(path), "%s/%u.lock", lock_dir_path, (unsigned)uid);
		unlink(path);
	}
	close(fd);
}

/* Claims nslots free uids; see scratch.h. */
static int claim_uids(struct scratch *s, struct strbuf *err)
{
	const char *dir;
	int got = 0;

	s->uids = calloc((size_t)s->nslots, sizeof(*s->uids));
	s->lock_fds = malloc((size_t)s->nslots * sizeof(*s->lock_fds));
	if (!s->uids || !s->lock_fds) {
		strbuf_addstr(err, "out of memory");
		return -1;
	}
	for (int i = 0; i < s->nslots; i++)
		s->lock_fds[i] = -1;
	if (!(dir = lock_dir(err)))
		return -1;
	for (int k = 0; k < SCRATCH_UID_RANGE && got < s->nslots; k++) {
		uid_t uid = run_slot_uid(k);
		int fd = lock_uid(dir, uid);

		if (fd < 0 && errno == EWOULDBLOCK)
			continue;
		if (fd < 0) {
			strbuf_addf(err, "cannot open '%s/%u.lock': %s", dir,
				    (unsigned)uid, strerror(errno));
			return -1;
		}
		/* The holder's pid, so that grade --batch can find the uids
		 * of a grade it had to kill (never to tell whether it
		 * lives: that is the lock's). */
		char pid[24];
		int len = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
		if (ftruncate(fd, 0) < 0 || write(fd, pid, (size_t)len) != len) {
			strbuf_addf(err, "cannot write '%s/%u.lock': %s", dir,
				    (unsigned)uid, strerror(errno));
			unlock_uid(uid, fd);
			return -1;
		}
		s->uids[got] = uid;
		s->lock_fds[got++] = fd;
	}
	if (got < s->nslots) {
		strbuf_addf(err, "no free slot uid: %d grade processes hold "
			    "all of uids %u-%u", SCRATCH_UID_RANGE, (unsigned)run_slot_uid(0),
			    (unsigned)run_slot_uid(SCRATCH_UID_RANGE - 1));
		return -1;
	}
	return 0;
}

int scratch_uid_held(uid_t uid)
{
	const char *dir = scratch_lock_dir();
	char path[PATH_MAX + 32];
	int fd, held;

	if (!dir)
		return 0;
	snprintf(path, sizeof(path), "%s/%u.lock", dir, (unsigned)uid);
	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return 0;
	held = flock(fd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK;
	close(fd);
	return held;
}

/* ---- trees of dead graders ---- */

/* BASE/.owner: this grader's pid, locked until it exits (however). */
static int claim_owner(struct scratch *s)
{
	char path[4200], pid[24];
	int len = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());

	snprintf(path, sizeof(path), "%s/.owner", s->base);
	s->owner_fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW |
			   O_CLOEXEC, 0600);
	if (s->owner_fd < 0 || flock(s->owner_fd, LOCK_EX) < 0 ||
	    write(s->owner_fd, pid, (size_t)len) != len)
		return -1;
	return 0;
}

/* Kills every process of uid from a helper that takes the uid. */
static void kill_uid(uid_t uid)
{
	pid_t pid = fork();

	if (pid == 0) {
		if (setgroups(0, NULL) == 0 && setgid((gid_t)uid) == 0 &&
		    setuid(uid) == 0)
			kill(-1, SIGKILL);
		_exit(0);
	}
	while (pid > 0 && waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

/* As root: kills what runs under the slot uids owning the entries of the
 * dead tree at fd, each while holding that uid's lock (held on in locks,
 * n of them, until the tree is gone; uids[] says whose). -1 when a live
 * grader holds one. */
static int quiet_slot_uids(int fd, int *locks, uid_t *uids, int *n, int max)
{
	int dup_fd = dup(fd);
	DIR *d = dup_fd < 0 ? NULL : fdopendir(dup_fd);
	struct dirent *e;
	struct stat st;
	int rc = 0;

	if (!d) {
		if (dup_fd >= 0)
			close(dup_fd);
		return -1;
	}
	while (rc == 0 && (e = readdir(d))) {
		if (e->d_name[0] == '.' ||
		    fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    st.st_uid == 0 || st.st_uid == geteuid())
			continue;
		int seen = 0;
		for (int i = 0; i < *n && !seen; i++)
			seen = uids[i] == st.st_uid;   /* slot-S and build-N */
		if (seen)
			continue;
		const char *dir = scratch_lock_dir();
		int lk = dir ? lock_uid(dir, st.st_uid) : -1;
		if (lk < 0 && errno == EWOULDBLOCK) {
			rc = -1;        /* a live grader holds it */
		} else if (*n < max) {
			kill_uid(st.st_uid);
			uids[*n] = st.st_uid;
			locks[(*n)++] = lk;
		} else {
			unlock_uid(st.st_uid, lk);
			rc = -1;
		}
	}
	closedir(d);
	return rc;
}

/* Removes tmp/NAME when it is a scratch tree of ours whose owner is gone. */
static void sweep_one(const char *tmp, const char *name)
{
	char path[4200], owner[4300];
	int locks[64], nlocks = 0;
	uid_t uids[64];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", tmp, name);
	snprintf(owner, sizeof(owner), "%s/.owner", path);
	if (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
		return;
	int ofd = open(owner, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (ofd < 0)
		return;         /* not ours, or a grader still setting up */
	/* Unlocked and naming a pid: its grader is gone (the kernel drops the
	 * lock however a process ends, and a zombie holds none). The grader
	 * flocks .owner before it writes its pid, so an empty file is one
	 * being set up. */
	char buf[24];
	ssize_t n = flock(ofd, LOCK_EX | LOCK_NB) == 0
		    ? pread(ofd, buf, sizeof(buf) - 1, 0) : -1;
	buf[n > 0 ? n : 0] = '\0';
	if (n > 0 && strtol(buf, NULL, 10) > 0) {
		int dfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (dfd >= 0 && (geteuid() != 0 ||
				 quiet_slot_uids(dfd, locks, uids, &nlocks, 64) == 0))
			scratch_remove_tree(path);
		if (dfd >= 0)
			close(dfd);
		for (int i = 0; i < nlocks; i++)
			unlock_uid(uids[i], locks[i]);
	}
	close(ofd);
}

/* Every grade.* tree in tmp left by a grader that is gone. */
static void sweep_stale(const char *tmp)
{
	DIR *d = opendir(tmp);
	struct dirent *e;

	while (d && (e = readdir(d)))
		if (!strncmp(e->d_name, "grade.", 6))
			sweep_one(tmp, e->d_name);
	if (d)
		closedir(d);
}

int scratch_init(struct scratch *s, int nslots, struct strbuf *err)
{
	const char *tmp = getenv("TMPDIR");
	char path[4096], bin[4200];

	memset(s, 0, sizeof(*s));
	s->owner_fd = -1;
	s->as_root = geteuid() == 0;
	sweep_stale(tmp && *tmp ? tmp : "/tmp");
	s->nslots = nslots;
	if (s->as_root && claim_uids(s, err) < 0) {
		scratch_cleanup(s);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/grade.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(path)) {
		strbuf_addf(err, "cannot create a temporary directory in '%s': %s",
			    tmp && *tmp ? tmp : "/tmp", strerror(errno));
		scratch_cleanup(s);
		return -1;
	}
	s->base = realpath(path, NULL);   /* the sandbox compares paths */
	snprintf(bin, sizeof(bin), "%s/bin", path);
	if (!s->base || chmod(path, 0711) < 0 || mkdir(bin, 0711) < 0 ||
	    chmod(bin, 0711) < 0 || claim_owner(s) < 0) {
		strbuf_addf(err, "cannot set up '%s': %s", path, strerror(errno));
		/* What was made here, removed by name: no descriptor needed
		 * (the failure may be that none is left, EMFILE). */
		snprintf(bin, sizeof(bin), "%s/.owner", path);
		unlink(bin);
		snprintf(bin, sizeof(bin), "%s/bin", path);
		rmdir(bin);
		rmdir(path);
		scratch_cleanup(s);
		return -1;
	}
	return 0;
}

int scratch_remove_base(const struct scratch *s)
{
	return s->base ? scratch_remove_tree(s->base) : 0;
}

void scratch_cleanup(struct scratch *s)
{
	int left = s->base && access(s->base, F_OK) == 0 &&
		   scratch_remove_tree(s->base) < 0 && errno == EMFILE;

	if (s->owner_fd >= 0)
		close(s->owner_fd);
	s->owner_fd = -1;
	for (int i = 0; s->lock_fds && i < s->nslots; i++)
		unlock_uid(s->uids[i], s->lock_fds[i]);
	/* Out of descriptors (grade stopped by that very want): again, with
	 * the lock files' closed. A grade that stops here leaves nothing
	 * running, and another's sweep of the same tree only races to
	 * remove what this removes. */
	if (left)
		scratch_remove_tree(s->base);
	free(s->base);
	s->base = NULL;
	free(s->lock_fds);
	free(s->uids);
	s->lock_fds = NULL;
	s->uids = NULL;
}

void scratch_slot_ids(const struct scratch *s, int slot, uid_t *uid, gid_t *gid)
{
	int ok = s->as_root && s->uids && slot >= 0 && slot < s->nslots;

	*uid = ok ? s->uids[slot] : (uid_t)-1;
	*gid = ok ? (gid_t)s->uids[slot] : (gid_t)-1;
}

static int remove_contents(int top);

int scratch_fresh_dir(const struct scratch *s, const char *name, int slot,
		      struct strbuf *dir, struct strbuf *err)
{
	const char *path;
	uid_t uid;
	gid_t gid;

	strbuf_reset(dir);
	if (strbuf_addf(dir, "%s/%s", s->base, name) < 0) {
		strbuf_addstr(err, "out of memory");
		return -1;
	}
	path = dir->buf;
	scratch_slot_ids(s, slot, &uid, &gid);
	/* Fast path, once per case: the directory is there from the slot's last
	 * case; empty it and restore its mode (the child owned it and may have
	 * changed it). */
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0 && fchmod(fd, 0700) < 0) {
		close(fd);
		fd = -1;
	}
	if (fd >= 0 && remove_contents(fd) == 0)   /* closes fd */
		return 0;
	if (scratch_remove_tree(path) < 0 && errno != ENOENT) {
		strbuf_addf(err, "cannot empty '%s': %s", path, strerror(errno));
		return -1;
	}
	if (mkdir(path, 0700) < 0 ||
	    (uid != (uid_t)-1 && chown(path, uid, gid) < 0)) {
		strbuf_addf(err, "cannot create '%s': %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int scratch_copy_fd(int in, const char *dst, mode_t mode)
{
	char buf[65536];
	int out, rc = -1, saved;
	ssize_t n;

	unlink(dst);
	out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (out < 0)
		return -1;
	while ((n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto out;
		for (ssize_t done = 0; done < n;) {
			ssize_t w = write(out, buf + done, (size_t)(n - done));
			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0)
				goto out;
			done += w;
		}
	}
	rc = fchmod(out, mode);
out:
	saved = errno;
	if (close(out) < 0 && rc == 0)
		rc = -1, saved = errno;
	if (rc < 0)
		unlink(dst);
	errno = saved;
	return rc;
}

int scratch_copy_file(const char *src, const char *dst, mode_t mode, int flags)
{
	int nofollow = flags & SCRATCH_COPY_SOURCE ? O_NOFOLLOW : 0;
	int in = open(src, O_RDONLY | O_CLOEXEC | O_NONBLOCK | nofollow);
	int rc, saved;
	struct stat st;

	if (in < 0)
		return -1;
	/* O_NONBLOCK above: a FIFO planted as a "file" must not hang us. */
	if (fstat(in, &st) < 0)
		saved = errno;
	else if (!S_ISREG(st.st_mode))
		saved = EINVAL;
	else if ((flags & SCRATCH_COPY_SOURCE) && st.st_size > SCRATCH_MAX_SOURCE)
		saved = EFBIG;
	else
		saved = 0;
	if (saved) {
		close(in);
		errno = saved;
		return -1;
	}
	rc = scratch_copy_fd(in, dst, mode);
	saved = errno;
	close(in);
	errno = saved;
	return rc;
}

/* A directory entry as getdents64 gives it. */
struct dent64 {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

/* What to do with the entry name of the directory open at fd: 0 it is
 * gone, 1 with *child open on it (a subdirectory that still holds
 * something, to descend into), -1 it cannot be removed. */
static int sweep_entry(int fd, const char *name, int *child)
{
	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return 0;
	if (unlinkat(fd, name, 0) == 0 || errno == ENOENT)
		return 0;
	if (unlinkat(fd, name, AT_REMOVEDIR) == 0 || errno == ENOENT)
		return 0;
	if (errno != ENOTEMPTY && errno != EEXIST)
		return -1;
	/* A child may leave a mode-000 tree behind (the open below says
	 * whether the chmod was needed and worked). */
	if (fchmodat(fd, name, 0700, 0) < 0)
		errno = 0;
	*child = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return *child < 0 ? -1 : 1;
}

/* One pass over the directory open at fd: removes every file and every
 * empty subdirectory. Returns 0 when fd is now empty, 1 with *child open on
 * a subdirectory that still holds something (to descend into), -1 on an
 * entry that cannot be removed. The entries are read from fd itself
 * (getdents64), not through a DIR on a copy of it: a grade stopped for
 * want of descriptors has one left to remove its tree with, not two. */
static int sweep(int fd, int *child)
{
	char buf[8192] __attribute__((aligned(8)));
	long n = 0;
	int rc = 0;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return -1;
	while (rc == 0 && (n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0)
		for (long off = 0; rc == 0 && off < n;) {
			const struct dent64 *e = (const void *)(buf + off);

			off += e->reclen;
			rc = sweep_entry(fd, e->name, child);
		}
	return n < 0 ? -1 : rc;
}

/* Empties the directory open at top and closes it. Depth first, but by
 * walking down into a subdirectory and back up through "..", so at most two
 * descriptors are open whatever the depth: a program's 100,000-deep chain
 * of directories must not exhaust the grader's descriptors (that would turn
 * the next cases into internal errors). Nothing can move the tree meanwhile:
 * every process of the slot is dead. */
static int remove_contents(int top)
{
	int fd = top, child = -1;
	unsigned long depth = 0;

	for (;;) {
		int r = sweep(fd, &child);

		if (r == 1) {
			close(fd);
			fd = child;
			depth++;
			continue;
		}
		if (r < 0 || depth == 0) {
			close(fd);
			return r;
		}
		int up = openat(fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		close(fd);
		if (up < 0)
			return -1;
		fd = up;
		depth--;
	}
}

int scratch_remove_tree(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return -1;
	if (!S_ISDIR(st.st_mode))
		return unlink(path);
	chmod(path, 0700);
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || remove_contents(fd) < 0)
		return -1;
	return rmdir(path);
}

char *scratch_read_file(const char *path, size_t *len)
{
	struct strbuf sb = STRBUF_INIT;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	if (strbuf_read_fd(&sb, fd, SIZE_MAX - 1) < 0 || strbuf_failed(&sb)) {
		/* Out of memory, or any read error: EIO as before. */
		int e = strbuf_failed(&sb) || errno == ENOMEM ? ENOMEM : EIO;

		close(fd);
		strbuf_release(&sb);
		errno = e;
		return NULL;
	}
	close(fd);
	return strbuf_detach(&sb, len);
}

/* A grade killed before it could clean up may leave a student's program
 * running under its sandbox uids (as root only). Those are the uids whose
 * lock files name the dead grade's pid (which only identifies them: the
 * batch that killed it saw that pid). Whether a grade lives is its lock's
 * to say, never its pid's: each uid is cleaned while its lock is held
 * here, so a uid a live grader holds (in another PID namespace too, where
 * the same number names another process) is never touched, nor one some
 * grader has claimed since. The file goes too. The killing is
 * sandbox_kill_uid's: from outside, as root, never by becoming the uid (a
 * process of that uid could stop us). */
void scratch_kill_uids_of(pid_t dead)
{
	const char *dir = geteuid() == 0 ? scratch_lock_dir() : NULL;
	DIR *d = dir ? opendir(dir) : NULL;
	struct dirent *e;
	char buf[32];

	while (d && (e = readdir(d))) {
		char *end;
		unsigned long uid = strtoul(e->d_name, &end, 10);
		if (end == e->d_name || strcmp(end, ".lock") || uid == 0)
			continue;
		int fd = lock_uid(dir, (uid_t)uid);
		if (fd < 0)
			continue;
		ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
		buf[n > 0 ? n : 0] = '\0';
		if (n > 0 && strtol(buf, NULL, 10) == (long)dead) {
			sandbox_kill_uid((uid_t)uid);
			unlock_uid((uid_t)uid, fd);
		} else {
			close(fd);
		}
	}
	if (d)
		closedir(d);
}
