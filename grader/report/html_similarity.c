/*
 * html_similarity: the class page's similarity section (html.h), written
 * from the record of sim_report.h alone: the histogram of every pair's
 * score, the clusters and the pairs above the threshold, and for each pair
 * with regions a <details> that opens onto its matched regions side by
 * side (no script: the browser's own disclosure). Every string of the
 * record (names, file names, source text) goes through escape_html(); the
 * section's <style> is constant text.
 */
#include "grader/report/html_int.h"
#include "grader/lib/escape.h"

#include <math.h>

#define PAGE_PAIRS 200     /* rows of the pairs table at most */
#define HIST_W 400
#define HIST_H 100

static const char sim_style[] =
"<style>\n"
"#similarity td.side{width:50%;vertical-align:top}\n"
"#similarity pre mark{background:#ffe08a;display:block}\n"
"#similarity .loc{font:12px monospace;color:#555}\n"
"#similarity rect.simbar{fill:#b5533f}\n"
"#similarity table.sim-regions{width:100%;table-layout:fixed}\n"
"</style>\n";

/* Bars scaled by log(1 + count): a handful of copied pairs stays visible
 * beside thousands of independent ones. */
static void histogram(FILE *f, const json_t *hist)
{
	size_t n = json_array_size(hist), i;
	double top = 0, bw = n ? (double)HIST_W / (double)n : 0;
	const json_t *b;

	json_array_foreach(hist, i, b) {
		double c = log1p(get_num(b, "count"));

		top = c > top ? c : top;
	}
	fprintf(f, "<svg id=\"sim-histogram\" width=\"%d\" height=\"%d\" role=\"img\" "
		"aria-label=\"pair scores, 0 to 1\">\n", HIST_W, HIST_H + 16);
	json_array_foreach(hist, i, b) {
		double c = get_num(b, "count");
		double h = top > 0 ? log1p(c) / top * HIST_H : 0;

		fprintf(f, "<rect class=\"simbar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			"height=\"%.1f\" data-from=\"%g\" data-count=\"%.0f\"><title>%g-%g: "
			"%.0f pairs</title></rect>\n", (double)i * bw, HIST_H - h, bw - 1, h,
			get_num(b, "from"), c, get_num(b, "from"), get_num(b, "to"), c);
	}
	fprintf(f, "<text x=\"0\" y=\"%d\">0</text><text x=\"%d\" y=\"%d\">1</text></svg>\n",
		HIST_H + 14, HIST_W - 8, HIST_H + 14);
}

static void clusters(FILE *f, const json_t *cl)
{
	size_t i, k;
	const json_t *c, *name;

	if (!json_array_size(cl))
		return;
	fputs("<h3>Clusters</h3>\n<table id=\"sim-clusters\"><thead><tr>"
	      "<th class=\"num\">best score</th><th>students</th></tr></thead><tbody>\n", f);
	json_array_foreach(cl, i, c) {
		fprintf(f, "<tr><td class=\"num\">%.3f</td><td>", get_num(c, "max_score"));
		json_array_foreach(json_object_get(c, "students"), k, name) {
			if (k)
				fputs(", ", f);
			esc_json(f, name);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

static void side(FILE *f, const json_t *g, const char *s)
{
	char key[16];

	fputs("<td class=\"side\"><div class=\"loc\">", f);
	snprintf(key, sizeof key, "%s_file", s);
	esc_json(f, json_object_get(g, key));
	snprintf(key, sizeof key, "%s_from", s);
	fprintf(f, ":%.0f-", get_num(g, key));
	snprintf(key, sizeof key, "%s_to", s);
	fprintf(f, "%.0f</div><pre><mark>", get_num(g, key));
	snprintf(key, sizeof key, "%s_text", s);
	esc_json(f, json_object_get(g, key));
	fputs("</mark></pre></td>", f);
}

static void pair_view(FILE *f, const json_t *p)
{
	const json_t *regions = json_object_get(p, "regions"), *g;
	size_t i;

	fprintf(f, "<tr class=\"sim-drill\"><td colspan=\"4\"><details class=\"sim-pair\">"
		"<summary>%zu matched region%s</summary>\n<table class=\"sim-regions\">"
		"<thead><tr><th>", json_array_size(regions),
		json_array_size(regions) == 1 ? "" : "s");
	esc_json(f, json_object_get(p, "a"));
	fputs("</th><th>", f);
	esc_json(f, json_object_get(p, "b"));
	fputs("</th></tr></thead><tbody>\n", f);
	json_array_foreach(regions, i, g) {
		fputs("<tr>", f);
		side(f, g, "a");
		side(f, g, "b");
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></details></td></tr>\n", f);
}

static void pairs(FILE *f, const json_t *sim)
{
	const json_t *list = json_object_get(sim, "pairs"), *p;
	double threshold = get_num(sim, "threshold");
	size_t i, shown = 0;

	fputs("<h3>Pairs</h3>\n<table id=\"sim-pairs\"><thead><tr>"
	      "<th class=\"num\">score</th><th>student</th><th>student</th>"
	      "<th class=\"num\">shared</th></tr></thead><tbody>\n", f);
	json_array_foreach(list, i, p) {
		if (get_num(p, "score") < threshold || shown++ >= PAGE_PAIRS)
			break;
		fprintf(f, "<tr class=\"sim-row\"><td class=\"num\">%.3f</td><td>",
			get_num(p, "score"));
		esc_json(f, json_object_get(p, "a"));
		fputs("</td><td>", f);
		esc_json(f, json_object_get(p, "b"));
		fprintf(f, "</td><td class=\"num\">%.0f</td></tr>\n", get_num(p, "shared"));
		if (json_is_array(json_object_get(p, "regions")))
			pair_view(f, p);
	}
	fputs("</tbody></table>\n", f);
	if (!shown)
		fputs("<p class=\"note\">No pair at or above the threshold.</p>\n", f);
}

void html_similarity_section(FILE *f, const json_t *sim)
{
	fputs("<section id=\"similarity\">\n", f);
	fputs(sim_style, f);
	fprintf(f, "<h2>Similarity</h2>\n<p class=\"meta\">%.0f students compared, "
		"%.0f pairs; k-grams of %.0f tokens, windows of %.0f; pairs at or above "
		"%g shown with their matched regions (docs/similarity.md).",
		get_num(sim, "students"), get_num(sim, "all_pairs"), get_num(sim, "k"),
		get_num(sim, "window"), get_num(sim, "threshold"));
	if (json_array_size(json_object_get(sim, "skipped")))
		fprintf(f, " %zu students not compared (their sources could not be read).",
			json_array_size(json_object_get(sim, "skipped")));
	fputs("</p>\n", f);
	histogram(f, json_object_get(sim, "histogram"));
	clusters(f, json_object_get(sim, "clusters"));
	pairs(f, sim);
	fputs("</section>\n", f);
}
