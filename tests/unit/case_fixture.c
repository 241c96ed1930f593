/*
 * case_fixture: a case's files in a private folder (case_fixture.h).
 */
#include "tests/unit/case_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "tests/unit/wg_check.h"

static void put(const char *path, const char *bytes, size_t len)
{
	FILE *f = fopen(path, "w");

	ck_assert_msg(f != NULL, "cannot write %s", path);
	ck_assert_uint_eq(fwrite(bytes, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

void case_files_make(struct case_files *f, const char *in, size_t in_len,
		     const char *out, size_t out_len)
{
	check_scratch(f->dir, sizeof(f->dir), "case-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(f->dir));
	snprintf(f->in, sizeof(f->in), "%s/IN", f->dir);
	snprintf(f->out, sizeof(f->out), "%s/OUT", f->dir);
	put(f->in, in, in_len);
	put(f->out, out, out_len);
	f->data = (struct judge_data){ f->in, f->out, 1 };
}

void case_files_remove(struct case_files *f)
{
	unlink(f->in);
	unlink(f->out);
	rmdir(f->dir);
}
