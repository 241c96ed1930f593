/*
 * sb_attack: a hostile submission for tests/e2e/test_sandbox.sh. The first
 * word of stdin picks the attack; each prints one line saying whether it
 * got through, so a suite whose expected output is the "blocked" line fails
 * (WA) whenever a defence is missing. Every attack is bounded: it stops by
 * itself after a few seconds at most, whatever the sandbox does.
 *
 *   tmp            leave a file in /tmp, /var/tmp, /dev/shm and the working
 *                  folder, or report one an earlier case left: "clean"
 *   stamp          see whether an earlier case moved /tmp's mtime (a file
 *                  made and removed, every count unchanged), then do it:
 *                  "clean"
 *   ipc            the same with SysV shared memory, a semaphore set, a
 *                  message queue and a POSIX queue: "clean"
 *   net PORT NAME  send to 127.0.0.1:PORT (TCP and UDP) and to the
 *                  abstract unix socket NAME: "blocked"
 *   peek           list the scratch folder, other slots' folders and run
 *                  other programs found there: "isolated"
 *   ro             write to the program's own file or folder: "readonly"
 *   stack          print the stack limit: "stack N"
 *   cpu N MS       N workers burn MS ms of CPU each, reported by pipe; the
 *                  parent never waits for them: "done"
 *   stop MS        a child leaves the group and, for MS ms, SIGSTOPs every
 *                  process it may; the parent exits at once: "ok"
 *   shm MIB        write MIB MiB to /dev/shm: "wrote" (an OOM kill is MLE)
 *   fill           fill the working folder and /tmp (at most 512 MiB):
 *                  "full"
 *   mounts         print the mount sources that name warpgrade: "neutral"
 *   rss            nothing at all (its max RSS is the point): "ok"
 *   proc           open the environ and mem of every process named grade
 *                  or grade-keeper: "sealed"
 *   procs          list the processes in /proc other than itself and pid
 *                  1 (another slot's program, grade): "alone"
 *   fds            look for a descriptor of the harness's: one of its own
 *                  past 0-2 (grade's socket to the keeper, a pipe), or one
 *                  taken with pidfd_getfd from any process it can see
 *                  (the spawner holds grade's socket): "closed"
 *   calls          the calls that carry data past every namespace: a key
 *                  in the user keyring, a SysV segment made and removed,
 *                  an inet socket, a namespace or mount of its own: each
 *                  one that works is named, else "refused"
 *   fork N         N children (at most 64), each exits at once and is
 *                  reaped before the next: "ok"
 *   pid            "fresh" when its pid is one a new PID namespace gives
 *                  its first run (1 is the init, 2 the spawner where there
 *                  is one), else "pid N": an earlier case's forks moved
 *                  the namespace's counter, a channel into this case
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int leak_file(const char *path)
{
	FILE *f = fopen(path, "r");

	if (f) {
		fclose(f);
		printf("LEAK %s\n", path);
		return 1;
	}
	if ((f = fopen(path, "w"))) {
		fputs("hidden input\n", f);
		fclose(f);
	}
	return 0;
}

/* An earlier case that created and deleted a file in /tmp left /tmp's
 * mtime later than the birth of the folders the sandbox made there with
 * it: a channel of its own choosing (when). 1 when that is seen. */
static int stale_mtime(void)
{
	struct statx root, child;
	DIR *d = opendir("/tmp");
	struct dirent *e;
	int stale = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && strncmp(e->d_name, "wg-", 3))
			break;
	if (e) {
		char path[300];
		snprintf(path, sizeof(path), "/tmp/%s", e->d_name);
		if (statx(AT_FDCWD, "/tmp", 0, STATX_MTIME, &root) == 0 &&
		    statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_BTIME, &child) == 0 &&
		    (child.stx_mask & STATX_BTIME)) {
			/* tv_nsec is unsigned (__u32): a child born in a later
			 * tick than /tmp's last change (the scratch area is
			 * mounted after its mount point is made) would wrap
			 * to seconds. */
			long long dt = (root.stx_mtime.tv_sec - child.stx_btime.tv_sec) * 1000000000LL +
				       ((long long)root.stx_mtime.tv_nsec -
					(long long)child.stx_btime.tv_nsec);
			stale = dt > 1000000;   /* 1 ms */
		}
	}
	closedir(d);
	return stale;
}

static void do_tmp(void)
{
	static const char *const paths[] = { "/tmp/wg-leak", "/var/tmp/wg-leak",
					     "/dev/shm/wg-leak", "wg-leak" };
	int leaks = 0;

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		leaks += leak_file(paths[i]);
	/* What "fill" left in an earlier case. */
	if (access("/tmp/wg-fill-0", F_OK) == 0 || access("wg-fill-0", F_OK) == 0) {
		printf("LEAK fill\n");
		leaks++;
	}
	if (!leaks)
		printf("clean\n");
}

/* Reads the channel, then writes it for the next case: a file made and
 * removed again, which leaves every count as it was. */
static void do_stamp(void)
{
	int stale = stale_mtime();
	FILE *f = fopen("/tmp/wg-stamp", "w");

	if (f)
		fclose(f);
	unlink("/tmp/wg-stamp");
	printf(stale ? "LEAK mtime\n" : "clean\n");
}

static void do_ipc(void)
{
	key_t key = 0x57470001;
	int leaks = 0, id;
	mqd_t q;

	if ((id = shmget(key, 4096, 0)) >= 0) {
		printf("LEAK shm\n");
		leaks++;
	} else {
		shmget(key, 4096, IPC_CREAT | 0600);
	}
	if (semget(key, 1, 0) >= 0) {
		printf("LEAK sem\n");
		leaks++;
	} else {
		semget(key, 1, IPC_CREAT | 0600);
	}
	if (msgget(key, 0) >= 0) {
		printf("LEAK msg\n");
		leaks++;
	} else {
		msgget(key, IPC_CREAT | 0600);
	}
	if ((q = mq_open("/wg-leak", O_RDONLY)) != (mqd_t)-1) {
		printf("LEAK mqueue\n");
		leaks++;
		mq_close(q);
	} else if ((q = mq_open("/wg-leak", O_RDONLY | O_CREAT, 0600, NULL)) != (mqd_t)-1) {
		mq_close(q);
	}
	if (!leaks)
		printf("clean\n");
}

static void do_net(int port, const char *name)
{
	struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	int sent = 0, s;

	in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if ((s = socket(AF_INET, SOCK_STREAM, 0)) >= 0) {
		if (connect(s, (struct sockaddr *)&in, sizeof(in)) == 0 &&
		    write(s, "hidden\n", 7) == 7) {
			printf("SENT tcp\n");
			sent++;
		}
		close(s);
	}
	if ((s = socket(AF_INET, SOCK_DGRAM, 0)) >= 0) {
		if (sendto(s, "hidden\n", 7, 0, (struct sockaddr *)&in, sizeof(in)) == 7) {
			printf("SENT udp\n");
			sent++;
		}
		close(s);
	}
	snprintf(un.sun_path + 1, sizeof(un.sun_path) - 1, "%.100s", name);
	if ((s = socket(AF_UNIX, SOCK_STREAM, 0)) >= 0) {
		socklen_t len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + strlen(name));
		if (connect(s, (struct sockaddr *)&un, len) == 0 &&
		    write(s, "hidden\n", 7) == 7) {
			printf("SENT abstract\n");
			sent++;
		}
		close(s);
	}
	if (!sent)
		printf("blocked\n");
}

/* The scratch folder is two levels above the program (BASE/bin/sub-N). */
static void do_peek(void)
{
	char exe[4096], base[4096], path[4200], cwd[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int reached = 0;
	DIR *d;

	if (n <= 0) {
		printf("isolated\n");
		return;
	}
	exe[n] = '\0';
	snprintf(base, sizeof(base), "%s", exe);
	for (int up = 0; up < 2; up++)
		if (strrchr(base, '/'))
			*strrchr(base, '/') = '\0';
	for (int k = 0; k < 8; k++) {
		snprintf(path, sizeof(path), "%s/bin/sub-%d", base, k);
		if (strcmp(path, exe) && access(path, X_OK) == 0) {
			printf("REACH %s\n", path + strlen(base));
			reached++;
		}
		snprintf(path, sizeof(path), "%s/slot-%d", base, k);
		if ((d = opendir(path))) {
			closedir(d);
			if (strcmp(getcwd(cwd, sizeof(cwd)) ? cwd : "", path)) {
				printf("REACH %s\n", path + strlen(base));
				reached++;
			}
		}
		snprintf(path, sizeof(path), "%s/build-%d", base, k);
		if (access(path, F_OK) == 0) {
			printf("REACH %s\n", path + strlen(base));
			reached++;
		}
	}
	snprintf(path, sizeof(path), "%s/bin", base);
	if ((d = opendir(path))) {
		struct dirent *e;
		int others = 0;

		while ((e = readdir(d)))
			others += e->d_name[0] != '.';
		closedir(d);
		if (others > 1) {
			printf("REACH listing of bin (%d programs)\n", others);
			reached++;
		}
	}
	if (!reached)
		printf("isolated\n");
}

static void do_ro(void)
{
	char exe[4096], dir[4200];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int fd, w = 0;

	if (n <= 0) {
		printf("readonly\n");
		return;
	}
	exe[n] = '\0';
	if ((fd = open(exe, O_WRONLY)) >= 0) {
		printf("WRITABLE program\n");
		w++;
		close(fd);
	}
	snprintf(dir, sizeof(dir), "%s.planted", exe);
	if ((fd = open(dir, O_WRONLY | O_CREAT, 0700)) >= 0) {
		printf("WRITABLE folder\n");
		w++;
		close(fd);
		unlink(dir);
	}
	if (!w)
		printf("readonly\n");
}

static void burn(int ms)
{
	double until = 0;
	struct rusage ru;

	do {
		for (volatile int i = 0; i < 100000; i++)
			;
		getrusage(RUSAGE_SELF, &ru);
		until = ru.ru_utime.tv_sec * 1000.0 + ru.ru_utime.tv_usec / 1000.0;
	} while (until < ms);
}

static void do_cpu(int n, int ms)
{
	int p[2];
	char c;

	if (n > 16 || pipe(p) < 0) {
		printf("cannot\n");
		return;
	}
	for (int i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			burn(ms);
			if (write(p[1], "x", 1) != 1)
				_exit(1);
			_exit(0);
		}
		if (pid < 0) {
			printf("cannot fork\n");
			return;
		}
	}
	close(p[1]);
	for (int i = 0; i < n; i++)
		if (read(p[0], &c, 1) != 1)
			break;
	printf("done\n");
}

static void do_stop(int ms)
{
	pid_t pid = fork();

	if (pid == 0) {
		double end = now() + ms / 1000.0;

		setsid();
		while (now() < end) {
			kill(-1, SIGSTOP);
			usleep(1000);
		}
		_exit(0);
	}
	printf("ok\n");
}

/* Half a MiB per file: the file-size limit (the output limit) is not
 * what this is about. */
static void do_shm(int mib)
{
	static char chunk[1 << 19];
	char path[64];

	memset(chunk, 'x', sizeof(chunk));
	for (int i = 0; i < 2 * mib && i < 2048; i++) {
		snprintf(path, sizeof(path), "/dev/shm/wg-fill-%d", i);
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0)
			break;
		ssize_t w = write(fd, chunk, sizeof(chunk));
		close(fd);
		if (w != (ssize_t)sizeof(chunk))
			break;
	}
	printf("wrote\n");
}

static void do_fill(void)
{
	static char chunk[1 << 16];
	char path[64];
	long total = 0;

	for (int dir = 0; dir < 2; dir++)
		for (int i = 0; i < 4096 && total < (512L << 20); i++) {
			snprintf(path, sizeof(path), "%s/wg-fill-%d", dir ? "/tmp" : ".", i);
			int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
			if (fd < 0)
				break;
			ssize_t w = write(fd, chunk, sizeof(chunk));
			close(fd);
			if (w != (ssize_t)sizeof(chunk))
				break;
			total += w;
		}
	printf("full\n");
}

static void do_mounts(void)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[8192];
	int named = 0;

	while (f && fgets(line, sizeof(line), f)) {
		char *dash = strstr(line, " - ");
		if (dash && strstr(dash, "warpgrade")) {
			fputs(line, stdout);
			named++;
		}
	}
	if (f)
		fclose(f);
	if (!named)
		printf("neutral\n");
}

static void do_proc(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int open_ = 0, seen = 0;

	while (d && (e = readdir(d))) {
		char path[300], comm[64] = "";
		FILE *f;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", e->d_name);
		if (!(f = fopen(path, "r")))
			continue;
		if (!fgets(comm, sizeof(comm), f))
			comm[0] = '\0';
		fclose(f);
		if (strcmp(comm, "grade\n") && strcmp(comm, "grade-keeper\n"))
			continue;
		seen++;
		static const char *const files[] = { "environ", "mem", "maps" };
		for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
			snprintf(path, sizeof(path), "/proc/%s/%s", e->d_name, files[i]);
			int fd = open(path, O_RDONLY);
			char b[64];
			/* A zombie's files open but hold nothing: what
			 * counts is reading. mem is read where maps says
			 * the first mapping is. */
			if (fd >= 0 && i == 1) {
				unsigned long lo = 0;
				char m[300];
				FILE *mf;
				snprintf(m, sizeof(m), "/proc/%s/maps", e->d_name);
				if ((mf = fopen(m, "r"))) {
					if (fscanf(mf, "%lx", &lo) != 1)
						lo = 0;
					fclose(mf);
				}
				if (lo && pread(fd, b, sizeof(b), (off_t)lo) > 0) {
					printf("OPEN %s of %s", files[i], comm);
					open_++;
				}
			} else if (fd >= 0 && read(fd, b, sizeof(b)) > 0) {
				printf("OPEN %s of %s", files[i], comm);
				open_++;
			}
			if (fd >= 0)
				close(fd);
		}
	}
	if (d)
		closedir(d);
	if (!open_)
		printf("sealed\n");
	(void)seen;
}

static void do_procs(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int others = 0;
	long self = (long)getpid();

	while (d && (e = readdir(d))) {
		long pid = atol(e->d_name);
		char path[300], comm[64] = "";
		FILE *f;

		if (pid <= 1 || pid == self)
			continue;
		/* The slot's own spawner (root, its parent) is no other slot's. */
		snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
		if ((f = fopen(path, "r"))) {
			if (!fgets(comm, sizeof(comm), f))
				comm[0] = '\0';
			fclose(f);
		}
		if (strcmp(comm, "grade-spawner\n"))
			others++;
	}
	if (d)
		closedir(d);
	if (others)
		printf("SEE %d other processes\n", others);
	else
		printf("alone\n");
}

/* The slot's helpers in its PID namespace (its init, pid 1, and as root
 * its spawner, pid 2) are forks of grade: their command line names the
 * suite and the classmates, and the spawner's statistics add up every
 * program it reaped (a counter one case could set and the next read).
 * None of it may be readable. */
static void do_helpers(void)
{
	static const char *const files[] = {
		"/proc/1/cmdline", "/proc/2/cmdline", "/proc/1/stat", "/proc/2/stat",
		"/proc/1/status", "/proc/2/status", "/proc/2/sched",
	};
	int leaks = 0;

	for (size_t i = 0; i < sizeof(files) / sizeof(*files); i++) {
		char buf[512];
		FILE *f = fopen(files[i], "r");
		size_t n = f ? fread(buf, 1, sizeof(buf), f) : 0;
		size_t nonzero = 0;

		if (f)
			fclose(f);
		for (size_t k = 0; k < n; k++)
			nonzero += buf[k] != '\0';
		if (nonzero) {
			printf("READ %s\n", files[i]);
			leaks++;
		}
	}
	if (!leaks)
		printf("hidden\n");
}

/* /sys holds counters anyone may read and a run can move: the memory
 * and cpu statistics of the cgroups above the slot's (they add up the
 * slot's own), and machine-wide ones. A case could set one and a later
 * case read it. None of /sys may be visible. */
static void do_sysfs(void)
{
	static const char *const files[] = {
		"/sys/fs/cgroup/memory/memory.stat", "/sys/fs/cgroup/cpu.stat",
		"/sys/fs/cgroup/unified/cpu.stat", "/sys/devices/system/node/node0/numastat",
		"/sys/kernel/mm/transparent_hugepage/enabled",
	};
	DIR *d = opendir("/sys");
	struct dirent *e;
	int seen = 0;

	while (d && (e = readdir(d)))
		seen += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	if (d)
		closedir(d);
	for (size_t i = 0; i < sizeof(files) / sizeof(*files); i++) {
		FILE *f = fopen(files[i], "r");

		if (f) {
			printf("READ %s\n", files[i]);
			fclose(f);
			seen++;
		}
	}
	if (seen)
		printf("SEE %d in /sys\n", seen);
	else
		printf("masked\n");
}

/* grade's terminal: a program that could open it could write to the
 * staff's screen or, where TIOCSTI works, type into their shell. Every
 * program is born in a session without a terminal. */
static void do_tty(void)
{
	int fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);

	if (fd >= 0) {
		printf("TTY open\n");
		close(fd);
	} else {
		printf("detached\n");
	}
}

static void do_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int got = 0, dfd = d ? dirfd(d) : -1;
	long self = (long)getpid();

	while (d && (e = readdir(d))) {
		int fd = atoi(e->d_name);

		if (e->d_name[0] >= '0' && e->d_name[0] <= '9' && fd > 2 && fd != dfd) {
			printf("OWN fd %d\n", fd);
			got++;
		}
	}
	if (d)
		closedir(d);
#if defined(SYS_pidfd_open) && defined(SYS_pidfd_getfd)
	d = opendir("/proc");
	while (d && (e = readdir(d))) {
		long pid = atol(e->d_name);
		int pfd;

		if (pid < 1 || pid == self ||
		    (pfd = (int)syscall(SYS_pidfd_open, (pid_t)pid, 0)) < 0)
			continue;
		for (int fd = 0; fd < 64; fd++) {   /* bounded */
			int t = (int)syscall(SYS_pidfd_getfd, pfd, fd, 0);

			if (t >= 0) {
				printf("TOOK fd %d of pid %ld\n", fd, pid);
				close(t);
				got++;
				break;
			}
		}
		close(pfd);
	}
	if (d)
		closedir(d);
#endif
	if (!got)
		printf("closed\n");
}

/* A machine-wide count of mounts (the unique mount ids): each way a
 * program could read one, refused by the filter (EPERM; ENOSYS: a kernel
 * before 6.8 has none). Any other answer reached the kernel. */
static int mount_ids(void)
{
	static const struct { long nr; const char *name; } calls[] = {
		{ 457, "statmount" }, { 458, "listmount" },
	};
	struct { unsigned bytes; int type; unsigned char f[128]; } h = { 128, 0, { 0 } };
	unsigned char sx[256];
	int got = 0, mnt;

	for (size_t i = 0; i < sizeof(calls) / sizeof(*calls); i++)
		if (syscall(calls[i].nr, NULL, NULL, 0, 0) == 0 ||
		    (errno != EPERM && errno != ENOSYS)) {
			printf("CALL %s\n", calls[i].name);
			got++;
		}
	if (syscall(SYS_name_to_handle_at, AT_FDCWD, "/", &h, &mnt, 0) == 0 ||
	    (errno != EPERM && errno != ENOSYS)) {
		printf("CALL name_to_handle_at\n");
		got++;
	}
	/* statx(AT_FDCWD, "/", 0, STATX_MNT_ID_UNIQUE, buf) */
	if (syscall(SYS_statx, AT_FDCWD, "/", 0, 0x4000u, sx) == 0 || errno != EPERM) {
		printf("CALL statx(STATX_MNT_ID_UNIQUE)\n");
		got++;
	}
	return got;
}

static void do_calls(void)
{
	int got = 0, fd;

	if (syscall(SYS_add_key, "user", "wg-leak", "hidden", 6, -4 /* user keyring */) >= 0) {
		printf("CALL add_key\n");
		got++;
	}
	if ((fd = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600)) >= 0) {
		shmctl(fd, IPC_RMID, NULL);
		printf("CALL shmget\n");
		got++;
	}
	if ((fd = socket(AF_INET, SOCK_DGRAM, 0)) >= 0) {
		close(fd);
		printf("CALL socket(AF_INET)\n");
		got++;
	}
	if (unshare(CLONE_NEWUSER) == 0) {
		printf("CALL unshare\n");
		got++;
	}
	got += mount_ids();
	if (!got)
		printf("refused\n");
}

static void do_fork(int n)
{
	for (int i = 0; i < n; i++) {
		pid_t p = fork();

		if (p == 0)
			_exit(0);
		if (p < 0)
			break;
		while (waitpid(p, NULL, 0) < 0 && errno == EINTR)
			;
	}
	printf("ok\n");
}

static void do_pid(void)
{
	long self = (long)getpid();

	if (self <= 3)
		printf("fresh\n");
	else
		printf("pid %ld\n", self);
}

int main(void)
{
	char word[32] = "", name[128] = "";
	int a = 0, b = 0;

	if (scanf("%31s", word) != 1)
		return 2;
	if (!strcmp(word, "tmp"))
		do_tmp();
	else if (!strcmp(word, "ipc"))
		do_ipc();
	else if (!strcmp(word, "stamp"))
		do_stamp();
	else if (!strcmp(word, "net") && scanf("%d %127s", &a, name) == 2)
		do_net(a, name);
	else if (!strcmp(word, "peek"))
		do_peek();
	else if (!strcmp(word, "ro"))
		do_ro();
	else if (!strcmp(word, "stack")) {
		struct rlimit rl;
		getrlimit(RLIMIT_STACK, &rl);
		if (rl.rlim_cur == RLIM_INFINITY)
			printf("stack unlimited\n");
		else
			printf("stack %llu\n", (unsigned long long)rl.rlim_cur);
	} else if (!strcmp(word, "cpu") && scanf("%d %d", &a, &b) == 2)
		do_cpu(a, b > 3000 ? 3000 : b);
	else if (!strcmp(word, "stop") && scanf("%d", &a) == 1)
		do_stop(a > 5000 ? 5000 : a);
	else if (!strcmp(word, "shm") && scanf("%d", &a) == 1)
		do_shm(a);
	else if (!strcmp(word, "fill"))
		do_fill();
	else if (!strcmp(word, "mounts"))
		do_mounts();
	else if (!strcmp(word, "rss"))
		printf("ok\n");
	else if (!strcmp(word, "proc"))
		do_proc();
	else if (!strcmp(word, "calls"))
		do_calls();
	else if (!strcmp(word, "procs"))
		do_procs();
	else if (!strcmp(word, "fds"))
		do_fds();
	else if (!strcmp(word, "helpers"))
		do_helpers();
	else if (!strcmp(word, "sysfs"))
		do_sysfs();
	else if (!strcmp(word, "tty"))
		do_tty();
	else if (!strcmp(word, "fork") && scanf("%d", &a) == 1)
		do_fork(a > 64 ? 64 : a);
	else if (!strcmp(word, "pid"))
		do_pid();
	else
		return 2;
	return 0;
}
