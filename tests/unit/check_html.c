/*
 * html: escaping of hostile bytes, a hand-made hostile report that must
 * not inject one tag, the student and staff views on the "mixed" report of
 * report_fixture.h (written by the real report_json()), a class assembled
 * from batch reports, and a write error.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grader/report/html.h"
#include "tests/unit/failalloc.h"
#include "tests/unit/report_fixture.h"
#include "tests/unit/wg_check.h"
#include "grader/lib/escape.h"

/* Caller frees the result. */
static char *escaped(const char *s, size_t len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&buf, &n);

	ck_assert_ptr_nonnull(m);
	escape_html(m, s, len);
	fclose(m);
	return buf;
}

static char *page(const json_t *report)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&buf, &n);

	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(html_write(m, report), 0);
	fclose(m);
	ck_assert_uint_eq(strlen(buf), n);   /* no NUL byte in the page */
	return buf;
}

/* The drill-downs' data block of doc, parsed. Caller json_decrefs it. */
static json_t *data_of(const char *doc)
{
	json_t *j = report_fixture_html_data(doc);

	ck_assert_msg(j != NULL, "no data block, or not JSON");
	return j;
}

/* The data block's entry for case `name` of submission `sub`. */
static const json_t *data_case(const json_t *data, size_t sub, const char *name)
{
	const json_t *c = report_fixture_html_case(data, sub, name);

	ck_assert_msg(c != NULL, "no case %s", name);
	return c;
}

/* The data block's text that v (an index) names. */
static const char *data_text(const json_t *data, const json_t *v)
{
	const char *t = report_fixture_html_text(data, v);

	ck_assert_msg(t != NULL, "not a text of the block");
	return t;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* Whether s is well-formed UTF-8 (RFC 3629: no overlong form, surrogate
 * or code point past U+10FFFF). */
static int valid_utf8(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	while (*s) {
		size_t n = *s < 0x80 ? 1 : *s >= 0xC2 && *s <= 0xDF ? 2 :
			   *s >= 0xE0 && *s <= 0xEF ? 3 :
			   *s >= 0xF0 && *s <= 0xF4 ? 4 : 0;
		unsigned long cp = n == 1 ? *s : n == 2 ? *s & 0x1Fu :
				   n == 3 ? *s & 0x0Fu : *s & 0x07u;

		if (!n)
			return 0;
		for (size_t i = 1; i < n; i++) {
			if ((s[i] & 0xC0) != 0x80)
				return 0;
			cp = (cp << 6) | (s[i] & 0x3F);
		}
		if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
		    cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
			return 0;
		s += n;
	}
	return 1;
}

#define ck_escape(in, want) do { \
		char *got_ = escaped(in, sizeof(in) - 1); \
		ck_assert_str_eq(got_, want); \
		free(got_); \
	} while (0)

#define FFFD "\xEF\xBF\xBD"

START_TEST(test_escape_markup)
{
	ck_escape("<script>alert('x')</script>",
		  "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
	ck_escape("a & b \"q\" ]]>", "a &amp; b &quot;q&quot; ]]&gt;");
	ck_escape("&amp;", "&amp;amp;");
}
END_TEST

START_TEST(test_escape_bytes)
{
	/* Tab and newline stay; other controls, DEL and NUL do not. */
	ck_escape("a\tb\nc", "a\tb\nc");
	ck_escape("\x01\x1b[0m\r\x7f", FFFD FFFD "[0m" FFFD FFFD);
	ck_escape("x\0y", "x" FFFD "y");
	/* Valid UTF-8 stays, U+2028 included; each bad byte is one U+FFFD. */
	ck_escape("\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xe2\x80\xa8",
		  "\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xe2\x80\xa8");
	ck_escape("\xff\xfe", FFFD FFFD);
	ck_escape("\xc0\xaf", FFFD FFFD);            /* overlong '/' */
	ck_escape("\xed\xa0\x80", FFFD FFFD FFFD);   /* a surrogate */
	ck_escape("\xf4\x90\x80\x80", FFFD FFFD FFFD FFFD); /* past U+10FFFF */
	ck_escape("\xef\xbf\xbe", FFFD FFFD FFFD);   /* U+FFFE */
	ck_escape("ok\xe2\x82", "ok" FFFD FFFD);      /* truncated */
	ck_escape("\xe2\x82<", FFFD FFFD "&lt;");
}
END_TEST

/* A report as hostile as a program and a file name can make it: markup,
 * quotes, "]]>", a script end tag, invalid UTF-8 and controls in every
 * string the page shows. Nothing may open a tag but the page itself. */
#define EVIL "<script>alert(1)</script>\"'`]]></pre></details><img src=x " \
	     "onerror=alert(2)>\xff\xc0\xaf\xed\xa0\x80\x01 \xe2\x80\xa8"

static json_t *evil_string(void)
{
	return json_stringn_nocheck(EVIL, sizeof(EVIL) - 1);
}

static json_t *hostile_report(const char *view)
{
	json_t *k = json_pack("{s:o, s:o, s:s, s:s, s:i, s:i, s:i, s:i, s:i,"
			      " s:o, s:o, s:o, s:s}",
			      "name", evil_string(), "category", evil_string(),
			      "visibility", "visible", "verdict", "WA",
			      "score", 0, "max_score", 1, "cpu_ms", 3,
			      "wall_ms", 4, "max_rss_kb", 2048,
			      "detail", evil_string(), "diff", evil_string(),
			      "stderr_tail", evil_string(), "limit", "cpu");
	json_t *sub = json_pack("{s:o, s:i, s:i, s:{s:s, s:o, s:o},"
				" s:[{s:o, s:i, s:i, s:o}], s:{s:i}, s:[o]}",
				"submission", evil_string(), "score", 0,
				"max_score", 1, "build", "status", "ok",
				"log", evil_string(), "reason", evil_string(),
				"categories", "category", evil_string(),
				"score", 0, "max_score", 1, "hint", evil_string(),
				"verdicts", "WA", 1, "cases", k);

	ck_assert_ptr_nonnull(sub);
	return json_pack("{s:o, s:s, s:o, s:[o]}", "suite", evil_string(),
			 "view", view, "grader_version", evil_string(),
			 "submissions", sub);
}

START_TEST(test_hostile_report)
{
	json_t *r = hostile_report("staff");
	json_t *cls = html_class_new("s", "staff");
	char *doc;

	ck_assert_ptr_nonnull(r);
	json_object_set_new(json_array_get(json_object_get(r, "submissions"), 0),
			    "error", evil_string());
	doc = page(r);
	/* The page's own script, once, and nothing of the report's. */
	ck_assert_uint_eq(count(doc, "<script"), 1);
	ck_assert_uint_eq(count(doc, "</script"), 1);
	ck_assert_ptr_null(strstr(doc, "<img"));
	ck_assert_ptr_null(strstr(doc, "alert(1)</"));
	ck_assert_uint_eq(count(doc, "</pre>"), count(doc, "<pre"));
	ck_assert_uint_eq(count(doc, "</details>"), count(doc, "<details"));
	ck_assert(valid_utf8(doc));
	/* Shown, escaped: the name, the hint, the suite... */
	ck_assert_uint_ge(count(doc, "&lt;script&gt;alert(1)&lt;/script&gt;"
				"&quot;&#39;`]]&gt;&lt;/pre&gt;&lt;/details&gt;"
				"&lt;img src=x onerror=alert(2)&gt;"
				FFFD FFFD FFFD FFFD FFFD FFFD FFFD " "), 4);
	/* ...and in the attribute the filter reads. */
	ck_assert_ptr_nonnull(strstr(doc, "data-name=\"&lt;script&gt;"));
	/* The drill-down's texts (diff, detail, build log, error) are in the
	 * data block: no '<' in it, and the hostile text back whole, its bad
	 * bytes as U+FFFD, once parsed. */
	{
		json_t *data = data_of(doc);
		const json_t *s0 = json_array_get(json_object_get(data, "s"), 0);
		const char *want = "<script>alert(1)</script>\"'`]]></pre></details>"
				   "<img src=x onerror=alert(2)>"
				   FFFD FFFD FFFD FFFD FFFD FFFD FFFD " ";

		ck_assert_ptr_nonnull(strstr(data_text(data, json_object_get(s0, "e")), want));
		ck_assert_ptr_nonnull(strstr(data_text(data, json_object_get(s0, "l")), want));
		json_decref(data);
	}
	free(doc);
	/* A batch's student name is as hostile. */
	ck_assert_int_eq(html_class_add(cls, EVIL, "not graded", EVIL, NULL), 0);
	doc = page(cls);
	ck_assert_uint_eq(count(doc, "<script"), 1);
	ck_assert_ptr_null(strstr(doc, "<img"));
	ck_assert(valid_utf8(doc));
	free(doc);
	json_decref(cls);
	json_decref(r);
}
END_TEST

/* The student view (the default, and a report without "view") gives a
 * hidden case's verdict only; the staff view gives everything. */
START_TEST(test_views)
{
	json_t *r = report_fixture_json("mixed");
	char *doc;

	ck_assert_ptr_nonnull(r);
	doc = page(r);
	ck_assert_ptr_nonnull(strstr(doc, "<span id=\"view\">student</span>"));
	ck_assert_ptr_null(strstr(doc, "SECRET"));
	ck_assert_ptr_null(strstr(doc, "1.01 s"));    /* the hidden TLE's detail */
	ck_assert_ptr_null(strstr(doc, "\"cpu\""));   /* ...and its limit */
	{
		json_t *data = data_of(doc);
		const json_t *slow = data_case(data, 0, "misaligned_slow");
		const json_t *round = data_case(data, 0, "strided_round");

		/* A hidden case: its verdict (TLE) and nothing else. */
		ck_assert_uint_eq(json_array_size(slow), 2);
		ck_assert_int_eq(json_integer_value(json_array_get(slow, 1)), 2);
		/* A visible case shows all: its diff, the program's bytes made
		 * visible by the diff, and its stderr. */
		ck_assert_ptr_nonnull(strstr(data_text(data, json_array_get(round, 8)),
					     "+efficiency 6.2%\\x01\\x1b[0m\\r\n"));
		ck_assert_str_eq(data_text(data, json_array_get(round, 10)),
				 "warn\\x07 bell");
		json_decref(data);
	}
	free(doc);
	json_object_del(r, "view");
	doc = page(r);
	ck_assert_ptr_null(strstr(doc, "SECRET"));
	free(doc);
	json_object_set_new(r, "view", json_string("staff"));
	doc = page(r);
	ck_assert_ptr_nonnull(strstr(doc, "SECRET_EXPECTED 42"));
	ck_assert_ptr_nonnull(strstr(doc, "cpu time 1.01 s over the 1 s limit"));
	{
		json_t *data = data_of(doc);

		ck_assert_str_eq(data_text(data, json_array_get(
			data_case(data, 0, "misaligned_slow"), 2)), "cpu");
		json_decref(data);
	}
	free(doc);
	json_decref(r);
}
END_TEST

static void drop_case(json_t *r, const char *name)
{
	size_t i, j;
	json_t *sub, *k;

	json_array_foreach(json_object_get(r, "submissions"), i, sub)
		json_array_foreach(json_object_get(sub, "cases"), j, k)
			if (!strcmp(json_string_value(json_object_get(k, "name")), name)) {
				json_array_remove(json_object_get(sub, "cases"), j);
				break;
			}
}

/* A hint shows in the student view only when a visible case of its
 * category failed (Gradescope's rule); staff see every hint. */
START_TEST(test_hints)
{
	json_t *r = report_fixture_json("mixed");
	const char *mis = "a range that crosses a sector boundary touches two sectors";
	const char *str = "round half up in integers, not with printf";
	char *doc;

	ck_assert_ptr_nonnull(r);
	drop_case(r, "misaligned_ie");   /* misaligned: hidden failures only */
	doc = page(r);
	ck_assert_ptr_null(strstr(doc, mis));
	ck_assert_ptr_nonnull(strstr(doc, str));
	free(doc);
	json_object_set_new(r, "view", json_string("staff"));
	doc = page(r);
	ck_assert_ptr_nonnull(strstr(doc, mis));
	free(doc);
	json_decref(r);
}
END_TEST

/* The figures of "mixed": two submissions, one per histogram bar they
 * fall in, the failed cases in order. */
START_TEST(test_figures)
{
	json_t *r = report_fixture_json("mixed");
	char *doc;

	ck_assert_ptr_nonnull(r);
	doc = page(r);
	ck_assert_uint_eq(count(doc, "<tbody class=\"student\""), 2);
	ck_assert_uint_eq(count(doc, "<rect class=\"bar\""), 10);
	ck_assert_uint_eq(count(doc, "data-count=\"0\""), 8);
	ck_assert_ptr_nonnull(strstr(doc, "<span id=\"count\">2</span> submissions"));
	ck_assert_ptr_nonnull(strstr(doc, "data-build=\"failed\""));
	ck_assert_ptr_nonnull(strstr(doc, "your program did not compile"));
	/* misaligned_ie: IE in one, CE in the other; listed before the cases
	 * that failed once. */
	ck_assert_ptr_nonnull(strstr(doc, "<tr><td>misaligned_ie</td><td>misaligned"
				     "</td><td class=\"num\">2 of 2</td>"));
	free(doc);
	json_decref(r);
}
END_TEST

START_TEST(test_class)
{
	json_t *r = report_fixture_json("single");
	json_t *none = json_pack("{s:s, s:s, s:i, s:i, s:[]}", "student", "bob",
				 "status", "no submission", "score", 0,
				 "max_score", 2, "submissions");
	json_t *cls = html_class_new("public", "staff");
	char *doc;

	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(html_class_add(cls, "alice", "graded", NULL, r), 0);
	ck_assert_int_eq(html_class_add(cls, "bob", "no submission", NULL, none), 0);
	ck_assert_int_eq(html_class_add(cls, "carol", "not graded",
					"grade exited with status 3", NULL), 0);
	/* The student's report itself is not changed. */
	ck_assert_ptr_null(json_object_get(json_array_get(
		json_object_get(r, "submissions"), 0), "student"));
	doc = page(cls);
	ck_assert_uint_eq(count(doc, "<tbody class=\"student\""), 3);
	ck_assert_ptr_nonnull(strstr(doc, "3</span> submissions, 1 graded"));
	ck_assert_ptr_nonnull(strstr(doc, "data-name=\"alice\" data-score=\"2\" "
				     "data-pct=\"100.0\" data-graded=\"1\" data-full=\"1\""));
	ck_assert_ptr_nonnull(strstr(doc, "<td class=\"name\">bob</td>"
				     "<td class=\"num\">0 / 2</td>"));
	ck_assert_ptr_nonnull(strstr(doc, "grade exited with status 3"));
	ck_assert_ptr_nonnull(strstr(doc, "<p>No case failed.</p>"));
	free(doc);
	json_decref(cls);
	json_decref(none);
	json_decref(r);
}
END_TEST

/* rep's submission with every case passed whole: AC, all its points,
 * no text. A new reference. */
static json_t *all_passed(const json_t *rep)
{
	json_t *r = json_deep_copy(rep), *k;
	size_t i;

	ck_assert_ptr_nonnull(r);
	json_array_foreach(json_object_get(json_array_get(json_object_get(r,
			"submissions"), 0), "cases"), i, k) {
		const char *drop[] = { "limit", "detail", "diff", "stderr_tail",
				       "output_head", "stop_line", "stop_input" };

		json_object_set_new(k, "verdict", json_string("AC"));
		json_object_set(k, "score", json_object_get(k, "max_score"));
		for (size_t d = 0; d < sizeof(drop) / sizeof(*drop); d++)
			json_object_del(k, drop[d]);
	}
	return r;
}

/* The data block as written, the length of "s"'s entry sub. */
static size_t entry_bytes(const json_t *data, size_t sub)
{
	char *t = json_dumps(json_array_get(json_object_get(data, "s"), sub),
			     JSON_COMPACT);
	size_t n = strlen(t);

	free(t);
	return n;
}

/* A class page (compact) holds, per student, the cases that did not pass
 * whole, and each text once: a student who passed every case of the
 * usual list is {}, however many cases; the same failure of two students
 * is the same text; a student of another list names its cases. */
START_TEST(test_compact_class)
{
	json_t *mixed = report_fixture_json("mixed"), *single = report_fixture_json("single");
	json_t *passed = all_passed(mixed), *half = all_passed(mixed);
	json_t *cls = html_class_new("hidden", "staff"), *data;
	const json_t *s, *round0, *round1;
	char *doc;
	size_t ntexts = 0, i;
	const json_t *t;

	ck_assert_int_eq(html_class_set_compact(cls), 0);
	ck_assert_int_eq(html_class_add(cls, "ann", "graded", NULL, mixed), 0);
	ck_assert_int_eq(html_class_add(cls, "ben", "graded", NULL, mixed), 0);
	ck_assert_int_eq(html_class_add(cls, "eve", "graded", NULL, passed), 0);
	ck_assert_int_eq(html_class_add(cls, "cat", "graded", NULL, single), 0);
	ck_assert_int_eq(html_class_add(cls, "dan", "not graded", "no main.c", NULL), 0);
	/* fay: AC, but not all the points of strided_basic. */
	json_object_set_new(json_array_get(json_object_get(json_array_get(
		json_object_get(half, "submissions"), 0), "cases"), 0), "score",
		json_real(1.5));
	ck_assert_int_eq(html_class_add(cls, "fay", "graded", NULL, half), 0);
	doc = page(cls);
	data = data_of(doc);
	s = json_object_get(data, "s");
	ck_assert_int_eq(json_integer_value(json_object_get(data, "x")), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(data, "n")), 6);
	ck_assert_uint_eq(json_array_size(json_object_get(data, "k")), 8);
	/* ann: the four cases she failed, none of the two she passed. */
	ck_assert_ptr_null(json_object_get(json_array_get(s, 0), "i"));
	ck_assert_uint_eq(json_array_size(json_object_get(json_array_get(s, 0), "c")), 4);
	ck_assert_ptr_null(report_fixture_html_case(data, 0, "strided_basic"));
	ck_assert_ptr_null(report_fixture_html_case(data, 0, "shared_conflict"));
	ck_assert_int_eq(json_integer_value(json_array_get(
		data_case(data, 0, "misaligned_slow"), 1)), 2);
	/* ben failed as ann did: the same entries, the same texts, once. */
	ck_assert(json_equal(json_array_get(s, 0), json_array_get(s, 1)));
	round0 = data_case(data, 0, "strided_round");
	round1 = data_case(data, 1, "strided_round");
	ck_assert_int_eq(json_integer_value(json_array_get(round0, 8)),
			 json_integer_value(json_array_get(round1, 8)));
	json_array_foreach(json_object_get(data, "t"), i, t)
		ntexts += strstr(json_string_value(t), "efficiency 6.2%") != NULL;
	ck_assert_uint_eq(ntexts, 1);
	/* eve passed every case: nothing per case. */
	ck_assert_uint_eq(entry_bytes(data, 2), 2);
	/* cat: another list of cases, all passed; dan: none, an error. */
	ck_assert_uint_eq(json_array_size(json_object_get(json_array_get(s, 3), "i")), 2);
	ck_assert_ptr_null(json_object_get(json_array_get(s, 3), "c"));
	ck_assert_uint_eq(json_array_size(json_object_get(json_array_get(s, 4), "i")), 0);
	ck_assert_str_eq(data_text(data, json_object_get(json_array_get(s, 4), "e")),
			 "no main.c");
	/* fay's AC did not give all its points: it is there, 1.5 of 2. */
	ck_assert_uint_eq(json_array_size(json_object_get(json_array_get(s, 5), "c")), 1);
	ck_assert(json_real_value(json_array_get(data_case(data, 5, "strided_basic"), 3)) == 1.5);
	json_decref(data);
	free(doc);
	/* The same students' full page: every case has its entry. */
	json_object_del(cls, "page_compact");
	doc = page(cls);
	data = data_of(doc);
	ck_assert_uint_eq(json_array_size(json_object_get(json_array_get(
		json_object_get(data, "s"), 2), "c")), 6);
	ck_assert_ptr_nonnull(report_fixture_html_case(data, 2, "strided_basic"));
	json_decref(data);
	free(doc);
	json_decref(cls);
	json_decref(half);
	json_decref(passed);
	json_decref(single);
	json_decref(mixed);
}
END_TEST

/* A compact page of the student view: a hidden case shows its verdict
 * only, and one passed is left out like any other ("h" tells the script
 * to show it without points). */
START_TEST(test_compact_student_view)
{
	json_t *mixed = report_fixture_json("mixed");
	json_t *cls = html_class_new("hidden", "student"), *data;
	char *doc;

	ck_assert_int_eq(html_class_set_compact(cls), 0);
	ck_assert_int_eq(html_class_add(cls, "ann", "graded", NULL, mixed), 0);
	ck_assert_int_eq(html_class_add(cls, "ben", "graded", NULL, mixed), 0);
	doc = page(cls);
	ck_assert_ptr_null(strstr(doc, "SECRET"));
	data = data_of(doc);
	ck_assert_int_eq(json_integer_value(json_object_get(data, "h")), 1);
	ck_assert_ptr_null(report_fixture_html_case(data, 0, "shared_conflict"));
	ck_assert_uint_eq(json_array_size(data_case(data, 0, "misaligned_secret")), 2);
	ck_assert_uint_eq(json_array_size(data_case(data, 0, "misaligned_slow")), 2);
	json_decref(data);
	free(doc);
	json_decref(cls);
	json_decref(mixed);
}
END_TEST

/* Every JSON allocation of a class page's writing fails once: html_write
 * then fails cleanly (ENOMEM) or writes the whole page, and leaks
 * nothing (the data block's tables included). */
START_TEST(test_compact_out_of_memory)
{
	json_t *mixed, *cls;
	char *full = NULL, *buf;
	size_t n, len, failures = 0;
	long live;
	FILE *m;
	int rc;

	failalloc_install();
	mixed = report_fixture_json("mixed");
	cls = html_class_new("hidden", "staff");
	ck_assert_int_eq(html_class_set_compact(cls), 0);
	ck_assert_int_eq(html_class_add(cls, "ann", "graded", NULL, mixed), 0);
	ck_assert_int_eq(html_class_add(cls, "ben", "graded", NULL, mixed), 0);
	ck_assert_int_eq(html_class_add(cls, "dan", "not graded", "no main.c", NULL), 0);
	full = page(cls);
	live = failalloc_live();
	for (n = 1; ; n++) {
		buf = NULL;
		ck_assert_ptr_nonnull(m = open_memstream(&buf, &len));
		failalloc_fail_at(n);
		errno = 0;
		rc = html_write(m, cls);
		failalloc_fail_at(0);
		fclose(m);
		if (!failalloc_failed()) {
			ck_assert_int_eq(rc, 0);
			ck_assert_str_eq(buf, full);
			free(buf);
			break;
		}
		ck_assert_msg(rc == 0 ? !strcmp(buf, full) : errno == ENOMEM,
			      "allocation %zu failed: rc %d, errno %d", n, rc, errno);
		failures += rc < 0;
		free(buf);
		ck_assert_msg(failalloc_live() == live, "allocation %zu failed: %ld blocks "
			      "leaked", n, failalloc_live() - live);
	}
	free(full);
	json_decref(cls);
	json_decref(mixed);
	ck_assert_int_eq(failalloc_live(), 0);
	ck_assert_uint_gt(failures, 0);
	failalloc_uninstall();
}
END_TEST

/* A class's rows given one at a time (html_write_rows, as a batch reads
 * them from its spool): the page is html_write's of the same class byte
 * for byte, and the page holds no row once it has asked for the next. */
struct one_at_a_time {
	const json_t *subs;
	json_t *last;            /* the row given last, still referenced here */
	size_t asked, held;      /* rows given; times the last was still held */
};

static json_t *next_row(void *arg, size_t i)
{
	struct one_at_a_time *o = arg;

	/* Only this test's reference left: the page let the row go. */
	if (o->last && o->last->refcount > 1)
		o->held++;
	json_decref(o->last);
	o->last = json_deep_copy(json_array_get(o->subs, i));
	o->asked++;
	return json_incref(o->last);
}

START_TEST(test_class_rows)
{
	json_t *mixed = report_fixture_json("mixed");
	json_t *cls = html_class_new("hidden", "staff"), *bare;
	struct one_at_a_time o = { 0 };
	struct html_rows rows = { 0, next_row, &o };
	char *whole, *streamed = NULL;
	size_t n = 0;
	FILE *m;

	ck_assert_ptr_nonnull(mixed);
	for (int i = 0; i < 30; i++) {
		char name[16];

		snprintf(name, sizeof name, "s%02d", i);
		ck_assert_int_eq(html_class_add(cls, name, i % 3 ? "graded" : "unchanged",
						NULL, mixed), 0);
	}
	ck_assert_int_eq(html_class_add(cls, "late", "not graded", "why", NULL), 0);
	ck_assert_int_eq(html_class_set_compact(cls), 0);
	whole = page(cls);
	o.subs = json_object_get(cls, "submissions");
	rows.n = json_array_size(o.subs);
	/* The rows come from the source alone: the class given is bare. */
	bare = json_deep_copy(cls);
	json_array_clear(json_object_get(bare, "submissions"));
	m = open_memstream(&streamed, &n);
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(html_write_rows(m, bare, &rows), 0);
	fclose(m);
	ck_assert_str_eq(streamed, whole);
	ck_assert_uint_ge(o.asked, 2 * rows.n);
	ck_assert_uint_eq(o.held, 0);
	json_decref(o.last);
	free(whole);
	free(streamed);
	json_decref(bare);
	json_decref(cls);
	json_decref(mixed);
}
END_TEST

/* A row that cannot be read fails the page (-1, ENOMEM), never a page
 * without the student. */
static json_t *no_row(void *arg, size_t i)
{
	(void)arg;
	(void)i;
	return NULL;
}

START_TEST(test_class_rows_error)
{
	json_t *cls = html_class_new("s", "staff");
	struct html_rows rows = { 2, no_row, NULL };
	char *buf = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&buf, &n);

	ck_assert_ptr_nonnull(m);
	errno = 0;
	ck_assert_int_eq(html_write_rows(m, cls, &rows), -1);
	ck_assert_int_eq(errno, ENOMEM);
	fclose(m);
	free(buf);
	json_decref(cls);
}
END_TEST

START_TEST(test_empty_report)
{
	json_t *r = json_pack("{s:s, s:[]}", "suite", "s", "submissions");
	char *doc = page(r);

	ck_assert_ptr_nonnull(strstr(doc, "No submission was graded."));
	ck_assert_uint_eq(count(doc, "<tbody class=\"student\""), 0);
	ck_assert_ptr_nonnull(strstr(doc, "</html>\n"));
	free(doc);
	json_decref(r);
}
END_TEST

START_TEST(test_write_error)
{
	json_t *r = report_fixture_json("mixed");
	FILE *f = report_fixture_full_stream();

	ck_assert_ptr_nonnull(f);
	errno = 0;
	ck_assert_int_eq(html_write(f, r), -1);
	ck_assert_int_ne(errno, 0);
	fclose(f);
	json_decref(r);
}
END_TEST

/* The suite report's section: hostile wrong-solution and case names are
 * text, the matrix has a row per solution, X and C cells are marked. */
START_TEST(test_suite_section)
{
	json_t *r = json_pack("{s:s, s:[], s:{s:{s:i, s:i, s:i, s:i, s:i, s:i, s:i},"
			      " s:[s], s:[{s:s, s:s}], s:[s], s:[],"
			      " s:{s:[s, s], s:[{s:s, s:s}, {s:s, s:s}]}}}",
			      "view", "staff", "submissions", "suite_report",
			      "summary", "solutions", 2, "cases", 2, "killed", 1,
			      "survivors", 1, "fragile", 1, "unbuilt", 0,
			      "redundant_cases", 1,
			      "survivors", "<script>alert(1)</script>",
			      "fragile", "solution", "ok\"quote", "case", "c1",
			      "redundant", "c2]]>", "categories",
			      "matrix", "cases", "c1", "c2]]>",
			      "rows", "solution", "ok\"quote", "kills", "X.",
			      "solution", "<script>alert(1)</script>", "kills", ".C");
	char *p;

	ck_assert_ptr_nonnull(r);
	p = page(r);
	ck_assert_uint_eq(count(p, "<section id=\"suite-strength\">"), 1);
	ck_assert_uint_eq(count(p, "<tr class=\"sr-row\">"), 2);
	ck_assert_uint_eq(count(p, "<script>alert"), 0);
	ck_assert_uint_eq(count(p, "&lt;script&gt;alert(1)&lt;/script&gt;"), 2);
	ck_assert_uint_eq(count(p, "ok&quot;quote"), 2);
	ck_assert_uint_eq(count(p, "<td class=\"v v-WA\">X</td>"), 1);
	ck_assert_uint_eq(count(p, "<td class=\"v v-CE\">C</td>"), 1);
	ck_assert_ptr_nonnull(strstr(p, "title=\"c2]]&gt;\""));
	free(p);
	json_decref(r);
}
END_TEST

Suite *make_html_suite(void)
{
	Suite *s = suite_create("html");
	TCase *tc = tcase_create("html");

	tcase_add_test(tc, test_escape_markup);
	tcase_add_test(tc, test_escape_bytes);
	tcase_add_test(tc, test_hostile_report);
	tcase_add_test(tc, test_views);
	tcase_add_test(tc, test_hints);
	tcase_add_test(tc, test_figures);
	tcase_add_test(tc, test_class);
	tcase_add_test(tc, test_compact_class);
	tcase_add_test(tc, test_compact_student_view);
	tcase_add_test(tc, test_compact_out_of_memory);
	tcase_add_test(tc, test_class_rows);
	tcase_add_test(tc, test_class_rows_error);
	tcase_add_test(tc, test_empty_report);
	tcase_add_test(tc, test_write_error);
	tcase_add_test(tc, test_suite_section);
	suite_add_tcase(s, tc);
	return s;
}
