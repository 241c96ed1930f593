/*
 * linemap: from a line of expected output back to the input line that
 * answered it (see linemap.h). One pass over the input, with a cursor in
 * the expected output; nothing is allocated.
 */
#include "grader/judge/linemap.h"

#include <limits.h>
#include <string.h>

#define BLANKS " \t\r\v\f"

/* A line of text: [p, p + len). */
struct span {
	const char *p;
	size_t len;
};

/* The next line of buf from *at (without its '\n'); 0 at the end. */
static int next_line(const char *buf, size_t len, size_t *at, struct span *l)
{
	const char *nl;

	if (*at >= len)
		return 0;
	l->p = buf + *at;
	nl = memchr(l->p, '\n', len - *at);
	l->len = nl ? (size_t)(nl - l->p) : len - *at;
	*at += l->len + (nl != NULL);
	return 1;
}

/* The command of an input line (its first token before any comment);
 * len 0 when the line holds none. */
static struct span command(const struct suite_line_map *m, struct span l)
{
	struct span c = { l.p, 0 };
	size_t end = l.len;

	if (m->comment) {
		size_t k = strlen(m->comment);
		for (size_t i = 0; i + k <= l.len; i++)
			if (!memcmp(l.p + i, m->comment, k)) {
				end = i;
				break;
			}
	}
	size_t i = 0;
	while (i < end && strchr(BLANKS, l.p[i]) && l.p[i])
		i++;
	c.p = l.p + i;
	while (i < end && !(strchr(BLANKS, l.p[i]) && l.p[i])) {
		i++;
		c.len++;
	}
	return c;
}

static long answers(const struct suite_line_map *m, struct span c)
{
	for (size_t i = 0; i < m->ncommands; i++)
		if (strlen(m->commands[i]) == c.len &&
		    !memcmp(m->commands[i], c.p, c.len))
			return m->lines[i];
	return m->default_lines;
}

static int starts_with(struct span l, const char *p, size_t n)
{
	return l.len >= n && !memcmp(l.p, p, n);
}

/* Whether the expected line e is the failure of command c, which answers
 * n lines when it succeeds. */
static int failed(const struct suite_line_map *m, struct span c, long n,
		  const struct span *e)
{
	size_t k;

	if (!m->error_prefix || !e)
		return 0;
	k = strlen(m->error_prefix);
	if (!starts_with(*e, m->error_prefix, k))
		return 0;
	if (n > 0)
		return 1;
	/* Answering nothing, it owns an error line only by its name. */
	return e->len > k + c.len && !memcmp(e->p + k, c.p, c.len) &&
	       e->p[k + c.len] == ':';
}

static int same(struct span a, struct span b)
{
	return a.len == b.len && !memcmp(a.p, b.p, a.len);
}

/* Walks the run of commands named c (blank lines allowed between them)
 * whose first command was just read: line *lineno, the input from *at on.
 * Stops after its idx-th command (0: the first) or at its last, leaving
 * *at and *lineno just after that command; returns how many commands it
 * passed, that one included. */
static long run_walk(const struct suite_line_map *m, struct span c,
		     const char *in, size_t in_len, size_t *at, long *lineno,
		     long idx)
{
	size_t a = *at;
	long ln = *lineno, k = 0;
	struct span l;

	while (k < idx && next_line(in, in_len, &a, &l)) {
		struct span d = command(m, l);

		ln++;
		if (!d.len)
			continue;
		if (!same(d, c))
			break;
		k++;
		*at = a;
		*lineno = ln;
	}
	return k + 1;
}

/* The line of the run's idx-th command (run_walk's arguments). */
static long run_line(const struct suite_line_map *m, struct span c,
		     const char *in, size_t in_len, size_t at, long lineno,
		     long idx)
{
	run_walk(m, c, in, in_len, &at, &lineno, idx);
	return lineno;
}

/* How many lines from e on (the cursor out_at after it) are failures of
 * the zero-line command c, at most max. */
static long failures(const struct suite_line_map *m, struct span c,
		     const char *out, size_t out_len, size_t out_at,
		     struct span e, int have_e, long max)
{
	long k = 0;

	while (k < max && have_e && failed(m, c, 0, &e)) {
		k++;
		have_e = next_line(out, out_len, &out_at, &e);
	}
	return k;
}

int linemap_find(const struct suite_line_map *m, const char *in, size_t in_len,
		 const char *out, size_t out_len, long out_line, long *lo,
		 long *hi)
{
	size_t in_at = 0, out_at = 0;
	long lineno = 0, pos = 1;   /* pos: the next expected line */
	struct span l, e = { NULL, 0 };
	int have_e;

	if (!m || out_line < 1)
		return -1;
	/* A line past the expected output (the program printed too much)
	 * answers no input line. */
	for (size_t at = 0; next_line(out, out_len, &at, &e);)
		if (++lineno == out_line)
			break;
	if (lineno < out_line)
		return -1;
	lineno = 0;
	have_e = next_line(out, out_len, &out_at, &e);
	while (next_line(in, in_len, &in_at, &l)) {
		struct span c = command(m, l);
		long n, count;

		lineno++;
		if (!c.len)
			continue;
		n = answers(m, c);
		if (n == 0 && m->error_prefix) {
			/* A run of R such commands with E failures: the j-th
			 * failure is one of the commands j .. R-E+j. */
			size_t at = in_at;
			long ln = lineno;
			long runs = run_walk(m, c, in, in_len, &at, &ln, LONG_MAX);
			long errs = failures(m, c, out, out_len, out_at, e, have_e, runs);

			if (out_line >= pos && out_line < pos + errs) {
				long j = out_line - pos;
				*lo = run_line(m, c, in, in_len, in_at, lineno, j);
				*hi = run_line(m, c, in, in_len, in_at, lineno,
					       runs - errs + j);
				return 0;
			}
			run_walk(m, c, in, in_len, &in_at, &lineno, runs - 1);
			count = errs;
		} else {
			count = failed(m, c, n, have_e ? &e : NULL) ? 1 : n;
			if (out_line >= pos && out_line < pos + count) {
				*lo = *hi = lineno;
				return 0;
			}
		}
		for (long k = 0; k < count; k++) {
			if (!have_e)
				return -1;   /* the output ended first */
			have_e = next_line(out, out_len, &out_at, &e);
		}
		pos += count;
	}
	return -1;
}
