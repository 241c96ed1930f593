/*
 * bench_layers: the floor of a grade process's set-up, the kernel's own
 * work for the sandbox's layers and nothing of the grader: a keeper is
 * forked, makes a group in each cgroup hierarchy grade uses that it finds
 * (v1 freezer, cpuacct, memory and pids, and the v2 tree), unshares
 * mount, network and IPC namespaces,
 * mounts a tmpfs root with two read-only binds and a private /tmp,
 * unshares a PID namespace whose init mounts /proc and runs /bin/true
 * moved into the groups; then everything ends and the groups are removed.
 * grade does all that and more (the minimal root's libraries, seccomp,
 * about 25 mounts, hidepid, the scratch tree, the suite): `make
 * bench-grade` prints this beside its step account, so what the layers
 * cost at least on a machine is a figure, not a guess.
 *
 *   bench_layers N GAP_MS
 * runs it N times (1-1000), GAP_MS milliseconds apart (0-1000: after an
 * idle spell the first cgroup migration waits for an RCU grace period),
 * and prints the fastest, median and 90th percentile. Root only (exit 77
 * otherwise, or where namespaces are refused); bounded: N runs of one
 * /bin/true each.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_GROUPS 5

static char groups[MAX_GROUPS][64];
static int ngroups;

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The hierarchies grade uses (cgroup.c), where mounted: v1 freezer,
 * cpuacct, memory and pids, and the v2 tree (a hybrid host's, or the
 * whole of a v2 host). */
static void find_hierarchies(void)
{
	static const char *const tree[] = {
		"/sys/fs/cgroup/freezer", "/sys/fs/cgroup/cpuacct", "/sys/fs/cgroup/memory",
		"/sys/fs/cgroup/pids", "/sys/fs/cgroup/unified",
	};

	for (int i = 0; i < MAX_GROUPS; i++)
		if (is_dir(tree[i]))
			snprintf(groups[ngroups++], sizeof groups[0], "%s", tree[i]);
	if (!ngroups && access("/sys/fs/cgroup/cgroup.procs", F_OK) == 0)
		snprintf(groups[ngroups++], sizeof groups[0], "/sys/fs/cgroup");
}

static void join(const char *group)
{
	char path[1024];
	int fd;

	snprintf(path, sizeof path, "%s/cgroup.procs", group);
	fd = open(path, O_WRONLY);
	if (fd >= 0) {
		if (write(fd, "0", 1) < 0)
			perror(path);
		close(fd);
	}
}

/* PID 1 of the new namespace: /proc, then one program in the groups. */
static int pid_init(const char *root, char mine[][160])
{
	char proc[300];
	pid_t p;
	int st;

	snprintf(proc, sizeof proc, "%s/proc", root);
	if (mount("proc", proc, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
		return 1;
	p = fork();
	if (p == 0) {
		for (int g = 0; g < ngroups; g++)
			join(mine[g]);
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	return p < 0 || waitpid(p, &st, 0) < 0 || st != 0;
}

static int mounts(const char *root)
{
	static const char *const dirs[] = { "bin", "lib", "proc", "tmp" };
	char path[300];

	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=755") < 0)
		return -1;
	for (int i = 0; i < 4; i++) {
		snprintf(path, sizeof path, "%s/%s", root, dirs[i]);
		if (mkdir(path, 0755) < 0)
			return -1;
	}
	snprintf(path, sizeof path, "%s/bin", root);
	if (mount("/usr/bin", path, NULL, MS_BIND, NULL) < 0 ||
	    mount(NULL, path, NULL, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID, NULL) < 0)
		return -1;
	snprintf(path, sizeof path, "%s/lib", root);
	if (mount("/usr/lib", path, NULL, MS_BIND, NULL) < 0 ||
	    mount(NULL, path, NULL, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID, NULL) < 0)
		return -1;
	snprintf(path, sizeof path, "%s/tmp", root);
	return mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m");
}

/* The keeper: groups, namespaces, mounts, the PID namespace; 0 or 1. */
static int keeper(const char *root)
{
	char mine[MAX_GROUPS][160];
	int rc = 1, st;
	pid_t p;

	for (int g = 0; g < ngroups; g++) {
		snprintf(mine[g], sizeof mine[g], "%s/bench-layers-%d", groups[g], (int)getpid());
		if (mkdir(mine[g], 0755) < 0)
			return 1;
	}
	if (unshare(CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC) == 0 &&
	    mounts(root) == 0 && unshare(CLONE_NEWPID) == 0 && (p = fork()) >= 0) {
		if (p == 0)
			_exit(pid_init(root, mine));
		rc = waitpid(p, &st, 0) < 0 || st != 0;
	}
	for (int g = 0; g < ngroups; g++)
		rmdir(mine[g]);
	return rc;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	char root[] = "/tmp/bench-layers-XXXXXX";
	int n = argc == 3 ? atoi(argv[1]) : 0, gap = argc == 3 ? atoi(argv[2]) : -1;
	double *t;

	if (n < 1 || n > 1000 || gap < 0 || gap > 1000) {
		fprintf(stderr, "usage: bench_layers N GAP_MS\n");
		return 2;
	}
	if (geteuid() != 0) {
		printf("bench_layers: not root, nothing measured\n");
		return 77;
	}
	find_hierarchies();
	if (!mkdtemp(root) || !(t = malloc((size_t)n * sizeof *t)))
		return 1;
	for (int i = 0; i < n; i++) {
		struct timespec g = { gap / 1000, (long)(gap % 1000) * 1000000L };
		double a;
		pid_t k;
		int st;

		nanosleep(&g, NULL);
		a = now_ms();
		k = fork();
		if (k == 0)
			_exit(keeper(root));
		if (k < 0 || waitpid(k, &st, 0) < 0 || st != 0) {
			printf("bench_layers: a layer was refused here, nothing measured\n");
			rmdir(root);
			return 77;
		}
		t[i] = now_ms() - a;
	}
	rmdir(root);
	qsort(t, (size_t)n, sizeof *t, cmp_double);
	printf("%.3f %.3f %.3f %d", t[0], t[n / 2], t[n * 9 / 10], ngroups);
	for (int g = 0; g < ngroups; g++)
		printf(" %s", groups[g]);
	printf("\n");
	free(t);
	return 0;
}
