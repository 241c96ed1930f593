/*
 * batch_student_key: a student's folder name as batch writes it (a file
 * name, JSON, CSV, text): unchanged where safe, else escaped, cut and
 * keyed; and batch_student_key_valid, what a merge accepts. The
 * gradebook's CSV: a field of a student's text is scrubbed and can never
 * be a spreadsheet formula; a column per verdict of the enum, in its order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grader/cli/batch_int.h"
#include "grader/judge/verdict.h"
#include "grader/lib/strbuf.h"
#include "tests/unit/wg_check.h"

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

static char *csv_of(const char *raw, int text)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&buf, &n);

	ck_assert_ptr_nonnull(m);
	batch_csv_field(m, raw, text);
	fclose(m);
	return buf;
}

START_TEST(test_csv_field)
{
	static const struct {
		const char *raw, *want;
		int text;
	} cases[] = {
		{ "alice", "alice", 1 },
		{ "=HYPERLINK(1)", "'=HYPERLINK(1)", 1 },
		{ "+1", "'+1", 1 },
		{ "@x", "'@x", 1 },
		{ "-3", "-3", 0 },                 /* a number stays one */
		{ "a,b", "\"a,b\"", 1 },
		{ "say \"hi\"", "\"say \"\"hi\"\"\"", 1 },
		{ "bell\007esc\033[2J", "bell?esc?[2J", 1 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char *got = csv_of(cases[i].raw, cases[i].text);

		ck_assert_msg(!strcmp(got, cases[i].want), "'%s': got '%s', want '%s'",
			      cases[i].raw, got, cases[i].want);
		free(got);
	}
}
END_TEST

/* The header names a column per verdict, in the enum's order, and a row's
 * counts sit under their own verdict's name. */
START_TEST(test_gradebook_columns)
{
	struct batch b;
	struct student st;
	char name[] = "s1";
	struct strbuf want = STRBUF_INIT;
	json_t *counts = json_object();
	char *buf = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&buf, &n);

	memset(&b, 0, sizeof(b));
	memset(&st, 0, sizeof(st));
	for (int v = 0; v < VERDICT_COUNT; v++)
		json_object_set_new(counts, verdict_code((enum verdict)v),
				    json_integer(v + 10));
	st.name = name;
	st.state = ST_DONE;
	st.report = json_pack("{s:[{s:i, s:i, s:o, s:{s:s}}]}", "submissions",
			      "score", 3, "max_score", 7, "verdicts", counts,
			      "build", "status", "ok");
	ck_assert_ptr_nonnull(st.report);
	b.st = &st;
	b.n = 1;
	ck_assert_int_eq(batch_put_gradebook(m, &b), 0);
	fclose(m);
	strbuf_addstr(&want, "student,score,max_score");
	for (int v = 0; v < VERDICT_COUNT; v++)
		strbuf_addf(&want, ",%s", verdict_code((enum verdict)v));
	strbuf_addstr(&want, ",build,status,error\ns1,3,7");
	for (int v = 0; v < VERDICT_COUNT; v++)
		strbuf_addf(&want, ",%d", v + 10);
	strbuf_addstr(&want, ",ok,graded,\n");
	ck_assert_str_eq(buf, want.buf);
	free(buf);
	strbuf_release(&want);
	json_decref(st.report);
}
END_TEST

Suite *make_batch_suite(void)
{
	Suite *s = suite_create("batch");
	TCase *t = tcase_create("names");

	tcase_add_test(t, test_keys);
	tcase_add_test(t, test_valid);
	tcase_add_test(t, test_csv_field);
	tcase_add_test(t, test_gradebook_columns);
	suite_add_tcase(s, t);
	return s;
}
