#ifndef WG_SANDBOX_INT_H
#define WG_SANDBOX_INT_H
/*
 * sandbox_int: what the files of the sandbox share and nothing outside
 * them sees (sandbox.h is the public side). The message grade, the keeper
 * and the spawner exchange; the keeper's state; and the functions one
 * file of the sandbox calls in another, each with the prefix sbx_.
 *
 * Processes. Everything below but the sbx_send/sbx_recv/sbx_pack_run
 * trio runs in the keeper (or in the spawner, the keeper's child), never
 * in grade. Those processes end with _exit, never exit(): they are forks
 * of grade and must not run its atexit handlers or flush its stdio. An
 * _exit(0) where a read or write on grade's socket fails is not an error
 * path but the keeper's lifecycle: grade closed its end or died, and the
 * keeper (its namespaces and cgroups with it) goes too.
 *
 * Fixed sizes. A message is a fixed-size struct sent whole over a
 * SOCK_SEQPACKET pair, so it holds arrays, not pointers: its strings
 * (STRINGS bytes, a run's path, folder, argv and env; sbx_pack_run
 * refuses more), the layers' missing text (truncated by sbx_note) and the
 * error text (truncated like run_child's res.error, which it fills). The
 * keeper's paths are PATH_MAX arrays: longer ones fail with ENAMETOOLONG
 * as the kernel would fail them.
 *
 * Errors: -1 and errno for the system-call helpers, -1 and c->res.error
 * (or m's text) for a run; a layer the kernel refuses is noted in
 * L->missing (sbx_note), never an error.
 */
#include <limits.h>
#include <signal.h>
#include <sys/wait.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <time.h>

#include "grader/run/cgroup.h"
#include "grader/run/spawn.h"
#include "grader/run/sandbox.h"

#define STRINGS 32768
#define MAX_ARGS 64
#define MAX_AREAS 5
#define TMP_INODES 4096
#define CPU_TICK_MS 20
#define MAX_LIBS 64
#define LIB_PATH 256

enum msg_type { M_READY = 1, M_NEED_MAP, M_MAPPED, M_RUN, M_KILL, M_DONE,
		M_RENEW };

struct msg {
	int type;
	/* M_READY */
	struct sandbox_layers layers;
	/* M_RUN */
	struct run_limits lim;
	uid_t uid;
	gid_t gid;
	int argc, envc, has_dir, bind_dir;
	int join[CG_MAX_DIRS], njoin;    /* keeper -> spawner: cgroup fds */
	int direct;              /* keeper -> spawner: answer grade yourself
	                            unless the end may need the keeper */
	/* M_DONE */
	pid_t pid;
	int ok, stage_err;
	char stage[32];
	int status;
	long utime_us, stime_us, maxrss_kb;
	long tree_cpu_ms;
	int tree_cpu_killed, oom_killed, cleanup_errno;
	int answered;            /* spawner -> keeper: grade has this too */
	char text[sizeof(((struct run_result *)0)->error)]; /* to res.error */
	/* M_RUN: path, dir, argv..., env..., NUL-separated */
	size_t strings_len;
	char strings[STRINGS];
};

/* One private tmpfs of the keeper's mount namespace. */
struct area {
	char path[PATH_MAX];
	const char *opts_mode;   /* "1777" or "0711" */
	int mounted;
	fsfilcnt_t files;        /* inodes in use after the last preparation */
	fsblkcnt_t blocks;
	struct timespec ctime;   /* of its root: any create, delete, chmod or
	                            utime there moves it, and no one can set it */
	int fd;                  /* O_PATH of its root while mounted: checks
	                            without a path walk */
};

struct keeper {
	int sock;
	const struct sandbox_config *cfg;
	struct sandbox_layers L;
	struct cgroup cg;
	struct area areas[MAX_AREAS];
	int nareas;              /* the last one is the scratch folder */
	int fresh;               /* areas mounted afresh since the last bind */
	dev_t prog_dev;
	ino_t prog_ino;
	struct timespec prog_ctime; /* a program rewritten in place is copied
	                            anew */
	char prog_at[PATH_MAX];  /* where the current program is bound */
	char bin_ro[PATH_MAX];   /* its folder, bound read-only over itself */
	char bound[PATH_MAX];    /* a host folder bound in for one run */
	char cwd[PATH_MAX];      /* the working folder left by the last run */
	struct timespec cwd_ctime;
	uid_t cwd_uid;
	int processes;           /* the last run's process limit */
	pid_t init;              /* pid 1 of the slot's PID namespace, or 0:
	                            the keeper's child (sandbox_pidns.c) */
	pid_t holder;            /* pid 1 of the holder's PID namespace, in
	                            which each slot namespace is made, or 0 */
	int holder_life;         /* its life pipe (closing it ends it) */
	int holder_ns;           /* the holder's namespace, to make the
	                            slot's anew; -1: none to renew */
	int pid_dirty;           /* a run that may have forked since the
	                            slot's PID namespace was made: its pid
	                            counter moved; renewed after the run */
	char renew_error[sizeof(((struct run_result *)0)->error)];
	                         /* why that failed: the next run's IE */
	int proc_level;          /* what mount_slot_proc gave: 2 hidepid, 1
	                            subset=pid alone, 0 none */
	int proc_mounted;        /* /proc is the slot's own, the current
	                            init's */
	int ipc_fd[3];           /* /proc/sysvipc/{shm,sem,msg} of the slot */
	int ipc_watch;           /* they are open: no IPC namespace per run */
	sigset_t ignored;        /* the keeper's ignored signals (fixed) */
	cpu_set_t all_cpus;      /* grade's CPUs, before the keeper was pinned:
	                            every program's (sandbox.h, "cpu") */
	int pinned;              /* the keeper keeps to one CPU */
	int spawner;             /* socket to the spawner, or -1 */
	int spawner_wanted;      /* it was started: a renewal starts it anew */
	int deferred_errno;      /* a clean-up that failed after the spawner
	                            had answered grade: the next run reports it */
	pid_t spawner_pid;
	struct msg *fwd;         /* the keeper's messages to it */
	int life;                /* the slot init's life pipe (closing it
	                            ends it) */
	int build_ns;            /* the build view's mount namespace (the
	                            keeper's until the runs' was made), or
	                            -1: builds run in the runs' (fallback) */
	int run_ns;              /* the runs' mount namespace */
	int host_root;           /* the build view's "/": libraries are
	                            copied from there into the minimal root */
	int build_tmp;           /* the build's /tmp is mounted (build view);
	                            2: bound at /var/tmp too */
	char libs[MAX_LIBS][LIB_PATH]; /* copied into the minimal root */
	int nlibs;
	int root_rw;             /* the minimal root is writable (a program's
	                            libraries being copied in: sandbox_root.c) */
	int base_fd;             /* the host's scratch folder, opened before
	                            the private one covered it: programs are
	                            bound from there (a bind mount must come
	                            from this namespace) */
};

/* ---- messages (sandbox_msg.c) ---- */

/* Sends m (its strings_len bytes of strings only) and nfds descriptors
 * (at most 4) as SCM_RIGHTS; the descriptors stay the caller's. 0, or -1
 * with errno. */
int sbx_send(int sock, const struct msg *m, const int *fds, int nfds);
/* 0 with *m filled (fds: up to maxfds received, close-on-exec and the
 * caller's to close; the rest -1); -1 on EOF (errno 0) or error. */
int sbx_recv(int sock, struct msg *m, int *fds, int maxfds);
/* c into a RUN message; -1 when its strings do not fit. */
int sbx_pack_run(struct msg *m, const struct run_child *c);
/* A RUN message into c: argv and env (MAX_ARGS + 1 each, the caller's)
 * and c's strings point into m->strings, so m must outlive c. -1 when the
 * message is malformed. */
int sbx_unpack_run(struct msg *m, struct run_child *c, const char **argv,
		   const char **env);

/* ---- the keeper's setup, once (sandbox_setup.c) ---- */

/* Appends to L->missing ("; " between), truncating what does not fit. */
__attribute__((format(printf, 2, 3)))
void sbx_note(struct sandbox_layers *L, const char *fmt, ...);
/* Writes text to an existing file. 0, or -1 with errno. */
int sbx_write_text(const char *path, const char *text);
/* mkdir -p with exact modes whatever the umask. 0, or -1 with errno. */
int sbx_mkdir_p(const char *path, mode_t mode);
/* 1 when a top-level name is one the mount namespace keeps. */
int sbx_top_level_kept(const char *name);
/* The user, mount, network, IPC and PID namespaces, in that order, as far
 * as the kernel allows; what is missing goes to k->L. */
void sbx_build_namespaces(struct keeper *k);
/* Every private area anew (sandbox_setup.c mounts them first). */
int sbx_remount_areas(struct keeper *k);
/* Notes an area's state (inodes, blocks, its root's ctime) as clean:
 * the next preparation remakes it only if a run moved any of them. */
void sbx_area_mark(struct area *a);
/* Opens rel below the host's /proc (the slot's own covers /proc). */
int sbx_proc_open(const char *rel, int flags);
/* 1 when a run left a SysV IPC object; sbx_ipc_renew replaces the
 * slot's IPC namespace with a new one. */
int sbx_ipc_dirty(const struct keeper *k);
void sbx_ipc_renew(struct keeper *k);
/* Replaces the slot's PID namespace (k->pid_dirty) with a new one: the
 * spawner and the old init end (the kernel kills whatever is left in the
 * namespace), a new init mounts a new /proc and a new spawner starts
 * where there was one. Called between runs, never while the keeper holds
 * a run's descriptors (the new init and spawner would keep them open).
 * 0 (k->pid_dirty cleared), or -1 with the reason in err (k->pid_dirty
 * stays: no run may start in a half-made namespace; it is tried again
 * after the next). */
/* sandbox_pidns.c: the holder and the slot's PID namespace, made once
 * (sbx_start_pid_ns, after the mounts) and anew after a run of more than
 * one process (sbx_pid_renew). */
void sbx_start_pid_ns(struct keeper *k);
int sbx_pid_renew(struct keeper *k, char *err, size_t len);
/* At the keeper's end, after the spawner: the slot's init and the
 * holder end and are reaped (the kernel kills what is left in their
 * namespaces). */
void sbx_pid_close(struct keeper *k);
/* Closes every descriptor from 3 up but keep. */
void sbx_close_others(int keep);
/* The same, but for the n descriptors of keep (sorted in place). */
void sbx_close_all_but(int *keep, int n);

/* ---- the two views (sandbox_root.c) ---- */

/* Once, in the mount namespace the host's masks were made in: the minimal
 * /dev (both views share it), then the runs' namespace (the minimal root,
 * or with cfg->host_view a copy of this one), left as the keeper's; then
 * the build view's last covers. 0; or -1 with the reason in k->L (the
 * keeper stays in one namespace: builds and runs share it as before). */
int sbx_build_views(struct keeper *k);
/* The libraries (PT_INTERP, DT_NEEDED, recursively) of the ELF program
 * open at fd, copied into the minimal root where missing. 0, or -1 with
 * errno (ENOENT: a library not found in the host's standard folders). */
int sbx_root_libraries(struct keeper *k, int fd);
/* Copies the open file in onto path (created, mode 0755). 0, or -1. */
int sbx_copy_fd(int in, const char *path);
/* A build: into the build view, a fresh scratch tmpfs at /tmp, the build
 * folder (dir) bound in, and the compiler (path) where it lies in the
 * scratch tree. 0, or -1 with errno (the keeper is then back in the runs'
 * namespace). sbx_leave_build: back into the runs' namespace; -1 is fatal
 * (no run may start in the build view). */
int sbx_enter_build(struct keeper *k, const char *path, const char *dir);
int sbx_leave_build(struct keeper *k);

/* ---- the keeper, per run (sandbox_prepare.c, sandbox_keeper.c) ---- */

/* Binds rel, below the host's scratch folder, onto target. 0, or -1. */
int sbx_bind_from_base(struct keeper *k, const char *rel, const char *target);
/* Private folders for the run. 0, or -1 with errno. */
int sbx_prepare(struct keeper *k, const char *path, const char *dir,
		int bind_dir, uid_t uid, gid_t gid);

/* ---- waiting for a run (sandbox_wait.c) ---- */

/* Kills the ended child's group and reaps it into m's status and usage. */
void sbx_reap_run(pid_t pid, struct msg *m);
/*
 * One wait for a run, by the keeper or the spawner, until it ends:
 *   ctl        where M_KILL comes (grade's socket, or the keeper's)
 *   done       readable when the run has ended: the child's pidfd, or
 *              the spawner's socket (its M_DONE, left for the caller);
 *              -1: pid is polled with waitid every 10 ms
 *   pid        the child; its group is what a kill signals, unless
 *   kill_via   the spawner's socket (else -1): the kill is then an M_KILL
 *              to it (once), made in fwd
 *   cg         the slot's cgroup, or NULL (the spawner has none): a kill
 *              takes every process of it too; and with cpu_limit_ns
 *              (set where the run may have children) its CPU since cpu0
 *              is read every CPU_TICK_MS, and past the limit the tree is
 *              killed (tree_killed): the one live tree-CPU kill
 * sbx_wait_run returns 0 when the run ended (not reaped), -1 when poll
 * failed; m receives what ctl brought. A lost ctl means whoever asked for
 * runs is gone: _exit(0).
 */
struct sbx_wait {
	int ctl, done;
	pid_t pid;
	int kill_via;
	struct msg *fwd;
	struct cgroup *cg;
	uint64_t cpu0;
	int64_t cpu_limit_ns;
	int killed;              /* out: a kill was sent */
	int tree_killed;         /* out: the tree's CPU passed the limit */
};
int sbx_wait_run(struct sbx_wait *w, struct msg *m);
/* The keeper: builds the layers, reports READY and serves runs until
 * grade closes the socket; never returns (_exit). */
__attribute__((noreturn))
void sbx_keeper_main(const struct sandbox_config *cfg, int sock, pid_t parent);

/* ---- the sweep without a private /tmp (sandbox_sweep.c) ---- */

#define SBX_SWEEP_ROOTS 16
/* Once, in the keeper, before the first run: finds the world-writable
 * folders a slot uid can write in (never below scratch) and keeps them
 * open. */
void sbx_sweep_init(const char *scratch);
/* Their paths into out (at most max); how many. */
int sbx_sweep_roots(char (*out)[PATH_MAX], int max);
/* After a run: removes everything uid owns in them (nothing for root, the
 * keeper's own uid or none). */
void sbx_sweep(uid_t uid);

/* ---- the spawner (sandbox_spawner.c) ---- */

/* Forks the spawner where it can serve (k->spawner stays -1 otherwise). */
void sbx_start_spawner(struct keeper *k);
/* Ends the spawner, if any, and reaps it. */
void sbx_stop_spawner(struct keeper *k);
/* One run through the spawner. 0, or -1 with c->res.error. */
int sbx_spawn_via(struct keeper *k, struct run_child *c, int fds[4],
		  const int *join, int njoin, uint64_t cpu0, struct msg *m,
		  int direct);

/* Every child that has ended, reaped; none waited for. The keeper and the
 * spawner are subreapers: a run's orphans come to them, and each zombie
 * counts against its uid's RLIMIT_NPROC until it is reaped. */
static inline void sbx_reap_ended(void)
{
	while (waitpid(-1, NULL, WNOHANG | __WALL) > 0)
		;
}

#endif
