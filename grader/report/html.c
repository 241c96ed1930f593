/*
 * html: the grade report as one self-contained HTML page. See html.h for
 * what the page shows and the views.
 *
 * Theory of operation. One pass over the submissions gathers the figures
 * (scores, categories, failed cases) into small C arrays whose strings
 * point into the report (html_summary.c); then the page is written top to
 * bottom straight to the FILE: its head here, the figures' sections by
 * html_summary.c, the students' table here. Every string that comes from the report goes through
 * html_escape(); the only script is the constant PAGE_SCRIPT, which finds
 * everything it needs in the table's data-* attributes (written escaped,
 * like any other text), so no report byte is ever inside <script>.
 */
#include "grader/report/html_int.h"

#include "grader/lib/xml.h"
#include "grader/report/keys.h"
#include "grader/report/report.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
	esc(f, get_str(pg->report, RK_SUITE));
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>warpgrade: ",
		page_style);
	esc(f, get_str(pg->report, RK_SUITE));
	fputs("</h1>\n<p class=\"meta\">", f);
	fprintf(f, "<span id=\"count\">%zu</span> submission%s, %zu graded; ",
		n, n == 1 ? "" : "s", pg->graded);
	fprintf(f, "<span id=\"view\">%s</span> view", pg->student ? "student" : "staff");
	if (get_str(pg->report, RK_GRADER_VERSION)) {
		fputs("; grader ", f);
		esc(f, get_str(pg->report, RK_GRADER_VERSION));
	}
	fputs("</p>\n", f);
	if (pg->student)
		fputs("<p class=\"note\">Student view: a hidden case shows its verdict "
		      "only (no points, time, memory, detail or diff).</p>\n", f);
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
	const char *v = get_str(k, RK_VERDICT);
	const json_t *diff = json_object_get(k, RK_DIFF);
	const json_t *err = json_object_get(k, RK_STDERR_TAIL);
	const json_t *head = json_object_get(k, RK_OUTPUT_HEAD);

	fputs("<tr class=\"case\"><td>", f);
	esc_json(f, json_object_get(k, RK_NAME));
	fputs("</td><td>", f);
	esc_json(f, json_object_get(k, RK_CATEGORY));
	fprintf(f, "</td><td>%s</td><td>", visible(k) ? "visible" : "hidden");
	verdict_chip(f, v);
	if (secret(pg, k)) {
		fputs("</td><td class=\"num\">-</td><td class=\"num\">-</td>"
		      "<td class=\"num\">-</td><td class=\"num\">-</td>"
		      "<td class=\"note\">hidden case</td></tr>\n", f);
		return;
	}
	if (get_str(k, RK_LIMIT)) {
		fputs(" (", f);
		esc(f, get_str(k, RK_LIMIT));
		fputs(")", f);
	}
	fputs("</td><td class=\"num\">", f);
	num(f, get_num(k, RK_SCORE));
	fputs(" / ", f);
	num(f, get_num(k, RK_MAX_SCORE));
	fprintf(f, "</td><td class=\"num\">%lld</td><td class=\"num\">%lld</td>"
		"<td class=\"num\">%.1f MiB</td><td>",
		(long long)json_integer_value(json_object_get(k, RK_CPU_MS)),
		(long long)json_integer_value(json_object_get(k, RK_WALL_MS)),
		get_num(k, RK_MAX_RSS_KB) / 1024.0);
	esc_json(f, json_object_get(k, RK_DETAIL));
	if (json_integer_value(json_object_get(k, RK_STOP_LINE)) > 0) {
		fprintf(f, "; it fails once it reads input line %lld",
			(long long)json_integer_value(json_object_get(k, RK_STOP_LINE)));
		if (get_str(k, RK_STOP_INPUT)) {
			fputs(": <code>", f);
			esc(f, get_str(k, RK_STOP_INPUT));
			fputs("</code>", f);
		}
	}
	fputs("</td></tr>\n", f);
	if ((json_is_string(diff) && json_string_length(diff)) ||
	    (json_is_string(err) && json_string_length(err)) || head) {
		fputs("<tr class=\"out\"><td colspan=\"8\">", f);
		write_pre(f, "diff", diff, 0);
		write_pre(f, "its output (the first lines)", head, 0);
		write_pre(f, "stderr", err, 0);
		fputs("</td></tr>\n", f);
	}
}

static void write_drill(const struct page *pg, const json_t *sub)
{
	FILE *f = pg->f;
	const json_t *build = json_object_get(sub, RK_BUILD);
	const json_t *cases = json_object_get(sub, RK_CASES);
	int failed = str_is(get_str(build, RK_BUILD_STATUS), RK_BUILD_FAILED);
	size_t i;
	const json_t *k;

	fprintf(f, "<tr class=\"drill\"><td colspan=\"7\"><details class=\"drill\">"
		"<summary>%zu case%s</summary>\n", json_array_size(cases),
		json_array_size(cases) == 1 ? "" : "s");
	if (get_str(sub, RK_ERROR)) {
		fputs("<p class=\"error\">", f);
		esc(f, get_str(sub, RK_ERROR));
		fputs("</p>\n", f);
	}
	if (get_str(build, RK_BUILD_REASON) && *get_str(build, RK_BUILD_REASON)) {
		fputs("<p class=\"error\">build: ", f);
		esc(f, get_str(build, RK_BUILD_REASON));
		fputs("</p>\n", f);
	}
	write_pre(f, "compiler messages", json_object_get(build, RK_BUILD_LOG), failed);
	if (failed)
		fprintf(f, "<p>%s</p>\n", pg->student ? REPORT_CE_LINE
			: REPORT_CE_LINE_STAFF);
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
	const char *name = get_str(sub, RK_STUDENT);
	const char *build = get_str(json_object_get(sub, RK_BUILD), RK_BUILD_STATUS);
	const char *status = get_str(sub, RK_STATUS);
	const json_t *counts = json_object_get(sub, RK_VERDICTS);
	int is_graded = graded(sub);
	double sc = get_num(sub, RK_SCORE), max = get_num(sub, RK_MAX_SCORE);
	double pct = max > 0 ? 100 * sc / max : 0;

	if (!name)
		name = get_str(sub, RK_SUBMISSION);
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
	if (is_graded || json_object_get(sub, RK_SCORE)) {
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
		.subs = json_object_get(report, RK_SUBMISSIONS),
		/* Only an explicit staff report shows hidden cases in full. */
		.student = !str_is(get_str(report, RK_VIEW), RK_VIEW_STAFF),
	};
	int rc = 0;

	if (htmlp_gather(&pg) < 0) {
		errno = ENOMEM;
		rc = -1;
		goto out;
	}
	write_head(&pg);
	htmlp_write_summary(&pg);
	if (json_is_object(json_object_get(report, "suite_report")))
		html_suite_section(f, json_object_get(report, "suite_report"));
	write_students(&pg);
	fprintf(f, "<script>%s</script>\n</body>\n</html>\n", page_script);
	if (fflush(f) != 0 || ferror(f)) {
		if (errno == 0)
			errno = EIO;
		rc = -1;
	}
out:
	htmlp_release(&pg);
	return rc;
}

/* ---- a class from a batch's reports -------------------------------------- */

json_t *html_class_new(const char *suite, const char *view)
{
	return json_pack("{s:s, s:s, s:[]}", RK_SUITE, suite ? suite : "?",
			 RK_VIEW, view ? view : RK_VIEW_STUDENT, RK_SUBMISSIONS);
}

int html_class_add(json_t *cls, const char *student, const char *status,
		   const char *error, const json_t *report)
{
	const json_t *sub = json_array_get(json_object_get(report, RK_SUBMISSIONS), 0);
	json_t *row = sub ? json_copy((json_t *)sub) : json_object();
	int bad = !row;

	if (!bad && !sub && json_object_get(report, RK_MAX_SCORE)) {
		bad |= json_object_set(row, RK_SCORE, json_object_get(report, RK_SCORE)) < 0;
		bad |= json_object_set(row, RK_MAX_SCORE,
				       json_object_get(report, RK_MAX_SCORE)) < 0;
	}
	/* A folder name need not be UTF-8: kept as it is, html_escape()
	 * replaces what is not. */
	bad |= !bad && json_object_set_new(row, RK_STUDENT,
		json_string_nocheck(student ? student : "?")) < 0;
	bad |= !bad && json_object_set_new(row, RK_STATUS,
		json_string_nocheck(status ? status : "graded")) < 0;
	if (!bad && error)
		bad |= json_object_set_new(row, RK_ERROR, json_string_nocheck(error)) < 0;
	if (bad) {
		json_decref(row);
		return -1;
	}
	return json_array_append_new(json_object_get(cls, RK_SUBMISSIONS), row);
}
