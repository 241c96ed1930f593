/*
 * html_suite: the suite report (suitereport.h) as a section of the HTML
 * page (html.h): the summary, the categories, the cases that kill nothing,
 * the survivors and fragile solutions, and the kill matrix as a table
 * (one row per wrong solution, one cell per case). Every string goes
 * through escape_html(); nothing is written inside <script>.
 */
#include "grader/report/html_int.h"
#include "grader/lib/escape.h"
#include "grader/report/report_read.h"

#include <string.h>

static long long int_at(const json_t *o, const char *key)
{
	return report_int(o, key);
}

/* A list of names as "a, b, c", or "none". */
static void names(FILE *f, const char *label, const char *id, const json_t *list)
{
	size_t i;
	json_t *v;

	fprintf(f, "<p id=\"%s\"><b>", id);
	esc(f, label);
	fprintf(f, " (%zu):</b> ", json_array_size(list));
	if (!json_array_size(list))
		fputs("none", f);
	json_array_foreach(list, i, v) {
		const char *s = json_is_string(v) ? json_string_value(v)
			: report_str(v, SRK_SOLUTION);
		if (i)
			fputs(", ", f);
		esc(f, s);
		if (json_is_object(v)) {
			fputs(" (", f);
			esc(f, report_str(v, SRK_CASE));
			fputc(')', f);
		}
	}
	fputs("</p>\n", f);
}

static void categories(FILE *f, const json_t *cats)
{
	size_t i;
	json_t *c;

	fputs("<table id=\"sr-categories\"><thead><tr><th>category</th>"
	      "<th class=\"num\">cases</th><th class=\"num\">bugs caught</th>"
	      "<th class=\"num\">caught only here</th><th class=\"num\">cases "
	      "killing nothing</th></tr></thead><tbody>\n", f);
	json_array_foreach(cats, i, c) {
		fputs("<tr><td>", f);
		esc(f, report_str(c, SRK_CATEGORY));
		fprintf(f, "</td><td class=\"num\">%lld</td><td class=\"num\">%lld</td>"
			"<td class=\"num\">%lld</td><td class=\"num\">%lld</td></tr>\n",
			int_at(c, SRK_CASES), int_at(c, SRK_KILLED), int_at(c, SRK_ONLY),
			int_at(c, SRK_REDUNDANT_CASES));
	}
	fputs("</tbody></table>\n", f);
}

/* The matrix: 'X' killed (red), '.' passed, 'C' not built, '?' the
 * grader's error; the case names are the columns' titles. */
static void matrix(FILE *f, const json_t *m)
{
	const json_t *cases = json_object_get(m, SRK_CASES);
	size_t i, j;
	json_t *row, *c;

	fputs("<div style=\"overflow:auto\"><table id=\"sr-matrix\" "
	      "class=\"cases\"><thead><tr><th>wrong solution</th>", f);
	json_array_foreach(cases, i, c) {
		fputs("<th title=\"", f);
		esc(f, json_string_value(c));
		fprintf(f, "\">%zu</th>", i + 1);
	}
	fputs("</tr></thead><tbody>\n", f);
	json_array_foreach(json_object_get(m, SRK_ROWS), i, row) {
		const char *k = report_str(row, SRK_KILLS);
		size_t n = k ? strlen(k) : 0;

		fputs("<tr class=\"sr-row\"><td>", f);
		esc(f, report_str(row, SRK_SOLUTION));
		fputs("</td>", f);
		for (j = 0; j < json_array_size(cases); j++) {
			char ch = j < n ? k[j] : '?';
			const char *cls = ch == 'X' ? "v-WA" : ch == 'C' ? "v-CE"
					: ch == '?' ? "v-IE" : NULL;

			if (cls)
				fprintf(f, "<td class=\"v %s\">%c</td>", cls, ch);
			else
				fputs("<td>.</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
}

void html_suite_section(FILE *f, const json_t *sr)
{
	const json_t *sum = json_object_get(sr, SRK_SUMMARY);

	fputs("<section id=\"suite-strength\">\n<h2>Suite strength</h2>\n"
	      "<p class=\"meta\">", f);
	fprintf(f, "%lld wrong solutions against %lld cases: %lld killed, "
		"%lld survive, %lld killed by one case only, %lld not built; "
		"%lld cases kill nothing.</p>\n",
		int_at(sum, SRK_SOLUTIONS), int_at(sum, SRK_CASES), int_at(sum, SRK_KILLED),
		int_at(sum, SRK_SURVIVORS), int_at(sum, SRK_FRAGILE), int_at(sum, SRK_UNBUILT),
		int_at(sum, SRK_REDUNDANT_CASES));
	names(f, "Survivors, killed by no case", "sr-survivors",
	      json_object_get(sr, SRK_SURVIVORS));
	names(f, "Fragile, killed by one case only", "sr-fragile",
	      json_object_get(sr, SRK_FRAGILE));
	names(f, "Cases that kill nothing", "sr-redundant",
	      json_object_get(sr, SRK_REDUNDANT));
	categories(f, json_object_get(sr, SRK_CATEGORIES));
	matrix(f, json_object_get(sr, SRK_MATRIX));
	fputs("</section>\n", f);
}
