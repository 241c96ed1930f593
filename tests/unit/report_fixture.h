#ifndef WG_REPORT_FIXTURE_H
#define WG_REPORT_FIXTURE_H
/*
 * report_fixture: reports written by the real writer (report_json) from a
 * small suite and hand-set judge results, for the exporters' tests, so that
 * what junit and gradescope read can never drift from what grade writes.
 *
 * "mixed": suite "hidden" (dir hidden-tests), five cases
 *   strided_basic      strided     2 points  visible
 *   strided_round      strided     2         visible
 *   shared_conflict    shared      1         hidden
 *   misaligned_secret  misaligned  1         hidden
 *   misaligned_ie      misaligned  1         visible
 * with hints for strided and misaligned; two submissions:
 *   submissions/rounding    built: AC, WA (hostile bytes in its diff and
 *                           stderr), AC, TLE (cpu; its detail and diff hold
 *                           SECRET), IE;
 *   submissions/no-compile  the build failed: every case CE.
 * "single": suite "public" (dir public-tests), cases a (1 point) and
 *   b (1), both in strided and visible, one submission submissions/correct
 *   that got both: AC, AC.
 * Scores and counts come from score_submission(), as in grade.
 */
#include <jansson.h>

#include "grader/report/report.h"

/* The parts of a fixture, for tests that call report_json() themselves. */
struct report_fixture {
	struct suite suite;
	struct report_sub subs[2];
	size_t nsubs;
	struct report_opts opts;
};

/* Fills *f with fixture `name` ("mixed" or "single"). Returns 0, or -1
 * when there is no such fixture or out of memory. */
int report_fixture_init(struct report_fixture *f, const char *name);
void report_fixture_release(struct report_fixture *f);

/* report_json() of fixture `name`: a new reference, NULL when out of
 * memory or no such fixture. */
json_t *report_fixture_json(const char *name);

/* The HTML page's drill-down data block (<pre id="wg-data" hidden>,
 * html_drill.c) of page, parsed: its text unescaped (&lt; &gt; &amp;),
 * then JSON. A new reference; NULL when there is no block, it holds a
 * tag, or it is not JSON. */
json_t *report_fixture_html_data(const char *page);

/* In data (report_fixture_html_data's), submission sub's entry for the
 * case named name ([position, verdict, ...]: html_drill.c), found through
 * the submission's list of cases ("i", or the usual one); NULL when the
 * block has none (a compact page leaves out a case that passed whole).
 * Points into data. */
const json_t *report_fixture_html_case(const json_t *data, size_t sub,
				       const char *name);

/* In data, the text that id (a JSON integer, an index into "t") names:
 * "" for 0; NULL when id is not an index of "t". Points into data. */
const char *report_fixture_html_text(const json_t *data, const json_t *id);

/* A stream every write of which fails with ENOSPC, as /dev/full's does,
 * on any machine (a container may have no /dev/full): for the exporters'
 * write-error tests. Fully buffered on a small buffer, so a writer's
 * output reaches the failing write before fclose. Close with fclose. */
FILE *report_fixture_full_stream(void);

#endif
