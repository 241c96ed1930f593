#ifndef WG_CASE_FIXTURE_H
#define WG_CASE_FIXTURE_H
/*
 * case_fixture: one case's files for judge_case() (judge.h), which reads
 * its input and expected output from files when the case runs: in and out
 * written as IN and OUT in a fresh private folder under /tmp.
 *
 * Lifecycle: case_files_make() fills *f (aborting the test when the
 * folder cannot be written); f->data names the files; case_files_remove()
 * removes the folder. Nothing is allocated.
 */
#include <stddef.h>

#include "grader/judge/judge.h"

struct case_files {
	char dir[256], in[288], out[288];
	struct judge_data data;
};

void case_files_make(struct case_files *f, const char *in, size_t in_len,
		     const char *out, size_t out_len);
void case_files_remove(struct case_files *f);

#endif
