/*
 * sb_root: a hostile submission for tests/e2e/test_sandbox_root.sh, against
 * what a run can see (sandbox.h, "mount ns": the minimal root). The first
 * word of stdin picks the attack; each prints one line, the "blocked" one
 * when the defence held. Every attack is bounded (a few thousand folders,
 * a few hundred pages, a few seconds at most).
 *
 *   root            the top level: "minimal" when none of usr, etc, bin,
 *                   sbin, opt, home, root, srv, mnt, work, sys is there,
 *                   else "sees NAME"
 *   findref PATH... looks for a file named "reference" in PATHs and below
 *                   /usr, /opt, /etc, /lib, /srv, /home, /root, /work, /
 *                   (6 levels, 20000 folders, 2 s at most), and executes each
 *                   one found: "none" when nothing could be executed, else
 *                   "ran PATH"
 *   pset FILE BITS  the page-cache probe's sender: reads page 4i of FILE
 *                   (mapped) for each '1' at i of BITS: "sent" ("blind"
 *                   when FILE cannot be opened)
 *   pget FILE N     the receiver: which of the N pages 4i of FILE are in
 *                   the page cache (mincore): the bits read, or "blind"
 *   sset BITS       the same on the program's own file (/proc/self/exe,
 *                   10 MiB of which exec never maps), 4 bits at most:
 *                   2 MiB at 2(i + 1) MiB read for a '1', dropped from
 *                   the cache (fsync, then POSIX_FADV_DONTNEED: no write
 *                   access needed) for a '0': "sent"
 *   sget N          those ranges' state: the bits ("1..." when the file
 *                   lives in memory, where nothing is ever dropped)
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void do_root(void)
{
	static const char *const hosts[] = { "usr", "etc", "bin", "sbin", "opt", "home",
					     "root", "srv", "mnt", "work", "sys" };
	struct stat st;
	char p[64];

	for (size_t i = 0; i < sizeof(hosts) / sizeof(*hosts); i++) {
		snprintf(p, sizeof(p), "/%s", hosts[i]);
		if (lstat(p, &st) == 0) {
			printf("sees %s\n", hosts[i]);
			return;
		}
	}
	printf("minimal\n");
}

static int dirs_left = 20000;
static time_t deadline;   /* the search gives up after 2 s */

/* Runs path; 1 when the exec worked (the child says so by exiting 0
 * before anything: the reference with no input prints and exits 0 or 1,
 * so the exec itself is what is reported, through a pipe). */
static int try_exec(const char *path)
{
	int p[2], ok = 0;
	pid_t pid;
	char c;

	if (pipe2(p, O_CLOEXEC) < 0)
		return 0;
	pid = fork();
	if (pid == 0) {
		int nul = open("/dev/null", O_RDWR);

		if (nul >= 0) {
			dup2(nul, 0);
			dup2(nul, 1);
			dup2(nul, 2);
		}
		execl(path, path, (char *)NULL);
		if (write(p[1], "x", 1) < 0)
			_exit(127);
		_exit(127);
	}
	close(p[1]);
	if (pid > 0) {
		/* EOF without a byte: the exec closed the pipe. */
		ok = read(p[0], &c, 1) == 0;
		waitpid(pid, NULL, 0);
	}
	close(p[0]);
	return ok;
}

static int search(const char *dir, int depth)
{
	DIR *d;
	struct dirent *e;
	char p[4096];
	struct stat st;
	int found = 0;

	if (depth > 6 || dirs_left-- <= 0 || time(NULL) > deadline || !(d = opendir(dir)))
		return 0;
	while (!found && (e = readdir(d))) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "proc") ||
		    !strcmp(e->d_name, "sys"))
			continue;
		snprintf(p, sizeof(p), "%s/%s", strcmp(dir, "/") ? dir : "", e->d_name);
		if (lstat(p, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode))
			found = search(p, depth + 1);
		else if (!strcmp(e->d_name, "reference") && S_ISREG(st.st_mode) &&
			 try_exec(p)) {
			printf("ran %s\n", p);
			found = 1;
		}
	}
	closedir(d);
	return found;
}

static void do_findref(void)
{
	static const char *const roots[] = { "/usr", "/opt", "/etc", "/lib", "/srv",
					     "/home", "/root", "/work", "/" };
	char path[4096];

	deadline = time(NULL) + 2;
	while (scanf("%4095s", path) == 1)
		if (try_exec(path)) {
			printf("ran %s\n", path);
			return;
		}
	for (size_t i = 0; i < sizeof(roots) / sizeof(*roots); i++)
		if (search(roots[i], 0))
			return;
	printf("none\n");
}

#define STRIDE 4   /* pages between bits: read-ahead touches neighbours */

static unsigned char *map_file(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	void *m;

	if (fd < 0 || fstat(fd, &st) < 0 || st.st_size <= 0) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	*len = (size_t)st.st_size;
	m = mmap(NULL, *len, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (m != MAP_FAILED)
		madvise(m, *len, MADV_RANDOM);   /* no read-ahead */
	return m == MAP_FAILED ? NULL : m;
}

/* 10 MiB of the program's own file that exec never maps (a section not
 * allocated: no fault, no read-around brings its pages back). A bit is a
 * whole 2 MiB from 2 MiB on: the page cache keeps a file in large folios,
 * which a smaller range never drops. */
#define SELF_CHUNK ((off_t)2 << 20)
__asm__(".section .wgpad,\"\",@progbits\n.fill 10485760,1,1\n.previous");

static void do_sself(const char *bits)
{
	int fd = open("/proc/self/exe", O_RDONLY);
	char c;

	if (fd < 0) {
		printf("blind\n");
		return;
	}
	/* Written back first: a dirty page is never dropped (a read-only
	 * descriptor may ask). */
	fsync(fd);
	for (size_t i = 0; bits[i] && i < 4; i++) {
		off_t at = (off_t)(i + 1) * SELF_CHUNK;

		if (bits[i] == '1')
			(void)!pread(fd, &c, 1, at);
		else
			posix_fadvise(fd, at, SELF_CHUNK, POSIX_FADV_DONTNEED);
	}
	close(fd);
	printf("sent\n");
}

static void do_pset(const char *path, const char *bits)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len;
	unsigned char *m = map_file(path, &len);
	volatile unsigned char sink = 0;

	if (!m) {
		printf("blind\n");
		return;
	}
	for (size_t i = 0; bits[i] && i < 512; i++)
		if (bits[i] == '1' && (i * STRIDE + 1) * (size_t)page <= len)
			sink ^= m[i * STRIDE * (size_t)page];
	(void)sink;
	munmap(m, len);
	printf("sent\n");
}

/* Which of n pages first + stride i of path are in the page cache: a line
 * of bits, or "blind". */
static void do_get(const char *path, int first, int n, int stride)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len;
	unsigned char *m = map_file(path, &len), v;

	if (!m) {
		printf("blind\n");
		return;
	}
	for (int i = 0; i < n && i < 512; i++) {
		size_t at = (size_t)(first + i * stride) * (size_t)page;

		v = 0;
		if (at + (size_t)page <= len)
			mincore(m + at, (size_t)page, &v);
		putchar(v & 1 ? '1' : '0');
	}
	putchar('\n');
	munmap(m, len);
}

/* Its stdin may be the case's input file itself (runner.c): try to
 * change that file through the descriptor (a reopen for writing, fchmod,
 * ftruncate). Prints "tried"; the test checks the file afterwards. */
static void do_stdin(void)
{
	int fd = open("/proc/self/fd/0", O_WRONLY | O_APPEND);

	if (fd >= 0) {
		if (write(fd, "X", 1) < 0)
			perror("write");
		close(fd);
	}
	if (fchmod(0, 0666) < 0 || ftruncate(0, 0) < 0)
		perror("stdin");
	puts("tried");
}

int main(void)
{
	char word[32] = "", path[4096] = "", bits[600] = "";
	int n = 0;

	if (scanf("%31s", word) != 1)
		return 2;
	if (!strcmp(word, "root"))
		do_root();
	else if (!strcmp(word, "findref"))
		do_findref();
	else if (!strcmp(word, "stdin"))
		do_stdin();
	else if (!strcmp(word, "pset") && scanf("%4095s %511s", path, bits) == 2)
		do_pset(path, bits);
	else if (!strcmp(word, "pget") && scanf("%4095s %d", path, &n) == 2)
		do_get(path, 0, n, STRIDE);
	else if (!strcmp(word, "sset") && scanf("%511s", bits) == 1)
		do_sself(bits);
	else if (!strcmp(word, "sget") && scanf("%d", &n) == 1)
		do_get("/proc/self/exe", (int)(SELF_CHUNK / sysconf(_SC_PAGESIZE)),
		       n > 4 ? 4 : n, (int)(SELF_CHUNK / sysconf(_SC_PAGESIZE)));
	else
		return 2;
	return 0;
}
