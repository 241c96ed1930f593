#ifndef WG_XML_H
#define WG_XML_H
/*
 * xml: the one XML escaping of the tree (JUnit reports of grade and of
 * gpu-check, gpu-check's SVG plot). Library-safe: it writes to the FILE
 * it is given and cannot fail otherwise (the caller checks ferror).
 *
 * Markup characters become entities (& < > " and the apostrophe), so the
 * text fits a text node and an attribute alike. Bytes XML 1.0 cannot hold
 * never reach the document: control characters, and UTF-8 that is not
 * valid (overlong, surrogate, past U+10FFFF, the noncharacters U+FFFE and
 * U+FFFF, truncated), each bad byte on its own. How they are written:
 *   default      "\xNN" (upper-case hex), which a reader of a report can
 *                still decode; a tab and a newline stay as they are,
 *                a carriage return is "&#13;" (parsers fold raw CRs);
 *   XML_ATTR     the same, but a tab and a newline become "&#9;" and
 *                "&#10;" (an attribute would fold them into spaces);
 *   XML_REPLACE  for text shown in a browser (SVG): a control character
 *                (tab and newline too) is '?', a bad byte is U+FFFD, and
 *                the apostrophe is "&#39;", which HTML knows too.
 *
 * Errors: cannot fail (writing errors stay in f, for ferror).
 */
#include <stddef.h>
#include <stdio.h>

enum {
	XML_ATTR = 1,
	XML_REPLACE = 2
};

/* Writes len bytes of s to f, escaped as above. */
void xml_escape(FILE *f, const char *s, size_t len, unsigned flags);
/* Length of the valid UTF-8 sequence at s (s[0] >= 0x80) that XML 1.0
 * allows, or 0 when the bytes there are not one (overlong, surrogate, past
 * U+10FFFF, the noncharacters U+FFFE/U+FFFF, or truncated). The HTML
 * page's escaping (html.c) applies the same rule. */
size_t xml_utf8_len(const unsigned char *s, size_t left);

#endif
