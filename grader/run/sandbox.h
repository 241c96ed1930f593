#ifndef WG_SANDBOX_H
#define WG_SANDBOX_H

/*
 * sandbox: the world each run lives in, built in layers, each against one
 * attack, each skipped (and said so) where the kernel or the caller's
 * privileges do not allow it. One keeper process per parallel slot builds
 * the long-lived layers once and then starts every run of that slot.
 *
 * Layers, from the outside in. "Cost" is per case unless it says "once".
 *
 *  keeper      A small process forked from grade before the suite's data is
 *              loaded, single-threaded, root (or root of its own user
 *              namespace). It starts each program (spawn.h's
 *              run_spawn_local), waits for it, cleans up and reports. So
 *              the program's max RSS is its own, never grade's (a vfork
 *              child of a large grader inherits its peak), and no process
 *              of the slot uid can signal, stop or trace whoever cleans up.
 *              Cost: a message round trip, ~20 us.
 *  uid         As root: the slot's own uid/gid (scratch.h), so RLIMIT_NPROC
 *              counts only the program's processes and it cannot touch the
 *              grader or another slot.
 *  user ns     Where the caller is not root, or is root without
 *              CAP_SYS_ADMIN (Docker's default), the keeper first makes a
 *              user namespace (as bubblewrap does) so that the mount, IPC
 *              and network layers below can be built anyway. As root it is
 *              mapped one to one (grade writes the maps); otherwise only
 *              the caller's uid is mapped.
 *  mount ns    Once: two private mount namespaces, two views of the
 *              file system (sandbox_root.c), an allow-list for the runs:
 *
 *              run view (the programs'): a tmpfs of its own made the root
 *              (pivot_root, as isolate's box; the host's old root detached
 *              whole), read-only, holding only
 *                /dev        null, zero, full, random, urandom (bound from
 *                            the host's), fd, stdin, stdout, stderr (links
 *                            into /proc), shm; no tty, no ptmx
 *                /proc       the slot's own (pid ns below), over the
 *                            host's (in a user namespace a new proc needs
 *                            a visible one)
 *                /tmp, /var/tmp, /dev/shm, the scratch folder
 *                            the private areas: tmpfs mounts of the slot's
 *                            own (size tmp_bytes, 4096 inodes, noatime)
 *                the program a copy (never a bind) in the scratch area,
 *                            at its own path, in a read-only folder
 *                its loader and libraries  PT_INTERP and DT_NEEDED,
 *                            recursively, found as the loader finds them
 *                            (absolute RUNPATH, then its system folders;
 *                            there is no ld.so.cache in the root), copied
 *                            at their host paths when a program first
 *                            needs them (the root is writable only then)
 *              and nothing else: no /usr, /etc, /bin, /opt, /sys, no
 *              compiler, no installed grader, no home folder. Its stdin
 *              may be its case's input file itself (runner.c: read-only,
 *              unwritable by the slot uid; the program learns the file's
 *              name and may seek in it), a file no run of another case
 *              is given. A run can read no file whose page-cache state a
 *              run of another case can set: every other file it sees is
 *              in memory (tmpfs), so the cache is
 *              no channel from a hidden case to a visible one (a hidden
 *              case touching pages of lto1 for a later case to read back
 *              with mincore finds no lto1). Why not link statically as IOI
 *              does: the student kit builds and runs the program as any C
 *              program is, and a static glibc is another program than the
 *              one the student tested; copying the few libraries it links
 *              costs one copy per slot. (No /etc, so no NSS, locales or
 *              dlopen of system libraries: this exercise needs none.) A
 *              program given as a script (staff's: a submission is always built)
 *              needs /bin/sh and more: then (cfg->host_view) the run view
 *              is the build view's masks with the private areas instead,
 *              and the report's missing says so.
 *
 *              build view (the compiler's): every mount of the host
 *              read-only; the top level masked by empty read-only tmpfs
 *              but for the system's folders (/bin, /sbin, /lib*, /usr,
 *              /etc, /dev, /proc); the suite, the submissions, each
 *              --hide folder, an installed warpgrade's libexec and
 *              share and the checkout grade was built from (grade's
 *              hide list, guard.h) covered by an empty
 *              mode-000 tmpfs (source "tmpfs", so /proc/self/mountinfo
 *              names nothing but the mount points); the minimal /dev above (nothing there can
 *              block an #include); /proc empty; per build a fresh /tmp
 *              (also bound at /var/tmp), a tmpfs of build_tmp_bytes and
 *              4096 inodes (the compiler's TMPDIR: a full one is the
 *              build's CE, never a classmate's), the scratch folder an empty read-only tmpfs
 *              in which only the build folder (read-write) and a $CC
 *              copied there are bound. Its stdin is /dev/null.
 *
 *              The keeper lives in the run view; it enters the build view
 *              (setns) only to prepare a build and fork the compiler. Per
 *              case the areas' inode and block counts (statfs) and their
 *              roots' ctimes are checked, with the working folder's
 *              (a file made and removed again counts), and, if the last
 *              program left anything in them, mounted afresh; the working
 *              folder is made anew every time; the program is copied when
 *              it changes. So nothing a case writes reaches a later case,
 *              no other slot's folder or program can be listed or run, and
 *              the disk cannot be filled.
 *              Cost: ~10 us clean, ~250 us after a program wrote a file;
 *              once per slot the root (~1 ms), once per program its copy.
 *              Where the root cannot be made (the kernel refuses
 *              pivot_root) both views are the build view with the private
 *              areas, as the report says. WG_NO_NAMESPACES: none of it.
 *  net ns      Once: a network namespace with no interface up: no TCP, UDP
 *              or abstract-socket traffic leaves the run.
 *  pid ns      Once, and anew after any run with a process limit above
 *              1: a PID namespace whose init only reaps, and which
 *              mounts the slot's own /proc (subset=pid): no other process
 *              of the machine to list or read (another slot's name, grade's
 *              command line). Where the kernel takes it (5.8 and later)
 *              the /proc is mounted hidepid=invisible, so the namespace's
 *              own helpers are invisible too: the spawner's /proc/2/stat
 *              adds up the page faults and CPU times of every program it
 *              reaped, a counter one case could set and a later one read
 *              (without hidepid the report's missing says so). The init
 *              blanks its copy of grade's command line (util.h's
 *              wg_blank_args: /proc/1/cmdline reads empty). A program's
 *              kill(-1, SIGSTOP) reaches only the slot's own programs,
 *              never grade, the keeper or the caller's session (without a
 *              uid switch they share the caller's uid). A run that forks
 *              moves the namespace's pid counter, which a later run would
 *              read in its own pid: so after a run that may have forked
 *              the old init and spawner go (the kernel kills what is left),
 *              and a new namespace, init, /proc and spawner are made, once
 *              the run is answered. Every run is then its namespace's first
 *              (pid 2, or 3 after the spawner). A renewal that fails makes
 *              the next run an internal error, never the student's. Each
 *              is made inside a
 *              namespace of the keeper's own user namespace whose init,
 *              the holder ("grade-holder", invisible to the programs),
 *              keeps it (sandbox_pidns.c): so a keeper in a
 *              user namespace renews it too, which going back to its own
 *              namespace would not allow (setns: EPERM).
 *              Cost: none with one process; ~0.8 ms a run with more.
 *  ipc ns      Once, and anew after any run that left a SysV object
 *              (/proc/sysvipc, read after every run; POSIX queues cannot
 *              be made: RLIMIT_MSGQUEUE is 0). Nothing of the kind
 *              reaches a later case. Cost ~5 us a clean run.
 *  cgroup      Once: a cgroup per slot (cgroup.h: v2, v1 or both), made by
 *              grade itself at its start, in a thread, before the keepers
 *              fork (sandbox_groups.c), which then starts the first
 *              migration's RCU grace period off the set-up's path. Per case
 *              the child joins it before exec; memory.max (the memory
 *              limit: memory in use, tmpfs and shm included; an oom_kill
 *              is a definite MLE; no RLIMIT_AS is set then, spawn.h's
 *              mem_bytes), pids.max (the process limit), the whole tree's CPU
 *              (checked every 20 ms while children may run, and at the
 *              end) and cgroup.kill (or freeze + kill on v1) for the
 *              cleanup. A v1 memory group holds the keeper itself
 *              (oom_score_adj -1000; a child of the keeper moves it
 *              there), so its children are born in it; a
 *              run with a process limit of 1 joins no other group
 *              (cgroup.h's cg_begin). Cost ~60 us.
 *  seccomp     sysfilter.h: no keyring, SysV IPC, socket but AF_UNIX,
 *              namespace, mount or io_uring of the program's own (the
 *              channels from case to case that no namespace resets); a
 *              call of another ABI (i386, x32) kills the process. As root a spawner per slot
 *              (the keeper's child, in every namespace) holds the filter
 *              and starts the programs, which inherit it; elsewhere each
 *              run installs it (~45 us: the kernel compiles it per
 *              process). Via the spawner ~20 us (one more message);
 *              for one process not SIGKILLed the spawner answers grade
 *              itself and the keeper cleans up meanwhile.
 *  cpu         With no more slots than CPUs, a slot's worker thread and
 *              its keeper keep to one CPU: a run hands over grade ->
 *              keeper -> program -> keeper -> grade, and a wake-up across
 *              CPUs cost ~60 us a case on the VM measured. The programs do
 *              not: each gets grade's CPUs back before exec (run_spawn_
 *              extra.affinity), so a program's threads run in parallel
 *              whatever -j, and no verdict depends on -j (docs/suites.md, "Limits").
 *  tmp sweep   Only without a private /tmp (no mount namespace), as root:
 *              after every run the keeper removes what the slot uid owns
 *              in the host's world-writable folders (a folder with all
 *              it holds, whoever put it there: sandbox_sweep.c),
 *              as isolate's cleanup does, through descriptors, never
 *              a name that may have become a symlink (the other slot's
 *              program runs meanwhile). Not root, the programs run as
 *              the caller and nothing can be told apart: not swept, and
 *              the account (sandbox_leaks) says so.
 *              Cost: a readdir of each of those folders per run
 *              (degraded mode only).
 *  cleanup     After every run the keeper kills the cgroup, the process
 *              group and, as root with no cgroup and a process limit
 *              above 1, every live process of the slot uid found in /proc
 *              (sandbox_kill_uid: SIGKILL from root, never by becoming
 *              that uid); it reaps the orphans (it is their subreaper).
 *  rlimits     Always (spawn.h): CPU, stack, file size, core, open
 *              files, processes; the address space only where no memory
 *              cgroup counts memory (then "missing" says so). Without a cgroup, a process
 *              limit of 1 (isolate's default) keeps the run to one process,
 *              so the rlimits bind the whole of it.
 *
 * What a run gets from each layer is recorded in struct sandbox_layers,
 * which grade puts in the report ("sandbox") and prints with --check-env,
 * with sandbox_leaks' account of what may still leak. One promise holds
 * whatever the layers: grade runs a grading's hidden cases only after
 * every visible case has ended (engine.c's run_cases), so no channel left
 * here carries hidden data into a visible result of the same grading.
 *
 * Lifecycle: sandbox_open() forks the keeper and waits until its layers are
 * built; then, for each run, runner.h's run_start() with c.sbx set calls
 * sandbox_spawn() and run_finish() sandbox_kill()/sandbox_wait();
 * sandbox_close() ends the keeper (sandbox_close_begin() first, to end
 * several at once). One thread uses a slot at a time. Fork
 * the keepers from the thread that lives longest (the keeper dies with it:
 * PR_SET_PDEATHSIG) and before loading anything large.
 *
 * Errors: the functions here print nothing and never exit grade; they
 * return -1 with the reason in err (a struct strbuf, appended) or in
 * c->res.error. The keeper and the
 * spawner are forks of grade: they end with _exit, at once when grade
 * closes its socket or dies (that is their lifecycle, not a failure).
 *
 * Where things live (sandbox_int.h holds what they share):
 *   sandbox.c          grade's side: open, spawn, wait, kill, close; the
 *                      account (visible paths, the layers' table)
 *   sandbox_msg.c      the messages and their descriptors; RUN packing
 *   sandbox_setup.c    the keeper's layers, once: user, mount, network
 *                      and IPC namespaces, masks, private tmpfs areas;
 *                      the IPC namespace's renewal
 *   sandbox_root.c     the two views: the minimal /dev, the run view's
 *                      root and the libraries copied in, a build's mounts
 *   sandbox_pidns.c    the PID namespaces: the holder, the slot's with its
 *                      init and /proc, its renewal
 *   sandbox_prepare.c  per run: clean areas, the program copied in, a
 *                      fresh working folder
 *   sandbox_keeper.c   the keeper's life and its runs: limits, start,
 *                      watch, clean-up, report
 *   sandbox_spawner.c  the spawner, which holds the seccomp filter
 *   sandbox_uid.c      sandbox_kill_uid
 *   sandbox_sweep.c    the tmp sweep without a private /tmp
 *   sandbox_groups.c   grade's side: the slots' cgroups made ahead, in a
 *                      thread, and the first migration's wait begun
 *   cgroup.c, sysfilter.c  the cgroup and seccomp layers
 */

#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

struct run_child;
struct sandbox_slot;
struct strbuf;

struct sandbox_config {
	const char *const *hide; /* NULL-terminated absolute real paths */
	const char *scratch;     /* the scratch tree (scratch.h's BASE) */
	uint64_t tmp_bytes;      /* size of each private tmpfs */
	uint64_t build_tmp_bytes; /* size of a build's scratch tmpfs (its
	                            /tmp, the compiler's TMPDIR); 0: 256 MiB */
	int host_view;           /* runs see the read-only host (a program
	                            is a script, which needs /bin/sh and
	                            more): no minimal root */
	uid_t uid;               /* the slot's uid/gid; (uid_t)-1: none */
	gid_t gid;
	int slot;
	int no_namespaces;       /* build no namespace (tests, --check-env) */
	int pin, cpu;            /* pin: the keeper keeps to CPU cpu (its
	                            programs get its CPUs from before); 0: any */
	const struct cgroup *groups; /* the slot's cgroups, made by grade
	                            (sandbox_groups_slot), which the keeper
	                            takes over; NULL: it makes its own */
	int output_fd;           /* above 2: the keeper's stdout and stderr
	                            (grade --serve: not the log of the
	                            submission it started under, which the
	                            keeper would keep open for the next
	                            ones); else grade's own */
};

struct sandbox_layers {
	int uid_switch;          /* programs run under the slot's uid */
	int user_ns;             /* the namespaces live in a user namespace */
	int mount_ns;            /* masks and a read-only host (the build
	                            view; the runs' too without minimal_root) */
	int private_tmp;         /* fresh /tmp, /var/tmp, /dev/shm, scratch */
	int minimal_root;        /* runs see the minimal root alone */
	int build_view;          /* the compiler's own view: no grader, a
	                            private scratch tmpfs, the minimal /dev */
	int ipc_ns;              /* a fresh IPC namespace per case */
	int net_ns;              /* no network */
	int pid_ns;              /* programs signal only each other */
	int private_proc;        /* /proc shows the slot's processes alone */
	int seccomp;             /* sysfilter.h's filter is installed */
	int cgroup_caps;         /* cgroup.h's CG_* */
	const char *cgroup;      /* "v1", "v2", "hybrid" or NULL */
	int children_cpu;        /* every process's CPU counts, live */
	char missing[600];       /* why a layer is absent ("; " between) */
	int tmp_sweep;           /* no private /tmp, but after every run what
	                            the slot uid left in the world-writable
	                            folders is removed (sandbox_sweep.c) */
	char swept[256];         /* those folders, space-separated */
};

/* The slots' cgroups, made ahead by grade (sandbox_groups.c): begun at
 * grade's start for n slots, in a thread (nothing without root or with
 * WG_NO_CGROUP), which then starts the wait a first cgroup migration
 * costs, so that it passes while the rest is set up. sandbox_groups_slot:
 * slot i's groups for sandbox_config.groups, once made (it waits for
 * them); NULL where none were begun. sandbox_groups_end, once the keepers
 * are forked (the first started of them): grade's copies are closed, and
 * the groups of the slots whose keeper did not start are removed. */
struct cgroup;
void sandbox_groups_begin(int n);
const struct cgroup *sandbox_groups_slot(int i);
void sandbox_groups_end(int started);

/* Forks slot cfg->slot's keeper and builds its layers. 0, or -1 with the
 * reason appended to err (the keeper could not be started at all: a
 * missing layer is not an error, it is recorded in *layers). */
int sandbox_open(struct sandbox_slot **out, const struct sandbox_config *cfg,
		 struct sandbox_layers *layers, struct strbuf *err);
/* sandbox_open in two halves, so that the keepers of several slots build
 * their layers at the same time: sandbox_start forks the keeper (0, or -1
 * with err: nothing to close); sandbox_ready waits until its layers are
 * built (0, or -1 with err, the slot closed and *s NULL). Only the
 * keeper, a fork, reads cfg. */
int sandbox_start(struct sandbox_slot **out, const struct sandbox_config *cfg,
		  struct strbuf *err);
int sandbox_ready(struct sandbox_slot **s, struct sandbox_layers *layers,
		  struct strbuf *err);
/* Ends the keeper (its namespaces and cgroups go with it) and frees s.
 * sandbox_close_begin only tells it to end (grade's end of the socket is
 * closed) and returns at once: the keepers of several slots then end at
 * the same time, while grade does its own tearing down; sandbox_close
 * still waits for each. */
void sandbox_close_begin(struct sandbox_slot *s);
void sandbox_close(struct sandbox_slot *s);

/* Before a new grading through the same slot (grade --serve's next
 * submission): the private folders, the working folder, the PID and IPC
 * namespaces are made anew, whether or not the last grading's runs
 * changed them (the per-case renewal makes them anew only then: what the
 * next program finds must not tell what the last one did), and the next
 * program is a new copy. 0, or -1 with the reason appended to err. */
int sandbox_renew(struct sandbox_slot *s, struct strbuf *err);

/* For runner.c. sandbox_spawn: hands c (its argv, env, dir, limits, uid)
 * and the child ends of its pipes to the keeper, which prepares the
 * private folders and starts it; 0 once sent (grade pumps the pipes at
 * once), or -1 with c->res.error. sandbox_fd: readable once the run has
 * ended. sandbox_kill: asks the keeper to kill the run now. sandbox_wait:
 * the run's end (the keeper reaped it and cleaned up): c->pid, a failed
 * exec, wait status, rusage, and c->res's tree_cpu_ms, tree_cpu_killed,
 * oom_killed; -1 with c->res.error when the keeper failed (also when it
 * could not start the program: then nothing ran). */
int sandbox_spawn(struct sandbox_slot *s, struct run_child *c,
		  const int child_ends[3]);
int sandbox_fd(const struct sandbox_slot *s);
int sandbox_kill(struct sandbox_slot *s);
int sandbox_wait(struct sandbox_slot *s, struct run_child *c, int *status,
		 struct rusage *ru);
/* 1 when the keeper makes each run's working folder itself (private_tmp):
 * the caller must not prepare it on the host. */
int sandbox_private_dirs(const struct sandbox_slot *s);
/* What the slot got (as sandbox_open reported it). */
const struct sandbox_layers *sandbox_layers_of(const struct sandbox_slot *s);

/* Root: SIGKILL every process whose real, effective or saved uid is uid,
 * found in /proc (never by becoming that uid, which such a process could
 * stop). Returns how many were left after the last round (0: clean). */
int sandbox_kill_uid(uid_t uid);

/* WG_NO_NAMESPACES=1 in the environment: build no namespace, as on a
 * machine that allows none (for tests of the degraded modes, and for
 * staff whose kernel misbehaves). grade says so in every report. */
int sandbox_namespaces_disabled(void);

/* 1 when path (absolute, links resolved) is under a top-level folder the
 * build view keeps (/usr, /bin, /lib*, /etc...): a compiler elsewhere must
 * be copied into the scratch tree to be run. (A program always runs from
 * the scratch tree: the run view holds nothing else.) */
int sandbox_path_visible(const char *path);

/* The layers as a table appended to out ("layer  yes|no|n/a  what that
 * means", a line each, in words true of that state; then the folders
 * swept and a "missing: why" line for each layer the kernel or grade's
 * privileges refused), for the caller to print. 0, or -1 (allocation:
 * strbuf.h). */
int sandbox_format_layers(struct strbuf *out, const struct sandbox_layers *l);

/* The ways hidden data of a grade may still reach a student with these
 * layers, beyond the grade itself (whose hidden cases run last: grade.c),
 * a line each appended to out. readable: a read probe's findings
 * (readprobe.h: "PATH\tFILE" lines; "" when it read nothing), or NULL when
 * none ran: then a missing mount namespace counts as a leak. Returns how
 * many (0: none known), or -1 (allocation). */
int sandbox_leaks(const struct sandbox_layers *l, const char *readable,
		  struct strbuf *out);

#endif
