/*
 * html: the grade report as one self-contained HTML page. See html.h for
 * what the page shows and the views.
 *
 * Theory of operation. One pass over the submissions gathers the figures
 * (scores, categories, failed cases) into small C arrays whose strings
 * point into the report; then the page is written top to bottom straight
 * to the FILE. Every string that comes from the report goes through
 * html_escape(); the only script is the constant PAGE_SCRIPT, which finds
 * everything it needs in the table's data-* attributes (written escaped,
 * like any other text), so no report byte is ever inside <script>.
 */
#include "grader/report/html.h"

#include "grader/lib/xml.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define HIST_BINS 10
#define TOP_FAILED 10

static const char *const verdicts[] = {
	"AC", "WA", "TLE", "MLE", "OLE", "RTE", "CE", "IE",
};
#define NVERDICTS (sizeof verdicts / sizeof *verdicts)

/* Each verdict's colour (the chips' CSS uses the same), the last one for a
 * verdict not in the table. */
static const char *const verdict_colors[NVERDICTS + 1] = {
	"#2a7d2e", "#c62828", "#e67e00", "#7b1fa2", "#795548", "#ad1457",
	"#616161", "#1565c0", "#999",
};

/* ---- escaping ---------------------------------------------------------- */

#define REPLACEMENT "\xEF\xBF\xBD"   /* U+FFFD */

void html_escape(FILE *f, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		size_t run = i;

		/* Plain ASCII is copied in runs. */
		while (run < len && p[run] >= 0x20 && p[run] < 0x7F &&
		       !strchr("&<>\"'", p[run]))
			run++;
		if (run > i)
			fwrite(p + i, 1, run - i, f);
		i = run;
		if (i >= len)
			break;
		switch (p[i]) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		case '\t': case '\n': fputc(p[i], f); break;
		default:
			if (p[i] >= 0x80) {
				size_t n = xml_utf8_len(p + i, len - i);

				if (n) {
					fwrite(p + i, 1, n, f);
					i += n;
					continue;
				}
			}
			fputs(REPLACEMENT, f);  /* a control byte, or not UTF-8 */
			break;
		}
		i++;
	}
}

/* A report value: a JSON string, escaped whole (NUL bytes included). */
static void esc_json(FILE *f, const json_t *v)
{
	if (json_is_string(v))
		html_escape(f, json_string_value(v), json_string_length(v));
}

static void esc(FILE *f, const char *s)
{
	if (s)
		html_escape(f, s, strlen(s));
}

static const char *get_str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static double get_num(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

static int str_is(const char *s, const char *want)
{
	return s && strcmp(s, want) == 0;
}

/* ---- what the page shows ------------------------------------------------ */

struct cat {
	const char *name;
	double sum, max;
	size_t n, full;
	const char *hint;     /* shown (html.h: the view's rule), or NULL */
};

struct failed {
	const char *name, *category;
	size_t failed;
	size_t by[NVERDICTS + 1];   /* the last: a verdict not in the table */
};

struct page {
	FILE *f;
	const json_t *report, *subs;
	int student;              /* the student view */
	size_t graded;            /* submissions with cases */
	double *scores;           /* sorted; graded of them */
	double max_score;
	size_t hist[HIST_BINS];
	struct cat *cats;
	size_t ncats;
	struct failed *fails;
	size_t nfails;
};

static int graded(const json_t *sub)
{
	return json_is_array(json_object_get(sub, "cases"));
}

static int visible(const json_t *k)
{
	return str_is(get_str(k, "visibility"), "visible");
}

/* In the student view a hidden case shows its verdict and nothing else. */
static int secret(const struct page *pg, const json_t *k)
{
	return pg->student && !visible(k);
}

static size_t verdict_index(const char *v)
{
	size_t i;

	for (i = 0; i < NVERDICTS; i++)
		if (str_is(v, verdicts[i]))
			break;
	return i;
}

static struct cat *cat_of(struct page *pg, const char *name)
{
	struct cat *c;

	for (size_t i = 0; i < pg->ncats; i++)
		if (strcmp(pg->cats[i].name, name) == 0)
			return &pg->cats[i];
	c = realloc(pg->cats, (pg->ncats + 1) * sizeof *c);
	if (!c)
		return NULL;
	pg->cats = c;
	c += pg->ncats++;
	*c = (struct cat){ .name = name };
	return c;
}

static struct failed *failed_of(struct page *pg, const char *name,
				const char *category)
{
	struct failed *e;

	for (size_t i = 0; i < pg->nfails; i++)
		if (strcmp(pg->fails[i].name, name) == 0)
			return &pg->fails[i];
	e = realloc(pg->fails, (pg->nfails + 1) * sizeof *e);
	if (!e)
		return NULL;
	pg->fails = e;
	e += pg->nfails++;
	*e = (struct failed){ .name = name, .category = category };
	return e;
}

/* Whether sub has a failed case in cat that the view shows in full. */
static int shown_failure(const struct page *pg, const json_t *sub,
			 const char *cat)
{
	size_t i;
	const json_t *k;

	json_array_foreach(json_object_get(sub, "cases"), i, k)
		if (str_is(get_str(k, "category"), cat) &&
		    !str_is(get_str(k, "verdict"), "AC") && !secret(pg, k))
			return 1;
	return 0;
}

static int gather_sub(struct page *pg, const json_t *sub)
{
	size_t i;
	const json_t *c, *k;

	json_array_foreach(json_object_get(sub, "categories"), i, c) {
		const char *name = get_str(c, "category");
		const char *hint = get_str(c, "hint");
		double sc = get_num(c, "score"), max = get_num(c, "max_score");
		struct cat *e;

		if (!name)
			continue;
		if (!(e = cat_of(pg, name)))
			return -1;
		e->sum += sc;
		e->max = max > e->max ? max : e->max;
		e->n++;
		e->full += sc >= max;
		if (!e->hint && hint && (!pg->student || shown_failure(pg, sub, name)))
			e->hint = hint;
	}
	json_array_foreach(json_object_get(sub, "cases"), i, k) {
		const char *name = get_str(k, "name"), *v = get_str(k, "verdict");
		struct failed *e;

		if (!name || str_is(v, "AC"))
			continue;
		if (!(e = failed_of(pg, name, get_str(k, "category"))))
			return -1;
		e->failed++;
		e->by[verdict_index(v)]++;
	}
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int cmp_failed(const void *a, const void *b)
{
	const struct failed *x = a, *y = b;

	if (x->failed != y->failed)
		return x->failed < y->failed ? 1 : -1;
	return strcmp(x->name, y->name);
}

static int gather(struct page *pg)
{
	size_t i, n = json_array_size(pg->subs);
	const json_t *sub;

	pg->scores = malloc((n + 1) * sizeof *pg->scores);
	if (!pg->scores)
		return -1;
	json_array_foreach(pg->subs, i, sub) {
		double sc = get_num(sub, "score"), max = get_num(sub, "max_score");
		double pct = max > 0 ? 100.0 * sc / max : 0;
		int bin = (int)(pct / (100.0 / HIST_BINS));

		if (!graded(sub))
			continue;
		pg->scores[pg->graded++] = sc;
		pg->max_score = max > pg->max_score ? max : pg->max_score;
		pg->hist[bin >= HIST_BINS ? HIST_BINS - 1 : bin < 0 ? 0 : bin]++;
		if (gather_sub(pg, sub) < 0)
			return -1;
	}
	if (pg->graded)
		qsort(pg->scores, pg->graded, sizeof *pg->scores, cmp_double);
	if (pg->nfails)
		qsort(pg->fails, pg->nfails, sizeof *pg->fails, cmp_failed);
	return 0;
}

/* ---- the page's constant parts ------------------------------------------ */

static const char page_style[] =
"body{font:14px/1.4 system-ui,sans-serif;margin:1.5em auto;max-width:72em;"
"padding:0 1em;color:#222;background:#fff}\n"
"h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em}\n"
"table{border-collapse:collapse;margin:.5em 0}\n"
"th,td{padding:.2em .6em;text-align:left;vertical-align:top}\n"
"thead th{border-bottom:2px solid #888}\n"
"tbody tr{border-bottom:1px solid #ddd}\n"
"td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}\n"
"th[data-sort]{cursor:pointer;text-decoration:underline dotted}\n"
"th[aria-sort=ascending]::after{content:\" \\25B2\"}\n"
"th[aria-sort=descending]::after{content:\" \\25BC\"}\n"
"pre{background:#f6f6f6;padding:.5em;overflow:auto;max-height:30em;"
"white-space:pre-wrap;word-break:break-all;margin:.3em 0}\n"
".meta,.note{color:#555}\n"
".v{display:inline-block;padding:0 .35em;border-radius:3px;color:#fff;"
"font-weight:600;font-size:.9em;margin-right:.2em}\n"
".v-AC{background:#2a7d2e}.v-WA{background:#c62828}.v-TLE{background:#e67e00}"
".v-MLE{background:#7b1fa2}.v-OLE{background:#795548}.v-RTE{background:#ad1457}"
".v-CE{background:#616161}.v-IE{background:#1565c0}.v-other{background:#999}\n"
"svg text{font:11px system-ui,sans-serif;fill:#333}\n"
"rect.bar{fill:#3f6fb5}\n"
"table.cases{font-size:.92em;width:100%}\n"
"tr.drill>td{padding:0 .6em .3em 2em;border-bottom:1px solid #bbb}\n"
"details.drill>summary{color:#555;cursor:pointer}\n"
".filters{margin:.5em 0}.filters input,.filters select{font:inherit;margin-right:1em}\n"
".error{color:#b00}\n";

/* Sorts the students' table by a header's data-sort key (data-type="num"
 * compares numbers) and filters it by name and state; all it reads are
 * the data-* attributes of each tbody. Its SHA-256 is in PAGE_CSP:
 * tests/e2e/test_html.sh checks that the two agree. */
static const char page_script[] =
"(function () {\n"
"  var t = document.getElementById('students');\n"
"  if (!t) return;\n"
"  var rows = Array.prototype.slice.call(t.tBodies);\n"
"  var q = document.getElementById('filter');\n"
"  var show = document.getElementById('show');\n"
"  var shown = document.getElementById('shown');\n"
"  var heads = t.tHead.rows[0].cells;\n"
"  function keep(d) {\n"
"    var m = show.value;\n"
"    if (d.name.toLowerCase().indexOf(q.value.toLowerCase()) < 0) return false;\n"
"    return m === 'all' || (m === 'full' && d.full === '1') ||\n"
"      (m === 'imperfect' && d.graded === '1' && d.full === '0') ||\n"
"      (m === 'build-failed' && d.build === 'failed') ||\n"
"      (m === 'ungraded' && d.graded === '0');\n"
"  }\n"
"  function filter() {\n"
"    var n = 0;\n"
"    rows.forEach(function (b) { var k = keep(b.dataset); b.hidden = !k; if (k) n++; });\n"
"    shown.textContent = String(n);\n"
"  }\n"
"  Array.prototype.forEach.call(heads, function (th) {\n"
"    if (!th.dataset.sort) return;\n"
"    th.tabIndex = 0;\n"
"    function sort() {\n"
"      var key = th.dataset.sort, num = th.dataset.type === 'num';\n"
"      var dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;\n"
"      Array.prototype.forEach.call(heads, function (h) { h.removeAttribute('aria-sort'); });\n"
"      th.setAttribute('aria-sort', dir > 0 ? 'ascending' : 'descending');\n"
"      rows.sort(function (a, b) {\n"
"        var x = a.dataset[key], y = b.dataset[key];\n"
"        var c = num ? parseFloat(x) - parseFloat(y) : x.localeCompare(y);\n"
"        return dir * c || a.dataset.index - b.dataset.index;\n"
"      });\n"
"      rows.forEach(function (b) { t.appendChild(b); });\n"
"    }\n"
"    th.addEventListener('click', sort);\n"
"    th.addEventListener('keydown', function (e) { if (e.key === 'Enter') sort(); });\n"
"  });\n"
"  q.addEventListener('input', filter);\n"
"  show.addEventListener('change', filter);\n"
"  filter();\n"
"  document.documentElement.setAttribute('data-js', 'ready');\n"
"})();\n";

/* No network, no plugin, no frame, no form target; styles inline; the one
 * script above, by its hash. */
#define PAGE_SCRIPT_SHA256 "sha256-WclenbR7GsCsKIfsWEOx8KLmh9stGX5jCaIXHgX2Pic="
#define PAGE_CSP "default-src 'none'; style-src 'unsafe-inline'; " \
	"img-src data:; script-src '" PAGE_SCRIPT_SHA256 "'; " \
	"base-uri 'none'; form-action 'none'"

/* ---- writing ------------------------------------------------------------- */

static void num(FILE *f, double v)
{
	fprintf(f, "%g", v);
}

static void verdict_chip(FILE *f, const char *v)
{
	size_t i = verdict_index(v);

	fprintf(f, "<span class=\"v v-%s\">", i < NVERDICTS ? verdicts[i] : "other");
	esc(f, v ? v : "?");
	fputs("</span>", f);
}

static void write_head(const struct page *pg)
{
	FILE *f = pg->f;
	size_t n = json_array_size(pg->subs);

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"" PAGE_CSP "\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>warpgrade: ", f);
	esc(f, get_str(pg->report, "suite"));
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>warpgrade: ",
		page_style);
	esc(f, get_str(pg->report, "suite"));
	fputs("</h1>\n<p class=\"meta\">", f);
	fprintf(f, "<span id=\"count\">%zu</span> submission%s, %zu graded; ",
		n, n == 1 ? "" : "s", pg->graded);
	fprintf(f, "<span id=\"view\">%s</span> view", pg->student ? "student" : "staff");
	if (get_str(pg->report, "grader_version")) {
		fputs("; grader ", f);
		esc(f, get_str(pg->report, "grader_version"));
	}
	fputs("</p>\n", f);
	if (pg->student)
		fputs("<p class=\"note\">Student view: a hidden case shows its verdict "
		      "only (no points, time, memory, detail or diff).</p>\n", f);
}


/* Mean, median, lowest, highest, and the histogram in tenths of the
 * maximum: one bar per tenth, its count above it. */
static void write_scores(const struct page *pg)
{
	FILE *f = pg->f;
	size_t n = pg->graded, most = 1;
	const double *sc = pg->scores;
	const int W = 600, H = 200, L = 10, B = 22, T = 18;
	const double bw = (double)(W - 2 * L) / HIST_BINS;
	double sum = 0;

	fputs("<h2>Scores</h2>\n<p id=\"stats\">", f);
	if (!n) {
		fputs("No submission was graded.</p>\n", f);
	} else {
		for (size_t i = 0; i < n; i++)
			sum += sc[i];
		fputs("Out of ", f);
		num(f, pg->max_score);
		fprintf(f, ": mean %.1f, median ", sum / (double)n);
		num(f, n % 2 ? sc[n / 2] : (sc[n / 2 - 1] + sc[n / 2]) / 2);
		fputs(", lowest ", f);
		num(f, sc[0]);
		fputs(", highest ", f);
		num(f, sc[n - 1]);
		fputs(".</p>\n", f);
	}
	for (int i = 0; i < HIST_BINS; i++)
		most = pg->hist[i] > most ? pg->hist[i] : most;
	fprintf(f, "<svg id=\"histogram\" role=\"img\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" xmlns=\"http://www.w3.org/2000/svg\">\n"
		"<title>Scores in tenths of the maximum</title>\n", W, H, W, H);
	for (int i = 0; i < HIST_BINS; i++) {
		double h = (double)(H - B - T) * (double)pg->hist[i] / (double)most;
		double x = L + i * bw;
		int lo = i * (100 / HIST_BINS), hi = lo + 100 / HIST_BINS;

		fprintf(f, "<rect class=\"bar\" data-bin=\"%d\" data-count=\"%zu\" "
			"x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\">"
			"<title>%d-%d%%%s: %zu</title></rect>\n",
			i, pg->hist[i], x + 2, (double)(H - B) - h, bw - 4, h,
			lo, hi, i == HIST_BINS - 1 ? " (inclusive)" : "",
			pg->hist[i]);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%zu</text>\n",
			x + bw / 2, (double)(H - B) - h - 4, pg->hist[i]);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d%%</text>\n",
			x + bw / 2, H - 6, lo);
	}
	fputs("</svg>\n", f);
}

static void write_categories(const struct page *pg)
{
	FILE *f = pg->f;

	if (!pg->ncats)
		return;
	fputs("<h2>Categories</h2>\n<table id=\"categories\">\n<thead><tr>"
	      "<th>category</th><th class=\"num\">mean</th><th class=\"num\">of</th>"
	      "<th class=\"num\">full marks</th><th></th><th>hint</th></tr></thead>\n"
	      "<tbody>\n", f);
	for (size_t i = 0; i < pg->ncats; i++) {
		const struct cat *c = &pg->cats[i];
		double share = c->n ? (double)c->full / (double)c->n : 0;

		fputs("<tr><td>", f);
		esc(f, c->name);
		fprintf(f, "</td><td class=\"num\">%.2f</td><td class=\"num\">",
			c->n ? c->sum / (double)c->n : 0.0);
		num(f, c->max);
		fprintf(f, "</td><td class=\"num\">%zu of %zu (%.0f%%)</td>"
			"<td><svg width=\"100\" height=\"10\" role=\"img\">"
			"<rect width=\"100\" height=\"10\" fill=\"#ddd\"/>"
			"<rect width=\"%.1f\" height=\"10\" fill=\"#2a7d2e\"/></svg></td><td>",
			c->full, c->n, 100 * share, 100 * share);
		esc(f, c->hint);
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody>\n</table>\n", f);
}

/* The verdict mix of a failed case: a stacked bar and its words. */
static void write_mix(FILE *f, const struct failed *e)
{
	double x = 0;

	fputs("<svg width=\"120\" height=\"10\" role=\"img\">", f);
	for (size_t v = 0; v <= NVERDICTS; v++) {
		double w = 120.0 * (double)e->by[v] / (double)e->failed;

		if (!e->by[v])
			continue;
		fprintf(f, "<rect x=\"%.1f\" width=\"%.1f\" height=\"10\" "
			"fill=\"%s\"/>", x, w, verdict_colors[v]);
		x += w;
	}
	fputs("</svg> ", f);
	for (size_t v = 0; v <= NVERDICTS; v++)
		if (e->by[v])
			fprintf(f, "<span class=\"v v-%s\">%s %zu</span>",
				v < NVERDICTS ? verdicts[v] : "other",
				v < NVERDICTS ? verdicts[v] : "other", e->by[v]);
}

static const char *hint_of(const struct page *pg, const char *cat)
{
	for (size_t i = 0; cat && i < pg->ncats; i++)
		if (strcmp(pg->cats[i].name, cat) == 0)
			return pg->cats[i].hint;
	return NULL;
}

static void write_failed(const struct page *pg)
{
	FILE *f = pg->f;

	fputs("<h2>Most failed cases</h2>\n", f);
	if (!pg->nfails) {
		fputs("<p>No case failed.</p>\n", f);
		return;
	}
	fputs("<table id=\"failed\">\n<thead><tr><th>case</th><th>category</th>"
	      "<th class=\"num\">failed</th><th>verdicts</th><th>hint</th>"
	      "</tr></thead>\n<tbody>\n", f);
	for (size_t i = 0; i < pg->nfails && i < TOP_FAILED; i++) {
		const struct failed *e = &pg->fails[i];

		fputs("<tr><td>", f);
		esc(f, e->name);
		fputs("</td><td>", f);
		esc(f, e->category);
		fprintf(f, "</td><td class=\"num\">%zu of %zu</td><td>", e->failed,
			pg->graded);
		write_mix(f, e);
		fputs("</td><td>", f);
		esc(f, hint_of(pg, e->category));
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody>\n</table>\n", f);
}

static void write_pre(FILE *f, const char *summary, const json_t *text, int open)
{
	if (!json_is_string(text) || json_string_length(text) == 0)
		return;
	fprintf(f, "<details%s><summary>%s</summary><pre>", open ? " open" : "",
		summary);
	esc_json(f, text);
	fputs("</pre></details>", f);
}

/* One case's row (and its diff and stderr, when the view shows them). */
static void write_case(const struct page *pg, const json_t *k)
{
	FILE *f = pg->f;
	const char *v = get_str(k, "verdict");
	const json_t *diff = json_object_get(k, "diff");
	const json_t *err = json_object_get(k, "stderr_tail");

	fputs("<tr class=\"case\"><td>", f);
	esc_json(f, json_object_get(k, "name"));
	fputs("</td><td>", f);
	esc_json(f, json_object_get(k, "category"));
	fprintf(f, "</td><td>%s</td><td>", visible(k) ? "visible" : "hidden");
	verdict_chip(f, v);
	if (secret(pg, k)) {
		fputs("</td><td class=\"num\">-</td><td class=\"num\">-</td>"
		      "<td class=\"num\">-</td><td class=\"num\">-</td>"
		      "<td class=\"note\">hidden case</td></tr>\n", f);
		return;
	}
	if (get_str(k, "limit")) {
		fputs(" (", f);
		esc(f, get_str(k, "limit"));
		fputs(")", f);
	}
	fputs("</td><td class=\"num\">", f);
	num(f, get_num(k, "score"));
	fputs(" / ", f);
	num(f, get_num(k, "max_score"));
	fprintf(f, "</td><td class=\"num\">%lld</td><td class=\"num\">%lld</td>"
		"<td class=\"num\">%.1f MiB</td><td>",
		(long long)json_integer_value(json_object_get(k, "cpu_ms")),
		(long long)json_integer_value(json_object_get(k, "wall_ms")),
		get_num(k, "max_rss_kb") / 1024.0);
	esc_json(f, json_object_get(k, "detail"));
	fputs("</td></tr>\n", f);
	if ((json_is_string(diff) && json_string_length(diff)) ||
	    (json_is_string(err) && json_string_length(err))) {
		fputs("<tr class=\"out\"><td colspan=\"8\">", f);
		write_pre(f, "diff", diff, 0);
		write_pre(f, "stderr", err, 0);
		fputs("</td></tr>\n", f);
	}
}

static void write_drill(const struct page *pg, const json_t *sub)
{
	FILE *f = pg->f;
	const json_t *build = json_object_get(sub, "build");
	const json_t *cases = json_object_get(sub, "cases");
	int failed = str_is(get_str(build, "status"), "failed");
	size_t i;
	const json_t *k;

	fprintf(f, "<tr class=\"drill\"><td colspan=\"7\"><details class=\"drill\">"
		"<summary>%zu case%s</summary>\n", json_array_size(cases),
		json_array_size(cases) == 1 ? "" : "s");
	if (get_str(sub, "error")) {
		fputs("<p class=\"error\">", f);
		esc(f, get_str(sub, "error"));
		fputs("</p>\n", f);
	}
	if (get_str(build, "reason") && *get_str(build, "reason")) {
		fputs("<p class=\"error\">build: ", f);
		esc(f, get_str(build, "reason"));
		fputs("</p>\n", f);
	}
	write_pre(f, "compiler messages", json_object_get(build, "log"), failed);
	if (failed)
		fputs("<p>your program did not compile: no case was run</p>\n", f);
	if (json_array_size(cases)) {
		fputs("<table class=\"cases\"><thead><tr><th>case</th><th>category</th>"
		      "<th></th><th>verdict</th><th class=\"num\">points</th>"
		      "<th class=\"num\">CPU ms</th><th class=\"num\">wall ms</th>"
		      "<th class=\"num\">memory</th><th>detail</th></tr></thead>\n<tbody>\n",
		      f);
		json_array_foreach(cases, i, k)
			write_case(pg, k);
		fputs("</tbody></table>\n", f);
	}
	fputs("</details></td></tr>\n", f);
}

static void write_student(const struct page *pg, size_t idx, const json_t *sub)
{
	FILE *f = pg->f;
	const char *name = get_str(sub, "student");
	const char *build = get_str(json_object_get(sub, "build"), "status");
	const char *status = get_str(sub, "status");
	const json_t *counts = json_object_get(sub, "verdicts");
	int is_graded = graded(sub);
	double sc = get_num(sub, "score"), max = get_num(sub, "max_score");
	double pct = max > 0 ? 100 * sc / max : 0;

	if (!name)
		name = get_str(sub, "submission");
	if (!status)
		status = is_graded ? "graded" : "not graded";
	fprintf(f, "<tbody class=\"student\" data-index=\"%zu\" data-name=\"", idx);
	esc(f, name ? name : "?");
	fprintf(f, "\" data-score=\"%g\" data-pct=\"%.1f\" data-graded=\"%d\" "
		"data-full=\"%d\" data-build=\"", is_graded ? sc : -1.0,
		is_graded ? pct : -1.0, is_graded, is_graded && sc >= max);
	esc(f, build ? build : "");
	fputs("\" data-status=\"", f);
	esc(f, status);
	fputs("\">\n<tr class=\"row\"><td class=\"name\">", f);
	esc(f, name ? name : "?");
	fputs("</td><td class=\"num\">", f);
	if (is_graded || json_object_get(sub, "score")) {
		num(f, sc);
		fputs(" / ", f);
		num(f, max);
		fprintf(f, "</td><td class=\"num\">%.0f%%", pct);
	} else {
		fputs("-</td><td class=\"num\">-", f);
	}
	fputs("</td><td class=\"verdicts\">", f);
	for (size_t v = 0; v < NVERDICTS; v++) {
		json_int_t c = json_integer_value(json_object_get(counts, verdicts[v]));

		if (c > 0)
			fprintf(f, "<span class=\"v v-%s\">%s %lld</span>", verdicts[v],
				verdicts[v], (long long)c);
	}
	fputs("</td><td>", f);
	esc(f, build ? build : "-");
	fputs("</td><td>", f);
	esc(f, status);
	fputs("</td></tr>\n", f);
	write_drill(pg, sub);
	fputs("</tbody>\n", f);
}

static void write_students(const struct page *pg)
{
	FILE *f = pg->f;
	size_t i;
	const json_t *sub;

	fputs("<h2>Submissions</h2>\n<div class=\"filters\">"
	      "<label>name <input id=\"filter\" type=\"search\" autocomplete=\"off\">"
	      "</label><label>show <select id=\"show\">"
	      "<option value=\"all\">all</option>"
	      "<option value=\"full\">full marks</option>"
	      "<option value=\"imperfect\">not full marks</option>"
	      "<option value=\"build-failed\">build failed</option>"
	      "<option value=\"ungraded\">not graded</option>"
	      "</select></label>", f);
	fprintf(f, "<span class=\"meta\"><span id=\"shown\">%zu</span> shown</span>"
		"</div>\n", json_array_size(pg->subs));
	fputs("<table id=\"students\">\n<thead><tr>"
	      "<th data-sort=\"name\">submission</th>"
	      "<th class=\"num\" data-sort=\"score\" data-type=\"num\">score</th>"
	      "<th class=\"num\" data-sort=\"pct\" data-type=\"num\">%</th>"
	      "<th>verdicts</th>"
	      "<th data-sort=\"build\">build</th>"
	      "<th data-sort=\"status\">status</th></tr></thead>\n", f);
	json_array_foreach(pg->subs, i, sub)
		write_student(pg, i, sub);
	fputs("</table>\n", f);
}

int html_write(FILE *f, const json_t *report)
{
	struct page pg = {
		.f = f, .report = report,
		.subs = json_object_get(report, "submissions"),
		/* Only an explicit staff report shows hidden cases in full. */
		.student = !str_is(get_str(report, "view"), "staff"),
	};
	int rc = 0;

	if (gather(&pg) < 0) {
		errno = ENOMEM;
		rc = -1;
		goto out;
	}
	write_head(&pg);
	write_scores(&pg);
	write_categories(&pg);
	write_failed(&pg);
	write_students(&pg);
	fprintf(f, "<script>%s</script>\n</body>\n</html>\n", page_script);
	if (fflush(f) != 0 || ferror(f)) {
		if (errno == 0)
			errno = EIO;
		rc = -1;
	}
out:
	free(pg.scores);
	free(pg.cats);
	free(pg.fails);
	return rc;
}

/* ---- a class from a batch's reports -------------------------------------- */

json_t *html_class_new(const char *suite, const char *view)
{
	return json_pack("{s:s, s:s, s:[]}", "suite", suite ? suite : "?",
			 "view", view ? view : "student", "submissions");
}

int html_class_add(json_t *cls, const char *student, const char *status,
		   const char *error, const json_t *report)
{
	const json_t *sub = json_array_get(json_object_get(report, "submissions"), 0);
	json_t *row = sub ? json_copy((json_t *)sub) : json_object();
	int bad = !row;

	if (!bad && !sub && json_object_get(report, "max_score")) {
		bad |= json_object_set(row, "score", json_object_get(report, "score")) < 0;
		bad |= json_object_set(row, "max_score",
				       json_object_get(report, "max_score")) < 0;
	}
	/* A folder name need not be UTF-8: kept as it is, html_escape()
	 * replaces what is not. */
	bad |= !bad && json_object_set_new(row, "student",
		json_string_nocheck(student ? student : "?")) < 0;
	bad |= !bad && json_object_set_new(row, "status",
		json_string_nocheck(status ? status : "graded")) < 0;
	if (!bad && error)
		bad |= json_object_set_new(row, "error", json_string_nocheck(error)) < 0;
	if (bad) {
		json_decref(row);
		return -1;
	}
	return json_array_append_new(json_object_get(cls, "submissions"), row);
}
