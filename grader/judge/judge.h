#ifndef WG_JUDGE_H
#define WG_JUDGE_H

/*
 * judge: run one program on one case and decide.
 *
 * The case's input file is fed through the stdin pipe as it is read (the
 * child never opens a file of the suite; spawn.h's input_path); stdout is
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
 * A run that failed before its end (RTE, TLE, OLE, MLE) keeps the first
 * lines it wrote (output_head) and, for RTE and TLE, how far into the
 * input it got: the program is run again on shorter starts of the input
 * (the first k lines, by bisection, at most JUDGE_PROBE_RUNS runs; a TLE's
 * at a CPU limit of at most JUDGE_PROBE_CPU_SEC) and stop_line is the
 * last line of the shortest start that fails the same way. Its output is
 * no help there: a crash loses what stdio had buffered. The search runs
 * only where judge_data.probe asks (grade: visible cases, whose details a
 * student sees), so a program that fails every hidden case costs no more
 * than one run each.
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
/* The runs and the CPU limit of the search for stop_line. */
#define JUDGE_PROBE_RUNS    12
#define JUDGE_PROBE_CPU_SEC 0.25
/* Lines (and bytes) of output_head. */
#define JUDGE_HEAD_LINES    5
#define JUDGE_HEAD_BYTES    600

struct judge_config {
	struct run_limits lim;   /* per case */
	int exact;
	struct diff_opts diff;   /* diff.exact == exact */
	const struct suite_line_map *line_map;	/* NULL: none (suite.h) */
};

/* One case's files, read when the case runs. */
struct judge_data {
	const char *in_path, *out_path;
	int probe;               /* RTE/TLE: search for stop_line */
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
	char *output_head;       /* RTE/TLE/OLE/MLE: the first lines of its
	                            stdout, escaped, malloc'd, may be NULL */
	long output_lines;       /* the lines it wrote (a last partial one too) */
	long stop_line;          /* RTE/TLE: the input line (1-based) whose
	                            reading makes it fail; 0 unknown */
	char *stop_text;         /* line stop_line as input_line is kept;
	                            NULL with stop_line 0 */
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
