#ifndef WG_SUITE_H
#define WG_SUITE_H

/*
 * suite: load and validate a test suite directory.
 *
 * A suite directory holds suite.json and, for every case NAME, the files
 * NAME.in (standard input) and NAME.out (expected standard output):
 *
 *   {"name": "hidden",
 *    "description": "optional text",
 *    "limits": {"cpu_seconds": 1, "memory_mib": 256, "output_kib": 1024},
 *    "build_limits": {"cpu_seconds": 60, "wall_seconds": 120,
 *                     "memory_mib": 2048, "processes": 32,
 *                     "file_size_mib": 64, "output_kib": 256,
 *                     "tmp_mib": 256},
 *    "hints": {"gather": "one line shown to students"},
 *    "cases": [{"name": "example", "category": "misaligned", "points": 2,
 *               "visibility": "hidden", "description": "optional text"}]}
 *
 * Required: the suite's "name" and a non-empty "cases" array; each case's
 * "name", "category" and "points" (an integer >= 0). Optional: "limits"
 * (every key optional: cpu_seconds 1, memory_mib 256, output_kib 1024,
 * wall_seconds (default max(3 x CPU, CPU + 2)), tmp_mib 64 (each private
 * tmpfs), processes 1 (the program alone), stack_mib (default: the memory
 * limit, lowered by grade where threads' stacks would not fit in an
 * address-space limit: docs/suites.md "Limits"); the seconds are numbers > 0, the others integers > 0),
 * "build_limits" (the compiler's: every key optional, defaults as above;
 * seconds are numbers > 0, the others integers > 0), "hints" (category ->
 * one-line
 * string, for categories that some case uses), "description", and a case's
 * "visibility" ("visible" or "hidden"; default "hidden", so a forgotten key
 * never shows a case's data to students). Unknown keys, wrong types,
 * duplicate keys or case names, and case names that are empty, contain '/'
 * or start with '.' are errors.
 *
 * Optional too: "line_map", a rule saying which input line answered each
 * expected output line, so that a wrong answer can name the input line
 * (linemap.h):
 *
 *   "line_map": {"comment": "#", "error_prefix": "error: ", "default": 1,
 *                "commands": {"active": 0, "aos": 2}}
 *
 * every key optional ("default" 1); counts are integers 0-1000.
 *
 * Errors: suite_load: -1 and a message in err (below); the other functions
 * cannot fail.
 */

#include "grader/lib/strbuf.h"

#include <stddef.h>

#define SUITE_DEFAULT_CPU_SECONDS 1.0
#define SUITE_DEFAULT_MEMORY_MIB  256L
#define SUITE_DEFAULT_OUTPUT_KIB  1024L
#define SUITE_DEFAULT_TMP_MIB     64L   /* each private tmpfs (sandbox.h) */
#define SUITE_DEFAULT_PROCESSES   1L    /* the program alone: no fork, no thread */

/* The compiler's limits (build.h holds the defaults and applies them). */
struct suite_build_limits {
	double cpu_seconds, wall_seconds;
	long memory_mib, processes, file_size_mib, output_kib;
	long tmp_mib;            /* the compiler's scratch tmpfs (TMPDIR) */
};

struct suite_case {
	char *name, *category, *description;	/* description may be NULL */
	int points;
	int hidden;				/* 1 unless "visibility": "visible" */
	char *in_path, *out_path;		/* DIR/NAME.in, DIR/NAME.out */
};

struct suite_line_map {
	char *comment;			/* starts a comment; may be NULL */
	char *error_prefix;		/* starts a failed command's line; may be NULL */
	long default_lines;		/* lines a command answers by default */
	char **commands;		/* names ... */
	long *lines;			/* ... and the lines each one answers */
	size_t ncommands;
};

struct suite {
	char *name, *dir;		/* dir as given, trailing '/' removed */
	double cpu_seconds;
	long memory_mib, output_kib;
	double wall_seconds;		/* 0: derived from cpu_seconds */
	long tmp_mib, processes;
	long stack_mib;			/* 0: the memory limit */
	struct suite_build_limits build;
	struct suite_case *cases;
	size_t ncases;
	/* Categories in order of first appearance among the cases; hints[i] is
	 * the hint for categories[i], or NULL when suite.json gives none. */
	char **categories;
	char **hints;
	size_t ncategories;
	char *description;		/* may be NULL */
	struct suite_line_map *line_map;	/* NULL when suite.json has none */
};

/*
 * Errors (usage.h): suite_load returns 0, or -1 with the reason appended
 * to the caller's strbuf; it never prints, exits or aborts. The other
 * functions cannot fail.
 *
 * Loads DIR/suite.json into *s and checks that every case's NAME.in and
 * NAME.out exist as regular files. Returns 0, or -1 with one line appended
 * to err, "DIR/suite.json:LINE:COL: message" (or "cannot open
 * 'DIR/suite.json': reason" when the file cannot be read at all, "cannot
 * load 'DIR/suite.json': out of memory" when an allocation fails), and *s
 * left empty. Every string in *s is allocated; suite_free() releases them.
 */
int suite_load(struct suite *s, const char *dir, struct strbuf *err);

/* Frees everything suite_load() allocated and empties *s; safe on an empty
 * (zeroed or failed) suite. */
void suite_free(struct suite *s);

/* The hint for a category, or NULL when there is none. Owned by *s. */
const char *suite_hint(const struct suite *s, const char *category);

/* How many cases are hidden. */
size_t suite_hidden_cases(const struct suite *s);

/* Sum of every case's points. */
long suite_max_score(const struct suite *s);

#endif
