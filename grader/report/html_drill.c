/*
 * html_drill: the drill-downs' data block. Every submission's cases go
 * into one compact JSON value, written as the text of <pre id="wg-data"
 * hidden> (never inside <script>: html.c's page script is the page's only
 * script and holds no report byte); the script builds a student's
 * drill-down from it, with text nodes only, when the drill-down is
 * opened. A class of 1,000 thus loads as a table of 1,000 rows, not one
 * of 68,000.
 *
 * The value: {"k": CASES, "s": SUBS}. CASES lists each distinct case once,
 * [name, category, hidden (0/1), points]. SUBS has one entry per
 * submission, in the table's order (its data-index): {"c": [CASE...],
 * "e": error, "r": build reason, "l": compiler messages, "lo": 1 to show
 * them open, "ce": the did-not-compile line}, keys absent when empty. A
 * CASE is [k, verdict, limit, score, cpu_ms, wall_ms, max_rss_kb, detail,
 * diff, output_head, stderr_tail, stop_line, stop_input], trailing empty
 * fields left out; verdict is an index into html_int.h's verdicts (or the
 * report's word when not in it). In the student view a hidden case is
 * [k, verdict] and nothing else. An absent text is 0. A compact page has
 * "x": 1 at the top: "..." marks where a text was cut, and the script
 * says in each drill-down where the whole texts are (the student's JSON
 * report and log).
 *
 * A compact page (a class's report.html: html_class_set_compact) keeps
 * only the first difference of each diff, the last lines of each stderr
 * tail and the first lines of the compiler's messages: the whole of them
 * for 1,000 students would be tens of megabytes.
 */
#include "grader/report/html_int.h"

#include <stdlib.h>
#include <string.h>

#include "grader/lib/xml.h"
#include "grader/report/report.h"

/* A JSON string of s (len bytes, NULs included) that jansson will dump:
 * what is not UTF-8, control bytes but tab and newline, and U+FFFE and
 * U+FFFF become U+FFFD, one per bad byte, as html_escape() does in the
 * rest of the page. NULL only when out of memory. */
static json_t *clean(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	char *buf;
	size_t n = 0;
	json_t *j;

	if (!(buf = malloc(3 * len + 1)))
		return NULL;
	for (size_t i = 0, k; i < len; i += k) {
		int ctl = p[i] < 0x20 && p[i] != '\t' && p[i] != '\n';

		if (p[i] < 0x80 && !ctl) {
			k = 1;
			buf[n++] = (char)p[i];
		} else if (!ctl && (k = xml_utf8_len(p + i, len - i)) &&
			   !(k == 3 && p[i] == 0xEF && p[i + 1] == 0xBF &&
			     p[i + 2] >= 0xBE)) {
			memcpy(buf + n, p + i, k);
			n += k;
		} else {
			k = 1;
			memcpy(buf + n, "\xEF\xBF\xBD", 3);
			n += 3;
		}
	}
	j = json_stringn(buf, n);
	free(buf);
	return j;
}

/* Compact pages: the most kept of a stderr tail and of compiler messages. */
#define COMPACT_TAIL_BYTES 600
#define COMPACT_LOG_BYTES  2000

/* text, or in a compact page its first difference (the part before the
 * unified diff) or its first (head) / last (!head) max bytes, with a note
 * when cut. A new reference; NULL only when out of memory. */
static json_t *text_of(const struct page *pg, const json_t *v, int diff,
		       size_t max, int head)
{
	const char *s = json_string_value(v), *cut;
	size_t len = json_string_length(v), keep = len, from = 0;
	char *buf;
	json_t *j;

	if (!s || !len)
		return json_integer(0);
	if (!pg->compact)
		return clean(s, len);
	if (diff && (cut = strstr(s, "\n--- expected\n")))
		keep = (size_t)(cut - s);
	else if (!diff && len > max) {
		keep = max;
		from = head ? 0 : len - max;
	}
	if (keep == len)
		return clean(s, len);
	/* "...": the page says once where the whole texts are. */
	if (!(buf = malloc(keep + 4)))
		return NULL;
	memcpy(buf, s + from, keep);
	memcpy(buf + keep, head || diff ? "\n..." : "...\n", 4);
	if (!head && !diff) {
		memmove(buf + 4, buf, keep);
		memcpy(buf, "...\n", 4);
	}
	j = clean(buf, keep + 4);
	free(buf);
	return j;
}

/* The index of case k's [name, category, hidden, points] in ks, added
 * when new; -1 when out of memory. hint: where it usually is. */
static json_int_t case_index(json_t *ks, const json_t *k, size_t hint)
{
	const char *name = get_str(k, RK_NAME), *cat = get_str(k, RK_CATEGORY);
	int hidden = !visible(k);
	double pts = get_num(k, RK_MAX_SCORE);
	size_t n = json_array_size(ks);

	for (size_t t = 0; t < n; t++) {
		size_t i = (hint + t) % n;
		const json_t *e = json_array_get(ks, i);

		if (str_is(json_string_value(json_array_get(e, 0)), name ? name : "") &&
		    str_is(json_string_value(json_array_get(e, 1)), cat ? cat : "") &&
		    json_integer_value(json_array_get(e, 2)) == hidden &&
		    json_number_value(json_array_get(e, 3)) == pts)
			return (json_int_t)i;
	}
	if (json_array_append_new(ks, json_pack("[o,o,i,f]",
			clean(name ? name : "", name ? strlen(name) : 0),
			clean(cat ? cat : "", cat ? strlen(cat) : 0), hidden, pts)) < 0)
		return -1;
	return (json_int_t)n;
}

static json_t *verdict_value(const char *v)
{
	size_t i = verdict_index(v);

	return i < NVERDICTS ? json_integer((json_int_t)i) : clean(v ? v : "?", v ? strlen(v) : 1);
}

/* Drops the trailing absent texts (0) of a, after its numbers. */
static void trim(json_t *a)
{
	size_t n = json_array_size(a);

	while (n > 7 && json_integer_value(json_array_get(a, n - 1)) == 0 &&
	       json_is_integer(json_array_get(a, n - 1)))
		json_array_remove(a, --n);
}

/* A text, or 0 when there is none (shorter than null). */
static json_t *str_or_null(const char *s)
{
	return s && *s ? clean(s, strlen(s)) : json_integer(0);
}

static json_t *case_entry(const struct page *pg, json_t *ks, const json_t *k,
			  size_t i)
{
	json_int_t ki = case_index(ks, k, i);
	json_t *c = json_array();
	int bad = ki < 0 || !c;
	const json_t *stop = json_object_get(k, RK_STOP_LINE);

	bad = bad || json_array_append_new(c, json_integer(ki)) < 0 ||
	      json_array_append_new(c, verdict_value(get_str(k, RK_VERDICT))) < 0;
	if (!bad && !secret(pg, k)) {
		json_t *v[] = {
			str_or_null(get_str(k, RK_LIMIT)),
			json_real(get_num(k, RK_SCORE)),
			json_integer(json_integer_value(json_object_get(k, RK_CPU_MS))),
			json_integer(json_integer_value(json_object_get(k, RK_WALL_MS))),
			json_integer(json_integer_value(json_object_get(k, RK_MAX_RSS_KB))),
			str_or_null(get_str(k, RK_DETAIL)),
			text_of(pg, json_object_get(k, RK_DIFF), 1, 0, 0),
			text_of(pg, json_object_get(k, RK_OUTPUT_HEAD), 0, ~(size_t)0, 1),
			text_of(pg, json_object_get(k, RK_STDERR_TAIL), 0,
				COMPACT_TAIL_BYTES, 0),
			json_integer(stop ? json_integer_value(stop) : 0),
			str_or_null(get_str(k, RK_STOP_INPUT)),
		};
		for (size_t j = 0; j < sizeof(v) / sizeof(*v); j++)
			bad |= json_array_append_new(c, v[j]) < 0;
		if (!bad)
			trim(c);
	}
	if (bad) {
		json_decref(c);
		return NULL;
	}
	return c;
}

static int set_str(json_t *o, const char *key, json_t *v)
{
	if (json_is_integer(v)) {
		json_decref(v);
		return 0;
	}
	return json_object_set_new(o, key, v);
}

static json_t *sub_entry(const struct page *pg, json_t *ks, const json_t *sub)
{
	const json_t *build = json_object_get(sub, RK_BUILD), *k;
	int failed = str_is(get_str(build, RK_BUILD_STATUS), RK_BUILD_FAILED);
	json_t *e = json_object(), *cs = json_array();
	int bad = !e || !cs;
	size_t i;

	json_array_foreach(json_object_get(sub, RK_CASES), i, k)
		bad = bad || json_array_append_new(cs, case_entry(pg, ks, k, i)) < 0;
	if (bad)
		json_decref(cs);
	else
		bad = json_object_set_new(e, "c", cs) < 0;   /* takes cs */
	bad = bad || set_str(e, "e", str_or_null(get_str(sub, RK_ERROR))) < 0 ||
	      set_str(e, "r", str_or_null(get_str(build, RK_BUILD_REASON))) < 0 ||
	      set_str(e, "l", text_of(pg, json_object_get(build, RK_BUILD_LOG), 0,
				      COMPACT_LOG_BYTES, 1)) < 0;
	if (!bad && failed)
		bad = json_object_set_new(e, "lo", json_integer(1)) < 0 ||
		      json_object_set_new(e, "ce", json_string(pg->student ?
					  REPORT_CE_LINE : REPORT_CE_LINE_STAFF)) < 0;
	if (bad) {
		json_decref(e);
		return NULL;
	}
	return e;
}

/* Text for an element's content: & < > as entities, the rest as it is
 * (the JSON is ASCII: JSON_ENSURE_ASCII). */
static void text_escape(FILE *f, const char *s)
{
	for (size_t n; *s; s += n) {
		n = strcspn(s, "&<>");
		fwrite(s, 1, n, f);
		if (!s[n])
			break;
		fputs(s[n] == '&' ? "&amp;" : s[n] == '<' ? "&lt;" : "&gt;", f);
		n++;
	}
}

/* The dump of v, escaped for the <pre>: 0, or -1 when out of memory. */
static int put_json(FILE *f, const json_t *v)
{
	char *text = json_dumps(v, JSON_COMPACT | JSON_ENSURE_ASCII |
			       JSON_REAL_PRECISION(10));

	if (!text)
		return -1;
	text_escape(f, text);
	free(text);
	return 0;
}

/* Every case of every submission into ks, in the page's order: the
 * indexes sub_entry then finds are the ones the "k" list already holds,
 * so that it can be written first. 0, or -1 when out of memory. */
static int index_cases(const struct page *pg, json_t *ks)
{
	for (size_t i = 0; i < pg->rows->n; i++) {
		json_t *sub = htmlp_sub(pg, i);
		const json_t *k;
		size_t j;
		int bad = !sub;

		json_array_foreach(json_object_get(sub, RK_CASES), j, k)
			bad = bad || case_index(ks, k, j) < 0;
		json_decref(sub);
		if (bad)
			return -1;
	}
	return 0;
}

/* The value is written a submission at a time, as json_dumps would write
 * it whole ({"k":...,"s":[...],"x":N}): a class of any size is never
 * whole in memory (html.h's struct html_rows). */
int htmlp_write_data(const struct page *pg)
{
	json_t *ks = json_array();
	int bad = !ks || index_cases(pg, ks) < 0;

	if (!bad) {
		fputs("<pre id=\"wg-data\" hidden>{\"k\":", pg->f);
		bad = put_json(pg->f, ks) < 0;
		fputs(",\"s\":[", pg->f);
	}
	for (size_t i = 0; !bad && i < pg->rows->n; i++) {
		json_t *sub = htmlp_sub(pg, i);
		json_t *e = sub ? sub_entry(pg, ks, sub) : NULL;

		if (i)
			fputc(',', pg->f);
		bad = !e || put_json(pg->f, e) < 0;
		json_decref(e);
		json_decref(sub);
	}
	if (!bad)
		fprintf(pg->f, "],\"x\":%d}</pre>\n", pg->compact);
	json_decref(ks);
	return bad ? -1 : 0;
}
