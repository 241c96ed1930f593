/*
 * gpu-check: judge coalescing --json rows against bounds.json.
 *
 *   gpu-check --bounds FILE --device FILE [--json OUT] [--junit OUT]
 *             [--svg OUT] ROWS_FILE|-
 *
 * Exit status: 0 every check passed; 1 some check failed (each failure is
 * printed on stderr naming its row, line and bound); 2 usage error, or the
 * input, the device file or the bounds are unreadable or malformed (a CUDA
 * error line or a truncated row is malformed input, reported as
 * file:line: text). The reports are written in every case but a usage
 * error, so CI always has something to upload; the plot (--svg) only when
 * there were rows to judge.
 */
#include "gpu-bench/gpucheck.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grader/lib/strbuf.h"

enum { EXIT_PASS = 0, EXIT_FAILED = 1, EXIT_ERROR = 2 };

struct opts {
	const char *bounds, *device, *json, *junit, *svg, *rows;
};

static void usage(FILE *out)
{
	fputs("usage: gpu-check --bounds FILE --device FILE [--json OUT] "
	      "[--junit OUT] [--svg OUT] ROWS_FILE|-\n", out);
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct {
		const char *flag;
		size_t off;
	} flags[] = {
		{ "--bounds", offsetof(struct opts, bounds) },
		{ "--device", offsetof(struct opts, device) },
		{ "--json", offsetof(struct opts, json) },
		{ "--junit", offsetof(struct opts, junit) },
		{ "--svg", offsetof(struct opts, svg) },
	};

	for (int i = 1; i < argc; i++) {
		size_t f;

		for (f = 0; f < sizeof(flags) / sizeof(*flags); f++)
			if (strcmp(argv[i], flags[f].flag) == 0)
				break;
		if (f < sizeof(flags) / sizeof(*flags)) {
			if (i + 1 >= argc) {
				fprintf(stderr, "gpu-check: '%s' needs a file\n",
				        argv[i]);
				return -1;
			}
			*(const char **)((char *)o + flags[f].off) = argv[++i];
		} else if (argv[i][0] == '-' && argv[i][1] != '\0') {
			fprintf(stderr, "gpu-check: unknown option '%s'\n",
			        argv[i]);
			return -1;
		} else if (o->rows) {
			fprintf(stderr, "gpu-check: one rows file only, not "
			        "'%s' too\n", argv[i]);
			return -1;
		} else {
			o->rows = argv[i];
		}
	}
	if (!o->bounds || !o->device || !o->rows) {
		fprintf(stderr, "gpu-check: --bounds, --device and a rows file "
		        "are required\n");
		return -1;
	}
	return 0;
}

static int write_json(const char *path, json_t *report)
{
	if (json_dump_file(report, path, JSON_INDENT(2)) != 0) {
		fprintf(stderr, "gpu-check: cannot write '%s'\n", path);
		return -1;
	}
	return 0;
}

/* The reports for input that could not be judged: one error testcase. */
static void write_error_reports(const struct opts *o, const char *msg)
{
	FILE *f;

	if (o->json) {
		json_t *r = json_pack("{s:s, s:s}", "status", "error", "error",
		                      msg);

		if (r)
			write_json(o->json, r);
		json_decref(r);
	}
	if (o->junit && (f = fopen(o->junit, "w")) != NULL) {
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		      "<testsuite name=\"gpu-bench\" tests=\"1\" failures=\"0\" "
		      "errors=\"1\">\n  <testcase classname=\"gpu-bench\" "
		      "name=\"input\">\n    <error message=\"", f);
		for (const char *p = msg; *p; p++) {
			if (*p == '"' || *p == '<' || *p == '>' || *p == '&')
				fprintf(f, "&#%d;", *p);
			else
				fputc(*p, f);
		}
		fputs("\"/>\n  </testcase>\n</testsuite>\n", f);
		fclose(f);
	}
}

static int load_rows(const char *path, struct gpuc_rows *rows,
                     struct strbuf *err)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	int rc;

	if (!f) {
		strbuf_addf(err, "cannot open '%s': %s", path,
		            strerror(errno));
		return -1;
	}
	rc = gpuc_read_rows(f, strcmp(path, "-") == 0 ? "<stdin>" : path, rows,
	                    err);
	if (f != stdin)
		fclose(f);
	return rc;
}

static void print_failures(const struct gpuc_result *res)
{
	for (size_t i = 0; i < res->n; i++) {
		const struct gpuc_check *c = &res->v[i];

		if (c->pass)
			continue;
		if (c->line > 0)
			fprintf(stderr, "gpu-check: FAIL line %d: %s: %s: %s, "
			        "bound %s\n", c->line, c->row, c->check,
			        c->value_text, c->bound);
		else
			fprintf(stderr, "gpu-check: FAIL %s: %s: %s, bound %s\n",
			        c->row, c->check, c->value_text, c->bound);
	}
}

static int write_reports(const struct opts *o, const struct gpuc_device *dev,
                         const struct gpuc_bounds *b,
                         const struct gpuc_rows *rows,
                         const struct gpuc_result *res)
{
	int rc = 0;

	if (o->json) {
		json_t *r = gpuc_report(dev, b, rows, res);

		rc |= !r || write_json(o->json, r);
		json_decref(r);
	}
	if (o->junit) {
		FILE *f = fopen(o->junit, "w");

		if (!f || gpuc_write_junit(f, res) != 0) {
			fprintf(stderr, "gpu-check: cannot write '%s'\n",
			        o->junit);
			rc = 1;
		}
		if (f && fclose(f) != 0)
			rc = 1;
	}
	if (o->svg) {
		FILE *f = fopen(o->svg, "w");
		int bad = !f || gpuc_write_svg(f, dev, b, rows, res) != 0;

		if ((f && fclose(f) != 0) || bad) {
			fprintf(stderr, "gpu-check: cannot write '%s'\n", o->svg);
			rc = 1;
		}
	}
	return rc ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	struct gpuc_device dev;
	struct gpuc_bounds b;
	struct gpuc_rows rows = { 0 };
	struct gpuc_result res = { 0 };
	struct strbuf err = STRBUF_INIT;
	int rc = EXIT_ERROR, failed;

	if (argc == 2 && strcmp(argv[1], "--help") == 0) {
		usage(stdout);
		return EXIT_PASS;
	}
	if (parse_args(argc, argv, &o) != 0) {
		usage(stderr);
		return EXIT_ERROR;
	}
	if (gpuc_load_device(o.device, &dev, &err) != 0 ||
	    gpuc_load_bounds(o.bounds, dev.name, &b, &err) != 0 ||
	    load_rows(o.rows, &rows, &err) != 0) {
		fprintf(stderr, "gpu-check: %s\n", strbuf_str(&err));
		write_error_reports(&o, strbuf_str(&err));
		goto out;
	}
	failed = gpuc_judge(&b, &dev, &rows, &res);
	if (failed < 0) {
		fprintf(stderr, "gpu-check: out of memory\n");
		goto out;
	}
	gpuc_print_table(stdout, &dev, &b, &res);
	fflush(stdout);
	print_failures(&res);
	if (write_reports(&o, &dev, &b, &rows, &res) != 0)
		goto out;
	rc = failed ? EXIT_FAILED : EXIT_PASS;
out:
	strbuf_release(&err);
	gpuc_result_release(&res);
	gpuc_rows_release(&rows);
	return rc;
}
