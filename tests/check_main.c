/*
 * The one Check runner: every tests/check_<module>.c exports
 * make_<module>_suite(), and the build lists them in check_suites.h.
 * CK_FORK=no in the environment runs tests in-process (for gdb).
 */
#include <check.h>
#include <stdlib.h>

#define WG_SUITE(name) Suite *make_##name##_suite(void);
#include "check_suites.h"
#undef WG_SUITE

int main(void)
{
	SRunner *sr = srunner_create(NULL);
#define WG_SUITE(name) srunner_add_suite(sr, make_##name##_suite());
#include "check_suites.h"
#undef WG_SUITE
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
