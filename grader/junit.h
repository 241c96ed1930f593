#ifndef WG_JUNIT_H
#define WG_JUNIT_H

/*
 * junit: the grade JSON report as JUnit XML, the dialect GitHub Actions
 * (test-reporter actions), GitLab (artifacts:reports:junit) and Jenkins
 * (junit step) render.
 *
 *   <testsuites name="warpgrade SUITE" tests failures errors time>
 *     <testsuite name=SUBMISSION tests failures errors skipped="0" time>
 *       <properties> score, max_score, build status </properties>
 *       <testcase name=CASE classname=CATEGORY time=SECONDS>
 *         <failure message=VERDICT type=VERDICT>detail, diff</failure>
 *         <system-err>stderr tail</system-err>
 *       </testcase>
 *       <system-out>compiler messages when the build failed</system-out>
 *     </testsuite>
 *   </testsuites>
 *
 * Every verdict but AC is a <failure>, except IE (the grader's own fault),
 * which is an <error> so that CI never blames the submission for it.
 * Text is escaped for XML 1.0: markup characters become entities, and bytes
 * XML 1.0 cannot carry at all (control characters other than tab, newline
 * and CR; invalid UTF-8) are written as a visible "\xNN".
 */

#include <stdio.h>
#include <jansson.h>

/* Writes the whole document to f. Returns 0, or -1 with errno set when
 * writing failed (the document may then be partial). */
int junit_write(FILE *f, const json_t *report);

/* Writes s (len bytes) escaped for XML 1.0 character data, or for an
 * attribute value when attr is non-zero (then tab, newline and CR become
 * character references so attribute normalization keeps them).
 * Exposed for the unit tests. */
void junit_escape(FILE *f, const char *s, size_t len, int attr);

#endif
