/*
 * suite: load DIR/suite.json with jansson and check it against the schema
 * described in suite.h. Errors go to the caller's strbuf (usage.h); an
 * allocation that fails is "cannot load 'DIR/suite.json': out of memory".
 *
 * Theory of operation. jansson reports positions for syntax errors (and,
 * with JSON_REJECT_DUPLICATES, duplicate keys) but keeps no position for a
 * value once parsed, so schema errors (an unknown key, a wrong type, a
 * duplicate case name, a missing NAME.in) would have no line or column. We
 * keep the file's text beside the parsed tree and, when a schema error is
 * found, ask suite_locate.h where the error's path (["cases", 3, "points"])
 * is in that text; the position is the offending key for an unknown key,
 * the offending value otherwise, and the enclosing object for a missing
 * key. This file holds the schema (field tables) and the loading; the
 * scanner lives in suite_locate.c.
 */
#include "grader/judge/suite.h"

#include "grader/judge/suite_locate.h"
#include "grader/lib/strbuf.h"
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
#define SUITE_JSON_MAX (64UL << 20)	/* bytes of suite.json read at most */

struct loader {
	char *path;		/* DIR/suite.json */
	struct strbuf text;	/* its bytes, as jansson parsed them */
	struct strbuf *err;
};

/* ---- error reporting ----------------------------------------------- */

__attribute__((format(printf, 5, 6)))
static int fail_at(struct loader *ld, const struct suite_step *path, size_t depth,
		   int at_key, const char *fmt, ...)
{
	size_t start;
	int line, col;
	va_list ap;

	suite_locate(ld->text.buf, ld->text.len, path, depth, at_key, &line,
		     &col);
	strbuf_addf(ld->err, "%s:%d:%d: ", ld->path, line, col);
	start = ld->err->len;
	suite_path_name(ld->err, path, depth);
	if (ld->err->len > start)
		strbuf_addstr(ld->err, ": ");
	va_start(ap, fmt);
	strbuf_vaddf(ld->err, fmt, ap);
	va_end(ap);
	return -1;
}

/* An allocation failed: the grader's own failure, not the suite's. */
static int out_of_memory(struct loader *ld)
{
	strbuf_addf(ld->err, "cannot load '%s': out of memory", ld->path);
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
	{ "tmp_mib", K_UNIT, 0 },
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
			struct suite_step *path, size_t depth,
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
		path[depth] = (struct suite_step){ .key = key };
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

/* *dst = a copy of src (NULL stays NULL): 0, or -1 (allocation). */
static int copy_str(char **dst, const char *src)
{
	*dst = src ? strdup(src) : NULL;
	return src && !*dst ? -1 : 0;
}

/* n zeroed elements (at least one, so that 0 is no failure), or NULL. */
static void *zalloc(size_t n, size_t size)
{
	return calloc(n ? n : 1, size);
}

/* "DIR/NAMEEXT", malloc'd, or NULL. */
static char *join(const char *dir, const char *name, const char *ext)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s/%s%s", dir, name, ext);
	if (strbuf_failed(&sb)) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb, NULL);
}

static int check_case_name(struct loader *ld, struct suite_step *path,
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

/* Adds a category on first appearance: 0, or -1 (allocation). */
static int note_category(struct suite *s, const char *cat)
{
	for (size_t i = 0; i < s->ncategories; i++)
		if (!strcmp(s->categories[i], cat))
			return 0;
	if (copy_str(&s->categories[s->ncategories], cat) < 0)
		return -1;
	s->ncategories++;
	return 0;
}

static int load_case(struct loader *ld, struct suite *s, const json_t *c,
		     size_t i)
{
	struct suite_step path[4] = { { .key = "cases" }, { .index = i } };
	struct suite_case *sc = &s->cases[i];
	const char *name, *vis;

	if (check_object(ld, c, path, 2, case_fields, NFIELDS(case_fields)))
		return -1;
	name = json_string_value(json_object_get(c, "name"));
	path[2] = (struct suite_step){ .key = "name" };
	if (check_case_name(ld, path, name))
		return -1;
	for (size_t j = 0; j < i; j++)
		if (!strcmp(s->cases[j].name, name))
			return fail_at(ld, path, 3, 0,
				       "duplicate case name '%s' (also cases[%zu])",
				       name, j);
	vis = json_string_value(json_object_get(c, "visibility"));
	s->ncases = i + 1;
	sc->points = (int)json_integer_value(json_object_get(c, "points"));
	sc->hidden = !vis || strcmp(vis, "visible") != 0;
	if (copy_str(&sc->name, name) < 0 ||
	    copy_str(&sc->category, json_string_value(json_object_get(c, "category"))) < 0 ||
	    copy_str(&sc->description,
		json_string_value(json_object_get(c, "description"))) < 0 ||
	    !(sc->in_path = join(s->dir, name, ".in")) ||
	    !(sc->out_path = join(s->dir, name, ".out")) ||
	    note_category(s, sc->category) < 0)
		return out_of_memory(ld);
	return 0;
}

static int load_limits(struct loader *ld, struct suite *s, const json_t *lim)
{
	struct suite_step path[2] = { { .key = "limits" } };
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
	struct suite_step path[2] = { { .key = "build_limits" } };
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
		{ "tmp_mib", &b->tmp_mib, NULL },
	};

	*b = (struct suite_build_limits){
		.cpu_seconds = BUILD_DEFAULT_CPU_SECONDS,
		.wall_seconds = BUILD_DEFAULT_WALL_SECONDS,
		.memory_mib = BUILD_DEFAULT_MEMORY_MIB,
		.processes = BUILD_DEFAULT_PROCESSES,
		.file_size_mib = BUILD_DEFAULT_FILE_MIB,
		.output_kib = BUILD_DEFAULT_OUTPUT_KIB,
		.tmp_mib = BUILD_DEFAULT_TMP_MIB,
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
	struct suite_step path[2] = { { .key = "hints" } };
	const char *key;
	json_t *v;

	if (!(s->hints = zalloc(s->ncategories, sizeof *s->hints)))
		return out_of_memory(ld);
	if (!hints)
		return 0;
	json_object_foreach((json_t *)hints, key, v) {
		size_t i = 0;
		const char *why = kind_mismatch(v, K_LINE);

		path[1] = (struct suite_step){ .key = key };
		while (i < s->ncategories && strcmp(s->categories[i], key))
			i++;
		if (i == s->ncategories)
			return fail_at(ld, path, 2, 1,
				       "no case has category '%s'", key);
		if (why)
			return fail_at(ld, path, 2, 0, "%s", why);
		if (copy_str(&s->hints[i], json_string_value(v)) < 0)
			return out_of_memory(ld);
	}
	return 0;
}

static int load_line_map(struct loader *ld, struct suite *s, const json_t *map)
{
	struct suite_step path[3] = { { .key = "line_map" }, { .key = "commands" } };
	const json_t *cmds, *v;
	struct suite_line_map *m;
	const char *key;

	if (!map)
		return 0;
	if (check_object(ld, map, path, 1, line_map_fields,
			 NFIELDS(line_map_fields)))
		return -1;
	cmds = json_object_get(map, "commands");
	if (!(s->line_map = m = zalloc(1, sizeof(*m))) ||
	    copy_str(&m->comment, json_string_value(json_object_get(map, "comment"))) < 0 ||
	    copy_str(&m->error_prefix,
		json_string_value(json_object_get(map, "error_prefix"))) < 0 ||
	    !(m->commands = zalloc(json_object_size(cmds), sizeof(*m->commands))) ||
	    !(m->lines = zalloc(json_object_size(cmds), sizeof(*m->lines))))
		return out_of_memory(ld);
	v = json_object_get(map, "default");
	m->default_lines = v ? (long)json_integer_value(v) : 1;
	json_object_foreach((json_t *)cmds, key, v) {
		const char *why = kind_mismatch(v, K_COUNT);

		path[2] = (struct suite_step){ .key = key };
		if (!*key || strpbrk(key, " \t\r\n\v\f"))
			return fail_at(ld, path, 3, 1, "a command name must be "
				       "one non-empty word");
		if (why)
			return fail_at(ld, path, 3, 0, "%s", why);
		if (copy_str(&m->commands[m->ncommands], key) < 0)
			return out_of_memory(ld);
		m->lines[m->ncommands++] = (long)json_integer_value(v);
	}
	return 0;
}

static int load_root(struct loader *ld, struct suite *s, const json_t *root)
{
	struct suite_step scratch[1] = { { 0 } }, path[1] = { { .key = "cases" } };
	const json_t *cases;
	size_t n;

	if (check_object(ld, root, scratch, 0, root_fields,
			 NFIELDS(root_fields)))
		return -1;
	if (copy_str(&s->name, json_string_value(json_object_get(root, "name"))) < 0 ||
	    copy_str(&s->description,
		json_string_value(json_object_get(root, "description"))) < 0)
		return out_of_memory(ld);
	if (load_limits(ld, s, json_object_get(root, "limits")) ||
	    load_line_map(ld, s, json_object_get(root, "line_map")) ||
	    load_build_limits(ld, s, json_object_get(root, "build_limits")))
		return -1;
	cases = json_object_get(root, "cases");
	n = json_array_size(cases);
	if (n == 0)
		return fail_at(ld, path, 1, 0, "must hold at least one case");
	if (!(s->cases = zalloc(n, sizeof *s->cases)) ||
	    !(s->categories = zalloc(n, sizeof *s->categories)))
		return out_of_memory(ld);
	for (size_t i = 0; i < n; i++)
		if (load_case(ld, s, json_array_get(cases, i), i))
			return -1;
	return load_hints(ld, s, json_object_get(root, "hints"));
}

/* Every case's NAME.in and NAME.out must be readable regular files. */
static int check_files(struct loader *ld, const struct suite *s)
{
	for (size_t i = 0; i < s->ncases; i++) {
		struct suite_step path[3] = { { .key = "cases" }, { .index = i },
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

/* DIR without trailing slashes ("/" stays "/"), malloc'd, or NULL. */
static char *clean_dir(const char *dir)
{
	char *d = strdup(*dir ? dir : ".");
	size_t n = d ? strlen(d) : 0;

	while (n > 1 && d[n - 1] == '/')
		d[--n] = '\0';
	return d;
}

int suite_load(struct suite *s, const char *dir, struct strbuf *err)
{
	struct loader ld = { .text = STRBUF_INIT, .err = err };
	json_error_t jerr;
	json_t *root = NULL;
	int rc = -1;

	memset(s, 0, sizeof *s);
	if (!(s->dir = clean_dir(dir)) ||
	    !(ld.path = join(strcmp(s->dir, "/") ? s->dir : "", "suite.json", ""))) {
		strbuf_addf(err, "cannot load '%s/suite.json': out of memory", dir);
		goto out;
	}
	/* json_loadb on the bytes we keep, rather than json_load_file, so
	 * that the text we scan for positions is exactly what was parsed. */
	if (strbuf_read_file(&ld.text, ld.path, SUITE_JSON_MAX) < 0) {
		strbuf_addf(err, "cannot open '%s': %s", ld.path, strerror(errno));
		goto out;
	}
	root = json_loadb(strbuf_str(&ld.text), ld.text.len, JSON_REJECT_DUPLICATES,
			  &jerr);
	if (!root) {
		/* jansson leaves the text empty when it could not even start
		 * (out of memory). */
		if (!jerr.text[0] || json_error_code(&jerr) == json_error_out_of_memory)
			out_of_memory(&ld);
		else
			strbuf_addf(err, "%s:%d:%d: %s", ld.path, jerr.line,
				    jerr.column, jerr.text);
		goto out;
	}
	if (load_root(&ld, s, root) || check_files(&ld, s))
		goto out;
	rc = 0;
out:
	json_decref(root);
	strbuf_release(&ld.text);
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
