#ifndef WG_OUTFILE_H
#define WG_OUTFILE_H

/*
 * outfile: the files grade writes (reports, logs, gradebook, summaries),
 * private and written so that no sandboxed program can redirect them.
 *
 * Every file is created as a new temporary file in its folder
 * (O_CREAT|O_EXCL|O_NOFOLLOW, mode 0600, a random name ".wg-XXXX.tmp"),
 * filled, fsync'ed and renamed over the final name: a symbolic link planted
 * at the final name is replaced, never followed, and a reader sees the old
 * file or the whole new one.
 *
 * The folder rule (as root, where programs run under sandbox uids): a
 * report's folder, and every folder on the way to it (the path as given and
 * the path with its links resolved), must not be writable by a sandbox uid:
 * not writable by "other", nor owned (user or group) by a uid in the
 * sandbox range with write permission. A folder that is writable but
 * sticky (mode +t, as /tmp) is accepted, because there only an entry's
 * owner can rename or remove it: each entry on the way must then belong to
 * root or to the grader. Without root the programs run as the grader's
 * user and can write what it can, so there is nothing to check.
 *
 * Errors (usage.h): -1 with the reason appended to the caller's err, a
 * whole message; outfile_set_sandbox_ids cannot fail.
 */

#include <stdio.h>
#include <sys/types.h>

struct strbuf;

/* The uids and gids [lo, hi) the sandboxed programs run under (root);
 * outside it only "other" write permission counts. */
void outfile_set_sandbox_ids(uid_t lo, uid_t hi);

/* Checks the folder rule for the file path (its folder must exist).
 * Returns 0, or -1 with err set ("report folder '...' ..."). */
int outfile_check(const char *path, struct strbuf *err);

/* The same for the folder dir itself. */
int outfile_check_dir(const char *dir, struct strbuf *err);

/* Writes path through a temporary file that fill writes to (fill returns
 * 0, or -1 to give up; write errors are also caught through ferror), then
 * fsync and rename. Checks the folder rule first. Returns 0, or -1 with
 * err set and no temporary file left. */
int outfile_write(const char *path, int (*fill)(FILE *, const void *),
		  const void *arg, struct strbuf *err);

/* Creates path as a new, empty 0600 file the same way (a temporary file
 * renamed at once) and returns its descriptor (close-on-exec, owned by the
 * caller), for a file written as it goes (a log). -1 with err set. */
int outfile_open_new(const char *path, struct strbuf *err);

/* Makes dir a folder only the grader can use: created 0700 when missing;
 * when it exists it must be a folder (not a link) of the grader's uid, and
 * is set to 0700. Returns 0, or -1 with err set. */
int outfile_private_dir(const char *dir, struct strbuf *err);

#endif
