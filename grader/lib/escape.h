#ifndef WG_ESCAPE_H
#define WG_ESCAPE_H
/*
 * escape: the visible form of what a program wrote, for diffs, reports
 * and logs: control bytes (other than '\n' where kept) and bytes >= 0x80
 * as \t, \r, \xNN, so that every text shown is printable and valid UTF-8
 * whatever the bytes were. (Markup escaping is each format's own:
 * xml.h, html.h; a message's control bytes: usage.h's scrub.)
 *
 * Errors: escape_visible returns NULL when out of memory.
 */
#include <stddef.h>

/* The visible form of byte c into out (NUL-terminated, at most 7 bytes;
 * with ws_visible a blank is a middle dot); returns its display width
 * (1, 2 or 4 columns). */
int escape_visible_byte(unsigned char c, int ws_visible, char out[8]);
/* A malloc'd copy of bytes in their visible form ('\n' itself when
 * keep_newlines). NULL when out of memory. */
char *escape_visible(const char *s, size_t len, int keep_newlines);

#endif
