#ifndef WG_SIM_INDEX_H
#define WG_SIM_INDEX_H
/*
 * sim_index: which submissions of a class share code, through an
 * inverted index from fingerprint to submissions.
 *
 * Theory of operation. Each submission's files are tokenized
 * (sim_token.h) and winnowed (sim_winnow.h) as they are added; the base
 * files' every k-gram goes into a sorted set. sim_class_compare then
 *   1. reduces each submission to its distinct fingerprints, less those
 *      of the base (code every student was given, MOSS's base file);
 *   2. sorts all (fingerprint, submission) entries by fingerprint: each
 *      run is one fingerprint's posting list;
 *   3. drops a fingerprint held by more than the idiom limit (max_share
 *      of the class, and at least SIM_MIN_IDIOM submissions): a common
 *      idiom proves nothing;
 *   4. counts, for every pair in every remaining list, one shared
 *      fingerprint: only pairs that share something are ever touched,
 *      so a class of 1,000 costs the sum of its lists' squares, not a
 *      million comparisons.
 * A pair's score is shared / max(min(kept_a, kept_b), SIM_MIN_FPS): the
 * share of the smaller submission found in the other, so a third of a
 * program pasted into another scores about a third and padding a copy
 * with dead code does not dilute it; the floor keeps a submission of a
 * few lines from scoring 1 on one shared idiom.
 * sim_pair_regions then finds where a pair matches: the positions of
 * their shared fingerprints, chained into fragments that advance on both
 * sides, as line spans of their files.
 *
 * Lifecycle: struct sim_class c = SIM_CLASS_INIT; set c.opts; add the
 * base (sim_class_add_base) and the submissions (sim_class_add, which
 * copies nothing: it takes the source over), then sim_class_compare
 * once (it sorts subs by name: indices before it are void);
 * sim_class_release frees all. struct sim_result: sim_result_release.
 * Errors: -1 with the reason in err (out of memory).
 */
#include <stddef.h>
#include <stdint.h>

#include "grader/similarity/sim_source.h"
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
	struct sim_source src;
	struct sim_tokens toks;   /* every file's, in order */
	struct sim_fps fps;       /* winnowed, by position */
	uint64_t *keep;           /* distinct fingerprints kept, sorted */
	size_t nkeep;
};

struct sim_class {
	struct sim_opts opts;
	struct sim_sub *subs;
	size_t n, alloc;
	struct sim_source base;
	uint64_t *base_set;       /* every k-gram hash of the base, sorted */
	size_t nbase;
	size_t idiom_limit;       /* set by sim_class_compare */
	size_t idioms;            /* fingerprints dropped as idioms */
};
#define SIM_CLASS_INIT { SIM_OPTS_INIT, NULL, 0, 0, { NULL, 0 }, NULL, 0, 0, 0 }

struct sim_pair {
	uint32_t a, b;            /* indices into subs, a < b */
	uint32_t shared;          /* fingerprints both kept */
	double score;             /* 0..1 */
};

struct sim_result {
	struct sim_pair *pairs;   /* every pair that shares a fingerprint,
	                             by score, highest first */
	size_t npairs;
	uint64_t all_pairs;       /* n (n - 1) / 2 */
	uint64_t hist[SIM_HIST_BINS];  /* all pairs, those sharing nothing too */
};

struct sim_region {
	uint16_t a_file, b_file;  /* indices into each submission's files */
	uint32_t a_from, a_to;    /* lines, inclusive */
	uint32_t b_from, b_to;
	uint32_t tokens;          /* tokens of a the region spans */
};

/* Takes src over (src is zeroed): the submission named name (copied). */
int sim_class_add(struct sim_class *c, const char *name, struct sim_source *src,
		  struct strbuf *err);
/* Takes src over: base code, every k-gram of which is subtracted. */
int sim_class_add_base(struct sim_class *c, struct sim_source *src,
		       struct strbuf *err);
int sim_class_compare(struct sim_class *c, struct sim_result *r, struct strbuf *err);
/* Where subs a and b match: *regions (malloc'd, the caller frees) and
 * *n, in order of a's files and lines. */
int sim_pair_regions(const struct sim_class *c, uint32_t a, uint32_t b,
		     struct sim_region **regions, size_t *n, struct strbuf *err);
void sim_class_release(struct sim_class *c);
void sim_result_release(struct sim_result *r);

#endif
