/*
 * suitereport_grade: the kill matrix from grade's own JSON report (one
 * solution per submission, one verdict per case), and the families of the
 * wrong solutions from tests/wrong/INDEX (suitereport.h). The analysis is
 * suitereport.c's.
 */
#include "grader/report/suitereport.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grader/report/keys.h"
#include "grader/report/report_read.h"

#define MAX_INDEX_BYTES (4u << 20)

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
		if (!(g->cases[c] = report_str(cs, RK_NAME)) || !(g->cats[c] = report_str(cs, RK_CATEGORY)))
			return grade_error(err, "submissions[0].cases[%zu] has no name or category", c);
	}
	for (size_t s = 0; s < ns; s++) {
		const json_t *sub = json_array_get(subs, s);
		const json_t *cs = json_object_get(sub, RK_CASES);
		const char *path = report_str(sub, RK_SUBMISSION);
		if (!path || json_array_size(cs) != nc)
			return grade_error(err, "submissions[%zu] has no \"submission\" or not "
					   "%zu cases", s, nc);
		g->sols[s] = solution_name(path, g->names[s], sizeof(g->names[s]));
		g->fams[s] = families ? report_str(families, g->sols[s]) : NULL;
		g->builds[s] = report_str(json_object_get(sub, RK_BUILD), RK_BUILD_STATUS);
		for (size_t c = 0; c < nc; c++) {
			const json_t *one = json_array_get(cs, c);
			const char *name = report_str(one, RK_NAME);
			if (!name || strcmp(name, g->cases[c]) ||
			    !(g->verdicts[s * nc + c] = report_str(one, RK_VERDICT)))
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
	    (json_object_set(r, SRK_SUITE, json_object_get(grade_report, RK_SUITE)) < 0 ||
	     json_object_set(r, SRK_SUITE_DIR, json_object_get(grade_report, RK_SUITE_DIR)) < 0)) {
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
