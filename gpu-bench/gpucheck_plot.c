/*
 * gpucheck plot: the lesson as a picture. One self-contained SVG (no
 * script, no external reference, no XML declaration, no id, so a page can
 * inline it): bandwidth against stride, both axes log2-spaced, with
 *   - the band the checks allow each row (green; from their limits),
 *   - the device's theoretical peak (red dashed line),
 *   - the sector model's expectation, stride 1 x useful/moved bytes
 *     (1, 1/2, 1/4, then 1/8), drawn dashed through the strides,
 *   - the measured rows (blue), a failed row red with its checks named.
 * Everything shown is also in data- attributes on each row's <g>, so tests
 * check the data, not the pixels. Every text from outside (device name,
 * profile, check bounds) goes through svg_text().
 */
#include "gpu-bench/gpucheck.h"
#include "grader/lib/escape.h"

#include <math.h>
#include <string.h>

/* Canvas: the plot area and the legend to its right. */
enum { W = 860, H = 505, PX0 = 80, PX1 = 620, PY0 = 70, PY1 = 440,
       LEG_X = 650, BAND_HALF = 15 };

#define C_BAND "#dcefdc"
#define C_BAND_EDGE "#3c8d3c"
#define C_ROW "#1f5fbf"
#define C_FAIL "#c62828"
#define C_MODEL "#7b3fa0"
#define C_PEAK "#c62828"
#define C_GRID "#e3e3e3"

/* One x position: a stride, or a chunked row in its own slot. */
struct slot {
	enum gpuc_pattern pattern;
	long param;
	double x;
};

struct plot {
	FILE *out;
	struct slot slot[GPUC_MAX_EXPECT * 2];
	size_t n_slot;
	double lo, hi;         /* y range in GB/s (log2 spaced) */
};

/* Text for an XML text node or attribute (grader/lib/escape.h): markup
 * escaped, control characters and invalid UTF-8 replaced, so no input can
 * break the document. */
static void svg_text(FILE *out, const char *s)
{
	escape_xml(out, s, strlen(s), ESCAPE_REPLACE);
}

static double ylog(const struct plot *pl, double v)
{
	double f;

	if (!(v > 0))
		return PY1;
	f = (log2(v) - log2(pl->lo)) / (log2(pl->hi) - log2(pl->lo));
	if (f < 0)
		f = 0;
	if (f > 1)
		f = 1;
	return PY1 - f * (PY1 - PY0);
}

static const struct slot *find_slot(const struct plot *pl,
                                    enum gpuc_pattern p, long param)
{
	for (size_t i = 0; i < pl->n_slot; i++)
		if (pl->slot[i].pattern == p && pl->slot[i].param == param)
			return &pl->slot[i];
	return NULL;
}

static void add_slot(struct plot *pl, enum gpuc_pattern p, long param)
{
	if (param < 1 || find_slot(pl, p, param) ||
	    pl->n_slot == sizeof(pl->slot) / sizeof(*pl->slot))
		return;
	pl->slot[pl->n_slot].pattern = p;
	pl->slot[pl->n_slot].param = param;
	pl->n_slot++;
}

/*
 * x positions: strides at log2(stride) units, then one unit per chunked
 * row after a gap, all spread over the plot's width.
 */
static void place_slots(struct plot *pl, const struct gpuc_bounds *b,
                        const struct gpuc_rows *rows)
{
	double smin = INFINITY, smax = -INFINITY, units, next_chunk;
	size_t n_chunk = 0;

	for (size_t i = 0; i < b->n_expect; i++)
		add_slot(pl, b->expect[i].pattern, b->expect[i].param);
	for (size_t i = 0; i < rows->n; i++)
		add_slot(pl, rows->v[i].pattern, rows->v[i].param);
	for (size_t i = 0; i < pl->n_slot; i++) {
		double l = log2((double)pl->slot[i].param);

		if (pl->slot[i].pattern == GPUC_CHUNKED) {
			n_chunk++;
			continue;
		}
		smin = l < smin ? l : smin;
		smax = l > smax ? l : smax;
	}
	if (smin > smax)
		smin = smax = 0;
	units = (smax - smin) + 1 + (n_chunk ? n_chunk + 0.5 : 0);
	next_chunk = smax - smin + 2;   /* half a unit of gap first */
	for (size_t i = 0; i < pl->n_slot; i++) {
		struct slot *s = &pl->slot[i];
		double u = log2((double)s->param) - smin + 0.5;

		if (s->pattern == GPUC_CHUNKED)
			u = next_chunk++;
		s->x = PX0 + u / units * (PX1 - PX0);
	}
}

/* The band a row's checks allow: the tightest limits on each side. */
static void band(const struct gpuc_result *res, const char *label, int line,
                 double *lo, double *hi)
{
	*lo = 0;
	*hi = INFINITY;
	for (size_t i = 0; i < res->n; i++) {
		const struct gpuc_check *c = &res->v[i];

		if (strcmp(c->row, label) != 0 || c->line != line ||
		    !isfinite(c->limit))
			continue;
		if (c->side == GPUC_SIDE_UPPER && c->limit < *hi)
			*hi = c->limit;
		if (c->side == GPUC_SIDE_LOWER && c->limit > *lo)
			*lo = c->limit;
	}
}

/* The y range: everything drawn, with room above and below. */
static void y_range(struct plot *pl, const struct gpuc_device *dev,
                    const struct gpuc_rows *rows,
                    const struct gpuc_result *res)
{
	double lo = INFINITY, hi = 0;
	const double v0[] = { dev->peak_gbps };

	for (size_t i = 0; i < sizeof(v0) / sizeof(*v0); i++)
		if (v0[i] > 0) {
			lo = v0[i] < lo ? v0[i] : lo;
			hi = v0[i] > hi ? v0[i] : hi;
		}
	for (size_t i = 0; i < rows->n; i++) {
		double g = rows->v[i].gbps;

		if (g > 0 && isfinite(g)) {
			lo = g < lo ? g : lo;
			hi = g > hi ? g : hi;
		}
	}
	for (size_t i = 0; i < res->n; i++) {
		double l = res->v[i].limit;

		if (res->v[i].side != GPUC_SIDE_NONE && l > 0 && isfinite(l)) {
			lo = l < lo ? l : lo;
			hi = l > hi ? l : hi;
		}
	}
	if (!(hi > 0)) {
		lo = 1;
		hi = 1000;
	}
	if (lo < hi / 65536)
		lo = hi / 65536;
	pl->lo = lo / 1.6;
	pl->hi = hi * 1.35;
}

/* Grid lines and labels at 1, 2, 5 x 10^k GB/s inside the range. */
static void y_axis(const struct plot *pl)
{
	FILE *o = pl->out;

	for (double dec = pow(10, floor(log10(pl->lo))); dec <= pl->hi;
	     dec *= 10) {
		static const double m[] = { 1, 2, 5 };

		for (size_t i = 0; i < 3; i++) {
			double v = dec * m[i];
			double y = ylog(pl, v);

			if (v < pl->lo || v > pl->hi)
				continue;
			fprintf(o, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
			        "stroke=\"" C_GRID "\"/>\n<text x=\"%d\" y=\"%.1f\" "
			        "text-anchor=\"end\" font-size=\"11\">%g</text>\n",
			        PX0, y, PX1, y, PX0 - 6, y + 4, v);
		}
	}
	fprintf(o, "<text transform=\"translate(22 %d) rotate(-90)\" "
	        "text-anchor=\"middle\" font-size=\"12\">copy bandwidth, GB/s "
	        "(log scale)</text>\n", (PY0 + PY1) / 2);
}

static void x_axis(const struct plot *pl)
{
	FILE *o = pl->out;

	for (size_t i = 0; i < pl->n_slot; i++) {
		const struct slot *s = &pl->slot[i];

		fprintf(o, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
		        "stroke=\"" C_GRID "\"/>\n<text x=\"%.1f\" y=\"%d\" "
		        "text-anchor=\"middle\" font-size=\"11\">%s%ld</text>\n",
		        s->x, PY0, s->x, PY1, s->x, PY1 + 16,
		        s->pattern == GPUC_CHUNKED ? "chunked " : "", s->param);
	}
	fprintf(o, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
	        "fill=\"none\" stroke=\"#555\"/>\n<text x=\"%d\" y=\"%d\" "
	        "text-anchor=\"middle\" font-size=\"12\">stride: floats between "
	        "neighbouring threads (log2 scale)</text>\n", PX0, PY0,
	        PX1 - PX0, PY1 - PY0, (PX0 + PX1) / 2, PY1 + 36);
}

/* 1 when an earlier row has the same pattern and parameter. */
static int repeated(const struct gpuc_rows *rows, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (rows->v[j].pattern == rows->v[i].pattern &&
		    rows->v[j].param == rows->v[i].param)
			return 1;
	return 0;
}

/* One band per slot: the first row's, the one the relative checks judge. */
static void bands(const struct plot *pl, const struct gpuc_result *res,
                  const struct gpuc_rows *rows)
{
	for (size_t i = 0; i < rows->n; i++) {
		const struct gpuc_row *r = &rows->v[i];
		const struct slot *s = find_slot(pl, r->pattern, r->param);
		char label[32];
		double lo, hi, ytop, ybot;

		if (!s || repeated(rows, i))
			continue;
		gpuc_row_label(r->pattern, r->param, label, sizeof(label));
		band(res, label, r->line, &lo, &hi);
		ytop = isfinite(hi) ? ylog(pl, hi) : PY0;
		ybot = lo > 0 ? ylog(pl, lo) : PY1;
		fprintf(pl->out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" "
		        "height=\"%.1f\" fill=\"" C_BAND "\"/>\n", s->x - BAND_HALF,
		        ytop, 2 * BAND_HALF, ybot - ytop);
		if (isfinite(hi))
			fprintf(pl->out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			        "y2=\"%.1f\" stroke=\"" C_BAND_EDGE "\" "
			        "stroke-width=\"2\"/>\n", s->x - BAND_HALF, ytop,
			        s->x + BAND_HALF, ytop);
		if (lo > 0)
			fprintf(pl->out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			        "y2=\"%.1f\" stroke=\"" C_BAND_EDGE "\" "
			        "stroke-width=\"2\"/>\n", s->x - BAND_HALF, ybot,
			        s->x + BAND_HALF, ybot);
	}
}

static const struct gpuc_row *stride1(const struct gpuc_rows *rows)
{
	for (size_t i = 0; i < rows->n; i++)
		if (rows->v[i].pattern == GPUC_STRIDE && rows->v[i].param == 1)
			return &rows->v[i];
	return NULL;
}

/* Sector model: stride 1's bandwidth x useful/moved bytes at each stride. */
static void model(const struct plot *pl, const struct gpuc_rows *rows)
{
	const struct gpuc_row *s1 = stride1(rows);
	const char *sep = "";

	if (!s1 || !(s1->gbps > 0))
		return;
	fputs("<g class=\"model\"><polyline fill=\"none\" stroke=\"" C_MODEL
	      "\" stroke-width=\"2\" stroke-dasharray=\"7 4\" points=\"",
	      pl->out);
	for (size_t i = 0; i < pl->n_slot; i++) {
		const struct slot *s = &pl->slot[i];

		if (s->pattern != GPUC_STRIDE)
			continue;
		fprintf(pl->out, "%s%.1f,%.1f", sep, s->x,
		        ylog(pl, s1->gbps * gpuc_sector_efficiency(s->param)));
		sep = " ";
	}
	fputs("\"/>\n", pl->out);
	for (size_t i = 0; i < pl->n_slot; i++) {
		const struct slot *s = &pl->slot[i];
		double e = gpuc_sector_efficiency(s->param);

		if (s->pattern != GPUC_STRIDE)
			continue;
		fprintf(pl->out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" "
		        "fill=\"" C_MODEL "\" data-stride=\"%ld\" "
		        "data-efficiency=\"1/%.0f\" data-gbps=\"%.3f\"/>\n", s->x,
		        ylog(pl, s1->gbps * e), s->param, 1 / e, s1->gbps * e);
	}
	fputs("</g>\n", pl->out);
}

static void peak(const struct plot *pl, const struct gpuc_device *dev)
{
	double y;

	if (!(dev->peak_gbps > 0))
		return;
	y = ylog(pl, dev->peak_gbps);
	fprintf(pl->out, "<g class=\"peak\" data-gbps=\"%.3f\"><line x1=\"%d\" "
	        "y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"" C_PEAK "\" "
	        "stroke-width=\"1.5\" stroke-dasharray=\"3 3\"/><text x=\"%d\" "
	        "y=\"%.1f\" text-anchor=\"end\" font-size=\"11\" fill=\"" C_PEAK
	        "\">theoretical peak %.1f GB/s</text></g>\n", dev->peak_gbps,
	        PX0, y, PX1, y, PX1 - 4, y - 5 < PY0 + 12 ? y + 14 : y - 5,
	        dev->peak_gbps);
}

/* The failed checks of one row (label, line) as "a, b", into buf. */
static int failed_names(const struct gpuc_result *res, const char *label,
                        int line, char *buf, size_t sz)
{
	size_t used = 0;
	int n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < res->n; i++) {
		const struct gpuc_check *c = &res->v[i];
		int w;

		if (c->pass || strcmp(c->row, label) != 0 || c->line != line)
			continue;
		w = snprintf(buf + used, sz - used, "%s%s", n ? ", " : "",
		             c->check);
		if (w < 0 || (size_t)w >= sz - used)
			break;
		used += (size_t)w;
		n++;
	}
	return n;
}

/* <title>: the row and each failed check with its value and bound. */
static void row_title(FILE *o, const struct gpuc_result *res,
                      const char *label, int line, const struct gpuc_row *r)
{
	fputs("<title>", o);
	svg_text(o, label);
	if (r)
		fprintf(o, " (line %d): %.3f GB/s", line, r->gbps);
	for (size_t i = 0; i < res->n; i++) {
		const struct gpuc_check *c = &res->v[i];

		if (c->pass || strcmp(c->row, label) != 0 || c->line != line)
			continue;
		fputs("; FAIL ", o);
		svg_text(o, c->check);
		fputs(": ", o);
		svg_text(o, c->value_text);
		fputs(", bound ", o);
		svg_text(o, c->bound);
	}
	fputs("</title>", o);
}

static void measured_line(const struct plot *pl, const struct gpuc_rows *rows)
{
	const char *sep = "";

	fputs("<polyline fill=\"none\" stroke=\"" C_ROW "\" stroke-width=\"1.5\" "
	      "points=\"", pl->out);
	for (size_t i = 0; i < pl->n_slot; i++) {
		const struct slot *s = &pl->slot[i];

		for (size_t j = 0; s->pattern == GPUC_STRIDE && j < rows->n; j++) {
			const struct gpuc_row *r = &rows->v[j];

			if (r->pattern != s->pattern || r->param != s->param)
				continue;
			fprintf(pl->out, "%s%.1f,%.1f", sep, s->x,
			        ylog(pl, r->gbps));
			sep = " ";
			break;
		}
	}
	fputs("\"/>\n", pl->out);
}

static void row_point(const struct plot *pl, const struct gpuc_result *res,
                      const struct gpuc_row *r, int nth)
{
	const struct slot *s = find_slot(pl, r->pattern, r->param);
	char label[32], failed[256];
	double lo, hi, x, y;
	int n_failed, in_band = 1;
	FILE *o = pl->out;

	if (!s)
		return;
	gpuc_row_label(r->pattern, r->param, label, sizeof(label));
	band(res, label, r->line, &lo, &hi);
	n_failed = failed_names(res, label, r->line, failed, sizeof(failed));
	for (size_t i = 0; i < res->n; i++)
		if (res->v[i].side != GPUC_SIDE_NONE && !res->v[i].pass &&
		    res->v[i].line == r->line && strcmp(res->v[i].row, label) == 0)
			in_band = 0;
	x = s->x + nth * 8;     /* a duplicated row sits beside the first */
	y = ylog(pl, r->gbps);
	fprintf(o, "<g class=\"row\" data-row=\"%s\" data-line=\"%d\" "
	        "data-gbps=\"%.3f\" data-lo=\"%.3f\" data-hi=\"", label, r->line,
	        r->gbps, lo);
	if (isfinite(hi))
		fprintf(o, "%.3f", hi);
	fprintf(o, "\" data-in-band=\"%d\" data-failed=\"", in_band);
	svg_text(o, failed);
	fputs("\">", o);
	row_title(o, res, label, r->line, r);
	if (r->pattern == GPUC_CHUNKED)
		fprintf(o, "<path d=\"M%.1f %.1fl6 6l-6 6l-6 -6z\" fill=\"%s\"/>",
		        x, y - 6, n_failed ? C_FAIL : C_ROW);
	else
		fprintf(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\"/>",
		        x, y, n_failed ? C_FAIL : C_ROW);
	if (n_failed) {
		fprintf(o, "<path d=\"M%.1f %.1fl14 14m0 -14l-14 14\" "
		        "stroke=\"" C_FAIL "\" stroke-width=\"2\"/>", x - 7, y - 7);
		/* right of the point unless it would leave the plot (about
		 * 6 px a character); a white halo keeps it readable over lines */
		int right = x + 12 + 6.0 * (strlen(failed) + 6) < PX1;

		fprintf(o, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" "
		        "fill=\"" C_FAIL "\" stroke=\"white\" stroke-width=\"3\" "
		        "paint-order=\"stroke\" text-anchor=\"%s\">FAIL: ",
		        right ? x + 12 : x - 12, y - 8 + nth * 12,
		        right ? "start" : "end");
		svg_text(o, failed);
		fputs("</text>", o);
	}
	fputs("</g>\n", o);
}

/* Expected rows the run lacks: marked at the foot of their slot. */
static void missing(const struct plot *pl, const struct gpuc_bounds *b,
                    const struct gpuc_result *res)
{
	for (size_t i = 0; i < b->n_expect; i++) {
		const struct gpuc_expect *e = &b->expect[i];
		const struct slot *s = find_slot(pl, e->pattern, e->param);
		const struct gpuc_check *c;
		char label[32];

		gpuc_row_label(e->pattern, e->param, label, sizeof(label));
		c = gpuc_find(res, label, "present");
		if (!s || !c || c->value != 0)
			continue;
		fprintf(pl->out, "<g class=\"row\" data-row=\"%s\" data-line=\"0\" "
		        "data-missing=\"1\" data-in-band=\"0\" data-failed=\"present\">"
		        "<title>%s: missing, bound exactly once</title><text "
		        "x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\" "
		        "fill=\"" C_FAIL "\">missing</text></g>\n", label, label,
		        s->x, PY1 - 8);
	}
}

static void legend(FILE *o)
{
	int y = PY0 + 4;

	fprintf(o, "<g class=\"legend\" font-size=\"12\">\n"
	        "<circle cx=\"%d\" cy=\"%d\" r=\"5\" fill=\"" C_ROW "\"/>"
	        "<text x=\"%d\" y=\"%d\">measured row</text>\n",
	        LEG_X + 10, y, LEG_X + 24, y + 4);
	y += 22;
	fprintf(o, "<circle cx=\"%d\" cy=\"%d\" r=\"5\" fill=\"" C_FAIL "\"/>"
	        "<path d=\"M%d %dl14 14m0 -14l-14 14\" stroke=\"" C_FAIL "\" "
	        "stroke-width=\"2\"/><text x=\"%d\" y=\"%d\">row failing a "
	        "check</text>\n", LEG_X + 10, y, LEG_X + 3, y - 7, LEG_X + 24,
	        y + 4);
	y += 22;
	fprintf(o, "<rect x=\"%d\" y=\"%d\" width=\"20\" height=\"14\" "
	        "fill=\"" C_BAND "\" stroke=\"" C_BAND_EDGE "\"/><text x=\"%d\" "
	        "y=\"%d\">band bounds.json allows</text>\n", LEG_X, y - 7,
	        LEG_X + 24, y + 4);
	y += 22;
	fprintf(o, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
	        "stroke=\"" C_MODEL "\" stroke-width=\"2\" "
	        "stroke-dasharray=\"7 4\"/><text x=\"%d\" y=\"%d\">sector model:"
	        "</text><text x=\"%d\" y=\"%d\">stride 1 x useful/moved</text>"
	        "<text x=\"%d\" y=\"%d\">bytes (1, 1/2, 1/4, 1/8)</text>\n",
	        LEG_X, y, LEG_X + 20, y, LEG_X + 24, y + 4, LEG_X + 24, y + 19,
	        LEG_X + 24, y + 34);
	y += 52;
	fprintf(o, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
	        "stroke=\"" C_PEAK "\" stroke-width=\"1.5\" "
	        "stroke-dasharray=\"3 3\"/><text x=\"%d\" y=\"%d\">theoretical "
	        "peak</text>\n</g>\n", LEG_X, y, LEG_X + 20, y, LEG_X + 24, y + 4);
}

static void heading(FILE *o, const struct gpuc_device *dev,
                    const struct gpuc_bounds *b, const struct gpuc_result *res)
{
	const struct gpuc_check *ds = gpuc_find(res, "device", "datasheet");

	char name[52];
	size_t n = strlen(dev->name);

	/* A long name is cut (whole characters) to fit the heading; the
	 * SVG's <title> keeps it all. */
	if (n >= sizeof(name)) {
		n = sizeof(name) - 4;
		while (n > 0 && ((unsigned char)dev->name[n] & 0xc0) == 0x80)
			n--;
	}
	snprintf(name, sizeof(name), "%.*s%s", (int)n, dev->name,
	         n < strlen(dev->name) ? "..." : "");
	fputs("<text x=\"20\" y=\"26\" font-size=\"16\" font-weight=\"bold\">"
	      "coalescing.cu on ", o);
	svg_text(o, name);
	fputs(" (cc ", o);
	svg_text(o, dev->cc);
	fprintf(o, "): %s</text>\n<text x=\"20\" y=\"46\" font-size=\"12\">"
	        "profile: ", res->failed ? "FAIL" : "PASS");
	svg_text(o, b->profile[0] ? b->profile : "none (defaults)");
	fprintf(o, "; %zu checks, %zu failed; every row moves %.0f MiB",
	        res->n, res->failed, b->bytes / 1048576.0);
	fputs("</text>\n", o);
	if (ds && !ds->pass) {
		fputs("<g class=\"device\" data-failed=\"datasheet\"><text x=\"20\" "
		      "y=\"62\" font-size=\"12\" fill=\"" C_FAIL "\">FAIL "
		      "datasheet: computed peak ", o);
		svg_text(o, ds->value_text);
		fputs(", bound ", o);
		svg_text(o, ds->bound);
		fputs("</text></g>\n", o);
	}
}

int gpuc_write_svg(FILE *out, const struct gpuc_device *dev,
                   const struct gpuc_bounds *b, const struct gpuc_rows *rows,
                   const struct gpuc_result *res)
{
	struct plot pl = { .out = out };

	place_slots(&pl, b, rows);
	y_range(&pl, dev, rows, res);
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	        "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" "
	        "role=\"img\" class=\"gpu-bench-plot\" data-status=\"%s\" "
	        "data-failed=\"%zu\">\n<title>gpu-bench: copy bandwidth by "
	        "stride on ", W, H, W, H, res->failed ? "fail" : "pass",
	        res->failed);
	svg_text(out, dev->name);
	fputs("</title>\n<desc>Each row of coalescing.cu moves the same bytes; "
	      "only the address order changes. Green: the band the checks in "
	      "gpu-bench/bounds.json allow each row. Dashed purple: the sector "
	      "model, stride 1 times useful/moved bytes for 4-byte floats in "
	      "32-byte sectors.</desc>\n<rect width=\"100%\" height=\"100%\" "
	      "fill=\"white\"/>\n", out);
	heading(out, dev, b, res);
	y_axis(&pl);
	x_axis(&pl);
	bands(&pl, res, rows);
	peak(&pl, dev);
	model(&pl, rows);
	measured_line(&pl, rows);
	for (size_t i = 0; i < rows->n; i++) {
		int nth = 0;

		for (size_t j = 0; j < i; j++)
			nth += rows->v[j].pattern == rows->v[i].pattern &&
			       rows->v[j].param == rows->v[i].param;
		row_point(&pl, res, &rows->v[i], nth);
	}
	missing(&pl, b, res);
	legend(out);
	fprintf(out, "<text x=\"20\" y=\"%d\" font-size=\"11\" fill=\"#555\">"
	        "Each band is the tightest bound the checks put on its row "
	        "(its title lists a row's failed checks); no lower bound but "
	        "stride 1's floor.</text>\n", H - 8);
	fputs("</svg>\n", out);
	return ferror(out) ? -1 : 0;
}
