/* sim_index: see sim_index.h for the theory of operation. */
#include "grader/similarity/sim_index.h"

#include <stdlib.h>
#include <string.h>

#include "grader/lib/strbuf.h"

static int oom(struct strbuf *err)
{
	strbuf_addstr(err, "out of memory");
	return -1;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static int has(const uint64_t *set, size_t n, uint64_t h)
{
	return n && bsearch(&h, set, n, sizeof *set, cmp_u64) != NULL;
}

/* Sorted, each value once: the new length. */
static size_t sort_unique(uint64_t *v, size_t n)
{
	size_t k = 0;

	if (n)
		qsort(v, n, sizeof *v, cmp_u64);
	for (size_t i = 0; i < n; i++)
		if (!k || v[k - 1] != v[i])
			v[k++] = v[i];
	return k;
}

/* Tokens of every file of src into toks (file i marked i); then for each
 * file its fingerprints (or every k-gram), with positions in toks: a
 * k-gram never spans two files. */
static int digest(const struct sim_opts *o, const struct sim_source *src,
		  struct sim_tokens *toks, struct sim_fps *fps, int all,
		  struct strbuf *err)
{
	for (size_t f = 0; f < src->n && f <= UINT16_MAX; f++) {
		size_t first = toks->n;

		if (sim_tokenize(src->files[f].text, src->files[f].len, (uint16_t)f,
				 toks, err) < 0)
			return -1;
		if ((all ? sim_all_kgrams(toks->v + first, toks->n - first, o->k,
					  (uint32_t)first, fps, err)
			 : sim_winnow(toks->v + first, toks->n - first, o->k, o->w,
				      (uint32_t)first, fps, err)) < 0)
			return -1;
	}
	return 0;
}

int sim_class_add(struct sim_class *c, const char *name, struct sim_source *src,
		  struct strbuf *err)
{
	struct sim_sub *s;

	if (c->n == c->alloc) {
		size_t na = c->alloc ? 2 * c->alloc : 64;
		struct sim_sub *v = realloc(c->subs, na * sizeof *v);

		if (!v)
			return oom(err);
		c->subs = v;
		c->alloc = na;
	}
	s = &c->subs[c->n];
	memset(s, 0, sizeof *s);
	s->src = *src;
	memset(src, 0, sizeof *src);
	c->n++;
	if (!(s->name = strdup(name)))
		return oom(err);
	return digest(&c->opts, &s->src, &s->toks, &s->fps, 0, err);
}

int sim_class_add_base(struct sim_class *c, struct sim_source *src,
		       struct strbuf *err)
{
	struct sim_tokens toks = SIM_TOKENS_INIT;
	struct sim_fps fps = SIM_FPS_INIT;
	uint64_t *v;
	int rc = -1;

	for (size_t i = 0; i < src->n; i++)
		if (sim_source_add(&c->base, src->files[i].name, src->files[i].text,
				   src->files[i].len, err) < 0)
			goto out;
	if (digest(&c->opts, src, &toks, &fps, 1, err) < 0)
		goto out;
	if (!(v = realloc(c->base_set, (c->nbase + fps.n + 1) * sizeof *v))) {
		oom(err);
		goto out;
	}
	c->base_set = v;
	for (size_t i = 0; i < fps.n; i++)
		v[c->nbase++] = fps.v[i].hash;
	c->nbase = sort_unique(v, c->nbase);
	rc = 0;
out:
	sim_source_release(src);
	sim_tokens_release(&toks);
	sim_fps_release(&fps);
	return rc;
}

/* ---- the index ---- */

struct entry {
	uint64_t hash;
	uint32_t sub;
};

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash > y->hash ? 1 : -1;
	return (x->sub > y->sub) - (x->sub < y->sub);
}

/* Step 1: each sub's distinct fingerprints less the base's. */
static int reduce(struct sim_class *c, size_t *total, struct strbuf *err)
{
	*total = 0;
	for (size_t i = 0; i < c->n; i++) {
		struct sim_sub *s = &c->subs[i];
		size_t k = 0;

		free(s->keep);
		if (!(s->keep = malloc((s->fps.n + 1) * sizeof *s->keep)))
			return oom(err);
		for (size_t j = 0; j < s->fps.n; j++)
			s->keep[j] = s->fps.v[j].hash;
		s->nkeep = sort_unique(s->keep, s->fps.n);
		for (size_t j = 0; j < s->nkeep; j++)
			if (!has(c->base_set, c->nbase, s->keep[j]))
				s->keep[k++] = s->keep[j];
		s->nkeep = k;
		*total += k;
	}
	return 0;
}

/* Pair counts: open addressing on (a << 32 | b) + 1 (0 is empty). */
struct counts {
	uint64_t *key;
	uint32_t *val;
	size_t cap, n;
};

static size_t slot_of(uint64_t key, size_t cap)
{
	key *= 0x9e3779b97f4a7c15ULL;
	return (size_t)(key >> 20) & (cap - 1);
}

static int counts_grow(struct counts *m)
{
	size_t cap = m->cap ? 2 * m->cap : 1024;
	uint64_t *key = calloc(cap, sizeof *key);
	uint32_t *val = calloc(cap, sizeof *val);

	if (!key || !val) {
		free(key);
		free(val);
		return -1;
	}
	for (size_t i = 0; i < m->cap; i++) {
		size_t j;

		if (!m->key[i])
			continue;
		for (j = slot_of(m->key[i], cap); key[j]; j = (j + 1) & (cap - 1))
			;
		key[j] = m->key[i];
		val[j] = m->val[i];
	}
	free(m->key);
	free(m->val);
	m->key = key;
	m->val = val;
	m->cap = cap;
	return 0;
}

static int counts_add(struct counts *m, uint32_t a, uint32_t b)
{
	uint64_t key = ((uint64_t)a << 32 | b) + 1;
	size_t j;

	if (2 * (m->n + 1) > m->cap && counts_grow(m) < 0)
		return -1;
	for (j = slot_of(key, m->cap); m->key[j] && m->key[j] != key;
	     j = (j + 1) & (m->cap - 1))
		;
	if (!m->key[j]) {
		m->key[j] = key;
		m->n++;
	}
	m->val[j]++;
	return 0;
}

/* Steps 2 to 4: the posting lists, the idioms (into *idioms, sorted) and
 * the pair counts. */
static int index_pairs(struct sim_class *c, size_t total, struct counts *m,
		       uint64_t **idioms, struct strbuf *err)
{
	struct entry *e = malloc((total + 1) * sizeof *e);
	size_t k = 0, nid = 0;
	int rc = 0;

	*idioms = malloc((total + 1) * sizeof **idioms);
	if (!e || !*idioms) {
		free(e);
		return oom(err);
	}
	for (size_t i = 0; i < c->n; i++)
		for (size_t j = 0; j < c->subs[i].nkeep; j++)
			e[k++] = (struct entry){ c->subs[i].keep[j], (uint32_t)i };
	if (total)
		qsort(e, total, sizeof *e, cmp_entry);
	for (size_t i = 0; rc == 0 && i < total;) {
		size_t j = i;

		while (j < total && e[j].hash == e[i].hash)
			j++;
		if (j - i > c->idiom_limit)
			(*idioms)[nid++] = e[i].hash;
		else
			for (size_t x = i; rc == 0 && x < j; x++)
				for (size_t y = x + 1; rc == 0 && y < j; y++)
					rc = counts_add(m, e[x].sub, e[y].sub);
		i = j;
	}
	free(e);
	c->idioms = nid;
	if (rc < 0)
		return oom(err);
	/* The idioms leave each sub's set too: they count for nothing,
	 * in the denominator as in the numerator. */
	for (size_t i = 0; i < c->n; i++) {
		struct sim_sub *s = &c->subs[i];
		size_t n = 0;

		for (size_t j = 0; j < s->nkeep; j++)
			if (!has(*idioms, nid, s->keep[j]))
				s->keep[n++] = s->keep[j];
		s->nkeep = n;
	}
	return 0;
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

static int cmp_sub_name(const void *x, const void *y)
{
	return strcmp(((const struct sim_sub *)x)->name, ((const struct sim_sub *)y)->name);
}

int sim_class_compare(struct sim_class *c, struct sim_result *r, struct strbuf *err)
{
	struct counts m = { NULL, NULL, 0, 0 };
	uint64_t *idioms = NULL;
	size_t total, limit = (size_t)(c->opts.max_share * (double)c->n);
	int rc = -1;

	memset(r, 0, sizeof *r);
	/* In order of name: the record is the same whatever order the
	 * submissions came in (a batch's, a merge's shards'). */
	if (c->n)
		qsort(c->subs, c->n, sizeof *c->subs, cmp_sub_name);
	c->idiom_limit = limit < SIM_MIN_IDIOM ? SIM_MIN_IDIOM : limit;
	if (reduce(c, &total, err) < 0 || index_pairs(c, total, &m, &idioms, err) < 0)
		goto out;
	r->all_pairs = (uint64_t)c->n * (c->n ? c->n - 1 : 0) / 2;
	if (!(r->pairs = malloc((m.n + 1) * sizeof *r->pairs))) {
		oom(err);
		goto out;
	}
	for (size_t i = 0; i < m.cap; i++) {
		uint64_t key;
		struct sim_pair *p;

		if (!m.key[i])
			continue;
		/* Recounted after the idioms left: a list is never both
		 * counted and an idiom, so the counts stand. */
		key = m.key[i] - 1;
		p = &r->pairs[r->npairs++];
		p->a = (uint32_t)(key >> 32);
		p->b = (uint32_t)key;
		p->shared = m.val[i];
		p->score = pair_score(c, p->a, p->b, p->shared);
		r->hist[bin_of(p->score)]++;
	}
	r->hist[0] += r->all_pairs - r->npairs;
	if (r->npairs)
		qsort(r->pairs, r->npairs, sizeof *r->pairs, cmp_pair);
	rc = 0;
out:
	free(m.key);
	free(m.val);
	free(idioms);
	return rc;
}

/* ---- regions ---- */

struct match {
	uint32_t pa, pb;
};

static int cmp_match(const void *x, const void *y)
{
	const struct match *a = x, *b = y;

	if (a->pa != b->pa)
		return a->pa < b->pa ? -1 : 1;
	return (a->pb > b->pb) - (a->pb < b->pb);
}

static int cmp_fp_hash(const void *x, const void *y)
{
	const struct sim_fp *a = x, *b = y;

	if (a->hash != b->hash)
		return a->hash > b->hash ? 1 : -1;
	return (a->pos > b->pos) - (a->pos < b->pos);
}

#define MAX_OCCUR 4   /* positions of one fingerprint matched per side */

/* Every (position in a, position in b) of a fingerprint both kept. */
static int matches_of(const struct sim_sub *a, const struct sim_sub *b,
		      struct match **out, size_t *n)
{
	struct sim_fp *bs = malloc((b->fps.n + 1) * sizeof *bs);
	size_t cap = 64;

	*n = 0;
	*out = malloc(cap * sizeof **out);
	if (!bs || !*out) {
		free(bs);
		return -1;
	}
	memcpy(bs, b->fps.v, b->fps.n * sizeof *bs);
	if (b->fps.n)
		qsort(bs, b->fps.n, sizeof *bs, cmp_fp_hash);
	for (size_t i = 0; i < a->fps.n; i++) {
		uint64_t h = a->fps.v[i].hash;
		size_t lo = 0, hi = b->fps.n;

		if (!has(a->keep, a->nkeep, h) || !has(b->keep, b->nkeep, h))
			continue;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (bs[mid].hash < h)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (size_t j = lo, k = 0; j < b->fps.n && bs[j].hash == h &&
		     k < MAX_OCCUR; j++, k++) {
			if (*n == cap) {
				struct match *v = realloc(*out, 2 * cap * sizeof *v);

				if (!v) {
					free(bs);
					return -1;
				}
				*out = v;
				cap *= 2;
			}
			(*out)[(*n)++] = (struct match){ a->fps.v[i].pos, bs[j].pos };
		}
	}
	free(bs);
	if (*n)
		qsort(*out, *n, sizeof **out, cmp_match);
	return 0;
}

struct frag {
	uint32_t a_lo, a_hi, b_lo, b_hi;   /* first and last matched k-gram */
};

/* The last token of the k-gram at pos, kept in its own file. */
static uint32_t kgram_end(const struct sim_sub *s, uint32_t pos, unsigned k)
{
	uint32_t end = pos + k - 1;

	if (end >= s->toks.n)
		end = (uint32_t)s->toks.n - 1;
	while (end > pos && s->toks.v[end].file != s->toks.v[pos].file)
		end--;
	return end;
}

/* Matches chained into fragments: a match joins a fragment when it
 * follows it on both sides within a gap of w + k tokens (an inserted
 * print, a changed line), in the same files. */
static size_t chain(const struct sim_class *c, const struct sim_sub *a,
		    const struct sim_sub *b, const struct match *mv, size_t n,
		    struct frag *f)
{
	uint32_t gap = c->opts.w + c->opts.k;
	size_t nf = 0;

	for (size_t i = 0; i < n; i++) {
		const struct match *m = &mv[i];
		size_t j;

		for (j = nf; j-- > 0;) {
			struct frag *g = &f[j];

			if (m->pa >= g->a_hi && m->pa - g->a_hi <= gap &&
			    m->pb >= g->b_hi && m->pb - g->b_hi <= gap &&
			    a->toks.v[m->pa].file == a->toks.v[g->a_hi].file &&
			    b->toks.v[m->pb].file == b->toks.v[g->b_hi].file)
				break;
		}
		if (j != (size_t)-1) {
			f[j].a_hi = m->pa;
			f[j].b_hi = m->pb;
		} else {
			f[nf++] = (struct frag){ m->pa, m->pa, m->pb, m->pb };
		}
	}
	return nf;
}

static int cmp_region(const void *x, const void *y)
{
	const struct sim_region *a = x, *b = y;

	if (a->a_file != b->a_file)
		return a->a_file < b->a_file ? -1 : 1;
	if (a->a_from != b->a_from)
		return a->a_from < b->a_from ? -1 : 1;
	return (a->b_from > b->b_from) - (a->b_from < b->b_from);
}

int sim_pair_regions(const struct sim_class *c, uint32_t ia, uint32_t ib,
		     struct sim_region **regions, size_t *n, struct strbuf *err)
{
	const struct sim_sub *a = &c->subs[ia], *b = &c->subs[ib];
	struct match *mv = NULL;
	struct frag *f = NULL;
	size_t nm, nf;

	*regions = NULL;
	*n = 0;
	if (matches_of(a, b, &mv, &nm) < 0 ||
	    !(f = malloc((nm + 1) * sizeof *f)) ||
	    !(*regions = malloc((nm + 1) * sizeof **regions))) {
		free(mv);
		free(f);
		return oom(err);
	}
	nf = chain(c, a, b, mv, nm, f);
	for (size_t i = 0; i < nf; i++) {
		uint32_t ae = kgram_end(a, f[i].a_hi, c->opts.k);
		uint32_t be = kgram_end(b, f[i].b_hi, c->opts.k);

		(*regions)[(*n)++] = (struct sim_region){
			a->toks.v[f[i].a_lo].file, b->toks.v[f[i].b_lo].file,
			a->toks.v[f[i].a_lo].line, a->toks.v[ae].line,
			b->toks.v[f[i].b_lo].line, b->toks.v[be].line,
			ae - f[i].a_lo + 1,
		};
	}
	if (*n)
		qsort(*regions, *n, sizeof **regions, cmp_region);
	free(mv);
	free(f);
	return 0;
}

void sim_class_release(struct sim_class *c)
{
	for (size_t i = 0; i < c->n; i++) {
		struct sim_sub *s = &c->subs[i];

		free(s->name);
		sim_source_release(&s->src);
		sim_tokens_release(&s->toks);
		sim_fps_release(&s->fps);
		free(s->keep);
	}
	free(c->subs);
	sim_source_release(&c->base);
	free(c->base_set);
	c->subs = NULL;
	c->base_set = NULL;
	c->n = c->alloc = c->nbase = 0;
}

void sim_result_release(struct sim_result *r)
{
	free(r->pairs);
	memset(r, 0, sizeof *r);
}
