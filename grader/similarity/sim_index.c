/* sim_index: see sim_index.h for the theory of operation. */
#include "grader/similarity/sim_index.h"

#include <stdlib.h>
#include <string.h>

#include "grader/lib/strbuf.h"
#include "grader/similarity/sim_int.h"

int sim_int_oom(struct strbuf *err)
{
	strbuf_addstr(err, "out of memory");
	return -1;
}

int sim_int_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

int sim_int_has(const uint64_t *set, size_t n, uint64_t h)
{
	return n && bsearch(&h, set, n, sizeof *set, sim_int_cmp_u64) != NULL;
}


/* Sorted, each value once: the new length. */
static size_t sort_unique(uint64_t *v, size_t n)
{
	size_t k = 0;

	if (n)
		qsort(v, n, sizeof *v, sim_int_cmp_u64);
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
		rc = sim_int_oom(err);
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
		return sim_int_oom(err);
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

/* s's set: the distinct hashes of fps, sorted, into the class's sets
 * spool (the comparison reads them back, sim_compare.c). */
static int distinct(struct sim_class *c, struct sim_sub *s,
		    const struct sim_fps *fps, struct strbuf *err)
{
	uint64_t *v = malloc((fps->n + 1) * sizeof *v);
	int rc;

	if (!v)
		return sim_int_oom(err);
	for (size_t j = 0; j < fps->n; j++)
		v[j] = fps->v[j].hash;
	s->nset = sort_unique(v, fps->n);
	if (!c->sets.open)
		c->sets.dir = c->spool.dir;
	rc = sim_spool_put(&c->sets, v, s->nset * sizeof *v, &s->set_off, err);
	free(v);
	return rc;
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
			return sim_int_oom(err);
		}
		c->subs = v;
		c->alloc = na;
	}
	s = &c->subs[c->n];
	memset(s, 0, sizeof *s);
	c->n++;
	if (!(s->name = strdup(name)))
		sim_int_oom(err);
	else if (digest(&c->opts, &d.src, &d.toks, &d.fps, 0, err) == 0 &&
		 distinct(c, s, &d.fps, err) == 0)
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
		sim_int_oom(err);
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
	return !sim_int_has(c->base_set, c->nbase, h) && !sim_int_has(c->idiom_set, c->idioms, h);
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
		return sim_int_oom(err);
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
	for (size_t i = 0; i < c->n; i++)
		free(c->subs[i].name);
	free(c->subs);
	sim_source_release(&c->base);
	free(c->base_set);
	free(c->idiom_set);
	sim_spool_close(&c->spool);
	sim_spool_close(&c->sets);
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
