/*
 * suitereport: the kill matrix of wrong solutions against a suite, and
 * what it says about the suite (suitereport.h). The matrix from grade's
 * report and tests/wrong/INDEX: suitereport_grade.c; the terminal text:
 * suitereport_print.c.
 *
 * Theory of operation. suitereport_json counts, in one pass over the
 * matrix, each solution's killing cases and each case's kills, then
 * derives everything else from those counts and the matrix: a solution
 * killed only by case c adds to c's "sole_kills"; a category "catches" a
 * solution one of its cases kills, and catches it "alone" when no case of
 * another category does. The JSON object is the report; suitereport_print
 * (suitereport_print.c) only reads it back, so the text never says
 * something the JSON does not.
 */
#include "grader/report/suitereport.h"

#include <stdlib.h>
#include <string.h>

#include "grader/judge/verdict.h"
#include "grader/report/keys.h"

/* The matrix's character for a verdict: passed (AC), the grader's failure
 * (IE), not built (CE), else killed (any other code, one unknown too). */
static char mark(const char *verdict)
{
	static const char marks[VERDICT_COUNT] = {
		[VERDICT_AC] = '.', [VERDICT_IE] = '?', [VERDICT_CE] = 'C',
	};
	enum verdict v = verdict_from_code(verdict);

	return v < VERDICT_COUNT && marks[v] ? marks[v] : 'X';
}

int suitereport_kills(const char *verdict)
{
	return mark(verdict) == 'X';
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
			k->errors += verdict_is(v, VERDICT_IE);
			k->unbuilt[s] |= verdict_is(v, VERDICT_CE);
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
		if (push(arr, json_pack("{s:s, s:s, s:I, s:I}", SRK_NAME, m->cases[c],
					SRK_CATEGORY, m->categories[c],
					SRK_KILLS, (json_int_t)k->case_kills[c],
					SRK_SOLE_KILLS, (json_int_t)k->sole[c])) < 0) {
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
		if (push(rows, json_pack("{s:s, s:o*, s:o*}", SRK_SOLUTION, m->sols[s],
					 SRK_VERDICTS, verdicts, SRK_KILLS, NULL)) < 0) {
			json_decref(by);
			goto out;
		}
		for (size_t c = 0; c < m->ncases; c++) {
			const char *v = verdict_at(m, s, c);
			line[c] = mark(v);
			if (push(verdicts, json_string(v)) < 0 ||
			    (line[c] == 'X' && push(by, json_string(m->cases[c])) < 0) ||
			    (line[c] == '?' && push(errs, json_pack("{s:s, s:s}", SRK_SOLUTION,
					m->sols[s], SRK_CASE, m->cases[c])) < 0)) {
				json_decref(by);
				goto out;
			}
		}
		line[m->ncases] = '\0';
		if (put(json_array_get(rows, s), SRK_KILLS, json_string(line)) < 0) {
			json_decref(by);
			goto out;
		}
		if (push(sols, json_pack("{s:s, s:o, s:o, s:I, s:o*}", SRK_NAME, m->sols[s],
					 SRK_FAMILY, str_or_null(m->families ? m->families[s] : NULL),
					 SRK_BUILD, str_or_null(m->builds ? m->builds[s] : NULL),
					 SRK_KILLS, (json_int_t)k->sol_kills[s], SRK_KILLED_BY, by)) < 0)
			goto out;
		if (survives(k, s) && push(surv, json_string(m->sols[s])) < 0)
			goto out;
		if (k->unbuilt[s] && push(unbuilt, json_string(m->sols[s])) < 0)
			goto out;
		if (k->sol_kills[s] == 1 &&
		    push(frag, json_pack("{s:s, s:s}", SRK_SOLUTION, m->sols[s], SRK_CASE,
					 m->cases[k->first_killer[s]])) < 0)
			goto out;
	}
	rc = put(r, SRK_SOLUTIONS, sols) | put(r, SRK_MATRIX, json_pack("{s:O, s:O}", SRK_CASES,
		 names, SRK_ROWS, rows)) | put(r, SRK_SURVIVORS, surv) |
	     put(r, SRK_FRAGILE, frag) | put(r, SRK_UNBUILT, unbuilt) | put(r, SRK_ERRORS, errs);
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
		if (push(arr, json_pack("{s:s, s:I, s:I, s:I, s:I}", SRK_CATEGORY, k->cats[i],
					SRK_CASES, (json_int_t)ncase[i],
					SRK_KILLED, (json_int_t)caught[i],
					SRK_ONLY, (json_int_t)alone[i],
					SRK_REDUNDANT_CASES, (json_int_t)idle[i])) < 0)
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
		if (push(arr, json_pack("{s:o, s:I, s:I, s:I, s:I, s:o*}", SRK_FAMILY,
					str_or_null(fam), SRK_SOLUTIONS, (json_int_t)total,
					SRK_KILLED, (json_int_t)killed, SRK_UNBUILT, (json_int_t)unbuilt,
					SRK_FRAGILE, (json_int_t)fragile, SRK_SURVIVORS, surv)) < 0) {
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
	if (!(r = json_pack("{s:s, s:n, s:n, s:n}", SRK_SCHEMA, SUITEREPORT_SCHEMA,
			    SRK_SUITE, SRK_SUITE_DIR, SRK_WRONG_DIR)) ||
	    !(redundant = redundant_json(m, &k)) ||
	    put(r, SRK_SUMMARY, json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
		SRK_SOLUTIONS, (json_int_t)m->nsols, SRK_CASES, (json_int_t)m->ncases,
		SRK_KILLED, (json_int_t)nkilled,
		SRK_UNBUILT, (json_int_t)(m->nsols - k.nbuilt),
		SRK_SURVIVORS, (json_int_t)nsurv, SRK_FRAGILE, (json_int_t)nfrag,
		SRK_REDUNDANT_CASES, (json_int_t)json_array_size(redundant),
		SRK_ERRORS, (json_int_t)k.errors, SRK_MIN_KILLS, (json_int_t)k.min_kills,
		SRK_MAX_KILLS, (json_int_t)k.max_kills)) < 0 ||
	    put(r, SRK_CASES, cases_json(m, &k)) < 0 ||
	    solutions_json(m, &k, r) < 0 ||
	    json_object_set(r, SRK_REDUNDANT, redundant) < 0 ||
	    put(r, SRK_CATEGORIES, categories_json(m, &k)) < 0 ||
	    put(r, SRK_FAMILIES, families_json(m, &k)) < 0)
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
