/*
 * escape: visible forms of bytes (escape.h).
 */
#include "grader/lib/escape.h"

#include <stdio.h>
#include <string.h>

#include "grader/lib/strbuf.h"

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
