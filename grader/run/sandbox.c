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

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "grader/lib/strbuf.h"
#include "grader/run/sandbox_int.h"

struct sandbox_slot {
	pid_t keeper;
	int sock;
	struct msg *m;           /* scratch message, per slot (one thread) */
	struct sandbox_layers layers;
};

/* ---- grade's side ---- */

/* Writes the keeper's one-to-one maps (root only). */
static int write_maps(pid_t keeper)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/gid_map", (int)keeper);
	if (sbx_write_text(path, "0 0 4294967295") < 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/uid_map", (int)keeper);
	return sbx_write_text(path, "0 0 4294967295");
}

static int await_ready(struct sandbox_slot *s, struct sandbox_layers *layers,
		       struct strbuf *err)
{
	int fds[1];

	for (;;) {
		if (sbx_recv(s->sock, s->m, fds, 1) < 0) {
			strbuf_addf(err, "the sandbox keeper of a slot died while "
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
		if (sbx_send(s->sock, s->m, NULL, 0) < 0) {
			strbuf_addf(err, "cannot reach the sandbox keeper: %s",
				    strerror(errno));
			return -1;
		}
	}
}

int sandbox_open(struct sandbox_slot **out, const struct sandbox_config *cfg,
		 struct sandbox_layers *layers, struct strbuf *err)
{
	struct sandbox_slot *s = calloc(1, sizeof(*s));
	int sv[2];
	pid_t parent = getpid();

	*out = NULL;
	if (!s || !(s->m = calloc(1, sizeof(*s->m)))) {
		free(s);
		strbuf_addstr(err, "out of memory");
		return -1;
	}
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		strbuf_addf(err, "cannot make a socket pair: %s", strerror(errno));
		goto fail;
	}
	s->keeper = fork();
	if (s->keeper == 0) {
		close(sv[0]);
		sbx_keeper_main(cfg, sv[1], parent);
	}
	close(sv[1]);
	s->sock = sv[0];
	if (s->keeper < 0) {
		strbuf_addf(err, "cannot fork the sandbox keeper: %s", strerror(errno));
		close(s->sock);
		goto fail;
	}
	if (await_ready(s, layers, err) < 0) {
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

	if (sbx_pack_run(m, c) < 0) {
		snprintf(c->res.error, sizeof(c->res.error),
			 "too many or too long arguments for '%s'", c->argv[0]);
		return -1;
	}
	rc = sbx_send(s->sock, m, fds, 3);
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
	return sbx_send(s->sock, m, NULL, 0);
}

int sandbox_wait(struct sandbox_slot *s, struct run_child *c, int *status,
		 struct rusage *ru)
{
	struct msg *m = s->m;
	int fds[1], rc;

	rc = sbx_recv(s->sock, m, fds, 1);
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

/* ---- the account ---- */

int sandbox_path_visible(const char *path)
{
	char top[PATH_MAX];
	size_t n;

	if (path[0] != '/')
		return 0;
	n = strcspn(path + 1, "/");
	snprintf(top, sizeof(top), "%.*s", (int)n, path + 1);
	return sbx_top_level_kept(top) && strcmp(top, "tmp");
}

int sandbox_namespaces_disabled(void)
{
	const char *v = getenv("WG_NO_NAMESPACES");

	return v && *v && strcmp(v, "0");
}

int sandbox_format_layers(struct strbuf *out, const struct sandbox_layers *l)
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
		{ "minimal root", offsetof(struct sandbox_layers, minimal_root),
		  "runs see their program, its libraries, /dev, /proc, /tmp" },
		{ "build view", offsetof(struct sandbox_layers, build_view),
		  "the compiler: no grader, its own /tmp, a minimal /dev" },
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
		strbuf_addf(out, "  %-18s %-4s %s\n", rows[i].name, on ? "yes" : "no",
			rows[i].what);
	}
	strbuf_addf(out, "  %-18s %-4s controls:%s%s%s%s\n", "cgroup", l->cgroup ? l->cgroup : "no",
		l->cgroup_caps & CG_KILL ? " kill" : "", l->cgroup_caps & CG_CPU ? " cpu" : "",
		l->cgroup_caps & CG_MEM ? " memory" : "", l->cgroup_caps & CG_PIDS ? " pids" : "");
	if (l->missing[0])
		strbuf_addf(out, "  missing: %s\n", l->missing);
	return strbuf_failed(out) ? -1 : 0;
}
