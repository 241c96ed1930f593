#!/bin/sh
# One home per fact (issue 21 item 3), checked in the sources:
#   - no verdict code as a C string literal outside grader/judge/verdict.c
#     (every other file asks the table: verdict_code(), verdict_is(),
#     verdict_from_code(); the page script's list is compared with the
#     table by check_exporters);
#   - no name of the suite report's schema spelled as a literal by its
#     writer or its readers (grader/report/keys.h's SRK_* are the names);
#   - no report read but through grader/report/report_read.h in the
#     exporters, the batch, the merge and the suite report (grader/cli,
#     grader/report): no json_*_value(json_object_get(...)) of their own.
# Comments are not code: the compiler's preprocessor takes them out
# (-fpreprocessed: nothing else is expanded).
set -u
. "$(dirname "$0")/lib.sh"
e2e_need cc
cd "$WG_ROOT" || exit 1

# code FILE...: FILE: TEXT of every line of code, comments taken out.
code() {
	for f in "$@"; do
		cc -fpreprocessed -dD -E -P -x c "$f" 2>/dev/null | sed "s|^|$f: |"
	done
}

hits=$(code $(find grader -name '*.[ch]' ! -path grader/judge/verdict.c) |
	grep -E '"(AC|WA|TLE|MLE|OLE|RTE|CE|IE)"')
[ -z "$hits" ] || bad "verdict codes spelled outside verdict.c:
$hits"

keys=$(sed -n 's/^#define SRK_[A-Z_]* *\("[a-z_]*"\).*/\1/p' grader/report/keys.h |
	paste -sd'|' -)
[ -n "$keys" ] || bad "no SRK_ names in grader/report/keys.h"
hits=$(code grader/report/suitereport*.c grader/report/html_suite.c \
	grader/cli/suitereport_cmd.c | grep -E "(^|[^\\\\a-z_])($keys)")
[ -z "$hits" ] || bad "suite-report names spelled as literals (use SRK_*):
$hits"

hits=$(code $(find grader/cli grader/report -name '*.c' ! -name report_read.c) |
	grep -E 'json_(string|integer|number|real)_value\(json_object_get\(')
[ -z "$hits" ] || bad "a report read outside report_read.h:
$hits"

# The check can fail: a verdict literal in a scratch file is found.
printf 'int f(const char *v) { return !strcmp(v, "IE"); }\n' > "$tmp/x.c"
code "$tmp/x.c" | grep -qE '"(AC|WA|TLE|MLE|OLE|RTE|CE|IE)"' ||
	bad "the verdict check misses a literal"
exit $fail
