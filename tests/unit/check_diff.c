/*
 * diff: the first-difference report (line, column, caret, visible
 * whitespace) and the bounded Myers unified diff. The expected texts are
 * worked out by hand: hunk ranges follow the unified format (start,count;
 * an empty range starts at the line before it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grader/judge/diff.h"
#include "grader/lib/escape.h"
#include "wg_check.h"

static struct diff_first first(const char *e, const char *a, int exact)
{
	struct diff_first f;

	ck_assert_int_eq(diff_first(e, strlen(e), a, strlen(a), exact, &f), 0);
	return f;
}

static char *unified_n(const char *e, size_t el, const char *a, size_t al,
		       int exact)
{
	struct diff_opts o = DIFF_OPTS_INIT;
	char *u;

	o.exact = exact;
	u = diff_unified(e, el, a, al, &o);
	ck_assert_ptr_nonnull(u);
	return u;
}

static char *unified(const char *e, const char *a, int exact)
{
	return unified_n(e, strlen(e), a, strlen(a), exact);
}

START_TEST(test_equal)
{
	struct diff_first f = first("a\nb\n", "a\nb  \n\n", 0);
	char *u = unified("a\nb\n", "a\nb  \n\n", 0);

	ck_assert_int_eq(f.line, 0);
	ck_assert_ptr_null(f.text);
	ck_assert_str_eq(u, "");
	free(u);
}
END_TEST

START_TEST(test_one_changed_line)
{
	struct diff_first f = first("a\nb\nc\n", "a\nB\nc\n", 0);
	char *u = unified("a\nb\nc\n", "a\nB\nc\n", 0);

	ck_assert_int_eq(f.line, 2);
	ck_assert_int_eq(f.column, 1);
	ck_assert_int_eq(f.ws_only, 0);
	ck_assert_str_eq(f.text, "first difference: line 2, column 1\n"
			 "  expected: b\n"
			 "  actual:   B\n"
			 "            ^\n");
	ck_assert_str_eq(u, "--- expected\n+++ actual\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
	free(f.text);
	free(u);
}
END_TEST

START_TEST(test_caret_column)
{
	struct diff_first f = first("efficiency 6.3%\n", "efficiency 6.2%\n", 0);

	ck_assert_int_eq(f.column, 14);
	/* 12 columns of "  expected: " then 13 characters before the caret. */
	ck_assert_ptr_nonnull(strstr(f.text, "\n            " "             ^\n"));
	free(f.text);
}
END_TEST

START_TEST(test_whitespace_made_visible)
{
	struct diff_first f = first("x y\n", "x  y\n", 0);

	ck_assert_int_eq(f.line, 1);
	ck_assert_int_eq(f.column, 3);
	ck_assert_int_eq(f.ws_only, 1);
	ck_assert_ptr_nonnull(strstr(f.text, "expected: x\xc2\xb7y\n"));
	ck_assert_ptr_nonnull(strstr(f.text, "actual:   x\xc2\xb7\xc2\xb7y\n"));
	free(f.text);

	f = first("a\tb\n", "a b\n", 0);
	ck_assert_int_eq(f.ws_only, 1);
	ck_assert_ptr_nonnull(strstr(f.text, "expected: a\\tb\n"));
	free(f.text);

	/* CR only matters with --exact; there it is shown as \r. */
	f = first("a\n", "a\r\n", 1);
	ck_assert_int_eq(f.ws_only, 1);
	ck_assert_int_eq(f.column, 2);
	ck_assert_ptr_nonnull(strstr(f.text, "actual:   a\\r\n"));
	free(f.text);
}
END_TEST

START_TEST(test_missing_and_extra_lines)
{
	struct diff_first f = first("1\n2\n3\n", "1\n2\n", 0);
	char *u = unified("1\n2\n3\n", "1\n2\n", 0);

	ck_assert_int_eq(f.line, 3);
	ck_assert_ptr_nonnull(strstr(f.text, "your output ends there, 1 more line was expected"));
	ck_assert_str_eq(u, "--- expected\n+++ actual\n@@ -1,3 +1,2 @@\n 1\n 2\n-3\n");
	free(f.text);
	free(u);

	f = first("", "hello\n", 0);
	u = unified("", "hello\n", 0);
	ck_assert_int_eq(f.line, 1);
	ck_assert_ptr_nonnull(strstr(f.text, "goes on after the expected last line"));
	ck_assert_str_eq(u, "--- expected\n+++ actual\n@@ -0,0 +1,1 @@\n+hello\n");
	free(f.text);
	free(u);
}
END_TEST

START_TEST(test_missing_final_newline_exact)
{
	struct diff_first f = first("a\nb\n", "a\nb", 1);
	char *u = unified("a\nb\n", "a\nb", 1);

	ck_assert_int_eq(f.line, 2);
	ck_assert_int_eq(f.column, 2);
	ck_assert_ptr_nonnull(strstr(f.text, "has a newline there, yours does not"));
	ck_assert_str_eq(u, "--- expected\n+++ actual\n@@ -1,2 +1,2 @@\n a\n-b\n+b\n"
			 "\\ No newline at end of file\n");
	free(f.text);
	free(u);
}
END_TEST

START_TEST(test_two_hunks)
{
	/* Changes at lines 3 and 11 (and an added 13th line): 7 equal lines
	 * between them is more than 2 x 3 context, so two hunks. */
	char *u = unified("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n",
			  "1\n2\nX\n4\n5\n6\n7\n8\n9\n10\nY\n12\n13\n", 0);

	ck_assert_str_eq(u, "--- expected\n+++ actual\n"
			 "@@ -1,6 +1,6 @@\n 1\n 2\n-3\n+X\n 4\n 5\n 6\n"
			 "@@ -8,5 +8,6 @@\n 8\n 9\n 10\n-11\n+Y\n 12\n+13\n");
	free(u);
}
END_TEST

START_TEST(test_shortest_script)
{
	/* Myers finds the 2-edit script (delete a, insert c), not a rewrite. */
	char *u = unified("a\nb\nc\nd\n", "b\nc\nd\ne\n", 0);

	ck_assert_str_eq(u, "--- expected\n+++ actual\n@@ -1,4 +1,4 @@\n-a\n b\n c\n d\n+e\n");
	free(u);
}
END_TEST

/* n lines of pseudo-random small numbers (malloc'd). */
static char *noise(unsigned seed, int n, size_t *len)
{
	char *s = malloc((size_t)n * 4 + 1);
	size_t k = 0;

	for (int i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		k += (size_t)sprintf(s + k, "%u\n", (seed >> 16) % 100);
	}
	*len = k;
	return s;
}

START_TEST(test_bounded)
{
	size_t el, al;
	char *e = noise(1, 100000, &el), *a = noise(2, 100000, &al);
	struct diff_opts o = DIFF_OPTS_INIT;
	char *u = diff_unified(e, el, a, al, &o);

	ck_assert_ptr_nonnull(u);
	ck_assert_uint_le(strlen(u), o.max_bytes + 100);
	ck_assert_ptr_nonnull(strstr(u, "(diff truncated at 16384 bytes)\n"));
	free(u);

	/* Past max_d the middle is one replaced block, and the text says so. */
	o.max_d = 10;
	o.max_bytes = 1 << 20;
	u = diff_unified(e, 400, a, 400, &o);
	ck_assert_ptr_nonnull(strstr(u, "(diff limited"));
	free(u);
	free(e);
	free(a);
}
END_TEST

START_TEST(test_long_line_window)
{
	char l1[5001], l2[5001];
	struct diff_first f;

	memset(l1, 'a', 5000);
	l1[5000] = '\0';
	memcpy(l2, l1, sizeof(l2));
	l2[3000] = 'b';
	ck_assert_int_eq(diff_first(l1, 5000, l2, 5000, 0, &f), 0);
	ck_assert_int_eq(f.column, 3001);
	ck_assert_uint_lt(strlen(f.text), 1000);   /* a window, not 5000 bytes */
	ck_assert_ptr_nonnull(strstr(f.text, "expected: \xe2\x80\xa6" "a"));
	free(f.text);

	/* A difference at column 101 of a 200-byte line: the window still
	 * starts at column 1 (no leading ellipsis), the caret under column 101,
	 * and the line is cut after 150 columns. */
	l1[200] = l2[200] = '\0';
	l2[3000] = 'a';
	l2[100] = 'b';
	ck_assert_int_eq(diff_first(l1, 200, l2, 200, 0, &f), 0);
	ck_assert_int_eq(f.column, 101);
	ck_assert_ptr_nonnull(strstr(f.text, "expected: aaaa"));
	ck_assert_ptr_nonnull(strstr(f.text, "a" "\xe2\x80\xa6\n"));
	const char *caret = strrchr(f.text, '^');
	ck_assert_ptr_nonnull(caret);
	const char *bol = caret;
	while (bol > f.text && bol[-1] != '\n')
		bol--;
	ck_assert_int_eq(caret - bol, 12 + 100);
	free(f.text);
}
END_TEST

START_TEST(test_escape)
{
	char *s = escape_visible("a\x01\xff\tb\nc", 7, 1);

	ck_assert_str_eq(s, "a\\x01\\xff\\tb\nc");
	free(s);
	s = escape_visible("x\ny", 3, 0);
	ck_assert_str_eq(s, "x\\x0ay");
	free(s);
}
END_TEST

/* ---- long outputs: the common parts are skipped, not split ---- */

/* n lines "l%05d\n" (7 bytes each) into buf; returns the length. */
static size_t numbered(char *buf, int n)
{
	size_t k = 0;

	for (int i = 1; i <= n; i++)
		k += (size_t)sprintf(buf + k, "l%05d\n", i);
	return k;
}

/* The unified diff of line l (1-based) of n numbered lines replaced by
 * text, with 3 lines of context. */
static void one_hunk(char *out, int n, int l, const char *text)
{
	int from = l > 3 ? l - 3 : 1, to = l + 3 < n ? l + 3 : n;
	char *p = out;

	p += sprintf(p, "--- expected\n+++ actual\n@@ -%d,%d +%d,%d @@\n", from,
		     to - from + 1, from, to - from + 1);
	for (int k = from; k < l; k++)
		p += sprintf(p, " l%05d\n", k);
	p += sprintf(p, "-l%05d\n+%s\n", l, text);
	for (int k = l + 1; k <= to; k++)
		p += sprintf(p, " l%05d\n", k);
}

/* A difference at byte at of 2,000 numbered lines, either side of the
 * blocks the common head (4096, 64 bytes) and tail (64) are skipped by:
 * a byte changed, or where the byte is a '\n', a space before it (no
 * difference under the default rule, one with --exact). */
static void check_at(size_t at)
{
	static char e[14001], a[14002], want[1024], line[16];
	size_t n = numbered(e, 2000), alen = n;
	int l = (int)(at / 7) + 1, nl = e[at] == '\n';
	struct diff_first f;
	char *u;

	memcpy(a, e, n);
	if (nl) {
		memmove(a + at + 1, a + at, n - at);
		a[at] = ' ';
		alen++;
		ck_assert_int_eq(diff_first(e, n, a, alen, 0, &f), 0);
		ck_assert_int_eq(f.line, 0);
		u = unified_n(e, n, a, alen, 0);
		ck_assert_str_eq(u, "");
		free(u);
	} else {
		a[at] = 'X';
	}
	ck_assert_int_eq(diff_first(e, n, a, alen, nl, &f), 0);
	ck_assert_int_eq(f.line, l);
	ck_assert_int_eq(f.column, (int)(at % 7) + 1);
	ck_assert_int_eq(f.ws_only, nl);
	snprintf(line, sizeof(line), "%.*s", 6 + nl, a + (size_t)(l - 1) * 7);
	one_hunk(want, 2000, l, line);
	u = unified_n(e, n, a, alen, nl);
	ck_assert_str_eq(u, want);
	free(u);
	free(f.text);
}

START_TEST(test_block_boundaries)
{
	const size_t head[] = { 0, 6, 63, 64, 65, 4095, 4096, 4097, 8191, 8192 };
	const size_t tail[] = { 1, 2, 63, 64, 65, 66, 128, 129 };

	for (size_t i = 0; i < sizeof(head) / sizeof(*head); i++)
		check_at(head[i]);
	for (size_t i = 0; i < sizeof(tail) / sizeof(*tail); i++)
		check_at(14000 - tail[i]);
}
END_TEST

/* Expected longer or shorter by 10 lines after 4,990 common ones: the
 * count of missing lines and the hunk as on a short output. */
START_TEST(test_long_missing_and_extra)
{
	static char e[36000], want[1024];
	size_t n = numbered(e, 5000), m = 4990 * 7;
	struct diff_first f;
	char *p = want, *u;

	ck_assert_int_eq(diff_first(e, n, e, m, 0, &f), 0);
	ck_assert_int_eq(f.line, 4991);
	ck_assert_str_eq(f.text, "first difference: line 4991: your output ends "
			 "there, 10 more lines were expected\n"
			 "  expected: l04991\n");
	free(f.text);
	p += sprintf(p, "--- expected\n+++ actual\n@@ -4988,13 +4988,3 @@\n"
		     " l04988\n l04989\n l04990\n");
	for (int k = 4991; k <= 5000; k++)
		p += sprintf(p, "-l%05d\n", k);
	u = unified_n(e, n, e, m, 0);
	ck_assert_str_eq(u, want);
	free(u);

	ck_assert_int_eq(diff_first(e, m, e, n, 0, &f), 0);
	ck_assert_int_eq(f.line, 4991);
	ck_assert_str_eq(f.text, "first difference: line 4991: your output goes "
			 "on after the expected last line\n"
			 "  actual:   l04991\n");
	free(f.text);
	u = unified_n(e, m, e, n, 0);
	ck_assert_ptr_nonnull(strstr(u, "@@ -4988,3 +4988,13 @@\n l04988\n"));
	ck_assert_ptr_nonnull(strstr(u, "+l04991\n"));
	ck_assert_ptr_nonnull(strstr(u, "+l05000\n"));
	free(u);
}
END_TEST

/* A missing final newline after 5,000 lines: nothing by default; with
 * --exact, the last line at its end. */
START_TEST(test_long_final_newline)
{
	static char e[36000];
	size_t n = numbered(e, 5000);
	struct diff_first f;
	char *u;

	ck_assert_int_eq(diff_first(e, n, e, n - 1, 0, &f), 0);
	ck_assert_int_eq(f.line, 0);
	ck_assert_int_eq(diff_first(e, n, e, n - 1, 1, &f), 0);
	ck_assert_int_eq(f.line, 5000);
	ck_assert_int_eq(f.column, 7);
	ck_assert_ptr_nonnull(strstr(f.text, "line 5000, at its end: the expected "
				     "output has a newline there, yours does not"));
	free(f.text);
	u = unified_n(e, n, e, n - 1, 1);
	ck_assert_str_eq(u, "--- expected\n+++ actual\n@@ -4997,4 +4997,4 @@\n"
			 " l04997\n l04998\n l04999\n-l05000\n+l05000\n"
			 "\\ No newline at end of file\n");
	free(u);
}
END_TEST

/* Past 2^20 lines a side is cut: a difference beyond is not shown (the
 * comparison alone sees it), one before it is, with the note. */
START_TEST(test_split_cap)
{
	size_t lines = ((size_t)1 << 20) + 3, n = 2 * lines;
	char *e = malloc(n), *a = malloc(n), *u;
	struct diff_first f;

	ck_assert_ptr_nonnull(e);
	ck_assert_ptr_nonnull(a);
	for (size_t i = 0; i < n; i += 2)
		e[i] = 'a', e[i + 1] = '\n';
	memcpy(a, e, n);
	a[n - 4] = 'b';                 /* line 2^20 + 2 */
	ck_assert_int_eq(diff_first(e, n, a, n, 0, &f), 0);
	ck_assert_int_eq(f.line, 0);
	u = unified_n(e, n, a, n, 0);
	ck_assert_str_eq(u, "");
	free(u);
	a[n - 4] = 'a';
	a[4] = 'b';                     /* line 3 */
	ck_assert_int_eq(diff_first(e, n, a, n, 0, &f), 0);
	ck_assert_int_eq(f.line, 3);
	free(f.text);
	u = unified_n(e, n, a, n, 0);
	ck_assert_str_eq(u, "--- expected\n+++ actual\n@@ -1,6 +1,6 @@\n"
			 " a\n a\n-a\n+b\n a\n a\n a\n(diff limited: too many "
			 "lines or changes; the first difference above is exact)\n");
	free(u);
	free(e);
	free(a);
}
END_TEST

/* diff_report is diff_first and diff_unified at once: the same texts, on
 * short and long outputs, under both rules. */
START_TEST(test_report)
{
	static char e[36000], a[36000];
	size_t n = numbered(e, 5000);
	const struct { const char *e, *a; size_t el, al; } pairs[] = {
		{ "a\nb\nc\n", "a\nB\nc\n", 6, 6 },
		{ "a\nb\n", "a\nb  \n\n", 4, 7 },
		{ "1\n2\n3\n", "1\n2\n", 6, 4 },
		{ e, a, n, n },
		{ e, a, n, n - 70 },
	};

	memcpy(a, e, n);
	a[20000] = 'X';
	for (size_t i = 0; i < sizeof(pairs) / sizeof(*pairs); i++)
		for (int exact = 0; exact < 2; exact++) {
			struct diff_opts o = DIFF_OPTS_INIT;
			struct diff_first f, g;
			char *u, *v;

			o.exact = exact;
			ck_assert_int_eq(diff_report(pairs[i].e, pairs[i].el, pairs[i].a,
						     pairs[i].al, &o, &f, &u), 0);
			ck_assert_int_eq(diff_first(pairs[i].e, pairs[i].el, pairs[i].a,
						    pairs[i].al, exact, &g), 0);
			v = unified_n(pairs[i].e, pairs[i].el, pairs[i].a,
				      pairs[i].al, exact);
			ck_assert_int_eq(f.line, g.line);
			ck_assert_int_eq(f.column, g.column);
			ck_assert_int_eq(f.ws_only, g.ws_only);
			ck_assert_pstr_eq(f.text, g.text);
			ck_assert_str_eq(u, v);
			free(f.text);
			free(g.text);
			free(u);
			free(v);
		}
}
END_TEST

Suite *make_diff_suite(void)
{
	Suite *s = suite_create("diff");
	TCase *tc = tcase_create("diff");

	tcase_add_test(tc, test_equal);
	tcase_add_test(tc, test_one_changed_line);
	tcase_add_test(tc, test_caret_column);
	tcase_add_test(tc, test_whitespace_made_visible);
	tcase_add_test(tc, test_missing_and_extra_lines);
	tcase_add_test(tc, test_missing_final_newline_exact);
	tcase_add_test(tc, test_two_hunks);
	tcase_add_test(tc, test_shortest_script);
	tcase_add_test(tc, test_bounded);
	tcase_add_test(tc, test_long_line_window);
	tcase_add_test(tc, test_escape);
	tcase_add_test(tc, test_block_boundaries);
	tcase_add_test(tc, test_long_missing_and_extra);
	tcase_add_test(tc, test_long_final_newline);
	tcase_add_test(tc, test_split_cap);
	tcase_add_test(tc, test_report);
	tcase_set_timeout(tc, 20);
	suite_add_tcase(s, tc);
	return s;
}
