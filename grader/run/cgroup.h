#ifndef WG_CGROUP_H
#define WG_CGROUP_H

/*
 * cgroup: one control group per sandbox slot, on cgroup v2, on v1
 * controllers, or on a mix of both (a hybrid host: v1 memory/pids/cpuacct/
 * freezer beside a controller-less v2 tree that still has cgroup.kill and
 * cpu.stat). Private to the sandbox (sandbox.h); only its keeper process
 * calls these, but for cg_open and cg_warm (sandbox_groups.c, in grade).
 *
 * Each capability is taken from the first hierarchy that offers it:
 *   kill   v2 cgroup.kill, else v1 freezer (freeze, SIGKILL each task, thaw)
 *   cpu    v2 cpu.stat usage_usec, else v1 cpuacct.usage
 *   mem    v2 memory.max + memory.events oom_kill, else v1
 *          memory.limit_in_bytes + memory.oom_control oom_kill
 *   pids   v2 pids.max, else v1 pids.max
 * A capability no hierarchy offers is simply absent (cg_caps says which):
 * the sandbox then leans on rlimits and a process limit of 1.
 *
 * Layout: <the grader's own cgroup in that hierarchy>/warpgrade-<pid>-<slot>,
 * made by cg_open (grade's own pid: grade makes every slot's at its start,
 * sandbox_groups.c; a keeper's where it makes its own) and removed by
 * the keeper's cg_close. Joining is done by the child
 * itself, before exec, by writing "0" to each descriptor of cg_join_fds.
 * The keeper holds an flock on each of its groups' folders for its life;
 * cg_open removes the groups whose lock is free (a grade killed with
 * SIGKILL leaves them), never by the pid in their name: a keeper in
 * another PID namespace has another number there.
 *
 * Errors: cg_open cannot fail (what is missing goes to why, caps says what
 * is left); cg_kill_all: -1 and errno; cg_set_limits: -1 when a write
 * failed; the readers answer "not offered" as -1 or 0. Nothing prints.
 */

#include <stdint.h>
#include <sys/types.h>

#define CG_MAX_DIRS 5

enum cg_cap { CG_KILL = 1, CG_CPU = 2, CG_MEM = 4, CG_PIDS = 8 };

struct cgroup {
	int caps;                    /* CG_* offered */
	int version;                 /* 0 none, 1 v1 only, 2 v2 only, 3 both */
	char *dirs[CG_MAX_DIRS];     /* the slot's cgroup in each hierarchy used */
	int ndirs;
	int procs_fd[CG_MAX_DIRS];   /* cgroup.procs of each, open for writing */
	int kill_v2, freezer_v1;     /* index in dirs of the kill mechanism */
	int cpu_dir, cpu_v2;         /* index of cpu accounting; v2 or v1 */
	int mem_dir, mem_v2;
	int pids_dir;
	uint64_t mem_set, pids_set;  /* the limits written last (0: none yet) */
	int procs_rd[CG_MAX_DIRS];   /* cgroup.procs of each, open for reading */
	int dfd[CG_MAX_DIRS];        /* each group's folder, flock'ed for the
	                                keeper's life (its liveness) */
	int pfd[CG_MAX_DIRS];        /* and its parent's: every file is reached
	                                through them, for the sandbox masks /sys */
	int cpu_fd, mem_fd;          /* cpu.stat or cpuacct.usage; memory.events
	                                or memory.oom_control: open for reading */
	int active;                  /* bit i: dirs[i] joined by this run */
	uint64_t oom_seen;           /* the OOM count last read */
	int mem_inherited;           /* the keeper sits in the (v1) memory
	                                group: its children are born there */
	int join_mem;                /* cg_join_start's child moves the
	                                keeper there */
	pid_t join_pid;              /* that child (0: none, or waited) */
	int join_fd;                 /* a warm-up child's pidfd, or -1 */
	char why[200];               /* what is missing, for the report */
};

/* Finds and makes the slot's cgroups. Never fails: with no usable
 * hierarchy, caps is 0 and why says why. */
void cg_open(struct cgroup *cg, int slot);
void cg_close(struct cgroup *cg);
/* Grade's copy of groups a forked keeper now holds: descriptors closed,
 * nothing removed (the flock belongs to the open file the keeper still
 * holds). */
void cg_forget(struct cgroup *cg);
/* The descriptors cg holds, into fds (CG_FDS at most); how many. */
#define CG_FDS (4 * CG_MAX_DIRS + 2)
int cg_fds(const struct cgroup *cg, int *fds);
/* The first migration's wait (cgroup.c): cg_warm_fd opens the
 * cgroup.procs of the grader's own group (-1: none); cg_warm writes "0"
 * there (grade moves into the group it is in, which takes the kernel's
 * migration lock: it may block for an RCU grace period) and closes it.
 * cg_join_start, right after the keeper has its groups: a child moves
 * the keeper into its v1 memory group where it may sit there, or, with
 * warm, makes cg_warm's move; the keeper goes on meanwhile. cg_join_wait:
 * that move is over (mem_inherited says whether it was made); called
 * before the keeper forks the runs' parents. */
int cg_warm_fd(const struct cgroup *cg);
void cg_warm(int fd);
void cg_join_start(struct cgroup *cg, int warm);
void cg_join_wait(struct cgroup *cg);

/* Sets memory.max (bytes, 0: none) and pids.max (0: none) where offered;
 * -1 when a write failed. */
int cg_set_limits(struct cgroup *cg, uint64_t mem_bytes, uint64_t pids);
/* A run joins every hierarchy (all), or with a process limit of 1 only
 * the memory controller's: one process needs no kill, pids or tree CPU
 * (its rusage is all of it), and each hierarchy joined costs a migration
 * (~20 us on v1). Fills fds with the cgroup.procs descriptors to join and
 * returns how many; reads the baselines of what the run will use. */
int cg_begin(struct cgroup *cg, int all, int *fds, uint64_t *cpu_ns0);
/* CPU of the whole tree in ns (-1: not offered or not joined). */
int64_t cg_cpu_ns(struct cgroup *cg);
/* 1 when cg_cpu_ns can count this run (offered and joined). */
int cg_cpu_counted(const struct cgroup *cg);
/* 1 when the OOM killer struck since the last time it was asked; maybe: a
 * kill could have happened (a process died of SIGKILL we did not send, or
 * the run had children): otherwise the count is not read. */
int cg_oom_killed(struct cgroup *cg, int maybe);
/* Kills every process in the slot's cgroup and waits (at most about
 * 1 s) until it is empty. 0, or -1 with errno (not offered: ENOSYS). */
int cg_kill_all(struct cgroup *cg);
/* Lists the "cgroup" / "cpu accounting" facts for --check-env. */
const char *cg_version_name(const struct cgroup *cg);

#endif
