#ifndef WG_READPROBE_H
#define WG_READPROBE_H

/*
 * readprobe: what a slot's programs can actually read, found by trying
 * rather than assumed from the layers. grade --check-env and grade (where
 * there is no mount namespace and the suite has hidden cases) run a probe
 * as a program of the slot, exactly as a student's program runs: same
 * keeper, uid, namespaces, seccomp filter and limits. The probe is grade
 * itself (a copy in the scratch tree, as every program is), started as
 * "grade --probe-read", which reads the paths to try on stdin, one a line.
 * For each it walks what it can (folders listed, files opened and one
 * byte read; at most READPROBE_TRIES entries a path, no symbolic link
 * followed) and prints "PATH<TAB>FILE" for the first FILE below PATH it
 * could read; nothing for a path it could read nothing of.
 *
 * Lifecycle: readprobe_run once the slot is open; the caller owns out.
 *
 * Errors: readprobe_run returns -1 with the reason in err (the probe could
 * not be copied or started: the caller must then assume the worst);
 * readprobe_main is the probe's own body and returns its exit status.
 */

#include <sys/types.h>

struct sandbox_slot;
struct strbuf;

#define READPROBE_TRIES 256

/* Runs the probe in slot (uid/gid its ids, dir its working folder, scratch
 * the scratch tree whose bin/ receives the copy) on the NULL-terminated
 * paths; appends "PATH\tFILE\n" to out for each path of which something
 * was readable. 0, or -1 with err. */
int readprobe_run(struct sandbox_slot *slot, const char *scratch, const char *dir,
		  uid_t uid, gid_t gid, const char *const *paths,
		  struct strbuf *out, struct strbuf *err);

/* The probe: stdin's paths, stdout's findings. Returns 0. */
int readprobe_main(void);

#endif
