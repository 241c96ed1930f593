/* shard: see shard.h. */
#include "grader/cli/shard.h"

#include <stdio.h>
#include <string.h>

#include "grader/lib/util.h"

uint64_t shard_hash(const char *name)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		h ^= *p;
		h *= 0x100000001b3ULL;
	}
	return h;
}

int shard_parse(const char *arg, struct shard *out, struct strbuf *err)
{
	const char *slash = strchr(arg, '/');
	char k[32];
	struct strbuf why = STRBUF_INIT;
	int rc = -1;

	if (!slash || (size_t)(slash - arg) >= sizeof(k)) {
		strbuf_addf(err, "--shard: '%s' is not K/N (shard K of N, e.g. 2/3)", arg);
		return -1;
	}
	memcpy(k, arg, (size_t)(slash - arg));
	k[slash - arg] = '\0';
	if (wg_parse_long("--shard", slash + 1, 1, SHARD_MAX, &out->count, &why) == 0 &&
	    wg_parse_long("--shard", k, 1, out->count, &out->index, &why) == 0)
		rc = 0;
	else
		strbuf_addf(err, "--shard: '%s' is not K/N with 1 <= K <= N <= %d",
			    arg, SHARD_MAX);
	strbuf_release(&why);
	return rc;
}

int shard_holds(const struct shard *s, const char *name)
{
	return (long)(shard_hash(name) % (uint64_t)s->count) == s->index - 1;
}
