/*
 * suitereport_print: the terminal report of a suitereport_json object
 * (suitereport.h), read back from the JSON alone.
 */
#include "grader/report/suitereport.h"

#include "grader/report/keys.h"
#include "grader/report/report_read.h"

#include <stdio.h>
#include <string.h>

static size_t width_of(const json_t *arr, const char *key, size_t least)
{
	size_t i, w = least;
	const json_t *v;

	json_array_foreach(arr, i, v) {
		const char *s = key ? report_str(v, key) : json_string_value(v);
		if (s && strlen(s) > w)
			w = strlen(s);
	}
	return w;
}

static const json_t *find_solution(const json_t *sr, const char *name)
{
	size_t i;
	const json_t *v;

	json_array_foreach(json_object_get(sr, SRK_SOLUTIONS), i, v)
		if (name && !strcmp(report_str(v, SRK_NAME), name))
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
	const json_t *rows = json_object_get(json_object_get(sr, SRK_MATRIX), SRK_ROWS);
	const json_t *sols = json_object_get(sr, SRK_SOLUTIONS);
	size_t nc = json_array_size(json_object_get(sr, SRK_CASES));
	size_t w = width_of(rows, SRK_SOLUTION, 8), i, digits = 1;
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
		fprintf(f, "  %-*s %s %2lld\n", (int)w, report_str(row, SRK_SOLUTION),
			report_str(row, SRK_KILLS),
			(long long)report_int(json_array_get(sols, i), SRK_KILLS));
}

int suitereport_print(FILE *f, const json_t *sr)
{
	const json_t *sum = json_object_get(sr, SRK_SUMMARY);
	const json_t *cases = json_object_get(sr, SRK_CASES);
	const json_t *v;
	size_t i, w;

	if (!json_is_object(sum) || !json_is_array(cases) ||
	    !json_is_array(json_object_get(json_object_get(sr, SRK_MATRIX), SRK_ROWS)))
		return -1;
#define N(obj, key) report_int((obj), (key))
	fprintf(f, "suite report: suite '%s' (%lld cases) against %lld wrong solutions%s%s\n\n",
		report_str(sr, SRK_SUITE) ? report_str(sr, SRK_SUITE) : "?", N(sum, SRK_CASES),
		N(sum, SRK_SOLUTIONS), report_str(sr, SRK_WRONG_DIR) ? " in " : "",
		report_str(sr, SRK_WRONG_DIR) ? report_str(sr, SRK_WRONG_DIR) : "");
	print_matrix(f, sr);

	w = width_of(cases, SRK_NAME, 4);
	fprintf(f, "\ncases (kills: solutions it kills; sole: those no other case kills)\n");
	json_array_foreach(cases, i, v)
		fprintf(f, "  %3zu %-*s %-18s kills %3lld  sole %lld\n", i + 1, (int)w,
			report_str(v, SRK_NAME), report_str(v, SRK_CATEGORY), N(v, SRK_KILLS),
			N(v, SRK_SOLE_KILLS));

	fprintf(f, "\nsurvivors, killed by no case (%lld)%s\n", N(sum, SRK_SURVIVORS),
		N(sum, SRK_SURVIVORS) ? ":" : "");
	json_array_foreach(json_object_get(sr, SRK_SURVIVORS), i, v) {
		const json_t *sol = find_solution(sr, json_string_value(v));
		fprintf(f, "  %s%s%s\n", json_string_value(v), report_str(sol, SRK_FAMILY) ? "  " : "",
			report_str(sol, SRK_FAMILY) ? report_str(sol, SRK_FAMILY) : "");
	}
	fprintf(f, "\nfragile, killed by one case only (%lld)%s\n", N(sum, SRK_FRAGILE),
		N(sum, SRK_FRAGILE) ? ":" : "");
	w = width_of(json_object_get(sr, SRK_FRAGILE), SRK_SOLUTION, 8);
	json_array_foreach(json_object_get(sr, SRK_FRAGILE), i, v)
		fprintf(f, "  %-*s by %s\n", (int)w, report_str(v, SRK_SOLUTION), report_str(v, SRK_CASE));
	fprintf(f, "\nredundant cases, killing nothing (%lld)%s\n", N(sum, SRK_REDUNDANT_CASES),
		N(sum, SRK_REDUNDANT_CASES) ? ":" : "");
	print_names(f, json_object_get(sr, SRK_REDUNDANT));
	if (N(sum, SRK_UNBUILT)) {
		fprintf(f, "\ndid not build, so no case ran: neither killed nor surviving "
			"(%lld):\n", N(sum, SRK_UNBUILT));
		print_names(f, json_object_get(sr, SRK_UNBUILT));
	}

	w = width_of(json_object_get(sr, SRK_CATEGORIES), SRK_CATEGORY, 8);
	fprintf(f, "\ncategories (killed: distinct solutions its cases kill; only: no other "
		"category kills them)\n  %-*s cases killed only redundant\n", (int)w, SRK_CATEGORY);
	json_array_foreach(json_object_get(sr, SRK_CATEGORIES), i, v)
		fprintf(f, "  %-*s %5lld %6lld %4lld %9lld\n", (int)w, report_str(v, SRK_CATEGORY),
			N(v, SRK_CASES), N(v, SRK_KILLED), N(v, SRK_ONLY), N(v, SRK_REDUNDANT_CASES));
	if (json_array_size(json_object_get(sr, SRK_FAMILIES))) {
		w = width_of(json_object_get(sr, SRK_FAMILIES), SRK_FAMILY, 8);
		fprintf(f, "\nfamilies of wrong solutions\n  %-*s solutions killed fragile\n",
			(int)w, SRK_FAMILY);
		json_array_foreach(json_object_get(sr, SRK_FAMILIES), i, v)
			fprintf(f, "  %-*s %9lld %6lld %7lld\n", (int)w,
				report_str(v, SRK_FAMILY) ? report_str(v, SRK_FAMILY) : "(none)",
				N(v, SRK_SOLUTIONS), N(v, SRK_KILLED), N(v, SRK_FRAGILE));
	}
	fprintf(f, "\nkilled %lld of %lld wrong solutions; survivors %lld, fragile %lld; "
		"fewest kills %lld, most %lld; %lld of %lld cases kill nothing",
		N(sum, SRK_KILLED), N(sum, SRK_SOLUTIONS), N(sum, SRK_SURVIVORS), N(sum, SRK_FRAGILE),
		N(sum, SRK_MIN_KILLS), N(sum, SRK_MAX_KILLS), N(sum, SRK_REDUNDANT_CASES),
		N(sum, SRK_CASES));
	if (N(sum, SRK_UNBUILT))
		fprintf(f, "; %lld did not build", N(sum, SRK_UNBUILT));
	if (N(sum, SRK_ERRORS))
		fprintf(f, "; %lld internal errors (not counted as kills)", N(sum, SRK_ERRORS));
	fputs("\n", f);
#undef N
	return ferror(f) ? -1 : 0;
}
