/*
 * escape: visible forms, XML, HTML and the scrub (escape.h).
 */
#include "grader/lib/escape.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grader/lib/strbuf.h"

#define REPLACEMENT "\xEF\xBF\xBD"   /* U+FFFD */

int escape_visible_byte(unsigned char c, int ws_visible, char out[8])
{
	if (c == ' ' && ws_visible) {
		memcpy(out, "\xc2\xb7", 3);
		return 1;
	}
	if (c == '\t' || c == '\r') {
		memcpy(out, c == '\t' ? "\\t" : "\\r", 3);
		return 2;
	}
	if (c < 0x20 || c >= 0x7f) {
		snprintf(out, 8, "\\x%02x", c);
		return 4;
	}
	out[0] = (char)c;
	out[1] = '\0';
	return 1;
}

char *escape_visible(const char *s, size_t len, int keep_newlines)
{
	struct strbuf b = STRBUF_INIT;
	char tmp[8];

	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\n' && keep_newlines) {
			strbuf_add(&b, "\n", 1);
		} else {
			escape_visible_byte((unsigned char)s[i], 0, tmp);
			strbuf_add(&b, tmp, strlen(tmp));
		}
	}
	return strbuf_detach(&b, NULL);
}

/* ---- XML ---- */

size_t escape_utf8_len(const unsigned char *s, size_t left)
{
	size_t n;
	unsigned long cp;

	if (s[0] >= 0xC2 && s[0] <= 0xDF) {
		n = 2;
		cp = s[0] & 0x1F;
	} else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
		n = 3;
		cp = s[0] & 0x0F;
	} else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (left < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3F);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) ||
	    cp == 0xFFFE || cp == 0xFFFF)
		return 0;
	return n;
}

/* The entity for an ASCII byte, or NULL when it has none. */
static const char *entity(unsigned char c, unsigned flags)
{
	int attr = flags & ESCAPE_ATTR, replace = flags & ESCAPE_REPLACE;

	switch (c) {
	case '&': return "&amp;";
	case '<': return "&lt;";
	case '>': return "&gt;";
	case '"': return "&quot;";
	case '\'': return replace ? "&#39;" : "&apos;";
	case '\t': return replace ? NULL : attr ? "&#9;" : "\t";
	case '\n': return replace ? NULL : attr ? "&#10;" : "\n";
	case '\r': return replace ? NULL : "&#13;";
	default: return NULL;
	}
}

static void bad_byte(FILE *f, unsigned char c, unsigned flags)
{
	if (!(flags & ESCAPE_REPLACE))
		fprintf(f, "\\x%02X", c);
	else if (c < 0x80)
		fputc('?', f);
	else
		fputs("\xef\xbf\xbd", f);       /* U+FFFD */
}

void escape_xml(FILE *f, const char *s, size_t len, unsigned flags)
{
	const unsigned char *p = (const unsigned char *)s;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = p[i];
		const char *e = entity(c, flags);
		size_t n;

		if (e)
			fputs(e, f);
		else if (c < 0x20 || c == 0x7F)
			bad_byte(f, c, flags);
		else if (c < 0x80)
			fputc(c, f);
		else if ((n = escape_utf8_len(p + i, len - i)) == 0)
			bad_byte(f, c, flags);
		else {
			fwrite(p + i, 1, n, f);
			i += n - 1;
		}
	}
}

/* ---- HTML ---- */

void escape_html(FILE *f, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		size_t run = i;

		/* Plain ASCII is copied in runs. */
		while (run < len && p[run] >= 0x20 && p[run] < 0x7F &&
		       !strchr("&<>\"'", p[run]))
			run++;
		if (run > i)
			fwrite(p + i, 1, run - i, f);
		i = run;
		if (i >= len)
			break;
		switch (p[i]) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		case '\t': case '\n': fputc(p[i], f); break;
		default:
			if (p[i] >= 0x80) {
				size_t n = escape_utf8_len(p + i, len - i);

				if (n) {
					fwrite(p + i, 1, n, f);
					i += n;
					continue;
				}
			}
			fputs(REPLACEMENT, f);  /* a control byte, or not UTF-8 */
			break;
		}
		i++;
	}
}

/* ---- the scrub ---- */

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
	if (s[0] < 0x80 || (n = escape_utf8_len(s, left)) == 0) {
		*safe = 0;             /* C0, DEL, or not UTF-8 */
		return 1;
	}
	/* U+0080-U+009F, the C1 controls: 0xC2 0x80-0x9F. */
	if (s[0] == 0xC2 && s[1] < 0xA0)
		*safe = 0;
	return n;
}

size_t escape_scrub(char *s, size_t len, int keep_newlines)
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

char *escape_scrub_dup(const char *s, int keep_newlines)
{
	char *copy = strdup(s);

	if (copy)
		escape_scrub(copy, strlen(copy), keep_newlines);
	return copy;
}

void escape_fput_scrubbed(FILE *f, const char *s, size_t len, int keep_newlines)
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

