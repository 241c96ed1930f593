#ifndef WG_REPORT_KEYS_H
#define WG_REPORT_KEYS_H
/*
 * keys: the names in grade's JSON report, written by report.c and read by
 * the exporters (junit.c, gradescope.c, html.c) through report_read.h. A
 * name spelled here once cannot drift between the writer and a reader.
 *
 * String literals (macros), so that they also go into json_pack()'s
 * argument lists and concatenate with other literals.
 *
 * The report's shape (docs/grade.md, "The JSON report", is the full reference):
 *
 *   { suite, suite_dir, grader_version, exact, view: "staff"|"student",
 *     limits: { cpu_seconds, wall_seconds, memory_mib, output_kib,
 *               stack_mib, processes, tmp_mib },
 *     sandbox: null | { uid_switch, ..., missing: [...], tmp_sweep,
 *               swept: [...], hidden_tests_may_leak, leaks: [...] },
 *     build_limits (only for sources): { cpu_seconds, ... },
 *     submissions: [
 *       { submission, score, max_score, excluded_points,
 *         build: { status: "none"|"ok"|"failed"|"error", log, reason },
 *         categories: [ { category, score, max_score, hint? } ],
 *         verdicts: { "AC": n, ... },
 *         cases: [
 *           { name, category, visibility: "visible"|"hidden", verdict,
 *             score, max_score, cpu_ms, wall_ms, max_rss_kb,
 *             signal | exit_code, detail, limit?, diff, stderr_tail,
 *             diff_line?, excluded? } ] } ] }
 *
 * grade batch adds to a submission, in its class page rows: student,
 * status, error (RK_STUDENT...). Batch's own names (summary.json, the
 * keys it adds to a student's report) are grader/cli/batch_keys.h's.
 * grade --suite-report-html adds "suite_report" (RK_SUITE_REPORT): the
 * suite report below.
 *
 * The suite report (suitereport.h, written by suitereport.c, read by
 * suitereport_print.c, html_suite.c and grade's exit status; docs/suites.md,
 * "Suite reports", is the reference), its names SRK_*:
 *
 *   { schema, suite, suite_dir, wrong_dir,
 *     summary: { solutions, cases, killed, unbuilt, survivors, fragile,
 *                redundant_cases, errors, min_kills, max_kills },
 *     cases: [ { name, category, kills, sole_kills } ],
 *     redundant: [ case name ],
 *     categories: [ { category, cases, killed, only, redundant_cases } ],
 *     families: [ { family, solutions, killed, unbuilt, fragile,
 *                   survivors: [ name ] } ],
 *     solutions: [ { name, family, build, kills, killed_by: [ case ] } ],
 *     matrix: { cases: [ name ], rows: [ { solution, verdicts, kills } ] },
 *     survivors: [ name ], fragile: [ { solution, case } ],
 *     unbuilt: [ name ], errors: [ { solution, case } ] }
 *
 * Errors: none: names only, no functions.
 */

/* The top level. */
#define RK_SUITE           "suite"
#define RK_SUITE_DIR       "suite_dir"
#define RK_GRADER_VERSION  "grader_version"
#define RK_EXACT           "exact"
#define RK_VIEW            "view"
/* A class page's (html.h): its texts cut to what a class of 1,000 can hold. */
#define RK_PAGE_COMPACT    "page_compact"
#define RK_LIMITS          "limits"
#define RK_SANDBOX         "sandbox"
#define RK_BUILD_LIMITS    "build_limits"
#define RK_SUBMISSIONS     "submissions"

/* "view" values. */
#define RK_VIEW_STAFF      "staff"
#define RK_VIEW_STUDENT    "student"

/* "limits" and "build_limits". */
#define RK_CPU_SECONDS     "cpu_seconds"
#define RK_WALL_SECONDS    "wall_seconds"
#define RK_MEMORY_MIB      "memory_mib"
#define RK_OUTPUT_KIB      "output_kib"
#define RK_STACK_MIB       "stack_mib"
#define RK_PROCESSES       "processes"     /* also in "sandbox" */
#define RK_TMP_MIB         "tmp_mib"
#define RK_FILE_SIZE_MIB   "file_size_mib"

/* "sandbox". */
#define RK_UID_SWITCH      "uid_switch"
#define RK_USER_NAMESPACE  "user_namespace"
#define RK_MOUNT_NAMESPACE "mount_namespace"
#define RK_PRIVATE_TMP     "private_tmp"
#define RK_MINIMAL_ROOT    "minimal_root"
#define RK_BUILD_VIEW      "build_view"
#define RK_IPC_NAMESPACE   "ipc_namespace"
#define RK_NETWORK_NAMESPACE "network_namespace"
#define RK_PID_NAMESPACE   "pid_namespace"
#define RK_PRIVATE_PROC    "private_proc"
#define RK_SECCOMP         "seccomp"
#define RK_CGROUP          "cgroup"
#define RK_CGROUP_CONTROLS "cgroup_controls"
#define RK_CHILDREN_CPU    "children_cpu"
#define RK_MEMORY_LIMIT    "memory_limit"  /* "cgroup" or "address space" */
#define RK_MISSING         "missing"
#define RK_TMP_SWEEP       "tmp_sweep"     /* no private /tmp: swept */
#define RK_SWEPT           "swept"         /* the folders swept */
#define RK_HIDDEN_MAY_LEAK "hidden_tests_may_leak"
#define RK_LEAKS           "leaks"         /* how, a sentence each */

/* A submission. "score" and "max_score" are also a category's and a
 * case's. */
#define RK_SUBMISSION      "submission"
#define RK_SCORE           "score"
#define RK_MAX_SCORE       "max_score"
#define RK_EXCLUDED_POINTS "excluded_points"
#define RK_BUILD           "build"
#define RK_CATEGORIES      "categories"
#define RK_VERDICTS        "verdicts"
#define RK_CASES           "cases"

/* "build". */
#define RK_BUILD_STATUS    "status"
#define RK_BUILD_LOG       "log"
#define RK_BUILD_REASON    "reason"

/* "build"."status" values. */
#define RK_BUILD_NONE      "none"
#define RK_BUILD_OK        "ok"
#define RK_BUILD_FAILED    "failed"
#define RK_BUILD_ERROR     "error"

/* A category ("category" is also a case's). */
#define RK_CATEGORY        "category"
#define RK_HINT            "hint"

/* A case. */
#define RK_NAME            "name"
#define RK_VISIBILITY      "visibility"
#define RK_VERDICT         "verdict"
#define RK_CPU_MS          "cpu_ms"
#define RK_WALL_MS         "wall_ms"
#define RK_MAX_RSS_KB      "max_rss_kb"
#define RK_SIGNAL          "signal"
#define RK_EXIT_CODE       "exit_code"
#define RK_DETAIL          "detail"
#define RK_LIMIT           "limit"
#define RK_DIFF            "diff"
#define RK_STDERR_TAIL     "stderr_tail"
#define RK_DIFF_LINE       "diff_line"
/* RTE/TLE/OLE/MLE (judge.h): the first lines it wrote, how many it wrote,
 * and (RTE/TLE) the input line whose reading makes it fail. */
#define RK_OUTPUT_HEAD     "output_head"
#define RK_OUTPUT_LINES    "output_lines"
#define RK_STOP_LINE       "stop_line"
#define RK_STOP_INPUT      "stop_input"   /* that line's text, escaped, cut */
#define RK_EXCLUDED        "excluded"

/* "visibility" values. */
#define RK_VISIBLE         "visible"
#define RK_HIDDEN          "hidden"

/* What grade batch adds to a submission for its class page. */
#define RK_STUDENT         "student"
#define RK_STATUS          "status"
#define RK_ERROR           "error"

/* The suite report, in the report grade --suite-report-html renders. */
#define RK_SUITE_REPORT    "suite_report"

/* The suite report: the top level ("cases", "categories", "solutions",
 * "survivors", "fragile", "unbuilt" and "errors" are also a summary's
 * counts, and an entry's names follow). */
#define SRK_SCHEMA          "schema"
#define SRK_SUITE           "suite"
#define SRK_SUITE_DIR       "suite_dir"
#define SRK_WRONG_DIR       "wrong_dir"
#define SRK_SUMMARY         "summary"
#define SRK_CASES           "cases"
#define SRK_REDUNDANT       "redundant"
#define SRK_CATEGORIES      "categories"
#define SRK_FAMILIES        "families"
#define SRK_SOLUTIONS       "solutions"
#define SRK_MATRIX          "matrix"
#define SRK_SURVIVORS       "survivors"
#define SRK_FRAGILE         "fragile"
#define SRK_UNBUILT         "unbuilt"
#define SRK_ERRORS          "errors"
/* "summary" adds. */
#define SRK_KILLED          "killed"
#define SRK_REDUNDANT_CASES "redundant_cases"
#define SRK_MIN_KILLS       "min_kills"
#define SRK_MAX_KILLS       "max_kills"
/* A case, a solution, a category, a family. */
#define SRK_NAME            "name"
#define SRK_CATEGORY        "category"
#define SRK_KILLS           "kills"
#define SRK_SOLE_KILLS      "sole_kills"
#define SRK_FAMILY          "family"
#define SRK_BUILD           "build"
#define SRK_KILLED_BY       "killed_by"
#define SRK_ONLY            "only"
/* "matrix" (its "cases" too), a row, a "fragile" or "errors" entry. */
#define SRK_ROWS            "rows"
#define SRK_SOLUTION        "solution"
#define SRK_VERDICTS        "verdicts"
#define SRK_CASE            "case"

#endif
