#ifndef WG_GUARD_H
#define WG_GUARD_H
/*
 * guard: what grade sets up so that the programs it runs cannot reach the
 * grader's secrets (the expected outputs, other submissions).
 *
 * The expected outputs are fed from memory, but a program that knows the
 * layout could open them itself. The keepers mask the paths of the hide
 * list in a private mount namespace (sandbox.h): the suite, every
 * submission (the programs run from copies in the scratch tree; a
 * directory submission's sources are copied before the build), every
 * --hide, an installed warpgrade's libexec and share folders (found
 * from grade's own path: PREFIX/bin/grade), and the checkout grade was
 * built from (its reference, hidden-tests and submissions folders and its
 * build tree, found from the paths make compiled in and from a build
 * tree's bin/reference beside grade), which the compiler would otherwise
 * see where it lies in a system folder (/usr/local/src). The programs see none of the
 * host anyway (the minimal root); the list is the compiler's masks. Not root, they do so in a user namespace where the kernel allows
 * one (grade warns when it does not).
 */
#include <stddef.h>

#include "grader/report/report.h"

/* The hide list: a NULL-terminated array of real paths, each masked once
 * (none inside another, never "/" nor a folder of the scratch tree), or
 * NULL after reporting a path that cannot be hidden (a user's error).
 * Freed by the caller with guard_free_list. */
char **guard_hide_list(const char *suite_dir, const struct report_sub *subs,
		       size_t nsubs, const char *const *extra, size_t nextra,
		       const char *scratch);
void guard_free_list(char **list);

/* As root, refuses (-1, reported) a machine with fs.suid_dumpable 1,
 * where a sandboxed program could trace the grader; else 0. */
int guard_check_suid_dumpable(void);

#endif
