/* Lab 3 - memory coalescing
 *
 * usage: ./lab3 < commands.txt
 *
 * One command per line.  Lines are split with strtok; every command reads
 * its arguments with next_arg() and then makes sure there is nothing extra.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEP " \t\r\v\f"
#define MAXT 32
#define LIMIT 281474976710656ULL

typedef unsigned long long ull;

int nthreads = MAXT;

struct range { ull lo, hi; };

/* ------------------------------------------------------------ parsing */

char *next_arg(void)
{
	return strtok(NULL, SEP);
}

int is_digit(char c, int base)
{
	if (c >= '0' && c <= '9')
		return 1;
	if (base == 16 && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))
		return 1;
	return 0;
}

/* parses s as a number. returns 1 if ok */
int parse_num(const char *s, long long *out)
{
	const char *p = s;
	char *end;
	int neg = 0, base = 10;
	ull v;

	if (*p == '-') {
		neg = 1;
		p++;
	}
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		base = 16;
	if (!is_digit(base == 16 ? p[2] : p[0], base))
		return 0;
	errno = 0;
	v = strtoull(p, &end, base);
	if (*end != '\0' || errno == ERANGE || v >= LIMIT)
		return 0;
	*out = neg ? -(long long)v : (long long)v;
	return 1;
}

/* next argument as a number in [lo, hi] */
int arg_in(long long *out, long long lo, long long hi)
{
	return parse_num(next_arg(), out) && *out >= lo && *out <= hi;
}

/* true if the line has no more words */
int no_more(void)
{
	return next_arg() == NULL;
}

/* ------------------------------------------------------------ global */

int by_lo(const void *a, const void *b)
{
	const struct range *x = a, *y = b;
	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return 0;
}

ull count_units(ull *start, ull size, int n, ull unit)
{
	struct range r[MAXT];
	ull count = 0, reach;
	int i;

	for (i = 0; i < n; i++) {
		r[i].lo = start[i] / unit;
		r[i].hi = (start[i] + size - 1) / unit;
	}
	qsort(r, n, sizeof(struct range), by_lo);
	count = r[0].hi - r[0].lo + 1;
	reach = r[0].hi;
	for (i = 1; i < n; i++) {
		if (r[i].hi <= reach)
			continue;
		if (r[i].lo > reach)
			count += r[i].hi - r[i].lo + 1;
		else
			count += r[i].hi - reach;
		reach = r[i].hi;
	}
	return count;
}

void report(ull *start, ull size)
{
	ull sectors = count_units(start, size, nthreads, 32);
	ull lines = count_units(start, size, nthreads, 128);
	ull requested = nthreads * size;
	ull moved = sectors * 32;
	ull tenths = (requested * 2000 / moved + 1) / 2;

	printf(": %d thread%s", nthreads, nthreads == 1 ? "" : "s");
	printf(", %llu sector%s", sectors, sectors == 1 ? "" : "s");
	printf(", %llu line%s", lines, lines == 1 ? "" : "s");
	printf(", requested %llu B, moved %llu B", requested, moved);
	printf(", efficiency %llu.%llu%%\n", tenths / 10, tenths % 10);
}

/* ------------------------------------------------------------ shared */

struct access { int bank; ull word; };

int by_bank(const void *a, const void *b)
{
	const struct access *x = a, *y = b;
	if (x->bank != y->bank)
		return x->bank - y->bank;
	if (x->word != y->word)
		return x->word < y->word ? -1 : 1;
	return 0;
}

void report_banks(ull *word)
{
	struct access acc[MAXT];
	int i, run = 0, most = 0, most_bank = 0;

	for (i = 0; i < nthreads; i++) {
		acc[i].bank = (int)(word[i] % 32);
		acc[i].word = word[i];
	}
	qsort(acc, nthreads, sizeof(struct access), by_bank);
	for (i = 0; i < nthreads; i++) {
		if (i == 0 || acc[i].bank != acc[i - 1].bank)
			run = 1;
		else if (acc[i].word != acc[i - 1].word)
			run++;
		if (run > most) {
			most = run;
			most_bank = acc[i].bank;
		}
	}
	printf(": %d thread%s, ", nthreads, nthreads == 1 ? "" : "s");
	if (most == 1)
		printf("1 pass, no conflict\n");
	else
		printf("%d passes, %d-way conflict on bank %d\n", most, most,
		       most_bank);
}

/* ------------------------------------------------------------ commands */

void do_active(void)
{
	long long n;

	if (!arg_in(&n, 1, 32) || !no_more()) {
		printf("error: active: 1-32\n");
		return;
	}
	nthreads = (int)n;
}

void do_strided(void)
{
	long long base, stride, size = 4;
	ull start[MAXT];
	char *opt;
	int t;

	if (!arg_in(&base, 0, LIMIT) || !arg_in(&stride, 0, LIMIT))
		goto usage;
	opt = next_arg();
	if (opt != NULL && (!parse_num(opt, &size) || size < 1 || size > 16 ||
			    !no_more()))
		goto usage;
	for (t = 0; t < nthreads; t++)
		start[t] = base + (ull)t * stride * size;
	printf("strided base=%lld stride=%lld size=%lld", base, stride, size);
	report(start, size);
	return;
usage:
	printf("error: strided: BASE STRIDE [SIZE 1-16]\n");
}

void do_aos(void)
{
	long long ssize, off, fsize;
	ull start[MAXT];
	int t;

	if (!arg_in(&ssize, 1, LIMIT) || !arg_in(&off, 0, LIMIT) ||
	    !arg_in(&fsize, 1, LIMIT) || !no_more() || off + fsize > ssize) {
		printf("error: aos: STRUCT_SIZE FIELD_OFFSET FIELD_SIZE (the field must fit in the struct)\n");
		return;
	}
	for (t = 0; t < nthreads; t++)
		start[t] = (ull)t * ssize + off;
	printf("aos struct=%lld offset=%lld field=%lld", ssize, off, fsize);
	report(start, fsize);
	for (t = 0; t < nthreads; t++)
		start[t] = (ull)t * fsize;
	printf("soa field=%lld", fsize);
	report(start, fsize);
}

void do_gather(void)
{
	long long size, addr;
	ull start[MAXT];
	int count = 0, negative = 0;
	char *a;

	if (!arg_in(&size, 1, 16)) {
		printf("error: gather: SIZE ADDR...\n");
		return;
	}
	while ((a = next_arg()) != NULL) {
		if (!parse_num(a, &addr)) {
			printf("error: gather: SIZE ADDR...\n");
			return;
		}
		if (addr < 0)
			negative = 1;
		else if (count < MAXT)
			start[count] = addr;
		count++;
	}
	if (count != nthreads)
		printf("error: gather: need %d address%s\n", nthreads,
		       nthreads == 1 ? "" : "es");
	else if (negative)
		printf("error: gather: addresses must be >= 0\n");
	else {
		printf("gather size=%lld", size);
		report(start, size);
	}
}

void do_shared(void)
{
	long long base, stride;
	ull word[MAXT];
	int t;

	if (!arg_in(&base, 0, LIMIT) || !arg_in(&stride, 0, LIMIT) || !no_more()) {
		printf("error: shared: BASE_WORD STRIDE_WORDS\n");
		return;
	}
	for (t = 0; t < nthreads; t++)
		word[t] = base + (ull)t * stride;
	printf("shared base=%lld stride=%lld", base, stride);
	report_banks(word);
}

void do_transpose(void)
{
	long long tile, pad;
	ull word[MAXT];
	int t;

	if (!arg_in(&tile, 1, 64) || !arg_in(&pad, 0, 8) || !no_more()) {
		printf("error: transpose: TILE PAD (TILE 1-64, PAD 0-8)\n");
		return;
	}
	for (t = 0; t < nthreads; t++)
		word[t] = (t % tile) * (tile + pad) + t / tile;
	printf("transpose tile=%lld pad=%lld", tile, pad);
	report_banks(word);
}

void run(char *line)
{
	char *hash = strchr(line, '#');
	char *cmd;

	if (hash)
		*hash = '\0';
	cmd = strtok(line, SEP);
	if (cmd == NULL)
		return;
	if (!strcmp(cmd, "active"))
		do_active();
	else if (!strcmp(cmd, "strided"))
		do_strided();
	else if (!strcmp(cmd, "aos"))
		do_aos();
	else if (!strcmp(cmd, "gather"))
		do_gather();
	else if (!strcmp(cmd, "shared"))
		do_shared();
	else if (!strcmp(cmd, "transpose"))
		do_transpose();
	else
		printf("error: unknown command %s\n", cmd);
}

int main(void)
{
	char *buf = malloc(1024);
	size_t size = 1024, n = 0;
	int c;

	if (!buf)
		return 1;
	do {
		c = getc(stdin);
		if (c == '\n' || (c == EOF && n > 0)) {
			buf[n] = '\0';
			run(buf);
			n = 0;
		} else if (c != EOF) {
			if (n + 1 == size) {
				size *= 2;
				buf = realloc(buf, size);
				if (!buf)
					return 1;
			}
			buf[n++] = (char)c;
		}
	} while (c != EOF);
	free(buf);
	return 0;
}
