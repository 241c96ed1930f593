/*
 * gpucheck: the bounds coalescing.cu's rows are judged against (see
 * gpucheck.h for the order of operations, bounds.json for the figures).
 *
 * The program's whole claim is that every row moves the same bytes and only
 * the address order changes. So the checks come in three kinds: each row
 * is self-consistent (bytes, ms, gbps = bytes/ms, below the device's
 * theoretical peak); the set of rows is exactly the expected one; and the
 * rows relate to each other the way coalescing says they must (nothing
 * beats stride 1, strides 2 to 8 stay under the sector model's 1/s of
 * stride 1 and of the peak, bandwidth does not climb with stride, the
 * widest stride and the chunked copy are well below stride 1). The modulo
 * bug the lesson
 * describes reports strides 16 and 32 at 2x and 4x and is caught by the
 * "rise" check.
 */
#include "gpu-bench/gpucheck.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grader/lib/strbuf.h"

/* ---------- device ---------- */

int gpuc_device_from_json(json_t *obj, const char *src,
                          struct gpuc_device *dev, struct strbuf *err)
{
	const char *name = NULL, *cc = NULL;
	json_t *peak = NULL;
	json_error_t je;

	memset(dev, 0, sizeof(*dev));
	if (json_unpack_ex(obj, &je, 0, "{s:s, s:s, s:o}", "name", &name, "cc",
	                   &cc, "peak_gbps", &peak) != 0) {
		strbuf_addf(err, "%s: not a device description: %s", src,
		            je.text);
		return -1;
	}
	if (!json_is_number(peak) || !(json_number_value(peak) > 0)) {
		strbuf_addf(err, "%s: 'peak_gbps' must be a number above 0",
		            src);
		return -1;
	}
	snprintf(dev->name, sizeof(dev->name), "%s", name);
	snprintf(dev->cc, sizeof(dev->cc), "%s", cc);
	dev->peak_gbps = json_number_value(peak);
	return 0;
}

/* Parses path, rejecting duplicate keys; NULL with err = "path:line:col:
 * text" when it is not JSON. The caller owns the result. */
static json_t *load_json(const char *path, struct strbuf *err)
{
	json_error_t je;
	json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &je);

	if (!root)
		strbuf_addf(err, "%s:%d:%d: %s", path, je.line, je.column,
		            je.text);
	return root;
}

int gpuc_load_device(const char *path, struct gpuc_device *dev,
                     struct strbuf *err)
{
	json_t *root = load_json(path, err);
	int rc;

	if (!root)
		return -1;
	rc = gpuc_device_from_json(root, path, dev, err);
	json_decref(root);
	return rc;
}

/* ---------- name matching ---------- */

/* Copies the next word (letters and digits) of *s into buf; 0 at the end. */
static int next_word(const char **s, char *buf, size_t sz)
{
	const char *p = *s;
	size_t n = 0;

	while (*p && !isalnum((unsigned char)*p))
		p++;
	if (!*p)
		return 0;
	while (*p && isalnum((unsigned char)*p)) {
		if (n + 1 < sz)
			buf[n++] = (char)tolower((unsigned char)*p);
		p++;
	}
	buf[n] = '\0';
	*s = p;
	return 1;
}

static int has_word(const char *name, const char *word)
{
	char w[64];

	while (next_word(&name, w, sizeof(w)))
		if (strcmp(w, word) == 0)
			return 1;
	return 0;
}

int gpuc_name_matches(const char *name, const char *pattern)
{
	char w[64];
	int words = 0;

	while (next_word(&pattern, w, sizeof(w))) {
		if (!has_word(name, w))
			return 0;
		words++;
	}
	return words > 0;
}

/* ---------- bounds ---------- */

/* tighter: +1 when a larger value is stricter (a floor), -1 when smaller. */
static const struct limit_key {
	const char *key;
	size_t off;
	int tighter;
} limit_keys[] = {
	{ "gbps_rel_tol", offsetof(struct gpuc_limits, gbps_rel_tol), -1 },
	{ "peak_max_frac", offsetof(struct gpuc_limits, peak_max_frac), -1 },
	{ "stride1_min_frac", offsetof(struct gpuc_limits, stride1_min_frac), +1 },
	{ "strided_max_frac", offsetof(struct gpuc_limits, strided_max_frac), -1 },
	{ "rise_max_ratio", offsetof(struct gpuc_limits, rise_max_ratio), -1 },
	{ "widest_max_frac", offsetof(struct gpuc_limits, widest_max_frac), -1 },
	{ "chunked_max_frac", offsetof(struct gpuc_limits, chunked_max_frac), -1 },
	{ "datasheet_tol", offsetof(struct gpuc_limits, datasheet_tol), -1 },
	{ "sector_margin", offsetof(struct gpuc_limits, sector_margin), -1 },
};
#define N_LIMIT_KEYS (sizeof(limit_keys) / sizeof(limit_keys[0]))

/* Keys a profile may carry besides limits. */
static const char *const profile_keys[] = { "name", "match", "datasheet_gbps",
	                                    "source", "note" };

static const struct limit_key *find_limit(const char *key)
{
	for (size_t i = 0; i < N_LIMIT_KEYS; i++)
		if (strcmp(limit_keys[i].key, key) == 0)
			return &limit_keys[i];
	return NULL;
}

static double *limit_slot(struct gpuc_limits *l, const struct limit_key *k)
{
	return (double *)((char *)l + k->off);
}

static int parse_defaults(json_t *obj, const char *src, struct gpuc_limits *l,
                          struct strbuf *err)
{
	const char *key;
	json_t *v;

	if (!json_is_object(obj)) {
		strbuf_addf(err, "%s: 'defaults' must be an object", src);
		return -1;
	}
	json_object_foreach(obj, key, v) {
		if (!find_limit(key)) {
			strbuf_addf(err, "%s: defaults: unknown limit '%s'",
			            src, key);
			return -1;
		}
	}
	for (size_t i = 0; i < N_LIMIT_KEYS; i++) {
		v = json_object_get(obj, limit_keys[i].key);
		if (!json_is_number(v) || !(json_number_value(v) > 0)) {
			strbuf_addf(err,
			            "%s: defaults: '%s' must be a number above 0",
			            src, limit_keys[i].key);
			return -1;
		}
		*limit_slot(l, &limit_keys[i]) = json_number_value(v);
	}
	return 0;
}

static int parse_expect(json_t *rows, const char *src, struct gpuc_bounds *b,
                        struct strbuf *err)
{
	size_t i;
	json_t *r;

	if (!json_is_array(rows) || json_array_size(rows) == 0 ||
	    json_array_size(rows) > GPUC_MAX_EXPECT) {
		strbuf_addf(err, "%s: 'rows' must be an array of 1 to %d rows",
		            src, GPUC_MAX_EXPECT);
		return -1;
	}
	json_array_foreach(rows, i, r) {
		const char *pat = NULL;
		json_int_t param = 0;
		json_error_t je;
		struct gpuc_expect *e = &b->expect[i];

		if (json_unpack_ex(r, &je, JSON_STRICT, "{s:s, s?I, s?I}",
		                   "pattern", &pat, "stride", &param, "chunk",
		                   &param) != 0 || param < 1) {
			strbuf_addf(err,
			            "%s: rows[%zu]: want {\"pattern\", \"stride\" or "
			            "\"chunk\" >= 1}", src, i);
			return -1;
		}
		if (strcmp(pat, "stride") == 0 && json_object_get(r, "stride"))
			e->pattern = GPUC_STRIDE;
		else if (strcmp(pat, "chunked") == 0 &&
		         json_object_get(r, "chunk"))
			e->pattern = GPUC_CHUNKED;
		else {
			strbuf_addf(err, "%s: rows[%zu]: pattern '%s' with "
			            "the wrong key", src, i, pat);
			return -1;
		}
		e->param = (long)param;
		for (size_t j = 0; j < i; j++) {
			if (b->expect[j].pattern == e->pattern &&
			    b->expect[j].param == e->param) {
				strbuf_addf(err, "%s: rows[%zu] repeats "
				            "rows[%zu]", src, i, j);
				return -1;
			}
		}
	}
	b->n_expect = json_array_size(rows);
	return 0;
}

/* Applies one profile's limits over the defaults; tightening only. */
static int apply_profile(json_t *p, const char *src, const char *pname,
                         struct gpuc_limits *l, struct strbuf *err)
{
	const char *key;
	json_t *v;

	json_object_foreach(p, key, v) {
		const struct limit_key *k = find_limit(key);
		double *slot, val;

		if (!k)
			continue;
		if (!json_is_number(v) || !(json_number_value(v) > 0)) {
			strbuf_addf(err, "%s: profile '%s': '%s' must be a "
			            "number above 0", src, pname, key);
			return -1;
		}
		slot = limit_slot(l, k);
		val = json_number_value(v);
		if ((k->tighter > 0 && val < *slot) ||
		    (k->tighter < 0 && val > *slot)) {
			strbuf_addf(err, "%s: profile '%s': '%s' %g loosens "
			            "the default %g; profiles may only tighten",
			            src, pname, key, val, *slot);
			return -1;
		}
		*slot = val;
	}
	return 0;
}

static int known_profile_key(const char *key)
{
	for (size_t i = 0; i < sizeof(profile_keys) / sizeof(*profile_keys); i++)
		if (strcmp(profile_keys[i], key) == 0)
			return 1;
	return find_limit(key) != NULL;
}

/*
 * Validates one profile (every profile is checked, matched or not, so a typo
 * is caught on any machine) and says whether it matches device_name.
 */
static int check_profile(json_t *p, size_t idx, const char *src,
                         const char *device_name, int *matches,
                         struct strbuf *err)
{
	const char *name = NULL, *source = NULL, *key;
	json_t *match = NULL, *ds = NULL, *m, *v;
	size_t i;
	json_error_t je;

	*matches = 0;
	if (json_unpack_ex(p, &je, 0, "{s:s, s:o, s:o, s:s}", "name", &name,
	                   "match", &match, "datasheet_gbps", &ds, "source",
	                   &source) != 0 || !json_is_array(match) ||
	    !json_is_number(ds) || !(json_number_value(ds) > 0)) {
		strbuf_addf(err, "%s: profiles[%zu]: want name, match (an "
		            "array), datasheet_gbps (> 0) and source", src, idx);
		return -1;
	}
	json_object_foreach(p, key, v) {
		if (!known_profile_key(key)) {
			strbuf_addf(err, "%s: profile '%s': unknown key '%s'",
			            src, name, key);
			return -1;
		}
	}
	json_array_foreach(match, i, m) {
		if (!json_is_string(m)) {
			strbuf_addf(err, "%s: profile '%s': match[%zu] is "
			            "not a string", src, name, i);
			return -1;
		}
		if (device_name && gpuc_name_matches(device_name,
		                                     json_string_value(m)))
			*matches = 1;
	}
	return 0;
}

static int parse_profiles(json_t *profiles, const char *src,
                          const char *device_name, struct gpuc_bounds *b,
                          struct strbuf *err)
{
	const struct gpuc_limits defaults = b->lim;
	size_t i;
	json_t *p;
	int found = 0;

	if (!profiles)
		return 0;
	if (!json_is_array(profiles)) {
		strbuf_addf(err, "%s: 'profiles' must be an array", src);
		return -1;
	}
	json_array_foreach(profiles, i, p) {
		int matches;
		struct gpuc_limits tmp = defaults;
		const char *name;

		if (check_profile(p, i, src, device_name, &matches, err) != 0)
			return -1;
		name = json_string_value(json_object_get(p, "name"));
		/* Validated even when another profile already matched. */
		if (apply_profile(p, src, name, &tmp, err) != 0)
			return -1;
		if (!matches || found)
			continue;
		found = 1;
		b->lim = tmp;
		snprintf(b->profile, sizeof(b->profile), "%s", name);
		snprintf(b->source, sizeof(b->source), "%s",
		         json_string_value(json_object_get(p, "source")));
		b->datasheet_gbps =
		        json_number_value(json_object_get(p, "datasheet_gbps"));
	}
	return 0;
}

int gpuc_bounds_from_json(json_t *root, const char *src,
                          const char *device_name, struct gpuc_bounds *b,
                          struct strbuf *err)
{
	json_t *bytes;

	static const char *const top_keys[] = { "schema", "notes", "bytes",
		                                "rows", "defaults", "profiles" };
	const char *key;
	json_t *v;

	memset(b, 0, sizeof(*b));
	if (!json_is_object(root)) {
		strbuf_addf(err, "%s: not a JSON object", src);
		return -1;
	}
	json_object_foreach(root, key, v) {
		size_t i = 0;

		while (i < sizeof(top_keys) / sizeof(*top_keys) &&
		       strcmp(top_keys[i], key) != 0)
			i++;
		if (i == sizeof(top_keys) / sizeof(*top_keys)) {
			strbuf_addf(err, "%s: unknown key '%s'", src, key);
			return -1;
		}
	}
	bytes = json_object_get(root, "bytes");
	if (!json_is_integer(bytes) || json_integer_value(bytes) <= 0) {
		strbuf_addf(err, "%s: 'bytes' must be an integer above 0",
		            src);
		return -1;
	}
	b->bytes = (double)json_integer_value(bytes);
	if (parse_expect(json_object_get(root, "rows"), src, b, err) ||
	    parse_defaults(json_object_get(root, "defaults"), src, &b->lim, err) ||
	    parse_profiles(json_object_get(root, "profiles"), src, device_name,
	                   b, err))
		return -1;
	return 0;
}

int gpuc_load_bounds(const char *path, const char *device_name,
                     struct gpuc_bounds *b, struct strbuf *err)
{
	json_t *root = load_json(path, err);
	int rc;

	if (!root)
		return -1;
	rc = gpuc_bounds_from_json(root, path, device_name, b, err);
	json_decref(root);
	return rc;
}

/* ---------- rows ---------- */

void gpuc_row_label(enum gpuc_pattern p, long param, char *buf, size_t sz)
{
	snprintf(buf, sz, "%s %ld", p == GPUC_STRIDE ? "stride" : "chunked",
	         param);
}

/* The first bytes of a line that is not a row, for the message. */
static void quote_line(const char *text, size_t len, char *buf, size_t sz)
{
	size_t n = 0;

	for (size_t i = 0; i < len && n + 4 < sz && i < 60; i++)
		buf[n++] = isprint((unsigned char)text[i]) ? text[i] : '?';
	if (len > 60 && n + 4 < sz) {
		memcpy(buf + n, "...", 3);
		n += 3;
	}
	buf[n] = '\0';
}

static int row_fields(json_t *obj, struct gpuc_row *row, struct strbuf *err)
{
	const char *pat = NULL;
	json_t *ms = NULL, *gbps = NULL, *bytes = NULL, *param;
	json_error_t je;

	if (json_unpack_ex(obj, &je, 0, "{s:s, s:o, s:o, s:o}", "pattern", &pat,
	                   "ms", &ms, "gbps", &gbps, "bytes", &bytes) != 0) {
		strbuf_addf(err, "not a row: %s", je.text);
		return -1;
	}
	if (strcmp(pat, "stride") == 0) {
		row->pattern = GPUC_STRIDE;
		param = json_object_get(obj, "stride");
	} else if (strcmp(pat, "chunked") == 0) {
		row->pattern = GPUC_CHUNKED;
		param = json_object_get(obj, "chunk");
	} else {
		strbuf_addf(err, "unknown pattern '%s'", pat);
		return -1;
	}
	if (!json_is_integer(param) || json_integer_value(param) < 1) {
		strbuf_addf(err, "'%s' row needs an integer '%s' >= 1", pat,
		            row->pattern == GPUC_STRIDE ? "stride" : "chunk");
		return -1;
	}
	if (!json_is_number(ms) || !json_is_number(gbps) ||
	    !json_is_integer(bytes)) {
		strbuf_addf(err, "'ms' and 'gbps' must be numbers and "
		            "'bytes' an integer");
		return -1;
	}
	row->param = (long)json_integer_value(param);
	row->ms = json_number_value(ms);
	row->gbps = json_number_value(gbps);
	row->bytes = (double)json_integer_value(bytes);
	return 0;
}

int gpuc_parse_row(const char *text, size_t len, struct gpuc_row *row,
                   struct strbuf *err)
{
	size_t i = 0;
	json_error_t je;
	json_t *obj;
	char q[80];
	int rc;

	while (i < len && isspace((unsigned char)text[i]))
		i++;
	if (i == len)
		return 0;
	if (text[i] != '{') {
		quote_line(text + i, len - i, q, sizeof(q));
		strbuf_addf(err, "%s in place of a JSON row: '%s'",
		            strncmp(text + i, "CUDA error", 10) == 0 ?
		                    "a CUDA error" : "text",
		            q);
		return -1;
	}
	obj = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!obj) {
		strbuf_addf(err, "column %d: %s%s", je.column, je.text,
		            je.position >= (int)len ? " (truncated row?)" : "");
		return -1;
	}
	if (!json_is_object(obj)) {
		strbuf_addstr(err, "not a JSON object");
		json_decref(obj);
		return -1;
	}
	rc = row_fields(obj, row, err);
	json_decref(obj);
	return rc == 0 ? 1 : -1;
}

static int rows_push(struct gpuc_rows *rows, const struct gpuc_row *r)
{
	if (rows->n == rows->alloc) {
		size_t na = rows->alloc ? rows->alloc * 2 : 16;
		struct gpuc_row *nv = realloc(rows->v, na * sizeof(*nv));

		if (!nv)
			return -1;
		rows->v = nv;
		rows->alloc = na;
	}
	rows->v[rows->n++] = *r;
	return 0;
}

int gpuc_read_rows(FILE *f, const char *file, struct gpuc_rows *rows,
                   struct strbuf *err)
{
	struct strbuf msg = STRBUF_INIT;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int lineno = 0, rc = 0;

	while ((len = getline(&line, &cap, f)) >= 0) {
		struct gpuc_row row;
		int got;

		lineno++;
		if (len > 0 && line[len - 1] == '\n')
			len--;
		memset(&row, 0, sizeof(row));
		got = gpuc_parse_row(line, (size_t)len, &row, &msg);
		if (got < 0) {
			strbuf_addf(err, "%s:%d: %s", file, lineno,
			            strbuf_str(&msg));
			rc = -1;
			break;
		}
		if (got == 0)
			continue;
		row.line = lineno;
		if (rows_push(rows, &row) != 0) {
			strbuf_addf(err, "%s:%d: out of memory", file, lineno);
			rc = -1;
			break;
		}
	}
	if (rc == 0 && ferror(f)) {
		strbuf_addf(err, "cannot read '%s': %s", file,
		            strerror(errno));
		rc = -1;
	}
	if (rc == 0 && rows->n == 0) {
		if (lineno == 0)
			strbuf_addf(err, "%s: empty: the program printed "
			            "no rows to judge", file);
		else
			strbuf_addf(err, "%s:%d: no rows in %d blank lines",
			            file, lineno, lineno);
		rc = -1;
	}
	strbuf_release(&msg);
	free(line);
	return rc;
}

void gpuc_rows_release(struct gpuc_rows *rows)
{
	free(rows->v);
	memset(rows, 0, sizeof(*rows));
}
