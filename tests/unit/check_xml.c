/* escape_xml (grader/lib/escape.h): the three ways of writing what XML 1.0
 * cannot hold. */
#include "wg_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grader/lib/escape.h"

/* Caller frees the result. */
static char *esc(const char *s, size_t len, unsigned flags)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&buf, &n);

	ck_assert_ptr_nonnull(m);
	escape_xml(m, s, len, flags);
	fclose(m);
	return buf;
}

/* A literal's bytes, NULs included. */
#define EXPECT(lit, flags, want) expect(lit, sizeof(lit) - 1, flags, want)

static void expect(const char *s, size_t len, unsigned flags, const char *want)
{
	char *got = esc(s, len, flags);

	ck_assert_str_eq(got, want);
	free(got);
}

START_TEST(test_markup)
{
	EXPECT("<a href=\"x\">&'</a>", 0,
	       "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;");
	EXPECT("'", ESCAPE_REPLACE, "&#39;");
}
END_TEST

START_TEST(test_controls)
{
	EXPECT("a\tb\nc\rd\001\177", 0, "a\tb\nc&#13;d\\x01\\x7F");
	EXPECT("a\tb\nc\rd\001\177", ESCAPE_ATTR, "a&#9;b&#10;c&#13;d\\x01\\x7F");
	EXPECT("a\tb\nc\rd\001\177", ESCAPE_REPLACE, "a?b?c?d??");
	EXPECT("a\0b", 0, "a\\x00b");
}
END_TEST

START_TEST(test_utf8)
{
	/* valid: kept; overlong, surrogate, noncharacter, truncated: each
	 * bad byte on its own */
	EXPECT("\xc3\xa9 \xf0\x9f\x98\x80", 0, "\xc3\xa9 \xf0\x9f\x98\x80");
	EXPECT("\xc0\x80", 0, "\\xC0\\x80");
	EXPECT("\xed\xa0\x80", 0, "\\xED\\xA0\\x80");
	EXPECT("\xef\xbf\xbf", 0, "\\xEF\\xBF\\xBF");
	EXPECT("\xe2\x82", ESCAPE_REPLACE, "\xef\xbf\xbd\xef\xbf\xbd");
	EXPECT("\xff", ESCAPE_ATTR, "\\xFF");
}
END_TEST

Suite *make_xml_suite(void)
{
	Suite *s = suite_create("xml");
	TCase *tc = tcase_create("escape");

	tcase_add_test(tc, test_markup);
	tcase_add_test(tc, test_controls);
	tcase_add_test(tc, test_utf8);
	suite_add_tcase(s, tc);
	return s;
}
