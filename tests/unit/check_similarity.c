/*
 * similarity (grader/similarity): the C tokenizer, winnowing's guarantee,
 * the class index (base subtraction, idioms, scores, regions) and the
 * JSON record.
 */
#include <stdlib.h>
#include <string.h>

#include "grader/lib/strbuf.h"
#include "grader/report/html.h"
#include "grader/similarity/sim_index.h"
#include "grader/similarity/sim_report.h"
#include "grader/similarity/sim_source.h"
#include "grader/similarity/sim_token.h"
#include "grader/similarity/sim_winnow.h"
#include "tests/unit/wg_check.h"

/* The kinds of src's tokens, space-separated, into a static buffer; with
 * lines, "NAME@LINE". */
static const char *lex_n(const char *src, size_t len, int lines)
{
	static char out[4096];
	struct sim_tokens t = SIM_TOKENS_INIT;
	struct strbuf err = STRBUF_INIT;
	size_t o = 0;

	ck_assert_int_eq(sim_tokenize(src, len, 0, &t, &err), 0);
	out[0] = '\0';
	for (size_t i = 0; i < t.n && o < sizeof out - 64; i++) {
		o += (size_t)snprintf(out + o, sizeof out - o, "%s%s", i ? " " : "",
				      sim_token_name(t.v[i].kind));
		if (lines)
			o += (size_t)snprintf(out + o, sizeof out - o, "@%u",
					      (unsigned)t.v[i].line);
	}
	sim_tokens_release(&t);
	strbuf_release(&err);
	return out;
}

static const char *lex(const char *src)
{
	return lex_n(src, strlen(src), 0);
}

static const char *lex_lines(const char *src)
{
	return lex_n(src, strlen(src), 1);
}

START_TEST(test_token_kinds)
{
	ck_assert_str_eq(lex("int main(void) { x += 0x1F; return 'a' + \"s\"; }"),
			 "TYPE ID ( TYPE ) { ID += NUM ; return CHR + STR ; }");
	/* Every keyword keeps its kind; qualifiers go; type words merge. */
	ck_assert_str_eq(lex("static const unsigned long long n = sizeof(struct s);"),
			 "TYPE ID = sizeof ( struct ID ) ;");
	ck_assert_str_eq(lex("size_t a; uint64_t b; FILE *f;"),
			 "TYPE ID ; TYPE ID ; TYPE * ID ;");
	ck_assert_str_eq(lex("for (;;) while (x) do {} while (0); if (a) else b; "
			     "switch (c) { case 1: default: break; continue; goto l; }"),
			 "for ( ; ; ) while ( ID ) do { } while ( NUM ) ; if ( ID ) "
			 "else ID ; switch ( ID ) { case NUM : default : break ; "
			 "continue ; goto ID ; }");
	/* Every multi-character punctuator, maximal munch, digraphs. */
	ck_assert_str_eq(lex("a<<=b>>=c->d...e++f--g<<h>>i<=j>=k==l!=m&&n||o"),
			 "ID <<= ID >>= ID -> ID ... ID ++ ID -- ID << ID >> ID <= "
			 "ID >= ID == ID != ID && ID || ID");
	ck_assert_str_eq(lex("a*=b/=c%=d+=e-=f&=g^=h|=i"),
			 "ID *= ID /= ID %= ID += ID -= ID &= ID ^= ID |= ID");
	ck_assert_str_eq(lex("x <: 1 :> <% %> ? : ~ ! , . ^ | & %"),
			 "ID [ NUM ] { } ? : ~ ! , . ^ | & %");
	/* Numbers: exponents with signs, hex floats, a leading dot,
	 * suffixes; a byte that starts no token. */
	ck_assert_str_eq(lex("1e+5 0x1p-3 .5 10UL 1.5f @"), "NUM NUM NUM NUM NUM OTHER");
}
END_TEST

START_TEST(test_token_comments_strings)
{
	ck_assert_str_eq(lex_lines("a /* b\n c */ d // e\n f"), "ID@1 ID@2 ID@3");
	/* Escapes: a quote, a backslash; comment markers inside literals. */
	ck_assert_str_eq(lex("\"a\\\"b /* no */\" x '\\'' y '\\\\' \"//\" z"),
			 "STR ID CHR ID CHR STR ID");
	ck_assert_str_eq(lex("L\"w\" u8\"x\" u'c' U\"y\" Lx"), "STR STR CHR STR ID");
	/* An unterminated string ends at the line's end; an unterminated
	 * comment at the file's. */
	ck_assert_str_eq(lex_lines("\"abc\nx"), "STR@1 ID@2");
	ck_assert_str_eq(lex("x /* never closed"), "ID");
	/* A NUL byte inside a comment and outside. */
	ck_assert_str_eq(lex_n("a /* \0 */ b \0 c", 15, 0), "ID ID OTHER ID");
}
END_TEST

START_TEST(test_token_splices_directives)
{
	/* A splice inside a word, an operator and a line comment. */
	ck_assert_str_eq(lex_lines("in\\\nt x +\\\n= 1; // c\\\nstill\ny"),
			 "TYPE@1 ID@2 +=@2 NUM@3 ;@3 ID@5");
	ck_assert_str_eq(lex("a\\\r\nb"), "ID");
	/* Directives: dropped to the end of the logical line, their strings
	 * and comments scanned as such. */
	ck_assert_str_eq(lex_lines("#include <stdio.h>\n  # define S \"//\" \\\n more\n"
				   "/* c */ #if 0\nint x; a # b"),
			 "TYPE@5 ID@5 ;@5 ID@5 #@5 ID@5");
	/* A comment is one space (phase 3) before directives (phase 4): the
	 * directive goes on past a newline inside a comment. */
	ck_assert_str_eq(lex("#define A /* multi\nline */ int y;\nz"), "ID");
}
END_TEST

/* ---- winnowing ---- */

static void random_tokens(struct sim_token *t, size_t n, unsigned *seed)
{
	for (size_t i = 0; i < n; i++)
		t[i] = (struct sim_token){ (uint16_t)(1 + rand_r(seed) % 40), 0, 1 };
}

/* Whether a and b share a fingerprint selected inside the shared run
 * [ra, ra + len) of a and [rb, rb + len) of b. */
static int shares_in_run(const struct sim_fps *a, const struct sim_fps *b,
			 size_t ra, size_t rb, size_t len, unsigned k)
{
	for (size_t i = 0; i < a->n; i++) {
		if (a->v[i].pos < ra || a->v[i].pos + k > ra + len)
			continue;
		for (size_t j = 0; j < b->n; j++)
			if (b->v[j].hash == a->v[i].hash && b->v[j].pos >= rb &&
			    b->v[j].pos + k <= rb + len &&
			    b->v[j].pos - rb == a->v[i].pos - ra)
				return 1;
	}
	return 0;
}

START_TEST(test_winnow_guarantee)
{
	unsigned seed = 20;
	static const unsigned ks[] = { 1, 5, 15 }, ws[] = { 1, 4, 8, 13 };

	for (int round = 0; round < 300; round++) {
		unsigned k = ks[round % 3], w = ws[(round / 3) % 4];
		size_t len = w + k - 1, na = 50 + (size_t)(rand_r(&seed) % 200),
		       nb = 50 + (size_t)(rand_r(&seed) % 200);
		struct sim_token *a = malloc((na + len) * sizeof *a);
		struct sim_token *b = malloc((nb + len) * sizeof *b);
		struct sim_token run[64];
		struct sim_fps fa = SIM_FPS_INIT, fb = SIM_FPS_INIT;
		struct strbuf err = STRBUF_INIT;
		size_t ra = (size_t)rand_r(&seed) % na, rb = (size_t)rand_r(&seed) % nb;

		random_tokens(a, na + len, &seed);
		random_tokens(b, nb + len, &seed);
		random_tokens(run, len, &seed);
		memcpy(a + ra, run, len * sizeof *run);
		memcpy(b + rb, run, len * sizeof *run);
		ck_assert_int_eq(sim_winnow(a, na + len, k, w, 0, &fa, &err), 0);
		ck_assert_int_eq(sim_winnow(b, nb + len, k, w, 0, &fb, &err), 0);
		ck_assert_msg(shares_in_run(&fa, &fb, ra, rb, len, k),
			      "k %u w %u: a run of %zu tokens without a shared "
			      "fingerprint", k, w, len);
		/* Positions in order, and no window left without a pick. */
		for (size_t i = 1; i < fa.n; i++) {
			ck_assert_uint_gt(fa.v[i].pos, fa.v[i - 1].pos);
			ck_assert_uint_le(fa.v[i].pos - fa.v[i - 1].pos, w);
		}
		sim_fps_release(&fa);
		sim_fps_release(&fb);
		free(a);
		free(b);
	}
}
END_TEST

START_TEST(test_winnow_small)
{
	struct sim_token t[20];
	struct sim_fps f = SIM_FPS_INIT;
	struct strbuf err = STRBUF_INIT;
	unsigned seed = 3;

	random_tokens(t, 20, &seed);
	/* Fewer tokens than k: nothing; fewer k-grams than w: one pick. */
	ck_assert_int_eq(sim_winnow(t, 4, 5, 4, 0, &f, &err), 0);
	ck_assert_uint_eq(f.n, 0);
	ck_assert_int_eq(sim_winnow(t, 7, 5, 8, 100, &f, &err), 0);
	ck_assert_uint_eq(f.n, 1);
	ck_assert_uint_ge(f.v[0].pos, 100);
	sim_fps_release(&f);
	/* The hash is the kinds', not the lines' or files'. */
	struct sim_token u[5];
	memcpy(u, t, sizeof u);
	for (int i = 0; i < 5; i++)
		u[i].line = 99, u[i].file = 3;
	ck_assert(sim_kgram_hash(t, 5) == sim_kgram_hash(u, 5));
	u[4].kind++;
	ck_assert(sim_kgram_hash(t, 5) != sim_kgram_hash(u, 5));
}
END_TEST

/* ---- the class ---- */

/* Every pair that shares a fingerprint kept. */
static const struct sim_select all = SIM_SELECT_ALL;

static void add_text(struct sim_class *c, const char *name, const char *text)
{
	struct sim_source s = { NULL, 0 };
	struct strbuf err = STRBUF_INIT;

	ck_assert_int_eq(sim_source_add(&s, "main.c", text, strlen(text), &err), 0);
	ck_assert_int_eq(sim_class_add(c, name, &s, &err), 0);
	strbuf_release(&err);
}

static char *read_all(const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	ck_assert_msg(strbuf_read_file(&sb, path, 1 << 20) == 0, "%s", path);
	return strbuf_detach(&sb, NULL);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static const struct sim_pair *find_pair(const struct sim_result *r, uint32_t a,
					uint32_t b)
{
	for (size_t i = 0; i < r->npairs; i++)
		if ((r->pairs[i].a == a && r->pairs[i].b == b) ||
		    (r->pairs[i].a == b && r->pairs[i].b == a))
			return &r->pairs[i];
	return NULL;
}

/* The score of the pair named a and b (compare sorts subs by name). */
static double score_of(const struct sim_class *c, const struct sim_result *r,
		       const char *a, const char *b)
{
	uint32_t ia = UINT32_MAX, ib = UINT32_MAX;
	const struct sim_pair *p;

	for (uint32_t i = 0; i < c->n; i++) {
		if (!strcmp(c->subs[i].name, a))
			ia = i;
		if (!strcmp(c->subs[i].name, b))
			ib = i;
	}
	ck_assert_msg(ia != UINT32_MAX && ib != UINT32_MAX, "%s, %s", a, b);
	p = find_pair(r, ia, ib);
	return p ? p->score : 0;
}

/* Sub k's distinct fingerprints (from its details) that the sorted set
 * v (n of them) does not hold; its nset checked on the way. */
static size_t unique_not_in(const struct sim_class *c, uint32_t k,
			    const uint64_t *v, size_t n)
{
	struct sim_detail d;
	struct strbuf err = STRBUF_INIT;
	uint64_t *h;
	size_t distinct = 0, left = 0;

	ck_assert_int_eq(sim_class_detail(c, k, &d, &err), 0);
	h = malloc((d.fps.n + 1) * sizeof *h);
	ck_assert_ptr_nonnull(h);
	for (size_t i = 0; i < d.fps.n; i++)
		h[i] = d.fps.v[i].hash;
	qsort(h, d.fps.n, sizeof *h, cmp_u64);
	for (size_t i = 0; i < d.fps.n; i++) {
		if (i && h[i] == h[i - 1])
			continue;
		distinct++;
		left += !n || !bsearch(&h[i], v, n, sizeof *v, cmp_u64);
	}
	ck_assert_uint_eq(c->subs[k].nset, distinct);
	free(h);
	sim_detail_release(&d);
	strbuf_release(&err);
	return left;
}

/* Two independent solutions that both paste the starter's functions: the
 * starter makes them look alike until it is subtracted. */
START_TEST(test_base_subtraction)
{
	char *starter = read_all("tests/similarity/starter.c");
	char *table = read_all("tests/similarity/solutions/table/main.c");
	char *model = read_all("tests/similarity/solutions/model/main.c");
	struct strbuf err = STRBUF_INIT;
	double without, with;

	for (int base = 0; base < 2; base++) {
		struct sim_class c = SIM_CLASS_INIT;
		struct sim_result r;
		size_t kept[3];
		const char *named[3];

		if (base) {
			struct sim_source s = { NULL, 0 };

			ck_assert_int_eq(sim_source_add(&s, "starter.c", starter,
							strlen(starter), &err), 0);
			ck_assert_int_eq(sim_class_add_base(&c, &s, &err), 0);
			ck_assert_uint_gt(c.nbase, 100);
		}
		add_text(&c, "table", table);
		add_text(&c, "model", model);
		add_text(&c, "table-copy", table);
		/* What is kept of each is its distinct fingerprints that are
		 * no k-gram of the starter. */
		for (size_t k = 0; base && k < c.n; k++)
			kept[k] = unique_not_in(&c, (uint32_t)k, c.base_set, c.nbase),
			named[k] = c.subs[k].name;
		ck_assert_int_eq(sim_class_compare(&c, &all, &r, &err), 0);
		/* (compare sorts the subs by name; a name stays where it was) */
		for (size_t k = 0; base && k < c.n; k++)
			for (size_t i = 0; i < c.n; i++)
				if (c.subs[i].name == named[k])
					ck_assert_uint_eq(c.subs[i].nkeep, kept[k]);
		ck_assert(!c.sets.open);   /* the sets spool is closed */
		if (base) {
			with = score_of(&c, &r, "table", "model");
		} else {
			without = score_of(&c, &r, "table", "model");
		}
		/* The copy is a copy either way. */
		ck_assert_double_ge(score_of(&c, &r, "table", "table-copy"), 0.99);
		sim_result_release(&r);
		sim_class_release(&c);
	}
	ck_assert_double_gt(without, 0.2);
	ck_assert_double_lt(with, 0.1);
	free(starter);
	free(table);
	free(model);
	strbuf_release(&err);
}
END_TEST

/* A fingerprint in more than the idiom limit's submissions counts for
 * nothing: twelve identical submissions share nothing that counts. */
START_TEST(test_idioms)
{
	char *table = read_all("tests/similarity/solutions/table/main.c");
	char *chain = read_all("tests/similarity/solutions/chain/main.c");
	struct sim_class c = SIM_CLASS_INIT;
	struct sim_result r;
	struct strbuf err = STRBUF_INIT;
	char name[16];

	for (int i = 0; i < 12; i++) {
		snprintf(name, sizeof name, "s%02d", i);
		add_text(&c, name, table);
	}
	add_text(&c, "chain", chain);
	add_text(&c, "chain-copy", chain);
	ck_assert_int_eq(sim_class_compare(&c, &all, &r, &err), 0);
	ck_assert_uint_eq(c.idiom_limit, SIM_MIN_IDIOM);
	ck_assert_uint_gt(c.idioms, 50);
	ck_assert_double_eq(score_of(&c, &r, "s00", "s01"), 0);
	ck_assert_double_ge(score_of(&c, &r, "chain", "chain-copy"), 0.99);
	ck_assert_uint_eq(r.all_pairs, 14 * 13 / 2);
	/* Sorted, highest first; the histogram counts every pair. */
	uint64_t total = 0;
	for (int i = 0; i < SIM_HIST_BINS; i++)
		total += r.hist[i];
	ck_assert_uint_eq(total, r.all_pairs);
	for (size_t i = 1; i < r.npairs; i++)
		ck_assert_double_ge(r.pairs[i - 1].score, r.pairs[i].score);
	sim_result_release(&r);
	sim_class_release(&c);
	free(table);
	free(chain);
}
END_TEST

/* The comparison holds at most opts.memory bytes of the class's sets at
 * once, in more passes when the class holds more (parts for the idioms,
 * blocks for the pairs): whatever the budget, the same result, to the
 * pair, the histogram, the clusters, the idioms and each denominator. A
 * set larger than the budget is a block of its own. */
START_TEST(test_memory_passes)
{
	const char *names[] = { "table", "chain", "model", "terse", "scanf", "verbose" };
	const size_t budget[] = { 0, 16384, 1 };
	struct sim_class c[3];
	struct sim_result r[3];
	struct strbuf err = STRBUF_INIT;
	char *starter = read_all("tests/similarity/starter.c");

	for (int k = 0; k < 3; k++) {
		struct sim_source base = { NULL, 0 };
		char name[32];

		c[k] = (struct sim_class)SIM_CLASS_INIT;
		c[k].opts.memory = budget[k];
		ck_assert_int_eq(sim_source_add(&base, "starter.c", starter,
						strlen(starter), &err), 0);
		ck_assert_int_eq(sim_class_add_base(&c[k], &base, &err), 0);
		/* Each solution once or more (pairs of copies), the table 12
		 * times (its fingerprints are idioms), added in an order
		 * that is not the names'. */
		for (int i = 5; i >= 0; i--) {
			char path[80], *text;

			snprintf(path, sizeof path, "tests/similarity/solutions/%s/main.c",
				 names[i]);
			text = read_all(path);
			for (int j = 0; j < (i ? 1 + i % 3 : 12); j++) {
				snprintf(name, sizeof name, "%s%02d", names[i], j);
				add_text(&c[k], name, text);
			}
			free(text);
		}
		ck_assert_int_eq(sim_class_compare(&c[k], &all, &r[k], &err), 0);
	}
	ck_assert_uint_eq(c[0].parts, 1);
	ck_assert_uint_eq(c[0].blocks, 1);
	ck_assert_uint_gt(c[1].parts, 1);
	ck_assert_uint_gt(c[1].blocks, 1);
	ck_assert_uint_lt(c[1].blocks, c[1].n);
	ck_assert_uint_eq(c[2].blocks, c[2].n);
	ck_assert_uint_gt(c[0].idioms, 50);
	ck_assert_uint_gt(r[0].npairs, 20);
	for (int k = 1; k < 3; k++) {
		ck_assert_uint_eq(r[k].npairs, r[0].npairs);
		for (size_t i = 0; i < r[0].npairs; i++) {
			ck_assert_uint_eq(r[k].pairs[i].a, r[0].pairs[i].a);
			ck_assert_uint_eq(r[k].pairs[i].b, r[0].pairs[i].b);
			ck_assert_uint_eq(r[k].pairs[i].shared, r[0].pairs[i].shared);
			ck_assert_double_eq(r[k].pairs[i].score, r[0].pairs[i].score);
		}
		ck_assert(!memcmp(r[k].hist, r[0].hist, sizeof r[0].hist));
		ck_assert_uint_eq(r[k].above, r[0].above);
		ck_assert_uint_eq(r[k].nclusters, r[0].nclusters);
		ck_assert(!memcmp(r[k].cluster, r[0].cluster, c[0].n * sizeof *r[0].cluster));
		ck_assert_uint_eq(c[k].idioms, c[0].idioms);
		ck_assert(!memcmp(c[k].idiom_set, c[0].idiom_set,
				  c[0].idioms * sizeof *c[0].idiom_set));
		for (size_t i = 0; i < c[0].n; i++)
			ck_assert_uint_eq(c[k].subs[i].nkeep, c[0].subs[i].nkeep);
	}
	/* A denominator is the set less the base and the idioms. */
	for (uint32_t i = 0; i < c[0].n; i++) {
		uint64_t *both = malloc((c[0].nbase + c[0].idioms + 1) * sizeof *both);
		size_t n = c[0].nbase + c[0].idioms;

		memcpy(both, c[0].base_set, c[0].nbase * sizeof *both);
		memcpy(both + c[0].nbase, c[0].idiom_set, c[0].idioms * sizeof *both);
		qsort(both, n, sizeof *both, cmp_u64);
		ck_assert_uint_eq(c[0].subs[i].nkeep, unique_not_in(&c[0], i, both, n));
		free(both);
	}
	for (int k = 0; k < 3; k++) {
		sim_result_release(&r[k]);
		sim_class_release(&c[k]);
	}
	free(starter);
	strbuf_release(&err);
}
END_TEST

/* A selection keeps the best pairs as the whole list sorts them, counts
 * every pair above its minimum and clusters every pair above its
 * threshold, whatever it keeps. */
START_TEST(test_select)
{
	const char *names[] = { "table", "chain", "model", "terse", "scanf" };
	struct sim_select few = { 0.3, 0.5, 4 };
	struct sim_result r[2];
	struct strbuf err = STRBUF_INIT;
	uint64_t above = 0;

	for (int k = 0; k < 2; k++) {
		struct sim_class c = SIM_CLASS_INIT;

		for (int i = 0; i < 5; i++) {
			char path[80], name[16];
			char *text;

			snprintf(path, sizeof path, "tests/similarity/solutions/%s/main.c",
				 names[i]);
			text = read_all(path);
			for (int j = 0; j <= i % 3; j++) {
				snprintf(name, sizeof name, "%s%d", names[i], j);
				add_text(&c, name, text);
			}
			free(text);
		}
		ck_assert_int_eq(sim_class_compare(&c, k ? &few : &all, &r[k], &err), 0);
		sim_class_release(&c);
	}
	for (size_t i = 0; i < r[0].npairs; i++)
		above += r[0].pairs[i].score >= few.min_score;
	ck_assert_uint_eq(r[1].above, above);
	ck_assert_uint_gt(above, few.max_pairs);
	ck_assert_uint_eq(r[1].npairs, few.max_pairs);
	for (size_t i = 0; i < few.max_pairs; i++) {
		ck_assert_uint_eq(r[0].pairs[i].a, r[1].pairs[i].a);
		ck_assert_uint_eq(r[0].pairs[i].b, r[1].pairs[i].b);
		ck_assert_uint_eq(r[0].pairs[i].shared, r[1].pairs[i].shared);
	}
	ck_assert(!memcmp(r[0].hist, r[1].hist, sizeof r[0].hist));
	/* The copies of each solution: a cluster each, best first (all 1). */
	ck_assert_uint_eq(r[1].nclusters, 3);
	for (size_t i = 0; i < r[1].nclusters; i++)
		ck_assert_double_eq(r[1].cluster_max[i], 1);
	ck_assert_uint_eq(r[1].cluster[0], r[1].cluster[1]);   /* chain0, chain1 */
	ck_assert_uint_eq(r[1].cluster[0], 0);
	sim_result_release(&r[0]);
	sim_result_release(&r[1]);
	strbuf_release(&err);
}
END_TEST

/* Where a pasted function lands: its lines in both files. */
START_TEST(test_regions)
{
	char *verbose = read_all("tests/similarity/solutions/verbose/warp.c");
	char *chain = read_all("tests/similarity/solutions/chain/main.c");
	struct strbuf host = STRBUF_INIT, err = STRBUF_INIT;
	const char *fn = strstr(verbose, "unsigned long long count_touched_units");
	const char *end = strstr(fn, "\n}\n") + 3;
	struct sim_class c = SIM_CLASS_INIT;
	struct sim_result r;
	struct sim_region *g;
	struct sim_detail da, db;
	size_t n, first_line = 1;
	json_t *rec;
	struct sim_report_opts o = { 0, 0.05 };

	for (const char *p = verbose; p < fn; p++)
		first_line += *p == '\n';
	/* The function pasted after chain's 10th line. */
	const char *cut = chain;
	for (int i = 0; i < 10; i++)
		cut = strchr(cut, '\n') + 1;
	strbuf_add(&host, chain, (size_t)(cut - chain));
	strbuf_add(&host, fn, (size_t)(end - fn));
	strbuf_addstr(&host, cut);
	add_text(&c, "a-donor", verbose);
	add_text(&c, "b-host", host.buf);
	ck_assert_int_eq(sim_class_compare(&c, &all, &r, &err), 0);
	ck_assert_uint_eq(r.npairs, 1);
	ck_assert_int_eq(sim_class_detail(&c, 0, &da, &err), 0);
	ck_assert_int_eq(sim_class_detail(&c, 1, &db, &err), 0);
	ck_assert_int_eq(sim_pair_regions(&c, &da, &db, &g, &n, &err), 0);
	sim_detail_release(&da);
	sim_detail_release(&db);
	ck_assert_uint_ge(n, 1);
	/* The largest region is the function, at its place on each side. */
	size_t best = 0;
	for (size_t i = 1; i < n; i++)
		if (g[i].tokens > g[best].tokens)
			best = i;
	ck_assert_uint_le(g[best].a_from, first_line + 3);
	ck_assert_uint_ge(g[best].a_from, first_line);
	ck_assert_uint_ge(g[best].b_from, 11);
	ck_assert_uint_le(g[best].b_from, 14);
	ck_assert_uint_gt(g[best].a_to, g[best].a_from + 15);
	ck_assert_int_eq((int)(g[best].a_to - g[best].a_from),
			 (int)(g[best].b_to - g[best].b_from));
	free(g);
	/* The record: the pair with its regions and their text. */
	rec = sim_report_json(&c, &r, &o, NULL, &err);
	ck_assert_ptr_nonnull(rec);
	json_t *p = json_array_get(json_object_get(rec, SK_PAIRS), 0);
	ck_assert_str_eq(json_string_value(json_object_get(p, SK_A)), "a-donor");
	ck_assert_str_eq(json_string_value(json_object_get(p, SK_B)), "b-host");
	ck_assert_uint_ge(json_array_size(json_object_get(p, SK_REGIONS)), 1);
	ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(
		json_array_get(json_object_get(p, SK_REGIONS), best), "a_text")),
		"count_touched_units"));
	ck_assert_uint_eq(json_array_size(json_object_get(rec, SK_CLUSTERS)), 1);
	json_decref(rec);
	sim_result_release(&r);
	sim_class_release(&c);
	strbuf_release(&host);
	free(verbose);
	free(chain);
}
END_TEST

/* The sources record a shard stores gives the merge the same class. */
START_TEST(test_sources_roundtrip)
{
	char *table = read_all("tests/similarity/solutions/table/main.c");
	struct sim_class c = SIM_CLASS_INIT, d = SIM_CLASS_INIT;
	struct sim_source base = { NULL, 0 };
	struct sim_detail x, y;
	struct strbuf err = STRBUF_INIT;
	size_t dup = 0, len;
	char *text, *want;
	FILE *f;
	json_t *rec;

	ck_assert_int_eq(sim_source_add(&base, "starter.c", "int s;\n", 7, &err), 0);
	ck_assert_int_eq(sim_class_add_base(&c, &base, &err), 0);
	add_text(&c, "x", table);
	add_text(&c, "y \"q\"", "int main(void) { return 0; }\n\xff bad utf-8");
	/* Written a student at a time, as jansson writes the whole record. */
	f = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(sim_report_put_sources(f, &c, &err), 0);
	fclose(f);
	rec = json_pack("{s:i, s:[{s:s, s:s}], s:{s:[{s:s, s:s}], s:[{s:s, s:s}]}}",
			"version", 1, "base", "name", "starter.c", "text", "int s;\n",
			"students", "x", "name", "main.c", "text", table,
			"y \"q\"", "name", "main.c", "text",
			"int main(void) { return 0; }\n\xEF\xBF\xBD bad utf-8");
	ck_assert_ptr_nonnull(rec);
	want = json_dumps(rec, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	ck_assert_str_eq(text, want);
	free(want);
	json_decref(rec);
	rec = json_loadb(text, len, 0, NULL);
	free(text);
	ck_assert_ptr_nonnull(rec);
	ck_assert_int_eq(sim_report_load_sources(&d, rec, 1, &dup, &err), 0);
	ck_assert_int_eq(sim_report_load_sources(&d, rec, 0, &dup, &err), 0);
	ck_assert_uint_eq(dup, 2);
	ck_assert_uint_eq(d.n, 2);
	ck_assert_uint_eq(d.nbase, c.nbase);
	for (uint32_t i = 0; i < 2; i++) {
		ck_assert_int_eq(sim_class_detail(&c, i, &x, &err), 0);
		ck_assert_int_eq(sim_class_detail(&d, i, &y, &err), 0);
		ck_assert_uint_eq(x.toks.n, y.toks.n);
		ck_assert_uint_eq(x.fps.n, y.fps.n);
		ck_assert_uint_eq(c.subs[i].nkeep, d.subs[i].nkeep);
		ck_assert_str_eq(x.src.files[0].text, y.src.files[0].text);
		if (i == 1)
			ck_assert_ptr_nonnull(strstr(y.src.files[0].text, "\xEF\xBF\xBD"));
		sim_detail_release(&x);
		sim_detail_release(&y);
	}
	json_decref(rec);
	/* An empty class: the empty forms jansson writes. */
	sim_class_release(&d);
	f = open_memstream(&text, &len);
	ck_assert_int_eq(sim_report_put_sources(f, &d, &err), 0);
	fclose(f);
	ck_assert_str_eq(text, "{\n  \"version\": 1,\n  \"base\": [],\n  \"students\": {}\n}");
	free(text);
	rec = json_pack("{s:i}", "version", 2);
	ck_assert_int_eq(sim_report_load_sources(&d, rec, 0, &dup, &err), -1);
	json_decref(rec);
	sim_class_release(&c);
	sim_class_release(&d);
	strbuf_release(&err);
	free(table);
}
END_TEST

/* A file name that is not UTF-8 (a C1 CSI, Latin-1) is stored as valid
 * UTF-8: the record holding it is JSON (it stopped a whole batch's
 * similarity as "out of memory"). */
START_TEST(test_source_name_utf8)
{
	struct sim_source src = { NULL, 0 };
	struct strbuf err = STRBUF_INIT;
	json_t *name;

	ck_assert_int_eq(sim_source_add(&src, "@\x9b" "31m\xe9.c", "int x;", 6, &err), 0);
	name = json_string(src.files[0].name);
	ck_assert_ptr_nonnull(name);
	ck_assert_str_eq(src.files[0].name, "@\xEF\xBF\xBD" "31m\xEF\xBF\xBD.c");
	json_decref(name);
	sim_source_release(&src);
	strbuf_release(&err);
}
END_TEST

/* The page shows the similarity to staff only. */
START_TEST(test_page_staff_only)
{
	json_t *sim = json_pack("{s:i, s:i, s:i, s:i, s:f, s:[], s:[], s:[{s:s, s:s, "
				"s:f, s:i}], s:[]}", "students", 2, "all_pairs", 1, "k", 15,
				"window", 8, "threshold", 0.5, "histogram", "clusters",
				"pairs", "a", "x<b>", "b", "y", "score", 0.9, "shared", 40,
				"skipped");
	const char *views[] = { "staff", "student" };

	ck_assert_ptr_nonnull(sim);
	for (int i = 0; i < 2; i++) {
		json_t *cls = html_class_new("suite", views[i]);
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		json_object_set(cls, SK_SIMILARITY, sim);
		ck_assert_int_eq(html_write(f, cls), 0);
		fclose(f);
		ck_assert_int_eq(strstr(buf, "<section id=\"similarity\">") != NULL, i == 0);
		ck_assert_int_eq(strstr(buf, "x&lt;b&gt;") != NULL, i == 0);
		ck_assert_ptr_null(strstr(buf, "x<b>"));
		free(buf);
		json_decref(cls);
	}
	json_decref(sim);
}
END_TEST

Suite *make_similarity_suite(void)
{
	Suite *s = suite_create("similarity");
	TCase *t = tcase_create("similarity");

	tcase_add_test(t, test_token_kinds);
	tcase_add_test(t, test_token_comments_strings);
	tcase_add_test(t, test_token_splices_directives);
	tcase_add_test(t, test_winnow_guarantee);
	tcase_add_test(t, test_winnow_small);
	tcase_add_test(t, test_base_subtraction);
	tcase_add_test(t, test_idioms);
	tcase_add_test(t, test_memory_passes);
	tcase_add_test(t, test_select);
	tcase_add_test(t, test_regions);
	tcase_add_test(t, test_sources_roundtrip);
	tcase_add_test(t, test_source_name_utf8);
	tcase_add_test(t, test_page_staff_only);
	suite_add_tcase(s, t);
	return s;
}
