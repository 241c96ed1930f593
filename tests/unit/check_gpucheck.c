/*
 * gpucheck: name matching, bounds loading, row parsing and the judgement of
 * every recorded run in gpu-bench/testdata/ (honest runs pass; each broken
 * run fails on the check made for its defect). The runner starts in the
 * repository root, so the data files are opened by relative path.
 */
#include <check.h>
#include <math.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu-bench/gpucheck.h"
#include "grader/lib/strbuf.h"
#include "tests/unit/wg_check.h"

#define BOUNDS "gpu-bench/bounds.json"
#define DATA "gpu-bench/testdata/"

/* ---------- helpers ---------- */

static void load_device(const char *path, struct gpuc_device *dev)
{
	struct strbuf err = STRBUF_INIT;

	ck_assert_msg(gpuc_load_device(path, dev, &err) == 0, "%s",
	              strbuf_str(&err));
	strbuf_release(&err);
}

static void load_bounds(const char *name, struct gpuc_bounds *b)
{
	struct strbuf err = STRBUF_INIT;

	ck_assert_msg(gpuc_load_bounds(BOUNDS, name, b, &err) == 0,
	              "%s", strbuf_str(&err));
	strbuf_release(&err);
}

/* Reads a rows file; returns gpuc_read_rows' status, err appended to. */
static int read_rows_file(const char *path, struct gpuc_rows *rows,
                          struct strbuf *err)
{
	FILE *f = fopen(path, "r");
	int rc;

	ck_assert_msg(f != NULL, "cannot open %s", path);
	rc = gpuc_read_rows(f, path, rows, err);
	fclose(f);
	return rc;
}

/* Judges rows against device; res must be released by the caller. */
static int judge_files(const char *device, const char *rows_path,
                       struct gpuc_result *res)
{
	struct gpuc_device dev;
	struct gpuc_bounds b;
	struct gpuc_rows rows = { 0 };
	struct strbuf err = STRBUF_INIT;
	int failed;

	load_device(device, &dev);
	load_bounds(dev.name, &b);
	ck_assert_msg(read_rows_file(rows_path, &rows, &err) == 0,
	              "%s", strbuf_str(&err));
	strbuf_release(&err);
	failed = gpuc_judge(&b, &dev, &rows, res);
	gpuc_rows_release(&rows);
	ck_assert_int_ge(failed, 0);
	return failed;
}

static int check_failed(const struct gpuc_result *res, const char *row,
                        const char *check)
{
	const struct gpuc_check *c = gpuc_find(res, row, check);

	ck_assert_msg(c != NULL, "no check '%s' on '%s'", check, row);
	return !c->pass;
}

/* A bounds document from text, for the malformed-bounds tests: err is
 * emptied first. */
static int bounds_text(const char *text, const char *name, struct strbuf *err)
{
	json_error_t je;
	json_t *root = json_loads(text, 0, &je);
	struct gpuc_bounds b;
	int rc;

	ck_assert_msg(root != NULL, "test JSON: %s", je.text);
	strbuf_reset(err);
	rc = gpuc_bounds_from_json(root, "b.json", name, &b, err);
	json_decref(root);
	return rc;
}

#define MIN_DEFAULTS                                                        \
	"\"bytes\": 536870912, \"rows\": [{\"pattern\": \"stride\", "       \
	"\"stride\": 1}], \"defaults\": {\"gbps_rel_tol\": 0.002, "         \
	"\"peak_max_frac\": 1.0, \"stride1_min_frac\": 0.46, "              \
	"\"strided_max_frac\": 1.05, \"rise_max_ratio\": 1.5, "             \
	"\"widest_max_frac\": 0.5, \"chunked_max_frac\": 1.0, "             \
	"\"datasheet_tol\": 0.1, \"sector_margin\": 1.6}"

/* ---------- name matching ---------- */

START_TEST(test_match_words)
{
	ck_assert(gpuc_name_matches("NVIDIA A10", "A10"));
	ck_assert(!gpuc_name_matches("NVIDIA A100-SXM4-80GB", "A10"));
	ck_assert(!gpuc_name_matches("NVIDIA A10G", "A10"));
	ck_assert(gpuc_name_matches("NVIDIA A100-SXM4-80GB", "A100 SXM4 80GB"));
	ck_assert(gpuc_name_matches("NVIDIA A100 80GB PCIe", "a100 80gb pcie"));
	ck_assert(gpuc_name_matches("NVIDIA GeForce RTX 4090", "RTX 4090"));
	ck_assert(!gpuc_name_matches("NVIDIA GeForce RTX 4080", "RTX 4090"));
	ck_assert(gpuc_name_matches("Tesla T4", "T4"));
	ck_assert(!gpuc_name_matches("NVIDIA L40S", "L4"));
	ck_assert(!gpuc_name_matches("NVIDIA H100 80GB HBM3", "H100 PCIe"));
	ck_assert(!gpuc_name_matches("anything", ""));
	ck_assert(!gpuc_name_matches("anything", " - "));
}
END_TEST

/* ---------- bounds ---------- */

START_TEST(test_bounds_defaults)
{
	struct gpuc_bounds b;

	load_bounds("NVIDIA GeForce GTX 1650", &b);
	ck_assert_str_eq(b.profile, "");
	ck_assert(b.bytes == 536870912.0);
	ck_assert_uint_eq(b.n_expect, 7);
	ck_assert_int_eq(b.expect[0].pattern, GPUC_STRIDE);
	ck_assert_int_eq(b.expect[0].param, 1);
	ck_assert_int_eq(b.expect[5].param, 32);
	ck_assert_int_eq(b.expect[6].pattern, GPUC_CHUNKED);
	ck_assert_int_eq(b.expect[6].param, 32);
	ck_assert_double_eq_tol(b.lim.stride1_min_frac, 0.46, 1e-9);
	ck_assert_double_eq_tol(b.lim.rise_max_ratio, 1.5, 1e-9);
	ck_assert_double_eq_tol(b.lim.widest_max_frac, 0.5, 1e-9);
	ck_assert(b.datasheet_gbps == 0);
}
END_TEST

START_TEST(test_bounds_profiles)
{
	static const struct {
		const char *device, *profile;
		double datasheet, floor;
	} cases[] = {
		{ "Tesla T4", "T4", 320, 0.55 },
		{ "NVIDIA L4", "L4", 300, 0.55 },
		{ "NVIDIA A10", "A10", 600, 0.55 },
		{ "NVIDIA A10G", "A10G", 600, 0.55 },
		{ "NVIDIA A100-PCIE-40GB", "A100 40GB", 1555, 0.60 },
		{ "NVIDIA A100-SXM4-80GB", "A100 80GB SXM", 2039, 0.60 },
		{ "NVIDIA A100 80GB PCIe", "A100 80GB PCIe", 1935, 0.60 },
		{ "NVIDIA H100 80GB HBM3", "H100 SXM", 3350, 0.60 },
		{ "NVIDIA H100 PCIe", "H100 PCIe", 2000, 0.60 },
		{ "NVIDIA H100 NVL", "H100 NVL", 3900, 0.60 },
		{ "NVIDIA H200", "H200", 4800, 0.60 },
		{ "NVIDIA GeForce RTX 4090", "RTX 4090", 1008, 0.55 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct gpuc_bounds b;

		load_bounds(cases[i].device, &b);
		ck_assert_msg(strcmp(b.profile, cases[i].profile) == 0,
		              "%s matched '%s', want '%s'", cases[i].device,
		              b.profile, cases[i].profile);
		ck_assert(b.datasheet_gbps == cases[i].datasheet);
		ck_assert_double_eq_tol(b.lim.stride1_min_frac, cases[i].floor,
		                        1e-9);
		ck_assert(b.source[0] != '\0');
		/* untouched limits keep their defaults */
		ck_assert_double_eq_tol(b.lim.rise_max_ratio, 1.5, 1e-9);
	}
}
END_TEST

START_TEST(test_bounds_loosening_rejected)
{
	struct strbuf err = STRBUF_INIT;

	ck_assert_int_eq(bounds_text("{" MIN_DEFAULTS ", \"profiles\": [{"
	                             "\"name\": \"X\", \"match\": [\"X\"], "
	                             "\"datasheet_gbps\": 100, \"source\": "
	                             "\"s\", \"stride1_min_frac\": 0.3}]}",
	                             "Other", &err), -1);
	ck_assert_msg(strstr(err.buf, "loosens") && strstr(err.buf, "'X'"), "%s",
	              err.buf);
	ck_assert_int_eq(bounds_text("{" MIN_DEFAULTS ", \"profiles\": [{"
	                             "\"name\": \"X\", \"match\": [\"X\"], "
	                             "\"datasheet_gbps\": 100, \"source\": "
	                             "\"s\", \"rise_max_ratio\": 3}]}",
	                             "X", &err), -1);
	ck_assert_msg(strstr(err.buf, "rise_max_ratio"), "%s", err.buf);
	strbuf_release(&err);
}
END_TEST

START_TEST(test_bounds_malformed)
{
	struct strbuf err = STRBUF_INIT;
	char path[PATH_MAX];
	int fd = mkstemp(check_scratch(path, sizeof(path), "bounds-XXXXXX"));
	struct gpuc_bounds b;
	FILE *f;

	/* typo in a profile key */
	ck_assert_int_eq(bounds_text("{" MIN_DEFAULTS ", \"profiles\": [{"
	                             "\"name\": \"X\", \"match\": [\"X\"], "
	                             "\"datasheet_gbps\": 100, \"source\": "
	                             "\"s\", \"stride1_min_fraction\": 0.7}]}",
	                             "Y", &err), -1);
	ck_assert_msg(strstr(err.buf, "unknown key 'stride1_min_fraction'"), "%s",
	              err.buf);
	/* a default missing */
	ck_assert_int_eq(bounds_text("{\"bytes\": 1, \"rows\": [{\"pattern\": "
	                             "\"stride\", \"stride\": 1}], "
	                             "\"defaults\": {}}", "Y", &err), -1);
	ck_assert_msg(strstr(err.buf, "defaults"), "%s", err.buf);
	/* the same row expected twice */
	ck_assert_int_eq(bounds_text("{\"bytes\": 1, \"rows\": [{\"pattern\": "
	                             "\"stride\", \"stride\": 4}, {\"pattern\": "
	                             "\"stride\", \"stride\": 4}], "
	                             "\"defaults\": {}}", "Y", &err), -1);
	ck_assert_msg(strstr(err.buf, "rows[1] repeats rows[0]"), "%s", err.buf);
	/* syntax: file:line:column */
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	fputs("{\n  \"bytes\": 1,\n  \"rows\": [\n}\n", f);
	fclose(f);
	strbuf_reset(&err);
	ck_assert_int_eq(gpuc_load_bounds(path, "Y", &b, &err), -1);
	ck_assert_msg(strncmp(err.buf, path, strlen(path)) == 0 &&
	              strstr(err.buf, ":4:"), "%s", err.buf);
	strbuf_release(&err);
	remove(path);
}
END_TEST

/* ---------- rows ---------- */

START_TEST(test_parse_row_ok)
{
	static const char line[] = "{\"pattern\":\"stride\",\"stride\":16,"
	                           "\"ms\":1.299756,\"gbps\":413.055,"
	                           "\"bytes\":536870912}";
	struct gpuc_row r;
	struct strbuf err = STRBUF_INIT;

	ck_assert_int_eq(gpuc_parse_row(line, strlen(line), &r, &err), 1);
	ck_assert_int_eq(r.pattern, GPUC_STRIDE);
	ck_assert_int_eq(r.param, 16);
	ck_assert_double_eq_tol(r.ms, 1.299756, 1e-12);
	ck_assert(r.bytes == 536870912.0);
	ck_assert_int_eq(gpuc_parse_row("  \t", 3, &r, &err), 0);
	ck_assert_uint_eq(err.len, 0);
}
END_TEST

START_TEST(test_parse_row_malformed)
{
	static const struct {
		const char *line, *want;
	} cases[] = {
		{ "CUDA error coalescing.cu:137: cudaMalloc(&d_in, bytes): "
		  "out of memory", "a CUDA error" },
		{ "GPU: Tesla T4 (compute capability 7.5)", "text in place" },
		{ "{\"pattern\":\"stride\",\"stride\":16,\"ms\":", "truncated" },
		{ "{\"pattern\":\"stride\",\"stride\":1,\"ms\":1,\"gbps\":1,"
		  "\"bytes\":\"536870912\"}", "'bytes' an integer" },
		{ "{\"pattern\":\"tiled\",\"tile\":1,\"ms\":1,\"gbps\":1,"
		  "\"bytes\":1}", "unknown pattern 'tiled'" },
		{ "{\"pattern\":\"stride\",\"ms\":1,\"gbps\":1,\"bytes\":1}",
		  "integer 'stride'" },
		{ "{\"pattern\":\"chunked\",\"chunk\":32,\"gbps\":1,"
		  "\"bytes\":1}", "not a row" },
		{ "[1, 2]", "text in place" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct gpuc_row r;
		struct strbuf err = STRBUF_INIT;
		const char *l = cases[i].line;

		ck_assert_int_eq(gpuc_parse_row(l, strlen(l), &r, &err), -1);
		ck_assert_msg(strstr(err.buf, cases[i].want), "case %zu: %s", i,
		              err.buf);
		strbuf_release(&err);
	}
}
END_TEST

START_TEST(test_read_rows_places_errors)
{
	static char text[] = "{\"pattern\":\"stride\",\"stride\":1,\"ms\":1,"
	                     "\"gbps\":536.871,\"bytes\":536870912}\n\n"
	                     "CUDA error x.cu:1: boom\n";
	FILE *f = fmemopen(text, strlen(text), "r");
	struct gpuc_rows rows = { 0 };
	struct strbuf err = STRBUF_INIT;

	ck_assert_int_eq(gpuc_read_rows(f, "x.jsonl", &rows, &err), -1);
	ck_assert_msg(strncmp(err.buf, "x.jsonl:3: a CUDA error", 23) == 0,
	              "%s", err.buf);
	strbuf_release(&err);
	fclose(f);
	gpuc_rows_release(&rows);
}
END_TEST

START_TEST(test_recorded_malformed)
{
	static const struct {
		const char *file, *want;
	} cases[] = {
		{ DATA "broken/truncated.rows.jsonl", "truncated.rows.jsonl:5:" },
		{ DATA "broken/cuda-error.rows.jsonl",
		  "cuda-error.rows.jsonl:1: a CUDA error" },
		{ DATA "broken/empty.rows.jsonl", "empty" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct gpuc_rows rows = { 0 };
		struct strbuf err = STRBUF_INIT;

		ck_assert_int_eq(read_rows_file(cases[i].file, &rows, &err), -1);
		ck_assert_msg(strstr(err.buf, cases[i].want), "%s", err.buf);
		strbuf_release(&err);
		gpuc_rows_release(&rows);
	}
}
END_TEST

/* ---------- judging ---------- */

START_TEST(test_honest_runs_pass)
{
	static const char *const gpus[] = { "t4", "l4", "a100-sxm4-80gb",
		                            "h100-sxm", "h200", "rtx-4090" };

	for (size_t i = 0; i < sizeof(gpus) / sizeof(*gpus); i++) {
		char dev[256], rows[256];
		struct gpuc_result res = { 0 };
		int failed;

		snprintf(dev, sizeof(dev), DATA "honest/%s.device.json", gpus[i]);
		snprintf(rows, sizeof(rows), DATA "honest/%s.rows.jsonl", gpus[i]);
		failed = judge_files(dev, rows, &res);
		for (size_t j = 0; j < res.n; j++)
			ck_assert_msg(res.v[j].pass, "%s: %s %s: %s not %s",
			              gpus[i], res.v[j].row, res.v[j].check,
			              res.v[j].value_text, res.v[j].bound);
		ck_assert_int_eq(failed, 0);
		/* a profile matched, so the datasheet check ran */
		ck_assert_ptr_nonnull(gpuc_find(&res, "device", "datasheet"));
		gpuc_result_release(&res);
	}
}
END_TEST

/*
 * Each broken run fails exactly the checks listed for it (on the H100
 * device); any other failure means a check misfires.
 */
START_TEST(test_broken_runs_fail_for_the_right_reason)
{
	static const struct {
		const char *file;
		const char *fails[4][2];
	} cases[] = {
		{ "modulo-bug", { { "stride 16", "rise" },
		                  { "stride 32", "rise" },
		                  { "stride 32", "well below" } } },
		{ "wrong-bytes", { { "stride 8", "bytes" } } },
		{ "missing-row", { { "stride 4", "present" } } },
		{ "duplicate-row", { { "stride 2", "present" } } },
		/* the printed 1.6 x gbps is also above the sector bounds */
		{ "gbps-mismatch", { { "stride 4", "gbps=bytes/ms" },
		                     { "stride 4", "sector" },
		                     { "stride 4", "sector peak" } } },
		{ "above-peak", { { "stride 1", "peak" } } },
		{ "strided-faster", { { "stride 2", "vs stride 1" },
		                      { "stride 2", "sector" },
		                      { "stride 2", "sector peak" } } },
		{ "stride2-near-stride1", { { "stride 2", "sector" },
		                            { "stride 2", "sector peak" } } },
		{ "chunked-faster", { { "chunked 32", "below stride 1" } } },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char rows[256];
		struct gpuc_result res = { 0 };
		int failed, want = 0;

		snprintf(rows, sizeof(rows), DATA "broken/%s.rows.jsonl",
		         cases[i].file);
		failed = judge_files(DATA "honest/h100-sxm.device.json", rows,
		                     &res);
		for (; want < 4 && cases[i].fails[want][0]; want++)
			ck_assert_msg(check_failed(&res, cases[i].fails[want][0],
			                           cases[i].fails[want][1]),
			              "%s: %s %s passed", cases[i].file,
			              cases[i].fails[want][0],
			              cases[i].fails[want][1]);
		ck_assert_msg(failed == want, "%s: %d failures, want %d",
		              cases[i].file, failed, want);
		gpuc_result_release(&res);
	}
}
END_TEST

/*
 * Worked by hand with the default limits: peak 100 GB/s; stride 1 at 80
 * GB/s takes 536870912 / 80e6 = 6.7108864 ms. Floor 0.46 x 100 = 46.
 */
START_TEST(test_judge_by_hand)
{
	struct gpuc_device dev = { .name = "Hand GPU", .cc = "8.0",
		                   .peak_gbps = 100.0 };
	struct gpuc_bounds b;
	struct gpuc_row v[2] = {
		{ .line = 1, .pattern = GPUC_STRIDE, .param = 1,
		  .ms = 6.7108864, .gbps = 80.0, .bytes = 536870912.0 },
		/* 40 GB/s would be 13.4217728 ms; 0.3% off fails 0.2% */
		{ .line = 2, .pattern = GPUC_STRIDE, .param = 2,
		  .ms = 13.4217728, .gbps = 40.12, .bytes = 536870912.0 },
	};
	struct gpuc_rows rows = { .v = v, .n = 2 };
	struct gpuc_result res = { 0 };
	const struct gpuc_check *c;

	load_bounds(dev.name, &b);
	ck_assert_int_ge(gpuc_judge(&b, &dev, &rows, &res), 0);
	c = gpuc_find(&res, "stride 1", "floor");
	ck_assert_ptr_nonnull(c);
	ck_assert_double_eq_tol(c->limit, 46.0, 1e-9);
	ck_assert(c->pass);
	c = gpuc_find(&res, "stride 1", "gbps=bytes/ms");
	ck_assert(c->pass);
	c = gpuc_find(&res, "stride 2", "gbps=bytes/ms");
	ck_assert_double_eq_tol(c->limit, 40.0, 1e-9);
	ck_assert(!c->pass);
	c = gpuc_find(&res, "stride 2", "vs stride 1");
	ck_assert_double_eq_tol(c->limit, 84.0, 1e-9);
	ck_assert(c->pass);
	c = gpuc_find(&res, "stride 2", "rise");
	ck_assert_double_eq_tol(c->limit, 120.0, 1e-9);
	/* no profile, so no datasheet check; strides 4..32 and chunked
	 * missing: 5 presence failures + the gbps mismatch */
	ck_assert_ptr_null(gpuc_find(&res, "device", "datasheet"));
	ck_assert_uint_eq(res.failed, 6);
	gpuc_result_release(&res);
}
END_TEST

/* A deterministic generator for the noisy runs below (LCG, Knuth MMIX). */
static double uniform(unsigned long long *state, double lo, double hi)
{
	*state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
	return lo + (hi - lo) * (double)(*state >> 11) / 9007199254740992.0;
}

/* A row as coalescing.cu prints it: ms to 6 places, gbps from that ms. */
static struct gpuc_row make_row(int line, enum gpuc_pattern p, long param,
                                double gbps)
{
	struct gpuc_row r = { .line = line, .pattern = p, .param = param,
		              .bytes = 536870912.0 };

	r.ms = round(r.bytes / (gbps * 1e6) * 1e6) / 1e6;
	r.gbps = round(r.bytes / r.ms / 1e6 * 1e3) / 1e3;
	return r;
}

/*
 * Honest runs with realistic noise pass on every profile: stride 1 drives
 * DRAM at 62-95% of peak; the strided rows share one DRAM efficiency of
 * 60-97% (+-4% per row, capped below peak) spread over 1/efficiency(s)
 * times the bytes; strides 16 and 32 get up to 20% back from L2; chunked
 * is 20-80% of stride 1. 2000 runs per profile.
 */
START_TEST(test_noisy_honest_runs_pass)
{
	static const char *const names[] = {
		"Tesla T4", "NVIDIA L4", "NVIDIA A10", "NVIDIA A100-SXM4-80GB",
		"NVIDIA H100 80GB HBM3", "NVIDIA H200", "NVIDIA GeForce RTX 4090",
		"Some Future GPU" };
	static const long strides[] = { 1, 2, 4, 8, 16, 32 };
	unsigned long long state = 12;

	for (size_t g = 0; g < sizeof(names) / sizeof(*names); g++) {
		struct gpuc_device dev = { .cc = "9.0" };
		struct gpuc_bounds b;

		snprintf(dev.name, sizeof(dev.name), "%s", names[g]);
		load_bounds(dev.name, &b);
		/* the datasheet figure, so the datasheet check passes */
		dev.peak_gbps = b.datasheet_gbps > 0 ? b.datasheet_gbps : 1000;
		for (int run = 0; run < 2000; run++) {
			struct gpuc_row v[7];
			struct gpuc_rows rows = { .v = v, .n = 7 };
			struct gpuc_result res = { 0 };
			double e1 = uniform(&state, 0.62, 0.95);
			double es = uniform(&state, 0.60, 0.97);

			for (int i = 0; i < 6; i++) {
				double e = es * uniform(&state, 0.96, 1.04);
				double l2 = strides[i] > 8 ?
				            uniform(&state, 1.0, 1.2) : 1.0;

				if (i == 0)
					e = e1;
				if (e > 0.99)
					e = 0.99;
				v[i] = make_row(i + 1, GPUC_STRIDE, strides[i],
				                dev.peak_gbps * e * l2 *
				                gpuc_sector_efficiency(strides[i]));
			}
			v[6] = make_row(7, GPUC_CHUNKED, 32, v[0].gbps *
			                uniform(&state, 0.2, 0.8));
			ck_assert_int_ge(gpuc_judge(&b, &dev, &rows, &res), 0);
			for (size_t j = 0; j < res.n; j++)
				ck_assert_msg(res.v[j].pass, "%s run %d: %s %s: %s "
				              "not %s", names[g], run,
				              res.v[j].row, res.v[j].check,
				              res.v[j].value_text, res.v[j].bound);
			gpuc_result_release(&res);
		}
	}
}
END_TEST

/*
 * A run whose stride 2 is at or near stride 1 fails, naming the sector
 * check, whatever the device: from 0.85 to 1.0 x stride 1 with the rest of
 * the run honest (stride 1 at 90% of peak).
 */
START_TEST(test_stride2_near_stride1_fails)
{
	struct gpuc_device dev = { .name = "NVIDIA H100 80GB HBM3", .cc = "9.0",
		                   .peak_gbps = 3352.32 };
	static const double s[] = { 1, 0.5, 0.25, 0.125, 0.125, 0.125 };
	struct gpuc_bounds b;

	load_bounds(dev.name, &b);
	for (double near = 0.85; near <= 1.0001; near += 0.05) {
		struct gpuc_row v[7];
		struct gpuc_rows rows = { .v = v, .n = 7 };
		struct gpuc_result res = { 0 };
		const struct gpuc_check *c;

		for (int i = 0; i < 6; i++)
			v[i] = make_row(i + 1, GPUC_STRIDE, 1L << i,
			                0.9 * dev.peak_gbps * s[i]);
		v[1] = make_row(2, GPUC_STRIDE, 2, v[0].gbps * near);
		v[6] = make_row(7, GPUC_CHUNKED, 32, v[0].gbps * 0.4);
		ck_assert_int_ge(gpuc_judge(&b, &dev, &rows, &res), 1);
		c = gpuc_find(&res, "stride 2", "sector");
		ck_assert_msg(c && !c->pass, "stride 2 at %.2f x stride 1 passed",
		              near);
		ck_assert_double_eq_tol(c->limit, 0.8 * v[0].gbps, 1e-6);
		ck_assert_int_eq(c->line, 2);
		/* and the old check alone would have let it through */
		ck_assert(gpuc_find(&res, "stride 2", "vs stride 1")->pass);
		gpuc_result_release(&res);
	}
}
END_TEST

START_TEST(test_sector_efficiency)
{
	ck_assert_double_eq(gpuc_sector_efficiency(1), 1.0);
	ck_assert_double_eq(gpuc_sector_efficiency(2), 0.5);
	ck_assert_double_eq(gpuc_sector_efficiency(4), 0.25);
	ck_assert_double_eq(gpuc_sector_efficiency(8), 0.125);
	ck_assert_double_eq(gpuc_sector_efficiency(16), 0.125);
	ck_assert_double_eq(gpuc_sector_efficiency(32), 0.125);
}
END_TEST

START_TEST(test_unexpected_row)
{
	struct gpuc_device dev = { .name = "Hand GPU", .cc = "8.0",
		                   .peak_gbps = 100.0 };
	struct gpuc_bounds b;
	struct gpuc_row v[1] = {
		{ .line = 9, .pattern = GPUC_STRIDE, .param = 64,
		  .ms = 6.7108864, .gbps = 80.0, .bytes = 536870912.0 },
	};
	struct gpuc_rows rows = { .v = v, .n = 1 };
	struct gpuc_result res = { 0 };
	const struct gpuc_check *c;

	load_bounds(dev.name, &b);
	ck_assert_int_ge(gpuc_judge(&b, &dev, &rows, &res), 0);
	c = gpuc_find(&res, "stride 64", "expected");
	ck_assert_ptr_nonnull(c);
	ck_assert(!c->pass);
	ck_assert_int_eq(c->line, 9);
	gpuc_result_release(&res);
}
END_TEST

START_TEST(test_reports)
{
	struct gpuc_device dev;
	struct gpuc_bounds b;
	struct gpuc_rows rows = { 0 };
	struct gpuc_result res = { 0 };
	struct strbuf err = STRBUF_INIT;
	char *buf = NULL;
	size_t len = 0;
	json_t *rep;
	FILE *mem;

	load_device(DATA "honest/t4.device.json", &dev);
	load_bounds(dev.name, &b);
	ck_assert_int_eq(read_rows_file(DATA "broken/missing-row.rows.jsonl",
	                                &rows, &err), 0);
	strbuf_release(&err);
	ck_assert_int_ge(gpuc_judge(&b, &dev, &rows, &res), 1);
	rep = gpuc_report(&dev, &b, &rows, &res);
	ck_assert_ptr_nonnull(rep);
	ck_assert_str_eq(json_string_value(json_object_get(rep, "status")),
	                 "fail");
	ck_assert_str_eq(json_string_value(json_object_get(rep, "profile")),
	                 "T4");
	ck_assert_uint_eq(json_array_size(json_object_get(rep, "rows")), 6);
	ck_assert_uint_eq(json_array_size(json_object_get(rep, "checks")),
	                  res.n);
	json_decref(rep);

	mem = open_memstream(&buf, &len);
	ck_assert_int_eq(gpuc_write_junit(mem, &res), 0);
	fclose(mem);
	ck_assert_ptr_nonnull(strstr(buf, "<testsuite name=\"gpu-bench\""));
	ck_assert_ptr_nonnull(strstr(buf, "classname=\"gpu-bench.stride 4\" "
	                                  "name=\"present\">"));
	free(buf);
	gpuc_rows_release(&rows);
	gpuc_result_release(&res);
}
END_TEST

/* ---------- plot ---------- */

/* The SVG of rows_path judged on device, in a malloc'd string. */
static char *render(const struct gpuc_device *dev, const char *rows_path)
{
	struct gpuc_bounds b;
	struct gpuc_rows rows = { 0 };
	struct gpuc_result res = { 0 };
	struct strbuf err = STRBUF_INIT;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;

	load_bounds(dev->name, &b);
	ck_assert_msg(read_rows_file(rows_path, &rows, &err) == 0,
	              "%s", strbuf_str(&err));
	strbuf_release(&err);
	ck_assert_int_ge(gpuc_judge(&b, dev, &rows, &res), 0);
	mem = open_memstream(&buf, &len);
	ck_assert_int_eq(gpuc_write_svg(mem, dev, &b, &rows, &res), 0);
	fclose(mem);
	gpuc_rows_release(&rows);
	gpuc_result_release(&res);
	return buf;
}

/* The value of attribute name in the tag starting at tag, into out. */
static int attr(const char *tag, const char *name, char *out, size_t sz)
{
	const char *end = strchr(tag, '>'), *p;
	char key[64];

	snprintf(key, sizeof(key), " %s=\"", name);
	p = strstr(tag, key);
	if (!p || !end || p > end)
		return 0;
	p += strlen(key);
	snprintf(out, sz, "%.*s", (int)(strchr(p, '"') - p), p);
	return 1;
}

/*
 * Rows outside the band, as "stride 16|stride 32|", from the data of each
 * <g class="row">; each one's gbps must also lie outside [lo, hi].
 */
static void out_of_band(const char *svg, char *list, size_t sz)
{
	list[0] = '\0';
	for (const char *g = strstr(svg, "<g class=\"row\""); g;
	     g = strstr(g + 1, "<g class=\"row\"")) {
		char row[32], in[4], gbps[32], lo[32], hi[32];

		ck_assert(attr(g, "data-row", row, sizeof(row)));
		ck_assert(attr(g, "data-in-band", in, sizeof(in)));
		if (strcmp(in, "0") != 0)
			continue;
		ck_assert(attr(g, "data-gbps", gbps, sizeof(gbps)));
		ck_assert(attr(g, "data-lo", lo, sizeof(lo)));
		ck_assert(attr(g, "data-hi", hi, sizeof(hi)));
		ck_assert_msg(atof(gbps) > atof(hi) || atof(gbps) < atof(lo),
		              "%s: %s inside [%s, %s]", row, gbps, lo, hi);
		snprintf(list + strlen(list), sz - strlen(list), "%s|", row);
	}
}

START_TEST(test_plot_recorded_runs)
{
	static const struct {
		const char *device, *rows, *outside;
	} cases[] = {
		{ "honest/h100-sxm", "honest/h100-sxm", "" },
		{ "honest/t4", "honest/t4", "" },
		{ "honest/rtx-4090", "honest/rtx-4090", "" },
		{ "honest/h100-sxm", "broken/modulo-bug", "stride 16|stride 32|" },
		{ "honest/h100-sxm", "broken/stride2-near-stride1", "stride 2|" },
		{ "honest/h100-sxm", "broken/above-peak", "stride 1|" },
		{ "honest/h100-sxm", "broken/chunked-faster", "chunked 32|" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct gpuc_device dev;
		char path[256], list[256], *svg;

		snprintf(path, sizeof(path), DATA "%s.device.json",
		         cases[i].device);
		load_device(path, &dev);
		snprintf(path, sizeof(path), DATA "%s.rows.jsonl", cases[i].rows);
		svg = render(&dev, path);
		ck_assert_msg(strncmp(svg, "<svg xmlns=", 11) == 0, "%s", path);
		ck_assert_ptr_null(strstr(svg, "<script"));
		out_of_band(svg, list, sizeof(list));
		ck_assert_msg(strcmp(list, cases[i].outside) == 0,
		              "%s: outside the band: '%s', want '%s'", path,
		              list, cases[i].outside);
		free(svg);
	}
}
END_TEST

/* Hostile device text: escaped; invalid UTF-8 replaced by U+FFFD. */
START_TEST(test_plot_escapes)
{
	struct gpuc_device dev = { .cc = "9.0\"><script>", .peak_gbps = 3352.32 };
	char *svg;

	snprintf(dev.name, sizeof(dev.name), "%s",
	         "<script>x</script> \"q\" 'a' ]]> & \x01 \xff\xfe \xc0\x80 "
	         "\xed\xa0\x80 \xe2\x82 ok \xc3\xa9");
	svg = render(&dev, DATA "honest/h100-sxm.rows.jsonl");
	ck_assert_ptr_null(strstr(svg, "<script"));
	ck_assert_ptr_null(strstr(svg, "]]>"));
	ck_assert_ptr_nonnull(strstr(svg, "&lt;script&gt;x&lt;/script&gt; "
	                                  "&quot;q&quot; &#39;a&#39; ]]&gt; "
	                                  "&amp; ? \xef\xbf\xbd\xef\xbf\xbd "));
	ck_assert_ptr_nonnull(strstr(svg, " ok \xc3\xa9"));   /* valid: kept */
	ck_assert_ptr_nonnull(strstr(svg, "(cc 9.0&quot;&gt;&lt;script&gt;)"));
	/* no raw byte of the invalid sequences survives */
	ck_assert_ptr_null(strstr(svg, "\xff"));
	ck_assert_ptr_null(strstr(svg, "\xc0\x80"));
	ck_assert_ptr_null(strstr(svg, "\xed\xa0"));
	free(svg);
	/* a long name is cut in the heading between characters, not inside
	 * one (that would print U+FFFD), and kept whole in the title */
	strcpy(dev.name, "x");
	for (int i = 0; i < 40; i++)
		strcat(dev.name, "\xc3\xa9");
	svg = render(&dev, DATA "honest/h100-sxm.rows.jsonl");
	ck_assert_ptr_null(strstr(svg, "\xef\xbf\xbd"));
	ck_assert_ptr_nonnull(strstr(svg, "\xc3\xa9..."));
	ck_assert_ptr_nonnull(strstr(svg, dev.name));
	free(svg);
}
END_TEST

Suite *make_gpucheck_suite(void)
{
	Suite *s = suite_create("gpucheck");
	TCase *t = tcase_create("match");

	tcase_add_test(t, test_match_words);
	suite_add_tcase(s, t);
	t = tcase_create("bounds");
	tcase_add_test(t, test_bounds_defaults);
	tcase_add_test(t, test_bounds_profiles);
	tcase_add_test(t, test_bounds_loosening_rejected);
	tcase_add_test(t, test_bounds_malformed);
	suite_add_tcase(s, t);
	t = tcase_create("rows");
	tcase_add_test(t, test_parse_row_ok);
	tcase_add_test(t, test_parse_row_malformed);
	tcase_add_test(t, test_read_rows_places_errors);
	tcase_add_test(t, test_recorded_malformed);
	suite_add_tcase(s, t);
	t = tcase_create("judge");
	/* test_noisy_honest_runs_pass judges thousands of runs: 0.6 s of CPU,
	 * past Check's default 4 s on a machine shared by many builds. */
	tcase_set_timeout(t, 30);
	tcase_add_test(t, test_honest_runs_pass);
	tcase_add_test(t, test_broken_runs_fail_for_the_right_reason);
	tcase_add_test(t, test_judge_by_hand);
	tcase_add_test(t, test_unexpected_row);
	tcase_add_test(t, test_noisy_honest_runs_pass);
	tcase_add_test(t, test_stride2_near_stride1_fails);
	tcase_add_test(t, test_sector_efficiency);
	tcase_add_test(t, test_reports);
	suite_add_tcase(s, t);
	t = tcase_create("plot");
	tcase_add_test(t, test_plot_recorded_runs);
	tcase_add_test(t, test_plot_escapes);
	suite_add_tcase(s, t);
	return s;
}
