/* Coalescing simulator: a table of commands, each a handler. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TOKENS 64
#define WARP 32

struct range {
	long long lo, hi;   /* bytes [lo, hi) */
};

static int active = WARP;

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

static int cmp_range(const void *a, const void *b)
{
	const struct range *x = a, *y = b;

	return (x->lo > y->lo) - (x->lo < y->lo);
}

/* Number of distinct units of size unit covered by the ranges. */
static long long count_units(const struct range *r, int n, long long unit)
{
	struct range u[WARP];
	long long total = 0, cur_lo = -1, cur_hi = -1;

	for (int i = 0; i < n; i++) {
		u[i].lo = r[i].lo / unit;
		u[i].hi = (r[i].hi - 1) / unit + 1;
	}
	qsort(u, (size_t)n, sizeof u[0], cmp_range);
	for (int i = 0; i < n; i++) {
		if (u[i].lo > cur_hi) {
			total += cur_hi - cur_lo;
			cur_lo = u[i].lo;
			cur_hi = u[i].hi;
		} else if (u[i].hi > cur_hi) {
			cur_hi = u[i].hi;
		}
	}
	return total + cur_hi - cur_lo;
}

/*@inline*/
static void print_efficiency(unsigned long long req, unsigned long long moved)
{
	unsigned long long tenths = (req * 2000 / moved + 1) / 2;

	printf("efficiency %llu.%llu%%\n", tenths / 10, tenths % 10);
}

static void report_global(const char *label, const struct range *r, long long size)
{
	long long sectors = count_units(r, active, 32);
	long long lines = count_units(r, active, 128);
	unsigned long long req = (unsigned long long)active * (unsigned long long)size;

	printf("%s: %d thread%s, %lld sector%s, %lld line%s, requested %llu B, moved %lld B, ",
	       label, active, active == 1 ? "" : "s", sectors, sectors == 1 ? "" : "s",
	       lines, lines == 1 ? "" : "s", req, sectors * 32);
	print_efficiency(req, (unsigned long long)sectors * 32);
}

static void report_banks(const char *label, const long long *word)
{
	int worst = 0, passes = 0;

	for (int bank = 0; bank < 32; bank++) {
		int distinct = 0;

		for (int t = 0; t < active; t++) {
			int seen = 0;

			if (word[t] % 32 != bank)
				continue;
			for (int s = 0; s < t; s++)
				if (word[s] == word[t])
					seen = 1;
			distinct += !seen;
		}
		if (distinct > passes) {
			passes = distinct;
			worst = bank;
		}
	}
	if (passes <= 1)
		printf("%s: %d thread%s, 1 pass, no conflict\n", label, active,
		       active == 1 ? "" : "s");
	else
		printf("%s: %d thread%s, %d passes, %d-way conflict on bank %d\n",
		       label, active, active == 1 ? "" : "s", passes, passes, worst);
}

static int get_args(char **tok, int n, long long *v)
{
	for (int i = 0; i < n; i++)
		if (parse_number(tok[i], &v[i]) != 0)
			return -1;
	return 0;
}

static void cmd_active(char **tok, int n)
{
	long long v;

	if (n != 2 || parse_number(tok[1], &v) || v < 1 || v > 32) {
		puts("error: active: 1-32");
		return;
	}
	active = (int)v;
}

static void cmd_strided(char **tok, int n)
{
	long long v[3] = { 0, 0, 4 };
	struct range r[WARP];
	char label[128];

	if (n < 3 || n > 4 || get_args(tok + 1, n - 1, v) || v[0] < 0 || v[1] < 0 ||
	    v[2] < 1 || v[2] > 16) {
		puts("error: strided: BASE STRIDE [SIZE 1-16]");
		return;
	}
	for (int t = 0; t < active; t++) {
		r[t].lo = v[0] + t * v[1] * v[2];
		r[t].hi = r[t].lo + v[2];
	}
	snprintf(label, sizeof label, "strided base=%lld stride=%lld size=%lld", v[0], v[1], v[2]);
	report_global(label, r, v[2]);
}

static void cmd_aos(char **tok, int n)
{
	long long v[3];
	struct range r[WARP];
	char label[128];

	if (n != 4 || get_args(tok + 1, 3, v) || v[0] < 1 || v[1] < 0 || v[2] < 1 ||
	    v[1] + v[2] > v[0]) {
		puts("error: aos: STRUCT_SIZE FIELD_OFFSET FIELD_SIZE (the field must fit in the struct)");
		return;
	}
	/*@split fill_aos: long long *v, struct range *r*/
	for (int t = 0; t < active; t++) {
		r[t].lo = t * v[0] + v[1];
		r[t].hi = r[t].lo + v[2];
	}
	/*@end*/
	snprintf(label, sizeof label, "aos struct=%lld offset=%lld field=%lld", v[0], v[1], v[2]);
	report_global(label, r, v[2]);
	for (int t = 0; t < active; t++) {
		r[t].lo = t * v[2];
		r[t].hi = r[t].lo + v[2];
	}
	snprintf(label, sizeof label, "soa field=%lld", v[2]);
	report_global(label, r, v[2]);
}

static void cmd_gather(char **tok, int n)
{
	long long size, addr[WARP];
	struct range r[WARP];
	char label[64];

	if (n < 2 || parse_number(tok[1], &size) || size < 1 || size > 16) {
		puts("error: gather: SIZE ADDR...");
		return;
	}
	for (int i = 2; i < n; i++) {
		long long a;

		if (parse_number(tok[i], &a)) {
			puts("error: gather: SIZE ADDR...");
			return;
		}
	}
	if (n - 2 != active) {
		printf("error: gather: need %d address%s\n", active, active == 1 ? "" : "es");
		return;
	}
	if (get_args(tok + 2, n - 2, addr))
		return;
	for (int t = 0; t < active; t++) {
		if (addr[t] < 0) {
			puts("error: gather: addresses must be >= 0");
			return;
		}
		r[t].lo = addr[t];
		r[t].hi = addr[t] + size;
	}
	snprintf(label, sizeof label, "gather size=%lld", size);
	report_global(label, r, size);
}

static void cmd_shared(char **tok, int n)
{
	long long v[2], word[WARP];
	char label[96];

	if (n != 3 || get_args(tok + 1, 2, v) || v[0] < 0 || v[1] < 0) {
		puts("error: shared: BASE_WORD STRIDE_WORDS");
		return;
	}
	for (int t = 0; t < active; t++)
		word[t] = v[0] + t * v[1];
	snprintf(label, sizeof label, "shared base=%lld stride=%lld", v[0], v[1]);
	report_banks(label, word);
}

static void cmd_transpose(char **tok, int n)
{
	long long v[2], word[WARP];
	char label[96];

	if (n != 3 || get_args(tok + 1, 2, v) || v[0] < 1 || v[0] > 64 || v[1] < 0 ||
	    v[1] > 8) {
		puts("error: transpose: TILE PAD (TILE 1-64, PAD 0-8)");
		return;
	}
	for (int t = 0; t < active; t++)
		word[t] = (t % v[0]) * (v[0] + v[1]) + t / v[0];
	snprintf(label, sizeof label, "transpose tile=%lld pad=%lld", v[0], v[1]);
	report_banks(label, word);
}

static const struct {
	const char *name;
	void (*run)(char **tok, int n);
} commands[] = {
	{ "active", cmd_active }, { "strided", cmd_strided }, { "aos", cmd_aos },
	{ "gather", cmd_gather }, { "shared", cmd_shared },
	{ "transpose", cmd_transpose },
};

int main(void)
{
	char line[65536];
	char *tok[MAX_TOKENS];

	while (fgets(line, sizeof line, stdin)) {
		int n = split_line(line, tok, MAX_TOKENS);
		size_t i;

		if (n == 0)
			continue;
		for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
			if (strcmp(commands[i].name, tok[0]) == 0)
				break;
		if (i < sizeof commands / sizeof commands[0])
			commands[i].run(tok, n);
		else
			printf("error: unknown command %s\n", tok[0]);
	}
	return 0;
}
