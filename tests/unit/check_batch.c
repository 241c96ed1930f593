/*
 * batch_student_key: a student's folder name as batch writes it (a file
 * name, JSON, CSV, text): unchanged where safe, else escaped, cut and
 * keyed; and batch_student_key_valid, what a merge accepts. The
 * gradebook's CSV: a field of a student's text is scrubbed and can never
 * be a spreadsheet formula; a column per verdict of the enum, in its order.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	char name[] = "s1", dir[PATH_MAX];
	struct strbuf want = STRBUF_INIT;
	json_t *counts = json_object(), *report;
	char *buf = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&buf, &n);

	memset(&b, 0, sizeof(b));
	memset(&st, 0, sizeof(st));
	ck_assert_ptr_nonnull(mkdtemp(check_scratch(dir, sizeof(dir), "batch-XXXXXX")));
	b.out = dir;
	for (int v = 0; v < VERDICT_COUNT; v++)
		json_object_set_new(counts, verdict_code((enum verdict)v),
				    json_integer(v + 10));
	st.name = name;
	st.state = ST_DONE;
	report = json_pack("{s:[{s:i, s:i, s:o, s:{s:s}}]}", "submissions",
			   "score", 3, "max_score", 7, "verdicts", counts,
			   "build", "status", "ok");
	ck_assert_ptr_nonnull(report);
	b.st = &st;
	b.n = 1;
	ck_assert_int_eq(batch_row_keep(&b, &st, report), 0);
	json_decref(report);
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
	batch_row_free(&st.row);
	batch_rows_release(&b);
	ck_assert_int_eq(rmdir(dir), 0);    /* the spool left nothing */
}
END_TEST

/* A report of one submission: score/max, build ok, one category "c" (with
 * hint, or none), cases {name, category "c", verdict} and their counts. */
static json_t *row_report(double score, const char *hint, const char *const *cases)
{
	json_t *ks = json_array(), *counts = json_object();
	json_t *cat = json_pack("{s:s, s:f, s:f}", "category", "c", "score",
				score, "max_score", 4.0);

	for (size_t i = 0; cases[i]; i += 2) {
		const char *v = cases[i + 1];

		json_array_append_new(ks, json_pack("{s:s, s:s, s:s}", "name", cases[i],
						    "category", "c", "verdict", v));
		json_object_set_new(counts, v, json_integer(
			json_integer_value(json_object_get(counts, v)) + 1));
	}
	if (hint)
		json_object_set_new(cat, "hint", json_string(hint));
	return json_pack("{s:s, s:[{s:f, s:f, s:o, s:{s:s}, s:[o], s:o}]}",
			 "student", "x", "submissions", "score", score,
			 "max_score", 4.0, "verdicts", counts, "build", "status", "ok",
			 "categories", cat, "cases", ks);
}

/* What a batch keeps of a report (batch_rows.c): no reference to the
 * report (the caller's is the last one: a class of any size never holds
 * its reports), the report whole again from the spool, the row's
 * figures; and the tallies of the class's order whatever order the
 * students finish in: the first student (by index) carrying a category's
 * hint gives it, and a failed case's verdicts are listed in the order the
 * class's first students got them. */
START_TEST(test_rows_keep)
{
	static const char *const c0[] = { "t1", "AC", "t2", "AC", NULL };
	static const char *const c1[] = { "t1", "TLE", "t2", "AC", NULL };
	static const char *const c2[] = { "t1", "WA", "t2", "WA", NULL };
	static const char *cats[] = { "c" };
	struct batch b;
	struct student st[3];
	char names[3][4] = { "s0", "s1", "s2" }, dir[PATH_MAX];
	json_t *r[3], *back, *failures, *t1 = NULL;
	struct strbuf sb = STRBUF_INIT;
	char *dump;
	size_t i;
	json_t *e;

	memset(&b, 0, sizeof(b));
	memset(st, 0, sizeof(st));
	ck_assert_ptr_nonnull(mkdtemp(check_scratch(dir, sizeof(dir), "batch-XXXXXX")));
	b.out = dir;
	b.st = st;
	b.n = 3;
	b.suite.categories = (char **)cats;
	b.suite.ncategories = 1;
	r[0] = row_report(4, NULL, c0);
	r[1] = row_report(3, "H1", c1);
	r[2] = row_report(1, "H2", c2);
	for (int k = 0; k < 3; k++)
		st[k].name = names[k];
	/* Finished last first. */
	for (int k = 2; k >= 0; k--) {
		ck_assert_ptr_nonnull(r[k]);
		ck_assert_int_eq(batch_row_keep(&b, &st[k], r[k]), 0);
		ck_assert_int_eq(r[k]->refcount, 1);
	}
	back = batch_row_report(&b, &st[1]);
	ck_assert(json_equal(back, r[1]));
	json_decref(back);
	ck_assert(st[0].row.report && st[0].row.sub && st[0].row.accepted);
	ck_assert(!st[1].row.accepted);
	ck_assert(st[1].row.has_score && st[1].row.has_max);
	ck_assert(st[1].row.score == 3 && st[1].row.max == 4);
	ck_assert_int_eq(st[2].row.verdicts[VERDICT_WA], 2);
	ck_assert_str_eq(st[2].row.build, "ok");
	ck_assert(st[1].row.cats[0].has && st[1].row.cats[0].has_score);
	ck_assert(st[1].row.cats[0].score == 3 && st[1].row.cats[0].max == 4);
	batch_row_describe(&st[1].row, &sb);
	ck_assert_str_eq(sb.buf, "3/4 (TLE 1)");
	ck_assert_str_eq(batch_tally_hint(&b, "c"), "H1");
	ck_assert_ptr_null(batch_tally_hint(&b, "nope"));
	failures = batch_tally_failures(&b);
	ck_assert_uint_eq(json_array_size(failures), 2);
	json_array_foreach(failures, i, e)
		if (!strcmp(json_string_value(json_object_get(e, "case")), "t1"))
			t1 = e;
	ck_assert_ptr_nonnull(t1);
	ck_assert_int_eq(json_integer_value(json_object_get(t1, "failed")), 2);
	/* TLE (s1) before WA (s2), though s2 was kept first. */
	dump = json_dumps(json_object_get(t1, "verdicts"), JSON_COMPACT);
	ck_assert_str_eq(dump, "{\"TLE\":1,\"WA\":1}");
	free(dump);
	json_decref(failures);
	strbuf_release(&sb);
	for (int k = 0; k < 3; k++) {
		json_decref(r[k]);
		batch_row_free(&st[k].row);
	}
	batch_rows_release(&b);
	ck_assert_int_eq(rmdir(dir), 0);
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
	tcase_add_test(t, test_rows_keep);
	suite_add_tcase(s, t);
	return s;
}
