/*
 * The commands of the exercise contract. Every handler validates all of its
 * arguments before it touches the state or prints, so a failed command
 * prints exactly one usage line and changes nothing.
 */
#include "cmd.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

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
	char eff[64];

	/* One decimal, like the spec says. */
	snprintf(eff, sizeof(eff), "%.1f", 100.0 * (double)requested / (double)moved);

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
	out_str(o, eff);
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
