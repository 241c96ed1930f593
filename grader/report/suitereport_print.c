/*
 * suitereport_print: the terminal report of a suitereport_json object
 * (suitereport.h), read back from the JSON alone.
 */
#include "grader/report/suitereport.h"

#include <stdio.h>
#include <string.h>

static const char *str_at(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

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
