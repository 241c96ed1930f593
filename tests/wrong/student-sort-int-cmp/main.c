/* A student's solution. BUG: sorts with a qsort comparator returning (int)(a - b). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIMIT (1LL << 48)

typedef unsigned long long u64;

struct rng {
	u64 start, len;
};

static int active = 32;

/* ---- input ---- */

static char *buf;
static size_t cap;

/* One line without its '\n'; NULL at the end of the input. */
static char *read_line(void)
{
	size_t n = 0;
	int c;

	while ((c = getchar()) != EOF && c != '\n') {
		if (n + 1 >= cap) {
			cap = cap ? 2 * cap : 256;
			buf = realloc(buf, cap);
			if (!buf)
				exit(1);
		}
		buf[n++] = (char)c;
	}
	if (c == EOF && n == 0)
		return NULL;
	if (!buf) {
		cap = 256;
		buf = malloc(cap);
	}
	buf[n] = '\0';
	return buf;
}

static int is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static char **tok;
static int ntok, tokcap;

static void split(char *s)
{
	char *hash = strchr(s, '#');

	if (hash)
		*hash = '\0';
	ntok = 0;
	while (*s) {
		while (is_blank((unsigned char)*s))
			s++;
		if (!*s)
			break;
		if (ntok == tokcap) {
			tokcap = tokcap ? 2 * tokcap : 16;
			tok = realloc(tok, tokcap * sizeof(*tok));
			if (!tok)
				exit(1);
		}
		tok[ntok++] = s;
		while (*s && !is_blank((unsigned char)*s))
			s++;
		if (*s)
			*s++ = '\0';
	}
}

/* ---- numbers ---- */

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* 1 and *out when s is a number of the exercise, else 0. */
static int parse_num(const char *s, long long *out)
{
	int neg = 0;
	long long v = 0;

	if (*s == '-') {
		neg = 1;
		s++;
	}
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		if (!*s)
			return 0;
		for (; *s; s++) {
			int d = hexval(*s);
			if (d < 0)
				return 0;
			v = v * 16 + d;
			if (v >= LIMIT)
				return 0;
		}
	} else {
		if (!*s)
			return 0;
		for (; *s; s++) {
			if (*s < '0' || *s > '9')
				return 0;
			v = v * 10 + (*s - '0');
			if (v >= LIMIT)
				return 0;
		}
	}
	*out = neg ? -v : v;
	return 1;
}

/* Parses tok[1..ntok) into v[]; 0 when one is not a number. */
static int parse_all(long long *v)
{
	for (int i = 1; i < ntok; i++)
		if (!parse_num(tok[i], &v[i - 1]))
			return 0;
	return 1;
}

/* ---- global loads ---- */

static int by_start(const void *a, const void *b)
{
	const struct rng *x = a, *y = b;
	return (int)(x->start - y->start);
}

/* Distinct units of 2^shift bytes under the ranges (sorted by start). */
static u64 count_units(const struct rng *r, int n, int shift)
{
	u64 total = 0, lo = 0, hi = 0;

	for (int i = 0; i < n; i++) {
		u64 a = r[i].start >> shift, b = (r[i].start + r[i].len - 1) >> shift;
		if (i == 0 || a > hi) {
			if (i > 0)
				total += hi - lo + 1;
			lo = a;
			hi = b;
		} else if (b > hi) {
			hi = b;
		}
	}
	return total + hi - lo + 1;
}

static void print_eff(u64 req, u64 moved)
{
	u64 q = req / moved, r = req % moved;

	for (int i = 0; i < 3; i++) {
		r *= 10;
		q = q * 10 + r / moved;
		r %= moved;
	}
	if (2 * r >= moved)
		q++;
	printf("%llu.%llu%%\n", q / 10, q % 10);
}

static void global(const char *label, struct rng *r, u64 size)
{
	qsort(r, active, sizeof(*r), by_start);
	u64 sectors = count_units(r, active, 5), lines = count_units(r, active, 7);
	u64 req = (u64)active * size, moved = sectors * 32;

	printf("%s: %d thread%s, %llu sector%s, %llu line%s, requested %llu B, "
	       "moved %llu B, efficiency ", label, active, active == 1 ? "" : "s",
	       sectors, sectors == 1 ? "" : "s", lines, lines == 1 ? "" : "s",
	       req, moved);
	print_eff(req, moved);
}

/* ---- shared memory ---- */

static void banks(const char *label, const u64 *w)
{
	u64 seen[32][32];
	int count[32] = { 0 }, worst = 0;

	for (int t = 0; t < active; t++) {
		int b = (int)(w[t] % 32), j = 0;
		while (j < count[b] && seen[b][j] != w[t])
			j++;
		if (j == count[b])
			seen[b][count[b]++] = w[t];
	}
	for (int b = 1; b < 32; b++)
		if (count[b] > count[worst])
			worst = b;
	printf("%s: %d thread%s, ", label, active, active == 1 ? "" : "s");
	if (count[worst] == 1)
		printf("1 pass, no conflict\n");
	else
		printf("%d passes, %d-way conflict on bank %d\n", count[worst],
		       count[worst], worst);
}

/* ---- commands ---- */

static void command(void)
{
	long long v[3];
	struct rng r[32];
	u64 w[32];
	char label[200];
	int n = ntok - 1;

	if (strcmp(tok[0], "active") == 0) {
		if (n != 1 || !parse_all(v) || v[0] < 1 || v[0] > 32)
			printf("error: active: 1-32\n");
		else
			active = (int)v[0];
	} else if (strcmp(tok[0], "strided") == 0) {
		v[2] = 4;
		if (n < 2 || n > 3 || !parse_all(v) || v[0] < 0 || v[1] < 0 ||
		    v[2] < 1 || v[2] > 16) {
			printf("error: strided: BASE STRIDE [SIZE 1-16]\n");
			return;
		}
		for (int t = 0; t < active; t++) {
			r[t].start = (u64)v[0] + (u64)t * (u64)v[1] * (u64)v[2];
			r[t].len = (u64)v[2];
		}
		snprintf(label, sizeof label, "strided base=%lld stride=%lld size=%lld",
			 v[0], v[1], v[2]);
		global(label, r, (u64)v[2]);
	} else if (strcmp(tok[0], "aos") == 0) {
		if (n != 3 || !parse_all(v) || v[0] < 1 || v[1] < 0 || v[2] < 1 ||
		    v[1] + v[2] > v[0]) {
			printf("error: aos: STRUCT_SIZE FIELD_OFFSET FIELD_SIZE (the "
			       "field must fit in the struct)\n");
			return;
		}
		for (int t = 0; t < active; t++) {
			r[t].start = (u64)t * (u64)v[0] + (u64)v[1];
			r[t].len = (u64)v[2];
		}
		snprintf(label, sizeof label, "aos struct=%lld offset=%lld field=%lld",
			 v[0], v[1], v[2]);
		global(label, r, (u64)v[2]);
		for (int t = 0; t < active; t++) {
			r[t].start = (u64)t * (u64)v[2];
			r[t].len = (u64)v[2];
		}
		snprintf(label, sizeof label, "soa field=%lld", v[2]);
		global(label, r, (u64)v[2]);
	} else if (strcmp(tok[0], "gather") == 0) {
		long long size, a;
		int neg = 0;
		if (n < 1 || !parse_num(tok[1], &size) || size < 1 || size > 16) {
			printf("error: gather: SIZE ADDR...\n");
			return;
		}
		for (int i = 2; i < ntok; i++) {
			if (!parse_num(tok[i], &a)) {
				printf("error: gather: SIZE ADDR...\n");
				return;
			}
			if (a < 0)
				neg = 1;
			else if (i - 2 < 32)
				r[i - 2] = (struct rng){ (u64)a, (u64)size };
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
		snprintf(label, sizeof label, "gather size=%lld", size);
		global(label, r, (u64)size);
	} else if (strcmp(tok[0], "shared") == 0) {
		if (n != 2 || !parse_all(v) || v[0] < 0 || v[1] < 0) {
			printf("error: shared: BASE_WORD STRIDE_WORDS\n");
			return;
		}
		for (int t = 0; t < active; t++)
			w[t] = (u64)v[0] + (u64)t * (u64)v[1];
		snprintf(label, sizeof label, "shared base=%lld stride=%lld", v[0], v[1]);
		banks(label, w);
	} else if (strcmp(tok[0], "transpose") == 0) {
		if (n != 2 || !parse_all(v) || v[0] < 1 || v[0] > 64 || v[1] < 0 ||
		    v[1] > 8) {
			printf("error: transpose: TILE PAD (TILE 1-64, PAD 0-8)\n");
			return;
		}
		for (int t = 0; t < active; t++)
			w[t] = (u64)(t % v[0]) * (u64)(v[0] + v[1]) + (u64)(t / v[0]);
		snprintf(label, sizeof label, "transpose tile=%lld pad=%lld", v[0], v[1]);
		banks(label, w);
	} else {
		printf("error: unknown command %s\n", tok[0]);
	}
}

int main(void)
{
	char *line;

	while ((line = read_line())) {
		split(line);
		if (ntok > 0)
			command();
	}
	return 0;
}
