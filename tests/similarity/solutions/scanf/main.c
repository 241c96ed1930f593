/* coalescing.c - reads load descriptions, prints what the memory system does */
#define _POSIX_C_SOURCE 200809L   /* getline, strtok_r under -std=c11 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>

static int g_active = 32;

/* a token of the contract: [-](digits | 0x hexdigits), |v| < 2^48 */
static int read_num(const char *tok, long long *val)
{
	char *end;
	const char *p = tok + (tok[0] == '-');
	unsigned long long mag;

	if (!isdigit((unsigned char)p[0]))
		return 0;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		if (!isxdigit((unsigned char)p[2]))
			return 0;
		mag = strtoull(p + 2, &end, 16);
	} else {
		mag = strtoull(p, &end, 10);
	}
	if (*end != '\0' || mag >= (1ULL << 48))
		return 0;
	*val = tok[0] == '-' ? -(long long)mag : (long long)mag;
	return 1;
}

/* distinct blocks: repeatedly take the lowest unvisited interval */
static unsigned long long blocks(const unsigned long long *lo, unsigned long long width,
				 int n, unsigned blk)
{
	char used[32] = { 0 };
	unsigned long long total = 0, frontier = 0;
	int any = 0;

	for (int round = 0; round < n; round++) {
		int pick = -1;

		for (int t = 0; t < n; t++)
			if (!used[t] && (pick < 0 || lo[t] < lo[pick]))
				pick = t;
		used[pick] = 1;
		unsigned long long a = lo[pick] / blk, b = (lo[pick] + width - 1) / blk + 1;

		if (any && a < frontier)
			a = frontier;
		if (b > a) {
			total += b - a;
			frontier = b;
		}
		any = 1;
	}
	return total;
}

static void emit_global(const char *label, const unsigned long long *lo, unsigned long long width)
{
	unsigned long long sec = blocks(lo, width, g_active, 32);
	unsigned long long lin = blocks(lo, width, g_active, 128);
	unsigned long long want = width * g_active, got = sec * 32;
	unsigned long long q = (want * 20 + got) / (got * 2) , tenths = (want * 2000 / got + 1) / 2;

	(void)q;
	printf("%s: %d thread%s, %llu sector%s, %llu line%s, requested %llu B, moved %llu B, efficiency %llu.%llu%%\n",
	       label, g_active, g_active > 1 ? "s" : "", sec, sec > 1 ? "s" : "",
	       lin, lin > 1 ? "s" : "", want, got, tenths / 10, tenths % 10);
}

static void emit_banks(const char *label, const unsigned long long *word)
{
	int load[32];
	int worst = 0;

	memset(load, 0, sizeof(load));
	for (int t = 0; t < g_active; t++) {
		int fresh = 1;
		for (int u = 0; u < t; u++)
			fresh &= word[u] != word[t];
		load[word[t] % 32] += fresh;
	}
	for (int b = 0; b < 32; b++)
		if (load[b] > load[worst])
			worst = b;
	if (load[worst] > 1)
		printf("%s: %d thread%s, %d passes, %d-way conflict on bank %d\n", label,
		       g_active, g_active > 1 ? "s" : "", load[worst], load[worst], worst);
	else
		printf("%s: %d thread%s, 1 pass, no conflict\n", label, g_active,
		       g_active > 1 ? "s" : "");
}

int main(void)
{
	char *text = NULL;
	size_t cap = 0;

	while (getline(&text, &cap, stdin) >= 0) {
		char *argv[1100], *save = NULL, *w;
		long long v[1100];
		int argc = 0, bad = 0;
		unsigned long long lo[32], word[32];
		char label[160];

		text[strcspn(text, "#")] = '\0';
		for (w = strtok_r(text, " \t\r\n\v\f", &save); w && argc < 1100;
		     w = strtok_r(NULL, " \t\r\n\v\f", &save))
			argv[argc++] = w;
		if (argc == 0)
			continue;
		for (int i = 1; i < argc; i++)
			if (!read_num(argv[i], &v[i]))
				bad = 1;
		if (strcmp(argv[0], "active") == 0) {
			if (bad || argc != 2 || v[1] < 1 || v[1] > 32)
				goto usage_active;
			g_active = (int)v[1];
		} else if (strcmp(argv[0], "strided") == 0) {
			if (argc == 3)
				v[3] = 4;
			if (bad || argc < 3 || argc > 4 || v[1] < 0 || v[2] < 0 || v[3] < 1 || v[3] > 16)
				goto usage_strided;
			for (int t = 0; t < g_active; t++)
				lo[t] = v[1] + (unsigned long long)t * v[2] * v[3];
			snprintf(label, sizeof(label), "strided base=%lld stride=%lld size=%lld", v[1], v[2], v[3]);
			emit_global(label, lo, v[3]);
		} else if (strcmp(argv[0], "aos") == 0) {
			if (bad || argc != 4 || v[1] < 1 || v[2] < 0 || v[3] < 1 || v[2] + v[3] > v[1])
				goto usage_aos;
			for (int t = 0; t < g_active; t++)
				lo[t] = (unsigned long long)t * v[1] + v[2];
			snprintf(label, sizeof(label), "aos struct=%lld offset=%lld field=%lld", v[1], v[2], v[3]);
			emit_global(label, lo, v[3]);
			for (int t = 0; t < g_active; t++)
				lo[t] = (unsigned long long)t * v[3];
			snprintf(label, sizeof(label), "soa field=%lld", v[3]);
			emit_global(label, lo, v[3]);
		} else if (strcmp(argv[0], "gather") == 0) {
			if (bad || argc < 2 || v[1] < 1 || v[1] > 16)
				goto usage_gather;
			if (argc - 2 != g_active) {
				printf("error: gather: need %d address%s\n", g_active, g_active > 1 ? "es" : "");
				continue;
			}
			for (int t = 0; t < g_active; t++) {
				if (v[t + 2] < 0) {
					printf("error: gather: addresses must be >= 0\n");
					goto next;
				}
				lo[t] = v[t + 2];
			}
			snprintf(label, sizeof(label), "gather size=%lld", v[1]);
			emit_global(label, lo, v[1]);
		} else if (strcmp(argv[0], "shared") == 0) {
			if (bad || argc != 3 || v[1] < 0 || v[2] < 0)
				goto usage_shared;
			for (int t = 0; t < g_active; t++)
				word[t] = v[1] + (unsigned long long)t * v[2];
			snprintf(label, sizeof(label), "shared base=%lld stride=%lld", v[1], v[2]);
			emit_banks(label, word);
		} else if (strcmp(argv[0], "transpose") == 0) {
			if (bad || argc != 3 || v[1] < 1 || v[1] > 64 || v[2] < 0 || v[2] > 8)
				goto usage_transpose;
			/*@split transpose_fill: unsigned long long *word, long long *v*/
			for (int t = 0; t < g_active; t++)
				word[t] = (t % v[1]) * (v[1] + v[2]) + t / v[1];
			/*@end*/
			snprintf(label, sizeof(label), "transpose tile=%lld pad=%lld", v[1], v[2]);
			emit_banks(label, word);
		} else {
			printf("error: unknown command %s\n", argv[0]);
		}
		continue;
usage_active:
		puts("error: active: 1-32");
		continue;
usage_strided:
		puts("error: strided: BASE STRIDE [SIZE 1-16]");
		continue;
usage_aos:
		puts("error: aos: STRUCT_SIZE FIELD_OFFSET FIELD_SIZE (the field must fit in the struct)");
		continue;
usage_gather:
		puts("error: gather: SIZE ADDR...");
		continue;
usage_shared:
		puts("error: shared: BASE_WORD STRIDE_WORDS");
		continue;
usage_transpose:
		puts("error: transpose: TILE PAD (TILE 1-64, PAD 0-8)");
next:
		;
	}
	free(text);
	return 0;
}
