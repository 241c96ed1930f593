/* sim_report: see sim_report.h. */
#include "grader/similarity/sim_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grader/lib/strbuf.h"

static int oom(struct strbuf *err)
{
	strbuf_addstr(err, "out of memory");
	return -1;
}

static double round4(double v)
{
	return round(v * 10000.0) / 10000.0;
}

/* Lines from..to (1-based, inclusive) of text: a new string. */
static json_t *lines_of(const struct sim_file *f, uint32_t from, uint32_t to)
{
	const char *p = f->text, *end = f->text + f->len, *start = NULL;
	uint32_t line = 1;

	if (to > from + SIM_REGION_LINES - 1)
		to = from + SIM_REGION_LINES - 1;
	while (p < end && line < from) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		p = nl ? nl + 1 : end;
		line++;
	}
	start = p;
	while (p < end && line <= to) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		p = nl ? nl + 1 : end;
		line++;
	}
	/* The text is valid UTF-8 (sim_source.h) and cut at line ends. */
	return json_stringn(start, (size_t)(p - start));
}

static json_t *region_json(const struct sim_detail *a, const struct sim_detail *b,
			   const struct sim_region *g)
{
	const struct sim_file *fa = &a->src.files[g->a_file];
	const struct sim_file *fb = &b->src.files[g->b_file];

	return json_pack("{s:s, s:I, s:I, s:o, s:s, s:I, s:I, s:o, s:I}",
			 "a_file", fa->name, "a_from", (json_int_t)g->a_from,
			 "a_to", (json_int_t)g->a_to,
			 "a_text", lines_of(fa, g->a_from, g->a_to),
			 "b_file", fb->name, "b_from", (json_int_t)g->b_from,
			 "b_to", (json_int_t)g->b_to,
			 "b_text", lines_of(fb, g->b_from, g->b_to),
			 "tokens", (json_int_t)g->tokens);
}

/* The pair's regions, from its two submissions' details (the spool). */
static int add_regions(const struct sim_class *c, const struct sim_pair *p,
		       json_t *pj, struct strbuf *err)
{
	struct sim_detail da, db;
	struct sim_region *g = NULL;
	size_t n = 0;
	json_t *arr = NULL;
	int rc = -1;

	if (sim_class_detail(c, p->a, &da, err) == 0 &&
	    sim_class_detail(c, p->b, &db, err) == 0 &&
	    sim_pair_regions(c, &da, &db, &g, &n, err) == 0) {
		arr = json_array();
		for (size_t i = 0; arr && i < n; i++)
			if (json_array_append_new(arr, region_json(&da, &db, &g[i])))
				json_decref(arr), arr = NULL;
		if (!arr || json_object_set_new(pj, SK_REGIONS, arr))
			oom(err);
		else
			rc = 0;
	}
	free(g);
	sim_detail_release(&da);
	sim_detail_release(&db);
	return rc;
}

static json_t *pairs_json(const struct sim_class *c, const struct sim_result *r,
			  const struct sim_report_opts *o, struct strbuf *err)
{
	json_t *arr = json_array();
	size_t detail = 0;

	for (size_t i = 0; arr && i < r->npairs; i++) {
		const struct sim_pair *p = &r->pairs[i];
		const struct sim_sub *a = &c->subs[p->a], *b = &c->subs[p->b];
		/* a before b by name: the same pair reads the same in every run. */
		int swap = strcmp(a->name, b->name) > 0;
		json_t *pj;

		if (p->score < o->min_score || i >= SIM_MAX_PAIRS)
			break;
		pj = json_pack("{s:s, s:s, s:f, s:I, s:I, s:I}",
			       SK_A, swap ? b->name : a->name,
			       SK_B, swap ? a->name : b->name,
			       SK_SCORE, round4(p->score), SK_SHARED, (json_int_t)p->shared,
			       "a_fingerprints", (json_int_t)(swap ? b : a)->nkeep,
			       "b_fingerprints", (json_int_t)(swap ? a : b)->nkeep);
		if (!pj || json_array_append_new(arr, pj)) {
			json_decref(arr);
			oom(err);
			return NULL;
		}
		if (p->score >= o->threshold && detail++ < SIM_DETAIL_PAIRS) {
			struct sim_pair q = { swap ? p->b : p->a, swap ? p->a : p->b,
					      p->shared, p->score };

			if (add_regions(c, &q, pj, err) < 0) {
				json_decref(arr);
				return NULL;
			}
		}
	}
	if (!arr)
		oom(err);
	return arr;
}

static json_t *histogram_json(const struct sim_result *r)
{
	json_t *arr = json_array();

	for (int i = 0; arr && i < SIM_HIST_BINS; i++)
		if (json_array_append_new(arr, json_pack("{s:f, s:f, s:I}", "from",
				(double)i / SIM_HIST_BINS, "to",
				(double)(i + 1) / SIM_HIST_BINS, "count",
				(json_int_t)r->hist[i])))
			json_decref(arr), arr = NULL;
	return arr;
}

/* The clusters sim_class_compare found, each with its students in
 * order of name. */
static json_t *clusters_json(const struct sim_class *c, const struct sim_result *r)
{
	json_t *arr = json_array();

	for (size_t i = 0; arr && i < r->nclusters; i++) {
		json_t *names = json_array();

		for (size_t k = 0; names && k < c->n; k++)
			if (r->cluster[k] == i &&
			    json_array_append_new(names, json_string(c->subs[k].name)))
				json_decref(names), names = NULL;
		if (!names || json_array_append_new(arr, json_pack("{s:o, s:f}",
				SK_STUDENTS, names, "max_score", round4(r->cluster_max[i]))))
			json_decref(arr), arr = NULL;
	}
	return arr;
}

struct sim_select sim_report_select(const struct sim_report_opts *o)
{
	return (struct sim_select){ o->min_score, o->threshold, SIM_MAX_PAIRS };
}

json_t *sim_report_json(const struct sim_class *c, const struct sim_result *r,
			const struct sim_report_opts *o, const json_t *skipped,
			struct strbuf *err)
{
	json_t *base = json_array(), *rec;

	for (size_t i = 0; base && i < c->base.n; i++)
		if (json_array_append_new(base, json_string(c->base.files[i].name)))
			json_decref(base), base = NULL;
	rec = json_pack("{s:i, s:I, s:I, s:I, s:f, s:I, s:I, s:o, s:f, s:f, s:I, "
			"s:I, s:o, s:o, s:o, s:o}",
			"version", 1, SK_STUDENTS, (json_int_t)c->n,
			"k", (json_int_t)c->opts.k, "window", (json_int_t)c->opts.w,
			"max_share", c->opts.max_share,
			"idiom_limit", (json_int_t)c->idiom_limit,
			"idioms", (json_int_t)c->idioms,
			"base_files", base,
			"min_score", o->min_score, SK_THRESHOLD, o->threshold,
			"all_pairs", (json_int_t)r->all_pairs,
			"pairs_above_min", (json_int_t)r->above,
			SK_HISTOGRAM, histogram_json(r),
			SK_PAIRS, pairs_json(c, r, o, err),
			SK_CLUSTERS, clusters_json(c, r),
			/* "o" takes a reference: the caller's list gets one more,
			 * a new empty one is the record's alone ("O" leaked it). */
			SK_SKIPPED, skipped ? json_incref((json_t *)skipped) : json_array());
	if (!rec && !err->len)
		oom(err);
	return rec;
}

/* Control characters out of a name printed on a terminal. */
static void put_name(FILE *f, const char *s)
{
	for (; s && *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, f);
}

void sim_report_print(FILE *f, const json_t *rec, size_t top)
{
	const json_t *pairs = json_object_get(rec, SK_PAIRS), *p;
	size_t i;

	fprintf(f, "similarity: %lld students, %zu pair%s listed",
		(long long)json_integer_value(json_object_get(rec, SK_STUDENTS)),
		json_array_size(pairs), json_array_size(pairs) == 1 ? "" : "s");
	if (json_array_size(pairs))
		fprintf(f, "; the top %zu:", json_array_size(pairs) < top
			? json_array_size(pairs) : top);
	fputc('\n', f);
	json_array_foreach(pairs, i, p) {
		if (i >= top)
			break;
		fprintf(f, "  %.3f  ", json_real_value(json_object_get(p, SK_SCORE)));
		put_name(f, json_string_value(json_object_get(p, SK_A)));
		fputs("  ", f);
		put_name(f, json_string_value(json_object_get(p, SK_B)));
		fputc('\n', f);
	}
}

/* ---- sources, for a merge ---- */

static json_t *files_json(const struct sim_source *s)
{
	json_t *arr = json_array();

	for (size_t i = 0; arr && i < s->n; i++)
		if (json_array_append_new(arr, json_pack("{s:s, s:s%}", "name",
				s->files[i].name, "text", s->files[i].text,
				s->files[i].len)))
			json_decref(arr), arr = NULL;
	return arr;
}

/* v dumped as it would be at depth levels of an indented record: every
 * line after the first indented by levels * 2 more spaces (a JSON string
 * holds no newline of its own: it is escaped). */
static int put_nested(FILE *f, const json_t *v, int levels)
{
	char *text = v ? json_dumps(v, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
				     JSON_ENCODE_ANY) : NULL;
	int rc = text ? 0 : -1;

	for (const char *p = text; rc == 0 && *p; p++)
		if (fputc(*p, f) == EOF ||
		    (*p == '\n' && fprintf(f, "%*s", 2 * levels, "") < 0))
			rc = -1;
	free(text);
	return rc;
}

int sim_report_put_sources(FILE *f, const struct sim_class *c, struct strbuf *err)
{
	json_t *v = json_string(""), *files;
	int rc = 0;

	/* What json_dumpf(record, JSON_INDENT(2) | JSON_PRESERVE_ORDER)
	 * writes, one student at a time: a shard's sources are never all in
	 * memory. */
	fputs("{\n  \"version\": 1,\n  \"base\": ", f);
	files = files_json(&c->base);
	rc = put_nested(f, files, 1);
	json_decref(files);
	fputs(",\n  \"students\": {", f);
	for (size_t i = 0; rc == 0 && v && i < c->n; i++) {
		struct sim_detail d;

		rc = sim_class_detail(c, (uint32_t)i, &d, err);
		files = rc == 0 ? files_json(&d.src) : NULL;
		sim_detail_release(&d);
		if (rc < 0)
			break;
		fputs(i ? ",\n    " : "\n    ", f);
		/* The name as jansson writes a key. */
		if (json_string_set(v, c->subs[i].name) < 0 || put_nested(f, v, 0) < 0)
			rc = -1;
		fputs(": ", f);
		if (rc == 0)
			rc = put_nested(f, files, 2);
		json_decref(files);
	}
	fputs(c->n ? "\n  }\n}" : "}\n}", f);
	json_decref(v);
	if (rc == 0 && !v)
		rc = -1;
	if (rc < 0 && !err->len)
		oom(err);
	return rc;
}

static int files_from(const json_t *arr, struct sim_source *s, struct strbuf *err)
{
	size_t i;
	const json_t *f;

	if (!json_is_array(arr)) {
		strbuf_addstr(err, "a file list is not an array");
		return -1;
	}
	json_array_foreach(arr, i, f) {
		const json_t *name = json_object_get(f, "name");
		const json_t *text = json_object_get(f, "text");

		if (!json_is_string(name) || !json_is_string(text)) {
			strbuf_addstr(err, "a file without a \"name\" and a \"text\"");
			return -1;
		}
		if (sim_source_add(s, json_string_value(name), json_string_value(text),
				   json_string_length(text), err) < 0)
			return -1;
	}
	return 0;
}

static int known(const struct sim_class *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->subs[i].name, name))
			return 1;
	return 0;
}

int sim_report_load_sources(struct sim_class *c, const json_t *rec,
			    int with_base, size_t *dup, struct strbuf *err)
{
	const json_t *subs = json_object_get(rec, SK_STUDENTS), *files;
	const char *name;
	struct sim_source s = { NULL, 0 };

	if (json_integer_value(json_object_get(rec, "version")) != 1 ||
	    !json_is_object(subs)) {
		strbuf_addstr(err, "not a similarity sources record of version 1");
		return -1;
	}
	if (with_base) {
		if (files_from(json_object_get(rec, "base"), &s, err) < 0 ||
		    sim_class_add_base(c, &s, err) < 0) {
			sim_source_release(&s);
			return -1;
		}
	}
	json_object_foreach((json_t *)subs, name, files) {
		if (known(c, name)) {
			(*dup)++;
			continue;
		}
		if (files_from(files, &s, err) < 0 || sim_class_add(c, name, &s, err) < 0) {
			sim_source_release(&s);
			return -1;
		}
	}
	return 0;
}
