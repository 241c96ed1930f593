#ifndef WG_JUDGE_H
#define WG_JUDGE_H

/*
 * judge: run one program on one case and decide.
 *
 * The case's input file is fed through the stdin pipe as it is read (the
 * child never opens a file of the suite; runner.h's input_path); stdout is
 * captured up to the output limit; the verdict comes from
 * verdict_classify() and, for a clean run, from cmp_equal() against the
 * expected output, read then and freed with the case. A wrong answer gets
 * its diff text: the first difference (diff_first) followed by the
 * bounded unified diff (diff_unified); with a line map, the input line
 * that answered the first differing line, read from the input mapped for
 * that moment (only its pages up to that line are touched). So what a case
 * holds is its expected output and the program's, never its input, and
 * nothing outlives the case but the result's texts.
 *
 * Errors: cannot fail: the grader's own failure is the case's verdict, IE,
 * with the reason in its detail.
 */

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "grader/judge/diff.h"
#include "grader/judge/suite.h"
#include "grader/run/runner.h"
#include "grader/judge/verdict.h"

/* Bytes of an input line kept in judge_result.input_line. */
#define JUDGE_INPUT_LINE_MAX 100

struct judge_config {
	struct run_limits lim;   /* per case */
	int exact;
	struct diff_opts diff;   /* diff.exact == exact */
	const struct suite_line_map *line_map;	/* NULL: none (suite.h) */
};

/* One case's files, read when the case runs. */
struct judge_data {
	const char *in_path, *out_path;
};

struct judge_result {
	enum verdict verdict;
	enum verdict_limit limit;
	char detail[VERDICT_DETAIL_MAX];   /* verdict_info's, then "output differs" */
	int ran;                 /* the program ran (times below are valid) */
	long cpu_ms, wall_ms, max_rss_kb;
	int signaled, exit_code, term_signal;
	long diff_line;          /* first differing line (WA), else 0 */
	char *first;             /* first-difference text (WA), malloc'd */
	char *diff;              /* first + unified diff (WA), malloc'd */
	char *stderr_tail;       /* escaped, malloc'd, may be NULL */
	long input_lo, input_hi; /* input line(s) that answered diff_line
	                            (line map; WA), else 0 */
	char *input_line;        /* line input_lo, escaped and cut to
	                            JUDGE_INPUT_LINE_MAX bytes ("..." added
	                            when cut), malloc'd; NULL with input_lo 0 */
	int score;               /* the case's points when AC, else 0 */
};

/* Runs prog (cwd = dir, as uid/gid; through slot sbx's keeper when not
 * NULL, sandbox.h) on the case and fills *out. Never
 * fails: a failure of the grader itself (a case file it cannot read among
 * them) becomes the verdict IE.
 * image_bytes: build_image_size(prog), for the MLE rule (0: unknown). */
void judge_case(const struct judge_config *cfg, const char *prog,
		uint64_t image_bytes, const char *dir, uid_t uid, gid_t gid,
		struct sandbox_slot *sbx, const struct judge_data *data, int points,
		struct judge_result *out);

/* Frees the texts of *r. */
void judge_result_release(struct judge_result *r);

#endif
