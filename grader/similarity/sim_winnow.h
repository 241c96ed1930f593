#ifndef WG_SIM_WINNOW_H
#define WG_SIM_WINNOW_H
/*
 * sim_winnow: k-gram hashes of a token stream and the fingerprints that
 * winnowing selects from them (Schleimer, Wilkerson, Aiken: "Winnowing:
 * local algorithms for document fingerprinting", SIGMOD 2003).
 *
 * A k-gram is k consecutive tokens; its hash depends on the token kinds
 * alone (sim_token.h), never on names, values or lines. Robust
 * winnowing: in every window of w consecutive k-gram hashes the smallest
 * is selected (the rightmost of equals), and recorded once however many
 * windows select it. The guarantee the tests check: two streams that
 * share a run of at least w + k - 1 tokens share at least one
 * fingerprint, since that run holds a whole window, whose smallest hash
 * both select. A stream of fewer than w k-grams is one window; one of
 * fewer than k tokens has no k-gram and no fingerprint.
 *
 * Lifecycle: struct sim_fps starts zeroed (SIM_FPS_INIT); the functions
 * append; sim_fps_release frees. Errors: -1 when out of memory (err says
 * so; what was appended stays).
 */
#include <stddef.h>
#include <stdint.h>

#include "grader/similarity/sim_token.h"

struct strbuf;

/* splitmix64's finalizer: a bijection of the 64-bit words that spreads
 * any set of them evenly over the 64 bits (inline: the comparison asks
 * it for every fingerprint it looks up). */
static inline uint64_t sim_mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

struct sim_fp {
	uint64_t hash;
	uint32_t pos;        /* the k-gram's first token: first + its index */
};

struct sim_fps {
	struct sim_fp *v;
	size_t n, alloc;
};
#define SIM_FPS_INIT { NULL, 0, 0 }

/* The hash of the k tokens at t. */
uint64_t sim_kgram_hash(const struct sim_token *t, unsigned k);

/* The fingerprints winnowing selects from t[0..n), appended to out in
 * order of position, each pos = first + the k-gram's index in t. */
int sim_winnow(const struct sim_token *t, size_t n, unsigned k, unsigned w,
	       uint32_t first, struct sim_fps *out, struct strbuf *err);

/* Every k-gram of t[0..n), winnowed or not (what base code is subtracted
 * by: a student's fingerprint that is any k-gram of the base is the
 * base's, whichever the base's own winnowing would have picked). */
int sim_all_kgrams(const struct sim_token *t, size_t n, unsigned k,
		   uint32_t first, struct sim_fps *out, struct strbuf *err);

void sim_fps_release(struct sim_fps *f);

#endif
