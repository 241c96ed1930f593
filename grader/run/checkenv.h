#ifndef WG_CHECKENV_H
#define WG_CHECKENV_H

/*
 * checkenv: grade --check-env [SUITE_DIR]. Prints the sandbox layers one
 * slot gets here (sandbox.h), the kernel's knobs that decide them and the
 * free slot uids. Returns the exit status: 0 safe, 1 a suite with hidden
 * cases (or none named) would be graded without mount masking, 2 a bad
 * suite, 3 the sandbox could not be started.
 *
 * Errors: returned as that exit status: grade --check-env's body, the one
 * file of grader/run that prints (its table on stdout, its failure on
 * stderr).
 */
int checkenv_main(const char *suite_dir);

#endif
