#ifndef WG_VERDICT_H
#define WG_VERDICT_H

/*
 * verdict: the eight outcomes of one case, their names and colours, and the
 * rule that turns a runner result into one of them.
 *
 * The rule, in this order (first match wins):
 *   IE   the harness failed (run_command returned -1), or the program
 *        could not be started for a reason of the grader's (a sandbox step,
 *        a missing file): the grader's fault, never the student's. Two
 *        exec failures are the program's own: the kernel refusing the file
 *        (ENOEXEC: a text file, another machine's binary) is RTE "cannot
 *        run", and no room to load it under the memory limit (ENOMEM) is
 *        MLE.
 *   OLE  the runner killed the program at the output cap (stdout, or
 *        stderr past the same number of bytes).
 *   TLE  CPU limit exceeded (limit "cpu"), else the wall deadline passed
 *        (limit "wall").
 *   MLE  certain when the sandbox's memory cgroup reports an OOM kill
 *        (run_result.oom_killed); otherwise best effort, under RLIMIT_AS =
 *        the memory limit: the program died
 *        (a signal or a non-zero exit) AND either its max RSS reached 90 %
 *        of the limit, or its stderr tail shows an allocation failure
 *        ("out of memory", "cannot allocate", "bad_alloc", "memory
 *        exhausted", "failed to allocate", "allocation failed").
 *        A program that checks malloc and exits non-zero quietly far below
 *        the limit stays RTE.
 *   RTE  any other signal (named, e.g. SIGSEGV) or non-zero exit status.
 *   AC / WA  by comparing the output (compare.h), decided by the caller.
 * CE is set by the build step, never by this rule.
 *
 * Errors: none of these functions can fail; names past the table are
 * "?", "unknown verdict", "" or NULL as stated below.
 */

#include <stddef.h>
#include <stdio.h>

#include "grader/run/runner.h"

enum verdict {
	VERDICT_AC,
	VERDICT_WA,
	VERDICT_TLE,
	VERDICT_MLE,
	VERDICT_OLE,
	VERDICT_RTE,
	VERDICT_CE,
	VERDICT_IE,
	VERDICT_COUNT
};

enum verdict_limit {
	VERDICT_LIMIT_NONE,
	VERDICT_LIMIT_CPU,
	VERDICT_LIMIT_WALL
};

/* Bytes of a verdict's one-line detail, NUL included (struct verdict_info,
 * struct judge_result): longer explanations are cut. */
#define VERDICT_DETAIL_MAX 320

/* Outcome of verdict_classify(): VERDICT_AC means "ran cleanly, compare the
 * output now". detail is a one-line explanation (empty for AC). */
struct verdict_info {
	enum verdict verdict;
	enum verdict_limit limit;  /* TLE only */
	char detail[VERDICT_DETAIL_MAX];
};

/* Minimum RSS, in percent of the memory limit, for a death to count as MLE. */
#define VERDICT_MLE_RSS_PERCENT 90

/* harness_rc: what run_command() returned. cpu_sec/wall_sec/mem_bytes/
 * output_bytes: the limits the case ran under (for the messages and the MLE
 * rule; 0 = none). */
struct verdict_limits {
	double cpu_sec, wall_sec;
	unsigned long long mem_bytes, output_bytes;
	unsigned long long image_bytes; /* the program's loaded size (the
	                                   sum of its ELF PT_LOAD segments,
	                                   static arrays included); 0: unknown */
};

void verdict_classify(int harness_rc, const struct run_result *r,
		      const struct verdict_limits *lim,
		      struct verdict_info *out);

const char *verdict_code(enum verdict v);       /* "AC" */
const char *verdict_long_name(enum verdict v);  /* "accepted" */
/* The one line that explains every code, for a summary that uses them:
 * "Verdicts: AC accepted, WA wrong answer, ..., IE internal error (the
 * grader's fault)\n". */
void verdict_print_legend(FILE *f);
const char *verdict_color(enum verdict v);      /* ANSI SGR sequence */
/* "Accepted": the title-case name shown by exporters (Gradescope); NULL
 * past the table. */
const char *verdict_title(enum verdict v);
/* VERDICT_COUNT when code names no verdict. */
enum verdict verdict_from_code(const char *code);
/* Whether code (a report's "verdict", may be NULL) is v's code. */
int verdict_is(const char *code, enum verdict v);
const char *verdict_limit_name(enum verdict_limit l); /* "cpu", "wall", NULL */

#endif
