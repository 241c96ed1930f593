/*
 * compare: the output comparison rule (see compare.h). It walks both
 * outputs line by line without copying them, from the line that holds
 * their first differing byte: the lines before it are the same bytes, so
 * equal under either rule, and a right answer costs one memcmp.
 */
#include "grader/judge/compare.h"

#include <string.h>

struct cursor {
	const char *p, *end;
};

static int is_trailing_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Bytes compared at once by cmp_common_prefix before it looks closer. */
#define PREFIX_BLOCK 4096

size_t cmp_common_prefix(const char *a, const char *b, size_t n)
{
	size_t i = 0;

	while (n - i >= PREFIX_BLOCK && !memcmp(a + i, b + i, PREFIX_BLOCK))
		i += PREFIX_BLOCK;
	while (n - i >= 64 && !memcmp(a + i, b + i, 64))
		i += 64;
	while (i < n && a[i] == b[i])
		i++;
	return i;
}

size_t cmp_trim_len(const char *line, size_t len)
{
	while (len > 0 && is_trailing_space(line[len - 1]))
		len--;
	return len;
}

int cmp_line_equal(const char *a, size_t alen, const char *b, size_t blen,
		   int exact)
{
	if (!exact) {
		alen = cmp_trim_len(a, alen);
		blen = cmp_trim_len(b, blen);
	}
	return alen == blen && (alen == 0 || !memcmp(a, b, alen));
}

/* Next line of the cursor, trailing whitespace trimmed; 0 at the end. */
static int next_line(struct cursor *c, const char **line, size_t *len)
{
	if (c->p >= c->end)
		return 0;
	const char *nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
	const char *stop = nl ? nl : c->end;

	*line = c->p;
	*len = cmp_trim_len(c->p, (size_t)(stop - c->p));
	c->p = nl ? nl + 1 : c->end;
	return 1;
}

/* 1 when every remaining line is blank. */
static int only_blank_left(struct cursor *c)
{
	const char *line;
	size_t len;

	while (next_line(c, &line, &len))
		if (len)
			return 0;
	return 1;
}

int cmp_equal(const char *exp, size_t elen, const char *act, size_t alen,
	      int exact)
{
	if (exact)
		return elen == alen && (elen == 0 || !memcmp(exp, act, elen));

	size_t same = cmp_common_prefix(exp, act, elen < alen ? elen : alen);
	if (same == elen && elen == alen)
		return 1;
	/* From the start of the line that holds the first differing byte. */
	while (same > 0 && exp[same - 1] != '\n')
		same--;
	struct cursor e = { exp + same, exp + elen }, a = { act + same, act + alen };
	for (;;) {
		const char *el, *al;
		size_t en, an;
		int has_e = next_line(&e, &el, &en);
		int has_a = next_line(&a, &al, &an);

		if (!has_e && !has_a)
			return 1;
		if (!has_e)
			return an == 0 && only_blank_left(&a);
		if (!has_a)
			return en == 0 && only_blank_left(&e);
		if (en != an || (en && memcmp(el, al, en)))
			return 0;
	}
}
