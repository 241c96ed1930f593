/* usage: see usage.h. */
#include "grader/lib/usage.h"
#include "grader/lib/strbuf.h"
#include "grader/lib/xml.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *prefix = "grade";

void usage_set_prefix(const char *p)
{
	prefix = p;
}

/* How many bytes at s (left of them, left >= 1) form one unit, and
 * whether it may be shown as it is (*safe). A bad byte is a unit alone. */
static size_t scrub_unit(const unsigned char *s, size_t left, int keep_newlines,
			 int *safe)
{
	size_t n;

	*safe = 1;
	if (s[0] == '\t' || (s[0] == '\n' && keep_newlines) ||
	    (s[0] >= 0x20 && s[0] < 0x7f))
		return 1;
	if (s[0] < 0x80 || (n = xml_utf8_len(s, left)) == 0) {
		*safe = 0;             /* C0, DEL, or not UTF-8 */
		return 1;
	}
	/* U+0080-U+009F, the C1 controls: 0xC2 0x80-0x9F. */
	if (s[0] == 0xC2 && s[1] < 0xA0)
		*safe = 0;
	return n;
}

size_t usage_scrub(char *s, size_t len, int keep_newlines)
{
	size_t i = 0, out = 0;

	while (i < len) {
		int safe;
		size_t n = scrub_unit((const unsigned char *)s + i, len - i,
				      keep_newlines, &safe);

		if (safe) {
			memmove(s + out, s + i, n);
			out += n;
		} else {
			s[out++] = '?';
		}
		i += n;
	}
	s[out] = '\0';
	return out;
}

char *usage_scrub_dup(const char *s, int keep_newlines)
{
	char *copy = strdup(s);

	if (copy)
		usage_scrub(copy, strlen(copy), keep_newlines);
	return copy;
}

void usage_fput_scrubbed(FILE *f, const char *s, size_t len, int keep_newlines)
{
	size_t i = 0;

	while (i < len) {
		int safe;
		size_t n = scrub_unit((const unsigned char *)s + i, len - i,
				      keep_newlines, &safe);

		if (safe)
			fwrite(s + i, 1, n, f);
		else
			fputc('?', f);
		i += n;
	}
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
		usage_fput_scrubbed(stderr, sb.buf, sb.len, 1);
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
