#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* getchar-driven: collects the tokens of one line, then runs the command */

typedef unsigned long long ull;

int nthreads = 32;

char *buf;          /* the current line's token characters, NUL-separated */
size_t blen, bcap;
size_t *starts;     /* offsets of tokens in buf */
size_t ntok, scap;

void put(char c)
{
	if (blen == bcap) {
		bcap = bcap ? bcap * 2 : 64;
		buf = realloc(buf, bcap);
		if (buf == NULL)
			exit(1);
	}
	buf[blen++] = c;
}

void new_token(void)
{
	if (ntok == scap) {
		scap = scap ? scap * 2 : 8;
		starts = realloc(starts, scap * sizeof(size_t));
		if (starts == NULL)
			exit(1);
	}
	starts[ntok++] = blen;
}

#define TOK(i) (buf + starts[i])

int get_num(const char *s, long long *res)
{
	int sign = 1;
	ull val = 0, base = 10;
	if (!*s)
		return 0;
	if (*s == '-') {
		sign = -1;
		s++;
	}
	if (*s == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	while (*s) {
		ull d;
		char c = *s++;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return 0;
		val = val * base + d;
		if (val >= (1ULL << 48))
			return 0;
	}
	*res = sign * (long long)val;
	return 1;
}

ull lo_[32], hi_[32];

ull count_units(int shift)
{
	int idx[32], n = nthreads;
	for (int i = 0; i < n; i++)
		idx[i] = i;
	/* selection sort by start */
	for (int i = 0; i < n; i++) {
		int m = i;
		for (int j = i + 1; j < n; j++)
			if (lo_[idx[j]] < lo_[idx[m]])
				m = j;
		int t = idx[i];
		idx[i] = idx[m];
		idx[m] = t;
	}
	ull total = 0, end = 0;
	int have = 0;
	for (int i = 0; i < n; i++) {
		ull a = lo_[idx[i]] >> shift, b = hi_[idx[i]] >> shift;
		if (have && a <= end) {
			if (b > end) {
				total += b - end;
				end = b;
			}
		} else {
			total += b - a + 1;
			end = b;
			have = 1;
		}
	}
	return total;
}

void global(ull size)
{
	ull sec = count_units(5), lin = count_units(7);
	ull req = (ull)nthreads * size, mov = sec * 32;
	ull whole = req / mov, rest = req % mov, tenths = whole * 1000;
	ull part = 0;
	for (int k = 0; k < 3; k++) {
		rest *= 10;
		part = part * 10 + rest / mov;
		rest %= mov;
	}
	tenths += part + (rest >= mov - rest);
	printf(": %d %s, %llu %s, %llu %s, requested %llu B, moved %llu B, efficiency %llu.%llu%%\n",
	       nthreads, nthreads == 1 ? "thread" : "threads", sec,
	       sec == 1 ? "sector" : "sectors", lin, lin == 1 ? "line" : "lines",
	       req, mov, tenths / 10, tenths % 10);
}

void banks(ull *w)
{
	int cnt[32];
	memset(cnt, 0, sizeof cnt);
	for (int t = 0; t < nthreads; t++) {
		int first = 1;
		for (int u = 0; u < t; u++)
			if (w[u] == w[t])
				first = 0;
		if (first)
			cnt[w[t] % 32]++;
	}
	int best = 0;
	for (int b = 1; b < 32; b++)
		if (cnt[b] > cnt[best])
			best = b;
	printf(": %d %s, ", nthreads, nthreads == 1 ? "thread" : "threads");
	if (cnt[best] == 1)
		printf("1 pass, no conflict\n");
	else
		printf("%d passes, %d-way conflict on bank %d\n", cnt[best], cnt[best], best);
}

void run(void)
{
	long long a[3];
	int argc = (int)ntok - 1;
	const char *cmd = TOK(0);
	int ok;

	if (!strcmp(cmd, "active")) {
		if (argc == 1 && get_num(TOK(1), &a[0]) && a[0] >= 1 && a[0] <= 32)
			nthreads = (int)a[0];
		else
			printf("error: active: 1-32\n");
	} else if (!strcmp(cmd, "strided")) {
		a[2] = 4;
		ok = argc == 2 || argc == 3;
		for (int i = 0; ok && i < argc; i++)
			ok = get_num(TOK(i + 1), &a[i]);
		if (!ok || a[0] < 0 || a[1] < 0 || a[2] < 1 || a[2] > 16) {
			printf("error: strided: BASE STRIDE [SIZE 1-16]\n");
			return;
		}
		for (int t = 0; t < nthreads; t++) {
			lo_[t] = a[0] + (ull)t * a[1] * a[2];
			hi_[t] = lo_[t] + a[2] - 1;
		}
		printf("strided base=%lld stride=%lld size=%lld", a[0], a[1], a[2]);
		global(a[2]);
	} else if (!strcmp(cmd, "aos")) {
		ok = argc == 3;
		for (int i = 0; ok && i < 3; i++)
			ok = get_num(TOK(i + 1), &a[i]);
		if (!ok || a[0] < 1 || a[1] < 0 || a[2] < 1 || a[1] + a[2] > a[0]) {
			printf("error: aos: STRUCT_SIZE FIELD_OFFSET FIELD_SIZE (the field must fit in the struct)\n");
			return;
		}
		for (int t = 0; t < nthreads; t++) {
			lo_[t] = (ull)t * a[0] + a[1];
			hi_[t] = lo_[t] + a[2] - 1;
		}
		printf("aos struct=%lld offset=%lld field=%lld", a[0], a[1], a[2]);
		global(a[2]);
		for (int t = 0; t < nthreads; t++) {
			lo_[t] = (ull)t * a[2];
			hi_[t] = lo_[t] + a[2] - 1;
		}
		printf("soa field=%lld", a[2]);
		global(a[2]);
	} else if (!strcmp(cmd, "gather")) {
		long long sz, ad;
		int neg = 0;
		if (argc < 1 || !get_num(TOK(1), &sz) || sz < 1 || sz > 16) {
			printf("error: gather: SIZE ADDR...\n");
			return;
		}
		for (int i = 2; i < (int)ntok; i++) {
			if (!get_num(TOK(i), &ad)) {
				printf("error: gather: SIZE ADDR...\n");
				return;
			}
			if (ad < 0)
				neg = 1;
			else if (i - 2 < 32) {
				lo_[i - 2] = ad;
				hi_[i - 2] = ad + sz - 1;
			}
		}
		if (argc - 1 != nthreads) {
			printf("error: gather: need %d %s\n", nthreads,
			       nthreads == 1 ? "address" : "addresses");
			return;
		}
		if (neg) {
			printf("error: gather: addresses must be >= 0\n");
			return;
		}
		printf("gather size=%lld", sz);
		global(sz);
	} else if (!strcmp(cmd, "shared")) {
		ull w[32];
		ok = argc == 2 && get_num(TOK(1), &a[0]) && get_num(TOK(2), &a[1]);
		if (!ok || a[0] < 0 || a[1] < 0) {
			printf("error: shared: BASE_WORD STRIDE_WORDS\n");
			return;
		}
		for (int t = 0; t < nthreads; t++)
			w[t] = a[0] + (ull)t * a[1];
		printf("shared base=%lld stride=%lld", a[0], a[1]);
		banks(w);
	} else if (!strcmp(cmd, "transpose")) {
		ull w[32];
		ok = argc == 2 && get_num(TOK(1), &a[0]) && get_num(TOK(2), &a[1]);
		if (!ok || a[0] < 1 || a[0] > 64 || a[1] < 0 || a[1] > 8) {
			printf("error: transpose: TILE PAD (TILE 1-64, PAD 0-8)\n");
			return;
		}
		for (int t = 0; t < nthreads; t++)
			w[t] = (ull)(t % a[0]) * (ull)(a[0] + a[1]) + (ull)(t / a[0]);
		printf("transpose tile=%lld pad=%lld", a[0], a[1]);
		banks(w);
	} else {
		printf("error: unknown command %s\n", cmd);
	}
}

int main(void)
{
	int c, in_tok = 0, in_comment = 0;
	for (;;) {
		c = getchar();
		if (c == EOF || c == '\n') {
			if (in_tok)
				put('\0');
			if (ntok > 0)
				run();
			blen = 0;
			ntok = 0;
			in_tok = in_comment = 0;
			if (c == EOF)
				break;
			continue;
		}
		if (in_comment)
			continue;
		if (c == '#') {
			if (in_tok)
				put('\0');
			in_tok = 0;
			in_comment = 1;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f') {
			if (in_tok)
				put('\0');
			in_tok = 0;
		} else {
			if (!in_tok)
				new_token();
			in_tok = 1;
			put((char)c);
		}
	}
	free(buf);
	free(starts);
	return 0;
}
