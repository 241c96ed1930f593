/*
 * cgroup: the slot's control groups (see cgroup.h).
 *
 * Discovery reads /proc/self/mountinfo (where each hierarchy is mounted,
 * and from which root) and /proc/self/cgroup (the grader's own group in
 * each), so the slot's groups are made below the grader's own: a grader in
 * a container or a systemd scope stays inside what it was given.
 */
#include "grader/run/cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "grader/lib/strbuf.h"

#define LINE 4096

static int read_file(const char *dir, const char *file, char *buf, size_t len);
static void nap_ms(long ms);
static uint64_t read_oom(struct cgroup *cg);

/* One hierarchy: v2, or the v1 hierarchy carrying a controller. */
struct hier {
	char mnt[LINE];     /* mount point */
	char root[LINE];    /* root of the mount within the hierarchy */
	int found;
};

/* Undo mountinfo's octal escapes (\040 for a space) in place. */
static void unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] && s[3]) {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

/* 1 when the comma-separated list has the word. */
static int has_word(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, word, n) && (p[n] == ',' || !p[n]))
			return 1;
	return 0;
}

/* /proc/self/mountinfo and /proc/self/cgroup, read once for a whole
 * cg_open, which looks through them once or twice per hierarchy (a read of
 * mountinfo is ~0.09 ms on the test machine's 20 mounts, far more on a
 * host with hundreds). One cg_open at a time in a process (grade's thread
 * of sandbox_groups.c, or a keeper). NULL: read the file itself. */
static struct {
	char *mountinfo, *cgroup;
} view;

/* The whole file (strbuf.h), or NULL: then it is read where needed. */
static char *slurp(const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	if (strbuf_read_file(&sb, path, 1 << 24) < 0 || strbuf_failed(&sb)) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb, NULL);
}

static FILE *open_view(const char *text, const char *path)
{
	return text ? fmemopen((void *)text, strlen(text), "r") : fopen(path, "r");
}

/* ctl NULL: the v2 hierarchy; else the v1 one that carries ctl. */
static void find_mount(const char *ctl, struct hier *h)
{
	FILE *f = open_view(view.mountinfo, "/proc/self/mountinfo");
	char line[LINE];

	h->found = 0;
	while (f && !h->found && fgets(line, sizeof(line), f)) {
		char root[LINE], mnt[LINE], type[64], opts[LINE];
		char *dash = strstr(line, " - ");

		if (!dash || sscanf(line, "%*s %*s %*s %4095s %4095s", root, mnt) != 2 ||
		    sscanf(dash + 3, "%63s %*s %4095s", type, opts) != 2)
			continue;
		if (ctl ? strcmp(type, "cgroup") || !has_word(opts, ctl)
			: strcmp(type, "cgroup2"))
			continue;
		unescape(root);
		unescape(mnt);
		snprintf(h->root, sizeof(h->root), "%s", root);
		snprintf(h->mnt, sizeof(h->mnt), "%s", mnt);
		h->found = 1;
	}
	if (f)
		fclose(f);
}

/* The grader's own group in that hierarchy, from /proc/self/cgroup. */
static int own_path(const char *ctl, char *out, size_t len)
{
	FILE *f = open_view(view.cgroup, "/proc/self/cgroup");
	char line[LINE];
	int ok = 0;

	while (f && !ok && fgets(line, sizeof(line), f)) {
		char *a = strchr(line, ':'), *b = a ? strchr(a + 1, ':') : NULL;

		if (!b)
			continue;
		*b = '\0';
		b[strcspn(b + 1, "\n") + 1] = '\0';
		if (ctl ? has_word(a + 1, ctl) : (a == line + 1 && line[0] == '0' && !a[1])) {
			snprintf(out, len, "%s", b + 1);
			ok = 1;
		}
	}
	if (f)
		fclose(f);
	return ok ? 0 : -1;
}

/* Removes the groups of keepers that are gone (a grade killed with
 * SIGKILL cannot clean up): whatever still runs in one is killed first.
 * A keeper holds an flock on each of its groups' folders for its life
 * (add_dir): a group whose lock is free is dead, whatever the pid in its
 * name says (a keeper in another PID namespace has another number here,
 * and pids are reused). */
static void remove_stale(const char *parent)
{
	DIR *d = opendir(parent);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char path[4 * LINE], buf[4096], *end;
		long pid;

		if (strncmp(e->d_name, "warpgrade-", 10))
			continue;
		pid = strtol(e->d_name + 10, &end, 10);
		if (pid <= 0 || *end != '-')
			continue;
		snprintf(path, sizeof(path), "%.*s/%s", 3 * LINE, parent, e->d_name);
		int lk = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (lk < 0 || flock(lk, LOCK_EX | LOCK_NB) < 0) {
			if (lk >= 0)
				close(lk);
			continue;       /* its keeper lives */
		}
		for (int i = 0; i < 100 && rmdir(path) < 0 && errno == EBUSY; i++) {
			if (read_file(path, "cgroup.procs", buf, sizeof(buf)) == 0)
				for (char *p = buf; *p; p = end) {
					long victim = strtol(p, &end, 10);
					if (end == p)
						break;
					kill((pid_t)victim, SIGKILL);
				}
			nap_ms(1);
		}
		close(lk);
	}
	if (d)
		closedir(d);
}

/* <mount>/<own minus mount root>: the grader's own group's folder in that
 * hierarchy. 0, or -1 where it has none. */
static int own_dir(const char *ctl, char *out, size_t len)
{
	struct hier h;
	char own[LINE];
	const char *rel;
	size_t rl;

	find_mount(ctl, &h);
	if (!h.found || own_path(ctl, own, sizeof(own)) < 0)
		return -1;
	rl = strcmp(h.root, "/") ? strlen(h.root) : 0;
	rel = !strncmp(own, h.root, rl) ? own + rl : own;
	snprintf(out, len, "%s%s", h.mnt, strcmp(rel, "/") ? rel : "");
	return 0;
}

/* Makes <own_dir>/warpgrade-<pid>-<slot>; its path, or NULL. */
static char *make_dir(const char *ctl, int slot)
{
	char path[3 * LINE];

	if (own_dir(ctl, path, sizeof(path)) < 0)
		return NULL;
	if (slot == 0)
		remove_stale(path);
	snprintf(path + strlen(path), sizeof(path) - strlen(path), "/warpgrade-%ld-%d",
		 (long)getpid(), slot);
	if (mkdir(path, 0700) < 0 && errno != EEXIST)
		return NULL;
	return strdup(path);
}

/* Every file of a group is reached from the group's folder descriptor:
 * the sandbox masks /sys from its programs (the counters of the groups
 * above the slot's, readable by anyone, add up what a run did: a channel
 * from one case to the next), and the keeper lives in that view too. */
static int exists_at(int dfd, const char *file)
{
	return faccessat(dfd, file, F_OK, 0) == 0;
}

static int write_at(int dfd, const char *file, const char *text)
{
	int fd, rc;

	if ((fd = openat(dfd, file, O_WRONLY | O_CLOEXEC)) < 0)
		return -1;
	rc = write(fd, text, strlen(text)) == (ssize_t)strlen(text) ? 0 : -1;
	close(fd);
	return rc;
}

/* By path: only while the groups are being made, before any masking. */
static int write_file(const char *dir, const char *file, const char *text)
{
	int dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC), rc;

	if (dfd < 0)
		return -1;
	rc = write_at(dfd, file, text);
	close(dfd);
	return rc;
}

/* Re-reads an open cgroup file from the start (the descriptors stay open
 * for the slot's life: no path walk per case). */
static int read_fd(int fd, char *buf, size_t len)
{
	ssize_t n = fd < 0 ? -1 : pread(fd, buf, len - 1, 0);

	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

static int64_t keyed_fd(int fd, const char *key)
{
	char buf[4096], *p;
	size_t n = strlen(key);

	if (read_fd(fd, buf, sizeof(buf)) < 0)
		return -1;
	for (p = buf; p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, key, n) && p[n] == ' ')
			return strtoll(p + n + 1, NULL, 10);
	return -1;
}

static int read_at(int dfd, const char *file, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	if ((fd = openat(dfd, file, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

static int read_file(const char *dir, const char *file, char *buf, size_t len)
{
	int dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC), rc;

	if (dfd < 0)
		return -1;
	rc = read_at(dfd, file, buf, len);
	close(dfd);
	return rc;
}

static int add_dir(struct cgroup *cg, char *dir)
{
	char parent[3 * LINE], *slash;
	int i = cg->ndirs;

	snprintf(parent, sizeof(parent), "%s", dir);
	if ((slash = strrchr(parent, '/')))
		*slash = '\0';
	/* Locked for the keeper's life: how remove_stale tells it lives. */
	cg->dfd[i] = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	cg->pfd[i] = open(parent, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (cg->dfd[i] < 0 || cg->pfd[i] < 0 || flock(cg->dfd[i], LOCK_EX | LOCK_NB) < 0 ||
	    (cg->procs_fd[i] = openat(cg->dfd[i], "cgroup.procs", O_WRONLY | O_CLOEXEC)) < 0) {
		int e = errno;

		if (cg->dfd[i] >= 0)
			close(cg->dfd[i]);
		if (cg->pfd[i] >= 0)
			close(cg->pfd[i]);
		rmdir(dir);
		free(dir);
		errno = e;
		return -1;
	}
	cg->procs_rd[i] = openat(cg->dfd[i], "cgroup.procs", O_RDONLY | O_CLOEXEC);
	cg->dirs[cg->ndirs++] = dir;
	return i;
}

/* make_dir and add_dir, again while another grade's remove_stale takes
 * the new folder for a dead keeper's: between our mkdir and our flock it
 * is unlocked, and that grade may lock and remove it (we then find it
 * gone, or locked). Its index, or -1. */
static int claim_dir(struct cgroup *cg, const char *ctl, int slot)
{
	for (int tries = 0; tries < 20; tries++) {
		char *dir = make_dir(ctl, slot);
		int i;

		if (!dir)
			return -1;
		errno = 0;
		if ((i = add_dir(cg, dir)) >= 0 ||
		    (errno != ENOENT && errno != EWOULDBLOCK))
			return i;
		nap_ms(1);
	}
	return -1;
}

static void open_v2(struct cgroup *cg, int slot)
{
	char own[LINE];
	struct hier h;
	int i;

	/* Delegation: the controllers reach our group only when the parent
	 * hands them down; this fails where the parent holds processes. */
	find_mount(NULL, &h);
	if (!h.found)
		return;
	if (own_path(NULL, own, sizeof(own)) == 0) {
		char parent[3 * LINE];
		snprintf(parent, sizeof(parent), "%s%s", h.mnt, strcmp(own, "/") ? own : "");
		write_file(parent, "cgroup.subtree_control", "+memory +pids");
	}
	if ((i = claim_dir(cg, NULL, slot)) < 0)
		return;
	cg->version |= 2;
	if (exists_at(cg->dfd[i], "cgroup.kill")) {
		cg->caps |= CG_KILL;
		cg->kill_v2 = i;
	}
	if (exists_at(cg->dfd[i], "cpu.stat")) {
		cg->caps |= CG_CPU;
		cg->cpu_dir = i;
		cg->cpu_v2 = 1;
	}
	if (exists_at(cg->dfd[i], "memory.max") && exists_at(cg->dfd[i], "memory.events")) {
		cg->caps |= CG_MEM;
		cg->mem_dir = i;
		cg->mem_v2 = 1;
	}
	if (exists_at(cg->dfd[i], "pids.max")) {
		cg->caps |= CG_PIDS;
		cg->pids_dir = i;
	}
}

/* A v1 controller, for a capability v2 did not give. */
static void open_v1(struct cgroup *cg, int slot, const char *ctl, int cap)
{
	int i;

	if ((cg->caps & cap) || cg->ndirs >= CG_MAX_DIRS)
		return;
	if ((i = claim_dir(cg, ctl, slot)) < 0)
		return;
	cg->version |= 1;
	cg->caps |= cap;
	switch (cap) {
	case CG_KILL: cg->freezer_v1 = i; break;
	case CG_CPU: cg->cpu_dir = i; cg->cpu_v2 = 0; break;
	case CG_MEM: cg->mem_dir = i; cg->mem_v2 = 0; break;
	case CG_PIDS: cg->pids_dir = i; break;
	}
}

void cg_open(struct cgroup *cg, int slot)
{
	memset(cg, 0, sizeof(*cg));
	cg->kill_v2 = cg->freezer_v1 = cg->cpu_dir = cg->mem_dir = cg->pids_dir = -1;
	cg->cpu_fd = cg->mem_fd = cg->join_fd = -1;
	view.mountinfo = slurp("/proc/self/mountinfo");
	view.cgroup = slurp("/proc/self/cgroup");
	open_v2(cg, slot);
	open_v1(cg, slot, "freezer", CG_KILL);
	open_v1(cg, slot, "cpuacct", CG_CPU);
	open_v1(cg, slot, "memory", CG_MEM);
	open_v1(cg, slot, "pids", CG_PIDS);
	free(view.mountinfo);
	free(view.cgroup);
	view.mountinfo = view.cgroup = NULL;
	if (cg->caps & CG_CPU)
		cg->cpu_fd = openat(cg->dfd[cg->cpu_dir], cg->cpu_v2 ? "cpu.stat" : "cpuacct.usage",
				    O_RDONLY | O_CLOEXEC);
	if (cg->caps & CG_MEM) {
		cg->mem_fd = openat(cg->dfd[cg->mem_dir],
				    cg->mem_v2 ? "memory.events" : "memory.oom_control",
				    O_RDONLY | O_CLOEXEC);
		cg->oom_seen = read_oom(cg);
	}
	if (!cg->caps)
		snprintf(cg->why, sizeof(cg->why), "no writable cgroup hierarchy");
	else if ((cg->caps & (CG_KILL | CG_CPU | CG_MEM | CG_PIDS)) != 15)
		snprintf(cg->why, sizeof(cg->why), "cgroup without%s%s%s%s",
			 cg->caps & CG_KILL ? "" : " kill", cg->caps & CG_CPU ? "" : " cpu",
			 cg->caps & CG_MEM ? "" : " memory", cg->caps & CG_PIDS ? "" : " pids");
}

/*
 * The first migration, away from the set-up's path. Every write to a
 * cgroup.procs takes the kernel's cgroup_threadgroup_rwsem for writing;
 * after an idle spell its rcu_sync makes that writer wait for a whole
 * RCU grace period (7-12 ms on the hybrid test machine with HZ=250, ~10 us
 * for the writes within a few grace periods after; ~70 us with
 * /sys/kernel/rcu_expedited), holding cgroup_mutex, which every cgroup
 * mkdir also takes. The first run's migration paid that wait on the
 * set-up's path.
 *
 * cg_warm makes that first write in a thread of grade's own, right after
 * grade made the slots' groups (sandbox_groups.c): grade moves itself into
 * the group it is already in (nothing changes, but the lock is taken
 * before the kernel sees there is nothing to move), while the suite loads
 * and the keepers build their layers. cg_join_start makes, in a child of
 * the keeper, the keeper's move into its v1 memory group, where it may sit
 * (v1 has no "no internal processes" rule, and the kill is not done
 * there): its children are then born in it, sparing every run a migration
 * (~60 us). The keeper's own few pages are charged there too, so it must
 * never be the OOM killer's choice (oom_score_adj -1000, which needs
 * CAP_SYS_RESOURCE). With warm set (the keeper made its own groups, and
 * no one started the wait), that child makes the no-op move where the
 * keeper cannot sit in its memory group.
 */
int cg_warm_fd(const struct cgroup *cg)
{
	return cg->caps ? openat(cg->pfd[0], "cgroup.procs", O_WRONLY | O_CLOEXEC) : -1;
}

void cg_warm(int fd)
{
	if (fd >= 0) {
		if (write(fd, "0", 1) < 0) {
			/* nothing to undo: only the wait was wanted */
		}
		close(fd);
	}
}

void cg_join_start(struct cgroup *cg, int warm)
{
	char text[24] = "0";
	int fd = -1;

	if (!cg->caps)
		return;
	cg->join_mem = (cg->caps & CG_MEM) && !cg->mem_v2 &&
		       write_file("/proc/self", "oom_score_adj", "-1000") == 0;
	if (cg->join_mem) {
		fd = cg->procs_fd[cg->mem_dir];
		snprintf(text, sizeof(text), "%ld", (long)getpid());
	} else if (!warm || (fd = cg_warm_fd(cg)) < 0) {
		return;
	}
	cg->join_pid = fork();
	if (cg->join_pid == 0)
		_exit(write(fd, text, strlen(text)) == (ssize_t)strlen(text) ? 0 : 1);
	if (!cg->join_mem) {
		close(fd);
		cg->join_fd = cg->join_pid > 0 ?
			(int)syscall(SYS_pidfd_open, cg->join_pid, 0) : -1;
	}
	else if (cg->join_pid < 0)    /* no child: the keeper waits itself */
		cg->mem_inherited = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
}

void cg_join_wait(struct cgroup *cg)
{
	int st = -1;

	/* A warm-up's child is not waited for here (it may still wait for
	 * the grace period): cg_close reaps it. */
	if (cg->join_pid <= 0 || !cg->join_mem)
		return;
	while (waitpid(cg->join_pid, &st, 0) < 0 && errno == EINTR)
		;
	cg->mem_inherited = st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
	cg->join_pid = 0;
}

/* The warm-up's child, reaped here unless the keeper's reaping of
 * orphans took it already: by its pidfd, which names that process and no
 * other, whatever pid a later child is given. A child left unreaped would
 * outlive the keeper, a zombie for init to reap (some never do). */
static void reap_warm_child(struct cgroup *cg)
{
	siginfo_t si;

	if (cg->join_pid <= 0)
		return;
	if (cg->join_fd >= 0) {
		while (waitid((idtype_t)3 /* P_PIDFD */, (id_t)cg->join_fd, &si, WEXITED) < 0 &&
		       errno == EINTR)
			;
		close(cg->join_fd);
	}
	cg->join_fd = -1;
	cg->join_pid = 0;
}

void cg_forget(struct cgroup *cg)
{
	int fds[CG_FDS], n = cg_fds(cg, fds);

	for (int i = 0; i < n; i++)
		close(fds[i]);
	for (int i = 0; i < cg->ndirs; i++)
		free(cg->dirs[i]);
	memset(cg, 0, sizeof(*cg));
}

int cg_fds(const struct cgroup *cg, int *fds)
{
	int n = 0;

	for (int i = 0; i < cg->ndirs; i++) {
		const int of[4] = { cg->procs_fd[i], cg->procs_rd[i], cg->dfd[i], cg->pfd[i] };

		for (int j = 0; j < 4; j++)
			if (of[j] >= 0)
				fds[n++] = of[j];
	}
	if (cg->cpu_fd >= 0)
		fds[n++] = cg->cpu_fd;
	if (cg->mem_fd >= 0)
		fds[n++] = cg->mem_fd;
	return n;
}

/* Back into the parent group, so that the slot's can be removed. */
static void leave_memory_group(struct cgroup *cg)
{
	write_at(cg->pfd[cg->mem_dir], "cgroup.procs", "0");
	cg->mem_inherited = 0;
}

void cg_close(struct cgroup *cg)
{
	cg_join_wait(cg);
	reap_warm_child(cg);
	cg->active = (1 << cg->ndirs) - 1;
	cg_kill_all(cg);
	if (cg->mem_inherited)
		leave_memory_group(cg);
	if (cg->cpu_fd >= 0)
		close(cg->cpu_fd);
	if (cg->mem_fd >= 0)
		close(cg->mem_fd);
	for (int i = 0; i < cg->ndirs; i++) {
		close(cg->procs_fd[i]);
		if (cg->procs_rd[i] >= 0)
			close(cg->procs_rd[i]);
		unlinkat(cg->pfd[i], strrchr(cg->dirs[i], '/') + 1, AT_REMOVEDIR);
		close(cg->dfd[i]);
		close(cg->pfd[i]);
		free(cg->dirs[i]);
	}
	cg->ndirs = 0;
	cg->caps = 0;
}

int cg_set_limits(struct cgroup *cg, uint64_t mem_bytes, uint64_t pids)
{
	char v[32];
	int rc = 0;

	if ((cg->caps & CG_MEM) && mem_bytes != cg->mem_set) {
		int d = cg->dfd[cg->mem_dir];
		if (mem_bytes)
			snprintf(v, sizeof(v), "%llu", (unsigned long long)mem_bytes);
		else
			snprintf(v, sizeof(v), cg->mem_v2 ? "max" : "-1");
		/* v1: no swapping past the limit either, where swap is counted
		 * (as runguard and isolate do). memsw may never be below the
		 * memory limit: raised first when the limit grows (a build's
		 * 2 GiB after a program's 256 MiB), set after it when it
		 * shrinks; the first write fails harmlessly in that case. */
		int memsw = !cg->mem_v2 && exists_at(d, "memory.memsw.limit_in_bytes");
		if (memsw)
			write_at(d, "memory.memsw.limit_in_bytes", v);
		rc |= write_at(d, cg->mem_v2 ? "memory.max" : "memory.limit_in_bytes", v);
		if (memsw)
			write_at(d, "memory.memsw.limit_in_bytes", v);
		/* v2: swap is counted apart; none for a limited run. */
		if (cg->mem_v2 && exists_at(d, "memory.swap.max"))
			write_at(d, "memory.swap.max", mem_bytes ? "0" : "max");
		cg->mem_set = mem_bytes;
	}
	if ((cg->caps & CG_PIDS) && pids != cg->pids_set) {
		if (pids)
			snprintf(v, sizeof(v), "%llu", (unsigned long long)pids);
		else
			snprintf(v, sizeof(v), "max");
		rc |= write_at(cg->dfd[cg->pids_dir], "pids.max", v);
		cg->pids_set = pids;
	}
	return rc ? -1 : 0;
}

int cg_cpu_counted(const struct cgroup *cg)
{
	return (cg->caps & CG_CPU) && (cg->active & (1 << cg->cpu_dir));
}

int64_t cg_cpu_ns(struct cgroup *cg)
{
	char buf[64];

	if (!cg_cpu_counted(cg))
		return -1;
	if (cg->cpu_v2) {
		int64_t us = keyed_fd(cg->cpu_fd, "usage_usec");
		return us < 0 ? -1 : us * 1000;
	}
	if (read_fd(cg->cpu_fd, buf, sizeof(buf)) < 0)
		return -1;
	return strtoll(buf, NULL, 10);
}

/* Reading the OOM count costs v1 ~50 us, more than the rest of the run's
 * bookkeeping together: it is read once at the start and then only when
 * it may have moved (cg_oom_killed). */
static uint64_t read_oom(struct cgroup *cg)
{
	int64_t n = keyed_fd(cg->mem_fd, "oom_kill");

	return n < 0 ? 0 : (uint64_t)n;
}

int cg_oom_killed(struct cgroup *cg, int maybe)
{
	uint64_t now;

	if (!(cg->caps & CG_MEM) || !(cg->active & (1 << cg->mem_dir)) || !maybe)
		return 0;
	now = read_oom(cg);
	if (now == cg->oom_seen)
		return 0;
	cg->oom_seen = now;
	return 1;
}

int cg_begin(struct cgroup *cg, int all, int *fds, uint64_t *cpu_ns0)
{
	int64_t c;
	int n = 0;

	cg->active = 0;
	for (int i = 0; i < cg->ndirs; i++)
		if (all || i == cg->mem_dir) {
			cg->active |= 1 << i;
			if (!(i == cg->mem_dir && cg->mem_inherited))
				fds[n++] = cg->procs_fd[i];
		}
	if ((cg->caps & CG_CPU) && !cg->cpu_v2 && (cg->active & (1 << cg->cpu_dir)))
		write_at(cg->dfd[cg->cpu_dir], "cpuacct.usage", "0");
	c = cg_cpu_ns(cg);
	*cpu_ns0 = c < 0 ? 0 : (uint64_t)c;
	return n;
}

/* Pids listed in a cgroup.procs file: SIGKILL to each; how many. */
static int kill_listed(int dfd)
{
	char buf[8192], *p, *end;
	int n = 0;

	if (read_at(dfd, "cgroup.procs", buf, sizeof(buf)) < 0)
		return -1;
	for (p = buf; *p; p = end) {
		long pid = strtol(p, &end, 10);
		if (end == p)
			break;
		if (pid > 0 && kill((pid_t)pid, SIGKILL) == 0)
			n++;
	}
	return n;
}

/* The keeper (and its PID namespace's init) live in an inherited memory
 * group for good: only the kill hierarchy tells whether a run left
 * anything. */
static int populated(struct cgroup *cg)
{
	char buf[64];

	for (int i = 0; i < cg->ndirs; i++)
		if ((cg->active & (1 << i)) && !(i == cg->mem_dir && cg->mem_inherited) &&
		    read_fd(cg->procs_rd[i], buf, sizeof(buf)) == 0 && buf[0])
			return 1;
	return 0;
}

static void nap_ms(long ms)
{
	struct timespec ts = { 0, ms * 1000000 };

	nanosleep(&ts, NULL);
}

int cg_kill_all(struct cgroup *cg)
{
	int i;

	if (!(cg->caps & CG_KILL)) {
		errno = ENOSYS;
		return -1;
	}
	/* Nothing joined the kill hierarchy: a lone process, already dead. */
	if (!(cg->active & (1 << (cg->kill_v2 >= 0 ? cg->kill_v2 : cg->freezer_v1))))
		return 0;
	if (!populated(cg))
		return 0;
	if (cg->kill_v2 >= 0) {
		write_at(cg->dfd[cg->kill_v2], "cgroup.kill", "1");
	} else {
		/* v1: a frozen task cannot fork; then each one is killed and
		 * the thaw lets the SIGKILLs land. */
		int d = cg->dfd[cg->freezer_v1];
		write_at(d, "freezer.state", "FROZEN");
		kill_listed(d);
		write_at(d, "freezer.state", "THAWED");
	}
	/* The kill is asynchronous: wait for the group to empty. */
	for (i = 0; i < 1000 && populated(cg); i++) {
		if (i % 10 == 9)
			for (int k = 0; k < cg->ndirs; k++)
				if (!(k == cg->mem_dir && cg->mem_inherited))
					kill_listed(cg->dfd[k]);
		nap_ms(1);
	}
	if (populated(cg)) {
		errno = EBUSY;
		return -1;
	}
	return 0;
}

const char *cg_version_name(const struct cgroup *cg)
{
	static const char *const names[] = { NULL, "v1", "v2", "hybrid" };

	return names[cg->version & 3];
}
