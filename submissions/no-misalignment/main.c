#define _POSIX_C_SOURCE 200809L /* for getline */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Memory coalescing lab.
 *
 * Tokens are pulled one at a time from a cursor over the line; each command
 * takes what it needs and then checks that nothing is left over.
 */

typedef uint64_t U;
typedef int64_t S;

enum { WARP = 32, BANKS = 32, SECTOR_BYTES = 32, LINE_BYTES = 128 };

static const S MAX_MAG = (S)1 << 48;

static int n_active = WARP;

/* ---------------------------------------------------------------- tokens */

typedef struct {
	const char *p, *end;
} Cursor;

typedef struct {
	const char *s;
	size_t n;
} Tok;

static int sep(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* 1 and the next token, or 0 at the end of the line (or at a '#') */
static int next_tok(Cursor *c, Tok *t)
{
	while (c->p < c->end && sep(*c->p))
		c->p++;
	if (c->p == c->end || *c->p == '#')
		return 0;
	t->s = c->p;
	while (c->p < c->end && !sep(*c->p) && *c->p != '#')
		c->p++;
	t->n = (size_t)(c->p - t->s);
	return 1;
}

static size_t tokens_left(Cursor c)
{
	Tok t;
	size_t n = 0;

	while (next_tok(&c, &t))
		n++;
	return n;
}

static signed char digval[256];

static void init_digits(void)
{
	memset(digval, -1, sizeof digval);
	for (int i = 0; i < 10; i++)
		digval['0' + i] = (signed char)i;
	for (int i = 0; i < 6; i++) {
		digval['a' + i] = (signed char)(10 + i);
		digval['A' + i] = (signed char)(10 + i);
	}
}

static int tok_num(Tok t, S *out)
{
	size_t i = 0;
	int neg = 0, base = 10;
	S v = 0;

	if (i < t.n && t.s[i] == '-')
		neg = 1, i++;
	if (t.n - i > 1 && t.s[i] == '0' && (t.s[i + 1] | 0x20) == 'x')
		base = 16, i += 2;
	if (i == t.n)
		return 0;
	for (; i < t.n; i++) {
		int d = digval[(unsigned char)t.s[i]];
		if (d < 0 || d >= base)
			return 0;
		v = v * base + d;
		if (v >= MAX_MAG)
			return 0;
	}
	*out = neg ? -v : v;
	return 1;
}

/* reads exactly n numbers (and nothing after them) within [lo, hi] */
static int take_nums(Cursor *c, size_t n, S *v, const S *lo, const S *hi)
{
	Tok t;

	for (size_t i = 0; i < n; i++)
		if (!next_tok(c, &t) || !tok_num(t, &v[i]) || v[i] < lo[i] ||
		    v[i] > hi[i])
			return 0;
	return !next_tok(c, &t);
}

/* ------------------------------------------------------------ the model */

typedef struct {
	U start, len;
} Access;

static int cmp_access(const void *a, const void *b)
{
	U x = ((const Access *)a)->start, y = ((const Access *)b)->start;
	return (x > y) - (x < y);
}

/* merges the accesses into runs of contiguous bytes and charges each run
 * the blocks it needs */
static U blocks_for(Access *acc, int n, U block)
{
	U total = 0;

	qsort(acc, (size_t)n, sizeof *acc, cmp_access);
	for (int i = 0; i < n;) {
		U lo = acc[i].start, hi = acc[i].start + acc[i].len;
		for (i++; i < n && acc[i].start <= hi; i++)
			if (acc[i].start + acc[i].len > hi)
				hi = acc[i].start + acc[i].len;
		total += (hi - lo + block - 1) / block;
	}
	return total;
}

static U gcd(U a, U b)
{
	while (b) {
		U r = a % b;
		a = b;
		b = r;
	}
	return a;
}

static void show_global(Access *acc, U size)
{
	U sectors = blocks_for(acc, n_active, SECTOR_BYTES);
	U lines = blocks_for(acc, n_active, LINE_BYTES);
	U req = (U)n_active * size, moved = sectors * SECTOR_BYTES;
	U g = gcd(req, moved), r = req / g, m = moved / g;
	U tenths = (2000 * r + m) / (2 * m);

	printf(": %d thread%s, %llu sector%s, %llu line%s, requested %llu B, "
	       "moved %llu B, efficiency %llu.%llu%%\n",
	       n_active, n_active == 1 ? "" : "s", (unsigned long long)sectors,
	       sectors == 1 ? "" : "s", (unsigned long long)lines,
	       lines == 1 ? "" : "s", (unsigned long long)req,
	       (unsigned long long)moved, (unsigned long long)(tenths / 10),
	       (unsigned long long)(tenths % 10));
}

static int cmp_u(const void *a, const void *b)
{
	U x = *(const U *)a, y = *(const U *)b;
	return (x > y) - (x < y);
}

static void show_banks(U *w)
{
	int per_bank[BANKS] = { 0 }, best = 0;

	qsort(w, (size_t)n_active, sizeof *w, cmp_u);
	for (int t = 0; t < n_active; t++)
		if (t == 0 || w[t] != w[t - 1])
			per_bank[w[t] % BANKS]++;
	for (int b = 0; b < BANKS; b++)
		if (per_bank[b] > per_bank[best])
			best = b;
	printf(": %d thread%s, ", n_active, n_active == 1 ? "" : "s");
	if (per_bank[best] == 1)
		puts("1 pass, no conflict");
	else
		printf("%d passes, %d-way conflict on bank %d\n", per_bank[best],
		       per_bank[best], best);
}

/* -------------------------------------------------------------- commands */

#define ALL MAX_MAG

static void active_cmd(Cursor *c)
{
	static const S lo[] = { 1 }, hi[] = { WARP };
	S v[1];

	if (!take_nums(c, 1, v, lo, hi)) {
		puts("error: active: 1-32");
		return;
	}
	n_active = (int)v[0];
}

static void strided_cmd(Cursor *c)
{
	static const S lo[] = { 0, 0, 1 }, hi[] = { ALL, ALL, 16 };
	S v[3] = { 0, 0, 4 };
	Access a[WARP];
	size_t n = tokens_left(*c);

	if ((n != 2 && n != 3) || !take_nums(c, n, v, lo, hi)) {
		puts("error: strided: BASE STRIDE [SIZE 1-16]");
		return;
	}
	for (int t = 0; t < n_active; t++)
		a[t] = (Access){ (U)v[0] + (U)t * (U)v[1] * (U)v[2], (U)v[2] };
	printf("strided base=%lld stride=%lld size=%lld", (long long)v[0],
	       (long long)v[1], (long long)v[2]);
	show_global(a, (U)v[2]);
}

static void aos_cmd(Cursor *c)
{
	static const S lo[] = { 1, 0, 1 }, hi[] = { ALL, ALL, ALL };
	S v[3];
	Access a[WARP];

	if (!take_nums(c, 3, v, lo, hi) || v[1] + v[2] > v[0]) {
		puts("error: aos: STRUCT_SIZE FIELD_OFFSET FIELD_SIZE (the field "
		     "must fit in the struct)");
		return;
	}
	for (int t = 0; t < n_active; t++)
		a[t] = (Access){ (U)t * (U)v[0] + (U)v[1], (U)v[2] };
	printf("aos struct=%lld offset=%lld field=%lld", (long long)v[0],
	       (long long)v[1], (long long)v[2]);
	show_global(a, (U)v[2]);
	for (int t = 0; t < n_active; t++)
		a[t] = (Access){ (U)t * (U)v[2], (U)v[2] };
	printf("soa field=%lld", (long long)v[2]);
	show_global(a, (U)v[2]);
}

static void gather_cmd(Cursor *c)
{
	Access a[WARP];
	Tok t;
	S size, addr;
	size_t count = 0;
	int negative = 0;

	if (!next_tok(c, &t) || !tok_num(t, &size) || size < 1 || size > 16) {
		puts("error: gather: SIZE ADDR...");
		return;
	}
	for (; next_tok(c, &t); count++) {
		if (!tok_num(t, &addr)) {
			puts("error: gather: SIZE ADDR...");
			return;
		}
		negative |= addr < 0;
		if (count < WARP)
			a[count] = (Access){ (U)addr, (U)size };
	}
	if (count != (size_t)n_active)
		printf("error: gather: need %d address%s\n", n_active,
		       n_active == 1 ? "" : "es");
	else if (negative)
		puts("error: gather: addresses must be >= 0");
	else {
		printf("gather size=%lld", (long long)size);
		show_global(a, (U)size);
	}
}

/* shared and transpose differ only in their limits and in the word each
 * thread reads */
static void bank_cmd(Cursor *c, int transpose)
{
	static const S lo_s[] = { 0, 0 }, hi_s[] = { ALL, ALL };
	static const S lo_t[] = { 1, 0 }, hi_t[] = { 64, 8 };
	S v[2];
	U w[WARP];

	if (!take_nums(c, 2, v, transpose ? lo_t : lo_s, transpose ? hi_t : hi_s)) {
		puts(transpose ? "error: transpose: TILE PAD (TILE 1-64, PAD 0-8)"
			       : "error: shared: BASE_WORD STRIDE_WORDS");
		return;
	}
	for (int t = 0; t < n_active; t++)
		w[t] = transpose ? (U)(t % v[0]) * (U)(v[0] + v[1]) + (U)(t / v[0])
				 : (U)v[0] + (U)t * (U)v[1];
	printf(transpose ? "transpose tile=%lld pad=%lld" : "shared base=%lld stride=%lld",
	       (long long)v[0], (long long)v[1]);
	show_banks(w);
}

static int tok_is(Tok t, const char *s)
{
	return strlen(s) == t.n && !strncmp(t.s, s, t.n);
}

int main(void)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;

	init_digits();
	while ((got = getline(&line, &cap, stdin)) != -1) {
		Tok name;

		if (got > 0 && line[got - 1] == '\n')
			got--;
		Cursor c = { line, line + got };

		if (!next_tok(&c, &name))
			continue;
		if (tok_is(name, "active"))
			active_cmd(&c);
		else if (tok_is(name, "strided"))
			strided_cmd(&c);
		else if (tok_is(name, "aos"))
			aos_cmd(&c);
		else if (tok_is(name, "gather"))
			gather_cmd(&c);
		else if (tok_is(name, "shared"))
			bank_cmd(&c, 0);
		else if (tok_is(name, "transpose"))
			bank_cmd(&c, 1);
		else
			printf("error: unknown command %.*s\n", (int)name.n, name.s);
	}
	free(line);
	return 0;
}
