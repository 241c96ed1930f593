/*
 * html: the grade report as one self-contained HTML page. See html.h for
 * what the page shows and the views.
 *
 * Theory of operation. One pass over the submissions gathers the figures
 * (scores, categories, failed cases) into small C arrays whose strings
 * point into the report (html_summary.c); then the page is written top to
 * bottom straight to the FILE: its head here, the figures' sections by
 * html_summary.c, the students' table here. Every string that comes from the report goes through
 * escape_html(); the only script is the constant PAGE_SCRIPT, which finds
 * everything it needs in the table's data-* attributes (written escaped,
 * like any other text), so no report byte is ever inside <script>.
 */
#include "grader/report/html_int.h"

#include "grader/lib/escape.h"
#include "grader/report/keys.h"
#include "grader/report/report.h"
#include "grader/report/report_read.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- escaping ---------------------------------------------------------- */



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
 * compares numbers) and filters it by name and state, from the data-*
 * attributes of each tbody; builds a student's drill-down from the data
 * block (html_drill.c), with text nodes only, when it is first opened.
 * The URL's fragment may set the state: #q=NAME&show=MODE&sort=[-]KEY&
 * open=STUDENT. <html data-js> is "ready" once done, "error: ..." when a
 * script error happened; data-ready-ms the milliseconds from the start of
 * the navigation to the script's end (make bench-html reads it). Its SHA-256 is in PAGE_CSP:
 * tests/e2e/test_html.sh checks that the two agree. */
static const char page_script[] =
"(function () {\n"
"  var root = document.documentElement;\n"
"  window.addEventListener('error', function (e) {\n"
"    root.setAttribute('data-js', 'error: ' + e.message);\n"
"  });\n"
"  var t = document.getElementById('students');\n"
"  if (!t) { root.setAttribute('data-js', 'ready'); return; }\n"
"  var rows = Array.prototype.slice.call(t.tBodies);\n"
"  var q = document.getElementById('filter');\n"
"  var show = document.getElementById('show');\n"
"  var shown = document.getElementById('shown');\n"
"  var heads = t.tHead.rows[0].cells;\n"
"  var V = ['AC', 'WA', 'TLE', 'MLE', 'OLE', 'RTE', 'CE', 'IE'];\n"
"  var data = null, sorts = {};\n"
"  function el(tag, cls, text) {\n"
"    var e = document.createElement(tag);\n"
"    if (cls) e.className = cls;\n"
"    if (text !== undefined && text !== null) e.textContent = String(text);\n"
"    return e;\n"
"  }\n"
"  function pre(parent, summary, text, open) {\n"
"    if (!text) return;\n"
"    var d = el('details');\n"
"    if (open) d.open = true;\n"
"    d.appendChild(el('summary', null, summary));\n"
"    d.appendChild(el('pre', null, text));\n"
"    parent.appendChild(d);\n"
"  }\n"
"  function td(tr, text, cls) { var c = el('td', cls, text); tr.appendChild(c); return c; }\n"
"  function tx(i) { return i ? data.t[i] : ''; }\n"
"  function caseRow(body, k, c) {\n"
"    var tr = el('tr', 'case'), v = c ? c[1] : 0;\n"
"    var code = typeof v === 'number' ? V[v] : String(v);\n"
"    td(tr, k[0]); td(tr, k[1]); td(tr, k[2] ? 'hidden' : 'visible');\n"
"    td(tr).appendChild(el('span', 'v v-' + (typeof v === 'number' ? code : 'other'), code));\n"
"    body.appendChild(tr);\n"
"    if (c ? c.length < 3 : k[2] && data.h) {\n"
"      for (var i = 0; i < 4; i++) td(tr, '-', 'num');\n"
"      td(tr, 'hidden case', 'note');\n"
"      return;\n"
"    }\n"
"    if (!c) {\n"
"      td(tr, k[3] + ' / ' + k[3], 'num');\n"
"      for (var j = 0; j < 3; j++) td(tr, '-', 'num');\n"
"      td(tr);\n"
"      return;\n"
"    }\n"
"    if (c[2]) tr.cells[3].appendChild(document.createTextNode(' (' + tx(c[2]) + ')'));\n"
"    td(tr, c[3] + ' / ' + k[3], 'num');\n"
"    td(tr, c[4], 'num'); td(tr, c[5], 'num');\n"
"    td(tr, ((c[6] || 0) / 1024).toFixed(1) + ' MiB', 'num');\n"
"    var det = td(tr, tx(c[7]));\n"
"    if (c[11]) {\n"
"      det.appendChild(document.createTextNode('; it fails once it reads input line ' + c[11]));\n"
"      if (c[12]) { det.appendChild(document.createTextNode(': ')); det.appendChild(el('code', null, tx(c[12]))); }\n"
"    }\n"
"    if (!c[8] && !c[9] && !c[10]) return;\n"
"    var o = el('tr', 'out'), cell = el('td');\n"
"    cell.colSpan = 9;\n"
"    pre(cell, 'diff', tx(c[8]));\n"
"    pre(cell, 'its output (the first lines)', tx(c[9]));\n"
"    pre(cell, 'stderr', tx(c[10]));\n"
"    o.appendChild(cell);\n"
"    body.appendChild(o);\n"
"  }\n"
"  function build(d) {\n"
"    if (!d || d.getAttribute('data-built')) return;\n"
"    d.setAttribute('data-built', '1');\n"
"    if (!data) data = JSON.parse(document.getElementById('wg-data').textContent);\n"
"    var b = d.closest('tbody'), s = data.s[+b.dataset.index];\n"
"    if (!s) return;\n"
"    if (data.x) d.appendChild(el('p', 'note', 'Long texts are cut here (...) and passed '\n"
"      + 'cases show no times: the whole report is students/' + b.dataset.name + '.json ('\n"
"      + 'and .html), its log logs/' + b.dataset.name + '.log.'));\n"
"    if (s.e) d.appendChild(el('p', 'error', tx(s.e)));\n"
"    if (s.r) d.appendChild(el('p', 'error', 'build: ' + tx(s.r)));\n"
"    pre(d, 'compiler messages', tx(s.l), s.ce);\n"
"    if (s.ce) d.appendChild(el('p', null, tx(s.ce)));\n"
"    var ids = s.i, n = ids ? ids.length : data.n, at = [];\n"
"    if (!n) return;\n"
"    (s.c || []).forEach(function (c) { at[c[0]] = c; });\n"
"    var tb = el('table', 'cases'), hr = el('tr'), th = el('thead'), body = el('tbody');\n"
"    ['case', 'category', '', 'verdict', 'points', 'CPU ms', 'wall ms', 'memory',\n"
"     'detail'].forEach(function (h, i) { hr.appendChild(el('th', i > 3 && i < 8 ? 'num' : null, h)); });\n"
"    th.appendChild(hr); tb.appendChild(th); tb.appendChild(body);\n"
"    for (var p = 0; p < n; p++) caseRow(body, data.k[ids ? ids[p] : p], at[p]);\n"
"    d.appendChild(tb);\n"
"  }\n"
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
"      var frag = document.createDocumentFragment();\n"
"      rows.forEach(function (b) { frag.appendChild(b); });\n"
"      t.appendChild(frag);\n"
"    }\n"
"    sorts[th.dataset.sort] = function (desc) {\n"
"      th.setAttribute('aria-sort', desc ? 'ascending' : 'descending');\n"
"      sort();\n"
"    };\n"
"    th.addEventListener('click', sort);\n"
"    th.addEventListener('keydown', function (e) { if (e.key === 'Enter') sort(); });\n"
"  });\n"
"  t.addEventListener('toggle', function (e) {\n"
"    if (e.target.classList && e.target.classList.contains('drill') && e.target.open) build(e.target);\n"
"  }, true);\n"
"  q.addEventListener('input', filter);\n"
"  show.addEventListener('change', filter);\n"
"  var h = {};\n"
"  location.hash.replace(/^#/, '').split('&').forEach(function (p) {\n"
"    var i = p.indexOf('=');\n"
"    if (i > 0) try { h[p.slice(0, i)] = decodeURIComponent(p.slice(i + 1)); } catch (e) {}\n"
"  });\n"
"  if (h.q) q.value = h.q;\n"
"  if (h.show) show.value = h.show;\n"
"  filter();\n"
"  if (h.sort) {\n"
"    var desc = h.sort.charAt(0) === '-', key = desc ? h.sort.slice(1) : h.sort;\n"
"    if (sorts[key]) sorts[key](desc);\n"
"  }\n"
"  if (h.open) rows.forEach(function (b) {\n"
"    if (b.dataset.name !== h.open) return;\n"
"    var d = b.querySelector('details.drill');\n"
"    build(d);\n"
"    d.open = true;\n"
"  });\n"
"  if (root.getAttribute('data-js') === null) root.setAttribute('data-js', 'ready');\n"
"  root.setAttribute('data-ready-ms', String(Math.round(performance.now())));\n"
"})();\n";

/* No network, no plugin, no frame, no form target; styles inline; the one
 * script above, by its hash. */
#define PAGE_SCRIPT_SHA256 "sha256-CAstV7RIjSIN312V5sDi7INvzC69vPwFSegib9st3vs="
#define PAGE_CSP "default-src 'none'; style-src 'unsafe-inline'; " \
	"img-src data:; script-src '" PAGE_SCRIPT_SHA256 "'; " \
	"base-uri 'none'; form-action 'none'"

/* ---- writing ------------------------------------------------------------- */

static void write_head(const struct page *pg)
{
	FILE *f = pg->f;
	size_t n = pg->rows->n;

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


/* A student's drill-down: its summary only; the script builds the rest
 * from the data block (html_drill.c) when it is opened. */
static void write_drill(const struct page *pg, const json_t *sub)
{
	size_t n = json_array_size(json_object_get(sub, RK_CASES));

	fprintf(pg->f, "<tr class=\"drill\"><td colspan=\"7\"><details class=\"drill\">"
		"<summary>%zu case%s</summary></details></td></tr>\n", n,
		n == 1 ? "" : "s");
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
		const char *code = verdict_code((enum verdict)v);
		json_int_t c = report_int(counts, code);

		if (c > 0)
			fprintf(f, "<span class=\"v v-%s\">%s %lld</span>", code,
				code, (long long)c);
	}
	fputs("</td><td>", f);
	esc(f, build ? build : "-");
	fputs("</td><td>", f);
	esc(f, status);
	fputs("</td></tr>\n", f);
	write_drill(pg, sub);
	fputs("</tbody>\n", f);
}

/* 0, or -1 when a submission could not be read (out of memory). */
static int write_students(const struct page *pg)
{
	FILE *f = pg->f;

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
		"</div>\n", pg->rows->n);
	fputs("<table id=\"students\">\n<thead><tr>"
	      "<th data-sort=\"name\">submission</th>"
	      "<th class=\"num\" data-sort=\"score\" data-type=\"num\">score</th>"
	      "<th class=\"num\" data-sort=\"pct\" data-type=\"num\">%</th>"
	      "<th>verdicts</th>"
	      "<th data-sort=\"build\">build</th>"
	      "<th data-sort=\"status\">status</th></tr></thead>\n", f);
	for (size_t i = 0; i < pg->rows->n; i++) {
		json_t *sub = htmlp_sub(pg, i);

		if (!sub)
			return -1;
		write_student(pg, i, sub);
		json_decref(sub);
	}
	fputs("</table>\n", f);
	return 0;
}

json_t *htmlp_sub(const struct page *pg, size_t i)
{
	return pg->rows->get(pg->rows->arg, i);
}

/* A report's own submissions as a page's rows. */
static json_t *array_row(void *arr, size_t i)
{
	return json_incref(json_array_get(arr, i));
}

int html_write(FILE *f, const json_t *report)
{
	json_t *subs = json_object_get(report, RK_SUBMISSIONS);
	struct html_rows rows = { json_array_size(subs), array_row, subs };

	return html_write_rows(f, report, &rows);
}

int html_write_rows(FILE *f, const json_t *report, const struct html_rows *rows)
{
	struct page pg = {
		.f = f, .report = report, .rows = rows,
		/* Only an explicit staff report shows hidden cases in full. */
		.student = !str_is(get_str(report, RK_VIEW), RK_VIEW_STAFF),
		.compact = json_is_true(json_object_get(report, RK_PAGE_COMPACT)),
	};
	int rc = 0;

	if (htmlp_gather(&pg) < 0) {
		errno = ENOMEM;
		rc = -1;
		goto out;
	}
	write_head(&pg);
	htmlp_write_summary(&pg);
	if (json_is_object(json_object_get(report, RK_SUITE_REPORT)))
		html_suite_section(f, json_object_get(report, RK_SUITE_REPORT));
	if (!pg.student && json_is_object(json_object_get(report, "similarity")))
		html_similarity_section(f, json_object_get(report, "similarity"));
	if (write_students(&pg) < 0 || htmlp_write_data(&pg) < 0) {
		errno = ENOMEM;
		rc = -1;
		goto out;
	}
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

int html_class_set_compact(json_t *cls)
{
	return json_object_set_new(cls, RK_PAGE_COMPACT, json_true());
}

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
	/* A folder name need not be UTF-8: kept as it is, escape_html()
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
