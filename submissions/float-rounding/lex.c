#include "lex.h"

#include <stdlib.h>

static int is_sep(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static int push(struct lex_tokens *t, const char *p, size_t n)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		struct lex_token *v = realloc(t->v, cap * sizeof(*v));
		if (!v)
			return -1;
		t->v = v;
		t->cap = cap;
	}
	t->v[t->n].p = p;
	t->v[t->n].n = n;
	t->n++;
	return 0;
}

int lex_split(struct lex_tokens *t, const char *line, size_t len)
{
	size_t i = 0;

	t->n = 0;
	while (i < len && line[i] != '#') {
		if (is_sep((unsigned char)line[i])) {
			i++;
			continue;
		}
		size_t start = i;
		while (i < len && line[i] != '#' && !is_sep((unsigned char)line[i]))
			i++;
		if (push(t, line + start, i - start) < 0) {
			t->n = 0;
			return -1;
		}
	}
	return 0;
}

void lex_tokens_free(struct lex_tokens *t)
{
	free(t->v);
	t->v = NULL;
	t->n = t->cap = 0;
}

static int digit_value(unsigned char c, int base)
{
	int d;

	if (c >= '0' && c <= '9')
		d = c - '0';
	else if (c >= 'a' && c <= 'f')
		d = c - 'a' + 10;
	else if (c >= 'A' && c <= 'F')
		d = c - 'A' + 10;
	else
		return -1;
	return d < base ? d : -1;
}

int lex_number(const struct lex_token *tok, int64_t *out)
{
	const char *p = tok->p, *end = tok->p + tok->n;
	int neg = 0, base = 10;
	int64_t v = 0;

	if (p < end && *p == '-') {
		neg = 1;
		p++;
	}
	if (end - p >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	if (p == end)
		return -1;
	/* v stays below 2^48 before each step, so v * 16 + 15 cannot overflow. */
	for (; p < end; p++) {
		int d = digit_value((unsigned char)*p, base);
		if (d < 0)
			return -1;
		v = v * base + d;
		if (v >= LEX_MAX_MAGNITUDE)
			return -1;
	}
	*out = neg ? -v : v;
	return 0;
}
