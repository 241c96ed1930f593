/* xml: see xml.h. */
#include "grader/lib/xml.h"

size_t xml_utf8_len(const unsigned char *s, size_t left)
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
	int attr = flags & XML_ATTR, replace = flags & XML_REPLACE;

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
	if (!(flags & XML_REPLACE))
		fprintf(f, "\\x%02X", c);
	else if (c < 0x80)
		fputc('?', f);
	else
		fputs("\xef\xbf\xbd", f);       /* U+FFFD */
}

void xml_escape(FILE *f, const char *s, size_t len, unsigned flags)
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
		else if ((n = xml_utf8_len(p + i, len - i)) == 0)
			bad_byte(f, c, flags);
		else {
			fwrite(p + i, 1, n, f);
			i += n - 1;
		}
	}
}
