#ifndef WG_ENGINE_H
#define WG_ENGINE_H
/*
 * engine: grade one or more submissions against a loaded suite: the
 * slots (sandbox keepers, scratch folders), the build jobs, the case jobs
 * (every visible case of every submission before any hidden one), the
 * scores and every report the options ask for. grade's plain mode
 * (grade.c) is this and its command line; batch and the suite report
 * start child grades that run it.
 *
 * Signals: SIGINT, SIGTERM and SIGHUP stop it between jobs (no new job
 * starts, the runs in flight end by their limits, the scratch tree is
 * removed); engine_stop_signal then names the signal, which the caller
 * raises again with its default action once everything is released.
 *
 * Errors: engine_grade returns an exit status (usage.h): 0 every case
 * AC, 1 graded, not all AC, 2 a usage error found late (a --hide path),
 * 3 an internal error (reported on stderr).
 */
#include <stddef.h>

struct options;
struct suite;

/* Before anything is set up: each of paths[0..n) is a submission (a
 * folder with .c files, or a program: is_dir[i] says which) and the
 * report paths of o can be written. 0, or 2 (reported). */
int engine_check_paths(char **paths, size_t n, int *is_dir,
		       const struct options *o);
/* paths[0..n) are the submissions (is_dir[i]: a folder to build, else a
 * program), already checked by the caller. */
int engine_grade(const struct options *o, const struct suite *s, char **paths,
		 size_t n, const int *is_dir);
/* The signal that stopped the last engine_grade, or 0. */
int engine_stop_signal(void);

#endif
