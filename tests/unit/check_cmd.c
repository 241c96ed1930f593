/*
 * The command interpreter: messages, their precedence and the state rules
 * of the contract. Every expected line is written out from the contract.
 */
#include "tests/unit/wg_check.h"
#include <stdlib.h>
#include <string.h>

#include "reference/cmd.h"

/* Feeds the lines of `in` (separated by '\n') and returns the output. */
static char *run(const char *in)
{
	static char buf[8192];
	struct cmd_state st;

	cmd_init(&st);
	for (const char *p = in; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		ck_assert_int_eq(cmd_line(&st, p, len), 0);
		p += len + (nl != NULL);
	}
	ck_assert_uint_lt(st.out.len, sizeof(buf));
	memcpy(buf, st.out.buf ? st.out.buf : "", st.out.len);
	buf[st.out.len] = '\0';
	cmd_free(&st);
	return buf;
}

#define EXPECT(in, out) ck_assert_str_eq(run(in), out)

START_TEST(global_loads)
{
	EXPECT("strided 4 1\n",
	       "strided base=4 stride=1 size=4: 32 threads, 5 sectors, 2 lines, "
	       "requested 128 B, moved 160 B, efficiency 80.0%\n");
	/* One thread, two bytes: 2/32 = 6.25% rounds half up to 6.3. */
	EXPECT("active 1\nstrided 0 0 2\n",
	       "strided base=0 stride=0 size=2: 1 thread, 1 sector, 1 line, "
	       "requested 2 B, moved 32 B, efficiency 6.3%\n");
	/* Numbers print in decimal as parsed: hex, leading zeros, -0. */
	EXPECT("active 2\nstrided 0x20 010 -0x1\n",
	       "error: strided: BASE STRIDE [SIZE 1-16]\n");
	EXPECT("active 2\nstrided 0x20 010 01\n",
	       "strided base=32 stride=10 size=1: 2 threads, 1 sector, 1 line, "
	       "requested 2 B, moved 32 B, efficiency 6.3%\n");
	EXPECT("active 1\nstrided -0 0\n",
	       "strided base=0 stride=0 size=4: 1 thread, 1 sector, 1 line, "
	       "requested 4 B, moved 32 B, efficiency 12.5%\n");
}
END_TEST

START_TEST(aos_two_lines)
{
	/* 2 threads, struct 256, field at 100 of 60 bytes: [100,160) and
	 * [356,416): sectors 3,4 and 11,12 -> 4; lines 0,1 and 2,3 -> 4.
	 * soa: [0,120): sectors 0..3, line 0. */
	EXPECT("active 2\naos 256 100 60\n",
	       "aos struct=256 offset=100 field=60: 2 threads, 4 sectors, "
	       "4 lines, requested 120 B, moved 128 B, efficiency 93.8%\n"
	       "soa field=60: 2 threads, 4 sectors, 1 line, requested 120 B, "
	       "moved 128 B, efficiency 93.8%\n");
	EXPECT("aos 4 1 4\n", "error: aos: STRUCT_SIZE FIELD_OFFSET FIELD_SIZE "
			      "(the field must fit in the struct)\n");
	EXPECT("aos 4 0 0\n", "error: aos: STRUCT_SIZE FIELD_OFFSET FIELD_SIZE "
			      "(the field must fit in the struct)\n");
	EXPECT("aos 4 0\n", "error: aos: STRUCT_SIZE FIELD_OFFSET FIELD_SIZE "
			    "(the field must fit in the struct)\n");
}
END_TEST

START_TEST(gather_order)
{
	/* Usage first, even with the wrong count and a negative address. */
	EXPECT("active 2\ngather 4 -1 x\n", "error: gather: SIZE ADDR...\n");
	EXPECT("active 2\ngather 17 0 4\n", "error: gather: SIZE ADDR...\n");
	EXPECT("gather\n", "error: gather: SIZE ADDR...\n");
	/* Then the count (singular for 1), before the signs. */
	EXPECT("active 1\ngather 4 -1 -2\n", "error: gather: need 1 address\n");
	EXPECT("active 3\ngather 4\n", "error: gather: need 3 addresses\n");
	/* Then the signs. */
	EXPECT("active 2\ngather 4 0 -0x4\n",
	       "error: gather: addresses must be >= 0\n");
	EXPECT("active 2\ngather 16 0 8\n",
	       "gather size=16: 2 threads, 1 sector, 1 line, requested 32 B, "
	       "moved 32 B, efficiency 100.0%\n");
}
END_TEST

START_TEST(banks_output)
{
	EXPECT("shared 0 2\n", "shared base=0 stride=2: 32 threads, 2 passes, "
			       "2-way conflict on bank 0\n");
	/* 4 threads, stride 32 from word 3: all in bank 3, 4 words. */
	EXPECT("active 4\nshared 3 32\n",
	       "shared base=3 stride=32: 4 threads, 4 passes, 4-way conflict "
	       "on bank 3\n");
	/* tile 2, pad 0, 4 threads: words 0, 2, 1, 3 -> no conflict. */
	EXPECT("active 4\ntranspose 2 0\n",
	       "transpose tile=2 pad=0: 4 threads, 1 pass, no conflict\n");
	/* tile 16 pad 0: x = t mod 16, y = t div 16 (0 or 1); word 16x + y
	 * lands in bank 0, 1, 16 or 17 by the parities of x and y: 8 distinct
	 * words in each -> 8-way, lowest bank 0. */
	EXPECT("transpose 16 0\n",
	       "transpose tile=16 pad=0: 32 threads, 8 passes, 8-way "
	       "conflict on bank 0\n");
	/* tile 8 pad 1: word 9x + y, x < 8, y < 4: x = 0..3 give 0..30
	 * (banks 0..30 once), x = 4..6 give banks 4..7, 13..16, 22..25, and
	 * x = 7 gives 63..66, banks 31, 0, 1, 2: banks 0-2 hold two words
	 * each -> 2-way, lowest bank 0. */
	EXPECT("transpose 8 1\n",
	       "transpose tile=8 pad=1: 32 threads, 2 passes, 2-way "
	       "conflict on bank 0\n");
	EXPECT("transpose 65 0\n",
	       "error: transpose: TILE PAD (TILE 1-64, PAD 0-8)\n");
	EXPECT("transpose 4 9\n",
	       "error: transpose: TILE PAD (TILE 1-64, PAD 0-8)\n");
	EXPECT("shared 1 -1\n", "error: shared: BASE_WORD STRIDE_WORDS\n");
}
END_TEST

START_TEST(active_state)
{
	/* A failed active leaves the count at 3. */
	EXPECT("active 3\nactive 33\nactive 0\nactive 1 2\nactive\n"
	       "shared 0 0\n",
	       "error: active: 1-32\nerror: active: 1-32\n"
	       "error: active: 1-32\nerror: active: 1-32\n"
	       "shared base=0 stride=0: 3 threads, 1 pass, no conflict\n");
	EXPECT("active 0x1\nshared 0 0\n",
	       "shared base=0 stride=0: 1 thread, 1 pass, no conflict\n");
}
END_TEST

START_TEST(lines_without_output)
{
	EXPECT("\n# comment\n \t \r\n#strided 0 1\n", "");
	EXPECT("strided 0 1 # trailing\r\n",
	       "strided base=0 stride=1 size=4: 32 threads, 4 sectors, 1 line, "
	       "requested 128 B, moved 128 B, efficiency 100.0%\n");
}
END_TEST

START_TEST(unknown_and_counts)
{
	EXPECT("Strided 0 1\n", "error: unknown command Strided\n");
	EXPECT("x#y\n", "error: unknown command x\n");
	EXPECT("strided 0\n", "error: strided: BASE STRIDE [SIZE 1-16]\n");
	EXPECT("strided 0 1 4 4\n", "error: strided: BASE STRIDE [SIZE 1-16]\n");
	EXPECT("strided 0 1 +4\n", "error: strided: BASE STRIDE [SIZE 1-16]\n");
	EXPECT("strided 1e3 1\n", "error: strided: BASE STRIDE [SIZE 1-16]\n");
	EXPECT("strided 281474976710656 1\n",
	       "error: strided: BASE STRIDE [SIZE 1-16]\n");
	EXPECT("shared 0\n", "error: shared: BASE_WORD STRIDE_WORDS\n");
	EXPECT("transpose 1 2 3\n",
	       "error: transpose: TILE PAD (TILE 1-64, PAD 0-8)\n");
}
END_TEST

START_TEST(nul_bytes_do_not_crash)
{
	struct cmd_state st;
	const char line[] = { 's', 'h', 'a', 'r', 'e', 'd', '\0', ' ', '1' };

	cmd_init(&st);
	ck_assert_int_eq(cmd_line(&st, line, sizeof(line)), 0);
	ck_assert_uint_gt(st.out.len, 0);
	cmd_free(&st);
}
END_TEST

Suite *make_cmd_suite(void)
{
	Suite *s = suite_create("cmd");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, global_loads);
	tcase_add_test(tc, aos_two_lines);
	tcase_add_test(tc, gather_order);
	tcase_add_test(tc, banks_output);
	tcase_add_test(tc, active_state);
	tcase_add_test(tc, lines_without_output);
	tcase_add_test(tc, unknown_and_counts);
	tcase_add_test(tc, nul_bytes_do_not_crash);
	suite_add_tcase(s, tc);
	return s;
}
