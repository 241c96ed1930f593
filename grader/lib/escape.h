#ifndef WG_ESCAPE_H
#define WG_ESCAPE_H
/*
 * escape: every way the grader makes bytes it did not choose safe to
 * show, in one place. Library-safe: the writers write to the FILE given
 * and cannot fail otherwise (the caller checks ferror); the copies return
 * NULL when memory runs out.
 *
 * The visible form (escape_visible): a program's bytes in diffs, reports
 * and logs: control bytes (other than '\n' where kept) and bytes >= 0x80
 * as \t, \r, \xNN, so that every text shown is printable ASCII whatever
 * the bytes were.
 *
 * XML (escape_xml: JUnit reports of grade and of gpu-check, gpu-check's
 * SVG plot). Markup characters become entities (& < > " and the apostrophe), so the
 * text fits a text node and an attribute alike. Bytes XML 1.0 cannot hold
 * never reach the document: control characters, and UTF-8 that is not
 * valid (overlong, surrogate, past U+10FFFF, the noncharacters U+FFFE and
 * U+FFFF, truncated), each bad byte on its own. How they are written:
 *   default      "\xNN" (upper-case hex), which a reader of a report can
 *                still decode; a tab and a newline stay as they are,
 *                a carriage return is "&#13;" (parsers fold raw CRs);
 *   ESCAPE_ATTR  the same, but a tab and a newline become "&#9;" and
 *                "&#10;" (an attribute would fold them into spaces);
 *   ESCAPE_REPLACE for text shown in a browser (SVG): a control character
 *                (tab and newline too) is '?', a bad byte is U+FFFD, and
 *                the apostrophe is "&#39;", which HTML knows too.
 *
 * HTML (escape_html: the pages): the five markup characters as entities;
 * tab and newline kept; other control bytes and bytes that are not valid
 * UTF-8 (escape_utf8_len's rule) become U+FFFD.
 *
 * Scrubbing (escape_scrub). Text a submission chose (a file name, a
 * compiler's message about it, a line of a log) must never drive the
 * reader's terminal: an escape sequence can retitle the window, hide
 * lines, fake a verdict or, on some terminals, type. As git's usage.c does
 * for its messages, every human-readable output (messages, the terminal
 * report, summary.txt, gradebook.csv, the logs) goes through
 * escape_scrub(): each control character (C0 but tab, and newline where
 * kept; DEL; the C1 controls U+0080-U+009F, CSI among them) and each byte
 * that is not part of valid UTF-8 becomes '?'. Printable ASCII and valid
 * UTF-8 stay as they are, so names in other scripts still read right.
 * error(), warning(), die() and die_usage() scrub what they print. JSON
 * reports keep the raw bytes (jansson escapes them) unless a key is meant
 * for display.
 */
#include <stddef.h>
#include <stdio.h>

enum {
	ESCAPE_ATTR = 1,
	ESCAPE_REPLACE = 2
};

/* The visible form of byte c into out (NUL-terminated, at most 7 bytes;
 * with ws_visible a blank is a middle dot); returns its display width
 * (1, 2 or 4 columns). */
int escape_visible_byte(unsigned char c, int ws_visible, char out[8]);
/* A malloc'd copy of bytes in their visible form ('\n' itself when
 * keep_newlines). NULL when out of memory. */
char *escape_visible(const char *s, size_t len, int keep_newlines);

/* Length of the valid UTF-8 sequence at s (s[0] >= 0x80) that XML 1.0
 * allows, or 0 when the bytes there are not one (overlong, surrogate, past
 * U+10FFFF, the noncharacters U+FFFE/U+FFFF, or truncated). */
size_t escape_utf8_len(const unsigned char *s, size_t left);
/* Writes len bytes of s to f, escaped for XML as above (flags:
 * ESCAPE_ATTR, ESCAPE_REPLACE). */
void escape_xml(FILE *f, const char *s, size_t len, unsigned flags);
/* Writes s (len bytes) for HTML text or a quoted attribute value: & < > "
 * and ' become entities; invalid UTF-8 (overlong forms, surrogates, past
 * U+10FFFF, truncated sequences), noncharacters U+FFFE/U+FFFF and control
 * characters other than tab and newline become U+FFFD, one per bad byte. */
void escape_html(FILE *f, const char *s, size_t len);

/* Scrubs len bytes of s in place (as above; newlines stay when
 * keep_newlines, else they become '?' too) and NUL-terminates the result,
 * which is never longer: returns its length. s must hold len + 1 bytes. */
size_t escape_scrub(char *s, size_t len, int keep_newlines);
/* A malloc'd, scrubbed, NUL-terminated copy of s (the caller frees it), or
 * NULL when memory runs out. */
char *escape_scrub_dup(const char *s, int keep_newlines);
/* Writes len bytes of s to f, scrubbed, without allocating. */
void escape_fput_scrubbed(FILE *f, const char *s, size_t len, int keep_newlines);

#endif
