#ifndef WG_SIM_INDEX_H
#define WG_SIM_INDEX_H
/*
 * sim_index: which submissions of a class share code, through an
 * inverted index from fingerprint to submissions.
 *
 * Theory of operation. Each submission's files are tokenized
 * (sim_token.h) and winnowed (sim_winnow.h) as they are added; the base
 * files' every k-gram goes into a sorted set. Of a submission, memory
 * keeps its name and a few words. Its distinct fingerprints, sorted (its
 * set, 8 bytes each), go to the class's sets spool; what only the few
 * detailed pairs need (its sources, tokens and fingerprints by position:
 * struct sim_detail) to its details spool (sim_spool.h), read back by
 * sim_class_detail. sim_class_compare (sim_compare.c) then reads the sets
 * back, never holding more of them at once than opts.memory bytes:
 *   1. takes the base out of each set as it reads it (code every student
 *      was given, MOSS's base file);
 *   2. finds the idioms: a fingerprint held by more than the idiom limit
 *      (max_share of the class, and at least SIM_MIN_IDIOM submissions)
 *      is a common idiom and proves nothing. The hashes are cut into
 *      ranges (parts) small enough that one part of every set fits the
 *      budget; a pass a part gathers the part's fingerprints from every
 *      set, sorts them and counts each one's holders;
 *   3. counts the pairs a block at a time: a block is the next
 *      submissions (in name order) whose sets fit the budget, held as
 *      (fingerprint, submission) entries sorted by fingerprint. Every
 *      submission b from the block's first on is read once more, and
 *      each of its fingerprints (less base and idioms) finds in the block
 *      the submissions a < b that hold it, into a counter for each a.
 *      Only pairs that share something are ever touched, and no pair is
 *      stored beyond what the result keeps (struct sim_select): every
 *      pair goes into the histogram and the counts, the best into a
 *      bounded heap, those at or above the threshold into the clusters'
 *      union-find.
 *   A class whose sets fit the budget is one part and one block: the sets
 *   are read three times. Memory is the budget (at most: entries of 16
 *   bytes, part arrays of 8), the largest set, the idioms (fewer than the
 *   class's fingerprints over the idiom limit: bounded by the size of a
 *   submission over max_share, not by the class) and a few words a
 *   submission, whatever the number of students or pairs; the spools are
 *   files. Time is one pass over the sets a part and a block.
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
 * c.spool.dir, where both spools are made); add the base (sim_class_add_base) and the submissions
 * (sim_class_add, which takes the source over), then sim_class_compare
 * once (it sorts subs by name: indices before it are void);
 * sim_class_release frees all and closes the spool. struct sim_result:
 * sim_result_release; struct sim_detail: sim_detail_release.
 * Errors: -1 with the reason in err (out of memory, a spool).
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
#define SIM_OPTS_INIT { 15, 8, 0.25, SIM_MEMORY }
#define SIM_MEMORY (8u << 20)    /* opts.memory's default: 8 MiB */

struct sim_opts {
	unsigned k;           /* tokens per k-gram */
	unsigned w;           /* k-grams per window */
	double max_share;     /* a fingerprint in more of the class is an idiom */
	size_t memory;        /* bytes of sets held at once while comparing
	                         (0: SIM_MEMORY); the result is the same
	                         whatever it is, only the passes differ */
};

struct sim_sub {
	char *name;
	uint64_t set_off;         /* its set in the sets spool: distinct */
	size_t nset;              /* fingerprints, sorted, nset of them */
	size_t nkeep;             /* after sim_class_compare, those of the set
	                             kept (less the base's and the idioms): a
	                             score's denominator */
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
	size_t parts, blocks;     /* the passes sim_class_compare made */
	struct sim_spool spool;   /* the submissions' details */
	struct sim_spool sets;    /* their sets (in spool.dir too) */
};
#define SIM_CLASS_INIT { SIM_OPTS_INIT, NULL, 0, 0, { NULL, 0 }, NULL, 0, 0, 0, \
			 NULL, 0, 0, SIM_SPOOL_INIT, SIM_SPOOL_INIT }

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
 * its details and its set spooled, nothing else kept but its name. */
int sim_class_add(struct sim_class *c, const char *name, struct sim_source *src,
		  struct strbuf *err);
/* Takes src over: base code, every k-gram of which is subtracted. */
int sim_class_add_base(struct sim_class *c, struct sim_source *src,
		       struct strbuf *err);
/* Once, after the last add: r filled (release it even on error), each
 * sub's nkeep, the idioms, parts and blocks set; the sets spool closed. */
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
