/*
 * gpucheck output: the table a person reads, the JSON report and the JUnit
 * XML CI reads. All three list the same checks in the same order.
 */
#include "gpu-bench/gpucheck.h"
#include "grader/lib/escape.h"

#include <math.h>
#include <string.h>

void gpuc_print_table(FILE *out, const struct gpuc_device *dev,
                      const struct gpuc_bounds *b,
                      const struct gpuc_result *res)
{
	fprintf(out, "device: %s (cc %s), theoretical peak %.1f GB/s, "
	        "profile: %s\n", dev->name, dev->cc, dev->peak_gbps,
	        b->profile[0] ? b->profile : "none (defaults)");
	fprintf(out, "%-12s %-5s %-14s %-12s %-36s %s\n", "ROW", "LINE",
	        "CHECK", "VALUE", "BOUND", "RESULT");
	for (size_t i = 0; i < res->n; i++) {
		const struct gpuc_check *c = &res->v[i];
		char line[16] = "-";

		if (c->line > 0)
			snprintf(line, sizeof(line), "%d", c->line);
		fprintf(out, "%-12s %-5s %-14s %-12s %-36s %s\n", c->row, line,
		        c->check, c->value_text, c->bound,
		        c->pass ? "PASS" : "FAIL");
	}
	fprintf(out, "%zu checks, %zu failed\n", res->n, res->failed);
}

/* json_real of a NAN is not JSON; those become null. */
static json_t *num_or_null(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

static json_t *rows_json(const struct gpuc_rows *rows)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < rows->n; i++) {
		const struct gpuc_row *r = &rows->v[i];
		int stride = r->pattern == GPUC_STRIDE;

		json_array_append_new(a, json_pack(
		        "{s:i, s:s, s:I, s:f, s:f, s:I}", "line", r->line,
		        "pattern", stride ? "stride" : "chunked",
		        stride ? "stride" : "chunk", (json_int_t)r->param,
		        "ms", r->ms, "gbps", r->gbps, "bytes",
		        (json_int_t)r->bytes));
	}
	return a;
}

static json_t *checks_json(const struct gpuc_result *res)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < res->n; i++) {
		const struct gpuc_check *c = &res->v[i];

		json_array_append_new(a, json_pack(
		        "{s:s, s:i, s:s, s:o, s:s, s:o, s:s, s:b}", "row",
		        c->row, "line", c->line, "check", c->check, "value",
		        num_or_null(c->value), "value_text", c->value_text,
		        "limit", num_or_null(c->limit), "bound", c->bound,
		        "pass", c->pass));
	}
	return a;
}

json_t *gpuc_report(const struct gpuc_device *dev, const struct gpuc_bounds *b,
                    const struct gpuc_rows *rows,
                    const struct gpuc_result *res)
{
	return json_pack("{s:s, s:{s:s, s:s, s:f}, s:o, s:o, s:o, s:o, s:I, "
	                 "s:I}",
	                 "status", res->failed ? "fail" : "pass",
	                 "device", "name", dev->name, "cc", dev->cc,
	                 "peak_gbps", dev->peak_gbps,
	                 "profile", b->profile[0] ? json_string(b->profile)
	                                          : json_null(),
	                 "profile_source", b->profile[0] ? json_string(b->source)
	                                                 : json_null(),
	                 "rows", rows_json(rows), "checks", checks_json(res),
	                 "checks_total", (json_int_t)res->n,
	                 "checks_failed", (json_int_t)res->failed);
}

/* An attribute's text (grader/lib/escape.h). */
static void xml_text(FILE *out, const char *s)
{
	escape_xml(out, s, strlen(s), ESCAPE_ATTR);
}

int gpuc_write_junit(FILE *out, const struct gpuc_result *res)
{
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	        "<testsuite name=\"gpu-bench\" tests=\"%zu\" failures=\"%zu\" "
	        "errors=\"0\">\n", res->n, res->failed);
	for (size_t i = 0; i < res->n; i++) {
		const struct gpuc_check *c = &res->v[i];

		fputs("  <testcase classname=\"gpu-bench.", out);
		xml_text(out, c->row);
		fputs("\" name=\"", out);
		xml_text(out, c->check);
		fputs("\"", out);
		if (c->pass) {
			fputs("/>\n", out);
			continue;
		}
		fputs(">\n    <failure message=\"", out);
		xml_text(out, c->value_text);
		fputs(" not ", out);
		xml_text(out, c->bound);
		fputs("\"/>\n  </testcase>\n", out);
	}
	fputs("</testsuite>\n", out);
	return ferror(out) ? -1 : 0;
}
