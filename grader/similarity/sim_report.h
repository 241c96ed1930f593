#ifndef WG_SIM_REPORT_H
#define WG_SIM_REPORT_H
/*
 * sim_report: a compared class (sim_index.h) as JSON, the one record that
 * grade --similarity writes, summary.json holds as "similarity", the page
 * shows (html_similarity.c) and the terminal summarises. The schema is
 * docs/similarity.md's; the names are spelled once, below.
 *
 * Also the class's sources as JSON (sim_report_put_sources): what a shard
 * of a batch stores so that a merge can compare the whole class
 * (sim_report_load_sources).
 *
 * Ownership: the json_t results are new references, the caller's.
 * Errors: NULL or -1 with the reason in err (out of memory; a sources
 * file that is not one).
 */
#include <stdio.h>

#include <jansson.h>

#include "grader/similarity/sim_index.h"

struct strbuf;

#define SK_PAIRS       "pairs"
#define SK_A           "a"
#define SK_B           "b"
#define SK_SCORE       "score"
#define SK_SHARED      "shared"
#define SK_REGIONS     "regions"
#define SK_HISTOGRAM   "histogram"
#define SK_CLUSTERS    "clusters"
#define SK_STUDENTS    "students"
#define SK_THRESHOLD   "threshold"
#define SK_SKIPPED     "skipped"
#define SK_SIMILARITY  "similarity"   /* summary.json's member */

#define SIM_DETAIL_PAIRS 100   /* pairs whose regions are written */
#define SIM_MAX_PAIRS 10000    /* pairs listed at most ("pairs_above_min"
                                  counts them all) */
#define SIM_REGION_LINES 400   /* lines of text per side of a region */

struct sim_report_opts {
	double min_score;      /* pairs listed: score >= this (0: every pair
	                          that shares a fingerprint) */
	double threshold;      /* pairs with regions, clusters: score >= this */
};
#define SIM_REPORT_OPTS_INIT { 0.1, 0.2 }

/* How sim_class_compare is to select for a record of options o. */
struct sim_select sim_report_select(const struct sim_report_opts *o);
/* The record of c compared with sim_report_select(o); skipped (may be NULL) is an array of {student, error} of
 * the students whose sources could not be read, taken as it is (a new
 * reference is made). */
json_t *sim_report_json(const struct sim_class *c, const struct sim_result *r,
			const struct sim_report_opts *o, const json_t *skipped,
			struct strbuf *err);

/* The top pairs of a record, one line each ("0.93  alice  bob"), at most
 * top of them, names scrubbed of control characters. */
void sim_report_print(FILE *f, const json_t *rec, size_t top);

/* {"version": 1, "base": [{name, text}], "students": {NAME: [{name,
 * text}]}} of c (its base and submissions) to f, as json_dumpf writes it
 * with JSON_INDENT(2) | JSON_PRESERVE_ORDER (no final newline), one
 * student at a time from the spool. 0, or -1 with the reason in err (a
 * write error is f's: the caller checks it). */
int sim_report_put_sources(FILE *f, const struct sim_class *c, struct strbuf *err);
/* The base and the submissions of a sources record into c (their opts
 * already set); a student already in c is kept, the record's ignored:
 * *dup counts those. With_base: also the record's base. */
int sim_report_load_sources(struct sim_class *c, const json_t *rec,
			    int with_base, size_t *dup, struct strbuf *err);

#endif
