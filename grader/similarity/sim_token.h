#ifndef WG_SIM_TOKEN_H
#define WG_SIM_TOKEN_H
/*
 * sim_token: a C source file as the stream of normalised tokens that
 * similarity compares (docs/similarity.md says why each rule is there).
 *
 *   - line splices (backslash, newline; a CR before the newline too) are
 *     removed first, as translation phase 2 does; every token keeps the
 *     line it starts on in the file as written;
 *   - comments (block and line) and white space are dropped; so is every
 *     preprocessor line ('#' first on a line, to the end of the logical
 *     line: #include, #define, #if... are not the program's own text);
 *   - identifiers become SIM_TK_ID, number literals SIM_TK_NUM, string
 *     literals (any prefix, escapes honoured) SIM_TK_STR, character
 *     constants SIM_TK_CHR; a run of type words (int, unsigned long,
 *     double, a *_t name...) one SIM_TK_TYPE; the qualifiers and storage
 *     classes that change nothing of a program's shape (const, static,
 *     register, inline, volatile, restrict, extern, auto) are dropped;
 *   - every other keyword and every punctuator keeps a kind of its own
 *     (digraphs as the punctuator they spell).
 * No trigraphs (C23 removed them; gcc ignores them by default). Input that
 * is not valid C (an unterminated string or comment) still gives tokens:
 * the tokenizer never refuses a file.
 *
 * Lifecycle: struct sim_tokens starts zeroed (SIM_TOKENS_INIT); each
 * sim_tokenize appends; sim_tokens_release frees. Errors: -1 when out of
 * memory (err says so; the tokens so far stay).
 */
#include <stddef.h>
#include <stdint.h>

struct strbuf;

enum sim_token_kind {
	SIM_TK_ID = 1, SIM_TK_NUM, SIM_TK_STR, SIM_TK_CHR, SIM_TK_TYPE,
	SIM_TK_OTHER,        /* a byte that starts no C token ('@', '`') */
	SIM_TK_KEYWORD = 16, /* + the keyword's index (sim_token_name) */
	SIM_TK_PUNCT = 64    /* + the punctuator's index */
};

struct sim_token {
	uint16_t kind;
	uint16_t file;       /* the caller's file number (sim_tokenize) */
	uint32_t line;       /* 1-based, in the file as written */
};

struct sim_tokens {
	struct sim_token *v;
	size_t n, alloc;
};
#define SIM_TOKENS_INIT { NULL, 0, 0 }

/* Appends the tokens of buf (len bytes, NUL bytes allowed) to out, each
 * marked with file. 0, or -1 when out of memory. */
int sim_tokenize(const char *buf, size_t len, uint16_t file,
		 struct sim_tokens *out, struct strbuf *err);
void sim_tokens_release(struct sim_tokens *t);

/* The spelling of a kind, for tests and debugging: "ID", "while", "+=";
 * "?" for a kind no token has. A static string. */
const char *sim_token_name(unsigned kind);

#endif
