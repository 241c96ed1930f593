#ifndef WG_CHECK_H
#define WG_CHECK_H
/* Include from every tests/unit/check_<module>.c: Check, plus the prototypes of
 * every make_<module>_suite() (generated from the file names), which keeps
 * -Wmissing-prototypes quiet without a hand-kept list. */
#include <check.h>
#include <stddef.h>

#define WG_SUITE(name) Suite *make_##name##_suite(void);
#include "check_suites.h"
#undef WG_SUITE

/* The run folder (check_main.c): where every test's files go, removed
 * with everything in it after the last test, whatever the tests' fate.
 * 0711: test uids reach what a test opens to them inside it. */
const char *check_dir(void);

/* "<run folder>/name" into buf (size bytes), returned; a name that does
 * not fit fails the test. name may end in XXXXXX for mkstemp/mkdtemp.
 * Never name a path under /tmp in a test: make check-unit refuses it. */
char *check_scratch(char *buf, size_t size, const char *name);

#endif
