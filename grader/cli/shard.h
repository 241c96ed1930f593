#ifndef WG_SHARD_H
#define WG_SHARD_H
/*
 * shard: which students a `grade --batch --shard K/N` grades.
 *
 * A student belongs to shard 1 + (h mod N), where h is the 64-bit FNV-1a
 * hash of the student's folder name. So the shards are disjoint and their
 * union is the class; a student's shard depends on its own name only, so
 * it stays put when classmates are added or removed (the split is stable),
 * and every machine of a CI matrix or a Slurm array computes the same one.
 * The shares are even in expectation, not exactly.
 */
#include <stdint.h>

#include "grader/lib/strbuf.h"

struct shard {
	long index;     /* K: 1..count */
	long count;     /* N: 1 (no sharding) .. SHARD_MAX */
};

#define SHARD_NONE { 1, 1 }
#define SHARD_MAX 100000

/* "K/N" with 1 <= K <= N <= SHARD_MAX: 0, or -1 with the reason in err. */
int shard_parse(const char *arg, struct shard *out, struct strbuf *err);
/* Whether the student named name is in the shard. */
int shard_holds(const struct shard *s, const char *name);
uint64_t shard_hash(const char *name);

#endif
