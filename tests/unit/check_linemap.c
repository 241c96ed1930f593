/*
 * linemap: from an expected output line back to the input line that
 * answered it, with the exercise's rule (active answers nothing, aos two
 * lines, a failure one "error: " line), worked by hand on small inputs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grader/judge/linemap.h"
#include "tests/unit/suite_fixture.h"
#include "grader/run/scratch.h"
#include "reference/cmd.h"
#include "wg_check.h"

static char hash[] = "#", prefix[] = "error: ", active[] = "active", aos[] = "aos";
static char *names[] = { active, aos };
static long counts[] = { 0, 2 };
static const struct suite_line_map rule = {
	.comment = hash, .error_prefix = prefix, .default_lines = 1,
	.commands = names, .lines = counts, .ncommands = 2,
};

/* The input line answering out_line, or -1; *hi for the range's end. */
static long find(const struct suite_line_map *m, const char *in,
		 const char *out, long out_line, long *hi)
{
	long lo, h;

	if (linemap_find(m, in, strlen(in), out, strlen(out), out_line, &lo, &h) < 0)
		return -1;
	if (hi)
		*hi = h;
	return lo;
}

static const char in1[] =
	"# a comment\n"                 /* 1 */
	"strided 0 1\n"                 /* 2: out 1 */
	"\n"                            /* 3 */
	"active 7   # partial\n"        /* 4: nothing */
	"aos 12 4 4\n"                  /* 5: out 2, 3 */
	"aos 4 4 4\n"                   /* 6: out 4 (error) */
	"active 40\n"                   /* 7: out 5 (error) */
	"shared 0 1#x\n"                /* 8: out 6 */
	"Strided 0 1\n";                /* 9: out 7 (error) */
static const char out1[] =
	"strided base=0 ...\n"
	"aos struct=12 ...\n"
	"soa field=4 ...\n"
	"error: aos: STRUCT_SIZE FIELD_OFFSET FIELD_SIZE\n"
	"error: active: 1-32\n"
	"shared base=0 ...\n"
	"error: unknown command Strided\n";

START_TEST(test_rule)
{
	static const long want[] = { 0, 2, 5, 5, 6, 7, 8, 9 };
	long hi = 0;

	for (long k = 1; k <= 7; k++) {
		ck_assert_int_eq(find(&rule, in1, out1, k, &hi), want[k]);
		ck_assert_int_eq(hi, want[k]);
	}
	/* Past the expected output: the diff's extra lines have no input. */
	ck_assert_int_eq(find(&rule, in1, out1, 8, NULL), -1);
	ck_assert_int_eq(find(&rule, in1, out1, 0, NULL), -1);
	ck_assert_int_eq(find(NULL, in1, out1, 1, NULL), -1);
}
END_TEST

/* "active 5; active 40": which one failed is not in the output; the answer
 * is the whole run, and the lines after it still map exactly. */
START_TEST(test_ambiguous_run)
{
	const char *in = "active 5\n\nactive 40\nstrided 0 1\n";
	const char *out = "error: active: 1-32\nstrided ...\n";
	long hi = 0;

	ck_assert_int_eq(find(&rule, in, out, 1, &hi), 1);
	ck_assert_int_eq(hi, 3);
	ck_assert_int_eq(find(&rule, in, out, 2, &hi), 4);
	ck_assert_int_eq(hi, 4);
	/* As many failures as commands: each one is placed. */
	in = "active\nactive 40\nactive 5\nstrided 0 1\n";
	out = "error: active: 1-32\nerror: active: 1-32\nstrided ...\n";
	ck_assert_int_eq(find(&rule, in, out, 1, &hi), 1);
	ck_assert_int_eq(hi, 2);
	ck_assert_int_eq(find(&rule, in, out, 2, &hi), 2);
	ck_assert_int_eq(hi, 3);
	in = "active 0\nactive 40\nstrided 0 1\n";
	ck_assert_int_eq(find(&rule, in, out, 1, &hi), 1);
	ck_assert_int_eq(hi, 1);
	ck_assert_int_eq(find(&rule, in, out, 2, &hi), 2);
	ck_assert_int_eq(hi, 2);
	ck_assert_int_eq(find(&rule, in, out, 3, &hi), 3);
	/* An error line of another command is not active's. */
	in = "active 5\nstrided 0\n";
	out = "error: strided: BASE STRIDE [SIZE 1-16]\n";
	ck_assert_int_eq(find(&rule, in, out, 1, &hi), 2);
}
END_TEST

/* Without an error prefix no command fails; without a comment marker '#'
 * is a token; the last line needs no newline. */
START_TEST(test_plain_rule)
{
	struct suite_line_map m = { .default_lines = 1 };
	const char *in = "a\n# b\nc";
	const char *out = "1\n2\n3";

	ck_assert_int_eq(find(&m, in, out, 2, NULL), 2);
	ck_assert_int_eq(find(&m, in, out, 3, NULL), 3);
	m.default_lines = 2;
	ck_assert_int_eq(find(&m, in, out, 3, NULL), 2);
	/* The output ends before the input says it should. */
	ck_assert_int_eq(find(&m, "a\nb\nc\n", "1\n2\n3\n", 4, NULL), -1);
}
END_TEST

/* The rule against the truth, on every case of both suites: the reference's
 * interpreter, fed one input line at a time, says how many output lines
 * each one answered. Every expected line must map to the input line that
 * printed it (inside the range when ambiguous). linemap_find reads the
 * input from its start for each line asked (the grader asks once per wrong
 * answer), so for a case of thousands of output lines (big-output: 40000)
 * the first and last SAMPLE_EDGE lines and every SAMPLE_STRIDE-th are
 * checked rather than all. */
#define SAMPLE_EDGE   20
#define SAMPLE_STRIDE 997
static int sampled(long k, long lines)
{
	return k <= SAMPLE_EDGE || k > lines - SAMPLE_EDGE || k % SAMPLE_STRIDE == 0;
}

static void check_suite_dir(const char *name, int *ambiguous)
{
	char dir[4096], err[4400];
	const char *root = getenv("WG_ROOT");
	struct suite s;

	snprintf(dir, sizeof dir, "%s/%s", root ? root : ".", name);
	ck_assert_msg(load(&s, dir, err, sizeof err) == 0, "%s", err);
	ck_assert_ptr_nonnull(s.line_map);
	for (size_t c = 0; c < s.ncases; c++) {
		size_t in_len, out_len, at = 0;
		char *in = scratch_read_file(s.cases[c].in_path, &in_len);
		char *out = scratch_read_file(s.cases[c].out_path, &out_len);
		long *first = calloc(out_len + 2, sizeof(*first)), lines = 0, lineno = 0;
		struct cmd_state st;

		ck_assert(in && out && first);
		cmd_init(&st);
		while (at < in_len) {
			const char *nl = memchr(in + at, '\n', in_len - at);
			size_t len = nl ? (size_t)(nl - in - at) : in_len - at;

			cmd_line(&st, in + at, len);
			lineno++;
			for (size_t k = 0; k < st.out.len; k++)
				if (st.out.buf[k] == '\n')
					first[++lines] = lineno;
			st.out.len = 0;
			at += len + 1;
		}
		cmd_free(&st);
		for (long k = 1; k <= lines; k++) {
			long lo, hi;

			if (!sampled(k, lines))
				continue;

			ck_assert_msg(linemap_find(s.line_map, in, in_len, out, out_len,
						   k, &lo, &hi) == 0,
				      "%s: line %ld not placed", s.cases[c].name, k);
			ck_assert_msg(lo <= first[k] && first[k] <= hi,
				      "%s: expected line %ld: input line %ld, map says %ld-%ld",
				      s.cases[c].name, k, first[k], lo, hi);
			*ambiguous += lo != hi;
		}
		free(first);
		free(in);
		free(out);
	}
	suite_free(&s);
}

START_TEST(test_every_case)
{
	int ambiguous = 0;

	check_suite_dir("public-tests", &ambiguous);
	check_suite_dir("hidden-tests", &ambiguous);
	/* One run with a failure the output cannot place: pw-failed-active's
	 * "active 8; active 0". */
	ck_assert_int_eq(ambiguous, 1);
}
END_TEST

Suite *make_linemap_suite(void)
{
	Suite *s = suite_create("linemap");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_rule);
	tcase_add_test(tc, test_ambiguous_run);
	tcase_add_test(tc, test_plain_rule);
	/* Every case of both suites, 80 MB of input with the generated ones. */
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_every_case);
	suite_add_tcase(s, tc);
	return s;
}
