/*
 * A model of one warp's loads: the warp is a struct, each command fills
 * the per-thread accesses, and two reporters print global or shared
 * results.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TOKENS 64

enum cmd { C_ACTIVE, C_STRIDED, C_AOS, C_GATHER, C_SHARED, C_TRANSPOSE, C_COUNT };

static const char *const cmd_names[C_COUNT] = {
	"active", "strided", "aos", "gather", "shared", "transpose",
};

static const char *const usage_msg[C_COUNT] = {
	"active: 1-32",
	"strided: BASE STRIDE [SIZE 1-16]",
	"aos: STRUCT_SIZE FIELD_OFFSET FIELD_SIZE (the field must fit in the struct)",
	"gather: SIZE ADDR...",
	"shared: BASE_WORD STRIDE_WORDS",
	"transpose: TILE PAD (TILE 1-64, PAD 0-8)",
};

struct access {
	unsigned long long first, len;
};

struct warp {
	int n;
	struct access acc[32];
	unsigned long long word[32];
};

/* Splits line into at most max tokens; '#' starts a comment. */
static int split_line(char *line, char **tok, int max)
{
	char *hash = strchr(line, '#');
	int n = 0;

	if (hash)
		*hash = '\0';
	for (char *p = strtok(line, " \t\r\v\f\n"); p && n < max;
	     p = strtok(NULL, " \t\r\v\f\n"))
		tok[n++] = p;
	return n;
}

/* Parses a number of the exercise: an optional '-', then decimal digits
 * or 0x and hex digits, below 2^48. Returns 0 on success. */
static int parse_number(const char *s, long long *out)
{
	int neg = 0, base = 10;
	unsigned long long v = 0;

	if (*s == '-') {
		neg = 1;
		s++;
	}
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return -1;
	for (; *s; s++) {
		int d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			return -1;
		v = v * (unsigned)base + (unsigned)d;
		if (v >= (1ULL << 48))
			return -1;
	}
	*out = neg ? -(long long)v : (long long)v;
	return 0;
}

static int by_first(const void *a, const void *b)
{
	const unsigned long long *x = a, *y = b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return 0;
}

/* The union of the accesses, in granules of g bytes. */
static unsigned long long granules(const struct warp *w, unsigned long long g)
{
	unsigned long long span[32][2], total = 0, end = 0;
	int started = 0;

	for (int t = 0; t < w->n; t++) {
		span[t][0] = w->acc[t].first / g;
		span[t][1] = (w->acc[t].first + w->acc[t].len - 1) / g;
	}
	qsort(span, (size_t)w->n, sizeof span[0], by_first);
	for (int t = 0; t < w->n; t++) {
		unsigned long long lo = span[t][0], hi = span[t][1];

		if (started && lo <= end) {
			if (hi > end) {
				total += hi - end;
				end = hi;
			}
			continue;
		}
		total += hi - lo + 1;
		end = hi;
		started = 1;
	}
	return total;
}

static const char *plural(unsigned long long n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

static void show_global(const struct warp *w, const char *label)
{
	unsigned long long size = w->acc[0].len;
	unsigned long long sectors = granules(w, 32), lines = granules(w, 128);
	unsigned long long req = (unsigned long long)w->n * size, moved = sectors * 32;
	unsigned long long num = req * 1000, pct = num / moved;

	if (2 * (num % moved) >= moved)
		pct++;
	printf("%s: %d %s, %llu %s, %llu %s, requested %llu B, moved %llu B, "
	       "efficiency %llu.%llu%%\n", label, w->n, plural(w->n, "thread", "threads"),
	       sectors, plural(sectors, "sector", "sectors"), lines,
	       plural(lines, "line", "lines"), req, moved, pct / 10, pct % 10);
}

static void show_shared(const struct warp *w, const char *label)
{
	int per_bank[32];
	int top = 0;

	memset(per_bank, 0, sizeof per_bank);
	for (int t = 0; t < w->n; t++) {
		int k;

		for (k = 0; k < t && w->word[k] != w->word[t]; k++)
			;
		if (k == t)
			per_bank[w->word[t] % 32]++;
	}
	for (int b = 0; b < 32; b++)
		if (per_bank[b] > per_bank[top])
			top = b;
	printf("%s: %d %s, ", label, w->n, plural(w->n, "thread", "threads"));
	if (per_bank[top] < 2)
		printf("1 pass, no conflict\n");
	else
		printf("%d passes, %d-way conflict on bank %d\n", per_bank[top],
		       per_bank[top], top);
}

static int numbers(char **tok, int n, long long *v)
{
	for (int i = 0; i < n; i++)
		if (parse_number(tok[i], v + i))
			return 0;
	return 1;
}

/* Runs one command; 0 when it is a usage error. */
static int run(struct warp *w, enum cmd c, char **arg, int nargs)
{
	long long v[MAX_TOKENS];
	char label[160];

	switch (c) {
	case C_ACTIVE:
		if (nargs != 1 || !numbers(arg, 1, v) || v[0] < 1 || v[0] > 32)
			return 0;
		w->n = (int)v[0];
		return 1;
	case C_STRIDED:
		v[2] = 4;
		if (nargs < 2 || nargs > 3 || !numbers(arg, nargs, v) || v[0] < 0 ||
		    v[1] < 0 || v[2] < 1 || v[2] > 16)
			return 0;
		for (int t = 0; t < w->n; t++)
			w->acc[t] = (struct access){ v[0] + (unsigned long long)t * v[1] * v[2], v[2] };
		sprintf(label, "strided base=%lld stride=%lld size=%lld", v[0], v[1], v[2]);
		show_global(w, label);
		return 1;
	case C_AOS:
		if (nargs != 3 || !numbers(arg, 3, v) || v[0] < 1 || v[1] < 0 ||
		    v[2] < 1 || v[1] + v[2] > v[0])
			return 0;
		for (int t = 0; t < w->n; t++)
			w->acc[t] = (struct access){ (unsigned long long)t * v[0] + v[1], v[2] };
		sprintf(label, "aos struct=%lld offset=%lld field=%lld", v[0], v[1], v[2]);
		show_global(w, label);
		for (int t = 0; t < w->n; t++)
			w->acc[t] = (struct access){ (unsigned long long)t * v[2], v[2] };
		sprintf(label, "soa field=%lld", v[2]);
		show_global(w, label);
		return 1;
	case C_GATHER:
		if (nargs < 1 || !numbers(arg, nargs, v) || v[0] < 1 || v[0] > 16)
			return 0;
		if (nargs - 1 != w->n) {
			printf("error: gather: need %d %s\n", w->n,
			       plural(w->n, "address", "addresses"));
			return 1;
		}
		for (int t = 0; t < w->n; t++) {
			if (v[t + 1] < 0) {
				printf("error: gather: addresses must be >= 0\n");
				return 1;
			}
			w->acc[t] = (struct access){ v[t + 1], v[0] };
		}
		sprintf(label, "gather size=%lld", v[0]);
		show_global(w, label);
		return 1;
	case C_SHARED:
		if (nargs != 2 || !numbers(arg, 2, v) || v[0] < 0 || v[1] < 0)
			return 0;
		for (int t = 0; t < w->n; t++)
			w->word[t] = v[0] + (unsigned long long)t * v[1];
		sprintf(label, "shared base=%lld stride=%lld", v[0], v[1]);
		show_shared(w, label);
		return 1;
	case C_TRANSPOSE:
		if (nargs != 2 || !numbers(arg, 2, v) || v[0] < 1 || v[0] > 64 ||
		    v[1] < 0 || v[1] > 8)
			return 0;
		/*@split transpose_words: struct warp *w, long long *v*/
		for (int t = 0; t < w->n; t++) {
			long long x = t % v[0], y = t / v[0];

			w->word[t] = x * (v[0] + v[1]) + y;
		}
		/*@end*/
		sprintf(label, "transpose tile=%lld pad=%lld", v[0], v[1]);
		show_shared(w, label);
		return 1;
	default:
		return 0;
	}
}

/*@inline*/
static void dispatch(struct warp *w, char **tok, int n)
{
	int c;

	for (c = 0; c < C_COUNT; c++)
		if (!strcmp(tok[0], cmd_names[c]))
			break;
	if (c == C_COUNT)
		printf("error: unknown command %s\n", tok[0]);
	else if (!run(w, (enum cmd)c, tok + 1, n - 1))
		printf("error: %s\n", usage_msg[c]);
}

int main(void)
{
	char line[65536];
	char *tok[MAX_TOKENS];
	struct warp w = { .n = 32 };

	while (fgets(line, sizeof line, stdin)) {
		int n = split_line(line, tok, MAX_TOKENS);

		if (n == 0)
			continue;
		dispatch(&w, tok, n);
	}
	return 0;
}
