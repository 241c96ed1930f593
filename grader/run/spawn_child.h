#ifndef WG_SPAWN_CHILD_H
#define WG_SPAWN_CHILD_H
/*
 * spawn_child: the child's side of a run, between vfork and exec (private
 * to spawn.c). spawn.c computes a struct child_plan before the vfork;
 * the child runs spawn_child_exec(plan), which makes async-signal-safe
 * calls only, and reports a failed step as {stage, errno} on the status
 * pipe (runner.c's theory of operation).
 *
 * Errors: none to the caller: nothing here allocates, and a failed step
 * is the {stage, errno} record, after which the child _exits.
 */
#include <linux/filter.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/types.h>

/* Steps of the child's setup, reported by index over the status pipe. */
enum stage {
	ST_SETSID, ST_SIGACTION, ST_DUP2, ST_CLOSE, ST_RLIMIT, ST_SETGROUPS,
	ST_SETGID, ST_SETUID, ST_VERIFY, ST_PRCTL, ST_CHDIR, ST_SIGMASK,
	ST_CGROUP, ST_IPC, ST_SECCOMP, ST_EXEC, ST_COUNT
};


struct status_rec {
	int stage;
	int err;
};

/* Everything the child needs, prepared before fork. */
struct child_plan {
	int session;                /* 1: setsid(); 0: setpgid(0, 0) (spawn_child.c) */
	const char *path;
	char *const *argv;
	char *const *envp;
	const char *dir;
	int fds[3];             /* child ends of stdin, stdout, stderr */
	int status_fd;
	int max_fd;             /* for the close loop when close_range is absent */
	struct rlimit rl[10];
	int rl_res[10];
	int n_rl;
	int switch_uid;
	const int *cg_fds;         /* cgroup.procs files the child joins */
	int n_cg;
	int unshare_ipc;           /* a fresh IPC namespace of its own */
	const sigset_t *reset;     /* the signals to reset; NULL: all */
	const struct sock_fprog *filter; /* seccomp, installed last; or NULL */
	const cpu_set_t *affinity; /* the program's CPUs; NULL: inherited */
	uid_t uid;
	gid_t gid;
	pid_t parent;
	sigset_t empty;
};

/* The child's whole life: set up from the plan, then execve; never returns. */
__attribute__((noreturn)) void spawn_child_exec(const struct child_plan *p);
/* "setsid", "exec", ...: the name of a stage; "setup" past the table. */
const char *spawn_stage_name(int stage);

#endif
