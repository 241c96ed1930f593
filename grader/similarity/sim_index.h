#ifndef WG_SIM_INDEX_H
#define WG_SIM_INDEX_H
/*
 * sim_index: which submissions of a class share code, through an
 * inverted index from fingerprint to submissions.
 *
 * Theory of operation. Each submission's files are tokenized
 * (sim_token.h) and winnowed (sim_winnow.h) as they are added; the base
 * files' every k-gram goes into a sorted set. What comparing needs of a
 * submission stays in memory: its distinct fingerprints, sorted (8 bytes
 * each) and its name. What only the few detailed pairs need (its sources,
 * tokens and fingerprints by position: struct sim_detail) goes to the
 * class's spool (sim_spool.h) as it is added, read back by
 * sim_class_detail. sim_class_compare then
 *   1. takes the base out of each submission's fingerprints (code every
 *      student was given, MOSS's base file);
 *   2. merges the sorted sets (a heap of one cursor a submission) into
 *      posting lists: each fingerprint's submissions, in order;
 *   3. drops a fingerprint held by more than the idiom limit (max_share
 *      of the class, and at least SIM_MIN_IDIOM submissions): a common
 *      idiom proves nothing;
 *   4. counts, for each submission a, the fingerprints it shares with
 *      every b after it, through the posting lists of its fingerprints,
 *      in a counter a submission: only pairs that share something are
 *      ever touched, so a class of 1,000 costs the sum of its lists'
 *      squares, not a million comparisons; and no pair is stored beyond
 *      what the result keeps (struct sim_select): every pair goes into
 *      the histogram and the counts, the best into a bounded heap, those
 *      at or above the threshold into the clusters' union-find;
 *   5. frees the sets: a submission is then its name and a few words, so
 *      the record (sim_report.h) is built beside next to nothing. Memory
 *      is at most 12 bytes a fingerprint (8 in its set, 4 in a posting
 *      list when another submission holds it too) and a few words a
 *      submission, whatever the number of pairs.
 * A pair's score is shared / max(min(kept_a, kept_b), SIM_MIN_FPS): the
 * share of the smaller submission found in the other, so a third of a
 * program pasted into another scores about a third and padding a copy
 * with dead code does not dilute it; the floor keeps a submission of a
 * few lines from scoring 1 on one shared idiom.
 * sim_pair_regions then finds where a pair matches (from both details):
 * the positions of their fingerprints kept (not the base's, not an
 * idiom) that both hold, chained into fragments that advance on both
 * sides, as line spans of their files.
 *
 * Lifecycle: struct sim_class c = SIM_CLASS_INIT; set c.opts (and
 * c.spool.dir); add the base (sim_class_add_base) and the submissions
 * (sim_class_add, which takes the source over), then sim_class_compare
 * once (it sorts subs by name: indices before it are void);
 * sim_class_release frees all and closes the spool. struct sim_result:
 * sim_result_release; struct sim_detail: sim_detail_release.
 * Errors: -1 with the reason in err (out of memory, the spool).
 */
#include <stddef.h>
#include <stdint.h>

#include "grader/similarity/sim_source.h"
#include "grader/similarity/sim_spool.h"
#include "grader/similarity/sim_token.h"
#include "grader/similarity/sim_winnow.h"

struct strbuf;

#define SIM_MIN_IDIOM 10      /* the idiom limit is never below this */
#define SIM_MIN_FPS 10        /* a score's smallest denominator */
#define SIM_HIST_BINS 20      /* the histogram of pair scores: 0.05 each */

/* Defaults, chosen by make bench-similarity's sweep (docs/similarity.md):
 * k = 15 tokens (about one statement) and a window of 8 (about a quarter
 * of the k-grams kept; every shared run of 22 tokens found) gave the
 * widest gap between the lowest disguised copy and the highest pair of
 * independent solutions on the test set (0.45 against 0.08). */
#define SIM_OPTS_INIT { 15, 8, 0.25 }

struct sim_opts {
	unsigned k;           /* tokens per k-gram */
	unsigned w;           /* k-grams per window */
	double max_share;     /* a fingerprint in more of the class is an idiom */
};

struct sim_sub {
	char *name;
	uint64_t *keep;           /* distinct fingerprints, sorted, until
	                             sim_class_compare frees them (NULL) */
	size_t nkeep;             /* their number; after sim_class_compare,
	                             those kept (less the base's and the
	                             idioms): a score's denominator */
	uint64_t off;             /* its struct sim_detail in the spool */
	size_t len;
};

/* A submission as read, kept in the spool (sim_class_detail). */
struct sim_detail {
	struct sim_source src;
	struct sim_tokens toks;   /* every file's, in order */
	struct sim_fps fps;       /* winnowed, by position */
};
#define SIM_DETAIL_INIT { { NULL, 0 }, SIM_TOKENS_INIT, SIM_FPS_INIT }

struct sim_class {
	struct sim_opts opts;
	struct sim_sub *subs;
	size_t n, alloc;
	struct sim_source base;
	uint64_t *base_set;       /* every k-gram hash of the base, sorted */
	size_t nbase;
	size_t idiom_limit;       /* set by sim_class_compare */
	size_t idioms;            /* fingerprints dropped as idioms */
	uint64_t *idiom_set;      /* they, sorted (sim_class_compare) */
	struct sim_spool spool;   /* the submissions' details */
};
#define SIM_CLASS_INIT { SIM_OPTS_INIT, NULL, 0, 0, { NULL, 0 }, NULL, 0, 0, 0, \
			 NULL, SIM_SPOOL_INIT }

struct sim_pair {
	uint32_t a, b;            /* indices into subs, a < b */
	uint32_t shared;          /* fingerprints both kept */
	double score;             /* 0..1 */
};

/* Which pairs a result keeps (the rest are counted, not kept). */
struct sim_select {
	double min_score;         /* pairs kept: score >= this (0: every pair
	                             that shares a fingerprint) */
	double threshold;         /* clusters: pairs at or above this */
	size_t max_pairs;         /* the best this many kept at most */
};
#define SIM_SELECT_ALL { 0, 0.2, SIZE_MAX }

#define SIM_NO_CLUSTER UINT32_MAX

struct sim_result {
	struct sim_pair *pairs;   /* the best max_pairs of the pairs scoring
	                             min_score or more, highest first (then
	                             by a, then b) */
	size_t npairs;
	uint64_t above;           /* pairs scoring min_score or more, all */
	uint64_t all_pairs;       /* n (n - 1) / 2 */
	uint64_t hist[SIM_HIST_BINS];  /* all pairs, those sharing nothing too */
	uint32_t *cluster;        /* each sub's cluster, or SIM_NO_CLUSTER: the
	                             pairs at or above the threshold, connected */
	double *cluster_max;      /* each cluster's best score, the clusters in
	                             order of their best pair */
	size_t nclusters;
};

struct sim_region {
	uint16_t a_file, b_file;  /* indices into each submission's files */
	uint32_t a_from, a_to;    /* lines, inclusive */
	uint32_t b_from, b_to;
	uint32_t tokens;          /* tokens of a the region spans */
};

/* Takes src over (src is zeroed): the submission named name (copied),
 * its details spooled and freed, its distinct fingerprints kept. */
int sim_class_add(struct sim_class *c, const char *name, struct sim_source *src,
		  struct strbuf *err);
/* Takes src over: base code, every k-gram of which is subtracted. */
int sim_class_add_base(struct sim_class *c, struct sim_source *src,
		       struct strbuf *err);
int sim_class_compare(struct sim_class *c, const struct sim_select *sel,
		      struct sim_result *r, struct strbuf *err);
/* Sub i's details from the spool into d (zeroed first; release it even
 * on error). */
int sim_class_detail(const struct sim_class *c, uint32_t i, struct sim_detail *d,
		     struct strbuf *err);
void sim_detail_release(struct sim_detail *d);
/* Where two compared subs (their details da and db: sim_class_detail)
 * match: *regions (malloc'd, the caller frees) and *n, in order of a's
 * files and lines. */
int sim_pair_regions(const struct sim_class *c, const struct sim_detail *da,
		     const struct sim_detail *db, struct sim_region **regions,
		     size_t *n, struct strbuf *err);
void sim_class_release(struct sim_class *c);
void sim_result_release(struct sim_result *r);

#endif
