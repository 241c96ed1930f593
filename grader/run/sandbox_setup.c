/*
 * sandbox_setup: the keeper's long-lived layers, built once when the slot
 * opens (sandbox.h lists them): the user namespace, the mount namespace
 * (a read-only host, the --hide masks, the masked top level, the private
 * tmpfs areas), the network and IPC namespaces (the PID namespaces are
 * sandbox_pidns.c's); and the IPC namespace's renewal between runs
 * (sbx_ipc_renew). The masks made here are the build view; the run view,
 * the minimal root, is made from it by sandbox_root.c before the private
 * areas are mounted in it. The order is the one in sbx_build_namespaces and
 * matters: the host's /proc is opened before anything covers it, the
 * host's scratch folder before the top level is masked. A layer the kernel
 * refuses is noted in the layers' missing text, never an error.
 */
#include "grader/run/sandbox_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "grader/lib/steptime.h"
#include "grader/lib/util.h"

/* ---- small helpers ---- */

__attribute__((format(printf, 2, 3)))
void sbx_note(struct sandbox_layers *L, const char *fmt, ...)
{
	size_t len = strlen(L->missing);
	va_list ap;

	if (len && len + 2 < sizeof(L->missing)) {
		memcpy(L->missing + len, "; ", 3);
		len += 2;
	}
	va_start(ap, fmt);
	vsnprintf(L->missing + len, sizeof(L->missing) - len, fmt, ap);
	va_end(ap);
}

int sbx_write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* mkdir -p, root-owned, for the folders above the scratch folder inside a
 * fresh tmpfs. The modes are exact whatever the umask (grade's is 077). */
static int mkdir_one(const char *path, mode_t mode)
{
	if (mkdir(path, mode) == 0)
		return chmod(path, mode);
	return errno == EEXIST ? 0 : -1;
}

int sbx_mkdir_p(const char *path, mode_t mode)
{
	char buf[PATH_MAX];
	size_t len = strlen(path);

	/* PATH_MAX is the kernel's own bound: a longer path fails as mkdir
	 * would fail it, never as a shorter one cut from it. */
	if (len >= sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir_one(buf, mode) < 0)
			return -1;
		*p = '/';
	}
	return mkdir_one(buf, mode);
}

/* ---- the keeper: building the layers ---- */

/* The keeper's user namespace. As root grade writes a one-to-one map (only
 * a process with CAP_SETUID outside may); otherwise the keeper maps the
 * caller's own ids. */
static int enter_userns(struct keeper *k)
{
	uid_t uid = getuid();
	gid_t gid = getgid();
	char map[64];
	struct msg *m = calloc(1, sizeof(*m));
	int fds[1], ok = -1;

	if (!m)
		return -1;
	if (unshare(CLONE_NEWUSER) < 0) {
		sbx_note(&k->L, "no user namespace (%s)", strerror(errno));
		goto out;
	}
	if (uid == 0) {
		m->type = M_NEED_MAP;
		if (sbx_send(k->sock, m, NULL, 0) < 0 ||
		    sbx_recv(k->sock, m, fds, 1) < 0 || m->type != M_MAPPED || !m->ok) {
			sbx_note(&k->L, "cannot map the user namespace");
			goto out;
		}
	} else {
		/* grade is not dumpable, so /proc/self/ files are root's: a
		 * moment of dumpability lets the keeper write its own maps (its
		 * memory holds nothing of the suite's data: it was forked before
		 * grade read any). */
		prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
		snprintf(map, sizeof(map), "%u %u 1", (unsigned)gid, (unsigned)gid);
		if (sbx_write_text("/proc/self/setgroups", "deny") < 0 ||
		    sbx_write_text("/proc/self/gid_map", map) < 0) {
			sbx_note(&k->L, "cannot map the user namespace (%s)", strerror(errno));
			goto out;
		}
		snprintf(map, sizeof(map), "%u %u 1", (unsigned)uid, (unsigned)uid);
		if (sbx_write_text("/proc/self/uid_map", map) < 0) {
			sbx_note(&k->L, "cannot map the user namespace (%s)", strerror(errno));
			goto out;
		}
	}
	ok = 0;
	k->L.user_ns = 1;
out:
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	free(m);
	return ok;
}

/* The mount flags of a statvfs f_flag that a read-only remount must
 * keep: a locked flag (user namespace) dropped makes the remount fail. */
static unsigned long kept_flags(unsigned long f_flag)
{
	static const struct { unsigned long st, ms; } map[] = {
		{ ST_NOSUID, MS_NOSUID }, { ST_NODEV, MS_NODEV },
		{ ST_NOEXEC, MS_NOEXEC }, { ST_NOATIME, MS_NOATIME },
		{ ST_NODIRATIME, MS_NODIRATIME }, { ST_RELATIME, MS_RELATIME },
	};
	unsigned long fl = 0;

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (f_flag & map[i].st)
			fl |= map[i].ms;
	return fl;
}

/* Every mount the keeper sees, read-only for the programs (bind remounts
 * change only this namespace's view). proc and the cgroup trees stay as
 * they are: nothing there is writable by a slot uid, and the keeper keeps
 * cgroup files open for writing. */
static int read_only_host(struct sandbox_layers *L)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char *line = NULL;
	size_t cap = 0;
	int bad = 0;

	if (!f)
		return -1;
	/* Whole lines (getline): a long one read in pieces would make its
	 * tail look like a mount of its own. A mount point fits in PATH_MAX
	 * (one with an escape is skipped), a type in 64. */
	while (getline(&line, &cap, f) > 0) {
		char mnt[PATH_MAX], type[64], *dash = strstr(line, " - ");
		struct statvfs sv;
		unsigned long fl = MS_REMOUNT | MS_BIND | MS_RDONLY;

		if (!dash || sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1 ||
		    sscanf(dash + 3, "%63s", type) != 1)
			continue;
		if (!strcmp(type, "proc") || !strncmp(type, "cgroup", 6) ||
		    strchr(mnt, '\\'))
			continue;
		if (statvfs(mnt, &sv) < 0)
			continue;
		fl |= kept_flags(sv.f_flag);
		if (mount(NULL, mnt, NULL, fl, NULL) < 0 && !bad++)
			sbx_note(L, "'%s' stays writable (%s)", mnt, strerror(errno));
	}
	free(line);
	fclose(f);
	return bad ? -1 : 0;
}

/* Covers each hidden folder with an empty, closed tmpfs. The source is a
 * neutral "tmpfs", so /proc/self/mountinfo says nothing of what it hides
 * beyond the mount point. */
static int mask_paths(const char *const *hide, struct sandbox_layers *L)
{
	for (; hide && *hide; hide++)
		if (mount("tmpfs", *hide, "tmpfs",
			  MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
			  "size=4k,nr_inodes=1,mode=000") < 0 && errno != ENOENT) {
			sbx_note(L, "cannot mask '%s' (%s)", *hide, strerror(errno));
			return -1;
		}
	return 0;
}

/* What programs and compilers need of the host's top level; anything
 * else there (home folders, /srv, /work, /root, /mnt, /autograder...)
 * is covered by an empty read-only tmpfs: another copy of the suite, the
 * reference or a classmate's work, anywhere the grader does not know of,
 * stays out of reach. /var is masked too, but for the private /var/tmp. */
/* Not /sys: a program needs nothing there, and it holds counters that
 * anyone may read and a run can move, a channel from one case to the
 * next: the memory and cpu counters of the groups above the slot's own
 * (which add up the slot's), and machine-wide ones. The keeper reaches
 * its cgroups through descriptors opened before this (cgroup.h). */
static const char *const top_level_kept[] = {
	"bin", "sbin", "lib", "lib32", "lib64", "libx32", "usr", "etc", "dev",
	"proc", "tmp",
};

int sbx_top_level_kept(const char *name)
{
	for (size_t i = 0; i < sizeof(top_level_kept) / sizeof(top_level_kept[0]); i++)
		if (!strcmp(name, top_level_kept[i]))
			return 1;
	return 0;
}

static void mask_top_level(struct keeper *k)
{
	DIR *d = opendir("/");
	struct dirent *e;
	char path[PATH_MAX];
	struct stat st;

	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.' || sbx_top_level_kept(e->d_name))
			continue;
		snprintf(path, sizeof(path), "/%s", e->d_name);
		if (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		/* The way to a scratch folder that lives there, and to
		 * /var/tmp (a private area, mounted later), are made in the
		 * mask before it turns read-only; any other mask is empty and
		 * read-only from its one mount. */
		int way = wg_path_within(k->cfg->scratch, path) || !strcmp(path, "/var");
		if (mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC |
			  (way ? 0 : MS_RDONLY), "size=64k,nr_inodes=64,mode=0755") < 0) {
			sbx_note(&k->L, "cannot mask '%s' (%s)", path, strerror(errno));
			continue;
		}
		if (!way)
			continue;
		if (wg_path_within(k->cfg->scratch, path))
			sbx_mkdir_p(k->cfg->scratch, 0711);
		if (!strcmp(path, "/var"))
			sbx_mkdir_p("/var/tmp", 01777);
		mount(NULL, path, NULL, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV |
		      MS_NOEXEC, NULL);
	}
	if (d)
		closedir(d);
}

static void add_area(struct keeper *k, const char *path, const char *mode)
{
	struct stat st;
	struct area *a = &k->areas[k->nareas];

	if (k->nareas >= MAX_AREAS)
		return;
	/* The scratch folder may not exist yet under a fresh /tmp. */
	if (strcmp(mode, "0711") && (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode)))
		return;
	snprintf(a->path, sizeof(a->path), "%s", path);
	a->opts_mode = mode;
	a->mounted = 0;
	a->fd = -1;
	k->nareas++;
}

void sbx_area_mark(struct area *a)
{
	struct statfs s;
	struct stat st;

	if (a->fd >= 0 && fstatfs(a->fd, &s) == 0 && fstat(a->fd, &st) == 0) {
		a->files = s.f_files - s.f_ffree;
		a->blocks = s.f_blocks - s.f_bfree;
		a->ctime = st.st_ctim;
	}
}

static int mount_area(const struct keeper *k, struct area *a)
{
	char opts[128];

	snprintf(opts, sizeof(opts), "size=%llu,nr_inodes=%d,mode=%s",
		 (unsigned long long)k->cfg->tmp_bytes, TMP_INODES, a->opts_mode);
	if (!strcmp(a->opts_mode, "0711") && sbx_mkdir_p(a->path, 0711) < 0)
		return -1;
	/* noatime: a read would otherwise leave a time a later case could
	 * read back. */
	if (mount("tmpfs", a->path, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOATIME, opts) < 0)
		return -1;
	a->mounted = 1;
	a->fd = open(a->path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	return 0;
}

/* Every private area anew: the old mounts are detached (a program's
 * leftovers go with them), new empty ones mounted. */
int sbx_remount_areas(struct keeper *k)
{
	int i;

	for (i = k->nareas - 1; i >= 0; i--)
		if (k->areas[i].mounted) {
			if (k->areas[i].fd >= 0)
				close(k->areas[i].fd);
			k->areas[i].fd = -1;
			umount2(k->areas[i].path, MNT_DETACH);
			k->areas[i].mounted = 0;
		}
	k->cwd[0] = '\0';
	for (i = 0; i < k->nareas; i++)
		if (mount_area(k, &k->areas[i]) < 0)
			return -1;
	/* Marked clean once all are mounted (the scratch area's mount point
	 * is made in /tmp's): fresh areas are not made again for the first
	 * run, as they were (4 unmounts and 4 mounts more a grade process). */
	for (i = 0; i < k->nareas; i++)
		sbx_area_mark(&k->areas[i]);
	k->prog_at[0] = '\0';
	k->bin_ro[0] = '\0';
	k->fresh = 1;
	return 0;
}

static int build_mounts(struct keeper *k)
{
	const struct sandbox_config *cfg = k->cfg;
	static const char *const tmps[] = { "/tmp", "/var/tmp", "/dev/shm" };

	if (mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
		sbx_note(&k->L, "cannot make the mounts private (%s)", strerror(errno));
		return -1;
	}
	read_only_host(&k->L);
	if (mask_paths(cfg->hide, &k->L) < 0)
		return -1;
	k->L.mount_ns = 1;
	/* Before the top level is masked: the scratch folder may lie in a
	 * masked folder (TMPDIR=/work/tmp). */
	if ((k->base_fd = open(cfg->scratch, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0) {
		sbx_note(&k->L, "no private /tmp: cannot open '%s' (%s)", cfg->scratch,
		     strerror(errno));
		return 0;
	}
	mask_top_level(k);
	/* The build view and the runs' (sandbox_root.c); the keeper is in
	 * the runs' from here on, where the areas go. */
	sbx_build_views(k);
	for (size_t i = 0; i < sizeof(tmps) / sizeof(tmps[0]); i++)
		add_area(k, tmps[i], "1777");
	add_area(k, cfg->scratch, "0711");
	if (sbx_remount_areas(k) < 0) {
		sbx_note(&k->L, "no private /tmp (%s)", strerror(errno));
		return 0;
	}
	k->L.private_tmp = 1;
	return 0;
}

/* The slot's IPC namespace is the keeper's own, shared by its runs: after
 * each run /proc/sysvipc says whether SysV shared memory, semaphores or
 * message queues were left (POSIX queues cannot be made: RLIMIT_MSGQUEUE
 * is 0), and only then is it replaced by a new one. A fresh namespace per
 * run cost ~50 us (its teardown is work for the kernel too). */
static const char *const sysvipc[3] = { "sysvipc/shm", "sysvipc/sem", "sysvipc/msg" };

/* The host's /proc, opened before the slot's own covers it: the keeper
 * reads /proc/sysvipc and scans for a uid's processes there (in the
 * slot's, its pids would not be the kernel's for it). -1: "/proc". */
static int host_proc = -1;

int sbx_proc_open(const char *rel, int flags)
{
	char path[128];

	if (host_proc >= 0)
		return openat(host_proc, rel, flags);
	snprintf(path, sizeof(path), "/proc/%.60s", rel);
	return open(path, flags);
}

static void ipc_watch_close(struct keeper *k)
{
	for (int i = 0; i < 3; i++) {
		if (k->ipc_fd[i] >= 0)
			close(k->ipc_fd[i]);
		k->ipc_fd[i] = -1;
	}
	k->ipc_watch = 0;
}

/* Opened in the namespace they will show (the files pick it at open). */
static void ipc_watch_open(struct keeper *k)
{
	k->ipc_watch = 1;
	for (int i = 0; i < 3; i++)
		if ((k->ipc_fd[i] = sbx_proc_open(sysvipc[i], O_RDONLY | O_CLOEXEC)) < 0)
			k->ipc_watch = 0;
	if (!k->ipc_watch)
		ipc_watch_close(k);
}

/* 1 when a run left a SysV object: a line past the header. */
int sbx_ipc_dirty(const struct keeper *k)
{
	char buf[512];

	for (int i = 0; i < 3; i++) {
		ssize_t n = pread(k->ipc_fd[i], buf, sizeof(buf) - 1, 0);
		char *nl;

		if (n < 0)
			return 1;
		buf[n] = '\0';
		if ((nl = strchr(buf, '\n')) && nl[1])
			return 1;
	}
	return 0;
}

/* A new IPC namespace for the keeper and the runs to come; the old one
 * dies with its objects. -1: the child makes one per run instead. */
void sbx_ipc_renew(struct keeper *k)
{
	ipc_watch_close(k);
	if (unshare(CLONE_NEWIPC) == 0)
		ipc_watch_open(k);
}

void sbx_build_namespaces(struct keeper *k)
{
	int root = geteuid() == 0;

	if (k->cfg->no_namespaces) {
		sbx_note(&k->L, "namespaces turned off (WG_NO_NAMESPACES)");
		return;
	}
	/* Root with CAP_SYS_ADMIN needs no user namespace; anyone else does. */
	if (!root || unshare(CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC) < 0) {
		int why = errno;

		/* Said only when the user namespace fails too: with it every
		 * layer holds, and nothing is missing. */
		if (enter_userns(k) < 0) {
			if (root)
				sbx_note(&k->L, "no CAP_SYS_ADMIN for the namespaces (%s)",
					 strerror(why));
			return;
		}
		if (unshare(CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC) < 0) {
			sbx_note(&k->L, "no mount or network namespace (%s)", strerror(errno));
			return;
		}
	}
	steptime_mark("keeper", "namespaces");
	k->L.net_ns = 1;
	k->L.ipc_ns = 1;
	/* The host's /proc, before the slot's own or the build view's cover
	 * covers it. */
	host_proc = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	build_mounts(k);
	steptime_mark("keeper", "mounts");
	/* The init and spawner to come are born in the memory group. */
	cg_join_wait(&k->cg);
	steptime_mark("keeper", "cgroup-joined");
	sbx_start_pid_ns(k);
	steptime_mark("keeper", "pid-ns");
	ipc_watch_open(k);
}
