/*
 * suite: load DIR/suite.json with jansson and check it against the schema
 * described in suite.h.
 *
 * Theory of operation. jansson reports positions for syntax errors (and,
 * with JSON_REJECT_DUPLICATES, duplicate keys) but keeps no position for a
 * value once parsed, so schema errors (an unknown key, a wrong type, a
 * duplicate case name, a missing NAME.in) would have no line or column. We
 * keep the file's text beside the parsed tree and, when a schema error is
 * found, walk the text along the error's path (["cases", 3, "points"]) with
 * a tiny scanner that only needs to skip well-formed JSON, since jansson
 * has already accepted the very same bytes. Lines and columns are 1-based
 * and count characters (UTF-8 sequences) as jansson does; the position is
 * the offending key for an unknown key, the offending value otherwise, and
 * the enclosing object for a missing key.
 */
#include "grader/judge/suite.h"

#include "grader/run/build.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_POINTS     1000000
#define MAX_CPU_SECS   3600.0
#define MAX_LIMIT_UNIT 1048576L	/* MiB of memory or KiB of output */
#define MAX_MAP_LINES  1000	/* lines one command may answer (line_map) */

/* One step of a path into the document: a key, or (key NULL) an index. */
struct step {
	const char *key;
	size_t index;
};

struct loader {
	char *path;		/* DIR/suite.json */
	char *text;		/* its bytes, as jansson parsed them */
	size_t len;
	char *err;
	size_t errlen;
};

/* ---- locating a value in the text ---------------------------------- */

static const char *skip_ws(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

/* p at an opening quote; returns the position after the closing one. */
static const char *skip_string(const char *p, const char *e)
{
	for (p++; p < e && *p != '"'; p++)
		if (*p == '\\')
			p++;
	return p < e ? p + 1 : e;
}

static const char *skip_value(const char *p, const char *e)
{
	int depth = 0;

	p = skip_ws(p, e);
	if (p < e && *p == '"')
		return skip_string(p, e);
	if (p < e && (*p == '{' || *p == '[')) {
		while (p < e) {
			if (*p == '"') {
				p = skip_string(p, e);
				continue;
			}
			if (*p == '{' || *p == '[')
				depth++;
			else if ((*p == '}' || *p == ']') && --depth == 0)
				return p + 1;
			p++;
		}
		return e;
	}
	while (p < e && *p && !strchr(",]} \t\r\n", *p))
		p++;
	return p;
}

static unsigned hex4(const char *p, const char *e)
{
	unsigned v = 0;

	for (int i = 0; i < 4 && p + i < e; i++) {
		char c = p[i];
		v = v * 16 + (unsigned)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
	}
	return v;
}

static size_t utf8_put(unsigned cp, char *out)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xC0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xE0 | cp >> 12);
		out[1] = (char)(0x80 | (cp >> 6 & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | cp >> 18);
	out[1] = (char)(0x80 | (cp >> 12 & 0x3F));
	out[2] = (char)(0x80 | (cp >> 6 & 0x3F));
	out[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

/* p at a backslash; decodes one escape into out (up to 4 bytes). */
static const char *unescape(const char *p, const char *e, char *out,
			    size_t *n)
{
	static const char from[] = "bfnrt", to[] = "\b\f\n\r\t";
	const char *hit;
	unsigned cp;

	if (p + 1 >= e) {
		*n = 0;
		return e;
	}
	if (p[1] != 'u') {
		hit = strchr(from, p[1]);
		out[0] = hit && p[1] ? to[hit - from] : p[1];
		*n = 1;
		return p + 2;
	}
	cp = hex4(p + 2, e);
	p += 6;
	if (cp >= 0xD800 && cp < 0xDC00 && p + 6 <= e && p[0] == '\\' &&
	    p[1] == 'u') {
		cp = 0x10000 + ((cp - 0xD800) << 10) + (hex4(p + 2, e) - 0xDC00);
		p += 6;
	}
	*n = utf8_put(cp, out);
	return p;
}

/* p at the opening quote of a key; sets *eq to whether its decoded text is
 * want; returns the position after the closing quote. */
static const char *key_equals(const char *p, const char *e, const char *want,
			      int *eq)
{
	size_t wlen = strlen(want), wi = 0;
	int same = 1;

	for (p++; p < e && *p != '"';) {
		char buf[4];
		size_t n = 1;

		if (*p == '\\')
			p = unescape(p, e, buf, &n);
		else
			buf[0] = *p++;
		if (wi + n > wlen || memcmp(want + wi, buf, n) != 0)
			same = 0;
		else
			wi += n;
	}
	*eq = same && wi == wlen;
	return p < e ? p + 1 : e;
}

/* p at '{': the value of member key (its key's position in *key_at). */
static const char *find_member(const char *p, const char *e, const char *key,
			       const char **key_at)
{
	for (p = skip_ws(p + 1, e); p < e && *p == '"';) {
		const char *start = p;
		int eq;

		p = skip_ws(key_equals(p, e, key, &eq), e);
		p = skip_ws(p + 1, e);	/* the ':' */
		if (eq) {
			*key_at = start;
			return p;
		}
		p = skip_ws(skip_value(p, e), e);
		if (p >= e || *p != ',')
			return NULL;
		p = skip_ws(p + 1, e);
	}
	return NULL;
}

/* p at '[': the element at index. */
static const char *find_element(const char *p, const char *e, size_t index)
{
	p = skip_ws(p + 1, e);
	for (size_t i = 0; p < e && *p != ']'; i++) {
		if (i == index)
			return p;
		p = skip_ws(skip_value(p, e), e);
		if (p >= e || *p != ',')
			return NULL;
		p = skip_ws(p + 1, e);
	}
	return NULL;
}

/* The text position of path[0..depth): of the last key itself when at_key,
 * else of its value. Stops at the deepest step it could follow. */
static const char *locate(const char *text, size_t len,
			  const struct step *path, size_t depth, int at_key)
{
	const char *e = text + len, *p = skip_ws(text, e), *key_at = NULL;

	for (size_t i = 0; i < depth; i++) {
		const char *next = NULL;

		if (path[i].key && p < e && *p == '{')
			next = find_member(p, e, path[i].key, &key_at);
		else if (!path[i].key && p < e && *p == '[')
			next = find_element(p, e, path[i].index);
		if (!next)
			return p;
		p = skip_ws(next, e);
	}
	return at_key && depth > 0 && path[depth - 1].key && key_at ? key_at : p;
}

static void line_col(const char *text, const char *at, int *line, int *col)
{
	*line = 1;
	*col = 1;
	for (const char *p = text; p < at; p++) {
		if (*p == '\n') {
			(*line)++;
			*col = 1;
		} else if ((*p & 0xC0) != 0x80) {
			(*col)++;
		}
	}
}

/* ---- error reporting ----------------------------------------------- */

/* "cases[3].points" for a path; empty for the root. */
static void path_name(const struct step *path, size_t depth, char *buf,
		      size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < depth && used < size; i++) {
		int n = path[i].key
			? snprintf(buf + used, size - used, "%s%s",
				   i ? "." : "", path[i].key)
			: snprintf(buf + used, size - used, "[%zu]",
				   path[i].index);
		if (n < 0)
			break;
		used += (size_t)n;
	}
}

__attribute__((format(printf, 5, 6)))
static int fail_at(struct loader *ld, const struct step *path, size_t depth,
		   int at_key, const char *fmt, ...)
{
	char where[256], msg[512];
	int line, col;
	va_list ap;

	line_col(ld->text, locate(ld->text, ld->len, path, depth, at_key),
		 &line, &col);
	path_name(path, depth, where, sizeof where);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(ld->err, ld->errlen, "%s:%d:%d: %s%s%s", ld->path, line, col,
		 where, *where ? ": " : "", msg);
	return -1;
}

/* ---- schema -------------------------------------------------------- */

enum kind {
	K_TEXT,		/* any string */
	K_WORD,		/* non-empty string */
	K_LINE,		/* non-empty string without a newline */
	K_POINTS,	/* integer 0..MAX_POINTS */
	K_UNIT,		/* integer 1..MAX_LIMIT_UNIT */
	K_SECONDS,	/* number in (0, MAX_CPU_SECS] */
	K_OBJECT,
	K_ARRAY,
	K_VISIBILITY,	/* "visible" or "hidden" */
	K_COUNT,	/* integer 0..MAX_MAP_LINES */
};

struct field {
	const char *key;
	enum kind kind;
	int required;
};

static const struct field root_fields[] = {
	{ "name", K_WORD, 1 },		{ "description", K_TEXT, 0 },
	{ "limits", K_OBJECT, 0 },	{ "hints", K_OBJECT, 0 },
	{ "cases", K_ARRAY, 1 },	{ "line_map", K_OBJECT, 0 },
	{ "build_limits", K_OBJECT, 0 },
};
static const struct field line_map_fields[] = {
	{ "comment", K_WORD, 0 },	{ "error_prefix", K_WORD, 0 },
	{ "default", K_COUNT, 0 },	{ "commands", K_OBJECT, 0 },
};
static const struct field limit_fields[] = {
	{ "cpu_seconds", K_SECONDS, 0 },
	{ "memory_mib", K_UNIT, 0 },
	{ "output_kib", K_UNIT, 0 },
	{ "wall_seconds", K_SECONDS, 0 },
	{ "tmp_mib", K_UNIT, 0 },
	{ "processes", K_UNIT, 0 },
	{ "stack_mib", K_UNIT, 0 },
};
static const struct field build_limit_fields[] = {
	{ "cpu_seconds", K_SECONDS, 0 },	{ "wall_seconds", K_SECONDS, 0 },
	{ "memory_mib", K_UNIT, 0 },		{ "processes", K_UNIT, 0 },
	{ "file_size_mib", K_UNIT, 0 },		{ "output_kib", K_UNIT, 0 },
};
static const struct field case_fields[] = {
	{ "name", K_WORD, 1 },		{ "category", K_WORD, 1 },
	{ "points", K_POINTS, 1 },	{ "visibility", K_VISIBILITY, 0 },
	{ "description", K_TEXT, 0 },
};

#define NFIELDS(a) (sizeof(a) / sizeof((a)[0]))

/* NULL when v fits the kind, else what it must be. */
static const char *kind_mismatch(const json_t *v, enum kind kind)
{
	const char *str = json_is_string(v) ? json_string_value(v) : NULL;
	json_int_t i = json_is_integer(v) ? json_integer_value(v) : -1;
	double d = json_is_number(v) ? json_number_value(v) : 0;

	switch (kind) {
	case K_TEXT:
		return str ? NULL : "must be a string";
	case K_WORD:
		return str && *str ? NULL : "must be a non-empty string";
	case K_LINE:
		return str && *str && !strpbrk(str, "\r\n")
			? NULL : "must be a non-empty one-line string";
	case K_POINTS:
		return i >= 0 && i <= MAX_POINTS
			? NULL : "must be an integer from 0 to 1000000";
	case K_UNIT:
		return i >= 1 && i <= MAX_LIMIT_UNIT
			? NULL : "must be an integer from 1 to 1048576";
	case K_SECONDS:
		return d > 0 && d <= MAX_CPU_SECS
			? NULL : "must be a number > 0 and <= 3600";
	case K_OBJECT:
		return json_is_object(v) ? NULL : "must be an object";
	case K_ARRAY:
		return json_is_array(v) ? NULL : "must be an array";
	case K_COUNT:
		return i >= 0 && i <= MAX_MAP_LINES
			? NULL : "must be an integer from 0 to 1000";
	case K_VISIBILITY:
		return str && (!strcmp(str, "visible") || !strcmp(str, "hidden"))
			? NULL : "must be \"visible\" or \"hidden\"";
	}
	return "has an unknown kind";
}

/* Checks obj (at path[0..depth)) against a field table: unknown keys,
 * types, then missing required keys. */
static int check_object(struct loader *ld, const json_t *obj,
			struct step *path, size_t depth,
			const struct field *fields, size_t nfields)
{
	const char *key;
	json_t *v;

	if (!json_is_object(obj))
		return fail_at(ld, path, depth, 0, "must be an object");
	json_object_foreach((json_t *)obj, key, v) {
		size_t f = 0;
		const char *why;

		while (f < nfields && strcmp(fields[f].key, key) != 0)
			f++;
		path[depth] = (struct step){ .key = key };
		if (f == nfields)
			return fail_at(ld, path, depth + 1, 1,
				       "unknown key '%s'", key);
		why = kind_mismatch(v, fields[f].kind);
		if (why)
			return fail_at(ld, path, depth + 1, 0, "%s", why);
	}
	for (size_t f = 0; f < nfields; f++)
		if (fields[f].required && !json_object_get(obj, fields[f].key))
			return fail_at(ld, path, depth, 0, "missing key '%s'",
				       fields[f].key);
	return 0;
}

static char *xstrdup(const char *s)
{
	char *d = s ? strdup(s) : NULL;

	if (s && !d) {
		perror("suite");
		abort();
	}
	return d;
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p) {
		perror("suite");
		abort();
	}
	return p;
}

static char *join(const char *dir, const char *name, const char *ext)
{
	size_t n = strlen(dir) + strlen(name) + strlen(ext) + 2;
	char *p = xcalloc(n, 1);

	snprintf(p, n, "%s/%s%s", dir, name, ext);
	return p;
}

static int check_case_name(struct loader *ld, struct step *path,
			   const char *name)
{
	if (strchr(name, '/'))
		return fail_at(ld, path, 3, 0, "case name '%s' contains '/'",
			       name);
	if (name[0] == '.')
		return fail_at(ld, path, 3, 0,
			       "case name '%s' starts with '.'", name);
	return 0;
}

/* Adds a category on first appearance. */
static void note_category(struct suite *s, const char *cat)
{
	for (size_t i = 0; i < s->ncategories; i++)
		if (!strcmp(s->categories[i], cat))
			return;
	s->categories[s->ncategories++] = xstrdup(cat);
}

static int load_case(struct loader *ld, struct suite *s, const json_t *c,
		     size_t i)
{
	struct step path[4] = { { .key = "cases" }, { .index = i } };
	struct suite_case *sc = &s->cases[i];
	const char *name, *vis;

	if (check_object(ld, c, path, 2, case_fields, NFIELDS(case_fields)))
		return -1;
	name = json_string_value(json_object_get(c, "name"));
	path[2] = (struct step){ .key = "name" };
	if (check_case_name(ld, path, name))
		return -1;
	for (size_t j = 0; j < i; j++)
		if (!strcmp(s->cases[j].name, name))
			return fail_at(ld, path, 3, 0,
				       "duplicate case name '%s' (also cases[%zu])",
				       name, j);
	vis = json_string_value(json_object_get(c, "visibility"));
	sc->name = xstrdup(name);
	sc->category =
		xstrdup(json_string_value(json_object_get(c, "category")));
	sc->description =
		xstrdup(json_string_value(json_object_get(c, "description")));
	sc->points = (int)json_integer_value(json_object_get(c, "points"));
	sc->hidden = !vis || strcmp(vis, "visible") != 0;
	sc->in_path = join(s->dir, name, ".in");
	sc->out_path = join(s->dir, name, ".out");
	s->ncases = i + 1;
	note_category(s, sc->category);
	return 0;
}

static int load_limits(struct loader *ld, struct suite *s, const json_t *lim)
{
	struct step path[2] = { { .key = "limits" } };
	json_t *v;

	s->cpu_seconds = SUITE_DEFAULT_CPU_SECONDS;
	s->memory_mib = SUITE_DEFAULT_MEMORY_MIB;
	s->output_kib = SUITE_DEFAULT_OUTPUT_KIB;
	s->wall_seconds = 0;
	s->tmp_mib = SUITE_DEFAULT_TMP_MIB;
	s->processes = SUITE_DEFAULT_PROCESSES;
	s->stack_mib = 0;
	if (!lim)
		return 0;
	if (check_object(ld, lim, path, 1, limit_fields, NFIELDS(limit_fields)))
		return -1;
	if ((v = json_object_get(lim, "cpu_seconds")))
		s->cpu_seconds = json_number_value(v);
	if ((v = json_object_get(lim, "memory_mib")))
		s->memory_mib = (long)json_integer_value(v);
	if ((v = json_object_get(lim, "output_kib")))
		s->output_kib = (long)json_integer_value(v);
	if ((v = json_object_get(lim, "wall_seconds")))
		s->wall_seconds = json_number_value(v);
	if ((v = json_object_get(lim, "tmp_mib")))
		s->tmp_mib = (long)json_integer_value(v);
	if ((v = json_object_get(lim, "processes")))
		s->processes = (long)json_integer_value(v);
	if ((v = json_object_get(lim, "stack_mib")))
		s->stack_mib = (long)json_integer_value(v);
	return 0;
}

/* The compiler's limits: the defaults of build.h, then the suite's. */
static int load_build_limits(struct loader *ld, struct suite *s,
			     const json_t *lim)
{
	struct step path[2] = { { .key = "build_limits" } };
	struct suite_build_limits *b = &s->build;
	const struct {
		const char *key;
		long *l;
		double *d;
	} slots[] = {
		{ "cpu_seconds", NULL, &b->cpu_seconds },
		{ "wall_seconds", NULL, &b->wall_seconds },
		{ "memory_mib", &b->memory_mib, NULL },
		{ "processes", &b->processes, NULL },
		{ "file_size_mib", &b->file_size_mib, NULL },
		{ "output_kib", &b->output_kib, NULL },
	};

	*b = (struct suite_build_limits){
		.cpu_seconds = BUILD_DEFAULT_CPU_SECONDS,
		.wall_seconds = BUILD_DEFAULT_WALL_SECONDS,
		.memory_mib = BUILD_DEFAULT_MEMORY_MIB,
		.processes = BUILD_DEFAULT_PROCESSES,
		.file_size_mib = BUILD_DEFAULT_FILE_MIB,
		.output_kib = BUILD_DEFAULT_OUTPUT_KIB,
	};
	if (!lim)
		return 0;
	if (check_object(ld, lim, path, 1, build_limit_fields,
			 NFIELDS(build_limit_fields)))
		return -1;
	for (size_t i = 0; i < NFIELDS(slots); i++) {
		json_t *v = json_object_get(lim, slots[i].key);

		if (v && slots[i].l)
			*slots[i].l = (long)json_integer_value(v);
		else if (v)
			*slots[i].d = json_number_value(v);
	}
	return 0;
}

/* Hints are checked after the cases, so that a hint naming no category in
 * use (a typo) is caught. */
static int load_hints(struct loader *ld, struct suite *s, const json_t *hints)
{
	struct step path[2] = { { .key = "hints" } };
	const char *key;
	json_t *v;

	s->hints = xcalloc(s->ncategories, sizeof *s->hints);
	if (!hints)
		return 0;
	json_object_foreach((json_t *)hints, key, v) {
		size_t i = 0;
		const char *why = kind_mismatch(v, K_LINE);

		path[1] = (struct step){ .key = key };
		while (i < s->ncategories && strcmp(s->categories[i], key))
			i++;
		if (i == s->ncategories)
			return fail_at(ld, path, 2, 1,
				       "no case has category '%s'", key);
		if (why)
			return fail_at(ld, path, 2, 0, "%s", why);
		s->hints[i] = xstrdup(json_string_value(v));
	}
	return 0;
}

static int load_line_map(struct loader *ld, struct suite *s, const json_t *map)
{
	struct step path[3] = { { .key = "line_map" }, { .key = "commands" } };
	const json_t *cmds, *v;
	struct suite_line_map *m;
	const char *key;

	if (!map)
		return 0;
	if (check_object(ld, map, path, 1, line_map_fields,
			 NFIELDS(line_map_fields)))
		return -1;
	cmds = json_object_get(map, "commands");
	s->line_map = m = xcalloc(1, sizeof(*m));
	m->comment = xstrdup(json_string_value(json_object_get(map, "comment")));
	m->error_prefix =
		xstrdup(json_string_value(json_object_get(map, "error_prefix")));
	v = json_object_get(map, "default");
	m->default_lines = v ? (long)json_integer_value(v) : 1;
	m->commands = xcalloc(json_object_size(cmds), sizeof(*m->commands));
	m->lines = xcalloc(json_object_size(cmds), sizeof(*m->lines));
	json_object_foreach((json_t *)cmds, key, v) {
		const char *why = kind_mismatch(v, K_COUNT);

		path[2] = (struct step){ .key = key };
		if (!*key || strpbrk(key, " \t\r\n\v\f"))
			return fail_at(ld, path, 3, 1, "a command name must be "
				       "one non-empty word");
		if (why)
			return fail_at(ld, path, 3, 0, "%s", why);
		m->commands[m->ncommands] = xstrdup(key);
		m->lines[m->ncommands++] = (long)json_integer_value(v);
	}
	return 0;
}

static int load_root(struct loader *ld, struct suite *s, const json_t *root)
{
	struct step scratch[1] = { { 0 } }, path[1] = { { .key = "cases" } };
	const json_t *cases;
	size_t n;

	if (check_object(ld, root, scratch, 0, root_fields,
			 NFIELDS(root_fields)))
		return -1;
	s->name = xstrdup(json_string_value(json_object_get(root, "name")));
	s->description = xstrdup(
		json_string_value(json_object_get(root, "description")));
	if (load_limits(ld, s, json_object_get(root, "limits")) ||
	    load_line_map(ld, s, json_object_get(root, "line_map")) ||
	    load_build_limits(ld, s, json_object_get(root, "build_limits")))
		return -1;
	cases = json_object_get(root, "cases");
	n = json_array_size(cases);
	if (n == 0)
		return fail_at(ld, path, 1, 0, "must hold at least one case");
	s->cases = xcalloc(n, sizeof *s->cases);
	s->categories = xcalloc(n, sizeof *s->categories);
	for (size_t i = 0; i < n; i++)
		if (load_case(ld, s, json_array_get(cases, i), i))
			return -1;
	return load_hints(ld, s, json_object_get(root, "hints"));
}

/* Every case's NAME.in and NAME.out must be readable regular files. */
static int check_files(struct loader *ld, const struct suite *s)
{
	for (size_t i = 0; i < s->ncases; i++) {
		struct step path[3] = { { .key = "cases" }, { .index = i },
					{ .key = "name" } };
		const char *files[2] = { s->cases[i].in_path,
					 s->cases[i].out_path };

		for (int f = 0; f < 2; f++) {
			struct stat st;

			if (stat(files[f], &st) < 0 || access(files[f], R_OK) < 0)
				return fail_at(ld, path, 3, 0,
					       "cannot read '%s': %s",
					       files[f], strerror(errno));
			if (!S_ISREG(st.st_mode))
				return fail_at(ld, path, 3, 0,
					       "'%s' is not a regular file",
					       files[f]);
		}
	}
	return 0;
}

/* Reads a whole file into a NUL-terminated buffer the caller frees. */
static int read_all(const char *path, char **text, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 4096, n = 0, got;
	char *buf;

	if (!f)
		return -1;
	buf = xcalloc(cap + 1, 1);
	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			char *bigger = realloc(buf, 2 * cap + 1);

			if (!bigger) {
				perror("suite");
				abort();
			}
			buf = bigger;
			cap *= 2;
		}
	}
	if (ferror(f)) {
		int saved = errno;

		fclose(f);
		free(buf);
		errno = saved;
		return -1;
	}
	fclose(f);
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
}

/* DIR without trailing slashes ("/" stays "/"). */
static char *clean_dir(const char *dir)
{
	char *d = xstrdup(*dir ? dir : ".");
	size_t n = strlen(d);

	while (n > 1 && d[n - 1] == '/')
		d[--n] = '\0';
	return d;
}

int suite_load(struct suite *s, const char *dir, char *err, size_t errlen)
{
	struct loader ld = { .err = err, .errlen = errlen };
	json_error_t jerr;
	json_t *root = NULL;
	int rc = -1;

	memset(s, 0, sizeof *s);
	s->dir = clean_dir(dir);
	ld.path = join(strcmp(s->dir, "/") ? s->dir : "", "suite.json", "");
	/* json_loadb on the bytes we keep, rather than json_load_file, so
	 * that the text we scan for positions is exactly what was parsed. */
	if (read_all(ld.path, &ld.text, &ld.len) < 0) {
		snprintf(err, errlen, "cannot open '%s': %s", ld.path,
			 strerror(errno));
		goto out;
	}
	root = json_loadb(ld.text, ld.len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		/* jansson leaves the text empty when it could not even start
		 * (out of memory). */
		if (!jerr.text[0] || json_error_code(&jerr) == json_error_out_of_memory)
			snprintf(err, errlen, "cannot load '%s': out of memory", ld.path);
		else
			snprintf(err, errlen, "%s:%d:%d: %s", ld.path, jerr.line,
				 jerr.column, jerr.text);
		goto out;
	}
	if (load_root(&ld, s, root) || check_files(&ld, s))
		goto out;
	rc = 0;
out:
	json_decref(root);
	free(ld.text);
	free(ld.path);
	if (rc)
		suite_free(s);
	return rc;
}

void suite_free(struct suite *s)
{
	for (size_t i = 0; s->cases && i < s->ncases; i++) {
		free(s->cases[i].name);
		free(s->cases[i].category);
		free(s->cases[i].description);
		free(s->cases[i].in_path);
		free(s->cases[i].out_path);
	}
	for (size_t i = 0; i < s->ncategories; i++) {
		free(s->categories[i]);
		if (s->hints)
			free(s->hints[i]);
	}
	if (s->line_map) {
		for (size_t i = 0; i < s->line_map->ncommands; i++)
			free(s->line_map->commands[i]);
		free(s->line_map->commands);
		free(s->line_map->lines);
		free(s->line_map->comment);
		free(s->line_map->error_prefix);
		free(s->line_map);
	}
	free(s->cases);
	free(s->categories);
	free(s->hints);
	free(s->name);
	free(s->dir);
	free(s->description);
	memset(s, 0, sizeof *s);
}

const char *suite_hint(const struct suite *s, const char *category)
{
	for (size_t i = 0; s->hints && i < s->ncategories; i++)
		if (!strcmp(s->categories[i], category))
			return s->hints[i];
	return NULL;
}

size_t suite_hidden_cases(const struct suite *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->ncases; i++)
		n += s->cases[i].hidden != 0;
	return n;
}

long suite_max_score(const struct suite *s)
{
	long total = 0;

	for (size_t i = 0; i < s->ncases; i++)
		total += s->cases[i].points;
	return total;
}
