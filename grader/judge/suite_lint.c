/*
 * suite-lint: validate suite directories the way the grader loads them.
 * Usage: suite-lint DIR...   Exit 0 when every suite is valid, 2 otherwise
 * (each error on standard error, one line, with file, line and column).
 */
#include "grader/judge/suite.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	int status = 0;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fprintf(argc < 2 ? stderr : stdout,
			"usage: suite-lint DIR...\n");
		return argc < 2 ? 2 : 0;
	}
	for (int i = 1; i < argc; i++) {
		struct suite s;
		struct strbuf err = STRBUF_INIT;

		if (suite_load(&s, argv[i], &err) < 0) {
			fprintf(stderr, "suite-lint: %s\n", strbuf_str(&err));
			strbuf_release(&err);
			status = 2;
			continue;
		}
		printf("%s: ok, suite '%s', %zu cases, %zu categories, %ld points\n",
		       s.dir, s.name, s.ncases, s.ncategories,
		       suite_max_score(&s));
		suite_free(&s);
	}
	return status;
}
