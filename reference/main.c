/*
 * reference: the canonical solution of the coalescing exercise. Reads
 * commands from stdin to end of file and writes results to stdout; see
 * public-tests/HANDOUT.md. Nothing goes to stderr unless the program
 * itself fails (out of memory, a write error), which exits 1.
 */
#ifndef _GNU_SOURCE
#define _POSIX_C_SOURCE 200809L   /* getline; builds with plain cc -std=c11 */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference/cmd.h"

/* Flush in large blocks: one write per 64 KiB keeps the program I/O-bound. */
#define FLUSH_AT 65536

static int flush(struct cmd_out *o)
{
	if (o->len && fwrite(o->buf, 1, o->len, stdout) != o->len)
		return -1;
	o->len = 0;
	return 0;
}

static int fail(const char *what)
{
	fprintf(stderr, "reference: %s\n", what);
	return 1;
}

int main(int argc, char **argv)
{
	struct cmd_state st;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int rc = 0;

	(void)argv;
	if (argc > 1)
		return fail("takes no arguments; reads commands on stdin");
	cmd_init(&st);
	while ((n = getline(&line, &cap, stdin)) >= 0) {
		size_t len = (size_t)n;
		if (len && line[len - 1] == '\n')
			len--;
		if (cmd_line(&st, line, len) < 0) {
			rc = fail("out of memory");
			break;
		}
		if (st.out.len >= FLUSH_AT && flush(&st.out) < 0)
			break;
	}
	if (!rc && ferror(stdin))
		rc = fail("read error on standard input");
	if (flush(&st.out) < 0 || fflush(stdout) != 0)
		rc = fail("write error on standard output");
	free(line);
	cmd_free(&st);
	return rc;
}
