#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <errno.h>

/* Warp memory access analyzer (coalescing lab). */

#define WARP_SIZE 32
#define SECTOR 32
#define LINE 128
#define MAX_VALUE 281474976710656ULL /* 2^48 */

static int warp = WARP_SIZE;

/* Parses a number token. Returns 0 on success. */
static int to_number(const char *tok, long long *value)
{
	const char *p = tok;
	int negative = 0;
	unsigned long long v;
	char *end;

	if (*p == '-') {
		negative = 1;
		p++;
	}
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		p += 2;
		if (*p == '\0')
			return -1;
		errno = 0;
		v = strtoull(p, &end, 16);
		if (*end != '\0' || errno == ERANGE)
			return -1;
	} else {
		if (!isdigit((unsigned char)*p))
			return -1;
		for (const char *q = p; *q; q++)
			if (!isdigit((unsigned char)*q))
				return -1;
		while (p[0] == '0' && p[1] != '\0')
			p++;
		if (strlen(p) > 15)
			return -1;
		v = strtoull(p, &end, 10);
	}
	if (v >= MAX_VALUE)
		return -1;
	*value = negative ? -(long long)v : (long long)v;
	return 0;
}

struct access {
	unsigned long long begin, end; /* end exclusive */
};

static int by_begin(const void *a, const void *b)
{
	const struct access *x = a, *y = b;
	return (x->begin > y->begin) - (x->begin < y->begin);
}

/* Counts the units of 2^shift bytes covered by the accesses (sorted). */
static unsigned long long covered(const struct access *acc, int n, int shift)
{
	unsigned long long count = 0, last = 0;
	int started = 0;
	for (int i = 0; i < n; i++) {
		unsigned long long first = acc[i].begin >> shift;
		unsigned long long final = (acc[i].end - 1) >> shift;
		if (started && first <= last) {
			if (final > last) {
				count += final - last;
				last = final;
			}
		} else {
			count += final - first + 1;
			last = final;
			started = 1;
		}
	}
	return count;
}

static void print_global(struct access *acc, unsigned long long size)
{
	qsort(acc, warp, sizeof acc[0], by_begin);
	unsigned long long sectors = covered(acc, warp, 5);
	unsigned long long lines = covered(acc, warp, 7);
	unsigned long long requested = (unsigned long long)warp * size;
	unsigned long long moved = sectors * SECTOR;
	/* efficiency in tenths of a percent, rounded half up */
	unsigned long long whole = requested / moved;
	unsigned long long frac = requested % moved;
	unsigned long long tenths = whole * 1000;
	unsigned long long digits = 0;
	for (int i = 0; i < 3; i++) {
		frac *= 10;
		digits = digits * 10 + frac / moved;
		frac %= moved;
	}
	tenths += digits;
	if (frac * 2 >= moved)
		tenths++;
	printf(": %d thread%s, %llu sector%s, %llu line%s, requested %llu B, moved %llu B, efficiency %llu.%llu%%\n",
	       warp, warp == 1 ? "" : "s", sectors, sectors == 1 ? "" : "s",
	       lines, lines == 1 ? "" : "s", requested, moved, tenths / 10,
	       tenths % 10);
}

static void print_banks(const unsigned long long *word)
{
	int per_bank[32] = { 0 };
	for (int t = 0; t < warp; t++) {
		int again = 0;
		for (int u = 0; u < t; u++)
			if (word[u] == word[t])
				again = 1;
		if (!again)
			per_bank[word[t] % 32]++;
	}
	int worst = 0;
	for (int b = 1; b < 32; b++)
		if (per_bank[b] > per_bank[worst])
			worst = b;
	int passes = per_bank[worst];
	printf(": %d thread%s, ", warp, warp == 1 ? "" : "s");
	if (passes == 1)
		puts("1 pass, no conflict");
	else
		printf("%d passes, %d-way conflict on bank %d\n", passes, passes, worst);
}

static const char DELIM[] = " \t\r\v\f";

static void execute(char *line)
{
	static char **args;
	static int cap;
	int argc = 0;
	long long v[3];
	char *hash = strchr(line, '#');
	if (hash)
		*hash = '\0';
	char *cmd = strtok(line, DELIM);
	if (cmd == NULL)
		return;
	char *tok;
	while ((tok = strtok(NULL, DELIM)) != NULL) {
		if (argc == cap) {
			cap = cap ? 2 * cap : 16;
			args = realloc(args, cap * sizeof *args);
			if (args == NULL)
				exit(1);
		}
		args[argc++] = tok;
	}

	if (strcmp(cmd, "active") == 0) {
		if (argc != 1 || to_number(args[0], &v[0]) || v[0] < 1 || v[0] > 32) {
			puts("error: active: 1-32");
			return;
		}
		warp = (int)v[0];
	} else if (strcmp(cmd, "strided") == 0) {
		struct access acc[WARP_SIZE];
		v[2] = 4;
		int bad = argc < 2 || argc > 3;
		for (int i = 0; !bad && i < argc; i++)
			bad = to_number(args[i], &v[i]) != 0;
		if (bad || v[0] < 0 || v[1] < 0 || v[2] < 1 || v[2] > 16) {
			puts("error: strided: BASE STRIDE [SIZE 1-16]");
			return;
		}
		for (int t = 0; t < warp; t++) {
			acc[t].begin = (unsigned long long)v[0] + (unsigned long long)t * v[1] * v[2];
			acc[t].end = acc[t].begin + v[2];
		}
		printf("strided base=%lld stride=%lld size=%lld", v[0], v[1], v[2]);
		print_global(acc, v[2]);
	} else if (strcmp(cmd, "aos") == 0) {
		struct access acc[WARP_SIZE];
		int bad = argc != 3;
		for (int i = 0; !bad && i < 3; i++)
			bad = to_number(args[i], &v[i]) != 0;
		if (bad || v[0] < 1 || v[1] < 0 || v[2] < 1 || v[1] + v[2] > v[0]) {
			puts("error: aos: STRUCT_SIZE FIELD_OFFSET FIELD_SIZE (the field must fit in the struct)");
			return;
		}
		for (int t = 0; t < warp; t++) {
			acc[t].begin = (unsigned long long)t * v[0] + v[1];
			acc[t].end = acc[t].begin + v[2];
		}
		printf("aos struct=%lld offset=%lld field=%lld", v[0], v[1], v[2]);
		print_global(acc, v[2]);
		for (int t = 0; t < warp; t++) {
			acc[t].begin = (unsigned long long)t * v[2];
			acc[t].end = acc[t].begin + v[2];
		}
		printf("soa field=%lld", v[2]);
		print_global(acc, v[2]);
	} else if (strcmp(cmd, "gather") == 0) {
		struct access acc[WARP_SIZE];
		long long size, addr;
		int negative = 0;
		if (argc < 1 || to_number(args[0], &size) || size < 1 || size > 16) {
			puts("error: gather: SIZE ADDR...");
			return;
		}
		for (int i = 1; i < argc; i++) {
			if (to_number(args[i], &addr)) {
				puts("error: gather: SIZE ADDR...");
				return;
			}
			if (addr < 0)
				negative = 1;
			else if (i <= warp) {
				acc[i - 1].begin = addr;
				acc[i - 1].end = addr + size;
			}
		}
		if (argc - 1 != warp) {
			printf("error: gather: need %d address%s\n", warp, warp == 1 ? "" : "es");
			return;
		}
		if (negative) {
			puts("error: gather: addresses must be >= 0");
			return;
		}
		printf("gather size=%lld", size);
		print_global(acc, size);
	} else if (strcmp(cmd, "shared") == 0) {
		unsigned long long word[WARP_SIZE];
		if (argc != 2 || to_number(args[0], &v[0]) || to_number(args[1], &v[1]) ||
		    v[0] < 0 || v[1] < 0) {
			puts("error: shared: BASE_WORD STRIDE_WORDS");
			return;
		}
		for (int t = 0; t < warp; t++)
			word[t] = v[0] + (unsigned long long)t * v[1];
		printf("shared base=%lld stride=%lld", v[0], v[1]);
		print_banks(word);
	} else if (strcmp(cmd, "transpose") == 0) {
		unsigned long long word[WARP_SIZE];
		if (argc != 2 || to_number(args[0], &v[0]) || to_number(args[1], &v[1]) ||
		    v[0] < 1 || v[0] > 64 || v[1] < 0 || v[1] > 8) {
			puts("error: transpose: TILE PAD (TILE 1-64, PAD 0-8)");
			return;
		}
		for (int t = 0; t < warp; t++) {
			int x = t % (int)v[0], y = t / (int)v[0];
			word[t] = (unsigned long long)x * (v[0] + v[1]) + y;
		}
		printf("transpose tile=%lld pad=%lld", v[0], v[1]);
		print_banks(word);
	} else {
		printf("error: unknown command %s\n", cmd);
	}
}

int main(void)
{
	char *line = NULL;
	size_t size = 0;
	while (getline(&line, &size, stdin) != -1) {
		line[strcspn(line, "\n")] = '\0';
		execute(line);
	}
	free(line);
	return 0;
}
