#ifndef WG_CHECKENV_H
#define WG_CHECKENV_H

/*
 * checkenv: grade --check-env [--uid-base UID] [--hide DIR]... [SUITE_DIR
 * [SUBMISSION...]]. Opens one slot's sandbox exactly as grade would (the
 * suite, the submissions and each --hide masked) and prints, on stdout:
 * the kernel's knobs and grade's privileges; the free slot uids (root);
 * the layers, each with what it means in its state (sandbox.h's
 * sandbox_format_layers) and a "missing:" line for each one refused; what
 * a program of the slot could actually read (readprobe.h: every hidden
 * case, the suite, the submissions, each --hide and the reference); then
 * either "ok: ..." or "hidden tests may leak here:" and each way they may
 * (sandbox_leaks).
 *
 * Exit status: 0 no known way for a hidden test to leak (or no hidden
 * case); 1 the suite has hidden cases (or none was named) and they may
 * leak; 2 a bad suite; 3 the sandbox could not be started at all.
 *
 * Errors: returned as that exit status: grade --check-env's body, the one
 * file of grader/run that prints (its account on stdout, its failure on
 * stderr). The caller (grade.c) parses the options and sets the uid base.
 */

struct checkenv_opts {
	const char *suite_dir;          /* NULL: none named */
	const char *const *hide;        /* --hide folders, NULL-terminated */
	const char *const *subs;        /* submissions, NULL-terminated */
};

int checkenv_main(const struct checkenv_opts *o);

#endif
