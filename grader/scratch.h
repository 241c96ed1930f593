#ifndef WG_SCRATCH_H
#define WG_SCRATCH_H

/*
 * scratch: the grader's private temporary tree and the identities untrusted
 * code runs under.
 *
 *   BASE/              mkdtemp under $TMPDIR (or /tmp), mode 0711: others
 *                      may traverse it, never list it
 *   BASE/bin/          grader-owned copies of the programs graded (0755),
 *                      so a slot uid can run them but never change them
 *   BASE/build-N/      build directory of submission N (owned by the slot
 *                      uid that compiles it)
 *   BASE/slot-S/       the empty working directory of parallel slot S,
 *                      owned by slot S's uid, emptied before every case
 *
 * When the grader runs as root every slot S gets its own uid and gid,
 * run_slot_uid(S) (base configurable with --uid-base or WG_UID_BASE), so
 * that RLIMIT_NPROC applies, children of different slots cannot touch each
 * other, and the runner can kill every process of that uid. Otherwise
 * children keep the grader's identity (uid -1).
 */

#include <stddef.h>
#include <sys/types.h>

struct scratch {
	char *base;          /* malloc'd path of BASE */
	int as_root;
};

/* Creates BASE. Returns 0, or -1 with err set. */
int scratch_init(struct scratch *s, char *err, size_t errlen);

/* Removes BASE and everything in it, and frees s->base. */
void scratch_cleanup(struct scratch *s);

/* The uid and gid slot runs under: (uid_t)-1 / (gid_t)-1 unless root. */
void scratch_slot_ids(const struct scratch *s, int slot, uid_t *uid, gid_t *gid);

/* Makes BASE/NAME an empty directory owned by slot's uid (mode 0700), and
 * writes its path to path. Returns 0, or -1 with err set. */
int scratch_fresh_dir(const struct scratch *s, const char *name, int slot,
		      char *path, size_t pathlen, char *err, size_t errlen);

/* Copies the regular file src to dst with the given mode (dst replaced).
 * Returns 0, or -1 with errno set. */
int scratch_copy_file(const char *src, const char *dst, mode_t mode);

/* Removes path recursively, making unreadable directories readable first
 * (a child may leave a mode-000 tree behind). Returns 0, or -1 with errno. */
int scratch_remove_tree(const char *path);

/* Reads a whole file into a malloc'd, NUL-terminated buffer (the caller
 * frees it); *len gets its size. NULL with errno set on failure. */
char *scratch_read_file(const char *path, size_t *len);

#endif
