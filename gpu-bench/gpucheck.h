#ifndef WG_GPUCHECK_H
#define WG_GPUCHECK_H

/*
 * gpucheck: judge the rows coalescing.cu prints with --json against the
 * bounds in gpu-bench/bounds.json and the device devquery describes.
 *
 * Theory of operation
 *   1. gpuc_load_device()  reads devquery's object (name, cc, peak_gbps are
 *                          all it needs).
 *   2. gpuc_load_bounds()  reads bounds.json: the expected rows, the default
 *                          limits, and the per-GPU profiles; the first
 *                          profile whose "match" fits the device name
 *                          replaces defaults with tighter limits (a profile
 *                          that would loosen one is a malformed file).
 *   3. gpuc_read_rows()    parses one JSON row per line. A line that is not
 *                          a complete row (a CUDA error message, a truncated
 *                          object, a wrong type) is malformed input, never a
 *                          bound failure: the program did not measure.
 *   4. gpuc_judge()        turns the rows into a list of checks, each with
 *                          its row, value, bound and verdict.
 *   5. gpuc_print_table(), gpuc_report(), gpuc_write_junit() present them.
 *
 * Errors: the loaders and row parsers return 0, or -1 with a one-line
 * message appended to err, a struct strbuf (grader/lib/strbuf.h):
 * "file:line:column: text" where the place is known; gpuc_judge and the
 * writers: -1 (gpuc_report NULL) when memory or writing fails, with no
 * message. They never print (but gpuc_print_table, to the FILE it is
 * given) and never exit.
 */

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

struct strbuf;

#define GPUC_MAX_EXPECT 16

/*
 * The sector model: coalescing.cu copies 4-byte floats, and the memory
 * system moves whole 32-byte sectors. A warp whose lanes are s floats apart
 * uses 1/s of every sector it touches until, from s = 8 on, each lane has a
 * sector of its own (1/8).
 */
#define GPUC_ELEM_BYTES 4
#define GPUC_SECTOR_BYTES 32

enum gpuc_pattern { GPUC_STRIDE, GPUC_CHUNKED };

struct gpuc_row {
	int line;                  /* 1-based line in the rows input */
	enum gpuc_pattern pattern;
	long param;                /* the stride, or the chunk size */
	double ms;
	double gbps;
	double bytes;              /* integral; double keeps huge values exact enough */
};

struct gpuc_rows {
	struct gpuc_row *v;
	size_t n, alloc;
};

struct gpuc_device {
	char name[256];
	char cc[16];
	double peak_gbps;          /* theoretical: 2 x memory clock x bus bytes */
};

/* Every limit bounds.json sets; "defaults" must set all of them. */
struct gpuc_limits {
	double gbps_rel_tol;       /* |gbps - bytes/ms| <= tol x bytes/ms */
	double peak_max_frac;      /* every row <= frac x peak */
	double stride1_min_frac;   /* stride 1 >= frac x peak */
	double strided_max_frac;   /* each stride > 1 <= frac x stride 1 */
	double rise_max_ratio;     /* stride s[k] <= ratio x stride s[k-1] */
	double widest_max_frac;    /* widest stride < frac x stride 1 */
	double chunked_max_frac;   /* chunked < frac x stride 1 */
	double sector_margin;      /* stride s <= margin x efficiency(s) x
	                              stride 1, for s up to the sector */
	double datasheet_tol;      /* |peak - datasheet| <= tol x datasheet */
};

struct gpuc_expect {
	enum gpuc_pattern pattern;
	long param;
};

struct gpuc_bounds {
	double bytes;                          /* every row's byte count */
	struct gpuc_expect expect[GPUC_MAX_EXPECT];
	size_t n_expect;
	struct gpuc_limits lim;
	char profile[64];                      /* "" when no profile matched */
	char source[512];                      /* the profile's citation */
	double datasheet_gbps;                 /* 0 when no profile */
};

struct gpuc_check {
	char row[32];          /* "stride 16", "chunked 32", "device" */
	int line;              /* line of the row in the input; 0 if none */
	char check[24];        /* "bytes", "rise", ... */
	double value;          /* NAN when the check has no number (missing) */
	double limit;          /* NAN when the bound is not a number */
	char value_text[32];
	char bound[96];        /* human text: "<= 930.000 (1.50 x stride 8)" */
	int side;              /* which side of gbps limit bounds (enum below) */
	int pass;
};

/* A check's bearing on the row's bandwidth: what the plot's band shows. */
enum gpuc_side { GPUC_SIDE_NONE, GPUC_SIDE_UPPER, GPUC_SIDE_LOWER };

struct gpuc_result {
	struct gpuc_check *v;
	size_t n, alloc;
	size_t failed;
};

/* Fills dev from devquery's JSON file. */
int gpuc_load_device(const char *path, struct gpuc_device *dev,
                     struct strbuf *err);
int gpuc_device_from_json(json_t *obj, const char *src,
                          struct gpuc_device *dev, struct strbuf *err);

/* Fills b from bounds.json, applying the first profile matching name. */
int gpuc_load_bounds(const char *path, const char *device_name,
                     struct gpuc_bounds *b, struct strbuf *err);
int gpuc_bounds_from_json(json_t *root, const char *src,
                          const char *device_name, struct gpuc_bounds *b,
                          struct strbuf *err);

/*
 * 1 when every word of pattern (split on anything but letters and digits)
 * is one of name's words, case-insensitively: "A10" matches "NVIDIA A10"
 * but not "NVIDIA A100-SXM4-80GB"; "A100 80GB" matches both 80GB A100s.
 */
int gpuc_name_matches(const char *name, const char *pattern);

/*
 * Parses one line (len bytes, no newline needed). Returns 1 and fills row,
 * 0 for a blank line, -1 with err ("column N: text", no file prefix).
 */
int gpuc_parse_row(const char *text, size_t len, struct gpuc_row *row,
                   struct strbuf *err);

/*
 * Reads every line of f into rows (rows must start zeroed; the caller frees
 * with gpuc_rows_release, also after an error). file names f in messages.
 * Input with no row at all is an error: nothing was measured.
 */
int gpuc_read_rows(FILE *f, const char *file, struct gpuc_rows *rows,
                   struct strbuf *err);
void gpuc_rows_release(struct gpuc_rows *rows);

/* "stride 16" or "chunked 32". */
void gpuc_row_label(enum gpuc_pattern p, long param, char *buf, size_t sz);

/*
 * Appends every check to res (which must start zeroed; free it with
 * gpuc_result_release). Returns the number failed, -1 when out of memory.
 */
int gpuc_judge(const struct gpuc_bounds *b, const struct gpuc_device *dev,
               const struct gpuc_rows *rows, struct gpuc_result *res);
void gpuc_result_release(struct gpuc_result *res);

/*
 * The sector model's useful bytes / moved bytes for a stride: 1, 1/2, 1/4,
 * then 1/8 from stride 8 on (GPUC_ELEM_BYTES, GPUC_SECTOR_BYTES).
 */
double gpuc_sector_efficiency(long stride);

/* The first check named check on row label, or NULL. */
const struct gpuc_check *gpuc_find(const struct gpuc_result *res,
                                   const char *row, const char *check);

void gpuc_print_table(FILE *out, const struct gpuc_device *dev,
                      const struct gpuc_bounds *b,
                      const struct gpuc_result *res);

/* A new reference to the JSON report (caller decrefs); NULL if no memory. */
json_t *gpuc_report(const struct gpuc_device *dev, const struct gpuc_bounds *b,
                    const struct gpuc_rows *rows,
                    const struct gpuc_result *res);

/* JUnit XML: one testcase per check, classname the row. 0 or -1 (errno). */
int gpuc_write_junit(FILE *out, const struct gpuc_result *res);

/*
 * The lesson as a picture (gpucheck_plot.c): one inline SVG, no script,
 * no external reference, no XML declaration (so a page can embed it):
 * bandwidth against stride on log2 axes, the measured rows, the
 * theoretical peak, the sector model's expectation, the band the checks
 * allow each row, and every failed check marked on its row. Each row is a
 * <g class="row"> whose data- attributes carry what the picture shows
 * (data-row, data-gbps, data-lo, data-hi, data-in-band, data-failed), so
 * tests read the data rather than the pixels. 0, or -1 on a write error.
 */
int gpuc_write_svg(FILE *out, const struct gpuc_device *dev,
                   const struct gpuc_bounds *b, const struct gpuc_rows *rows,
                   const struct gpuc_result *res);

#endif
