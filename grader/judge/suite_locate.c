/*
 * suite_locate: see suite_locate.h. A tiny scanner over JSON text that
 * jansson has already accepted: it skips values, decodes keys to compare
 * them, and counts lines and columns.
 */
#include "grader/judge/suite_locate.h"

#include <string.h>

/* ---- locating a value in the text ---------------------------------- */

static const char *skip_ws(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

/* p at an opening quote; returns the position after the closing one. */
static const char *skip_string(const char *p, const char *e)
{
	for (p++; p < e && *p != '"'; p++)
		if (*p == '\\')
			p++;
	return p < e ? p + 1 : e;
}

static const char *skip_value(const char *p, const char *e)
{
	int depth = 0;

	p = skip_ws(p, e);
	if (p < e && *p == '"')
		return skip_string(p, e);
	if (p < e && (*p == '{' || *p == '[')) {
		while (p < e) {
			if (*p == '"') {
				p = skip_string(p, e);
				continue;
			}
			if (*p == '{' || *p == '[')
				depth++;
			else if ((*p == '}' || *p == ']') && --depth == 0)
				return p + 1;
			p++;
		}
		return e;
	}
	while (p < e && *p && !strchr(",]} \t\r\n", *p))
		p++;
	return p;
}

static unsigned hex4(const char *p, const char *e)
{
	unsigned v = 0;

	for (int i = 0; i < 4 && p + i < e; i++) {
		char c = p[i];
		v = v * 16 + (unsigned)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
	}
	return v;
}

static size_t utf8_put(unsigned cp, char *out)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xC0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xE0 | cp >> 12);
		out[1] = (char)(0x80 | (cp >> 6 & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | cp >> 18);
	out[1] = (char)(0x80 | (cp >> 12 & 0x3F));
	out[2] = (char)(0x80 | (cp >> 6 & 0x3F));
	out[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

/* p at a backslash; decodes one escape into out (up to 4 bytes). */
static const char *unescape(const char *p, const char *e, char *out,
			    size_t *n)
{
	static const char from[] = "bfnrt", to[] = "\b\f\n\r\t";
	const char *hit;
	unsigned cp;

	if (p + 1 >= e) {
		*n = 0;
		return e;
	}
	if (p[1] != 'u') {
		hit = strchr(from, p[1]);
		out[0] = hit && p[1] ? to[hit - from] : p[1];
		*n = 1;
		return p + 2;
	}
	cp = hex4(p + 2, e);
	p += 6;
	if (cp >= 0xD800 && cp < 0xDC00 && p + 6 <= e && p[0] == '\\' &&
	    p[1] == 'u') {
		cp = 0x10000 + ((cp - 0xD800) << 10) + (hex4(p + 2, e) - 0xDC00);
		p += 6;
	}
	*n = utf8_put(cp, out);
	return p;
}

/* p at the opening quote of a key; sets *eq to whether its decoded text is
 * want; returns the position after the closing quote. */
static const char *key_equals(const char *p, const char *e, const char *want,
			      int *eq)
{
	size_t wlen = strlen(want), wi = 0;
	int same = 1;

	for (p++; p < e && *p != '"';) {
		char buf[4];
		size_t n = 1;

		if (*p == '\\')
			p = unescape(p, e, buf, &n);
		else
			buf[0] = *p++;
		if (wi + n > wlen || memcmp(want + wi, buf, n) != 0)
			same = 0;
		else
			wi += n;
	}
	*eq = same && wi == wlen;
	return p < e ? p + 1 : e;
}

/* p at '{': the value of member key (its key's position in *key_at). */
static const char *find_member(const char *p, const char *e, const char *key,
			       const char **key_at)
{
	for (p = skip_ws(p + 1, e); p < e && *p == '"';) {
		const char *start = p;
		int eq;

		p = skip_ws(key_equals(p, e, key, &eq), e);
		p = skip_ws(p + 1, e);	/* the ':' */
		if (eq) {
			*key_at = start;
			return p;
		}
		p = skip_ws(skip_value(p, e), e);
		if (p >= e || *p != ',')
			return NULL;
		p = skip_ws(p + 1, e);
	}
	return NULL;
}

/* p at '[': the element at index. */
static const char *find_element(const char *p, const char *e, size_t index)
{
	p = skip_ws(p + 1, e);
	for (size_t i = 0; p < e && *p != ']'; i++) {
		if (i == index)
			return p;
		p = skip_ws(skip_value(p, e), e);
		if (p >= e || *p != ',')
			return NULL;
		p = skip_ws(p + 1, e);
	}
	return NULL;
}

/* The text position of path[0..depth): of the last key itself when at_key,
 * else of its value. Stops at the deepest step it could follow. */
static const char *position(const char *text, size_t len,
			  const struct suite_step *path, size_t depth, int at_key)
{
	const char *e = text + len, *p = skip_ws(text, e), *key_at = NULL;

	for (size_t i = 0; i < depth; i++) {
		const char *next = NULL;

		if (path[i].key && p < e && *p == '{')
			next = find_member(p, e, path[i].key, &key_at);
		else if (!path[i].key && p < e && *p == '[')
			next = find_element(p, e, path[i].index);
		if (!next)
			return p;
		p = skip_ws(next, e);
	}
	return at_key && depth > 0 && path[depth - 1].key && key_at ? key_at : p;
}

static void line_col(const char *text, const char *at, int *line, int *col)
{
	*line = 1;
	*col = 1;
	for (const char *p = text; p < at; p++) {
		if (*p == '\n') {
			(*line)++;
			*col = 1;
		} else if ((*p & 0xC0) != 0x80) {
			(*col)++;
		}
	}
}

void suite_locate(const char *text, size_t len, const struct suite_step *path,
		  size_t depth, int at_key, int *line, int *col)
{
	line_col(text, position(text, len, path, depth, at_key), line, col);
}

void suite_path_name(struct strbuf *out, const struct suite_step *path,
		     size_t depth)
{
	for (size_t i = 0; i < depth; i++) {
		if (path[i].key)
			strbuf_addf(out, "%s%s", i ? "." : "", path[i].key);
		else
			strbuf_addf(out, "[%zu]", path[i].index);
	}
}
