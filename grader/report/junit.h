#ifndef WG_JUNIT_H
#define WG_JUNIT_H

/*
 * junit: the grade JSON report as JUnit XML, the dialect GitHub Actions
 * (test-reporter actions), GitLab (artifacts:reports:junit) and Jenkins
 * (junit step) render.
 *
 *   <testsuites name="warpgrade SUITE" tests failures errors time>
 *     <testsuite name=SUBMISSION tests failures errors skipped time>
 *       <properties> score, max_score, build status </properties>
 *       <testcase name=CASE classname=SUBMISSION.CATEGORY time=SECONDS>
 *         <failure message=VERDICT type=VERDICT>detail, diff</failure>
 *         <system-err>stderr tail</system-err>
 *       </testcase>
 *     </testsuite>
 *   </testsuites>
 *
 * Every (classname, name) pair is unique in the document (GitLab keeps
 * only the first test of a pair): a submission's classnames start with its
 * path, and when a pair would still repeat (the same path twice) the later
 * submission's prefix gets " (2)". Every verdict but AC is a <failure>,
 * except IE (the grader's own fault), which is an <error> so that CI never
 * blames the submission for it. A failed build is one testcase named
 * "build" (classname SUBMISSION) whose <failure type="CE"> carries the
 * compiler's messages, and every case is <skipped>: none ran.
 *
 * The report's "view" decides what hidden cases show: "student" (grade's
 * default) gives a hidden case's verdict only, with no detail, diff or
 * stderr; "staff" (--staff) gives everything. The XML validates against
 * the Jenkins xUnit plugin's JUnit schema (tests/data/junit-10.xsd).
 * Text is escaped for XML 1.0: markup characters become entities, and bytes
 * XML 1.0 cannot carry at all (control characters other than tab, newline
 * and CR; invalid UTF-8) are written as a visible "\xNN" (grader/lib/escape.h).
 *
 * Errors: junit_write: -1 and errno (writing failed).
 */

#include <stdio.h>
#include <jansson.h>

/* Writes the whole document to f. Returns 0, or -1 with errno set when
 * writing failed (the document may then be partial). */
int junit_write(FILE *f, const json_t *report);

#endif
