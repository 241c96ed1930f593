#ifndef WG_SUITE_LOCATE_H
#define WG_SUITE_LOCATE_H
/*
 * suite_locate: where a value of suite.json is in its text (private to
 * grader/judge/suite.c, which parses and validates; this file only finds).
 *
 * jansson keeps no position for a value once parsed, so a schema error
 * (an unknown key, a wrong type, a missing NAME.in) is placed by walking
 * the very bytes jansson accepted along the error's path (["cases", 3,
 * "points"]) with a scanner that only needs to skip well-formed JSON.
 * Lines and columns are 1-based and count characters (UTF-8 sequences) as
 * jansson does.
 *
 * Errors: cannot fail; nothing here allocates but suite_path_name (into a
 * strbuf, whose flag records a failed allocation).
 */
#include "grader/lib/strbuf.h"

#include <stddef.h>

/* One step of a path into the document: a key, or (key NULL) an index. */
struct suite_step {
	const char *key;
	size_t index;
};

/* The line and column of path[0..depth) in text: of the last key itself
 * when at_key, else of its value; the deepest step that could be followed
 * when the path goes further than the text. */
void suite_locate(const char *text, size_t len, const struct suite_step *path,
		  size_t depth, int at_key, int *line, int *col);

/* Appends "cases[3].points" for a path to out; nothing for the root. */
void suite_path_name(struct strbuf *out, const struct suite_step *path,
		     size_t depth);

#endif
