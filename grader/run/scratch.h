#ifndef WG_SCRATCH_H
#define WG_SCRATCH_H

/*
 * scratch: the grader's private temporary tree and the identities untrusted
 * code runs under.
 *
 *   BASE/              mkdtemp under $TMPDIR (or /tmp), mode 0711: others
 *                      may traverse it, never list it
 *   BASE/bin/          mode 0711 (no listing): grader-owned copies of
 *                      the programs graded (SCRATCH_PROGRAM_MODE: the
 *                      grader's alone), and the compiler's copy (0755)
 *                      where a build needs it
 *   BASE/build-N/      build directory of submission N (owned by the slot
 *                      uid that compiles it)
 *   BASE/slot-S/       the empty working directory of parallel slot S,
 *                      owned by slot S's uid, emptied before every case;
 *                      without private areas, it holds the run's copy of
 *                      its program (0755, the grader's) while the case
 *                      runs and is emptied when it ends, so that a slot
 *                      uid reaches one program at a time, its own
 *   BASE/.owner        the grader's pid, flock'ed for the grader's life
 *
 * A grader killed before it could clean up (SIGKILL) leaves BASE behind.
 * scratch_init removes every such tree of the same uid in the same
 * $TMPDIR: one whose .owner lock nobody holds. As root it first kills
 * whatever still runs under that tree's slot uids, each while holding the
 * uid's lock (below), and leaves the tree for later when a live grader
 * holds one of them.
 *
 * When the grader runs as root every slot S gets its own uid and gid, so
 * that RLIMIT_NPROC applies, children of different slots cannot touch each
 * other, and the runner can kill every process of that uid. The runner
 * kills every process of a slot uid after each run, so two grade processes
 * on one machine (grade --batch runs several) must never share one: each
 * slot claims the first free uid among run_slot_uid(0), run_slot_uid(1)...
 * (base: --uid-base or WG_UID_BASE) by holding an flock on
 * LOCKDIR/UID.lock for the life of the process. Otherwise (not root)
 * children keep the grader's identity (uid -1).
 *
 * The uid locks. LOCKDIR (scratch_lock_dir) is the first of these that is
 * a folder of the caller's uid, mode 0700, never a symbolic link (made so
 * when missing): /run/warpgrade (root only; every root grade of the
 * machine meets there), $XDG_RUNTIME_DIR/warpgrade, $HOME/.cache/warpgrade
 * (a root without a writable /run: a container's, a user namespace's). No
 * fixed name in /tmp, where anyone could make it first. A lock file holds
 * its holder's pid, so that a parent that had to kill a grade (grade
 * --batch) can find the uids it held and clean them; whether a grade
 * lives is told by its flock alone, never by that pid (a grade in another
 * PID namespace has another number there, and pids are reused). A grade
 * that ends removes its lock files while it still holds them; a claimer
 * counts a lock only while the path still names the file it locked, so
 * that removal races with no one. A killed grade leaves its files: the
 * next claimer of the uid, or the sweep of its scratch tree, takes them
 * over.
 *
 * Errors: scratch_init and scratch_fresh_dir: -1 and a message in err (a
 * struct strbuf, appended); the file helpers: -1 (or NULL) and errno; the
 * rest cannot fail.
 */

#include <stddef.h>
#include <sys/types.h>

struct strbuf;

/* The uid lock folder as root (see above). */
#define SCRATCH_LOCK_DIR_ROOT "/run/warpgrade"
/* How many uids from the base are tried. */
#define SCRATCH_UID_RANGE 4096

struct scratch {
	char *base;          /* malloc'd path of BASE */
	int as_root;
	int nslots;
	uid_t *uids;         /* per slot, when as_root (malloc'd) */
	int *lock_fds;       /* per slot, when as_root (malloc'd) */
	int owner_fd;        /* BASE/.owner, flock'ed; -1 when none */
};

/* Creates BASE and, as root, claims a uid for each of nslots slots.
 * Returns 0, or -1 with the reason appended to err. */
int scratch_init(struct scratch *s, int nslots, struct strbuf *err);

/* Removes BASE and everything in it, releases the uids, frees s. */
void scratch_cleanup(struct scratch *s);

/* Removes BASE and everything in it now, the uids still held (while the
 * keepers end: scratch_cleanup lets them go after, and tries BASE again).
 * 0, or -1 with errno. */
int scratch_remove_base(const struct scratch *s);

/* The uid and gid slot runs under: (uid_t)-1 / (gid_t)-1 unless root. */
void scratch_slot_ids(const struct scratch *s, int slot, uid_t *uid, gid_t *gid);

/* Makes BASE/NAME an empty directory owned by slot's uid (mode 0700), and
 * puts its path in dir (emptied first). Returns 0, or -1 with the reason
 * appended to err. */
int scratch_fresh_dir(const struct scratch *s, const char *name, int slot,
		      struct strbuf *dir, struct strbuf *err);

/* A file copied for a student: never through a symbolic link, at most
 * this big. (The build vets a submission's sources itself, as a CE with the
 * reason: build.h's "Submission limits".) */
#define SCRATCH_COPY_SOURCE 1
#define SCRATCH_MAX_SOURCE ((off_t)4 << 20)

/* The mode of the programs' copies in BASE/bin: the grader's alone. A
 * slot uid never runs them from there: the keeper copies one into its
 * private areas, or, without them, run_program_copy puts one in the run's
 * working folder. A program can then run no other submission's program
 * (without namespaces, BASE/bin of every grade in $TMPDIR was 0755: a
 * red-team submission passed by running a classmate's). */
#define SCRATCH_PROGRAM_MODE 0700

/* Copies the regular file src to dst with the given mode (dst replaced).
 * With SCRATCH_COPY_SOURCE in flags, src must not be a symbolic link
 * (ELOOP) nor larger than SCRATCH_MAX_SOURCE (EFBIG). Returns 0, or -1
 * with errno set (EINVAL: src is not a regular file). */
int scratch_copy_file(const char *src, const char *dst, mode_t mode, int flags);
/* Copies what is left of the open file in to dst: dst is replaced (never
 * through a link), created 0600 and given mode once whole, removed on
 * failure. in stays open. Returns 0, or -1 with errno set. */
int scratch_copy_fd(int in, const char *dst, mode_t mode);

/* Removes path recursively, making unreadable directories readable first
 * (a child may leave a mode-000 tree behind), with two descriptors open at
 * most whatever the depth. Returns 0, or -1 with errno. */
int scratch_remove_tree(const char *path);

/* As root: kills every process of the uids whose lock files name the
 * grade process `dead` (a grade that was killed before it cleaned up) and
 * that no live grade holds. */
void scratch_kill_uids_of(pid_t dead);

/* The uid lock folder (above) where one exists and is safe, else NULL
 * (nothing was ever claimed here). Static storage. */
const char *scratch_lock_dir(void);
/* 1 when a live grade holds uid's lock (its flock, whatever its pid). */
int scratch_uid_held(uid_t uid);

/* Reads a whole file into a malloc'd, NUL-terminated buffer (the caller
 * frees it); *len gets its size. NULL with errno set on failure. */
char *scratch_read_file(const char *path, size_t *len);

#endif
