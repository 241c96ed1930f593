/* usage: see usage.h. */
#include "grader/lib/usage.h"
#include "grader/lib/escape.h"
#include "grader/lib/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *prefix = "grade";

void usage_set_prefix(const char *p)
{
	prefix = p;
}

/* The whole message is formed first, then scrubbed: a file name in it may
 * be a submission's. */
__attribute__((format(printf, 2, 0)))
static void report(const char *kind, const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_vaddf(&sb, fmt, ap);
	fprintf(stderr, "%s: %s", prefix, kind);
	if (strbuf_failed(&sb))
		fputs("(out of memory while forming the message)", stderr);
	else
		escape_fput_scrubbed(stderr, sb.buf, sb.len, 1);
	fputc('\n', stderr);
	strbuf_release(&sb);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("error: ", fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("warning: ", fmt, ap);
	va_end(ap);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("fatal: ", fmt, ap);
	va_end(ap);
	exit(WG_EXIT_INTERNAL);
}

void die_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("", fmt, ap);
	va_end(ap);
	fputs("(see grade --help)\n", stderr);
	exit(WG_EXIT_USAGE);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		die("out of memory (%zu x %zu bytes)", n, size);
	return p;
}

void *xrealloc(void *old, size_t n)
{
	void *p = realloc(old, n ? n : 1);

	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}
