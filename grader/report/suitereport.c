/*
 * suitereport: the kill matrix of wrong solutions against a suite, and
 * what it says about the suite (suitereport.h).
 *
 * Theory of operation. suitereport_json counts, in one pass over the
 * matrix, each solution's killing cases and each case's kills, then
 * derives everything else from those counts and the matrix: a solution
 * killed only by case c adds to c's "sole_kills"; a category "catches" a
 * solution one of its cases kills, and catches it "alone" when no case of
 * another category does. The JSON object is the report; suitereport_print
 * only reads it back, so the text never says something the JSON does not.
 */
#include "grader/report/suitereport.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grader/report/keys.h"

#define MAX_INDEX_BYTES (4u << 20)

int suitereport_kills(const char *verdict)
{
	return strcmp(verdict, "AC") && strcmp(verdict, "IE") && strcmp(verdict, "CE");
}

/* The matrix's character for a verdict. */
static char mark(const char *verdict)
{
	return suitereport_kills(verdict) ? 'X' : !strcmp(verdict, "IE") ? '?'
	       : !strcmp(verdict, "CE") ? 'C' : '.';
}

static const char *verdict_at(const struct suitereport_matrix *m, size_t s, size_t c)
{
	return m->verdicts[s * m->ncases + c];
}

/* Appends v to arr, or to obj under key; steals v; 0 or -1 (out of
 * memory, v released). */
static int push(json_t *arr, json_t *v)
{
	return v ? json_array_append_new(arr, v) : -1;
}

static int put(json_t *obj, const char *key, json_t *v)
{
	return v ? json_object_set_new(obj, key, v) : -1;
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static int check_matrix(const struct suitereport_matrix *m, struct strbuf *err)
{
	if ((m->nsols && (!m->sols || !m->verdicts)) || (m->ncases && (!m->cases || !m->categories))) {
		strbuf_addstr(err, "suite report: a kill matrix without its names");
		return -1;
	}
	for (size_t c = 0; c < m->ncases; c++)
		if (!m->cases[c] || !m->categories[c]) {
			strbuf_addf(err, "suite report: case %zu has no name or category", c);
			return -1;
		}
	for (size_t s = 0; s < m->nsols; s++) {
		if (!m->sols[s]) {
			strbuf_addf(err, "suite report: solution %zu has no name", s);
			return -1;
		}
		for (size_t c = 0; c < m->ncases; c++)
			if (!verdict_at(m, s, c)) {
				strbuf_addf(err, "suite report: no verdict for '%s' on '%s'",
					    m->sols[s], m->cases[c]);
				return -1;
			}
	}
	return 0;
}

/* The distinct categories in order of first appearance: cat_of[c] is case
 * c's index into *names (borrowed strings). Returns their number, or -1. */
static long categories_of(const struct suitereport_matrix *m, size_t *cat_of,
			  const char ***names)
{
	size_t n = 0;

	if (!(*names = calloc(m->ncases ? m->ncases : 1, sizeof(**names))))
		return -1;
	for (size_t c = 0; c < m->ncases; c++) {
		size_t k = 0;
		while (k < n && strcmp((*names)[k], m->categories[c]))
			k++;
		if (k == n)
			(*names)[n++] = m->categories[c];
		cat_of[c] = k;
	}
	return (long)n;
}

struct counts {
	size_t *sol_kills;    /* per solution: killing cases */
	size_t *case_kills;   /* per case: solutions killed */
	size_t *sole;         /* per case: solutions only it kills */
	size_t *first_killer; /* per solution: its first killing case */
	unsigned char *unbuilt; /* per solution: a CE (its build failed) */
	size_t *cat_of;       /* per case: its category's index */
	const char **cats;    /* the categories (borrowed) */
	size_t ncats;
	size_t errors, nbuilt, min_kills, max_kills;
};

static void counts_release(struct counts *k)
{
	free(k->sol_kills);
	free(k->case_kills);
	free(k->sole);
	free(k->first_killer);
	free(k->unbuilt);
	free(k->cat_of);
	free(k->cats);
}

static int count(const struct suitereport_matrix *m, struct counts *k)
{
	size_t ns = m->nsols ? m->nsols : 1, nc = m->ncases ? m->ncases : 1;
	long ncats;

	memset(k, 0, sizeof(*k));
	k->sol_kills = calloc(ns, sizeof(size_t));
	k->first_killer = calloc(ns, sizeof(size_t));
	k->unbuilt = calloc(ns, 1);
	k->case_kills = calloc(nc, sizeof(size_t));
	k->sole = calloc(nc, sizeof(size_t));
	k->cat_of = calloc(nc, sizeof(size_t));
	if (!k->sol_kills || !k->first_killer || !k->unbuilt || !k->case_kills || !k->sole || !k->cat_of)
		return -1;
	if ((ncats = categories_of(m, k->cat_of, &k->cats)) < 0)
		return -1;
	k->ncats = (size_t)ncats;
	k->min_kills = m->ncases;
	for (size_t s = 0; s < m->nsols; s++) {
		for (size_t c = 0; c < m->ncases; c++) {
			const char *v = verdict_at(m, s, c);
			if (!strcmp(v, "IE"))
				k->errors++;
			k->unbuilt[s] |= !strcmp(v, "CE");
			if (!suitereport_kills(v))
				continue;
			if (!k->sol_kills[s]++)
				k->first_killer[s] = c;
			k->case_kills[c]++;
		}
		if (k->sol_kills[s] == 1)
			k->sole[k->first_killer[s]]++;
		if (k->unbuilt[s])
			continue;
		k->nbuilt++;
		if (k->sol_kills[s] < k->min_kills)
			k->min_kills = k->sol_kills[s];
		if (k->sol_kills[s] > k->max_kills)
			k->max_kills = k->sol_kills[s];
	}
	if (!k->nbuilt)
		k->min_kills = 0;
	return 0;
}

/* Neither killed nor unbuilt. */
static int survives(const struct counts *k, size_t s)
{
	return !k->sol_kills[s] && !k->unbuilt[s];
}

static json_t *cases_json(const struct suitereport_matrix *m, const struct counts *k)
{
	json_t *arr = json_array();

	for (size_t c = 0; arr && c < m->ncases; c++)
		if (push(arr, json_pack("{s:s, s:s, s:I, s:I}", "name", m->cases[c],
					"category", m->categories[c],
					"kills", (json_int_t)k->case_kills[c],
					"sole_kills", (json_int_t)k->sole[c])) < 0) {
			json_decref(arr);
			return NULL;
		}
	return arr;
}

/* "solutions", "matrix", "survivors", "fragile" and "errors" into r. */
static int solutions_json(const struct suitereport_matrix *m, const struct counts *k,
			  json_t *r)
{
	json_t *sols = json_array(), *rows = json_array(), *surv = json_array();
	json_t *frag = json_array(), *errs = json_array(), *names = json_array();
	json_t *unbuilt = json_array();
	char *line = malloc(m->ncases + 1);
	int rc = -1;

	if (!sols || !rows || !surv || !frag || !errs || !names || !unbuilt || !line)
		goto out;
	for (size_t c = 0; c < m->ncases; c++)
		if (push(names, json_string(m->cases[c])) < 0)
			goto out;
	for (size_t s = 0; s < m->nsols; s++) {
		json_t *by = json_array(), *verdicts = json_array();
		if (push(rows, json_pack("{s:s, s:o*, s:o*}", "solution", m->sols[s],
					 "verdicts", verdicts, "kills", NULL)) < 0) {
			json_decref(by);
			goto out;
		}
		for (size_t c = 0; c < m->ncases; c++) {
			const char *v = verdict_at(m, s, c);
			line[c] = mark(v);
			if (push(verdicts, json_string(v)) < 0 ||
			    (line[c] == 'X' && push(by, json_string(m->cases[c])) < 0) ||
			    (line[c] == '?' && push(errs, json_pack("{s:s, s:s}", "solution",
					m->sols[s], "case", m->cases[c])) < 0)) {
				json_decref(by);
				goto out;
			}
		}
		line[m->ncases] = '\0';
		if (put(json_array_get(rows, s), "kills", json_string(line)) < 0) {
			json_decref(by);
			goto out;
		}
		if (push(sols, json_pack("{s:s, s:o, s:o, s:I, s:o*}", "name", m->sols[s],
					 "family", str_or_null(m->families ? m->families[s] : NULL),
					 "build", str_or_null(m->builds ? m->builds[s] : NULL),
					 "kills", (json_int_t)k->sol_kills[s], "killed_by", by)) < 0)
			goto out;
		if (survives(k, s) && push(surv, json_string(m->sols[s])) < 0)
			goto out;
		if (k->unbuilt[s] && push(unbuilt, json_string(m->sols[s])) < 0)
			goto out;
		if (k->sol_kills[s] == 1 &&
		    push(frag, json_pack("{s:s, s:s}", "solution", m->sols[s], "case",
					 m->cases[k->first_killer[s]])) < 0)
			goto out;
	}
	rc = put(r, "solutions", sols) | put(r, "matrix", json_pack("{s:O, s:O}", "cases",
		 names, "rows", rows)) | put(r, "survivors", surv) |
	     put(r, "fragile", frag) | put(r, "unbuilt", unbuilt) | put(r, "errors", errs);
	sols = surv = frag = errs = unbuilt = NULL;
out:
	json_decref(sols);
	json_decref(rows);
	json_decref(surv);
	json_decref(frag);
	json_decref(errs);
	json_decref(unbuilt);
	json_decref(names);
	free(line);
	return rc ? -1 : 0;
}

/* Per category: cases, distinct solutions caught, caught by it alone,
 * cases that kill nothing. */
static json_t *categories_json(const struct suitereport_matrix *m, const struct counts *k)
{
	json_t *arr = json_array();
	/* per solution: the category of its first kill, or -2 for kills in
	 * two categories or more, -1 for none */
	long *only = malloc((m->nsols ? m->nsols : 1) * sizeof(long));
	size_t *caught = calloc(k->ncats ? k->ncats : 1, sizeof(size_t));
	size_t *alone = calloc(k->ncats ? k->ncats : 1, sizeof(size_t));
	size_t *ncase = calloc(k->ncats ? k->ncats : 1, sizeof(size_t));
	size_t *idle = calloc(k->ncats ? k->ncats : 1, sizeof(size_t));
	unsigned char *seen = calloc(k->ncats ? k->ncats : 1, 1);

	if (!arr || !only || !caught || !alone || !ncase || !idle || !seen)
		goto fail;
	for (size_t c = 0; c < m->ncases; c++) {
		ncase[k->cat_of[c]]++;
		idle[k->cat_of[c]] += k->case_kills[c] == 0;
	}
	for (size_t s = 0; s < m->nsols; s++) {
		memset(seen, 0, k->ncats);
		only[s] = -1;
		for (size_t c = 0; c < m->ncases; c++) {
			size_t cat = k->cat_of[c];
			if (!suitereport_kills(verdict_at(m, s, c)) || seen[cat])
				continue;
			seen[cat] = 1;
			caught[cat]++;
			only[s] = only[s] == -1 ? (long)cat : -2;
		}
		if (only[s] >= 0)
			alone[only[s]]++;
	}
	for (size_t i = 0; i < k->ncats; i++)
		if (push(arr, json_pack("{s:s, s:I, s:I, s:I, s:I}", "category", k->cats[i],
					"cases", (json_int_t)ncase[i],
					"killed", (json_int_t)caught[i],
					"only", (json_int_t)alone[i],
					"redundant_cases", (json_int_t)idle[i])) < 0)
			goto fail;
	goto out;
fail:
	json_decref(arr);
	arr = NULL;
out:
	free(only);
	free(caught);
	free(alone);
	free(ncase);
	free(idle);
	free(seen);
	return arr;
}

static int same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Per family, in order of first appearance; [] without families. */
static json_t *families_json(const struct suitereport_matrix *m, const struct counts *k)
{
	json_t *arr = json_array();

	for (size_t s = 0; arr && m->families && s < m->nsols; s++) {
		const char *fam = m->families[s];
		size_t first = 0;
		while (!same(m->families[first], fam))
			first++;
		if (first < s)
			continue;
		size_t total = 0, killed = 0, fragile = 0, unbuilt = 0;
		json_t *surv = json_array();
		for (size_t t = s; surv && t < m->nsols; t++) {
			if (!same(m->families[t], fam))
				continue;
			total++;
			killed += k->sol_kills[t] > 0;
			fragile += k->sol_kills[t] == 1;
			unbuilt += k->unbuilt[t];
			if (survives(k, t) && push(surv, json_string(m->sols[t])) < 0) {
				json_decref(surv);
				surv = NULL;
			}
		}
		if (push(arr, json_pack("{s:o, s:I, s:I, s:I, s:I, s:o*}", "family",
					str_or_null(fam), "solutions", (json_int_t)total,
					"killed", (json_int_t)killed, "unbuilt", (json_int_t)unbuilt,
					"fragile", (json_int_t)fragile, "survivors", surv)) < 0) {
			json_decref(arr);
			arr = NULL;
		}
	}
	return arr;
}

static json_t *redundant_json(const struct suitereport_matrix *m, const struct counts *k)
{
	json_t *arr = json_array();

	for (size_t c = 0; arr && c < m->ncases; c++)
		if (!k->case_kills[c] && push(arr, json_string(m->cases[c])) < 0) {
			json_decref(arr);
			arr = NULL;
		}
	return arr;
}

json_t *suitereport_json(const struct suitereport_matrix *m, struct strbuf *err)
{
	struct counts k;
	json_t *r = NULL, *redundant = NULL;
	size_t nsurv = 0, nfrag = 0, nkilled = 0;

	if (check_matrix(m, err) < 0)
		return NULL;
	if (count(m, &k) < 0)
		goto oom;
	for (size_t s = 0; s < m->nsols; s++) {
		nsurv += survives(&k, s);
		nkilled += k.sol_kills[s] > 0;
		nfrag += k.sol_kills[s] == 1;
	}
	if (!(r = json_pack("{s:s, s:n, s:n, s:n}", "schema", SUITEREPORT_SCHEMA,
			    "suite", "suite_dir", "wrong_dir")) ||
	    !(redundant = redundant_json(m, &k)) ||
	    put(r, "summary", json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
		"solutions", (json_int_t)m->nsols, "cases", (json_int_t)m->ncases,
		"killed", (json_int_t)nkilled,
		"unbuilt", (json_int_t)(m->nsols - k.nbuilt),
		"survivors", (json_int_t)nsurv, "fragile", (json_int_t)nfrag,
		"redundant_cases", (json_int_t)json_array_size(redundant),
		"errors", (json_int_t)k.errors, "min_kills", (json_int_t)k.min_kills,
		"max_kills", (json_int_t)k.max_kills)) < 0 ||
	    put(r, "cases", cases_json(m, &k)) < 0 ||
	    solutions_json(m, &k, r) < 0 ||
	    json_object_set(r, "redundant", redundant) < 0 ||
	    put(r, "categories", categories_json(m, &k)) < 0 ||
	    put(r, "families", families_json(m, &k)) < 0)
		goto oom;
	json_decref(redundant);
	counts_release(&k);
	return r;
oom:
	json_decref(redundant);
	json_decref(r);
	counts_release(&k);
	strbuf_addstr(err, "suite report: out of memory");
	return NULL;
}

/* ---- from grade's JSON report ---- */

/* A submission's name: its path's last component, or the folder's when
 * that is main.c ("tests/wrong/x/" and "tests/wrong/x/main.c" are "x").
 * Written into buf. */
static const char *solution_name(const char *path, char *buf, size_t len)
{
	size_t n = strlen(path), end, start;

	while (n > 1 && path[n - 1] == '/')
		n--;
	end = n;
	start = end;
	while (start > 0 && path[start - 1] != '/')
		start--;
	if (end - start == 6 && !strncmp(path + start, "main.c", 6) && start > 1) {
		end = start - 1;
		while (end > 1 && path[end - 1] == '/')
			end--;
		start = end;
		while (start > 0 && path[start - 1] != '/')
			start--;
	}
	snprintf(buf, len, "%.*s", (int)(end - start), path + start);
	return buf;
}

struct from_grade {
	const char **sols, **fams, **builds, **cases, **cats, **verdicts;
	char (*names)[256];
};

static void from_grade_release(struct from_grade *g)
{
	free(g->sols);
	free(g->fams);
	free(g->builds);
	free(g->cases);
	free(g->cats);
	free(g->verdicts);
	free(g->names);
}

static const char *str_at(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

__attribute__((format(printf, 2, 3)))
static int grade_error(struct strbuf *err, const char *fmt, ...)
{
	va_list ap;

	strbuf_addstr(err, "grade report: ");
	va_start(ap, fmt);
	strbuf_vaddf(err, fmt, ap);
	va_end(ap);
	return -1;
}

/* Fills m from the report's submissions; -1 with err set. */
static int matrix_of_report(const json_t *report, const json_t *families,
			    struct suitereport_matrix *m, struct from_grade *g,
			    struct strbuf *err)
{
	const json_t *subs = json_object_get(report, RK_SUBMISSIONS);
	const json_t *cases0;
	size_t ns = json_array_size(subs), nc;

	if (!json_is_array(subs))
		return grade_error(err, "no \"submissions\" array");
	cases0 = ns ? json_object_get(json_array_get(subs, 0), RK_CASES) : NULL;
	if (ns && !json_is_array(cases0))
		return grade_error(err, "submissions[0] has no \"cases\" array");
	nc = json_array_size(cases0);
	g->sols = calloc(ns + 1, sizeof(char *));
	g->fams = calloc(ns + 1, sizeof(char *));
	g->builds = calloc(ns + 1, sizeof(char *));
	g->names = calloc(ns + 1, sizeof(*g->names));
	g->cases = calloc(nc + 1, sizeof(char *));
	g->cats = calloc(nc + 1, sizeof(char *));
	g->verdicts = calloc(ns * nc + 1, sizeof(char *));
	if (!g->sols || !g->fams || !g->builds || !g->names || !g->cases || !g->cats ||
	    !g->verdicts) {
		strbuf_addstr(err, "suite report: out of memory");
		return -1;
	}
	for (size_t c = 0; c < nc; c++) {
		const json_t *cs = json_array_get(cases0, c);
		if (!(g->cases[c] = str_at(cs, RK_NAME)) || !(g->cats[c] = str_at(cs, RK_CATEGORY)))
			return grade_error(err, "submissions[0].cases[%zu] has no name or category", c);
	}
	for (size_t s = 0; s < ns; s++) {
		const json_t *sub = json_array_get(subs, s);
		const json_t *cs = json_object_get(sub, RK_CASES);
		const char *path = str_at(sub, RK_SUBMISSION);
		if (!path || json_array_size(cs) != nc)
			return grade_error(err, "submissions[%zu] has no \"submission\" or not "
					   "%zu cases", s, nc);
		g->sols[s] = solution_name(path, g->names[s], sizeof(g->names[s]));
		g->fams[s] = families ? str_at(families, g->sols[s]) : NULL;
		g->builds[s] = str_at(json_object_get(sub, RK_BUILD), RK_BUILD_STATUS);
		for (size_t c = 0; c < nc; c++) {
			const json_t *one = json_array_get(cs, c);
			const char *name = str_at(one, RK_NAME);
			if (!name || strcmp(name, g->cases[c]) ||
			    !(g->verdicts[s * nc + c] = str_at(one, RK_VERDICT)))
				return grade_error(err, "submissions[%zu].cases[%zu]: not the "
						   "first submission's case, or no verdict", s, c);
		}
	}
	*m = (struct suitereport_matrix){
		.nsols = ns, .ncases = nc, .sols = g->sols,
		.families = families ? g->fams : NULL, .builds = g->builds,
		.cases = g->cases, .categories = g->cats, .verdicts = g->verdicts,
	};
	return 0;
}

json_t *suitereport_from_grade(const json_t *grade_report, const json_t *families,
			       struct strbuf *err)
{
	struct from_grade g = { 0 };
	struct suitereport_matrix m;
	json_t *r = NULL;

	if (matrix_of_report(grade_report, families, &m, &g, err) == 0 &&
	    (r = suitereport_json(&m, err)) &&
	    (json_object_set(r, "suite", json_object_get(grade_report, RK_SUITE)) < 0 ||
	     json_object_set(r, "suite_dir", json_object_get(grade_report, RK_SUITE_DIR)) < 0)) {
		json_decref(r);
		r = NULL;
		strbuf_addstr(err, "suite report: out of memory");
	}
	from_grade_release(&g);
	return r;
}

/* ---- tests/wrong/INDEX ---- */

json_t *suitereport_read_index(const char *path, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	json_t *fams = NULL;
	size_t lineno = 0;
	char *line, *next;

	if (strbuf_read_file(&text, path, MAX_INDEX_BYTES) < 0) {
		strbuf_addf(err, "cannot read '%s': %s", path, strerror(errno));
		goto out;
	}
	if (!(fams = json_object()))
		goto oom;
	for (line = text.buf; line && *line; line = next) {
		char *tab, *end;
		lineno++;
		if ((next = strchr(line, '\n')))
			*next++ = '\0';
		if (*line == '#' || !*line)
			continue;
		if (!(tab = strchr(line, '\t')) || tab == line) {
			strbuf_addf(err, "%s:%zu: not NAME<TAB>FAMILY", path, lineno);
			json_decref(fams);
			fams = NULL;
			goto out;
		}
		*tab++ = '\0';
		if ((end = strchr(tab, '\t')))
			*end = '\0';
		if (json_object_set_new(fams, line, json_string(tab)) < 0)
			goto oom;
	}
	goto out;
oom:
	json_decref(fams);
	fams = NULL;
	strbuf_addstr(err, "suite report: out of memory");
out:
	strbuf_release(&text);
	return fams;
}

/* ---- the terminal report ---- */

static size_t width_of(const json_t *arr, const char *key, size_t least)
{
	size_t i, w = least;
	const json_t *v;

	json_array_foreach(arr, i, v) {
		const char *s = key ? str_at(v, key) : json_string_value(v);
		if (s && strlen(s) > w)
			w = strlen(s);
	}
	return w;
}

static const json_t *find_solution(const json_t *sr, const char *name)
{
	size_t i;
	const json_t *v;

	json_array_foreach(json_object_get(sr, "solutions"), i, v)
		if (name && !strcmp(str_at(v, "name"), name))
			return v;
	return NULL;
}

static void print_names(FILE *f, const json_t *arr)
{
	size_t i;
	const json_t *v;

	json_array_foreach(arr, i, v)
		fprintf(f, "  %s\n", json_string_value(v));
}

/* The matrix: a header of case numbers (1-based, one digit per line),
 * then one row per solution. */
static void print_matrix(FILE *f, const json_t *sr)
{
	const json_t *rows = json_object_get(json_object_get(sr, "matrix"), "rows");
	const json_t *sols = json_object_get(sr, "solutions");
	size_t nc = json_array_size(json_object_get(sr, "cases"));
	size_t w = width_of(rows, "solution", 8), i, digits = 1;
	const json_t *row;

	for (size_t p = 10; p <= nc; p *= 10)
		digits++;
	fprintf(f, "kill matrix ('X': the case kills the solution; 'C': it did not "
		"build; '?': internal error;\ncolumns: the cases below)\n");
	for (size_t d = digits; d-- > 0;) {
		size_t div = 1;
		for (size_t k = 0; k < d; k++)
			div *= 10;
		fprintf(f, "  %-*s ", (int)w, "");
		for (size_t c = 1; c <= nc; c++)
			fputc(c >= div || d == 0 ? (int)('0' + c / div % 10) : ' ', f);
		fputc('\n', f);
	}
	json_array_foreach(rows, i, row)
		fprintf(f, "  %-*s %s %2lld\n", (int)w, str_at(row, "solution"),
			str_at(row, "kills"),
			(long long)json_integer_value(json_object_get(json_array_get(sols, i),
								      "kills")));
}

int suitereport_print(FILE *f, const json_t *sr)
{
	const json_t *sum = json_object_get(sr, "summary");
	const json_t *cases = json_object_get(sr, "cases");
	const json_t *v;
	size_t i, w;

	if (!json_is_object(sum) || !json_is_array(cases) ||
	    !json_is_array(json_object_get(json_object_get(sr, "matrix"), "rows")))
		return -1;
#define N(obj, key) ((long long)json_integer_value(json_object_get((obj), (key))))
	fprintf(f, "suite report: suite '%s' (%lld cases) against %lld wrong solutions%s%s\n\n",
		str_at(sr, "suite") ? str_at(sr, "suite") : "?", N(sum, "cases"),
		N(sum, "solutions"), str_at(sr, "wrong_dir") ? " in " : "",
		str_at(sr, "wrong_dir") ? str_at(sr, "wrong_dir") : "");
	print_matrix(f, sr);

	w = width_of(cases, "name", 4);
	fprintf(f, "\ncases (kills: solutions it kills; sole: those no other case kills)\n");
	json_array_foreach(cases, i, v)
		fprintf(f, "  %3zu %-*s %-18s kills %3lld  sole %lld\n", i + 1, (int)w,
			str_at(v, "name"), str_at(v, "category"), N(v, "kills"),
			N(v, "sole_kills"));

	fprintf(f, "\nsurvivors, killed by no case (%lld)%s\n", N(sum, "survivors"),
		N(sum, "survivors") ? ":" : "");
	json_array_foreach(json_object_get(sr, "survivors"), i, v) {
		const json_t *sol = find_solution(sr, json_string_value(v));
		fprintf(f, "  %s%s%s\n", json_string_value(v), str_at(sol, "family") ? "  " : "",
			str_at(sol, "family") ? str_at(sol, "family") : "");
	}
	fprintf(f, "\nfragile, killed by one case only (%lld)%s\n", N(sum, "fragile"),
		N(sum, "fragile") ? ":" : "");
	w = width_of(json_object_get(sr, "fragile"), "solution", 8);
	json_array_foreach(json_object_get(sr, "fragile"), i, v)
		fprintf(f, "  %-*s by %s\n", (int)w, str_at(v, "solution"), str_at(v, "case"));
	fprintf(f, "\nredundant cases, killing nothing (%lld)%s\n", N(sum, "redundant_cases"),
		N(sum, "redundant_cases") ? ":" : "");
	print_names(f, json_object_get(sr, "redundant"));
	if (N(sum, "unbuilt")) {
		fprintf(f, "\ndid not build, so no case ran: neither killed nor surviving "
			"(%lld):\n", N(sum, "unbuilt"));
		print_names(f, json_object_get(sr, "unbuilt"));
	}

	w = width_of(json_object_get(sr, "categories"), "category", 8);
	fprintf(f, "\ncategories (killed: distinct solutions its cases kill; only: no other "
		"category kills them)\n  %-*s cases killed only redundant\n", (int)w, "category");
	json_array_foreach(json_object_get(sr, "categories"), i, v)
		fprintf(f, "  %-*s %5lld %6lld %4lld %9lld\n", (int)w, str_at(v, "category"),
			N(v, "cases"), N(v, "killed"), N(v, "only"), N(v, "redundant_cases"));
	if (json_array_size(json_object_get(sr, "families"))) {
		w = width_of(json_object_get(sr, "families"), "family", 8);
		fprintf(f, "\nfamilies of wrong solutions\n  %-*s solutions killed fragile\n",
			(int)w, "family");
		json_array_foreach(json_object_get(sr, "families"), i, v)
			fprintf(f, "  %-*s %9lld %6lld %7lld\n", (int)w,
				str_at(v, "family") ? str_at(v, "family") : "(none)",
				N(v, "solutions"), N(v, "killed"), N(v, "fragile"));
	}
	fprintf(f, "\nkilled %lld of %lld wrong solutions; survivors %lld, fragile %lld; "
		"fewest kills %lld, most %lld; %lld of %lld cases kill nothing",
		N(sum, "killed"), N(sum, "solutions"), N(sum, "survivors"), N(sum, "fragile"),
		N(sum, "min_kills"), N(sum, "max_kills"), N(sum, "redundant_cases"),
		N(sum, "cases"));
	if (N(sum, "unbuilt"))
		fprintf(f, "; %lld did not build", N(sum, "unbuilt"));
	if (N(sum, "errors"))
		fprintf(f, "; %lld internal errors (not counted as kills)", N(sum, "errors"));
	fputs("\n", f);
#undef N
	return ferror(f) ? -1 : 0;
}
