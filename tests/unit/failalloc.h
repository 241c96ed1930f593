#ifndef WG_FAILALLOC_H
#define WG_FAILALLOC_H
/*
 * failalloc: jansson's allocation-failure tests, for our code. Install
 * counting allocators with json_set_alloc_funcs() (before the test makes
 * any JSON value, and only in a test of its own: Check runs each test in a
 * forked process), then run the operation once per N = 1, 2, ... with
 * failalloc_fail_at(N): the Nth JSON allocation from then on fails. Once a
 * run made fewer than N allocations (failalloc_failed() is 0), every
 * allocation has been made to fail once.
 *
 *     failalloc_install();
 *     for (n = 1; ; n++) {
 *             failalloc_fail_at(n);
 *             ... the operation: a clean failure, or the full result ...
 *             failalloc_fail_at(0);
 *             ... release; ck_assert_int_eq(failalloc_live(), 0) ...
 *             if (!failalloc_failed()) break;
 *     }
 *     failalloc_uninstall();
 */
#include <stddef.h>

void failalloc_install(void);
void failalloc_uninstall(void);
/* The nth allocation from now fails (0: none does). */
void failalloc_fail_at(size_t n);
/* Whether the armed failure happened. */
int failalloc_failed(void);
/* JSON blocks allocated and not yet freed since failalloc_install(). */
long failalloc_live(void);

#endif
