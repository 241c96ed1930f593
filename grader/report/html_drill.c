/*
 * html_drill: the drill-downs' data block. Every submission's cases go
 * into one compact JSON value, written as the text of <pre id="wg-data"
 * hidden> (never inside <script>: html.c's page script is the page's only
 * script and holds no report byte); the script builds a student's
 * drill-down from it, with text nodes only, when the drill-down is
 * opened. A class of 1,000 thus loads as a table of 1,000 rows, not one
 * of 91,000, and its data block holds what failed, not every case.
 *
 * The value: {"n": N, "s": SUBS, "k": CASES, "t": TEXTS, "x": 0/1, "h": 1},
 * written a submission at a time (htmlp_write_data).
 *   CASES  each distinct case once, [name, category, hidden (0/1), points];
 *   N      the usual list of cases: CASES[0..N-1] in order (the first
 *          graded submission's);
 *   TEXTS  every text of the block once (details, diffs, outputs, stderr
 *          tails, limits, errors, compiler messages...), TEXTS[0] = "":
 *          a text is its index here, 0 when there is none;
 *   SUBS   one entry per submission, in the table's order (its
 *          data-index): {"i": [CASES index...] when its cases are not the
 *          usual list (an ungraded one: []), "c": [CASE...], "e": error,
 *          "r": build reason, "l": compiler messages, "ce": the
 *          did-not-compile line}, keys absent when empty (texts as TEXTS
 *          indexes);
 *   "x": 1 a compact page (below); "h": 1 the student view (a hidden
 *          case shows its verdict only).
 * A CASE is [p, verdict, limit, score, cpu_ms, wall_ms, max_rss_kb,
 * detail, diff, output_head, stderr_tail, stop_line, stop_input], p its
 * position in the submission's list of cases, trailing empty texts left
 * out; verdict is an index into html_int.h's verdicts (or the report's
 * word when not in it); numbers are integers when whole. In the student
 * view a hidden case is [p, verdict] and nothing else.
 *
 * A compact page (a class's report.html: html_class_set_compact) leaves
 * out every case that passed whole (AC, all its points, no text): the
 * script shows it as AC with its points, and no times. It also keeps
 * only the first difference of each diff, the last lines of each stderr
 * tail and the first lines of the compiler's messages, "..." marking the
 * cut; the script says in each drill-down where the whole is (the
 * student's JSON report, page and log). So a student costs the block
 * bytes for the cases they failed only, and a text shared by many (the
 * same compiler message, the same wrong line) is there once.
 */
#include "grader/report/html_int.h"

#include <stdlib.h>
#include <string.h>

#include "grader/lib/escape.h"
#include "grader/report/report.h"
#include "grader/report/report_read.h"

/* A JSON string of s (len bytes, NULs included) that jansson will dump:
 * what is not UTF-8, control bytes but tab and newline, and U+FFFE and
 * U+FFFF become U+FFFD, one per bad byte, as escape_html() does in the
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
		} else if (!ctl && (k = escape_utf8_len(p + i, len - i)) &&
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

/* What the block is made of while it is written: the tables that
 * entries point into. */
struct block {
	const struct page *pg;
	json_t *ks;          /* CASES */
	json_t *ts;          /* TEXTS */
	json_t *tindex;      /* each text of ts -> its index */
	size_t usual;        /* N: CASES[0..usual-1] */
};

/* A number as the page writes it: an integer when whole (2, not 2.0).
 * A new reference; NULL only when out of memory. */
static json_t *number(double v)
{
	if (v > -9e15 && v < 9e15 && v == (double)(json_int_t)v)
		return json_integer((json_int_t)v);
	return json_real(v);
}

/* The index of text s in b's TEXTS, added when new; 0 for no text (s an
 * integer: text_of's "none"); -1 when out of memory. Takes s. Cleaned
 * texts hold no NUL byte, so a text is its own key. */
static json_int_t text_id(struct block *b, json_t *s)
{
	const json_t *have;
	json_int_t id;

	if (!s)
		return -1;
	if (!json_is_string(s) || !json_string_length(s)) {
		json_decref(s);
		return 0;
	}
	if ((have = json_object_get(b->tindex, json_string_value(s)))) {
		json_decref(s);
		return json_integer_value(have);
	}
	id = (json_int_t)json_array_size(b->ts);
	if (json_object_set_new_nocheck(b->tindex, json_string_value(s),
					json_integer(id)) < 0) {
		json_decref(s);
		return -1;
	}
	return json_array_append_new(b->ts, s) < 0 ? -1 : id;   /* takes s */
}

/* text_id as a new JSON integer; NULL when out of memory. */
static json_t *text_ref(struct block *b, json_t *s)
{
	json_int_t id = text_id(b, s);

	return id < 0 ? NULL : json_integer(id);
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
	if (json_array_append_new(ks, json_pack("[o,o,i,o]",
			clean(name ? name : "", name ? strlen(name) : 0),
			clean(cat ? cat : "", cat ? strlen(cat) : 0), hidden,
			number(pts))) < 0)
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

/* Whether entry c (trimmed) of case k says no more than "AC, all its
 * points": on a compact page it is left out, the script shows it so. */
static int passed_whole(const struct block *b, const json_t *c, const json_t *k)
{
	size_t n = json_array_size(c);

	if (!b->pg->compact || json_integer_value(json_array_get(c, 1)) != 0 ||
	    !json_is_integer(json_array_get(c, 1)))
		return 0;
	if (n == 2)         /* a hidden case in the student view */
		return 1;
	return n <= 7 && json_integer_value(json_array_get(c, 2)) == 0 &&
	       json_number_value(json_array_get(c, 3)) == get_num(k, RK_MAX_SCORE);
}

/* Case k, at position p of its submission: its entry, or a JSON null when
 * a compact page leaves it out; NULL when out of memory. */
static json_t *case_entry(struct block *b, const json_t *k, size_t p)
{
	json_t *c = json_array();
	int bad = !c;
	const json_t *stop = json_object_get(k, RK_STOP_LINE);

	bad = bad || json_array_append_new(c, json_integer((json_int_t)p)) < 0 ||
	      json_array_append_new(c, verdict_value(get_str(k, RK_VERDICT))) < 0;
	if (!bad && !secret(b->pg, k)) {
		const struct page *pg = b->pg;
		json_t *v[] = {
			text_ref(b, str_or_null(get_str(k, RK_LIMIT))),
			number(get_num(k, RK_SCORE)),
			json_integer(report_int(k, RK_CPU_MS)),
			json_integer(report_int(k, RK_WALL_MS)),
			json_integer(report_int(k, RK_MAX_RSS_KB)),
			text_ref(b, str_or_null(get_str(k, RK_DETAIL))),
			text_ref(b, text_of(pg, json_object_get(k, RK_DIFF), 1, 0, 0)),
			text_ref(b, text_of(pg, json_object_get(k, RK_OUTPUT_HEAD), 0,
					    ~(size_t)0, 1)),
			text_ref(b, text_of(pg, json_object_get(k, RK_STDERR_TAIL), 0,
					    COMPACT_TAIL_BYTES, 0)),
			json_integer(stop ? json_integer_value(stop) : 0),
			text_ref(b, str_or_null(get_str(k, RK_STOP_INPUT))),
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
	if (passed_whole(b, c, k)) {
		json_decref(c);
		return json_null();
	}
	return c;
}

/* Sets o's key to text s's index, unless it has none. Takes s. */
static int set_text(struct block *b, json_t *o, const char *key, json_t *s)
{
	json_int_t id = text_id(b, s);

	if (id <= 0)
		return (int)id;
	return json_object_set_new(o, key, json_integer(id));
}

/* The usual list of cases: the first submission's that has any, put
 * first in CASES. 0, or -1 when out of memory or a submission could not
 * be read. */
static int find_usual(struct block *b)
{
	for (size_t i = 0; i < b->pg->rows->n; i++) {
		json_t *sub = htmlp_sub(b->pg, i);
		const json_t *cases = json_object_get(sub, RK_CASES), *k;
		size_t j;
		int bad = !sub;

		if (!bad && json_array_size(cases)) {
			json_array_foreach(cases, j, k)
				bad = bad || case_index(b->ks, k, j) < 0;
			b->usual = json_array_size(b->ks);
			json_decref(sub);
			return bad ? -1 : 0;
		}
		json_decref(sub);
		if (bad)
			return -1;
	}
	return 0;
}

/* Whether ids is 0, 1, ... N-1, the usual list. */
static int usual_list(const struct block *b, const json_t *ids)
{
	size_t n = json_array_size(ids);

	if (n != b->usual)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (json_integer_value(json_array_get(ids, i)) != (json_int_t)i)
			return 0;
	return 1;
}

/* sub's cases: into e's "c" those the page keeps, and its list of cases
 * as "i" when not the usual one. 0, or -1 when out of memory. */
static int sub_cases(struct block *b, json_t *e, const json_t *sub)
{
	const json_t *cases = json_object_get(sub, RK_CASES), *k;
	json_t *cs = json_array(), *ids = json_array();
	int bad = !cs || !ids;
	size_t i;

	json_array_foreach(cases, i, k) {
		json_int_t ki = bad ? -1 : case_index(b->ks, k, i);
		json_t *c = ki < 0 ? NULL : case_entry(b, k, i);

		bad = bad || !c || json_array_append_new(ids, json_integer(ki)) < 0;
		if (!bad && !json_is_null(c))
			bad = json_array_append(cs, c) < 0;
		json_decref(c);
	}
	if (!bad && !usual_list(b, ids))
		bad = json_object_set(e, "i", ids) < 0;
	if (!bad && json_array_size(cs))
		bad = json_object_set(e, "c", cs) < 0;
	json_decref(ids);
	json_decref(cs);
	return bad ? -1 : 0;
}

static json_t *sub_entry(struct block *b, const json_t *sub)
{
	const struct page *pg = b->pg;
	const json_t *build = json_object_get(sub, RK_BUILD);
	int failed = str_is(get_str(build, RK_BUILD_STATUS), RK_BUILD_FAILED);
	json_t *e = json_object();
	int bad = !e;

	bad = bad || sub_cases(b, e, sub) < 0 ||
	      set_text(b, e, "e", str_or_null(get_str(sub, RK_ERROR))) < 0 ||
	      set_text(b, e, "r", str_or_null(get_str(build, RK_BUILD_REASON))) < 0 ||
	      set_text(b, e, "l", text_of(pg, json_object_get(build, RK_BUILD_LOG), 0,
					  COMPACT_LOG_BYTES, 1)) < 0;
	if (!bad && failed)
		bad = set_text(b, e, "ce", json_string(pg->student ?
			       REPORT_CE_LINE : REPORT_CE_LINE_STAFF)) < 0;
	if (bad) {
		json_decref(e);
		return NULL;
	}
	return e;
}

/* json_dump_callback's writer: the JSON (ASCII: JSON_ENSURE_ASCII) as
 * an element's text, & < > as entities. data: the FILE. */
static int text_escape(const char *s, size_t len, void *data)
{
	FILE *f = data;

	for (size_t n; len; s += n, len -= n) {
		for (n = 0; n < len && !strchr("&<>", s[n]); n++)
			;
		fwrite(s, 1, n, f);
		if (n == len)
			break;
		fputs(s[n] == '&' ? "&amp;" : s[n] == '<' ? "&lt;" : "&gt;", f);
		n++;
	}
	return 0;
}

/* The dump of v, escaped for the <pre> on the way: no copy of the
 * whole. Six digits, as the rest of the page writes numbers (%g). 0, or
 * -1 when out of memory. */
static int put_json(FILE *f, const json_t *v)
{
	return json_dump_callback(v, text_escape, f, JSON_COMPACT |
				  JSON_ENSURE_ASCII | JSON_REAL_PRECISION(6)) < 0 ? -1 : 0;
}

/* Written a submission at a time (html.h's struct html_rows: a class of
 * any size is never whole in memory): the submissions first, then the
 * tables they point into, which only the class's distinct cases and
 * texts make grow. A failed write (out of memory, a row unreadable) may
 * leave part of the block: the page is incomplete then anyway
 * (html_write fails). */
int htmlp_write_data(const struct page *pg)
{
	struct block b = {
		.pg = pg, .ks = json_array(), .ts = json_array(),
		.tindex = json_object(),
	};
	int bad = !b.ks || !b.ts || !b.tindex;

	/* TEXTS[0] is "", so that 0 is no text. */
	bad = bad || json_array_append_new(b.ts, json_string("")) < 0 ||
	      find_usual(&b) < 0;
	if (!bad)
		fprintf(pg->f, "<pre id=\"wg-data\" hidden>{\"n\":%zu,\"s\":[", b.usual);
	for (size_t i = 0; !bad && i < pg->rows->n; i++) {
		json_t *sub = htmlp_sub(pg, i);
		json_t *e = sub ? sub_entry(&b, sub) : NULL;

		if (i)
			fputc(',', pg->f);
		bad = !e || put_json(pg->f, e) < 0;
		json_decref(e);
		json_decref(sub);
	}
	if (!bad) {
		fputs("],\"k\":", pg->f);
		bad = put_json(pg->f, b.ks) < 0;
	}
	if (!bad) {
		fputs(",\"t\":", pg->f);
		bad = put_json(pg->f, b.ts) < 0;
	}
	if (!bad)
		fprintf(pg->f, ",\"x\":%d%s}</pre>\n", pg->compact,
			pg->student ? ",\"h\":1" : "");
	json_decref(b.ks);
	json_decref(b.ts);
	json_decref(b.tindex);
	return bad ? -1 : 0;
}
