#ifndef CMD_H
#define CMD_H

/*
 * cmd: the exercise's command interpreter. One call handles one input line
 * (without its '\n'): tokenize, look the command up in a table of
 * {name, min_args, max_args, usage, handler} rows, check the argument
 * count, run the handler. Output (results and error lines alike) is
 * appended to a growable buffer that the caller flushes when it likes, so
 * the interpreter does no I/O and can be driven by tests and the fuzzer.
 */

#include <stddef.h>

#include "lex.h"

struct cmd_out {
	char *buf;       /* owned; not NUL-terminated */
	size_t len, cap;
	int failed;      /* an allocation failed; later appends are dropped */
};

struct cmd_state {
	int active;              /* active threads, 1..32 */
	struct lex_tokens toks;  /* scratch, reused across lines */
	struct cmd_out out;
};

void cmd_init(struct cmd_state *st);
void cmd_free(struct cmd_state *st);

/*
 * Processes line[0..len), which may hold any bytes. Returns 0, or -1 when
 * memory ran out (the output is then incomplete).
 */
int cmd_line(struct cmd_state *st, const char *line, size_t len);

#endif
