#ifndef WG_SPAWN_H
#define WG_SPAWN_H

/*
 * spawn: the bottom of grader/run (docs/hacking.md, "Layers"): what a run
 * is (struct run_child, its limits and its result) and how one process is
 * started under them: the rlimit plan, vfork and the child's side before
 * exec (spawn_child.c). It calls nothing above it: the sandbox (sandbox.h)
 * starts its programs with run_spawn_local, and the runner (runner.h)
 * starts them, pumps their pipes and finishes them.
 *
 * The child, before exec (only async-signal-safe calls): a process group of
 * its own (pgid = pid), in a new session unless the caller made one
 * (run_spawn_extra.in_session: the keeper makes one session for its slot,
 * and a session per run would be a scheduler group per run under
 * autogroup); default signal dispositions; with the
 * sandbox's extras, its cgroups joined and a new IPC namespace;
 * stdin/stdout/stderr on the pipes; every fd above 2 closed; rlimits (CPU
 * soft = ceil of the limit and hard = soft + 1, address space, stack, file
 * size, core 0, open files, processes; none above the grader's own hard
 * limits unless it may raise them); when uid is set and the harness is
 * root: no supplementary groups, then gid, then uid (real, effective and
 * saved), then a check that they took; PR_SET_NO_NEW_PRIVS;
 * PR_SET_PDEATHSIG = SIGKILL (the child dies with the thread that started
 * it); cwd = c.dir (entered with the child's final credentials); an empty
 * signal mask; execve with c.env, or the fixed environment
 * PATH=/usr/bin:/bin LANG=C HOME=<dir> when c.env is NULL. A failure at
 * any step is sent to the parent as {stage, errno} over a close-on-exec
 * pipe; EOF on that pipe means exec succeeded. Stage names: "setsid" (also
 * a failed setpgid),
 * "sigaction", "cgroup", "ipc namespace", "dup2", "close fds",
 * "setrlimit", "setgroups", "setgid", "setuid", "verify credentials",
 * "prctl", "seccomp", "chdir", "sigprocmask" (all harness failures:
 * run_start -1) and
 * "exec" (a result).
 *
 *
 * Dedicated uids (root only). A uid/gid per parallel slot, chosen by the
 * caller with run_slot_uid(slot) = base + slot (gid the same number; base
 * RUN_SLOT_UID_BASE = 62000 unless run_set_slot_uid_base says otherwise).
 * These ids must be used by nothing else on the machine: after every run
 * all processes of that uid are killed, so two graders running at once on
 * one machine need different bases. Then RLIMIT_NPROC bites (it is not
 * enforced on root), and the child cannot signal the grader, read its /proc
 * entries or write its files. The program (argv[0] and its directories) and
 * c.dir must be reachable by that uid. uid 0 and the grader's own uid are
 * never switched to nor mass-killed. When the harness is not root, uid and
 * gid are ignored; RLIMIT_NPROC then counts every process of the grader's
 * user, and a grandchild that leaves the process group with setsid()
 * survives the cleanup (only the group is killed).
 *
 *
 * Errors: run_spawn_local returns -1 with c->res.error set (the return
 * convention of runner.h); spawn_pipe and spawn_lift_fd -1 and errno.
 */

#include "grader/lib/strbuf.h"

#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/types.h>

struct sandbox_slot;
struct sock_fprog;

#define RUN_SLOT_UID_BASE 62000
#define RUN_DEFAULT_OUTPUT_BYTES ((uint64_t)16 << 20)
#define RUN_DEFAULT_STDERR_BYTES ((uint64_t)64 << 10)
#define RUN_DEFAULT_NOFILE 64
#define RUN_DRAIN_MS 100

struct run_limits {
	double cpu_sec;          /* RLIMIT_CPU soft = ceil (hard = soft + 1); 0: none */
	double wall_sec;         /* wall deadline on CLOCK_MONOTONIC; 0: none */
	uint64_t mem_bytes;      /* the memory limit: with c.sbx, the slot's
	                            memory cgroup where it has one (memory in
	                            use, tmpfs included, as runguard and
	                            isolate; no RLIMIT_AS, so reserved address
	                            space such as threads' stacks is free);
	                            else RLIMIT_AS. 0: none */
	uint64_t as_bytes;       /* RLIMIT_AS of every process whatever else
	                            limits memory (the compiler's); 0: none
	                            but what mem_bytes implies */
	uint64_t fsize_bytes;    /* RLIMIT_FSIZE; 0: none */
	uint64_t output_bytes;   /* stdout kept; past it: killed, output_exceeded;
	                            0: RUN_DEFAULT_OUTPUT_BYTES */
	uint64_t stderr_bytes;   /* tail of stderr kept; 0: RUN_DEFAULT_STDERR_BYTES */
	long nofile;             /* RLIMIT_NOFILE; 0: RUN_DEFAULT_NOFILE */
	long nproc;              /* RLIMIT_NPROC; 0: none. Not enforced on root:
	                            bites with a dedicated uid, or when not root */
	uint64_t stderr_kill_bytes; /* past this much stderr: killed,
	                            stderr_exceeded; 0: never (tail only) */
	uint64_t stack_bytes;    /* RLIMIT_STACK; 0: the caller's (set it:
	                            an inherited "unlimited" changes the
	                            memory layout, and so verdicts) */
	uint64_t total_kill_bytes; /* past this much stdout and stderr
	                            together: killed, total_exceeded; 0: never */
};

enum run_status {
	RUN_EXITED,              /* exit_code is valid */
	RUN_SIGNALED,            /* term_signal is valid */
};

struct run_result {
	enum run_status status;
	int exit_code;
	int term_signal;
	int timed_out_wall;      /* killed at the wall deadline */
	int cpu_exceeded;        /* SIGXCPU; or SIGKILL not sent by us (nor
	                            by the OOM killer) with
	                            cpu_ms >= 3/4 of the soft limit (the hard
	                            limit's kill: rusage reads low under load);
	                            or cpu_ms > cpu_sec * 1000 */
	int output_exceeded;     /* stdout went past output_bytes (killed) */
	long wall_ms, cpu_ms;    /* cpu = user + sys from wait4's rusage, or
	                            the tree's (tree_cpu_ms) when larger; with
	                            cpu_exceeded never below cpu_sec (rusage
	                            can read under what the kernel counted) */
	long max_rss_kb;
	uint64_t stdout_bytes;   /* total read, even past the cap */
	uint64_t stderr_bytes;
	char *out;               /* captured stdout (NUL-terminated), owned;
	                            never NULL after run_finish returned 0 */
	size_t out_len;
	char *err;               /* last stderr_bytes of stderr (NUL-terminated),
	                            owned; never NULL after run_finish returned 0 */
	size_t err_len;
	int exec_errno;          /* non-zero: exec (or setup) failed in child */
	const char *exec_stage;  /* which step failed ("exec", "chdir"...), static */
	char error[256];         /* the harness's own failure, when -1 */
	pid_t pid;               /* the child's pid (= its pgid); reaped */
	int stderr_exceeded;     /* stderr went past stderr_kill_bytes (killed) */
	int uid_switched;        /* ran under c.uid/c.gid (root, uid set) */
	int hidden;              /* ran with the suite masked (sandbox.h) */
	long tree_cpu_ms;        /* CPU of every process of the run (the
	                            sandbox's cgroup), or -1: not measured */
	int tree_cpu_killed;     /* the sandbox killed the tree at the CPU
	                            limit (children's CPU counted live) */
	int oom_killed;          /* the cgroup's OOM killer struck: MLE */
	int total_exceeded;      /* stdout + stderr went past total_kill_bytes */
};

struct run_child {
	const char *const *argv; /* argv[0] is the path run: no PATH search,
	                            relative to the grader's cwd even with dir */
	const char *const *env;  /* NULL: the minimal fixed environment */
	const char *dir;         /* cwd of the child; NULL: unchanged */
	const char *input;       /* bytes fed to stdin (may hold NULs) */
	size_t input_len;
	const char *input_path;  /* or, when set, this file on stdin: the
	                            file itself (opened read-only) where the
	                            program runs under a slot uid that cannot
	                            write it (runner.c, input_direct), else
	                            fed as it is read: spliced into the pipe
	                            (a copy through a CHUNK buffer where the
	                            file system cannot splice), never held
	                            whole. run_start opens it (cannot open:
	                            -1, a harness failure); failing to read it
	                            is one too (run_finish -1) */
	struct run_limits lim;
	uid_t uid;               /* (uid_t)-1: keep; only applied when root */
	gid_t gid;               /* (gid_t)-1 with uid set: gid = uid */
	struct sandbox_slot *sbx; /* NULL: spawned by the calling thread;
	                            else by that slot's keeper (sandbox.h):
	                            its namespaces, private /tmp, cgroup */
	int bind_dir;            /* with sbx: dir is a folder of the scratch
	                            tree filled on the host (a build folder),
	                            bound into the sandbox as it is, not a
	                            fresh empty one */
	/* private */
	pid_t pid;
	int fd_in, fd_out, fd_err, fd_status;
	struct run_result res;
	int fd_pid;              /* pidfd of the child, or -1 */
	int fd_keeper;           /* sandbox_fd(sbx) while running (not owned) */
	int started;             /* run_start succeeded (through a keeper the
	                            pid is known only at the end) */
	int reaped;
	int64_t t0_ns;           /* CLOCK_MONOTONIC at fork */
	size_t in_off;           /* bytes of input written */
	int fd_input;            /* input_path's descriptor, -1 once at EOF */
	int in_copy;             /* input_path cannot be spliced: copied */
	struct strbuf out_buf;   /* stdout captured while running (res.out) */
	struct strbuf err_buf;   /* stderr's tail while running (res.err) */
};

#define RUN_CHILD_INIT { .uid = (uid_t)-1, .gid = (gid_t)-1, .pid = -1, \
	.fd_in = -1, .fd_out = -1, .fd_err = -1, .fd_status = -1, \
	.fd_pid = -1, .fd_keeper = -1, .fd_input = -1 }


/*
 * For the sandbox only (its keeper, sandbox_keeper.c, and its spawner,
 * sandbox_spawner.c): start c's program in this
 * process on the given child ends of its stdin, stdout and stderr (the
 * caller keeps and closes them), with the extras below. Returns 0 with
 * c->pid set (a child of this process, not yet reaped; a failed exec is a
 * result, as in run_start), or -1 with c->res.error set and no process.
 */
struct run_spawn_extra {
	const int *cg_fds;       /* cgroup.procs descriptors the child joins */
	int n_cg;
	int unshare_ipc;         /* the child gets a new IPC namespace */
	const sigset_t *reset_signals; /* only these need SIG_DFL (the rest
	                            are not ignored); NULL: every signal */
	const struct sock_fprog *filter; /* seccomp filter installed just
	                            before exec (sysfilter.h); NULL: none */
	int in_session;          /* the caller made a session without a
	                            terminal (the keeper's): the child makes
	                            a process group only, not a session */
	const cpu_set_t *affinity; /* the CPUs the program may use (set
	                            before exec: the keeper keeps to one CPU,
	                            its programs must not); NULL: inherited */
};
int run_spawn_local(struct run_child *c, const int child_ends[3],
		    const struct run_spawn_extra *x);
/* Whether this process may raise hard rlimits (CAP_SYS_RESOURCE), looked
 * up once; call it before entering a user namespace, where capget would
 * report that namespace's capabilities, not the ones setrlimit checks. */
void run_probe_privileges(void);

/* "SIGSEGV" for SIGSEGV; "SIGRTMIN+n"; "signal N" for unknown ones (a
 * thread-local buffer, valid until the next call in the same thread). */
const char *run_signal_name(int sig);


/* The dedicated uid (and gid: the same number) of parallel slot `slot`
 * (0, 1, ...): the base plus slot. */
uid_t run_slot_uid(int slot);
/* Set the base of run_slot_uid (default RUN_SLOT_UID_BASE); call it before
 * starting any run. */
void run_set_slot_uid_base(uid_t base);

/* ---- shared with the runner (runner.c, runner_pump.c) only ---- */

#define SPAWN_MAX_SEC 1e7       /* longer limits are clamped (no overflow) */

/* Sets c->res.error; returns -1. */
int spawn_fail(struct run_child *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Closes *fd when open and sets it to -1. */
void spawn_close_fd(int *fd);
/* A close-on-exec pipe whose both ends are above 2 (spawn_lift_fd). */
int spawn_pipe(int p[2]);
/* fd itself when above 2, else a close-on-exec copy above 2 (fd closed):
 * the child's dup2 onto 0..2 then never finds a source already sitting
 * on a target. -1 and errno. */
int spawn_lift_fd(int fd);
/* Whole seconds of RLIMIT_CPU's soft limit for sec (rounded up). */
rlim_t spawn_cpu_soft(double sec);
/* Whether c's child switches to c->uid (a root harness, never to root
 * nor to its own uid). */
int spawn_switches_uid(const struct run_child *c);
/* The gid c's child takes with its uid: c->gid, or the uid's number. */
gid_t spawn_gid(const struct run_child *c);
/* wait4 for c->pid (EINTR retried), rusage into ru when not NULL; marks c
 * reaped. 0, or -1. */
int spawn_reap(struct run_child *c, int *status, struct rusage *ru);

#endif
