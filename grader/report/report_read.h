#ifndef WG_REPORT_READ_H
#define WG_REPORT_READ_H
/*
 * report_read: the one reader of a JSON report (keys.h names its members)
 * and of the suite report, for every program and exporter that reads one
 * rather than writes it: JUnit, Gradescope, the HTML page, the suite
 * report's analysis and text. A member is read by name from an object;
 * a missing member, one of another type, or a NULL object reads as NULL
 * (a string), 0 (a number) or VERDICT_COUNT (a verdict), so a reader
 * never tests types itself and a hostile or older report cannot crash it.
 *
 * Lifecycle: none; the strings returned are the report's own (borrowed:
 * valid while the JSON lives, never freed by the caller).
 *
 * Errors: none of these functions can fail.
 */
#include <jansson.h>

#include "grader/judge/verdict.h"

/* o's member key as a string, NULL when it is not one. */
const char *report_str(const json_t *o, const char *key);
/* The same, "" when it is not one (for comparing and printing). */
const char *report_text(const json_t *o, const char *key);

/* o's member key as a number (an integer or a real), else 0. */
double report_num(const json_t *o, const char *key);

/* o's member key as an integer, else 0. */
long long report_int(const json_t *o, const char *key);

/* A case's (or a matrix entry's) "verdict" as the verdict enum:
 * VERDICT_COUNT when it is missing or names no verdict of the table. */
enum verdict report_verdict(const json_t *kase);

#endif
