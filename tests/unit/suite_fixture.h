#ifndef WG_SUITE_FIXTURE_H
#define WG_SUITE_FIXTURE_H
/* suite_load() for tests that compare its message as a C string: the
 * reason (or "") is copied into err[size], cut if it must be. */
#include "grader/judge/suite.h"

#include <stdio.h>

static inline int load(struct suite *s, const char *dir, char *err, size_t size)
{
	struct strbuf sb = STRBUF_INIT;
	int rc = suite_load(s, dir, &sb);

	snprintf(err, size, "%s", strbuf_str(&sb));
	strbuf_release(&sb);
	return rc;
}

#endif
