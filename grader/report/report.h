#ifndef WG_REPORT_H
#define WG_REPORT_H

/*
 * report: what grade prints and writes.
 *
 * The terminal report has, per submission, one line per case (name,
 * category, verdict, CPU time, points), the subtotal of every category and
 * the total, then one paragraph per case that was not accepted: its detail
 * and, for a wrong answer, the first difference (--verbose: the whole
 * bounded diff and the stderr tail), the input line that the differing
 * line answers (when the suite has a line_map), the input file and a shell
 * command that reproduces the run. In the student view (the default) a
 * hidden case's diff is not shown; the staff view (--staff) shows all.
 * When the build failed there is no table: the compiler's messages, then
 * REPORT_CE_LINE (REPORT_CE_LINE_STAFF in the staff view). The staff view
 * names the submission's files by their real paths in the compiler's
 * messages ("subs/alice/main.c:3:1", not the build folder's "./main.c").
 *
 * The JSON report (docs/grade.md, "The JSON report") always holds every diff, hidden cases'
 * too: it is the staff's record. Each case carries its "visibility", so an
 * exporter meant for students (Gradescope) leaves hidden diffs out.
 * An IE case has "excluded": true and its points are left out of the
 * submission's max_score ("excluded_points" says how many).
 *
 * Errors: report_write_json: -1 and a message in err; report_json: NULL
 * when out of memory; report_print cannot fail (the caller checks
 * ferror).
 */

#include <stdint.h>
#include <stdio.h>
#include <jansson.h>

struct strbuf;

#include "grader/run/build.h"
#include "grader/judge/judge.h"
#include "grader/run/sandbox.h"
#include "grader/judge/score.h"
#include "grader/judge/suite.h"

/* The last line a student reads when the build failed (the terminal report
 * and Gradescope's summary): no case ran, so there is no table to show. */
#define REPORT_CE_LINE "your program did not compile: no case was run"
/* The same in the staff view (--staff), which speaks to staff. */
#define REPORT_CE_LINE_STAFF "did not compile: no case was run"

struct report_sub {
	const char *path;        /* as given on the command line */
	int is_dir;              /* built from sources: 1 a directory, 2 one
	                            .c file (build.h) */
	enum build_status build; /* when is_dir */
	char *build_log;         /* when is_dir (malloc'd) */
	char build_reason[160];  /* a failed build's own reason (build.h), or "" */
	struct judge_result *cases;   /* one per suite case */
	struct score_total total;
	uint64_t image_bytes;    /* the program's loaded size (build.h) */
};

struct report_opts {
	int color, quiet, verbose, staff, exact;
	double cpu_sec, wall_sec;
	long memory_mib, output_kib;
	long stack_mib, processes, tmp_mib;
	const struct sandbox_layers *sandbox;   /* NULL: not recorded */
	const char *leaks;       /* with sandbox: sandbox_leaks' lines, the
	                            ways hidden tests may leak ("": none) */
	const struct build_limits *build;   /* the compiler's; NULL: not shown */
};

void report_print(FILE *f, const struct suite *s, const struct report_sub *subs,
		  size_t n, const struct report_opts *o);

/* The JSON report; a new reference (json_decref), NULL when out of memory. */
json_t *report_json(const struct suite *s, const struct report_sub *subs,
		    size_t n, const struct report_opts *o);

/* Writes the report to path (indented, then a newline). Returns 0, or -1
 * with err set. */
int report_write_json(const json_t *report, const char *path,
		      struct strbuf *err);

#endif
