#ifndef WG_SIM_SPOOL_H
#define WG_SIM_SPOOL_H
/*
 * sim_spool: an append-only scratch file for what a class's comparison
 * does not need in memory (sim_index.h: each submission's sources, tokens
 * and fingerprints by position, read back only for the few pairs a record
 * details). The file is made in a folder (not given or not there:
 * $TMPDIR, else /tmp) as .sim-spool-XXXXXX, mode 0600, and unlinked at
 * once: nothing is left behind, whatever way the process ends.
 *
 * Lifecycle: struct sim_spool starts zeroed (SIM_SPOOL_INIT); the first
 * sim_spool_put makes the file; sim_spool_close closes it.
 * Errors: -1 with the reason in err (the file cannot be made, written or
 * read back whole).
 */
#include <stddef.h>
#include <stdint.h>

struct strbuf;

struct sim_spool {
	const char *dir;     /* where the file is made (NULL: $TMPDIR or /tmp) */
	int fd;
	int open;
	uint64_t len;        /* bytes written */
};
#define SIM_SPOOL_INIT { NULL, -1, 0, 0 }

/* Appends len bytes of data; *off is where they start. */
int sim_spool_put(struct sim_spool *sp, const void *data, size_t len,
		  uint64_t *off, struct strbuf *err);
/* The len bytes at off into buf. */
int sim_spool_get(const struct sim_spool *sp, uint64_t off, void *buf,
		  size_t len, struct strbuf *err);
void sim_spool_close(struct sim_spool *sp);

#endif
