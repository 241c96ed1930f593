/*
 * sandbox_uid: sandbox_kill_uid, killing every process of a slot uid from
 * outside (as root, by /proc), for the keeper's clean-up without a cgroup
 * and for grade's own.
 */
#include "grader/run/sandbox_int.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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
	if ((fd = sbx_proc_open(path, O_RDONLY | O_CLOEXEC)) < 0)
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
	int fd = sbx_proc_open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
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
