/* A wrong solution. BUG: writes at most 64 KiB of output, drops the rest. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>

/* ---- reference/lex.h ---- */
#ifndef WG_LEX_H
#define WG_LEX_H

/*
 * lex: the exercise's tokenizer and number grammar.
 *
 * A line is split into tokens separated by runs of space, tab, CR, VT or FF;
 * '#' ends the line's tokens wherever it appears, even inside a token. Tokens
 * are (pointer, length) views into the caller's line, so a line may hold any
 * bytes, NUL included, and be of any length.
 */

#include <stddef.h>
#include <stdint.h>

/* Magnitudes must be below 2^48 (the contract). */
#define LEX_MAX_MAGNITUDE ((int64_t)1 << 48)

struct lex_token {
	const char *p;
	size_t n;
};

struct lex_tokens {
	struct lex_token *v;   /* owned; grows as needed */
	size_t n, cap;
};

/*
 * Splits line[0..len) into t (reusing its storage). Returns 0, or -1 when
 * memory runs out (t is then left empty). Free with lex_tokens_free().
 */
int lex_split(struct lex_tokens *t, const char *line, size_t len);
void lex_tokens_free(struct lex_tokens *t);

/*
 * Parses a number: optional '-', then decimal digits (leading zeros are
 * still decimal) or 0x/0X and hex digits, magnitude below 2^48.
 * Returns 0 and sets *out, or -1 when the token is not such a number.
 */
int lex_number(const struct lex_token *tok, int64_t *out);

#endif

/* ---- reference/model.h ---- */
#ifndef WG_MODEL_H
#define WG_MODEL_H

/*
 * model: the exercise's access model, free of any I/O.
 *
 * Global memory moves 32-byte sectors grouped in 128-byte lines; shared
 * memory has 32 banks of 4-byte words. Everything here is exact unsigned
 * 64-bit integer arithmetic. The callers keep every byte address below 2^60
 * (inputs are below 2^48, thread indices below 32, sizes below 2^48), so
 * ends of ranges never wrap.
 */

#include <stddef.h>
#include <stdint.h>

#define MODEL_WARP 32
#define MODEL_SECTOR 32
#define MODEL_LINE 128
#define MODEL_SECTOR_SHIFT 5     /* log2(MODEL_SECTOR) */
#define MODEL_LINE_SHIFT 7       /* log2(MODEL_LINE) */
#define MODEL_BANKS 32

/* A byte range [start, start + len), len >= 1. */
struct model_range {
	uint64_t start, len;
};

struct model_coverage {
	uint64_t sectors, lines;
};

/*
 * The number of distinct sectors (byte / 32) and lines (byte / 128) covered
 * by the union of the n ranges, counted by merging intervals, never by
 * walking bytes. Sorts r by start (in place). n <= MODEL_WARP.
 */
struct model_coverage model_cover(struct model_range *r, size_t n);

/*
 * Efficiency 100 * requested / moved in tenths of a percent, rounded half
 * up, by long division so no intermediate passes 2^64 (1000 * requested
 * can). 0 < moved < 2^60; requested / moved < 2^50.
 */
uint64_t model_efficiency_tenths(uint64_t requested, uint64_t moved);

struct model_banks {
	unsigned passes;   /* the largest count of distinct words in a bank */
	unsigned bank;     /* the lowest-numbered bank with that count */
};

/* Bank conflicts for n word indices (n <= MODEL_WARP). */
struct model_banks model_bank_conflicts(const uint64_t *words, size_t n);

#endif

/* ---- reference/cmd.h ---- */
#ifndef WG_CMD_H
#define WG_CMD_H

/*
 * cmd: the exercise's command interpreter. One call handles one input line
 * (without its '\n'): tokenize, look the command up in a table of
 * {name, min_args, max_args, usage, handler} rows, check the argument
 * count, run the handler. Output (results and error lines alike) is
 * appended to a growable buffer that the caller flushes when it likes, so
 * the interpreter does no I/O and can be driven by tests and the fuzzer.
 */

#include <stddef.h>


struct cmd_out {
	char *buf;       /* owned; not NUL-terminated */
	size_t len, cap;
	int failed;      /* an allocation failed; later appends are dropped */
};

struct cmd_state {
	int active;              /* active threads, 1..32 */
	struct lex_tokens toks;  /* scratch, reused across lines */
	struct cmd_out out;
};

void cmd_init(struct cmd_state *st);
void cmd_free(struct cmd_state *st);

/*
 * Processes line[0..len), which may hold any bytes. Returns 0, or -1 when
 * memory ran out (the output is then incomplete).
 */
int cmd_line(struct cmd_state *st, const char *line, size_t len);

#endif

/* ---- reference/lex.c ---- */

#include <stdlib.h>

static int is_sep(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static int push(struct lex_tokens *t, const char *p, size_t n)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		struct lex_token *v = realloc(t->v, cap * sizeof(*v));
		if (!v)
			return -1;
		t->v = v;
		t->cap = cap;
	}
	t->v[t->n].p = p;
	t->v[t->n].n = n;
	t->n++;
	return 0;
}

int lex_split(struct lex_tokens *t, const char *line, size_t len)
{
	size_t i = 0;

	t->n = 0;
	while (i < len && line[i] != '#') {
		if (is_sep((unsigned char)line[i])) {
			i++;
			continue;
		}
		size_t start = i;
		while (i < len && line[i] != '#' && !is_sep((unsigned char)line[i]))
			i++;
		if (push(t, line + start, i - start) < 0) {
			t->n = 0;
			return -1;
		}
	}
	return 0;
}

void lex_tokens_free(struct lex_tokens *t)
{
	free(t->v);
	t->v = NULL;
	t->n = t->cap = 0;
}

static int digit_value(unsigned char c, int base)
{
	int d;

	if (c >= '0' && c <= '9')
		d = c - '0';
	else if (c >= 'a' && c <= 'f')
		d = c - 'a' + 10;
	else if (c >= 'A' && c <= 'F')
		d = c - 'A' + 10;
	else
		return -1;
	return d < base ? d : -1;
}

int lex_number(const struct lex_token *tok, int64_t *out)
{
	const char *p = tok->p, *end = tok->p + tok->n;
	int neg = 0, base = 10;
	int64_t v = 0;

	if (p < end && *p == '-') {
		neg = 1;
		p++;
	}
	if (end - p >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	if (p == end)
		return -1;
	/* v stays below 2^48 before each step, so v * 16 + 15 cannot overflow. */
	for (; p < end; p++) {
		int d = digit_value((unsigned char)*p, base);
		if (d < 0)
			return -1;
		v = v * base + d;
		if (v >= LEX_MAX_MAGNITUDE)
			return -1;
	}
	*out = neg ? -v : v;
	return 0;
}

/* ---- reference/model.c ---- */

/* Insertion sort: strided and aos ranges arrive sorted, so this is one
 * comparison per range for them (nothing is written back); a gather of 32
 * is at worst a few hundred moves. */
static void sort_by_start(struct model_range *r, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		if (r[i - 1].start <= r[i].start)
			continue;
		struct model_range x = r[i];
		size_t j = i;
		do {
			r[j] = r[j - 1];
			j--;
		} while (j > 0 && r[j - 1].start > x.start);
		r[j] = x;
	}
}

/* A run of granule indices [lo, hi] being merged. */
struct span {
	uint64_t lo, hi, total;
};

/* Granule indices are monotonic in the byte address, so ranges sorted by
 * start give index intervals sorted by their low end: each new one either
 * extends the current run or closes it. */
static void span_add(struct span *s, uint64_t lo, uint64_t hi)
{
	if (lo > s->hi) {
		s->total += s->hi - s->lo + 1;
		s->lo = lo;
		s->hi = hi;
	} else if (hi > s->hi) {
		s->hi = hi;
	}
}

struct model_coverage model_cover(struct model_range *r, size_t n)
{
	struct span sec = { 0, 0, 0 }, line = { 0, 0, 0 };

	if (n == 0)
		return (struct model_coverage){ 0, 0 };
	sort_by_start(r, n);
	/* Both granularities in one pass over the sorted ranges. */
	for (size_t i = 0; i < n; i++) {
		uint64_t first = r[i].start, last = r[i].start + r[i].len - 1;
		if (i == 0) {
			sec = (struct span){ first >> MODEL_SECTOR_SHIFT,
					     last >> MODEL_SECTOR_SHIFT, 0 };
			line = (struct span){ first >> MODEL_LINE_SHIFT,
					      last >> MODEL_LINE_SHIFT, 0 };
			continue;
		}
		span_add(&sec, first >> MODEL_SECTOR_SHIFT, last >> MODEL_SECTOR_SHIFT);
		span_add(&line, first >> MODEL_LINE_SHIFT, last >> MODEL_LINE_SHIFT);
	}
	return (struct model_coverage){ sec.total + sec.hi - sec.lo + 1,
					line.total + line.hi - line.lo + 1 };
}

uint64_t model_efficiency_tenths(uint64_t requested, uint64_t moved)
{
	/* 100 * requested / moved to one decimal is 1000 * requested / moved:
	 * three decimal digits of the quotient, then half-up on the rest.
	 * The remainder stays below moved, so 10 * rem and 2 * rem fit. */
	uint64_t q = requested / moved, rem = requested % moved;

	for (int digit = 0; digit < 3; digit++) {
		rem *= 10;
		q = q * 10 + rem / moved;
		rem %= moved;
	}
	if (rem >= moved - rem)
		q++;
	return q;
}

struct model_banks model_bank_conflicts(const uint64_t *words, size_t n)
{
	/* Distinct words per bank; a word only needs comparing with the words
	 * already in its own bank. */
	uint64_t seen[MODEL_BANKS][MODEL_WARP];
	unsigned count[MODEL_BANKS] = { 0 };
	struct model_banks b = { 0, 0 };

	for (size_t i = 0; i < n; i++) {
		unsigned k = (unsigned)(words[i] % MODEL_BANKS), j = 0;
		while (j < count[k] && seen[k][j] != words[i])
			j++;
		if (j == count[k])
			seen[k][count[k]++] = words[i];
	}
	for (unsigned k = 0; k < MODEL_BANKS; k++)
		if (count[k] > b.passes) {
			b.passes = count[k];
			b.bank = k;
		}
	return b;
}

/* ---- reference/cmd.c ---- */
/*
 * The commands of the exercise contract. Every handler validates all of its
 * arguments before it touches the state or prints, so a failed command
 * prints exactly one usage line and changes nothing.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>


struct cmd_row;

struct cmd_ctx {
	struct cmd_state *st;
	const struct cmd_row *row;
	const struct lex_token *arg;   /* the arguments, command excluded */
	size_t argc;
};

typedef void cmd_handler(struct cmd_ctx *c);

struct cmd_row {
	const char *name;
	size_t min_args, max_args;
	const char *usage;             /* printed after "error: " */
	cmd_handler *handler;
};

/* ---- output ---- */

static void out_bytes(struct cmd_out *o, const char *s, size_t n)
{
	if (o->failed)
		return;
	if (o->cap - o->len < n) {
		size_t cap = o->cap ? o->cap : 4096;
		while (cap - o->len < n)
			cap *= 2;
		char *b = realloc(o->buf, cap);
		if (!b) {
			o->failed = 1;
			return;
		}
		o->buf = b;
		o->cap = cap;
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

static void out_str(struct cmd_out *o, const char *s)
{
	out_bytes(o, s, strlen(s));
}

static void out_u64(struct cmd_out *o, uint64_t v)
{
	char d[24];
	size_t i = sizeof(d);

	do {
		d[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	out_bytes(o, d + i, sizeof(d) - i);
}

/* "N word" or "N words". */
static void out_count(struct cmd_out *o, uint64_t n, const char *word)
{
	out_u64(o, n);
	out_str(o, " ");
	out_str(o, word);
	if (n != 1)
		out_str(o, "s");
}

static void out_error(struct cmd_ctx *c, const char *text)
{
	out_str(&c->st->out, "error: ");
	out_str(&c->st->out, text);
	out_str(&c->st->out, "\n");
}

static void out_usage(struct cmd_ctx *c);

/* ---- argument parsing ---- */

/* Parses every argument into v; 0 when all are numbers in [lo, hi]. */
static int parse_args(struct cmd_ctx *c, int64_t *v, const int64_t *lo,
		      const int64_t *hi)
{
	for (size_t i = 0; i < c->argc; i++)
		if (lex_number(&c->arg[i], &v[i]) < 0 || v[i] < lo[i] ||
		    v[i] > hi[i])
			return -1;
	return 0;
}

#define ANY LEX_MAX_MAGNITUDE

/* ---- global loads ---- */

static void report_global(struct cmd_ctx *c, struct model_range *r,
			  uint64_t size)
{
	struct cmd_out *o = &c->st->out;
	unsigned n = (unsigned)c->st->active;
	struct model_coverage cov = model_cover(r, n);
	uint64_t requested = n * size, moved = cov.sectors * MODEL_SECTOR;
	uint64_t eff = model_efficiency_tenths(requested, moved);

	out_str(o, ": ");
	out_count(o, n, "thread");
	out_str(o, ", ");
	out_count(o, cov.sectors, "sector");
	out_str(o, ", ");
	out_count(o, cov.lines, "line");
	out_str(o, ", requested ");
	out_u64(o, requested);
	out_str(o, " B, moved ");
	out_u64(o, moved);
	out_str(o, " B, efficiency ");
	out_u64(o, eff / 10);
	out_str(o, ".");
	out_u64(o, eff % 10);
	out_str(o, "%\n");
}

static void label_kv(struct cmd_out *o, const char *key, int64_t v)
{
	out_str(o, key);
	out_u64(o, (uint64_t)v);
}

static void cmd_strided(struct cmd_ctx *c)
{
	static const int64_t lo[] = { 0, 0, 1 }, hi[] = { ANY, ANY, 16 };
	int64_t v[3] = { 0, 0, 4 };
	struct model_range r[MODEL_WARP];

	if (parse_args(c, v, lo, hi) < 0) {
		out_usage(c);
		return;
	}
	for (int t = 0; t < c->st->active; t++) {
		r[t].start = (uint64_t)v[0] + (uint64_t)t * v[1] * v[2];
		r[t].len = (uint64_t)v[2];
	}
	label_kv(&c->st->out, "strided base=", v[0]);
	label_kv(&c->st->out, " stride=", v[1]);
	label_kv(&c->st->out, " size=", v[2]);
	report_global(c, r, (uint64_t)v[2]);
}

static void cmd_aos(struct cmd_ctx *c)
{
	static const int64_t lo[] = { 1, 0, 1 }, hi[] = { ANY, ANY, ANY };
	int64_t v[3];
	struct model_range r[MODEL_WARP];
	struct cmd_out *o = &c->st->out;

	if (parse_args(c, v, lo, hi) < 0 || v[1] + v[2] > v[0]) {
		out_usage(c);
		return;
	}
	for (int t = 0; t < c->st->active; t++) {
		r[t].start = (uint64_t)t * v[0] + v[1];
		r[t].len = (uint64_t)v[2];
	}
	label_kv(o, "aos struct=", v[0]);
	label_kv(o, " offset=", v[1]);
	label_kv(o, " field=", v[2]);
	report_global(c, r, (uint64_t)v[2]);
	for (int t = 0; t < c->st->active; t++)
		r[t].start = (uint64_t)t * v[2];
	label_kv(o, "soa field=", v[2]);
	report_global(c, r, (uint64_t)v[2]);
}

static void cmd_gather(struct cmd_ctx *c)
{
	struct model_range r[MODEL_WARP];
	int64_t size, addr;
	int negative = 0;

	if (lex_number(&c->arg[0], &size) < 0 || size < 1 || size > 16)
		goto usage;
	for (size_t i = 1; i < c->argc; i++) {
		if (lex_number(&c->arg[i], &addr) < 0)
			goto usage;
		if (addr < 0)
			negative = 1;
		else if (i <= (size_t)c->st->active)
			r[i - 1] = (struct model_range){ (uint64_t)addr,
							 (uint64_t)size };
	}
	if (c->argc - 1 != (size_t)c->st->active) {
		out_str(&c->st->out, "error: gather: need ");
		out_u64(&c->st->out, (uint64_t)c->st->active);
		out_str(&c->st->out,
			c->st->active == 1 ? " address\n" : " addresses\n");
		return;
	}
	if (negative) {
		out_error(c, "gather: addresses must be >= 0");
		return;
	}
	label_kv(&c->st->out, "gather size=", size);
	report_global(c, r, (uint64_t)size);
	return;
usage:
	out_usage(c);
}

/* ---- shared memory ---- */

static void report_banks(struct cmd_ctx *c, const uint64_t *words)
{
	struct cmd_out *o = &c->st->out;
	struct model_banks b = model_bank_conflicts(words, c->st->active);

	out_str(o, ": ");
	out_count(o, (uint64_t)c->st->active, "thread");
	if (b.passes == 1) {
		out_str(o, ", 1 pass, no conflict\n");
		return;
	}
	out_str(o, ", ");
	out_u64(o, b.passes);
	out_str(o, " passes, ");
	out_u64(o, b.passes);
	out_str(o, "-way conflict on bank ");
	out_u64(o, b.bank);
	out_str(o, "\n");
}

static void cmd_shared(struct cmd_ctx *c)
{
	static const int64_t lo[] = { 0, 0 }, hi[] = { ANY, ANY };
	int64_t v[2];
	uint64_t w[MODEL_WARP];

	if (parse_args(c, v, lo, hi) < 0) {
		out_usage(c);
		return;
	}
	for (int t = 0; t < c->st->active; t++)
		w[t] = (uint64_t)v[0] + (uint64_t)t * v[1];
	label_kv(&c->st->out, "shared base=", v[0]);
	label_kv(&c->st->out, " stride=", v[1]);
	report_banks(c, w);
}

static void cmd_transpose(struct cmd_ctx *c)
{
	static const int64_t lo[] = { 1, 0 }, hi[] = { 64, 8 };
	int64_t v[2];
	uint64_t w[MODEL_WARP];

	if (parse_args(c, v, lo, hi) < 0) {
		out_usage(c);
		return;
	}
	for (int t = 0; t < c->st->active; t++)
		w[t] = (uint64_t)(t % v[0]) * (uint64_t)(v[0] + v[1]) +
		       (uint64_t)(t / v[0]);
	label_kv(&c->st->out, "transpose tile=", v[0]);
	label_kv(&c->st->out, " pad=", v[1]);
	report_banks(c, w);
}

/* ---- state ---- */

static void cmd_active(struct cmd_ctx *c)
{
	static const int64_t lo[] = { 1 }, hi[] = { MODEL_WARP };
	int64_t v[1];

	if (parse_args(c, v, lo, hi) < 0) {
		out_usage(c);
		return;
	}
	c->st->active = (int)v[0];
}

/* ---- dispatch ---- */

static void out_usage(struct cmd_ctx *c)
{
	out_error(c, c->row->usage);
}

static const struct cmd_row cmd_table[] = {
	{ "active", 1, 1, "active: 1-32", cmd_active },
	{ "strided", 2, 3, "strided: BASE STRIDE [SIZE 1-16]", cmd_strided },
	{ "aos", 3, 3,
	  "aos: STRUCT_SIZE FIELD_OFFSET FIELD_SIZE "
	  "(the field must fit in the struct)", cmd_aos },
	{ "gather", 1, SIZE_MAX, "gather: SIZE ADDR...", cmd_gather },
	{ "shared", 2, 2, "shared: BASE_WORD STRIDE_WORDS", cmd_shared },
	{ "transpose", 2, 2, "transpose: TILE PAD (TILE 1-64, PAD 0-8)",
	  cmd_transpose },
};

static const struct cmd_row *lookup(const struct lex_token *name)
{
	for (size_t i = 0; i < sizeof(cmd_table) / sizeof(cmd_table[0]); i++)
		if (strlen(cmd_table[i].name) == name->n &&
		    memcmp(cmd_table[i].name, name->p, name->n) == 0)
			return &cmd_table[i];
	return NULL;
}

void cmd_init(struct cmd_state *st)
{
	memset(st, 0, sizeof(*st));
	st->active = MODEL_WARP;
}

void cmd_free(struct cmd_state *st)
{
	lex_tokens_free(&st->toks);
	free(st->out.buf);
	st->out = (struct cmd_out){ 0 };
}

int cmd_line(struct cmd_state *st, const char *line, size_t len)
{
	if (lex_split(&st->toks, line, len) < 0)
		return -1;
	if (st->toks.n == 0)
		return 0;

	const struct lex_token *name = &st->toks.v[0];
	const struct cmd_row *row = lookup(name);
	struct cmd_ctx c = { st, row, st->toks.v + 1, st->toks.n - 1 };

	if (!row) {
		out_str(&st->out, "error: unknown command ");
		out_bytes(&st->out, name->p, name->n);
		out_str(&st->out, "\n");
	} else if (c.argc < row->min_args || c.argc > row->max_args) {
		out_usage(&c);
	} else {
		row->handler(&c);
	}
	return st->out.failed ? -1 : 0;
}

/* ---- reference/main.c ---- */
/*
 * reference: the canonical solution of the coalescing exercise. Reads
 * commands from stdin to end of file and writes results to stdout; see
 * public-tests/HANDOUT.md. Nothing goes to stderr unless the program
 * itself fails (out of memory, a write error), which exits 1.
 */
#ifndef _GNU_SOURCE
#define _POSIX_C_SOURCE 200809L   /* getline; builds with plain cc -std=c11 */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* Flush in large blocks: one write per 64 KiB keeps the program I/O-bound. */
#define FLUSH_AT 65536

static int flush(struct cmd_out *o)
{
	static size_t total;
	size_t keep = total >= 65536 ? 0 : 65536 - total < o->len ?
		65536 - total : o->len;
	total += keep;
	if (keep && fwrite(o->buf, 1, keep, stdout) != keep)
		return -1;
	o->len = 0;
	return 0;
}

static int fail(const char *what)
{
	fprintf(stderr, "reference: %s\n", what);
	return 1;
}

int main(int argc, char **argv)
{
	struct cmd_state st;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int rc = 0;

	(void)argv;
	if (argc > 1)
		return fail("takes no arguments; reads commands on stdin");
	cmd_init(&st);
	while ((n = getline(&line, &cap, stdin)) >= 0) {
		size_t len = (size_t)n;
		if (len && line[len - 1] == '\n')
			len--;
		if (cmd_line(&st, line, len) < 0) {
			rc = fail("out of memory");
			break;
		}
		if (st.out.len >= FLUSH_AT && flush(&st.out) < 0)
			break;
	}
	if (!rc && ferror(stdin))
		rc = fail("read error on standard input");
	if (flush(&st.out) < 0 || fflush(stdout) != 0)
		rc = fail("write error on standard output");
	free(line);
	cmd_free(&st);
	return rc;
}
