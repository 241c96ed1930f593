/*
 * sandbox: the slot keeper and its layers (see sandbox.h).
 *
 * Theory of operation. sandbox_open() makes a SOCK_SEQPACKET pair and forks
 * the keeper. The keeper closes every other descriptor, builds its
 * namespaces (asking grade to write its user namespace's maps when it
 * needs a one-to-one map only root can write), mounts, and cgroups, and
 * sends READY with the layers it got. Then it serves one run at a time:
 *
 *   grade                          keeper
 *   RUN {limits, strings} + fds -> prepare folders, fork+exec the program
 *                               <- STARTED {pid | stage, errno, text}
 *   (pumps the pipes)              polls the child's pidfd, its socket and,
 *   KILL (deadline, caps)       ->   while children may run, the cgroup CPU
 *                                  wait4, kill the rest, reap orphans
 *                               <- DONE {status, rusage, tree CPU, oom}
 *
 * Messages are fixed-size structs (the strings of RUN in a trailing
 * buffer); the three descriptors of RUN (the child's ends of stdin, stdout
 * and stderr) travel as SCM_RIGHTS. EOF on the socket ends the
 * keeper; grade's death kills it (PR_SET_PDEATHSIG).
 */
#include "grader/run/sandbox.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <linux/seccomp.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "grader/run/cgroup.h"
#include "grader/run/runner.h"
#include "grader/run/sysfilter.h"

#define STRINGS 32768
#define MAX_ARGS 64
#define MAX_AREAS 5
#define TMP_INODES 4096
#define CPU_TICK_MS 20

enum msg_type { M_READY = 1, M_NEED_MAP, M_MAPPED, M_RUN, M_KILL, M_DONE };

struct msg {
	int type;
	/* M_READY */
	struct sandbox_layers layers;
	/* M_RUN */
	struct run_limits lim;
	uid_t uid;
	gid_t gid;
	int argc, envc, has_dir, bind_dir;
	int join[CG_MAX_DIRS], njoin;    /* keeper -> spawner: cgroup fds */
	int direct;              /* keeper -> spawner: answer grade yourself
	                            unless the end may need the keeper */
	/* M_DONE */
	pid_t pid;
	int ok, stage_err;
	char stage[32];
	int status;
	long utime_us, stime_us, maxrss_kb;
	long tree_cpu_ms;
	int tree_cpu_killed, oom_killed, cleanup_errno;
	int answered;            /* spawner -> keeper: grade has this too */
	char text[256];
	/* M_RUN: path, dir, argv..., env..., NUL-separated */
	size_t strings_len;
	char strings[STRINGS];
};

struct sandbox_slot {
	pid_t keeper;
	int sock;
	struct msg *m;           /* scratch message, per slot (one thread) */
	struct sandbox_layers layers;
};

/* One private tmpfs of the keeper's mount namespace. */
struct area {
	char path[PATH_MAX];
	const char *opts_mode;   /* "1777" or "0711" */
	int mounted;
	fsfilcnt_t files;        /* inodes in use after the last preparation */
	fsblkcnt_t blocks;
	struct timespec ctime;   /* of its root: any create, delete, chmod or
	                            utime there moves it, and no one can set it */
	int fd;                  /* O_PATH of its root while mounted: checks
	                            without a path walk */
};

struct keeper {
	int sock;
	const struct sandbox_config *cfg;
	struct sandbox_layers L;
	struct cgroup cg;
	struct area areas[MAX_AREAS];
	int nareas;              /* the last one is the scratch folder */
	int fresh;               /* areas mounted afresh since the last bind */
	dev_t prog_dev;
	ino_t prog_ino;
	char prog_at[PATH_MAX];  /* where the current program is bound */
	char bin_ro[PATH_MAX];   /* its folder, bound read-only over itself */
	char bound[PATH_MAX];    /* a host folder bound in for one run */
	char cwd[PATH_MAX];      /* the working folder left by the last run */
	struct timespec cwd_ctime;
	uid_t cwd_uid;
	int processes;           /* the last run's process limit */
	pid_t init;              /* pid 1 of the slot's PID namespace, or 0 */
	int ipc_fd[3];           /* /proc/sysvipc/{shm,sem,msg} of the slot */
	int ipc_watch;           /* they are open: no IPC namespace per run */
	sigset_t ignored;        /* the keeper's ignored signals (fixed) */
	int spawner;             /* socket to the spawner, or -1 */
	int deferred_errno;      /* a clean-up that failed after the spawner
	                            had answered grade: the next run reports it */
	pid_t spawner_pid;
	struct msg *fwd;         /* the keeper's messages to it */
	int life;                /* its life pipe (closing it ends it) */
	int base_fd;             /* the host's scratch folder, opened before
	                            the private one covered it: programs are
	                            bound from there (a bind mount must come
	                            from this namespace) */
};

/* ---- messages ---- */

static int send_msg(int sock, const struct msg *m, const int *fds, int nfds)
{
	size_t len = offsetof(struct msg, strings) + m->strings_len;
	union { char buf[CMSG_SPACE(4 * sizeof(int))]; struct cmsghdr align; } u;
	struct iovec iov = { (void *)m, len };
	struct msghdr h = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	if (nfds) {
		struct cmsghdr *c;

		memset(&u, 0, sizeof(u));
		h.msg_control = u.buf;
		h.msg_controllen = CMSG_SPACE((size_t)nfds * sizeof(int));
		c = CMSG_FIRSTHDR(&h);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN((size_t)nfds * sizeof(int));
		memcpy(CMSG_DATA(c), fds, (size_t)nfds * sizeof(int));
	}
	do
		n = sendmsg(sock, &h, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)len ? 0 : -1;
}

/* 0 with *m filled (fds: up to 4 received, the rest -1); -1 on EOF
 * (errno 0) or error. */
static int recv_msg(int sock, struct msg *m, int *fds, int maxfds)
{
	union { char buf[CMSG_SPACE(4 * sizeof(int))]; struct cmsghdr align; } u;
	struct iovec iov = { m, sizeof(*m) };
	struct msghdr h = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = u.buf, .msg_controllen = sizeof(u.buf) };
	struct cmsghdr *c;
	ssize_t n;

	for (int i = 0; i < maxfds; i++)
		fds[i] = -1;
	do
		n = recvmsg(sock, &h, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n <= 0) {
		if (n == 0)
			errno = 0;
		return -1;
	}
	for (c = CMSG_FIRSTHDR(&h); c; c = CMSG_NXTHDR(&h, c)) {
		int k = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		for (int i = 0; i < k; i++) {
			int fd;

			memcpy(&fd, CMSG_DATA(c) + (size_t)i * sizeof(int), sizeof(int));
			if (i < maxfds)
				fds[i] = fd;
			else
				close(fd);
		}
	}
	if ((size_t)n < offsetof(struct msg, strings)) {
		errno = EPROTO;
		return -1;
	}
	return 0;
}

/* ---- small helpers ---- */

__attribute__((format(printf, 2, 3)))
static void note(struct sandbox_layers *L, const char *fmt, ...)
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

static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

static int is_within(const char *path, const char *dir)
{
	size_t len = strlen(dir);

	return !strncmp(path, dir, len) && (path[len] == '/' || !path[len]);
}

/* mkdir -p, root-owned, for the folders above the scratch folder inside a
 * fresh tmpfs. The modes are exact whatever the umask (grade's is 077). */
static int mkdir_one(const char *path, mode_t mode)
{
	if (mkdir(path, mode) == 0)
		return chmod(path, mode);
	return errno == EEXIST ? 0 : -1;
}

static int mkdir_p(const char *path, mode_t mode)
{
	char buf[PATH_MAX];

	snprintf(buf, sizeof(buf), "%s", path);
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
		note(&k->L, "no user namespace (%s)", strerror(errno));
		goto out;
	}
	if (uid == 0) {
		m->type = M_NEED_MAP;
		if (send_msg(k->sock, m, NULL, 0) < 0 ||
		    recv_msg(k->sock, m, fds, 1) < 0 || m->type != M_MAPPED || !m->ok) {
			note(&k->L, "cannot map the user namespace");
			goto out;
		}
	} else {
		/* grade is not dumpable, so /proc/self/ files are root's: a
		 * moment of dumpability lets the keeper write its own maps (its
		 * memory holds nothing of the suite's data: it was forked before
		 * grade read any). */
		prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
		snprintf(map, sizeof(map), "%u %u 1", (unsigned)gid, (unsigned)gid);
		if (write_text("/proc/self/setgroups", "deny") < 0 ||
		    write_text("/proc/self/gid_map", map) < 0) {
			note(&k->L, "cannot map the user namespace (%s)", strerror(errno));
			goto out;
		}
		snprintf(map, sizeof(map), "%u %u 1", (unsigned)uid, (unsigned)uid);
		if (write_text("/proc/self/uid_map", map) < 0) {
			note(&k->L, "cannot map the user namespace (%s)", strerror(errno));
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

/* Every mount the keeper sees, read-only for the programs (bind remounts
 * change only this namespace's view). proc and the cgroup trees stay as
 * they are: nothing there is writable by a slot uid, and the keeper keeps
 * cgroup files open for writing. */
static int read_only_host(struct sandbox_layers *L)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[8192];
	int bad = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char mnt[4096], type[64], *dash = strstr(line, " - ");
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
		/* A locked flag (user namespace) must be kept, or the remount
		 * fails. */
		if (sv.f_flag & ST_NOSUID)
			fl |= MS_NOSUID;
		if (sv.f_flag & ST_NODEV)
			fl |= MS_NODEV;
		if (sv.f_flag & ST_NOEXEC)
			fl |= MS_NOEXEC;
		if (sv.f_flag & ST_NOATIME)
			fl |= MS_NOATIME;
		if (sv.f_flag & ST_NODIRATIME)
			fl |= MS_NODIRATIME;
		if (sv.f_flag & ST_RELATIME)
			fl |= MS_RELATIME;
		if (mount(NULL, mnt, NULL, fl, NULL) < 0 && !bad++)
			note(L, "'%s' stays writable (%s)", mnt, strerror(errno));
	}
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
			note(L, "cannot mask '%s' (%s)", *hide, strerror(errno));
			return -1;
		}
	return 0;
}

/* What programs and compilers need of the host's top level; anything
 * else there (home folders, /srv, /work, /root, /mnt, /autograder...)
 * is covered by an empty read-only tmpfs: another copy of the suite, the
 * reference or a classmate's work, anywhere the grader does not know of,
 * stays out of reach. /var is masked too, but for the private /var/tmp. */
static const char *const top_level_kept[] = {
	"bin", "sbin", "lib", "lib32", "lib64", "libx32", "usr", "etc", "dev",
	"proc", "sys", "tmp",
};

static int kept(const char *name)
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
		if (e->d_name[0] == '.' || kept(e->d_name))
			continue;
		snprintf(path, sizeof(path), "/%s", e->d_name);
		if (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		if (mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
			  "size=64k,nr_inodes=64,mode=0755") < 0) {
			note(&k->L, "cannot mask '%s' (%s)", path, strerror(errno));
			continue;
		}
		/* The way to a scratch folder that lives there, and to
		 * /var/tmp (a private area, mounted later). */
		if (is_within(k->cfg->scratch, path))
			mkdir_p(k->cfg->scratch, 0711);
		if (!strcmp(path, "/var"))
			mkdir_p("/var/tmp", 01777);
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

static int mount_area(const struct keeper *k, struct area *a)
{
	char opts[128];

	snprintf(opts, sizeof(opts), "size=%llu,nr_inodes=%d,mode=%s",
		 (unsigned long long)k->cfg->tmp_bytes, TMP_INODES, a->opts_mode);
	if (!strcmp(a->opts_mode, "0711") && mkdir_p(a->path, 0711) < 0)
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
static int remount_areas(struct keeper *k)
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
		note(&k->L, "cannot make the mounts private (%s)", strerror(errno));
		return -1;
	}
	read_only_host(&k->L);
	if (mask_paths(cfg->hide, &k->L) < 0)
		return -1;
	k->L.mount_ns = 1;
	/* Before the top level is masked: the scratch folder may lie in a
	 * masked folder (TMPDIR=/work/tmp). */
	if ((k->base_fd = open(cfg->scratch, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0) {
		note(&k->L, "no private /tmp: cannot open '%s' (%s)", cfg->scratch,
		     strerror(errno));
		return 0;
	}
	mask_top_level(k);
	for (size_t i = 0; i < sizeof(tmps) / sizeof(tmps[0]); i++)
		add_area(k, tmps[i], "1777");
	add_area(k, cfg->scratch, "0711");
	if (remount_areas(k) < 0) {
		note(&k->L, "no private /tmp (%s)", strerror(errno));
		return 0;
	}
	k->L.private_tmp = 1;
	return 0;
}

/* pid 1 of the slot's PID namespace: it only reaps the orphans the
 * kernel hands it, and exits when the keeper is gone (its end of the life
 * pipe closes; PR_SET_PDEATHSIG alone could miss a keeper that dies before
 * the init has set it, and getppid() reads 0 across the namespace either
 * way). Then the kernel kills every process of the namespace. */
static __attribute__((noreturn)) void pid_init(int life)
{
	sigset_t chld, none;

	prctl(PR_SET_NAME, "grade-init", 0, 0, 0);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigemptyset(&none);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	for (;;) {
		struct pollfd pf = { life, POLLIN, 0 };

		while (waitpid(-1, NULL, WNOHANG | __WALL) > 0)
			;
		/* SIGCHLD is let in only while waiting: none is lost. */
		if (ppoll(&pf, 1, NULL, &none) > 0)
			_exit(0);
	}
}

static void on_chld(int sig)
{
	(void)sig;
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

static int proc_open(const char *rel, int flags)
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
		if ((k->ipc_fd[i] = proc_open(sysvipc[i], O_RDONLY | O_CLOEXEC)) < 0)
			k->ipc_watch = 0;
	if (!k->ipc_watch)
		ipc_watch_close(k);
}

/* 1 when a run left a SysV object: a line past the header. */
static int ipc_dirty(const struct keeper *k)
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
static void ipc_renew(struct keeper *k)
{
	ipc_watch_close(k);
	if (unshare(CLONE_NEWIPC) == 0)
		ipc_watch_open(k);
}

/* A PID namespace for the slot's programs: kill(-1) and every other signal
 * they send reach only each other, never grade, the keeper or the rest of
 * the user's session (which matters most where they run under the
 * caller's own uid). The keeper stays outside; its children go in. */
static void start_pid_ns(struct keeper *k)
{
	int life[2], sync[2];
	pid_t init;

	if (unshare(CLONE_NEWPID) < 0) {
		note(&k->L, "no PID namespace (%s)", strerror(errno));
		return;
	}
	if (pipe2(life, O_CLOEXEC) < 0 || pipe2(sync, O_CLOEXEC) < 0) {
		note(&k->L, "no PID namespace: %s", strerror(errno));
		return;
	}
	host_proc = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	init = fork();
	if (init == 0) {
		struct sigaction sa;
		char ok;

		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		close(life[1]);
		close(k->sock);
		close(sync[0]);
		/* The slot's own /proc, of this namespace: no other process of
		 * the machine (another slot's, grade's) to list or read, and
		 * subset=pid leaves out /proc/sys and the like. */
		ok = mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC,
			   "subset=pid") == 0 ||
		     mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC,
			   NULL) == 0;
		if (write(sync[1], &ok, 1) != 1)
			_exit(1);
		close(sync[1]);
		/* An IPC namespace of its own: the slot's, which the keeper
		 * renews after a run that left SysV objects, must then have
		 * no one left to keep it alive. */
		unshare(CLONE_NEWIPC);
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_chld;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGCHLD, &sa, NULL);
		pid_init(life[0]);
	}
	close(life[0]);
	close(sync[1]);
	if (init < 0) {
		close(life[1]);
		close(sync[0]);
		note(&k->L, "no PID namespace: cannot start its init (%s)", strerror(errno));
		return;
	}
	{
		char ok = 0;

		if (read(sync[0], &ok, 1) == 1 && ok)
			k->L.private_proc = 1;
		else
			note(&k->L, "no /proc of the slot's own: programs see the host's");
		close(sync[0]);
	}
	/* life[1] stays open, unused, for the keeper's whole life. */
	k->init = init;
	k->life = life[1];
	k->L.pid_ns = 1;
}

static void build_namespaces(struct keeper *k)
{
	int root = geteuid() == 0;

	if (k->cfg->no_namespaces) {
		note(&k->L, "namespaces turned off (WG_NO_NAMESPACES)");
		return;
	}
	/* Root with CAP_SYS_ADMIN needs no user namespace; anyone else does. */
	if (!root || unshare(CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC) < 0) {
		if (root)
			note(&k->L, "no CAP_SYS_ADMIN (%s): trying a user namespace",
			     strerror(errno));
		if (enter_userns(k) < 0)
			return;
		if (unshare(CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC) < 0) {
			note(&k->L, "no mount or network namespace (%s)", strerror(errno));
			return;
		}
	}
	k->L.net_ns = 1;
	k->L.ipc_ns = 1;
	build_mounts(k);
	start_pid_ns(k);
	ipc_watch_open(k);
}

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

static void area_mark(struct area *a)
{
	struct statfs s;
	struct stat st;

	if (a->fd >= 0 && fstatfs(a->fd, &s) == 0 && fstat(a->fd, &st) == 0) {
		a->files = s.f_files - s.f_ffree;
		a->blocks = s.f_blocks - s.f_bfree;
		a->ctime = st.st_ctim;
	}
}

/* Binds rel (below the host's scratch folder, reached through base_fd) onto
 * target: a clone of that subtree (open_tree), moved into place. No path
 * through /proc: the slot's /proc is its PID namespace's, where the keeper
 * has no "self". */
static int bind_from_base(struct keeper *k, const char *rel, const char *target)
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

/* The program, alone and read-only, at its own path inside the scratch
 * folder (the rest of that folder on the host stays out of sight), in a
 * folder that is itself a read-only mount: where the program runs under
 * the keeper's own uid (a user namespace), owning that folder must not let
 * it plant anything there. */
static int bind_program(struct keeper *k, const char *path)
{
	char src[PATH_MAX + 64], dir[PATH_MAX], *slash;
	struct stat st;
	int fd;

	snprintf(src, sizeof(src), "%s", path + strlen(k->cfg->scratch) + 1);
	if (fstatat(k->base_fd, src, &st, 0) < 0)
		return -1;
	if (!k->fresh && !strcmp(k->prog_at, path) && st.st_dev == k->prog_dev &&
	    st.st_ino == k->prog_ino)
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
		umount2(k->prog_at, MNT_DETACH);
		unlink(k->prog_at);
		k->prog_at[0] = '\0';
	}
	if (mkdir_p(dir, 0711) < 0)
		return -1;
	if ((fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0755)) < 0)
		return -1;
	close(fd);
	if (bind_from_base(k, src, path) < 0 ||
	    mount(NULL, path, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID |
		  MS_NODEV, NULL) < 0)
		return -1;
	snprintf(k->prog_at, sizeof(k->prog_at), "%s", path);
	if (mount(dir, dir, NULL, MS_BIND | MS_REC, NULL) < 0 ||
	    mount(NULL, dir, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID |
		  MS_NODEV, NULL) < 0)
		return -1;
	snprintf(k->bin_ro, sizeof(k->bin_ro), "%s", dir);
	k->prog_dev = st.st_dev;
	k->prog_ino = st.st_ino;
	k->fresh = 0;
	return 0;
}

/* A folder of the host's scratch tree (a build folder the grader filled
 * with sources), bound read-write at its own path: what the compiler
 * writes there is what grade takes afterwards. */
static int bind_host_dir(struct keeper *k, const char *dir)
{
	if (mkdir_p(dir, 0700) < 0 ||
	    bind_from_base(k, dir + strlen(k->cfg->scratch) + 1, dir) < 0 ||
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

	if (!is_within(path, scratch) || !strcmp(path, scratch))
		return 0;
	return bind_program(k, path);
}

/* Private folders for the run: clean areas, the program, a new working
 * folder owned by the run's uid. -1 with errno. */
static int prepare(struct keeper *k, const char *path, const char *dir,
		   int bind_dir, uid_t uid, gid_t gid)
{
	const char *scratch = k->cfg->scratch;
	int dirty = 0, i;

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
	    same_ctime(dir, &k->cwd_ctime))
		return bind_program_if(k, path);
	/* A working folder that changed at all (a file made and removed in
	 * it) means fresh areas: recreating only the folder would hand it
	 * the next inode number, a counter the last program moved. */
	if (k->cwd[0] && !strcmp(dir ? dir : "", k->cwd))
		dirty = 1;
	k->cwd[0] = '\0';
	if (dir && is_within(dir, scratch) && rmdir(dir) < 0 && errno != ENOENT)
		dirty = 1;
	if (dirty && remount_areas(k) < 0)
		return -1;
	if (bind_program_if(k, path) < 0)
		return -1;
	if (dir && is_within(dir, scratch) && bind_dir) {
		if (bind_host_dir(k, dir) < 0)
			return -1;
	} else if (dir && is_within(dir, scratch)) {
		if (mkdir_p(dir, 0700) < 0 || chmod(dir, 0700) < 0 ||
		    (uid != (uid_t)-1 && chown(dir, uid, gid == (gid_t)-1 ? uid : gid) < 0))
			return -1;
	}
	for (i = 0; i < k->nareas; i++)
		area_mark(&k->areas[i]);
	if (dir && is_within(dir, scratch) && !bind_dir) {
		struct stat st;

		if (lstat(dir, &st) == 0) {
			snprintf(k->cwd, sizeof(k->cwd), "%s", dir);
			k->cwd_ctime = st.st_ctim;
			k->cwd_uid = uid;
		}
	}
	return 0;
}

/* Unpacks RUN into c (pointers into m->strings). */
static int unpack_run(struct msg *m, struct run_child *c, const char **argv,
		      const char **env)
{
	const char *p = m->strings, *end = m->strings + m->strings_len;
	const char *path, *dir;
	int i;

	if (m->argc < 1 || m->argc >= MAX_ARGS || m->envc < 0 || m->envc >= MAX_ARGS ||
	    m->strings_len > STRINGS || (m->strings_len && end[-1]))
		return -1;
	path = p;
	p += strlen(p) + 1;
	dir = p;
	p += strlen(p) + 1;
	for (i = 0; i < m->argc + m->envc; i++) {
		if (p >= end)
			return -1;
		if (i < m->argc)
			argv[i] = p;
		else
			env[i - m->argc] = p;
		p += strlen(p) + 1;
	}
	argv[0] = path;
	argv[m->argc] = NULL;
	env[m->envc] = NULL;
	c->argv = argv;
	c->env = m->envc ? env : NULL;
	c->dir = m->has_dir ? dir : NULL;
	c->lim = m->lim;
	c->uid = m->uid;
	c->gid = m->gid;
	c->bind_dir = m->bind_dir;
	return 0;
}

/* Everything left of the run: the cgroup's processes, the group, and with
 * a slot uid and no cgroup every process of that uid; then the orphans
 * that came to us (we are their subreaper). 0, or an errno. */
static int clean_up(struct keeper *k, pid_t pid, uid_t uid)
{
	int e = 0;

	(void)pid;
	if (k->cg.caps & CG_KILL) {
		if (cg_kill_all(&k->cg) < 0)
			e = errno;
	} else if (uid != (uid_t)-1 && uid != 0 && k->processes != 1 &&
		   sandbox_kill_uid(uid) > 0) {
		e = EBUSY;
	}
	while (waitpid(-1, NULL, WNOHANG | __WALL) > 0)
		;
	return e;
}

static long tv_us(struct timeval tv)
{
	return (long)tv.tv_sec * 1000000 + (long)tv.tv_usec;
}

/* Reaps the ended child into m. Its group first: while the child is a
 * zombie its pid, and so its group, cannot be reused. */
static void reap_run(pid_t pid, struct msg *m)
{
	struct rusage ru;
	int status = 0;

	kill(-pid, SIGKILL);
	memset(&ru, 0, sizeof(ru));
	while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR)
		;
	m->status = status;
	m->utime_us = tv_us(ru.ru_utime);
	m->stime_us = tv_us(ru.ru_stime);
	m->maxrss_kb = ru.ru_maxrss;
}

/* Waits for the child (and KILL from grade); watches the tree's CPU while
 * children may run. */
static void watch(struct keeper *k, struct run_child *c, uint64_t cpu0,
		  struct msg *m)
{
	int pfd = -1;
	int64_t limit_ns = c->lim.cpu_sec > 0 ? (int64_t)(c->lim.cpu_sec * 1e9) : 0;
	int tick = (k->cg.caps & CG_CPU) && k->processes != 1 && limit_ns ? CPU_TICK_MS : -1;

#ifdef SYS_pidfd_open
	pfd = (int)syscall(SYS_pidfd_open, c->pid, 0);
#endif
	if (pfd < 0 && tick < 0)
		tick = 10;
	for (;;) {
		struct pollfd pf[2] = { { k->sock, POLLIN, 0 }, { pfd, POLLIN, 0 } };
		int n = poll(pf, pfd >= 0 ? 2 : 1, tick);

		if (n < 0 && errno != EINTR)
			break;
		if (pf[0].revents) {
			int fds[1];

			if (recv_msg(k->sock, m, fds, 1) < 0)
				_exit(0);           /* grade is gone */
			if (m->type == M_KILL)
				kill(-c->pid, SIGKILL);
			if (k->cg.caps & CG_KILL)
				cg_kill_all(&k->cg);
		}
		if (tick > 0 && (k->cg.caps & CG_CPU) && limit_ns &&
		    cg_cpu_ns(&k->cg) - (int64_t)cpu0 > limit_ns) {
			m->tree_cpu_killed = 1;
			kill(-c->pid, SIGKILL);
			cg_kill_all(&k->cg);
		}
		if (pfd >= 0 ? pf[1].revents != 0 :
		    waitid(P_PID, (id_t)c->pid, &(siginfo_t){ 0 }, WEXITED | WNOHANG | WNOWAIT) == 0)
			break;
	}
	if (pfd >= 0)
		close(pfd);
	reap_run(c->pid, m);
}

static int pack_run(struct msg *m, const struct run_child *c);

/* Installs the seccomp filter on the calling process (sysfilter.h). */
static int install_filter(void)
{
	const struct sock_fprog *f = sysfilter_program();

	if (!f || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return -1;
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
		    SECCOMP_FILTER_FLAG_SPEC_ALLOW, f) == 0)
		return 0;
	return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, f) == 0 ? 0 : -1;
}

/* ---- the spawner ----
 *
 * A child of the keeper, in the slot's namespaces, that holds the seccomp
 * filter itself: the programs it starts inherit it, compiled once. Made
 * in each child instead, the filter cost ~45 us a run (the kernel compiles
 * it and runs it once per system call number); inherited, nothing. It
 * starts, kills on the keeper's word, waits for and reports each run; the
 * keeper keeps the folders, the cgroup and the clean-up.
 *
 * Where the keeper would add nothing to the report (one process, no
 * tree CPU to read, no SIGKILL that may be the OOM killer's), the spawner
 * answers grade itself on a copy of the keeper's socket, and the keeper
 * cleans up while grade compares: a wake-up and a message fewer on the
 * way to the verdict. */
static void spawner_report(int sock, struct msg *m)
{
	if (send_msg(sock, m, NULL, 0) < 0)
		_exit(0);
}

static void spawner_run(struct keeper *k, int sock, struct msg *m, int fds[3])
{
	const char *argv[MAX_ARGS + 1], *env[MAX_ARGS + 1];
	struct run_child c = RUN_CHILD_INIT;
	struct run_spawn_extra x = { m->join, m->njoin, 0, &k->ignored, NULL };
	int pfd = -1, rc, direct = m->direct;

	rc = unpack_run(m, &c, argv, env) < 0 ? -1 : run_spawn_local(&c, fds, &x);
	for (int i = 0; i < 3; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	memset(m, 0, offsetof(struct msg, strings));
	m->type = M_DONE;
	if (rc < 0) {
		snprintf(m->text, sizeof(m->text), "%s",
			 c.res.error[0] ? c.res.error : "bad request to the spawner");
		spawner_report(sock, m);
		return;
	}
#ifdef SYS_pidfd_open
	pfd = (int)syscall(SYS_pidfd_open, c.pid, 0);
#endif
	for (;;) {
		struct pollfd pf[2] = { { sock, POLLIN, 0 }, { pfd, POLLIN, 0 } };
		int fd1[1];

		if (poll(pf, pfd >= 0 ? 2 : 1, pfd >= 0 ? -1 : 10) < 0 && errno != EINTR)
			break;
		if (pf[0].revents) {
			if (recv_msg(sock, m, fd1, 1) < 0)
				_exit(0);
			if (m->type == M_KILL)
				kill(-c.pid, SIGKILL);
		}
		if (pfd >= 0 ? pf[1].revents != 0 :
		    waitid(P_PID, (id_t)c.pid, &(siginfo_t){ 0 }, WEXITED | WNOHANG | WNOWAIT) == 0)
			break;
	}
	if (pfd >= 0)
		close(pfd);
	memset(m, 0, offsetof(struct msg, strings));
	reap_run(c.pid, m);
	while (waitpid(-1, NULL, WNOHANG | __WALL) > 0)
		;
	m->type = M_DONE;
	m->ok = 1;
	m->pid = c.pid;
	m->stage_err = c.res.exec_errno;
	m->tree_cpu_ms = -1;
	/* A SIGKILL may be the OOM killer's, which only the keeper can tell.
	 * Otherwise the keeper hears first, so that it never takes grade's
	 * next request for part of this run (spawn_via). */
	if (direct && !(WIFSIGNALED(m->status) && WTERMSIG(m->status) == SIGKILL)) {
		m->answered = 1;
		spawner_report(sock, m);
		m->answered = 0;
		spawner_report(k->sock, m);
		return;
	}
	spawner_report(sock, m);
}

static __attribute__((noreturn)) void spawner_main(struct keeper *k, int sock)
{
	struct msg *m = malloc(sizeof(*m));
	char ok = 1;

	prctl(PR_SET_NAME, "grade-spawner", 0, 0, 0);
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	if (!m || install_filter() < 0)
		ok = 0;
	if (write(sock, &ok, 1) != 1 || !ok)
		_exit(1);
	for (;;) {
		int fds[3];

		if (recv_msg(sock, m, fds, 3) < 0)
			_exit(0);
		if (m->type == M_RUN)
			spawner_run(k, sock, m, fds);
		else
			for (int i = 0; i < 3; i++)
				if (fds[i] >= 0)
					close(fds[i]);
	}
}

/* After every other layer (the spawner is born in them all). Where it
 * cannot be started, or the programs would share its uid, each run
 * installs the filter itself. */
static void start_spawner(struct keeper *k)
{
	int sv[2];
	char ok = 0;
	pid_t pid;

	/* Only where the programs run under a uid of their own: one that
	 * shared the spawner's could stop it, and so the run. */
	if (!k->L.seccomp || !k->L.uid_switch || !(k->fwd = malloc(sizeof(*k->fwd))) ||
	    socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return;
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		close(sv[0]);
		/* k->sock stays: the spawner answers grade itself where the
		 * keeper has nothing to add (spawn_via). It only writes there. */
		/* Only the keeper may keep the PID namespace's init alive. */
		if (k->life >= 0)
			close(k->life);
		spawner_main(k, sv[1]);
	}
	close(sv[1]);
	if (pid < 0 || read(sv[0], &ok, 1) != 1 || !ok) {
		close(sv[0]);
		if (pid > 0)
			waitpid(pid, NULL, 0);
		return;
	}
	k->spawner = sv[0];
	k->spawner_pid = pid;
}

/* A run through the spawner: the request goes on with the pipes; KILL
 * from grade and the tree's CPU limit are relayed; its report is the
 * run's end (m->answered: grade has it already). 0, or -1 with
 * c->res.error. */
static int spawn_via(struct keeper *k, struct run_child *c, int fds[4],
		     const int *join, int njoin, uint64_t cpu0, struct msg *m,
		     int direct)
{
	int64_t limit_ns = c->lim.cpu_sec > 0 ? (int64_t)(c->lim.cpu_sec * 1e9) : 0;
	int tick = (k->cg.caps & CG_CPU) && k->processes != 1 && limit_ns ? CPU_TICK_MS : -1;
	struct msg *f = k->fwd;
	int rc, killed = 0;

	if (pack_run(f, c) < 0) {
		snprintf(c->res.error, sizeof(c->res.error), "too many arguments");
		return -1;
	}
	f->bind_dir = c->bind_dir;
	f->njoin = njoin;
	f->direct = direct;
	memcpy(f->join, join, sizeof(int) * (size_t)njoin);
	rc = send_msg(k->spawner, f, fds, 3);
	for (int i = 0; i < 4; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	if (rc < 0) {
		snprintf(c->res.error, sizeof(c->res.error), "cannot reach the spawner: %s",
			 strerror(errno));
		return -1;
	}
	for (;;) {
		struct pollfd pf[2] = { { k->sock, POLLIN, 0 }, { k->spawner, POLLIN, 0 } };
		int fd1[1];

		if (poll(pf, 2, tick) < 0 && errno != EINTR)
			continue;
		/* The spawner's word first: once it has answered grade, what
		 * waits on k->sock is the next request, for the main loop. */
		if (pf[1].revents) {
			int tree = m->tree_cpu_killed;

			if (recv_msg(k->spawner, m, fd1, 1) < 0 || m->type != M_DONE) {
				snprintf(c->res.error, sizeof(c->res.error), "the spawner died");
				close(k->spawner);
				k->spawner = -1;
				return -1;
			}
			if (!m->ok) {
				snprintf(c->res.error, sizeof(c->res.error), "%s", m->text);
				return -1;
			}
			m->tree_cpu_killed = tree;
			c->pid = m->pid;
			c->res.exec_errno = m->stage_err;
			return 0;
		}
		if (pf[0].revents) {
			if (recv_msg(k->sock, m, fd1, 1) < 0)
				_exit(0);       /* grade is gone */
			if (m->type == M_KILL && !killed) {
				memset(f, 0, offsetof(struct msg, strings));
				f->type = M_KILL;
				send_msg(k->spawner, f, NULL, 0);
				killed = 1;
			}
			if (k->cg.caps & CG_KILL)
				cg_kill_all(&k->cg);
		}
		if (tick > 0 && !m->tree_cpu_killed &&
		    cg_cpu_ns(&k->cg) - (int64_t)cpu0 > limit_ns) {
			m->tree_cpu_killed = 1;
			memset(f, 0, offsetof(struct msg, strings));
			f->type = M_KILL;
			send_msg(k->spawner, f, NULL, 0);
			cg_kill_all(&k->cg);
		}
	}
}

static void serve_run(struct keeper *k, struct msg *m, int fds[4])
{
	const char *argv[MAX_ARGS + 1], *env[MAX_ARGS + 1];
	struct run_child c = RUN_CHILD_INIT;
	int join[CG_MAX_DIRS];
	struct run_spawn_extra x = { join, 0, k->L.ipc_ns, &k->ignored,
				     k->L.seccomp ? sysfilter_program() : NULL };
	uint64_t cpu0 = 0;
	int tree_killed = 0, direct;

	if (unpack_run(m, &c, argv, env) < 0) {
		snprintf(c.res.error, sizeof(c.res.error), "bad request to the keeper");
		goto failed;
	}
	if (k->deferred_errno) {
		snprintf(c.res.error, sizeof(c.res.error),
			 "cannot kill what the previous run left behind: %s",
			 strerror(k->deferred_errno));
		k->deferred_errno = 0;
		goto failed;
	}
	k->processes = (int)c.lim.nproc;
	/* In a user namespace of the caller's own uid, the keeper counts
	 * towards the program's RLIMIT_NPROC. */
	if (k->L.user_ns && !k->L.uid_switch && c.lim.nproc > 1)
		c.lim.nproc++;
	if (prepare(k, c.argv[0], c.dir, c.bind_dir, c.uid, c.gid) < 0) {
		snprintf(c.res.error, sizeof(c.res.error),
			 "cannot prepare the private folders for '%s': %s",
			 c.argv[0], strerror(errno));
		goto failed;
	}
	if (cg_set_limits(&k->cg, c.lim.mem_bytes, (uint64_t)(c.lim.nproc > 0 ? c.lim.nproc : 0)) < 0) {
		snprintf(c.res.error, sizeof(c.res.error), "cannot set the cgroup limits: %s",
			 strerror(errno));
		goto failed;
	}
	x.n_cg = cg_begin(&k->cg, k->processes != 1, join, &cpu0);
	/* With the filter no SysV object can be made: nothing to look for. */
	if (k->ipc_watch && !k->L.seccomp && ipc_dirty(k))
		ipc_renew(k);
	x.unshare_ipc = k->L.ipc_ns && !k->ipc_watch;
	if (k->spawner >= 0) {
		direct = k->processes == 1 && !cg_cpu_counted(&k->cg);
		memset(m, 0, offsetof(struct msg, strings));
		if (spawn_via(k, &c, fds, join, x.n_cg, cpu0, m, direct) < 0) {
			for (int i = 0; i < 4; i++)
				fds[i] = -1;
			goto failed;
		}
		if (m->answered) {
			k->deferred_errno = clean_up(k, c.pid, c.uid);
			return;
		}
	} else {
		if (run_spawn_local(&c, fds, &x) < 0)
			goto failed;
		for (int i = 0; i < 4; i++)
			if (fds[i] >= 0)
				close(fds[i]);
		/* No word to grade until the end: it pumps the pipes
		 * meanwhile, and one message less is a wake-up less. */
		memset(m, 0, offsetof(struct msg, strings));
		watch(k, &c, cpu0, m);
	}
	tree_killed = m->tree_cpu_killed;
	m->type = M_DONE;
	m->ok = 1;
	m->pid = c.pid;
	m->stage_err = c.res.exec_errno;
	m->cleanup_errno = clean_up(k, c.pid, c.uid);
	if (k->cg.caps & CG_CPU) {
		int64_t now = cg_cpu_ns(&k->cg);
		m->tree_cpu_ms = now < 0 ? -1 : (long)((now - (int64_t)cpu0) / 1000000);
	} else {
		m->tree_cpu_ms = -1;
	}
	m->tree_cpu_killed = tree_killed;
	/* The OOM killer's signal is SIGKILL; with children, any of them. */
	m->oom_killed = cg_oom_killed(&k->cg, k->processes != 1 ||
				      (WIFSIGNALED(m->status) && WTERMSIG(m->status) == SIGKILL));
	if (send_msg(k->sock, m, NULL, 0) < 0)
		_exit(0);
	return;
failed:
	for (int i = 0; i < 4; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	memset(m, 0, offsetof(struct msg, strings));
	m->type = M_DONE;
	snprintf(m->text, sizeof(m->text), "%s", c.res.error);
	if (send_msg(k->sock, m, NULL, 0) < 0)
		_exit(0);
}

static void keeper_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigemptyset(&sa.sa_mask);
	/* grade decides when runs stop (its own handlers); the keeper ends
	 * when grade closes the socket or dies. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
	sa.sa_handler = SIG_DFL;
	sigaction(SIGCHLD, &sa, NULL);
}

static void close_others(int keep)
{
#ifdef SYS_close_range
	if ((keep == 3 || syscall(SYS_close_range, 3u, (unsigned)keep - 1, 0u) == 0) &&
	    syscall(SYS_close_range, (unsigned)keep + 1, ~0u, 0u) == 0)
		return;
#endif
	for (int fd = 3; fd < 65536; fd++)
		if (fd != keep)
			close(fd);
}

static __attribute__((noreturn)) void keeper_main(const struct sandbox_config *cfg,
						  int sock, pid_t parent)
{
	struct keeper k = { .sock = sock, .cfg = cfg, .base_fd = -1, .life = -1,
			    .ipc_fd = { -1, -1, -1 }, .spawner = -1 };
	struct msg *m = malloc(sizeof(*m));
	sigset_t none;

	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	if (getppid() != parent || !m)
		_exit(1);
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	prctl(PR_SET_NAME, "grade-keeper", 0, 0, 0);
	keeper_signals();
	/* What the children must put back to SIG_DFL before exec. */
	sigemptyset(&k.ignored);
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction cur;

		if (sigaction(sig, NULL, &cur) == 0 && cur.sa_handler == SIG_IGN)
			sigaddset(&k.ignored, sig);
	}
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	close_others(sock);
	if (cfg->pin) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cfg->cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	run_probe_privileges();
	k.L.uid_switch = cfg->uid != (uid_t)-1 && cfg->uid != 0 && geteuid() == 0;
	/* The cgroups first: made from the host's view of the hierarchy. */
	if (getenv("WG_NO_CGROUP") && *getenv("WG_NO_CGROUP") &&
	    strcmp(getenv("WG_NO_CGROUP"), "0")) {
		memset(&k.cg, 0, sizeof(k.cg));
		snprintf(k.cg.why, sizeof(k.cg.why), "cgroups turned off (WG_NO_CGROUP)");
	} else {
		cg_open(&k.cg, cfg->slot);
	}
	k.L.cgroup_caps = k.cg.caps;
	k.L.cgroup = cg_version_name(&k.cg);
	k.L.children_cpu = (k.cg.caps & CG_CPU) != 0;
	if (k.cg.why[0])
		note(&k.L, "%s", k.cg.why);
	build_namespaces(&k);
	if (getenv("WG_NO_SECCOMP") && *getenv("WG_NO_SECCOMP") &&
	    strcmp(getenv("WG_NO_SECCOMP"), "0"))
		note(&k.L, "seccomp filter turned off (WG_NO_SECCOMP)");
	else if (sysfilter_program())
		k.L.seccomp = 1;
	else
		note(&k.L, "no seccomp filter for this machine's ABI");
	start_spawner(&k);
	memset(m, 0, offsetof(struct msg, strings));
	m->type = M_READY;
	m->layers = k.L;
	if (send_msg(sock, m, NULL, 0) < 0)
		_exit(0);
	for (;;) {
		int fds[4];

		if (recv_msg(sock, m, fds, 4) < 0)
			break;
		if (m->type == M_RUN)
			serve_run(&k, m, fds);
		else
			for (int i = 0; i < 4; i++)
				if (fds[i] >= 0)
					close(fds[i]);
	}
	/* The spawner ends at end of file, and is reaped before the PID
	 * namespace's init is let go: that init's exit waits for every
	 * process of the namespace to be gone, the spawner's zombie too. */
	if (k.spawner >= 0) {
		close(k.spawner);
		while (waitpid(k.spawner_pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	cg_close(&k.cg);
	if (k.init > 0) {
		close(k.life);
		while (waitpid(k.init, NULL, 0) < 0 && errno == EINTR)
			;
	}
	_exit(0);
}

/* ---- grade's side ---- */

/* Writes the keeper's one-to-one maps (root only). */
static int write_maps(pid_t keeper)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/gid_map", (int)keeper);
	if (write_text(path, "0 0 4294967295") < 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/uid_map", (int)keeper);
	return write_text(path, "0 0 4294967295");
}

static int await_ready(struct sandbox_slot *s, struct sandbox_layers *layers,
		       char *err, size_t errlen)
{
	int fds[1];

	for (;;) {
		if (recv_msg(s->sock, s->m, fds, 1) < 0) {
			snprintf(err, errlen, "the sandbox keeper of a slot died while "
				 "starting: %s", errno ? strerror(errno) : "end of file");
			return -1;
		}
		if (s->m->type == M_READY) {
			*layers = s->layers = s->m->layers;
			return 0;
		}
		if (s->m->type != M_NEED_MAP)
			continue;
		memset(s->m, 0, offsetof(struct msg, strings));
		s->m->type = M_MAPPED;
		s->m->ok = write_maps(s->keeper) == 0;
		if (send_msg(s->sock, s->m, NULL, 0) < 0) {
			snprintf(err, errlen, "cannot reach the sandbox keeper: %s",
				 strerror(errno));
			return -1;
		}
	}
}

int sandbox_open(struct sandbox_slot **out, const struct sandbox_config *cfg,
		 struct sandbox_layers *layers, char *err, size_t errlen)
{
	struct sandbox_slot *s = calloc(1, sizeof(*s));
	int sv[2];
	pid_t parent = getpid();

	*out = NULL;
	if (!s || !(s->m = calloc(1, sizeof(*s->m)))) {
		free(s);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		snprintf(err, errlen, "cannot make a socket pair: %s", strerror(errno));
		goto fail;
	}
	s->keeper = fork();
	if (s->keeper == 0) {
		close(sv[0]);
		keeper_main(cfg, sv[1], parent);
	}
	close(sv[1]);
	s->sock = sv[0];
	if (s->keeper < 0) {
		snprintf(err, errlen, "cannot fork the sandbox keeper: %s", strerror(errno));
		close(s->sock);
		goto fail;
	}
	if (await_ready(s, layers, err, errlen) < 0) {
		sandbox_close(s);
		return -1;
	}
	*out = s;
	return 0;
fail:
	free(s->m);
	free(s);
	return -1;
}

void sandbox_close(struct sandbox_slot *s)
{
	int st;

	if (!s)
		return;
	close(s->sock);
	while (waitpid(s->keeper, &st, 0) < 0 && errno == EINTR)
		;
	free(s->m);
	free(s);
}

const struct sandbox_layers *sandbox_layers_of(const struct sandbox_slot *s)
{
	return &s->layers;
}

int sandbox_fd(const struct sandbox_slot *s)
{
	return s->sock;
}

int sandbox_private_dirs(const struct sandbox_slot *s)
{
	return s && s->layers.private_tmp;
}

/* Packs c into RUN. */
static int pack_run(struct msg *m, const struct run_child *c)
{
	size_t off = 0;
	int i;

#define PUT(str) do { size_t l_ = strlen(str) + 1; \
	if (off + l_ > STRINGS) return -1; \
	memcpy(m->strings + off, (str), l_); off += l_; } while (0)
	memset(m, 0, offsetof(struct msg, strings));
	m->type = M_RUN;
	m->lim = c->lim;
	m->uid = c->uid;
	m->gid = c->gid;
	m->has_dir = c->dir != NULL;
	m->bind_dir = c->bind_dir;
	PUT(c->argv[0]);
	PUT(c->dir ? c->dir : "");
	for (i = 0; c->argv[i]; i++) {
		if (i >= MAX_ARGS - 1)
			return -1;
		PUT(c->argv[i]);
	}
	m->argc = i;
	for (i = 0; c->env && c->env[i]; i++) {
		if (i >= MAX_ARGS - 1)
			return -1;
		PUT(c->env[i]);
	}
	m->envc = i;
#undef PUT
	m->strings_len = off;
	return 0;
}

static int slot_fail(struct run_child *c, const char *what)
{
	snprintf(c->res.error, sizeof(c->res.error), "sandbox keeper: %s: %s", what,
		 errno ? strerror(errno) : "end of file");
	return -1;
}

int sandbox_spawn(struct sandbox_slot *s, struct run_child *c, const int child_ends[3])
{
	int fds[3] = { child_ends[0], child_ends[1], child_ends[2] }, rc;
	struct msg *m = s->m;

	if (pack_run(m, c) < 0) {
		snprintf(c->res.error, sizeof(c->res.error),
			 "too many or too long arguments for '%s'", c->argv[0]);
		return -1;
	}
	rc = send_msg(s->sock, m, fds, 3);
	if (rc < 0)
		return slot_fail(c, "cannot send the run");
	c->res.uid_switched = s->layers.uid_switch;
	c->res.hidden = s->layers.mount_ns;
	return 0;
}

int sandbox_kill(struct sandbox_slot *s)
{
	struct msg *m = s->m;

	memset(m, 0, offsetof(struct msg, strings));
	m->type = M_KILL;
	return send_msg(s->sock, m, NULL, 0);
}

int sandbox_wait(struct sandbox_slot *s, struct run_child *c, int *status,
		 struct rusage *ru)
{
	struct msg *m = s->m;
	int fds[1], rc;

	rc = recv_msg(s->sock, m, fds, 1);
	if (rc < 0 || m->type != M_DONE)
		return slot_fail(c, "no end of run");
	if (!m->ok) {           /* it could not be started: nothing ran */
		snprintf(c->res.error, sizeof(c->res.error), "%s", m->text);
		return -1;
	}
	c->pid = c->res.pid = m->pid;
	if (m->stage_err) {
		c->res.exec_errno = m->stage_err;
		c->res.exec_stage = "exec";
	}
	*status = m->status;
	memset(ru, 0, sizeof(*ru));
	ru->ru_utime.tv_sec = m->utime_us / 1000000;
	ru->ru_utime.tv_usec = m->utime_us % 1000000;
	ru->ru_stime.tv_sec = m->stime_us / 1000000;
	ru->ru_stime.tv_usec = m->stime_us % 1000000;
	ru->ru_maxrss = m->maxrss_kb;
	c->res.tree_cpu_ms = m->tree_cpu_ms;
	c->res.tree_cpu_killed = m->tree_cpu_killed;
	c->res.oom_killed = m->oom_killed;
	rc = 0;
	if (m->cleanup_errno) {
		snprintf(c->res.error, sizeof(c->res.error),
			 "cannot kill what the run left behind: %s",
			 strerror(m->cleanup_errno));
		rc = -1;
	}
	return rc;
}

/* ---- killing a uid from outside ---- */

/* 1 when /proc/PID/status names uid among the real, effective, saved ids
 * of a live process. */
static int runs_as(const char *pid, uid_t uid)
{
	char path[64], buf[2048], *p;
	unsigned long r, e, s;
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/status", pid);
	if ((fd = proc_open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* A zombie is dead already (a parent that never reaps, such as a
	 * container's init, can keep one forever). */
	if ((p = strstr(buf, "\nState:"))) {
		char st = p[8 + strspn(p + 8, " \t")];
		if (st == 'Z' || st == 'X')
			return 0;
	}
	if (!(p = strstr(buf, "\nUid:")) || sscanf(p + 5, "%lu %lu %lu", &r, &e, &s) != 3)
		return 0;
	return r == uid || e == uid || s == uid;
}

static int kill_round(uid_t uid)
{
	int fd = proc_open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	int n = 0;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while ((e = readdir(d)))
		if (e->d_name[0] >= '1' && e->d_name[0] <= '9' && runs_as(e->d_name, uid) &&
		    kill((pid_t)atol(e->d_name), SIGKILL) == 0)
			n++;
	closedir(d);
	return n;
}

int sandbox_kill_uid(uid_t uid)
{
	int n = 0;

	if (uid == 0 || uid == (uid_t)-1)
		return 0;
	/* A process forked during a round is found by the next; the process
	 * limit bounds how many rounds that can take. */
	for (int round = 0; round < 50; round++) {
		if ((n = kill_round(uid)) <= 0)
			return n < 0 ? 1 : 0;
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
	}
	return n;
}

/* ---- the account ---- */

int sandbox_path_visible(const char *path)
{
	char top[PATH_MAX];
	size_t n;

	if (path[0] != '/')
		return 0;
	n = strcspn(path + 1, "/");
	snprintf(top, sizeof(top), "%.*s", (int)n, path + 1);
	return kept(top) && strcmp(top, "tmp");
}

int sandbox_namespaces_disabled(void)
{
	const char *v = getenv("WG_NO_NAMESPACES");

	return v && *v && strcmp(v, "0");
}

void sandbox_print_layers(FILE *out, const struct sandbox_layers *l)
{
	static const struct { const char *name; size_t off; const char *what; } rows[] = {
		{ "uid switch", offsetof(struct sandbox_layers, uid_switch),
		  "each slot runs under its own uid" },
		{ "user namespace", offsetof(struct sandbox_layers, user_ns),
		  "the namespaces below without CAP_SYS_ADMIN" },
		{ "mount namespace", offsetof(struct sandbox_layers, mount_ns),
		  "suite and submissions masked, host read-only" },
		{ "private /tmp", offsetof(struct sandbox_layers, private_tmp),
		  "fresh /tmp, /var/tmp, /dev/shm, scratch per case" },
		{ "ipc namespace", offsetof(struct sandbox_layers, ipc_ns),
		  "fresh SysV and POSIX IPC per case" },
		{ "network namespace", offsetof(struct sandbox_layers, net_ns),
		  "no network" },
		{ "pid namespace", offsetof(struct sandbox_layers, pid_ns),
		  "programs can signal only each other" },
		{ "private /proc", offsetof(struct sandbox_layers, private_proc),
		  "the slot's processes only" },
		{ "seccomp filter", offsetof(struct sandbox_layers, seccomp),
		  "no keyrings, SysV IPC, inet sockets, namespaces" },
		{ "children's CPU", offsetof(struct sandbox_layers, children_cpu),
		  "every process's CPU counts against the limit" },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int on = *(const int *)((const char *)l + rows[i].off);
		fprintf(out, "  %-18s %-4s %s\n", rows[i].name, on ? "yes" : "no",
			rows[i].what);
	}
	fprintf(out, "  %-18s %-4s controls:%s%s%s%s\n", "cgroup", l->cgroup ? l->cgroup : "no",
		l->cgroup_caps & CG_KILL ? " kill" : "", l->cgroup_caps & CG_CPU ? " cpu" : "",
		l->cgroup_caps & CG_MEM ? " memory" : "", l->cgroup_caps & CG_PIDS ? " pids" : "");
	if (l->missing[0])
		fprintf(out, "  missing: %s\n", l->missing);
}
