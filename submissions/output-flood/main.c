/* coalescing exercise
 * author: (student)
 *
 * plan: read everything, walk it line by line with an index, split each
 * line into words (pointer+length), check the arguments, print the answer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned long long ull;

#define W 32
#define MAXMAG (1ULL << 48)

struct tok { const char *p; int n; };

static int blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* number grammar of the handout; 1 = ok */
static int num(struct tok t, long long *out)
{
	int i = 0, hex = 0, neg = 0;
	ull v = 0;
	if (i < t.n && t.p[i] == '-') { neg = 1; i++; }
	if (i + 1 < t.n && t.p[i] == '0' && (t.p[i + 1] == 'x' || t.p[i + 1] == 'X')) { hex = 1; i += 2; }
	if (i >= t.n) return 0;
	for (; i < t.n; i++) {
		char c = t.p[i];
		int d;
		if (c >= '0' && c <= '9') d = c - '0';
		else if (hex && c >= 'a' && c <= 'f') d = c - 'a' + 10;
		else if (hex && c >= 'A' && c <= 'F') d = c - 'A' + 10;
		else return 0;
		v = hex ? v * 16 + d : v * 10 + d;
		if (v >= MAXMAG) return 0;
	}
	*out = neg ? -(long long)v : (long long)v;
	return 1;
}

/* sectors (unit 32) or lines (unit 128) touched; all threads read 'size' bytes */
static ull units(ull *start, int n, ull size, ull unit)
{
	ull s[W], cnt = 0, lastcounted = 0;
	int have = 0;
	/* same size for every thread, so sorting the starts sorts the ranges */
	memcpy(s, start, n * sizeof(ull));
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && s[j] < s[j - 1]; j--) { ull x = s[j]; s[j] = s[j - 1]; s[j - 1] = x; }
	for (int i = 0; i < n; i++) {
		ull a = s[i] / unit, b = (s[i] + size - 1) / unit;
		if (have && a <= lastcounted) a = lastcounted + 1;
		if (a <= b) cnt += b - a + 1;
		if (!have || b > lastcounted) lastcounted = b;
		have = 1;
	}
	return cnt;
}

static void global(ull *start, int n, ull size)
{
	ull sec = units(start, n, size, 32), lin = units(start, n, size, 128);
	ull req = (ull)n * size, mov = sec * 32;
	/* long division: whole percent, then two more digits; the second one
	   decides the rounding (5 or more: up) */
	ull ip = req * 100 / mov, r = req * 100 % mov, d[2];
	for (int k = 0; k < 2; k++) { r *= 10; d[k] = r / mov; r %= mov; }
	ull tenths = ip * 10 + d[0] + (d[1] >= 5);
	printf(": %d thread%s, %llu sector%s, %llu line%s, requested %llu B, moved %llu B, efficiency %llu.%llu%%\n",
	       n, n == 1 ? "" : "s", sec, sec == 1 ? "" : "s", lin, lin == 1 ? "" : "s", req, mov, tenths / 10, tenths % 10);
}

static void banks(ull *w, int n)
{
	ull uniq[W];
	int nu = 0, per[32] = {0}, top = 0;
	for (int t = 0; t < n; t++) {
		int k = 0;
		while (k < nu && uniq[k] != w[t]) k++;
		if (k == nu) uniq[nu++] = w[t];
	}
	for (int k = 0; k < nu; k++) per[uniq[k] % 32]++;
	for (int b = 1; b < 32; b++) if (per[b] > per[top]) top = b;
	printf(": %d thread%s, ", n, n == 1 ? "" : "s");
	if (per[top] == 1) printf("1 pass, no conflict\n");
	else printf("%d passes, %d-way conflict on bank %d\n", per[top], per[top], top);
}

static int is(struct tok t, const char *s) { return (int)strlen(s) == t.n && memcmp(t.p, s, t.n) == 0; }

int main(void)
{
	size_t len = 0, cap = 1 << 20, pos = 0;
	char *in = malloc(cap);
	struct tok *tk = NULL;
	int tkcap = 0, active = W;

	if (!in) return 1;
	for (size_t got; (got = fread(in + len, 1, cap - len, stdin)) > 0;) {
		len += got;
		if (len == cap && !(in = realloc(in, cap *= 2))) return 1;
	}

	while (pos < len) {
		char *line = in + pos;
		char *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos;
		size_t next = pos + n + 1;
		int nt = 0;
		long long v[3] = {0, 0, 4};
		ull a[W];

		/* split */
		for (size_t i = 0; i < n && line[i] != '#';) {
			if (blank(line[i])) { i++; continue; }
			size_t j = i;
			while (j < n && !blank(line[j]) && line[j] != '#') j++;
			if (nt == tkcap) {
				tkcap = tkcap ? 2 * tkcap : 64;
				if (!(tk = realloc(tk, tkcap * sizeof *tk))) return 1;
			}
			tk[nt].p = line + i;
			tk[nt].n = (int)(j - i);
			nt++;
			i = j;
		}
		if (nt == 0) { pos = next; continue; }

		int argc = nt - 1, ok = 1;
		if (is(tk[0], "active")) {
			ok = argc == 1 && num(tk[1], &v[0]) && v[0] >= 1 && v[0] <= 32;
			if (ok) active = (int)v[0];
			else printf("error: active: 1-32\n");
		} else if (is(tk[0], "strided")) {
			ok = argc == 2 || argc == 3;
			for (int i = 0; ok && i < argc; i++) ok = num(tk[i + 1], &v[i]) && v[i] >= 0;
			if (ok && (v[2] < 1 || v[2] > 16)) ok = 0;
			if (!ok) printf("error: strided: BASE STRIDE [SIZE 1-16]\n");
			else {
				for (int t = 0; t < active; t++) a[t] = (ull)v[0] + (ull)t * (ull)v[1] * (ull)v[2];
				printf("strided base=%lld stride=%lld size=%lld", v[0], v[1], v[2]);
				global(a, active, (ull)v[2]);
			}
		} else if (is(tk[0], "aos")) {
			ok = argc == 3;
			for (int i = 0; ok && i < 3; i++) ok = num(tk[i + 1], &v[i]) && v[i] >= (i == 1 ? 0 : 1);
			if (ok && v[1] + v[2] > v[0]) ok = 0;
			if (!ok) printf("error: aos: STRUCT_SIZE FIELD_OFFSET FIELD_SIZE (the field must fit in the struct)\n");
			else {
				for (int t = 0; t < active; t++) a[t] = (ull)t * (ull)v[0] + (ull)v[1];
				printf("aos struct=%lld offset=%lld field=%lld", v[0], v[1], v[2]);
				global(a, active, (ull)v[2]);
				for (int t = 0; t < active; t++) a[t] = (ull)t * (ull)v[2];
				printf("soa field=%lld", v[2]);
				global(a, active, (ull)v[2]);
			}
		} else if (is(tk[0], "gather")) {
			long long size = 0, x;
			int neg = 0;
			ok = argc >= 1 && num(tk[1], &size) && size >= 1 && size <= 16;
			for (int i = 2; ok && i < nt; i++) {
				ok = num(tk[i], &x);
				if (ok && x < 0) neg = 1;
				else if (ok && i - 2 < W) a[i - 2] = (ull)x;
			}
			if (!ok) printf("error: gather: SIZE ADDR...\n");
			else if (argc - 1 != active) {
				printf("error: gather: need %d address%s\n", active, active == 1 ? "" : "es");
				continue;
			} else if (neg) printf("error: gather: addresses must be >= 0\n");
			else {
				printf("gather size=%lld", size);
				global(a, active, (ull)size);
			}
		} else if (is(tk[0], "shared")) {
			ok = argc == 2 && num(tk[1], &v[0]) && num(tk[2], &v[1]) && v[0] >= 0 && v[1] >= 0;
			if (!ok) printf("error: shared: BASE_WORD STRIDE_WORDS\n");
			else {
				for (int t = 0; t < active; t++) a[t] = (ull)v[0] + (ull)t * (ull)v[1];
				printf("shared base=%lld stride=%lld", v[0], v[1]);
				banks(a, active);
			}
		} else if (is(tk[0], "transpose")) {
			ok = argc == 2 && num(tk[1], &v[0]) && num(tk[2], &v[1]) && v[0] >= 1 && v[0] <= 64 && v[1] >= 0 && v[1] <= 8;
			if (!ok) printf("error: transpose: TILE PAD (TILE 1-64, PAD 0-8)\n");
			else {
				for (int t = 0; t < active; t++) a[t] = (ull)(t % v[0]) * (ull)(v[0] + v[1]) + (ull)(t / v[0]);
				printf("transpose tile=%lld pad=%lld", v[0], v[1]);
				banks(a, active);
			}
		} else {
			printf("error: unknown command %.*s\n", tk[0].n, tk[0].p);
		}
		pos = next;
	}
	free(in);
	free(tk);
	return 0;
}
