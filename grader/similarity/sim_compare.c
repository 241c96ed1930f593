/*
 * sim_compare: sim_class_compare, a class's sets read back from their
 * spool in parts (the idioms) and blocks (the pairs), never more of them
 * in memory than opts.memory bytes (sim_index.h, theory of operation).
 */
#include "grader/similarity/sim_index.h"

#include <stdlib.h>
#include <string.h>

#include "grader/lib/strbuf.h"
#include "grader/similarity/sim_int.h"

/* What the passes share: the class, its budget, the set read last. */
struct pass {
	struct sim_class *c;
	size_t budget;
	uint64_t *set;            /* sub i's set as read_set left it */
	size_t alloc;
};

/* Sub i's whole set into ps->set. */
static int read_set(struct pass *ps, uint32_t i, struct strbuf *err)
{
	const struct sim_sub *s = &ps->c->subs[i];

	if (s->nset > ps->alloc) {
		uint64_t *v = realloc(ps->set, s->nset * sizeof *v);

		if (!v)
			return sim_int_oom(err);
		ps->set = v;
		ps->alloc = s->nset;
	}
	return sim_spool_get(&ps->c->sets, s->set_off, ps->set,
			     s->nset * sizeof *ps->set, err);
}

/* ps->set (sub i's, just read) less the base's fingerprints and the
 * idioms, in place: the fingerprints that count, sub i's nkeep of them. */
static size_t keep_set(struct pass *ps, uint32_t i)
{
	const struct sim_class *c = ps->c;
	struct sim_sub *s = &ps->c->subs[i];
	size_t k = 0;

	for (size_t j = 0; j < s->nset; j++)
		if (!sim_int_has(c->base_set, c->nbase, ps->set[j]) &&
		    !sim_int_has(c->idiom_set, c->idioms, ps->set[j]))
			ps->set[k++] = ps->set[j];
	return s->nkeep = k;
}

static int grow_u64(uint64_t **v, size_t n, size_t *alloc)
{
	uint64_t *w;

	if (n < *alloc)
		return 0;
	if (!(w = realloc(*v, (*alloc ? 2 * *alloc : 256) * sizeof *w)))
		return -1;
	*v = w;
	*alloc = *alloc ? 2 * *alloc : 256;
	return 0;
}

/* ---- step 2: the idioms, a part of the hashes at a time ---- */

/* The idioms among v (n hashes of one part, every sub's, sorted): each
 * held by more subs than the limit (a set holds a hash once), appended
 * to c's idioms. */
static int part_idioms(struct sim_class *c, const uint64_t *v, size_t n,
		       size_t *alloc)
{
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && v[j] == v[i]; j++)
			;
		if (j - i <= c->idiom_limit)
			continue;
		if (grow_u64(&c->idiom_set, c->idioms, alloc) < 0)
			return -1;
		c->idiom_set[c->idioms++] = v[i];
	}
	return 0;
}

/* A hash's part of nparts. Winnowing keeps the least hash of each
 * window, so fingerprints crowd the low hashes: parts are ranges of the
 * hash mixed again (sim_mix64), not of the hash; the block's table
 * places hashes by it too. */
static size_t part_of(uint64_t h, size_t nparts)
{
	return nparts == 1 ? 0 : (size_t)(sim_mix64(h) / (UINT64_MAX / nparts + 1));
}

/* *v sorted, through *tmp (as long): a byte at a time from the least,
 * eight counting passes, linear where qsort's calls cost n log n. */
static void radix_sort(uint64_t *v, uint64_t *tmp, size_t n)
{
	for (unsigned shift = 0; shift < 64; shift += 8) {
		size_t at[257] = { 0 };
		uint64_t *t;

		for (size_t i = 0; i < n; i++)
			at[((v[i] >> shift) & 0xff) + 1]++;
		for (unsigned d = 0; d < 256; d++)
			at[d + 1] += at[d];
		for (size_t i = 0; i < n; i++)
			tmp[at[(v[i] >> shift) & 0xff]++] = v[i];
		t = v, v = tmp, tmp = t;
	}
}

/* As many parts as make a part of every set fit the budget: 8 bytes a
 * hash and 8 of the sort's scratch, with an eighth to spare for an
 * uneven part. */
static int find_idioms(struct pass *ps, struct strbuf *err)
{
	struct sim_class *c = ps->c;
	uint64_t *v = NULL, *tmp = NULL;
	size_t total = 0, alloc = 0, tmp_alloc = 0, ida = 0;
	int rc = 0;

	for (size_t i = 0; i < c->n; i++)
		total += c->subs[i].nset;
	c->parts = total / (ps->budget / 18) + 1;
	alloc = total / c->parts + total / c->parts / 8 + 256;
	if (!(v = malloc(alloc * sizeof *v)))
		return sim_int_oom(err);
	for (size_t p = 0; rc == 0 && p < c->parts; p++) {
		size_t n = 0;

		for (uint32_t i = 0; rc == 0 && i < c->n; i++) {
			if ((rc = read_set(ps, i, err)) < 0)
				break;
			for (size_t j = 0; rc == 0 && j < c->subs[i].nset; j++) {
				uint64_t h = ps->set[j];

				if (part_of(h, c->parts) != p ||
				    sim_int_has(c->base_set, c->nbase, h))
					continue;
				if (grow_u64(&v, n, &alloc) < 0)
					rc = sim_int_oom(err);
				else
					v[n++] = h;
			}
		}
		if (rc == 0 && tmp_alloc < alloc) {   /* v grew: an uneven part */
			uint64_t *w = realloc(tmp, alloc * sizeof *w);

			if (!w)
				rc = sim_int_oom(err);
			else
				tmp = w, tmp_alloc = alloc;
		}
		if (rc == 0)
			radix_sort(v, tmp, n);
		if (rc == 0 && part_idioms(c, v, n, &ida) < 0)
			rc = sim_int_oom(err);
	}
	free(v);
	free(tmp);
	if (rc == 0 && c->idioms)
		qsort(c->idiom_set, c->idioms, sizeof *c->idiom_set, sim_int_cmp_u64);
	return rc;
}

static int cmp_pair(const void *x, const void *y)
{
	const struct sim_pair *a = x, *b = y;

	if (a->score != b->score)
		return a->score < b->score ? 1 : -1;
	if (a->a != b->a)
		return a->a < b->a ? -1 : 1;
	return (a->b > b->b) - (a->b < b->b);
}

static double pair_score(const struct sim_class *c, uint32_t a, uint32_t b,
			 uint32_t shared)
{
	size_t ka = c->subs[a].nkeep, kb = c->subs[b].nkeep;
	size_t d = ka < kb ? ka : kb;
	double s;

	if (d < SIM_MIN_FPS)
		d = SIM_MIN_FPS;
	s = (double)shared / (double)d;
	return s > 1 ? 1 : s;
}

static size_t bin_of(double score)
{
	size_t b = (size_t)(score * SIM_HIST_BINS);

	return b >= SIM_HIST_BINS ? SIM_HIST_BINS - 1 : b;
}

/* ---- step 4: every pair that shares something, gathered ---- */

struct gather {
	const struct sim_select *sel;
	struct sim_result *r;
	size_t cap;               /* of r->pairs */
	int heaped;               /* r->pairs is full: a heap, worst on top */
	uint64_t shared;          /* pairs that share a fingerprint */
	uint32_t *up;             /* union-find over the subs */
	struct sim_pair *best;    /* each sub's best pair at or above the
	                             threshold (score -1: none) */
};

/* The heap of kept pairs, the worst (by cmp_pair) on top. */
static void pair_sift(struct sim_pair *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		struct sim_pair t;

		if (l < n && cmp_pair(&h[l], &h[m]) > 0)
			m = l;
		if (l + 1 < n && cmp_pair(&h[l + 1], &h[m]) > 0)
			m = l + 1;
		if (m == i)
			return;
		t = h[i], h[i] = h[m], h[m] = t;
		i = m;
	}
}

static int keep_pair(struct gather *g, const struct sim_pair *p)
{
	struct sim_result *r = g->r;

	if (r->npairs < g->sel->max_pairs) {
		if (r->npairs == g->cap) {
			size_t na = g->cap ? 2 * g->cap : 256;
			struct sim_pair *v = realloc(r->pairs, na * sizeof *v);

			if (!v)
				return -1;
			r->pairs = v;
			g->cap = na;
		}
		r->pairs[r->npairs++] = *p;
		return 0;
	}
	if (!r->npairs)
		return 0;
	if (!g->heaped) {
		for (size_t i = r->npairs / 2; i-- > 0;)
			pair_sift(r->pairs, r->npairs, i);
		g->heaped = 1;
	}
	if (cmp_pair(p, &r->pairs[0]) < 0) {
		r->pairs[0] = *p;
		pair_sift(r->pairs, r->npairs, 0);
	}
	return 0;
}

static uint32_t find(uint32_t *up, uint32_t x)
{
	while (up[x] != x)
		x = up[x] = up[up[x]];
	return x;
}

static int gather_pair(const struct sim_class *c, struct gather *g, uint32_t a,
		       uint32_t b, uint32_t shared)
{
	struct sim_pair p = { a, b, shared, pair_score(c, a, b, shared) };

	g->shared++;
	g->r->hist[bin_of(p.score)]++;
	if (p.score >= g->sel->min_score) {
		g->r->above++;
		if (keep_pair(g, &p) < 0)
			return -1;
	}
	if (p.score >= g->sel->threshold) {
		g->up[find(g->up, a)] = find(g->up, b);
		if (g->best[a].score < 0 || cmp_pair(&p, &g->best[a]) < 0)
			g->best[a] = p;
		if (g->best[b].score < 0 || cmp_pair(&p, &g->best[b]) < 0)
			g->best[b] = p;
	}
	return 0;
}


/* ---- step 3: the pairs, a block of subs at a time ---- */

/* A slot of the block's table: a hash (in halves, so that a slot is 16
 * bytes) and its holders, count of them: the one itself (at) when
 * count is 1, else where they are in the block's runs, from at on in
 * order of sub. Empty: count 0. */
struct slot {
	uint32_t lo, hi, at, count;
};

#define BLOCK_BYTES 28   /* a fingerprint's share of a block, at most:
			    10/7 of a slot (16) and a place in the runs (4) */

/* Subs [from, to): their fingerprints that count, in an open-addressed
 * table of hashes (linear probing, at most 70% full), each hash's
 * holders side by side in runs (one holder: in its slot). */
struct block {
	uint32_t from, to;
	struct slot *slots;
	size_t nslots;
	uint32_t *runs;
};

/* h's slot: where it is, or the empty one where it goes. */
static struct slot *slot_of(const struct block *bl, uint64_t h)
{
	size_t i = (size_t)((sim_mix64(h) >> 32) * bl->nslots >> 32);

	for (;; i = i + 1 < bl->nslots ? i + 1 : 0) {
		struct slot *s = &bl->slots[i];

		if (!s->count || (s->lo == (uint32_t)h && s->hi == (uint32_t)(h >> 32)))
			return s;
	}
}

/* Lookups of a set's hashes are independent: the slot of the hash
 * PREFETCH ahead is asked for while this one is read, so that their
 * cache misses overlap. */
#define PREFETCH 8

static void prefetch_slot(const struct block *bl, const uint64_t *set, size_t j,
			  size_t k)
{
	if (j + PREFETCH < k)
		__builtin_prefetch(&bl->slots[(sim_mix64(set[j + PREFETCH]) >> 32) *
					      bl->nslots >> 32]);
}

static void block_release(struct block *bl)
{
	free(bl->slots);
	free(bl->runs);
	bl->slots = NULL;
	bl->runs = NULL;
}

/* The block's subs' sets read and kept (their nkeep set), from the last
 * sub: each hash into the table and counted (place 0), or each holder of
 * a hash held twice or more put in its run, the run filled from its end
 * (place 1, each at past its run's end). */
static int fill_block(struct pass *ps, struct block *bl, int place,
		      struct strbuf *err)
{
	for (uint32_t i = bl->to; i-- > bl->from;) {
		size_t k;

		if (read_set(ps, i, err) < 0)
			return -1;
		k = keep_set(ps, i);
		for (size_t j = 0; j < k; j++) {
			uint64_t h = ps->set[j];
			struct slot *s;

			prefetch_slot(bl, ps->set, j, k);
			s = slot_of(bl, h);
			if (place && s->count > 1)
				bl->runs[--s->at] = i;
			else if (!place && !s->count++)
				*s = (struct slot){ (uint32_t)h, (uint32_t)(h >> 32), i, 1 };
		}
	}
	return 0;
}

/* The block from sub `from` on: the next subs whose sets fit the budget
 * together (BLOCK_BYTES a fingerprint), one at least (a set larger than
 * the budget is a block of its own). Their sets are read twice: to
 * count each hash's holders, then to place them. */
static int load_block(struct pass *ps, uint32_t from, struct block *bl,
		      struct strbuf *err)
{
	const struct sim_class *c = ps->c;
	size_t n = c->subs[from].nset, end = 0;
	uint32_t to = from + 1;

	while (to < c->n && (n + c->subs[to].nset) * BLOCK_BYTES <= ps->budget)
		n += c->subs[to++].nset;
	block_release(bl);
	*bl = (struct block){ from, to, calloc(n * 10 / 7 + 2, sizeof *bl->slots),
			      n * 10 / 7 + 2, malloc((n + 1) * sizeof *bl->runs) };
	if (!bl->slots || !bl->runs)
		return sim_int_oom(err);
	if (fill_block(ps, bl, 0, err) < 0)
		return -1;
	for (size_t i = 0; i < bl->nslots; i++)
		if (bl->slots[i].count > 1) {
			end += bl->slots[i].count;
			bl->slots[i].at = (uint32_t)end;
		}
	return fill_block(ps, bl, 1, err);
}

/* Every sub b from the block's first on, read again: what it shares
 * with each sub a < b of the block (a counter a sub of the block, cnt,
 * reset after b), gathered. */
static int count_block(struct pass *ps, const struct block *bl, struct gather *g,
		       uint32_t *cnt, uint32_t *touched, struct strbuf *err)
{
	const struct sim_class *c = ps->c;

	for (uint32_t b = bl->from; b < c->n; b++) {
		size_t nt = 0, k;

		if (read_set(ps, b, err) < 0)
			return -1;
		k = keep_set(ps, b);
		for (size_t j = 0; j < k; j++) {
			const struct slot *sl;
			const uint32_t *v, *end;

			prefetch_slot(bl, ps->set, j, k);
			sl = slot_of(bl, ps->set[j]);
			v = sl->count == 1 ? &sl->at : bl->runs + sl->at;
			for (end = v + sl->count; v < end && *v < b; v++)
				if (!cnt[*v - bl->from]++)
					touched[nt++] = *v - bl->from;
		}
		for (size_t t = 0; t < nt; t++) {
			uint32_t a = touched[t];

			if (gather_pair(c, g, bl->from + a, b, cnt[a]) < 0)
				return sim_int_oom(err);
			cnt[a] = 0;
		}
	}
	return 0;
}

/* Steps 2 and 3. */
static int count_pairs(struct pass *ps, struct gather *g, struct strbuf *err)
{
	struct sim_class *c = ps->c;
	struct block bl = { 0, 0, NULL, 0, NULL };
	uint32_t *cnt = NULL, *touched = NULL;
	int rc = find_idioms(ps, err);

	c->blocks = 0;
	for (uint32_t from = 0; rc == 0 && from < c->n; from = bl.to) {
		if ((rc = load_block(ps, from, &bl, err)) < 0)
			break;
		free(cnt);
		free(touched);
		cnt = calloc(bl.to - bl.from, sizeof *cnt);
		touched = malloc((bl.to - bl.from) * sizeof *touched);
		if (!cnt || !touched)
			rc = sim_int_oom(err);
		else
			rc = count_block(ps, &bl, g, cnt, touched, err);
		c->blocks++;
	}
	block_release(&bl);
	free(cnt);
	free(touched);
	return rc;
}

struct root {
	struct sim_pair best;
	uint32_t root;
};

static int cmp_root(const void *x, const void *y)
{
	return cmp_pair(&((const struct root *)x)->best, &((const struct root *)y)->best);
}

/* The clusters: each is the subs its pairs at or above the threshold
 * connect, in order of its best pair (the one of its members' best
 * pairs that sorts first); idx: n words of scratch. */
static int clusters(const struct sim_class *c, struct gather *g, uint32_t *idx)
{
	struct sim_result *r = g->r;
	struct root *roots;
	size_t nr = 0;

	r->cluster = malloc((c->n + 1) * sizeof *r->cluster);
	if (!r->cluster)
		return -1;
	for (uint32_t k = 0; k < c->n; k++) {
		uint32_t root = find(g->up, k);

		if (g->best[k].score >= 0 && cmp_pair(&g->best[k], &g->best[root]) < 0)
			g->best[root] = g->best[k];
		nr += g->best[k].score >= 0 && root == k;
	}
	roots = malloc((nr + 1) * sizeof *roots);
	r->cluster_max = malloc((nr + 1) * sizeof *r->cluster_max);
	if (!roots || !r->cluster_max) {
		free(roots);
		return -1;
	}
	nr = 0;
	for (uint32_t k = 0; k < c->n; k++)
		if (g->best[k].score >= 0 && g->up[k] == k)
			roots[nr++] = (struct root){ g->best[k], k };
	if (nr)
		qsort(roots, nr, sizeof *roots, cmp_root);
	for (size_t i = 0; i < nr; i++) {
		idx[roots[i].root] = (uint32_t)i;
		r->cluster_max[i] = roots[i].best.score;
	}
	r->nclusters = nr;
	for (uint32_t k = 0; k < c->n; k++)
		r->cluster[k] = g->best[k].score >= 0 ? idx[find(g->up, k)]
			      : SIM_NO_CLUSTER;
	free(roots);
	return 0;
}

static int cmp_sub_name(const void *x, const void *y)
{
	return strcmp(((const struct sim_sub *)x)->name, ((const struct sim_sub *)y)->name);
}


int sim_class_compare(struct sim_class *c, const struct sim_select *sel,
		      struct sim_result *r, struct strbuf *err)
{
	struct pass ps = { c, c->opts.memory ? c->opts.memory : SIM_MEMORY, NULL, 0 };
	struct gather g = { sel, r, 0, 0, 0, NULL, NULL };
	uint32_t *idx = NULL;
	size_t limit = (size_t)(c->opts.max_share * (double)c->n);
	int rc = -1;

	memset(r, 0, sizeof *r);
	if (c->n > UINT32_MAX - 1) {
		strbuf_addstr(err, "too many submissions");
		return -1;
	}
	if (ps.budget < 64)
		ps.budget = 64;
	/* In order of name: the record is the same whatever order the
	 * submissions came in (a batch's, a merge's shards'). */
	if (c->n)
		qsort(c->subs, c->n, sizeof *c->subs, cmp_sub_name);
	c->idiom_limit = limit < SIM_MIN_IDIOM ? SIM_MIN_IDIOM : limit;
	free(c->idiom_set);
	c->idiom_set = NULL;
	c->idioms = 0;
	r->all_pairs = (uint64_t)c->n * (c->n ? c->n - 1 : 0) / 2;
	g.up = malloc((c->n + 1) * sizeof *g.up);
	g.best = malloc((c->n + 1) * sizeof *g.best);
	idx = malloc((c->n + 1) * sizeof *idx);
	if (!g.up || !g.best || !idx) {
		sim_int_oom(err);
		goto out;
	}
	for (uint32_t k = 0; k < c->n; k++) {
		g.up[k] = k;
		g.best[k].score = -1;
	}
	if (count_pairs(&ps, &g, err) < 0)
		goto out;
	if (clusters(c, &g, idx) < 0) {
		sim_int_oom(err);
		goto out;
	}
	r->hist[0] += r->all_pairs - g.shared;
	if (r->npairs)
		qsort(r->pairs, r->npairs, sizeof *r->pairs, cmp_pair);
	rc = 0;
out:
	/* Regions ask the base's and the idioms' sets (sim_pair_regions),
	 * never the subs' again. */
	sim_spool_close(&c->sets);
	free(ps.set);
	free(idx);
	free(g.up);
	free(g.best);
	return rc;
}
