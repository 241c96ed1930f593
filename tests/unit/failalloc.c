/*
 * failalloc: counting JSON allocators that fail on demand (failalloc.h).
 * The counters are plain: a test that installs them makes JSON values in
 * one thread only.
 */
#include "tests/unit/failalloc.h"

#include <jansson.h>
#include <stdlib.h>

static size_t countdown;      /* allocations left before the failure; 0: off */
static int failed;
static long live;

static void *failing_malloc(size_t n)
{
	void *p;

	if (countdown && --countdown == 0) {
		failed = 1;
		return NULL;
	}
	if ((p = malloc(n)))
		live++;
	return p;
}

static void counting_free(void *p)
{
	if (p)
		live--;
	free(p);
}

void failalloc_install(void)
{
	countdown = 0;
	failed = 0;
	live = 0;
	json_set_alloc_funcs(failing_malloc, counting_free);
}

void failalloc_uninstall(void)
{
	json_set_alloc_funcs(malloc, free);
}

void failalloc_fail_at(size_t n)
{
	countdown = n;
	if (n)
		failed = 0;
}

int failalloc_failed(void)
{
	return failed;
}

long failalloc_live(void)
{
	return live;
}
