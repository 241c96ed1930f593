/* coalescing exercise: reads commands from stdin, one per line */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <strings.h>

#define MAXMAG (1LL << 48)

typedef unsigned long long u64;

static int active = 32;

typedef struct {
	u64 first, last; /* inclusive byte range */
} Range;

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* returns 1 on success */
static int parse_num(const char *s, long long *out)
{
	int neg = 0, base = 10;
	long long v = 0;
	if (*s == '-') {
		neg = 1;
		s++;
	}
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (*s == '\0')
		return 0;
	for (; *s; s++) {
		int d;
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			return 0;
		v = v * base + d;
		if (v >= MAXMAG)
			return 0;
	}
	*out = neg ? -v : v;
	return 1;
}

static int cmp_first(const void *a, const void *b)
{
	const Range *x = a, *y = b;
	if (x->first < y->first)
		return -1;
	return x->first > y->first;
}

/* number of distinct granules (1 << shift bytes) touched by the ranges */
static u64 granules(Range *r, int n, int shift)
{
	u64 total = 0, lo = 0, hi = 0;
	int i;
	qsort(r, n, sizeof(Range), cmp_first);
	for (i = 0; i < n; i++) {
		u64 a = r[i].first >> shift, b = r[i].last >> shift;
		if (i == 0) {
			lo = a;
			hi = b;
		} else if (a <= hi) {
			if (b > hi)
				hi = b;
		} else {
			total += hi - lo + 1;
			lo = a;
			hi = b;
		}
	}
	return total + hi - lo + 1;
}

static const char *plural(u64 n)
{
	return n == 1 ? "" : "s";
}

static void print_efficiency(u64 req, u64 moved)
{
	/* 1000 * req / moved, digit by digit so nothing overflows */
	u64 q = req / moved, rem = req % moved;
	int i;
	for (i = 0; i < 3; i++) {
		rem *= 10;
		q = q * 10 + rem / moved;
		rem %= moved;
	}
	if (2 * rem >= moved)
		q++;
	printf("efficiency %llu.%llu%%\n", q / 10, q % 10);
}

static void report_global(Range *r, u64 size)
{
	u64 sectors = granules(r, active, 5);
	u64 lines = granules(r, active, 7);
	u64 req = (u64)active * size, moved = sectors * 32;
	printf(": %d thread%s, %llu sector%s, %llu line%s, requested %llu B, moved %llu B, ",
	       active, plural(active), sectors, plural(sectors), lines,
	       plural(lines), req, moved);
	print_efficiency(req, moved);
}

static void report_banks(const u64 *w)
{
	int count[32] = { 0 };
	u64 seen[32][32];
	int t, b, j, best = 0, bank = 0;
	printf(": %d thread%s, ", active, plural(active));
	for (t = 0; t < active; t++) {
		b = (int)(w[t] % 32);
		for (j = 0; j < count[b]; j++)
			if (seen[b][j] == w[t])
				break;
		if (j == count[b])
			seen[b][count[b]++] = w[t];
	}
	for (b = 0; b < 32; b++)
		if (count[b] > best) {
			best = count[b];
			bank = b;
		}
	if (best == 1)
		printf("1 pass, no conflict\n");
	else
		printf("%d passes, %d-way conflict on bank %d\n", best, best, bank);
}

/* parse all args as numbers; 1 if all fine */
static int numbers(char **arg, int n, long long *v)
{
	int i;
	for (i = 0; i < n; i++)
		if (!parse_num(arg[i], &v[i]))
			return 0;
	return 1;
}

static void do_active(char **arg, int n)
{
	long long v;
	if (n != 1 || !parse_num(arg[0], &v) || v < 1 || v > 32) {
		printf("error: active: 1-32\n");
		return;
	}
	active = (int)v;
}

static void do_strided(char **arg, int n)
{
	long long v[3] = { 0, 0, 4 };
	Range r[32];
	int t;
	if (n < 2 || n > 3 || !numbers(arg, n, v) || v[0] < 0 || v[1] < 0 ||
	    v[2] < 1 || v[2] > 16) {
		printf("error: strided: BASE STRIDE [SIZE 1-16]\n");
		return;
	}
	for (t = 0; t < active; t++) {
		r[t].first = (u64)v[0] + (u64)t * (u64)v[1] * (u64)v[2];
		r[t].last = r[t].first + (u64)v[2] - 1;
	}
	printf("strided base=%lld stride=%lld size=%lld", v[0], v[1], v[2]);
	report_global(r, (u64)v[2]);
}

static void do_aos(char **arg, int n)
{
	long long v[3];
	Range r[32];
	int t;
	if (n != 3 || !numbers(arg, n, v) || v[0] < 1 || v[1] < 0 || v[2] < 1 ||
	    v[1] + v[2] > v[0]) {
		printf("error: aos: STRUCT_SIZE FIELD_OFFSET FIELD_SIZE (the field must fit in the struct)\n");
		return;
	}
	for (t = 0; t < active; t++) {
		r[t].first = (u64)t * (u64)v[0] + (u64)v[1];
		r[t].last = r[t].first + (u64)v[2] - 1;
	}
	printf("aos struct=%lld offset=%lld field=%lld", v[0], v[1], v[2]);
	report_global(r, (u64)v[2]);
	for (t = 0; t < active; t++) {
		r[t].first = (u64)t * (u64)v[2];
		r[t].last = r[t].first + (u64)v[2] - 1;
	}
	printf("soa field=%lld", v[2]);
	report_global(r, (u64)v[2]);
}

static void do_gather(char **arg, int n)
{
	long long size, a;
	Range r[32];
	int i, neg = 0;
	if (n < 1 || !parse_num(arg[0], &size) || size < 1 || size > 16) {
		printf("error: gather: SIZE ADDR...\n");
		return;
	}
	for (i = 1; i < n; i++) {
		if (!parse_num(arg[i], &a)) {
			printf("error: gather: SIZE ADDR...\n");
			return;
		}
		if (a < 0)
			neg = 1;
		else if (i <= active) {
			r[i - 1].first = (u64)a;
			r[i - 1].last = (u64)a + (u64)size - 1;
		}
	}
	if (n - 1 != active) {
		printf("error: gather: need %d address%s\n", active,
		       active == 1 ? "" : "es");
		return;
	}
	if (neg) {
		printf("error: gather: addresses must be >= 0\n");
		return;
	}
	printf("gather size=%lld", size);
	report_global(r, (u64)size);
}

static void do_shared(char **arg, int n)
{
	long long v[2];
	u64 w[32];
	int t;
	if (n != 2 || !numbers(arg, n, v) || v[0] < 0 || v[1] < 0) {
		printf("error: shared: BASE_WORD STRIDE_WORDS\n");
		return;
	}
	for (t = 0; t < active; t++)
		w[t] = (u64)v[0] + (u64)t * (u64)v[1];
	printf("shared base=%lld stride=%lld", v[0], v[1]);
	report_banks(w);
}

static void do_transpose(char **arg, int n)
{
	long long v[2];
	u64 w[32];
	int t;
	if (n != 2 || !numbers(arg, n, v) || v[0] < 1 || v[0] > 64 || v[1] < 0 ||
	    v[1] > 8) {
		printf("error: transpose: TILE PAD (TILE 1-64, PAD 0-8)\n");
		return;
	}
	for (t = 0; t < active; t++) {
		u64 x = (u64)t % (u64)v[0], y = (u64)t / (u64)v[0];
		w[t] = x * (u64)(v[0] + v[1]) + y;
	}
	printf("transpose tile=%lld pad=%lld", v[0], v[1]);
	report_banks(w);
}

static char **tok;
static size_t tokcap;

static void handle_line(char *line, size_t len)
{
	size_t i = 0, n = 0;
	while (i < len && line[i] != '#') {
		if (is_blank(line[i])) {
			i++;
			continue;
		}
		if (n == tokcap) {
			tokcap = tokcap ? tokcap * 2 : 16;
			tok = realloc(tok, tokcap * sizeof(char *));
			if (!tok)
				exit(1);
		}
		tok[n++] = line + i;
		while (i < len && line[i] != '#' && !is_blank(line[i]))
			i++;
		if (i < len && line[i] == '#') {
			line[i] = '\0';
			break;
		}
		line[i++] = '\0';
	}
	if (n == 0)
		return;
	if (strcasecmp(tok[0], "active") == 0)
		do_active(tok + 1, (int)n - 1);
	else if (strcasecmp(tok[0], "strided") == 0)
		do_strided(tok + 1, (int)n - 1);
	else if (strcasecmp(tok[0], "aos") == 0)
		do_aos(tok + 1, (int)n - 1);
	else if (strcasecmp(tok[0], "gather") == 0)
		do_gather(tok + 1, (int)n - 1);
	else if (strcasecmp(tok[0], "shared") == 0)
		do_shared(tok + 1, (int)n - 1);
	else if (strcasecmp(tok[0], "transpose") == 0)
		do_transpose(tok + 1, (int)n - 1);
	else
		printf("error: unknown command %s\n", tok[0]);
}

int main(void)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;
	while ((got = getline(&line, &cap, stdin)) != -1) {
		size_t len = (size_t)got;
		if (len > 0 && line[len - 1] == '\n')
			len--;
		line[len] = '\0';
		handle_line(line, len);
	}
	free(line);
	free(tok);
	return 0;
}
