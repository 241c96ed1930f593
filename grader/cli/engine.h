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
struct strbuf;
struct suite;

/* Before anything is set up: each of paths[0..n) is a submission (a
 * folder with .c files, or a program: is_dir[i] says which) and the
 * report paths of o can be written. 0, or 2 (reported). */
int engine_check_paths(char **paths, size_t n, int *is_dir,
		       const struct options *o);
/* paths[0..n) are the submissions (is_dir[i]: a folder to build, else a
 * program), already checked by the caller. engine_open, engine_run and
 * engine_close in one. */
int engine_grade(const struct options *o, const struct suite *s, char **paths,
		 size_t n, const int *is_dir);

/*
 * The same in three steps, for a grader that grades one submission after
 * another through the same slots (grade --serve, serve.h):
 *   engine_open   the scratch tree, the hide list (the suite, every
 *                 --hide, and paths[0..n): paths NULL names none, and
 *                 then every submission must lie in a hidden folder,
 *                 engine_hidden), the slots' keepers, the sandbox's
 *                 account. 0, or an exit status (reported); *out is set
 *                 either way, for engine_close.
 *   engine_run    builds and grades paths[0..n) (already checked), every
 *                 visible case before any hidden one, prints the report,
 *                 writes o's report files, and lets go of the results:
 *                 the exit status engine_grade would give. Everything
 *                 the sandbox renews per case or program is renewed
 *                 between two runs (a new program is a new copy).
 *   engine_close  ends the keepers, removes the scratch tree, lets go of
 *                 the uids.
 * o may differ between runs in its report files only.
 */
struct grading;
int engine_open(struct grading **out, const struct options *o,
		const struct suite *s, char **paths, size_t n, const int *is_dir);
int engine_run(struct grading *g, const struct options *o, char **paths,
	       size_t n, const int *is_dir);
void engine_close(struct grading *g);
/* The keepers engine_open starts write (if ever: a library's dying
 * words) to fd, not to grade's stdout and stderr of the moment: a grader
 * that grades submission after submission points those at the current
 * one's log. -1: grade's own (the default). */
void engine_keepers_output(int fd);
/* 1 when path lies in a folder of g's hide list (so that no program of
 * another submission can read it), and is not a program that needs the
 * host's view of the system (a script) where the slots have the minimal
 * root; else 0 with the reason in why. */
int engine_servable(const struct grading *g, const char *path, int is_dir,
		    struct strbuf *why);
/* The signal that stopped the last engine_grade, or 0. */
int engine_stop_signal(void);

#endif
