/*
 * sandbox_prepare: the keeper's work before each run in the private
 * areas. It checks whether the last run left anything (statfs counts and
 * the areas' ctimes), mounts them afresh if so, copies the program alone
 * (and, in the minimal root, the libraries it links) into the scratch
 * folder, read-only, and makes the working folder anew, owned by the
 * run's uid.
 */
#include "grader/run/sandbox_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "grader/lib/util.h"

/* ---- the keeper: one run ---- */

/* 1 when an area holds anything the last preparation did not leave. */
/* A file created and deleted again leaves the counts as they were, but
 * moves the root's ctime: a program could time that to pass bits to the
 * next case, so the ctime counts too. */
static int area_dirty(const struct area *a)
{
	struct statfs s;
	struct stat st;

	if (a->fd < 0 || fstatfs(a->fd, &s) < 0 || fstat(a->fd, &st) < 0)
		return 1;
	return s.f_files - s.f_ffree != a->files || s.f_blocks - s.f_bfree != a->blocks ||
	       st.st_ctim.tv_sec != a->ctime.tv_sec || st.st_ctim.tv_nsec != a->ctime.tv_nsec;
}

/* Binds rel (below the host's scratch folder, reached through base_fd) onto
 * target: a clone of that subtree (open_tree), moved into place. No path
 * through /proc: the slot's /proc is its PID namespace's, where the keeper
 * has no "self". The clone must come from the namespace base_fd was opened
 * in: the build view's (sandbox_root.c), or the only one. */
int sbx_bind_from_base(struct keeper *k, const char *rel, const char *target)
{
	int fd = (int)syscall(SYS_open_tree, k->base_fd, rel,
			      OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	int rc;

	if (fd < 0)
		return -1;
	rc = (int)syscall(SYS_move_mount, fd, "", AT_FDCWD, target,
			  MOVE_MOUNT_F_EMPTY_PATH);
	close(fd);
	return rc;
}

/* The scratch area holds the program's copy besides what a run may write:
 * its size grows by the program's, so a large program never takes the
 * run's room (nor fails to fit, which a submission would then cause). */
static int fit_program(struct keeper *k, off_t size)
{
	struct area *a = &k->areas[k->nareas - 1];
	char opts[64];

	snprintf(opts, sizeof(opts), "size=%llu",
		 (unsigned long long)(k->cfg->tmp_bytes + (uint64_t)size + (1 << 20)));
	return mount(NULL, a->path, NULL, MS_REMOUNT | MS_NOSUID | MS_NODEV | MS_NOATIME,
		     opts);
}

/* The program, copied alone into the scratch area at its own path (the
 * rest of that folder on the host stays out of sight; the copy lives in
 * memory, so no run can read its page-cache state, which another run
 * could set), with the libraries it links where the root is the minimal
 * one, in a folder that is then a read-only mount: where the program runs
 * under the keeper's own uid (a user namespace), owning that folder must
 * not let it plant anything there. 1 when it was copied, 0 when the copy
 * in place serves, -1 with errno. */
static int bind_program(struct keeper *k, const char *path)
{
	const char *src = path + strlen(k->cfg->scratch) + 1;
	char dir[PATH_MAX], *slash;
	struct stat st;
	int fd, rc;

	/* prog_at and dir hold the path whole or not at all. */
	if (strlen(path) >= sizeof(dir)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (fstatat(k->base_fd, src, &st, 0) < 0)
		return -1;
	if (!k->fresh && !strcmp(k->prog_at, path) && st.st_dev == k->prog_dev &&
	    st.st_ino == k->prog_ino && st.st_ctim.tv_sec == k->prog_ctime.tv_sec &&
	    st.st_ctim.tv_nsec == k->prog_ctime.tv_nsec)
		return 0;
	snprintf(dir, sizeof(dir), "%s", path);
	if (!(slash = strrchr(dir, '/')) || slash == dir) {
		errno = EINVAL;
		return -1;
	}
	*slash = '\0';
	if (k->bin_ro[0]) {
		umount2(k->bin_ro, MNT_DETACH);
		k->bin_ro[0] = '\0';
	}
	if (k->prog_at[0]) {
		unlink(k->prog_at);
		k->prog_at[0] = '\0';
	}
	if (sbx_mkdir_p(dir, 0711) < 0 || fit_program(k, st.st_size) < 0)
		return -1;
	if ((fd = openat(k->base_fd, src, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return -1;
	rc = sbx_copy_fd(fd, path);
	if (rc == 0 && sbx_root_libraries(k, fd) < 0)
		rc = -1;
	close(fd);
	if (rc < 0)
		return -1;
	snprintf(k->prog_at, sizeof(k->prog_at), "%s", path);
	if (mount(dir, dir, NULL, MS_BIND | MS_REC, NULL) < 0 ||
	    mount(NULL, dir, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID |
		  MS_NODEV, NULL) < 0)
		return -1;
	snprintf(k->bin_ro, sizeof(k->bin_ro), "%s", dir);
	k->prog_dev = st.st_dev;
	k->prog_ino = st.st_ino;
	k->prog_ctime = st.st_ctim;
	k->fresh = 0;
	return 1;
}

/* A folder of the host's scratch tree (a build folder the grader filled
 * with sources), bound read-write at its own path: what the compiler
 * writes there is what grade takes afterwards. */
static int bind_host_dir(struct keeper *k, const char *dir)
{
	if (sbx_mkdir_p(dir, 0700) < 0 ||
	    sbx_bind_from_base(k, dir + strlen(k->cfg->scratch) + 1, dir) < 0 ||
	    mount(NULL, dir, NULL, MS_REMOUNT | MS_BIND | MS_NOSUID | MS_NODEV, NULL) < 0)
		return -1;
	snprintf(k->bound, sizeof(k->bound), "%s", dir);
	return 0;
}

static int same_ctime(const char *path, const struct timespec *t)
{
	struct stat st;

	return lstat(path, &st) == 0 && st.st_ctim.tv_sec == t->tv_sec &&
	       st.st_ctim.tv_nsec == t->tv_nsec;
}

/* The program into the scratch folder, when it lives there. */
static int bind_program_if(struct keeper *k, const char *path)
{
	const char *scratch = k->cfg->scratch;

	if (!wg_path_within(path, scratch) || !strcmp(path, scratch))
		return 0;
	return bind_program(k, path);
}

/* Private folders for the run: clean areas, the program, a new working
 * folder owned by the run's uid. -1 with errno. */
int sbx_prepare(struct keeper *k, const char *path, const char *dir,
		   int bind_dir, uid_t uid, gid_t gid)
{
	const char *scratch = k->cfg->scratch;
	int dirty = 0, i;

	/* The minimal root without its areas has no program to run: the
	 * grader's failure, never a run's. */
	if (!k->L.private_tmp && k->L.minimal_root) {
		errno = ENOTSUP;
		return -1;
	}
	if (!k->L.private_tmp)
		return 0;
	/* A folder bound in for the last run is let go; the areas are then
	 * made afresh (its mount point is gone, which the checks would not
	 * tell from a program's doing). */
	if (k->bound[0]) {
		umount2(k->bound, MNT_DETACH);
		k->bound[0] = '\0';
		dirty = 1;
	}
	for (i = 0; i < k->nareas && !dirty; i++)
		dirty = area_dirty(&k->areas[i]);
	/* The last run's working folder serves again when nothing in the
	 * areas changed (nothing was written in it) and its own ctime did not
	 * move (no chmod, no attribute: its owner could do both). */
	if (!dirty && dir && !bind_dir && !strcmp(dir, k->cwd) && uid == k->cwd_uid &&
	    same_ctime(dir, &k->cwd_ctime)) {
		int copied = bind_program_if(k, path);

		/* A new copy is the keeper's, not a program's doing. */
		for (i = 0; copied > 0 && i < k->nareas; i++)
			sbx_area_mark(&k->areas[i]);
		return copied < 0 ? -1 : 0;
	}
	/* A working folder that changed at all (a file made and removed in
	 * it) means fresh areas: recreating only the folder would hand it
	 * the next inode number, a counter the last program moved. */
	if (k->cwd[0] && !strcmp(dir ? dir : "", k->cwd))
		dirty = 1;
	k->cwd[0] = '\0';
	if (dir && wg_path_within(dir, scratch) && rmdir(dir) < 0 && errno != ENOENT)
		dirty = 1;
	if (dirty && sbx_remount_areas(k) < 0)
		return -1;
	if (bind_program_if(k, path) < 0)
		return -1;
	if (dir && wg_path_within(dir, scratch) && bind_dir) {
		if (bind_host_dir(k, dir) < 0)
			return -1;
	} else if (dir && wg_path_within(dir, scratch)) {
		if (sbx_mkdir_p(dir, 0700) < 0 || chmod(dir, 0700) < 0 ||
		    (uid != (uid_t)-1 && chown(dir, uid, gid == (gid_t)-1 ? uid : gid) < 0))
			return -1;
	}
	for (i = 0; i < k->nareas; i++)
		sbx_area_mark(&k->areas[i]);
	if (dir && wg_path_within(dir, scratch) && !bind_dir) {
		struct stat st;

		if (lstat(dir, &st) == 0) {
			snprintf(k->cwd, sizeof(k->cwd), "%s", dir);
			k->cwd_ctime = st.st_ctim;
			k->cwd_uid = uid;
		}
	}
	return 0;
}
