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

/* ---- a submission: its fingerprints kept, its details spooled ---- */

/* The spool's record of a submission: three counts (tokens,
 * fingerprints, files), the tokens, the fingerprints, then for each file
 * its name's and its text's lengths and their bytes. */
static int spool_detail(struct sim_class *c, struct sim_sub *s,
			const struct sim_detail *d, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	uint64_t head[3] = { d->toks.n, d->fps.n, d->src.n };
	int rc;

	strbuf_add(&sb, head, sizeof head);
	strbuf_add(&sb, d->toks.v, d->toks.n * sizeof *d->toks.v);
	strbuf_add(&sb, d->fps.v, d->fps.n * sizeof *d->fps.v);
	for (size_t i = 0; i < d->src.n; i++) {
		const struct sim_file *f = &d->src.files[i];
		uint64_t lens[2] = { strlen(f->name), f->len };

		strbuf_add(&sb, lens, sizeof lens);
		strbuf_add(&sb, f->name, lens[0]);
		strbuf_add(&sb, f->text, f->len);
	}
	if (strbuf_failed(&sb))
		rc = oom(err);
	else
		rc = sim_spool_put(&c->spool, sb.buf, sb.len, &s->off, err);
	s->len = sb.len;
	strbuf_release(&sb);
	return rc;
}

/* Takes n bytes at *p (of end) into dst: 0, or -1 past end. */
static int take(const char **p, const char *end, void *dst, size_t n)
{
	if ((size_t)(end - *p) < n)
		return -1;
	if (n)
		memcpy(dst, *p, n);
	*p += n;
	return 0;
}

/* A malloc'd copy of n bytes at *p, NUL-terminated; NULL past end or out
 * of memory. */
static char *take_str(const char **p, const char *end, uint64_t n)
{
	char *v;

	if ((uint64_t)(end - *p) < n || !(v = malloc((size_t)n + 1)))
		return NULL;
	take(p, end, v, (size_t)n);
	v[n] = '\0';
	return v;
}

static int parse_detail(const char *p, const char *end, struct sim_detail *d)
{
	uint64_t head[3];

	if (take(&p, end, head, sizeof head) < 0 ||
	    head[0] > (uint64_t)(end - p) / sizeof *d->toks.v ||
	    head[1] > (uint64_t)(end - p) / sizeof *d->fps.v ||
	    head[2] > SIM_SOURCE_FILES)
		return -1;
	d->toks.v = malloc((head[0] + 1) * sizeof *d->toks.v);
	d->fps.v = malloc((head[1] + 1) * sizeof *d->fps.v);
	d->src.files = calloc(head[2] + 1, sizeof *d->src.files);
	if (!d->toks.v || !d->fps.v || !d->src.files)
		return -1;
	d->toks.n = d->toks.alloc = head[0];
	d->fps.n = d->fps.alloc = head[1];
	if (take(&p, end, d->toks.v, d->toks.n * sizeof *d->toks.v) < 0 ||
	    take(&p, end, d->fps.v, d->fps.n * sizeof *d->fps.v) < 0)
		return -1;
	for (; d->src.n < head[2]; d->src.n++) {
		struct sim_file *f = &d->src.files[d->src.n];
		uint64_t lens[2];

		if (take(&p, end, lens, sizeof lens) < 0 ||
		    !(f->name = take_str(&p, end, lens[0])) ||
		    !(f->text = take_str(&p, end, lens[1])))
			return -1;
		f->len = (size_t)lens[1];
	}
	return 0;
}

int sim_class_detail(const struct sim_class *c, uint32_t i, struct sim_detail *d,
		     struct strbuf *err)
{
	const struct sim_sub *s = &c->subs[i];
	char *buf = malloc(s->len + 1);
	int rc = -1;

	*d = (struct sim_detail)SIM_DETAIL_INIT;
	if (!buf)
		return oom(err);
	if (sim_spool_get(&c->spool, s->off, buf, s->len, err) == 0) {
		rc = parse_detail(buf, buf + s->len, d);
		if (rc < 0)
			strbuf_addf(err, "the similarity spool: %s's record is cut "
				    "short, or out of memory", s->name);
	}
	free(buf);
	return rc;
}

void sim_detail_release(struct sim_detail *d)
{
	sim_source_release(&d->src);
	sim_tokens_release(&d->toks);
	sim_fps_release(&d->fps);
}

/* s->keep: the distinct hashes of fps, sorted. */
static int distinct(struct sim_sub *s, const struct sim_fps *fps, struct strbuf *err)
{
	uint64_t *v = malloc((fps->n + 1) * sizeof *v), *w;

	if (!v)
		return oom(err);
	for (size_t j = 0; j < fps->n; j++)
		v[j] = fps->v[j].hash;
	s->nkeep = sort_unique(v, fps->n);
	w = realloc(v, (s->nkeep + 1) * sizeof *v);
	s->keep = w ? w : v;
	return 0;
}

int sim_class_add(struct sim_class *c, const char *name, struct sim_source *src,
		  struct strbuf *err)
{
	struct sim_detail d = SIM_DETAIL_INIT;
	struct sim_sub *s;
	int rc = -1;

	d.src = *src;
	memset(src, 0, sizeof *src);
	if (c->n == c->alloc) {
		size_t na = c->alloc ? 2 * c->alloc : 64;
		struct sim_sub *v = realloc(c->subs, na * sizeof *v);

		if (!v) {
			sim_detail_release(&d);
			return oom(err);
		}
		c->subs = v;
		c->alloc = na;
	}
	s = &c->subs[c->n];
	memset(s, 0, sizeof *s);
	c->n++;
	if (!(s->name = strdup(name)))
		oom(err);
	else if (digest(&c->opts, &d.src, &d.toks, &d.fps, 0, err) == 0 &&
		 distinct(s, &d.fps, err) == 0)
		rc = spool_detail(c, s, &d, err);
	sim_detail_release(&d);
	return rc;
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

/* Step 1: the base out of each sub's fingerprints. */
static size_t reduce(struct sim_class *c)
{
	size_t total = 0;

	for (size_t i = 0; i < c->n; i++) {
		struct sim_sub *s = &c->subs[i];
		size_t k = 0;

		for (size_t j = 0; j < s->nkeep; j++)
			if (!has(c->base_set, c->nbase, s->keep[j]))
				s->keep[k++] = s->keep[j];
		s->nkeep = k;
		total += k;
	}
	return total;
}

/* The posting lists: the fingerprints kept that two subs or more hold
 * (sorted) and, for the i-th, its submissions in order,
 * subs[off[i]..off[i + 1]). */
struct postings {
	uint64_t *hash;
	size_t *off;
	size_t n, alloc;
	uint32_t *subs;
	size_t nsubs;
};

/* A cursor into one sub's sorted set, for the merge. */
struct cursor {
	uint64_t hash;
	uint32_t sub;
	uint32_t at;
};

static int cursor_less(const struct cursor *x, const struct cursor *y)
{
	return x->hash != y->hash ? x->hash < y->hash : x->sub < y->sub;
}

static void cursor_sift(struct cursor *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		struct cursor t;

		if (l < n && cursor_less(&h[l], &h[m]))
			m = l;
		if (l + 1 < n && cursor_less(&h[l + 1], &h[m]))
			m = l + 1;
		if (m == i)
			return;
		t = h[i], h[i] = h[m], h[m] = t;
		i = m;
	}
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

/* The run of subs[from..] for fingerprint h ends: a posting list, or an
 * idiom (into *idioms) when longer than the limit, or nothing when one
 * sub holds it (it makes no pair: most fingerprints of a class). */
static int end_run(struct sim_class *c, struct postings *p, size_t from,
		   uint64_t h, uint64_t **idioms, size_t *ida)
{
	if (p->nsubs - from == 1) {
		p->nsubs = from;
		return 0;
	}
	if (p->nsubs - from > c->idiom_limit) {
		p->nsubs = from;
		if (grow_u64(idioms, c->idioms, ida) < 0)
			return -1;
		(*idioms)[c->idioms++] = h;
		return 0;
	}
	if (p->n + 1 >= p->alloc) {
		size_t na = p->alloc ? 2 * p->alloc : 256;
		uint64_t *hv = realloc(p->hash, na * sizeof *hv);
		size_t *ov;

		if (hv)
			p->hash = hv;
		if (!hv || !(ov = realloc(p->off, na * sizeof *ov)))
			return -1;
		p->off = ov;
		p->alloc = na;
	}
	p->hash[p->n] = h;
	p->off[p->n++] = from;
	p->off[p->n] = p->nsubs;
	return 0;
}

/* Steps 2 and 3: every sub's set merged into posting lists, the idioms
 * left out (of the lists and of each sub's set). */
static int index_class(struct sim_class *c, size_t total, struct postings *p,
		       struct strbuf *err)
{
	struct cursor *h = malloc((c->n + 1) * sizeof *h);
	uint64_t *idioms = NULL, cur = 0;
	size_t nh = 0, ida = 0, from = 0;
	int rc = 0;

	c->idioms = 0;
	p->subs = malloc((total + 1) * sizeof *p->subs);
	if (!h || !p->subs) {
		free(h);
		return oom(err);
	}
	for (size_t i = 0; i < c->n; i++)
		if (c->subs[i].nkeep)
			h[nh++] = (struct cursor){ c->subs[i].keep[0], (uint32_t)i, 0 };
	for (size_t i = nh / 2; i-- > 0;)
		cursor_sift(h, nh, i);
	while (rc == 0 && nh) {
		const struct sim_sub *s = &c->subs[h[0].sub];

		if (p->nsubs > from && h[0].hash != cur) {
			rc = end_run(c, p, from, cur, &idioms, &ida);
			from = p->nsubs;
		}
		cur = h[0].hash;
		p->subs[p->nsubs++] = h[0].sub;
		if (++h[0].at < s->nkeep)
			h[0].hash = s->keep[h[0].at];
		else
			h[0] = h[--nh];
		cursor_sift(h, nh, 0);
	}
	if (rc == 0 && p->nsubs > from)
		rc = end_run(c, p, from, cur, &idioms, &ida);
	free(h);
	/* The idioms leave each sub's set too: they count for nothing,
	 * in the denominator as in the numerator. */
	for (size_t i = 0; rc == 0 && i < c->n; i++) {
		struct sim_sub *s = &c->subs[i];
		size_t n = 0;

		for (size_t j = 0; j < s->nkeep; j++)
			if (!has(idioms, c->idioms, s->keep[j]))
				s->keep[n++] = s->keep[j];
		s->nkeep = n;
	}
	free(c->idiom_set);
	c->idiom_set = idioms;
	return rc < 0 ? oom(err) : 0;
}

static void postings_release(struct postings *p)
{
	free(p->hash);
	free(p->off);
	free(p->subs);
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

/* The posting list of h: its first sub after a (a is in it); none (v ==
 * *end) when a alone holds h. */
static const uint32_t *list_after(const struct postings *p, uint64_t h,
				  uint32_t a, const uint32_t **end)
{
	size_t lo = 0, hi = p->n, id;
	const uint32_t *v;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (p->hash[mid] < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	id = lo;
	if (id == p->n || p->hash[id] != h)
		return *end = p->subs;
	v = p->subs + p->off[id];
	*end = p->subs + p->off[id + 1];
	for (lo = 0, hi = (size_t)(*end - v); lo < hi;) {
		size_t mid = (lo + hi) / 2;

		if (v[mid] <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return v + lo;
}

/* For each sub a, what it shares with each b after it (a counter a
 * sub, reset after a), gathered. */
static int count_pairs(const struct sim_class *c, const struct postings *p,
		       struct gather *g, uint32_t *cnt, uint32_t *touched)
{
	for (uint32_t a = 0; a < c->n; a++) {
		const struct sim_sub *s = &c->subs[a];
		size_t nt = 0;

		for (size_t j = 0; j < s->nkeep; j++) {
			const uint32_t *end, *v = list_after(p, s->keep[j], a, &end);

			for (; v < end; v++)
				if (!cnt[*v]++)
					touched[nt++] = *v;
		}
		for (size_t t = 0; t < nt; t++) {
			uint32_t b = touched[t];

			if (gather_pair(c, g, a, b, cnt[b]) < 0)
				return -1;
			cnt[b] = 0;
		}
	}
	return 0;
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
	struct postings p = { NULL, NULL, 0, 0, NULL, 0 };
	struct gather g = { sel, r, 0, 0, 0, NULL, NULL };
	uint32_t *cnt = NULL, *touched = NULL;
	size_t total, limit = (size_t)(c->opts.max_share * (double)c->n);
	int rc = -1;

	memset(r, 0, sizeof *r);
	if (c->n > UINT32_MAX - 1) {
		strbuf_addstr(err, "too many submissions");
		return -1;
	}
	/* In order of name: the record is the same whatever order the
	 * submissions came in (a batch's, a merge's shards'). */
	if (c->n)
		qsort(c->subs, c->n, sizeof *c->subs, cmp_sub_name);
	c->idiom_limit = limit < SIM_MIN_IDIOM ? SIM_MIN_IDIOM : limit;
	total = reduce(c);
	if (index_class(c, total, &p, err) < 0)
		goto out;
	r->all_pairs = (uint64_t)c->n * (c->n ? c->n - 1 : 0) / 2;
	cnt = calloc(c->n + 1, sizeof *cnt);
	touched = malloc((c->n + 1) * sizeof *touched);
	g.up = malloc((c->n + 1) * sizeof *g.up);
	g.best = malloc((c->n + 1) * sizeof *g.best);
	if (!cnt || !touched || !g.up || !g.best) {
		oom(err);
		goto out;
	}
	for (uint32_t k = 0; k < c->n; k++) {
		g.up[k] = k;
		g.best[k].score = -1;
	}
	if (count_pairs(c, &p, &g, cnt, touched) < 0 ||
	    clusters(c, &g, cnt) < 0) {
		oom(err);
		goto out;
	}
	r->hist[0] += r->all_pairs - g.shared;
	if (r->npairs)
		qsort(r->pairs, r->npairs, sizeof *r->pairs, cmp_pair);
	/* Step 5: the sets are counted; regions ask the base's and the
	 * idioms' sets instead (sim_pair_regions). */
	for (size_t i = 0; i < c->n; i++) {
		free(c->subs[i].keep);
		c->subs[i].keep = NULL;
	}
	rc = 0;
out:
	postings_release(&p);
	free(cnt);
	free(touched);
	free(g.up);
	free(g.best);
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

/* A fingerprint that counts: neither the base's nor an idiom. */
static int kept(const struct sim_class *c, uint64_t h)
{
	return !has(c->base_set, c->nbase, h) && !has(c->idiom_set, c->idioms, h);
}

/* Every (position in a, position in b) of a fingerprint both kept. */
static int matches_of(const struct sim_class *c, const struct sim_detail *da,
		      const struct sim_detail *db, struct match **out, size_t *n)
{
	struct sim_fp *bs = malloc((db->fps.n + 1) * sizeof *bs);
	size_t cap = 64;

	*n = 0;
	*out = malloc(cap * sizeof **out);
	if (!bs || !*out) {
		free(bs);
		return -1;
	}
	memcpy(bs, db->fps.v, db->fps.n * sizeof *bs);
	if (db->fps.n)
		qsort(bs, db->fps.n, sizeof *bs, cmp_fp_hash);
	for (size_t i = 0; i < da->fps.n; i++) {
		uint64_t h = da->fps.v[i].hash;
		size_t lo = 0, hi = db->fps.n;

		/* In b too: found below, or not. */
		if (!kept(c, h))
			continue;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (bs[mid].hash < h)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (size_t j = lo, k = 0; j < db->fps.n && bs[j].hash == h &&
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
			(*out)[(*n)++] = (struct match){ da->fps.v[i].pos, bs[j].pos };
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
static uint32_t kgram_end(const struct sim_tokens *t, uint32_t pos, unsigned k)
{
	uint32_t end = pos + k - 1;

	if (end >= t->n)
		end = (uint32_t)t->n - 1;
	while (end > pos && t->v[end].file != t->v[pos].file)
		end--;
	return end;
}

/* Matches chained into fragments: a match joins a fragment when it
 * follows it on both sides within a gap of w + k tokens (an inserted
 * print, a changed line), in the same files. */
static size_t chain(const struct sim_class *c, const struct sim_tokens *a,
		    const struct sim_tokens *b, const struct match *mv, size_t n,
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
			    a->v[m->pa].file == a->v[g->a_hi].file &&
			    b->v[m->pb].file == b->v[g->b_hi].file)
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

int sim_pair_regions(const struct sim_class *c, const struct sim_detail *da,
		     const struct sim_detail *db,
		     struct sim_region **regions, size_t *n, struct strbuf *err)
{
	const struct sim_tokens *ta = &da->toks, *tb = &db->toks;
	struct match *mv = NULL;
	struct frag *f = NULL;
	size_t nm, nf;

	*regions = NULL;
	*n = 0;
	if (matches_of(c, da, db, &mv, &nm) < 0 ||
	    !(f = malloc((nm + 1) * sizeof *f)) ||
	    !(*regions = malloc((nm + 1) * sizeof **regions))) {
		free(mv);
		free(f);
		return oom(err);
	}
	nf = chain(c, ta, tb, mv, nm, f);
	for (size_t i = 0; i < nf; i++) {
		uint32_t ae = kgram_end(ta, f[i].a_hi, c->opts.k);
		uint32_t be = kgram_end(tb, f[i].b_hi, c->opts.k);

		(*regions)[(*n)++] = (struct sim_region){
			ta->v[f[i].a_lo].file, tb->v[f[i].b_lo].file,
			ta->v[f[i].a_lo].line, ta->v[ae].line,
			tb->v[f[i].b_lo].line, tb->v[be].line,
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
		free(c->subs[i].name);
		free(c->subs[i].keep);
	}
	free(c->subs);
	sim_source_release(&c->base);
	free(c->base_set);
	free(c->idiom_set);
	sim_spool_close(&c->spool);
	c->subs = NULL;
	c->base_set = NULL;
	c->idiom_set = NULL;
	c->n = c->alloc = c->nbase = 0;
}

void sim_result_release(struct sim_result *r)
{
	free(r->pairs);
	free(r->cluster);
	free(r->cluster_max);
	memset(r, 0, sizeof *r);
}
