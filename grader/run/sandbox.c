/*
 * sandbox: the slot keeper and its layers (see sandbox.h).
 *
 * Theory of operation. sandbox_open() makes a SOCK_SEQPACKET pair and forks
 * the keeper. The keeper closes every other descriptor (but its slot's
 * cgroups, which grade made at its start: sandbox_groups.c), builds its
 * namespaces (asking grade to write its user namespace's maps when it
 * needs a one-to-one map only root can write) and mounts, and sends READY
 * with the layers it got. Then it serves one run at a time:
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

int sandbox_start(struct sandbox_slot **out, const struct sandbox_config *cfg,
		  struct strbuf *err)
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
	*out = s;
	return 0;
fail:
	free(s->m);
	free(s);
	return -1;
}

int sandbox_ready(struct sandbox_slot **s, struct sandbox_layers *layers,
		  struct strbuf *err)
{
	if (await_ready(*s, layers, err) < 0) {
		sandbox_close(*s);
		*s = NULL;
		return -1;
	}
	return 0;
}

int sandbox_open(struct sandbox_slot **out, const struct sandbox_config *cfg,
		 struct sandbox_layers *layers, struct strbuf *err)
{
	if (sandbox_start(out, cfg, err) < 0)
		return -1;
	return sandbox_ready(out, layers, err);
}

void sandbox_close_begin(struct sandbox_slot *s)
{
	if (s && s->sock >= 0) {
		close(s->sock);
		s->sock = -1;
	}
}

void sandbox_close(struct sandbox_slot *s)
{
	int st;

	if (!s)
		return;
	sandbox_close_begin(s);
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

int sandbox_renew(struct sandbox_slot *s, struct strbuf *err)
{
	struct msg *m = s->m;
	int fds[1];

	memset(m, 0, offsetof(struct msg, strings));
	m->type = M_RENEW;
	if (sbx_send(s->sock, m, NULL, 0) < 0 || sbx_recv(s->sock, m, fds, 1) < 0) {
		strbuf_addf(err, "the sandbox keeper of a slot is gone: %s",
			    errno ? strerror(errno) : "end of file");
		return -1;
	}
	if (m->type != M_DONE || !m->ok) {
		strbuf_addf(err, "cannot renew a slot's sandbox: %s",
			    m->text[0] ? m->text : "no reason given");
		return -1;
	}
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

/* A layer's row: its state ("yes", "no", "n/a": not needed here) and what
 * that means for the programs, in words true of that state. */
struct layer_row {
	const char *name, *state, *what;
};

static void layer_rows(const struct sandbox_layers *l, struct layer_row *r, size_t *n)
{
	int sec = l->seccomp;

	*n = 0;
#define ROW(name, on, yes, no) (r[(*n)++] = (struct layer_row){ name, (on) ? "yes" : "no", (on) ? (yes) : (no) })
	ROW("uid switch", l->uid_switch, "each slot runs under a uid of its own",
	    "the programs run as grade's own user");
	if (!l->user_ns && l->mount_ns)
		r[(*n)++] = (struct layer_row){ "user namespace", "n/a",
			"not needed: grade builds the namespaces itself (CAP_SYS_ADMIN)" };
	else
		ROW("user namespace", l->user_ns, "the namespaces are built inside one",
		    "none could be made, nor the namespaces below");
	ROW("mount namespace", l->mount_ns, "suite and submissions masked, host read-only",
	    "the programs see the host's files, as far as their uid may read them");
	ROW("private /tmp", l->private_tmp, "fresh /tmp, /var/tmp, /dev/shm, scratch per case",
	    l->tmp_sweep ? "the host's; what the slot uid leaves there is removed after every case"
			 : "the host's; what a program leaves there stays");
	ROW("minimal root", l->minimal_root,
	    "runs see their program, its libraries, /dev, /proc, /tmp",
	    "runs see the host's system folders, read-only");
	ROW("build view", l->build_view,
	    "the compiler: no grader, its own /tmp, a minimal /dev",
	    "the compiler shares the runs' view");
	ROW("ipc namespace", l->ipc_ns, "fresh SysV IPC per case",
	    sec ? "none needed: the seccomp filter refuses SysV IPC"
		: "SysV IPC objects outlive their case");
	ROW("network namespace", l->net_ns, "no network",
	    sec ? "none, but the seccomp filter refuses inet sockets"
		: "the programs can reach the network");
	ROW("pid namespace", l->pid_ns, "programs can signal only each other",
	    l->uid_switch ? "the programs see every process, signal only their slot's"
			  : "the programs can signal every process of grade's user");
	ROW("private /proc", l->private_proc, "the slot's processes only",
	    "the host's /proc: every process's name and command line");
	ROW("seccomp filter", sec, "no keyrings, SysV IPC, inet sockets, namespaces",
	    "keyrings, SysV IPC, sockets and namespaces are open to the programs");
	ROW("children's CPU", l->children_cpu, "every process's CPU counts against the limit",
	    "only the program's own CPU counts (1 process, the default: all of it)");
#undef ROW
}

int sandbox_format_layers(struct strbuf *out, const struct sandbox_layers *l)
{
	struct layer_row rows[16];
	size_t n;

	layer_rows(l, rows, &n);
	for (size_t i = 0; i < n; i++)
		strbuf_addf(out, "  %-18s %-4s %s\n", rows[i].name, rows[i].state,
			    rows[i].what);
	if (l->cgroup)
		strbuf_addf(out, "  %-18s %-4s %s:%s%s%s%s\n", "cgroup", "yes", l->cgroup,
			    l->cgroup_caps & CG_KILL ? " kill" : "",
			    l->cgroup_caps & CG_CPU ? " cpu" : "",
			    l->cgroup_caps & CG_MEM ? " memory" : "",
			    l->cgroup_caps & CG_PIDS ? " pids" : "");
	else
		strbuf_addf(out, "  %-18s %-4s %s\n", "cgroup", "no",
			    "none writable: rlimits alone (address space, processes)");
	if (l->tmp_sweep)
		strbuf_addf(out, "  swept after every case: %s\n",
			    l->swept[0] ? l->swept : "(no world-writable folder found)");
	for (const char *p = l->missing; *p;) {
		size_t len = strcspn(p, ";");

		strbuf_addf(out, "  missing: %.*s\n", (int)len, p);
		p += len;
		p += strspn(p, "; ");
	}
	return strbuf_failed(out) ? -1 : 0;
}

/* The probe's findings, one line per folder: "the programs can read
 * FILE", or "... N files in DIR (FILE, ...)" for consecutive findings in
 * one folder (the hidden cases of a suite). How many lines. */
static int readable_lines(const char *readable, struct strbuf *out)
{
	const char *first = NULL;
	size_t dlen = 0, flen = 0;
	int n = 0, count = 0;

	for (const char *p = readable; p; ) {
		size_t len = *p ? strcspn(p, "\n") : 0, tab = strcspn(p, "\t");
		const char *file = tab < len ? p + tab + 1 : NULL;
		size_t fl = file ? len - tab - 1 : 0, dl = fl;

		while (dl && file[dl - 1] != '/')
			dl--;
		if (count && (!file || dl != dlen || strncmp(file, first, dl))) {
			if (count == 1)
				strbuf_addf(out, "the programs can read %.*s\n", (int)flen, first);
			else
				strbuf_addf(out, "the programs can read %d files in %.*s (%.*s, ...)\n",
					    count, (int)dlen - 1, first, (int)(flen - dlen), first + dlen);
			n++;
			count = 0;
		}
		if (file && !count++) {
			first = file;
			flen = fl;
			dlen = dl;
		}
		if (!*p)
			break;
		p += len + (p[len] == '\n');
	}
	return n;
}

int sandbox_leaks(const struct sandbox_layers *l, const char *readable,
		  struct strbuf *out)
{
	size_t before = out->len;
	int n = 0;

	n = readable_lines(readable, out);
	if (!readable && !l->mount_ns && ++n)
		strbuf_addstr(out, "no mount namespace: the programs may read the "
			      "suite's expected outputs (not checked)\n");
	if (!l->private_tmp && !l->tmp_sweep && ++n)
		strbuf_addstr(out, "no private /tmp and no uid of their own: what a "
			      "program leaves in /tmp, /var/tmp or /dev/shm stays "
			      "for later grades on this machine (grade cannot tell "
			      "it from your own files)\n");
	if (!l->private_tmp && ++n)
		strbuf_addstr(out, "no private /tmp: while a case runs, programs of "
			      "other grades beside it on this machine (grade --batch "
			      "-j N) can read what it writes there\n");
	if (!l->net_ns && !l->seccomp && ++n)
		strbuf_addstr(out, "no network namespace nor seccomp filter: a "
			      "program can send the hidden inputs out\n");
	if (!l->ipc_ns && !l->seccomp && ++n)
		strbuf_addstr(out, "no IPC namespace nor seccomp filter: a SysV IPC "
			      "object outlives its case\n");
	if (strbuf_failed(out)) {
		strbuf_setlen(out, before);
		return -1;
	}
	return n;
}
