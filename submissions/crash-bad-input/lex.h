#ifndef LEX_H
#define LEX_H

/*
 * lex: the exercise's tokenizer and number grammar.
 *
 * A line is split into tokens separated by runs of space, tab, CR, VT or FF;
 * '#' ends the line's tokens wherever it appears, even inside a token. Tokens
 * are (pointer, length) views into the caller's line, so a line may hold any
 * bytes, NUL included, and be of any length.
 */

#include <stddef.h>
#include <stdint.h>

/* Magnitudes must be below 2^48 (the contract). */
#define LEX_MAX_MAGNITUDE ((int64_t)1 << 48)

struct lex_token {
	const char *p;
	size_t n;
};

struct lex_tokens {
	struct lex_token *v;   /* owned; grows as needed */
	size_t n, cap;
};

/*
 * Splits line[0..len) into t (reusing its storage). Returns 0, or -1 when
 * memory runs out (t is then left empty). Free with lex_tokens_free().
 */
int lex_split(struct lex_tokens *t, const char *line, size_t len);
void lex_tokens_free(struct lex_tokens *t);

/*
 * Parses a number: optional '-', then decimal digits (leading zeros are
 * still decimal) or 0x/0X and hex digits, magnitude below 2^48.
 * Returns 0 and sets *out, or -1 when the token is not such a number.
 */
int lex_number(const struct lex_token *tok, int64_t *out);

#endif
