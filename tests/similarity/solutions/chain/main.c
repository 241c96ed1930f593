// warp memory access analyzer -- one big dispatcher, sorted sector lists
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned long long u64;

int nthreads = 32;
char *words[4096];
int nwords;

int is_number(const char *p, int64_t *result)
{
	const char *q = p;
	int minus = 0;
	u64 acc = 0;
	if (*q == '-') { minus = 1; q++; }
	if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
		q += 2;
		if (*q == 0) return 0;
		while (*q) {
			if (!isxdigit((unsigned char)*q)) return 0;
			int digit = isdigit((unsigned char)*q) ? *q - '0' : tolower((unsigned char)*q) - 'a' + 10;
			acc = acc * 16 + digit;
			if (acc >> 48) return 0;
			q++;
		}
	} else {
		if (*q == 0) return 0;
		while (*q) {
			if (!isdigit((unsigned char)*q)) return 0;
			acc = acc * 10 + (*q - '0');
			if (acc >> 48) return 0;
			q++;
		}
	}
	*result = minus ? -(int64_t)acc : (int64_t)acc;
	return 1;
}

/*@inline*/
void tokenize(char *s)
{
	nwords = 0;
	char *c = s;
	while (*c && *c != '#') c++;
	*c = 0;
	c = s;
	while (*c) {
		while (*c == ' ' || *c == '\t' || *c == '\r' || *c == '\v' || *c == '\f' || *c == '\n') c++;
		if (!*c) break;
		if (nwords < 4096) words[nwords++] = c;
		while (*c && !(*c == ' ' || *c == '\t' || *c == '\r' || *c == '\v' || *c == '\f' || *c == '\n')) c++;
		if (*c) *c++ = 0;
	}
}

int cmp64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;
	return x < y ? -1 : x > y;
}

// count distinct blocks of size blk touched by [start[i], start[i]+len)
u64 distinct_blocks(u64 *start, u64 len, int n, u64 blk)
{
	u64 first[32], last[32];
	/*@split block_bounds: u64 *start, u64 len, int n, u64 blk, u64 *first, u64 *last*/
	for (int i = 0; i < n; i++) {
		first[i] = start[i] / blk;
		last[i] = (start[i] + len - 1) / blk;
	}
	/*@end*/
	qsort(first, n, sizeof(u64), cmp64);
	qsort(last, n, sizeof(u64), cmp64);
	// sweep: sorted starts and ends give the union of intervals
	u64 count = 0, reach = 0;
	int have = 0;
	for (int i = 0; i < n; i++) {
		u64 a = first[i], b = last[i];
		if (!have || a > reach) {
			count += b - a + 1;
			reach = b;
			have = 1;
		} else if (b > reach) {
			count += b - reach;
			reach = b;
		}
	}
	return count;
}

void global_line(const char *what, u64 *start, u64 size)
{
	u64 sec = distinct_blocks(start, size, nthreads, 32);
	u64 lin = distinct_blocks(start, size, nthreads, 128);
	u64 requested = nthreads * size, moved = sec * 32;
	u64 x = requested * 1000 / moved, rem = requested * 1000 % moved;
	if (rem * 2 >= moved) x++;
	printf("%s: %d %s, %llu %s, %llu %s, requested %llu B, moved %llu B, efficiency %llu.%llu%%\n",
	       what, nthreads, nthreads == 1 ? "thread" : "threads",
	       sec, sec == 1 ? "sector" : "sectors", lin, lin == 1 ? "line" : "lines",
	       requested, moved, x / 10, x % 10);
}

void bank_line(const char *what, u64 *w)
{
	int cnt[32] = {0};
	for (int i = 0; i < nthreads; i++) {
		int dup = 0;
		for (int j = 0; j < i; j++) if (w[j] == w[i]) dup = 1;
		if (!dup) cnt[w[i] % 32]++;
	}
	int best = 0;
	for (int b = 1; b < 32; b++) if (cnt[b] > cnt[best]) best = b;
	if (cnt[best] <= 1)
		printf("%s: %d %s, 1 pass, no conflict\n", what, nthreads, nthreads == 1 ? "thread" : "threads");
	else
		printf("%s: %d %s, %d passes, %d-way conflict on bank %d\n", what, nthreads,
		       nthreads == 1 ? "thread" : "threads", cnt[best], cnt[best], best);
}

int main()
{
	static char buf[1 << 20];
	while (fgets(buf, sizeof buf, stdin)) {
		tokenize(buf);
		if (nwords == 0) continue;
		char *cmd = words[0];
		int64_t a[4];
		u64 st[32], w[32];
		char lbl[200];
		int ok = 1;
		for (int i = 1; i < nwords && i <= 4; i++) if (!is_number(words[i], &a[i - 1])) ok = 0;
		if (!strcmp(cmd, "active")) {
			if (!ok || nwords != 2 || a[0] < 1 || a[0] > 32) { printf("error: active: 1-32\n"); continue; }
			nthreads = a[0];
		} else if (!strcmp(cmd, "strided")) {
			if (nwords == 3) a[2] = 4;
			if (!ok || nwords < 3 || nwords > 4 || a[0] < 0 || a[1] < 0 || a[2] < 1 || a[2] > 16) {
				printf("error: strided: BASE STRIDE [SIZE 1-16]\n");
				continue;
			}
			for (int t = 0; t < nthreads; t++) st[t] = a[0] + (u64)t * a[1] * a[2];
			sprintf(lbl, "strided base=%lld stride=%lld size=%lld", (long long)a[0], (long long)a[1], (long long)a[2]);
			global_line(lbl, st, a[2]);
		} else if (!strcmp(cmd, "aos")) {
			if (!ok || nwords != 4 || a[0] < 1 || a[1] < 0 || a[2] < 1 || a[1] + a[2] > a[0]) {
				printf("error: aos: STRUCT_SIZE FIELD_OFFSET FIELD_SIZE (the field must fit in the struct)\n");
				continue;
			}
			for (int t = 0; t < nthreads; t++) st[t] = (u64)t * a[0] + a[1];
			sprintf(lbl, "aos struct=%lld offset=%lld field=%lld", (long long)a[0], (long long)a[1], (long long)a[2]);
			global_line(lbl, st, a[2]);
			for (int t = 0; t < nthreads; t++) st[t] = (u64)t * a[2];
			sprintf(lbl, "soa field=%lld", (long long)a[2]);
			global_line(lbl, st, a[2]);
		} else if (!strcmp(cmd, "gather")) {
			int64_t v;
			int good = nwords >= 2;
			for (int i = 1; i < nwords && good; i++) if (!is_number(words[i], &v)) good = 0;
			if (good) { is_number(words[1], &v); if (v < 1 || v > 16) good = 0; }
			if (!good) { printf("error: gather: SIZE ADDR...\n"); continue; }
			int64_t size = v;
			if (nwords - 2 != nthreads) {
				printf("error: gather: need %d %s\n", nthreads, nthreads == 1 ? "address" : "addresses");
				continue;
			}
			int neg = 0;
			for (int t = 0; t < nthreads; t++) { is_number(words[t + 2], &v); if (v < 0) neg = 1; st[t] = v; }
			if (neg) { printf("error: gather: addresses must be >= 0\n"); continue; }
			sprintf(lbl, "gather size=%lld", (long long)size);
			global_line(lbl, st, size);
		} else if (!strcmp(cmd, "shared")) {
			if (!ok || nwords != 3 || a[0] < 0 || a[1] < 0) { printf("error: shared: BASE_WORD STRIDE_WORDS\n"); continue; }
			for (int t = 0; t < nthreads; t++) w[t] = a[0] + (u64)t * a[1];
			sprintf(lbl, "shared base=%lld stride=%lld", (long long)a[0], (long long)a[1]);
			bank_line(lbl, w);
		} else if (!strcmp(cmd, "transpose")) {
			if (!ok || nwords != 3 || a[0] < 1 || a[0] > 64 || a[1] < 0 || a[1] > 8) {
				printf("error: transpose: TILE PAD (TILE 1-64, PAD 0-8)\n");
				continue;
			}
			for (int t = 0; t < nthreads; t++) w[t] = (u64)(t % a[0]) * (a[0] + a[1]) + t / a[0];
			sprintf(lbl, "transpose tile=%lld pad=%lld", (long long)a[0], (long long)a[1]);
			bank_line(lbl, w);
		} else {
			printf("error: unknown command %s\n", cmd);
		}
	}
	return 0;
}
