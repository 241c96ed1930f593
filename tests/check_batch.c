/*
 * batch_student_key: a student's folder name as batch writes it (a file
 * name, JSON, CSV, text): unchanged where safe, else escaped, cut and
 * keyed; and batch_student_key_valid, what a merge accepts.
 */
#include <string.h>

#include "grader/cli/batch_int.h"
#include "grader/lib/strbuf.h"
#include "tests/wg_check.h"

static const char *key(struct strbuf *sb, const char *folder)
{
	strbuf_reset(sb);
	batch_student_key(sb, folder);
	return strbuf_str(sb);
}

START_TEST(test_keys)
{
	struct strbuf sb = STRBUF_INIT;
	char longname[300];

	ck_assert_str_eq(key(&sb, "alice"), "alice");
	ck_assert_str_eq(key(&sb, "Jos\xc3\xa9 Mar\xc3\xad" "a"), "Jos\xc3\xa9 Mar\xc3\xad" "a");
	ck_assert_str_eq(key(&sb, "Jos\xe9"), "Jos\\xe9");
	ck_assert_str_eq(key(&sb, "Jos\\xe9"), "Jos\\x5cxe9");  /* never the same */
	ck_assert_str_eq(key(&sb, "a\nb\033[2J"), "a\\x0ab\\x1b[2J");
	ck_assert_str_eq(key(&sb, "\xed\xa0\x80"), "\\xed\\xa0\\x80");   /* a surrogate */
	memset(longname, 'L', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	key(&sb, longname);
	ck_assert_uint_le(sb.len, 160 + 17);
	ck_assert_ptr_nonnull(strchr(sb.buf, '~'));
	ck_assert(batch_student_key_valid(sb.buf));
	/* Escapes count against the cut: 250 control bytes, not 1,000. */
	memset(longname, 1, 250);
	longname[250] = '\0';
	key(&sb, longname);
	ck_assert_uint_le(sb.len, 160 + 17);
	ck_assert(batch_student_key_valid(sb.buf));
	memset(longname, 'L', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	key(&sb, longname);
	longname[5] = 'M';                      /* another long name: another key */
	{
		char first[200];

		strcpy(first, sb.buf);
		ck_assert_str_ne(key(&sb, longname), first);
	}
	strbuf_release(&sb);
}
END_TEST

START_TEST(test_valid)
{
	ck_assert(batch_student_key_valid("alice"));
	ck_assert(batch_student_key_valid("Jos\\xe9"));
	ck_assert(batch_student_key_valid("Jos\xc3\xa9"));
	ck_assert(!batch_student_key_valid(""));
	ck_assert(!batch_student_key_valid(".."));
	ck_assert(!batch_student_key_valid(".hidden"));
	ck_assert(!batch_student_key_valid("../../escaped"));
	ck_assert(!batch_student_key_valid("a/b"));
	ck_assert(!batch_student_key_valid("a\nb"));
	ck_assert(!batch_student_key_valid("Jos\xe9"));
	ck_assert(!batch_student_key_valid("a\\b"));
	ck_assert(!batch_student_key_valid("a\\x"));
}
END_TEST

Suite *make_batch_suite(void)
{
	Suite *s = suite_create("batch");
	TCase *t = tcase_create("names");

	tcase_add_test(t, test_keys);
	tcase_add_test(t, test_valid);
	suite_add_tcase(s, t);
	return s;
}
