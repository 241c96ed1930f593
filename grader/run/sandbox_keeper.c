/*
 * sandbox_keeper: the keeper's life (sbx_keeper_main) and its runs. Forked
 * by sandbox_open, it closes every other descriptor, builds the layers
 * (sandbox_setup.c) and the spawner (sandbox_spawner.c), says READY and
 * then serves one RUN at a time: prepare the folders (sandbox_prepare.c),
 * set the cgroup limits, start the program (itself or through the
 * spawner), watch it, clean up and report DONE. EOF on grade's socket
 * ends it; grade's death kills it (PR_SET_PDEATHSIG).
 */
#include "grader/run/sandbox_int.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "grader/lib/steptime.h"
#include "grader/lib/util.h"
#include "grader/run/sysfilter.h"

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
	sbx_reap_ended();
	/* Every process of the uid is dead: what it left can go. */
	if (k->L.tmp_sweep && !e)
		sbx_sweep(uid);
	return e;
}

/* No private /tmp: as root, what a slot uid leaves in the host's
 * world-writable folders is removed after every run (sandbox_sweep.c). */
static void start_sweep(struct keeper *k)
{
	char roots[SBX_SWEEP_ROOTS][PATH_MAX];
	size_t len = 0;
	int n;

	if (k->L.private_tmp || !k->L.uid_switch)
		return;
	sbx_sweep_init(k->cfg->scratch);
	n = sbx_sweep_roots(roots, SBX_SWEEP_ROOTS);
	for (int i = 0; i < n; i++) {
		int w = snprintf(k->L.swept + len, sizeof(k->L.swept) - len, "%s%s",
				 i ? " " : "", roots[i]);
		if (w < 0 || (size_t)w >= sizeof(k->L.swept) - len)
			break;
		len += (size_t)w;
	}
	k->L.tmp_sweep = 1;
}

/* Waits for the child it started (and KILL from grade); with children
 * allowed, watches the tree's CPU (sandbox_wait.c). */
static void watch(struct keeper *k, struct run_child *c, uint64_t cpu0,
		  struct msg *m)
{
	struct sbx_wait w = { .ctl = k->sock, .done = -1, .pid = c->pid,
			      .kill_via = -1, .cg = &k->cg, .cpu0 = cpu0 };

	if (k->processes != 1 && c->lim.cpu_sec > 0)
		w.cpu_limit_ns = (int64_t)(c->lim.cpu_sec * 1e9);
#ifdef SYS_pidfd_open
	w.done = (int)syscall(SYS_pidfd_open, c->pid, 0);
#endif
	sbx_wait_run(&w, m);
	if (w.done >= 0)
		close(w.done);
	sbx_reap_run(c->pid, m);
	m->tree_cpu_killed = w.tree_killed;
}

/* The sandbox's own processes in the keeper's user namespace, under the
 * caller's uid: the keeper, the PID namespaces' holder and init, the
 * spawner. RLIMIT_NPROC counts them with the program's threads (tasks of
 * the uid in the namespace), so that many are added to the program's
 * limit: "processes" is then what the program itself may have. */
static long own_tasks(const struct keeper *k)
{
	return 1 + (k->holder > 0) + (k->init > 0) + (k->spawner >= 0);
}

/* Into the build view for c, the compiler, whose stdin becomes /dev/null
 * (that view's minimal one). 0, or -1 with c->res.error (back in the runs'
 * view). */
static int enter_build(struct keeper *k, struct run_child *c, int fds[4])
{
	int nul;

	if (sbx_enter_build(k, c->argv[0], c->dir) < 0) {
		snprintf(c->res.error, sizeof(c->res.error),
			 "cannot prepare the build's folders for '%s': %s",
			 c->dir ? c->dir : "", strerror(errno));
		return -1;
	}
	if ((nul = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0) {
		snprintf(c->res.error, sizeof(c->res.error),
			 "cannot open /dev/null for the compiler: %s", strerror(errno));
		if (sbx_leave_build(k) < 0)
			_exit(1);
		return -1;
	}
	if (fds[0] >= 0)
		close(fds[0]);
	fds[0] = nul;
	return 0;
}

/* Whether a run may start at all: the request reads, the previous run's
 * clean-up worked, its PID namespace was renewed. 0, or -1 with
 * c->res.error. */
static int admit(struct keeper *k, struct msg *m, struct run_child *c,
		 const char **argv, const char **env)
{
	if (sbx_unpack_run(m, c, argv, env) < 0) {
		snprintf(c->res.error, sizeof(c->res.error), "bad request to the keeper");
		return -1;
	}
	if (k->deferred_errno) {
		snprintf(c->res.error, sizeof(c->res.error),
			 "cannot kill what the previous run left behind: %s",
			 strerror(k->deferred_errno));
		k->deferred_errno = 0;
		return -1;
	}
	/* The PID namespace a run may have forked in is renewed after it
	 * (sbx_keeper_main): if that failed, this run cannot start there. */
	if (k->pid_dirty) {
		snprintf(c->res.error, sizeof(c->res.error), "%s", k->renew_error);
		return -1;
	}
	return 0;
}

/* The run's world: its process limit, private folders (a build's are
 * made in the build view), the cgroup's limits and descriptors (x), a
 * clean IPC namespace. 0, or -1 with c->res.error. */
static int set_up(struct keeper *k, struct run_child *c, int build,
		  struct run_spawn_extra *x, int *join, uint64_t *cpu0)
{
	/* Only the first run's steps: the later ones are the per-case cost. */
	static int first = 1;
	const char *who = first ? "keeper-first-run" : NULL;

	first = 0;
	steptime_mark(who, "asked");
	k->processes = (int)c->lim.nproc;
	/* In a user namespace of the caller's own uid, the sandbox's own
	 * processes count towards the program's RLIMIT_NPROC. */
	if (k->L.user_ns && !k->L.uid_switch && c->lim.nproc > 1)
		c->lim.nproc += own_tasks(k);
	if (!build && sbx_prepare(k, c->argv[0], c->dir, c->bind_dir, c->uid, c->gid) < 0) {
		snprintf(c->res.error, sizeof(c->res.error),
			 "cannot prepare the private folders for '%s': %s",
			 c->argv[0], strerror(errno));
		return -1;
	}
	steptime_mark(who, "prepared");
	if (cg_set_limits(&k->cg, c->lim.mem_bytes,
			  (uint64_t)(c->lim.nproc > 0 ? c->lim.nproc : 0)) < 0) {
		snprintf(c->res.error, sizeof(c->res.error),
			 "cannot set the cgroup limits: %s", strerror(errno));
		return -1;
	}
	/* The memory cgroup counts memory in use (spawn.h): no RLIMIT_AS
	 * then, unless the caller asked for one (as_bytes). */
	if (k->cg.caps & CG_MEM)
		c->lim.mem_bytes = 0;
	x->n_cg = cg_begin(&k->cg, k->processes != 1, join, cpu0);
	steptime_mark(who, "cgroup-begun");
	/* With the filter no SysV object can be made: nothing to look for. */
	if (k->ipc_watch && !k->L.seccomp && sbx_ipc_dirty(k))
		sbx_ipc_renew(k);
	x->unshare_ipc = k->L.ipc_ns && !k->ipc_watch;
	/* With one process each run moves the counter by exactly one: no
	 * channel. With more, from here on the namespace may be marked. */
	if (k->holder_ns >= 0 && k->processes != 1)
		k->pid_dirty = 1;
	return 0;
}

/* The ended run's account to grade: clean-up, the tree's CPU, the OOM
 * killer's mark (m holds the child's status and usage). */
static void report_done(struct keeper *k, const struct run_child *c,
			uint64_t cpu0, struct msg *m)
{
	int tree_killed = m->tree_cpu_killed;

	m->type = M_DONE;
	m->ok = 1;
	m->pid = c->pid;
	m->stage_err = c->res.exec_errno;
	m->cleanup_errno = clean_up(k, c->pid, c->uid);
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
	if (sbx_send(k->sock, m, NULL, 0) < 0)
		_exit(0);
}

/* The harness's failure, before or at the start of a run, to grade. */
static void report_failed(struct keeper *k, const struct run_child *c,
			  int fds[4], struct msg *m)
{
	for (int i = 0; i < 4; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	memset(m, 0, offsetof(struct msg, strings));
	m->type = M_DONE;
	snprintf(m->text, sizeof(m->text), "%s", c->res.error);
	if (sbx_send(k->sock, m, NULL, 0) < 0)
		_exit(0);
}

/* Starts a run in this process (a build: in the build view) and waits
 * for it. 0, or -1 with c->res.error. */
static int run_here(struct keeper *k, struct run_child *c, int build, int fds[4],
		    struct run_spawn_extra *x, uint64_t cpu0, struct msg *m)
{
	int rc;

	if (build && enter_build(k, c, fds) < 0)
		return -1;
	rc = run_spawn_local(c, fds, x);
	/* Back at once, even if the fork failed: the keeper lives in the
	 * runs' view, where the next run is prepared. */
	if (build && sbx_leave_build(k) < 0)
		_exit(1);
	if (rc < 0)
		return -1;
	for (int i = 0; i < 4; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	/* No word to grade until the end: it pumps the pipes meanwhile, and
	 * one message less is a wake-up less. */
	memset(m, 0, offsetof(struct msg, strings));
	watch(k, c, cpu0, m);
	return 0;
}

static void serve_run(struct keeper *k, struct msg *m, int fds[4])
{
	const char *argv[MAX_ARGS + 1], *env[MAX_ARGS + 1];
	struct run_child c = RUN_CHILD_INIT;
	int join[CG_MAX_DIRS];
	struct run_spawn_extra x = { join, 0, k->L.ipc_ns, &k->ignored,
				     k->L.seccomp ? sysfilter_program() : NULL, 1,
				     k->pinned ? &k->all_cpus : NULL };
	uint64_t cpu0 = 0;
	int build;

	if (admit(k, m, &c, argv, env) < 0)
		goto failed;
	/* A build runs in the build view (sandbox_root.c), prepared there
	 * just before the compiler is forked. */
	build = c.bind_dir && k->build_ns >= 0;
	if (set_up(k, &c, build, &x, join, &cpu0) < 0)
		goto failed;
	if (k->spawner < 0 || build) {
		if (run_here(k, &c, build, fds, &x, cpu0, m) < 0)
			goto failed;
		report_done(k, &c, cpu0, m);
		return;
	}
	memset(m, 0, offsetof(struct msg, strings));
	if (sbx_spawn_via(k, &c, fds, join, x.n_cg, cpu0, m,
			  k->processes == 1 && !cg_cpu_counted(&k->cg)) < 0) {
		for (int i = 0; i < 4; i++)
			fds[i] = -1;    /* sbx_spawn_via closed them */
		goto failed;
	}
	if (m->answered)        /* the spawner told grade itself */
		k->deferred_errno = clean_up(k, c.pid, c.uid);
	else
		report_done(k, &c, cpu0, m);
	return;
failed:
	report_failed(k, &c, fds, m);
}

/* M_RENEW (sandbox_renew): everything a run may change, made anew. */
static void renew_all(struct keeper *k, struct msg *m)
{
	char why[sizeof(m->text)] = "";

	if (k->L.private_tmp && sbx_remount_areas(k) < 0)
		snprintf(why, sizeof(why), "cannot remake the private folders: %s",
			 strerror(errno));
	if (!why[0] && k->holder_ns >= 0 &&
	    sbx_pid_renew(k, k->renew_error, sizeof(k->renew_error)) < 0)
		snprintf(why, sizeof(why), "%s", k->renew_error);
	if (k->L.ipc_ns)
		sbx_ipc_renew(k);
	memset(m, 0, offsetof(struct msg, strings));
	m->type = M_DONE;
	m->ok = !why[0];
	snprintf(m->text, sizeof(m->text), "%s", why);
	if (sbx_send(k->sock, m, NULL, 0) < 0)
		_exit(0);
}

static void keeper_signals(void)
{
	struct sigaction sa;

	/* grade decides when runs stop (its own handlers); the keeper ends
	 * when grade closes the socket or dies. */
	wg_stop_signals(SIG_IGN);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, NULL);
	sa.sa_handler = SIG_DFL;
	sigaction(SIGCHLD, &sa, NULL);
}

static int by_number(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* Every descriptor from..to (to ~0u: all above from). */
static void close_span(unsigned from, unsigned to)
{
#ifdef SYS_close_range
	if (syscall(SYS_close_range, from, to, 0u) == 0)
		return;
#endif
	for (unsigned fd = from; fd <= to && fd < 65536; fd++)
		close((int)fd);
}

void sbx_close_all_but(int *keep, int n)
{
	unsigned from = 3;

	qsort(keep, (size_t)n, sizeof(*keep), by_number);
	for (int i = 0; i < n; i++) {
		if ((unsigned)keep[i] > from)
			close_span(from, (unsigned)keep[i] - 1);
		if ((unsigned)keep[i] + 1 > from)
			from = (unsigned)keep[i] + 1;
	}
	close_span(from, ~0u);
}

void sbx_close_others(int keep)
{
	sbx_close_all_but(&keep, 1);
}

__attribute__((noreturn)) void sbx_keeper_main(const struct sandbox_config *cfg,
						  int sock, pid_t parent)
{
	struct keeper k = { .sock = sock, .cfg = cfg, .base_fd = -1, .life = -1,
			    .build_ns = -1, .run_ns = -1, .host_root = -1,
			    .ipc_fd = { -1, -1, -1 }, .spawner = -1,
			    .holder_life = -1, .holder_ns = -1 };
	struct msg *m = malloc(sizeof(*m));
	sigset_t none;

	steptime_mark("keeper", "forked");
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	if (getppid() != parent || !m)
		_exit(1);
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	prctl(PR_SET_NAME, "grade-keeper", 0, 0, 0);
	/* A session of its own, without grade's terminal: every program of
	 * the slot is born outside any terminal, and each run needs only a
	 * process group (spawn_child.c), not a session of its own. */
	setsid();
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
	if (cfg->output_fd > 2) {
		dup2(cfg->output_fd, STDOUT_FILENO);
		dup2(cfg->output_fd, STDERR_FILENO);
	}
	/* Grade made the slot's cgroups (sandbox_groups.c): the keeper keeps
	 * those descriptors, and its socket, alone. */
	{
		int keep[CG_FDS + 1], n = 0;

		if (cfg->groups)
			n = cg_fds(cfg->groups, keep);
		keep[n++] = sock;
		sbx_close_all_but(keep, n);
	}
	if (cfg->pin && sched_getaffinity(0, sizeof(k.all_cpus), &k.all_cpus) == 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cfg->cpu, &set);
		k.pinned = sched_setaffinity(0, sizeof(set), &set) == 0;
	}
	run_probe_privileges();
	steptime_mark("keeper", "own-process");
	k.L.uid_switch = cfg->uid != (uid_t)-1 && cfg->uid != 0 && geteuid() == 0;
	/* The cgroups first: made from the host's view of the hierarchy. */
	if (getenv("WG_NO_CGROUP") && *getenv("WG_NO_CGROUP") &&
	    strcmp(getenv("WG_NO_CGROUP"), "0")) {
		memset(&k.cg, 0, sizeof(k.cg));
		snprintf(k.cg.why, sizeof(k.cg.why), "cgroups turned off (WG_NO_CGROUP)");
	} else if (cfg->groups) {
		k.cg = *cfg->groups;
	} else {
		cg_open(&k.cg, cfg->slot);
	}
	/* Where grade made the groups, it started the first migration's
	 * wait too (cgroup.c). */
	cg_join_start(&k.cg, !cfg->groups);
	steptime_mark("keeper", "cgroups");
	k.L.cgroup_caps = k.cg.caps;
	k.L.cgroup = cg_version_name(&k.cg);
	k.L.children_cpu = (k.cg.caps & CG_CPU) != 0;
	if (k.cg.why[0])
		sbx_note(&k.L, "%s", k.cg.why);
	if (!(k.cg.caps & CG_MEM))
		sbx_note(&k.L, "no memory cgroup: the memory limit is the address "
			 "space (RLIMIT_AS), which counts reserved memory too "
			 "(threads' stacks, runtimes' arenas)");
	sbx_build_namespaces(&k);
	start_sweep(&k);
	steptime_mark("keeper", "sweeper");
	if (getenv("WG_NO_SECCOMP") && *getenv("WG_NO_SECCOMP") &&
	    strcmp(getenv("WG_NO_SECCOMP"), "0"))
		sbx_note(&k.L, "seccomp filter turned off (WG_NO_SECCOMP)");
	else if (sysfilter_program())
		k.L.seccomp = 1;
	else
		sbx_note(&k.L, "no seccomp filter for this machine's ABI");
	steptime_mark("keeper", "seccomp-filter");
	cg_join_wait(&k.cg);    /* done already where there are namespaces */
	sbx_start_spawner(&k);
	steptime_mark("keeper", "spawner");
	memset(m, 0, offsetof(struct msg, strings));
	m->type = M_READY;
	m->layers = k.L;
	if (sbx_send(sock, m, NULL, 0) < 0)
		_exit(0);
	for (;;) {
		int fds[4];

		if (sbx_recv(sock, m, fds, 4) < 0)
			break;
		if (m->type == M_RUN) {
			serve_run(&k, m, fds);
			/* Here, with the run answered and none of its
			 * descriptors left to the new init and spawner to
			 * inherit; while grade compares its output. */
			if (k.pid_dirty)
				sbx_pid_renew(&k, k.renew_error, sizeof(k.renew_error));
		} else if (m->type == M_RENEW) {
			renew_all(&k, m);
		} else
			for (int i = 0; i < 4; i++)
				if (fds[i] >= 0)
					close(fds[i]);
	}
	/* The spawner is reaped before the PID namespace's init is let go:
	 * that init's exit waits for every process of the namespace to be
	 * gone, the spawner's zombie too. */
	steptime_mark("keeper", "closing");
	sbx_stop_spawner(&k);
	/* The spawner's children came to us as it died: the last run's
	 * orphans, killed and waited for by its clean-up, so zombies by now.
	 * Left, they would go to init with the keeper (which may never reap
	 * them), each counted against the slot uid's RLIMIT_NPROC for
	 * whoever takes the uid next. */
	sbx_reap_ended();
	steptime_mark("keeper", "spawner-stopped");
	cg_close(&k.cg);
	steptime_mark("keeper", "cgroups-removed");
	sbx_pid_close(&k);
	steptime_mark("keeper", "pid-ns-ended");
	_exit(0);
}
