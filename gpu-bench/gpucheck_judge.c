/*
 * gpucheck judging: turns the rows into checks (see gpucheck.c for why the
 * checks are what they are, bounds.json for the figures). Every check is
 * recorded, passed or not, so the table and the reports show the bound each
 * row was held to.
 */
#include "gpu-bench/gpucheck.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static struct gpuc_check *add_check(struct gpuc_result *res, const char *row,
                                    int line, const char *check)
{
	struct gpuc_check *c;

	if (res->n == res->alloc) {
		size_t na = res->alloc ? res->alloc * 2 : 64;
		struct gpuc_check *nv = realloc(res->v, na * sizeof(*nv));

		if (!nv)
			return NULL;
		res->v = nv;
		res->alloc = na;
	}
	c = &res->v[res->n++];
	memset(c, 0, sizeof(*c));
	snprintf(c->row, sizeof(c->row), "%s", row);
	c->line = line;
	snprintf(c->check, sizeof(c->check), "%s", check);
	c->value = NAN;
	c->limit = NAN;
	return c;
}

static void verdict(struct gpuc_result *res, struct gpuc_check *c, int pass)
{
	c->pass = pass;
	if (!pass)
		res->failed++;
}

/*
 * A numeric check: value op limit, with the bound explained by why.
 * Returns the check (owned by res), NULL when out of memory.
 */
__attribute__((format(printf, 8, 9)))
static struct gpuc_check *num_check(struct gpuc_result *res,
                                    const char *row, int line,
                                    const char *check, double value,
                                    const char *op, double limit,
                                    const char *why, ...)
{
	struct gpuc_check *c = add_check(res, row, line, check);
	char expl[64] = "";
	va_list ap;
	int pass;

	if (!c)
		return NULL;
	if (why) {
		va_start(ap, why);
		vsnprintf(expl, sizeof(expl), why, ap);
		va_end(ap);
	}
	c->value = value;
	c->limit = limit;
	snprintf(c->value_text, sizeof(c->value_text), "%.3f", value);
	snprintf(c->bound, sizeof(c->bound), "%s %.3f%s%s%s", op, limit,
	         *expl ? " (" : "", expl, *expl ? ")" : "");
	if (strcmp(op, "<=") == 0)
		pass = value <= limit;
	else if (strcmp(op, "<") == 0)
		pass = value < limit;
	else if (strcmp(op, ">=") == 0)
		pass = value >= limit;
	else
		pass = value > limit;
	verdict(res, c, pass);
	return c;
}

/*
 * num_check on a row's bandwidth: the check also bounds the band the plot
 * draws for the row (from above for < and <=, from below otherwise).
 */
#define gbps_check(res, row, line, check, value, op, limit, ...)           \
	side_of(num_check(res, row, line, check, value, op, limit,         \
	                  __VA_ARGS__), op)

static struct gpuc_check *side_of(struct gpuc_check *c, const char *op)
{
	if (c)
		c->side = op[0] == '<' ? GPUC_SIDE_UPPER : GPUC_SIDE_LOWER;
	return c;
}

double gpuc_sector_efficiency(long stride)
{
	long lanes = GPUC_SECTOR_BYTES / GPUC_ELEM_BYTES;   /* 8 per sector */

	return stride < 1 ? 1.0 : 1.0 / (double)(stride < lanes ? stride : lanes);
}

/* The checks that hold for one row on its own. */
static int judge_row(const struct gpuc_bounds *b, const struct gpuc_device *dev,
                     const struct gpuc_row *r, const char *label,
                     struct gpuc_result *res)
{
	const struct gpuc_limits *l = &b->lim;
	struct gpuc_check *c = add_check(res, label, r->line, "bytes");

	if (!c)
		return -1;
	c->value = r->bytes;
	c->limit = b->bytes;
	snprintf(c->value_text, sizeof(c->value_text), "%.0f", r->bytes);
	snprintf(c->bound, sizeof(c->bound), "= %.0f (%g MiB)", b->bytes,
	         b->bytes / 1048576.0);
	verdict(res, c, r->bytes == b->bytes);

	c = num_check(res, label, r->line, "ms", r->ms, ">", 0.0, NULL);
	if (!c)
		return -1;
	snprintf(c->value_text, sizeof(c->value_text), "%.6f", r->ms);
	if (r->ms > 0) {
		/* bytes / (ms * 1e-3) / 1e9, the program's own formula; the
		 * 0.0005 absorbs the %.3f rounding of tiny figures. */
		double expect = r->bytes / r->ms / 1.0e6;
		double tol = l->gbps_rel_tol * expect + 0.0005;

		c = add_check(res, label, r->line, "gbps=bytes/ms");
		if (!c)
			return -1;
		c->value = r->gbps;
		c->limit = expect;
		snprintf(c->value_text, sizeof(c->value_text), "%.3f", r->gbps);
		snprintf(c->bound, sizeof(c->bound), "= %.3f +/- %g%%", expect,
		         l->gbps_rel_tol * 100.0);
		verdict(res, c, fabs(r->gbps - expect) <= tol);
	}
	return gbps_check(res, label, r->line, "peak", r->gbps, "<=",
	                  l->peak_max_frac * dev->peak_gbps, "%.2f x peak",
	                  l->peak_max_frac) ? 0 : -1;
}

/* The row of b->expect[i] that relative checks use: its first occurrence. */
static const struct gpuc_row *first_row(const struct gpuc_rows *rows,
                                        enum gpuc_pattern p, long param)
{
	for (size_t i = 0; i < rows->n; i++)
		if (rows->v[i].pattern == p && rows->v[i].param == param)
			return &rows->v[i];
	return NULL;
}

static int judge_presence(const struct gpuc_expect *e,
                          const struct gpuc_rows *rows, const char *label,
                          struct gpuc_result *res)
{
	struct gpuc_check *c = add_check(res, label, 0, "present");
	size_t count = 0;
	int first = 0;

	if (!c)
		return -1;
	for (size_t i = 0; i < rows->n; i++) {
		if (rows->v[i].pattern != e->pattern || rows->v[i].param != e->param)
			continue;
		if (count++ == 0)
			first = rows->v[i].line;
	}
	c->line = first;
	c->value = (double)count;
	c->limit = 1;
	if (count == 0)
		snprintf(c->value_text, sizeof(c->value_text), "missing");
	else
		snprintf(c->value_text, sizeof(c->value_text), "%zu row%s",
		         count, count == 1 ? "" : "s");
	snprintf(c->bound, sizeof(c->bound), "exactly once");
	verdict(res, c, count == 1);
	return 0;
}

/* The widest stride among the expected rows: the lesson's "floor". */
static long widest_stride(const struct gpuc_bounds *b)
{
	long w = 0;

	for (size_t i = 0; i < b->n_expect; i++)
		if (b->expect[i].pattern == GPUC_STRIDE && b->expect[i].param > w)
			w = b->expect[i].param;
	return w;
}

/* The next narrower expected stride than s, or 0. */
static long narrower_stride(const struct gpuc_bounds *b, long s)
{
	long best = 0;

	for (size_t i = 0; i < b->n_expect; i++) {
		long p = b->expect[i].param;

		if (b->expect[i].pattern == GPUC_STRIDE && p < s && p > best)
			best = p;
	}
	return best;
}

/*
 * The sector model's bounds, for the strides at which each lane still
 * shares its sector (stride x 4 bytes <= 32): there every y row of the
 * grid touches every sector of both 256 MiB buffers, so a sector fetched
 * for one row is used again only after the whole buffer has gone through
 * L2, and no L2 holds that. The row must move 1/efficiency times the bytes
 * of stride 1, so it is bounded by stride 1 (with a margin for stride 1
 * running further from peak than a strided row) and, with no margin, by
 * the device's peak. Wider strides fetch a quarter or a half of the
 * sectors per row, a set a large L2 may partly hold between rows; "rise"
 * and "well below" bound them.
 */
static int judge_sector(const struct gpuc_bounds *b,
                        const struct gpuc_device *dev,
                        const struct gpuc_row *r, const struct gpuc_row *s1,
                        const char *label, struct gpuc_result *res)
{
	const struct gpuc_limits *l = &b->lim;
	double eff = gpuc_sector_efficiency(r->param);
	long den = (long)(1.0 / eff + 0.5);

	if (r->param * GPUC_ELEM_BYTES > GPUC_SECTOR_BYTES)
		return 0;
	if (!gbps_check(res, label, r->line, "sector", r->gbps, "<=",
	                l->sector_margin * eff * s1->gbps,
	                "%.2f x stride 1: %.2f x 1/%ld sectors",
	                l->sector_margin * eff, l->sector_margin, den))
		return -1;
	return gbps_check(res, label, r->line, "sector peak", r->gbps, "<=",
	                  l->peak_max_frac * eff * dev->peak_gbps,
	                  "1/%ld x %.2f x peak", den, l->peak_max_frac)
	       ? 0 : -1;
}

/* How an expected row relates to stride 1 and to its narrower neighbour. */
static int judge_relative(const struct gpuc_bounds *b,
                          const struct gpuc_device *dev,
                          const struct gpuc_rows *rows,
                          const struct gpuc_expect *e, const char *label,
                          struct gpuc_result *res)
{
	const struct gpuc_limits *l = &b->lim;
	const struct gpuc_row *r = first_row(rows, e->pattern, e->param);
	const struct gpuc_row *s1 = first_row(rows, GPUC_STRIDE, 1);
	long prev;

	if (!r)
		return 0;
	if (e->pattern == GPUC_STRIDE && e->param == 1)
		return gbps_check(res, label, r->line, "floor", r->gbps, ">=",
		                  l->stride1_min_frac * dev->peak_gbps,
		                  "%.2f x peak", l->stride1_min_frac) ? 0 : -1;
	if (!s1)
		return 0;   /* the missing stride 1 is the failure */
	if (e->pattern == GPUC_CHUNKED)
		return gbps_check(res, label, r->line, "below stride 1",
		                  r->gbps, "<", l->chunked_max_frac * s1->gbps,
		                  "%.2f x stride 1", l->chunked_max_frac) ? 0 : -1;
	if (!gbps_check(res, label, r->line, "vs stride 1", r->gbps, "<=",
	                l->strided_max_frac * s1->gbps, "%.2f x stride 1",
	                l->strided_max_frac) ||
	    judge_sector(b, dev, r, s1, label, res))
		return -1;
	prev = narrower_stride(b, e->param);
	if (prev > 0) {
		const struct gpuc_row *p = first_row(rows, GPUC_STRIDE, prev);

		if (p && !gbps_check(res, label, r->line, "rise", r->gbps,
		                     "<=", l->rise_max_ratio * p->gbps,
		                     "%.2f x stride %ld", l->rise_max_ratio,
		                     prev))
			return -1;
	}
	if (e->param == widest_stride(b) &&
	    !gbps_check(res, label, r->line, "well below", r->gbps, "<",
	                l->widest_max_frac * s1->gbps, "%.2f x stride 1",
	                l->widest_max_frac))
		return -1;
	return 0;
}

static int expected(const struct gpuc_bounds *b, const struct gpuc_row *r)
{
	for (size_t i = 0; i < b->n_expect; i++)
		if (b->expect[i].pattern == r->pattern &&
		    b->expect[i].param == r->param)
			return 1;
	return 0;
}

/* The device's computed peak against the matched profile's datasheet. */
static int judge_device(const struct gpuc_bounds *b,
                        const struct gpuc_device *dev, struct gpuc_result *res)
{
	struct gpuc_check *c;
	double d = b->datasheet_gbps, tol = b->lim.datasheet_tol;

	if (!b->profile[0])
		return 0;
	c = add_check(res, "device", 0, "datasheet");
	if (!c)
		return -1;
	c->value = dev->peak_gbps;
	c->limit = d;
	snprintf(c->value_text, sizeof(c->value_text), "%.3f", dev->peak_gbps);
	snprintf(c->bound, sizeof(c->bound), "= %.0f +/- %g%% (%s)", d,
	         tol * 100.0, b->profile);
	verdict(res, c, fabs(dev->peak_gbps - d) <= tol * d);
	return 0;
}

int gpuc_judge(const struct gpuc_bounds *b, const struct gpuc_device *dev,
               const struct gpuc_rows *rows, struct gpuc_result *res)
{
	char label[32];

	if (judge_device(b, dev, res))
		return -1;
	for (size_t i = 0; i < b->n_expect; i++) {
		const struct gpuc_expect *e = &b->expect[i];

		gpuc_row_label(e->pattern, e->param, label, sizeof(label));
		if (judge_presence(e, rows, label, res))
			return -1;
		for (size_t j = 0; j < rows->n; j++) {
			const struct gpuc_row *r = &rows->v[j];

			if (r->pattern == e->pattern && r->param == e->param &&
			    judge_row(b, dev, r, label, res))
				return -1;
		}
		if (judge_relative(b, dev, rows, e, label, res))
			return -1;
	}
	for (size_t j = 0; j < rows->n; j++) {
		const struct gpuc_row *r = &rows->v[j];
		struct gpuc_check *c;

		if (expected(b, r))
			continue;
		gpuc_row_label(r->pattern, r->param, label, sizeof(label));
		c = add_check(res, label, r->line, "expected");
		if (!c)
			return -1;
		snprintf(c->value_text, sizeof(c->value_text), "unexpected");
		snprintf(c->bound, sizeof(c->bound), "one of bounds.json rows");
		verdict(res, c, 0);
		if (judge_row(b, dev, r, label, res))
			return -1;
	}
	return (int)res->failed;
}

void gpuc_result_release(struct gpuc_result *res)
{
	free(res->v);
	memset(res, 0, sizeof(*res));
}

const struct gpuc_check *gpuc_find(const struct gpuc_result *res,
                                   const char *row, const char *check)
{
	for (size_t i = 0; i < res->n; i++)
		if (strcmp(res->v[i].row, row) == 0 &&
		    strcmp(res->v[i].check, check) == 0)
			return &res->v[i];
	return NULL;
}
