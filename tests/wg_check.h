#ifndef WG_CHECK_H
#define WG_CHECK_H
/* Include from every tests/check_<module>.c: Check, plus the prototypes of
 * every make_<module>_suite() (generated from the file names), which keeps
 * -Wmissing-prototypes quiet without a hand-kept list. */
#include <check.h>

#define WG_SUITE(name) Suite *make_##name##_suite(void);
#include "check_suites.h"
#undef WG_SUITE

#endif
