/*
 * sim_token: see sim_token.h.
 *
 * Theory of operation. Phase 2 first: the splices are cut out into a
 * clean copy of the file in which every byte remembers its line, so the
 * scanner never meets one (a splice may fall inside an identifier, an
 * operator, a "//" or a "*" "/"). The scanner is one loop over the clean
 * copy: white space, comments, literals and words are skipped or turned
 * into tokens by table look-ups; a '#' first on a line switches emission
 * off until the end of that (logical) line, so a directive's strings and
 * comments are still scanned as such and a "//" inside "#define S \"//\""
 * cannot end it early.
 */
#include "grader/similarity/sim_token.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "grader/lib/strbuf.h"

/* Keywords: kind SIM_TK_KEYWORD + index. */
static const char *const keywords[] = {
	"break", "case", "continue", "default", "do", "else", "enum", "for",
	"goto", "if", "return", "sizeof", "struct", "switch", "typedef",
	"union", "while", "_Alignas", "_Alignof", "_Atomic", "_Generic",
	"_Noreturn", "_Static_assert", "_Thread_local", "alignas", "alignof",
	"static_assert", "true", "false", "NULL", "nullptr",
};
#define NKEYWORDS (sizeof keywords / sizeof *keywords)

/* Words that become one SIM_TK_TYPE per run. */
static const char *const type_words[] = {
	"void", "char", "short", "int", "long", "float", "double", "signed",
	"unsigned", "_Bool", "bool", "_Complex", "__int128", "FILE",
};

/* Words dropped: they change no program's shape. */
static const char *const dropped_words[] = {
	"const", "static", "register", "inline", "volatile", "restrict",
	"extern", "auto", "__inline", "__restrict", "__attribute__",
};

/* Punctuators, longest first (maximal munch); digraphs map to the
 * punctuator they spell through same_as. */
static const struct {
	const char *s;
	const char *same_as;
} puncts[] = {
	{ "%:%:", "##" }, { "...", NULL }, { "<<=", NULL }, { ">>=", NULL },
	{ "->", NULL }, { "++", NULL }, { "--", NULL }, { "<<", NULL },
	{ ">>", NULL }, { "<=", NULL }, { ">=", NULL }, { "==", NULL },
	{ "!=", NULL }, { "&&", NULL }, { "||", NULL }, { "*=", NULL },
	{ "/=", NULL }, { "%=", NULL }, { "+=", NULL }, { "-=", NULL },
	{ "&=", NULL }, { "^=", NULL }, { "|=", NULL }, { "##", NULL },
	{ "<:", "[" }, { ":>", "]" }, { "<%", "{" }, { "%>", "}" },
	{ "%:", "#" }, { "[", NULL }, { "]", NULL }, { "(", NULL },
	{ ")", NULL }, { "{", NULL }, { "}", NULL }, { ".", NULL },
	{ "&", NULL }, { "*", NULL }, { "+", NULL }, { "-", NULL },
	{ "~", NULL }, { "!", NULL }, { "/", NULL }, { "%", NULL },
	{ "<", NULL }, { ">", NULL }, { "^", NULL }, { "|", NULL },
	{ "?", NULL }, { ":", NULL }, { ";", NULL }, { "=", NULL },
	{ ",", NULL }, { "#", NULL },
};
#define NPUNCTS (sizeof puncts / sizeof *puncts)

static const char *const names[] = {
	[SIM_TK_ID] = "ID", [SIM_TK_NUM] = "NUM", [SIM_TK_STR] = "STR",
	[SIM_TK_CHR] = "CHR", [SIM_TK_TYPE] = "TYPE", [SIM_TK_OTHER] = "OTHER",
};

const char *sim_token_name(unsigned kind)
{
	if (kind >= SIM_TK_PUNCT && kind - SIM_TK_PUNCT < NPUNCTS)
		return puncts[kind - SIM_TK_PUNCT].s;
	if (kind >= SIM_TK_KEYWORD && kind - SIM_TK_KEYWORD < NKEYWORDS)
		return keywords[kind - SIM_TK_KEYWORD];
	if (kind < sizeof names / sizeof *names && names[kind])
		return names[kind];
	return "?";
}

/* ---- phase 2: the clean copy ---- */

struct scan {
	char *c;             /* the file without splices, NUL-terminated */
	uint32_t *line;      /* line[i]: the line of c[i] */
	size_t n, i;
	uint16_t file;
	int directive;       /* inside a preprocessor line: emit nothing */
	int line_start;      /* only white space and comments since '\n' */
	int last_type;       /* the last token emitted is a SIM_TK_TYPE */
	struct sim_tokens *out;
	int oom;
};

static size_t splice_len(const char *b, size_t len, size_t i)
{
	if (b[i] != '\\')
		return 0;
	if (i + 1 < len && b[i + 1] == '\n')
		return 2;
	if (i + 2 < len && b[i + 1] == '\r' && b[i + 2] == '\n')
		return 3;
	return 0;
}

static int clean_copy(struct scan *s, const char *b, size_t len)
{
	uint32_t line = 1;

	s->c = malloc(len + 1);
	s->line = malloc((len + 1) * sizeof *s->line);
	if (!s->c || !s->line)
		return -1;
	for (size_t i = 0; i < len;) {
		size_t sp = splice_len(b, len, i);

		if (sp) {
			i += sp;
			line++;
			continue;
		}
		s->line[s->n] = line;
		s->c[s->n++] = b[i];
		line += b[i++] == '\n';
	}
	s->c[s->n] = '\0';
	s->line[s->n] = line;
	return 0;
}

/* ---- the scanner ---- */

static void emit(struct scan *s, unsigned kind, size_t at)
{
	struct sim_tokens *t = s->out;

	if (s->directive || s->oom)
		return;
	if (kind == SIM_TK_TYPE && s->last_type)
		return;
	s->last_type = kind == SIM_TK_TYPE;
	if (t->n == t->alloc) {
		size_t na = t->alloc ? 2 * t->alloc : 256;
		struct sim_token *v = realloc(t->v, na * sizeof *v);

		if (!v) {
			s->oom = 1;
			return;
		}
		t->v = v;
		t->alloc = na;
	}
	t->v[t->n++] = (struct sim_token){ (uint16_t)kind, s->file, s->line[at] };
}

static int at(const struct scan *s, size_t k)
{
	return s->i + k < s->n ? (unsigned char)s->c[s->i + k] : -1;
}

static int word_char(int ch)
{
	return ch >= 0 && (isalnum(ch) || ch == '_' || ch == '$' || ch >= 0x80);
}

/* A quoted literal from its opening quote: escapes skip the next byte; an
 * unquoted newline ends an unterminated one. */
static void skip_quoted(struct scan *s)
{
	int q = at(s, 0);

	for (s->i++; s->i < s->n; s->i++) {
		int ch = at(s, 0);

		if (ch == '\\' && s->i + 1 < s->n) {
			s->i++;
			continue;
		}
		if (ch == q) {
			s->i++;
			return;
		}
		if (ch == '\n')
			return;
	}
}

/* 1 when a comment starts here (skipped). */
static int skip_comment(struct scan *s)
{
	if (at(s, 0) != '/' || (at(s, 1) != '*' && at(s, 1) != '/'))
		return 0;
	if (at(s, 1) == '/') {
		while (s->i < s->n && s->c[s->i] != '\n')
			s->i++;
		return 1;
	}
	/* An unterminated comment runs to the end of the file. */
	const char *end = memmem(s->c + s->i + 2, s->n - s->i - 2, "*/", 2);

	s->i = end ? (size_t)(end - s->c) + 2 : s->n;
	return 1;
}

static int in_list(const char *w, size_t len, const char *const *list, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (list[k][0] == w[0] && !strncmp(list[k], w, len) && !list[k][len])
			return (int)k;
	return -1;
}

static void scan_word(struct scan *s)
{
	size_t start = s->i, len;
	const char *w = s->c + start;
	int k;

	while (word_char(at(s, 0)))
		s->i++;
	len = s->i - start;
	/* A literal's prefix: L"", u8"", u'', U"". */
	if ((at(s, 0) == '"' || at(s, 0) == '\'') &&
	    in_list(w, len, (const char *const[]){ "L", "u", "U", "u8" }, 4) >= 0) {
		int q = at(s, 0);

		skip_quoted(s);
		emit(s, q == '"' ? SIM_TK_STR : SIM_TK_CHR, start);
		return;
	}
	if (in_list(w, len, dropped_words, sizeof dropped_words / sizeof *dropped_words) >= 0)
		return;
	if (in_list(w, len, type_words, sizeof type_words / sizeof *type_words) >= 0 ||
	    (len > 2 && w[len - 2] == '_' && w[len - 1] == 't'))
		emit(s, SIM_TK_TYPE, start);
	else if ((k = in_list(w, len, keywords, NKEYWORDS)) >= 0)
		emit(s, SIM_TK_KEYWORD + (unsigned)k, start);
	else
		emit(s, SIM_TK_ID, start);
}

/* A preprocessing number: a digit, or '.' and a digit, then digits,
 * letters, '_', '.', and a sign after e, E, p or P. */
static void scan_number(struct scan *s)
{
	size_t start = s->i;

	for (s->i++; s->i < s->n; s->i++) {
		int ch = at(s, 0), prev = (unsigned char)s->c[s->i - 1];

		if ((ch == '+' || ch == '-') && strchr("eEpP", prev))
			continue;
		if (!word_char(ch) && ch != '.' && ch != '\'')
			break;
	}
	emit(s, SIM_TK_NUM, start);
}

static void scan_punct(struct scan *s)
{
	for (size_t k = 0; k < NPUNCTS; k++) {
		size_t len;

		if (puncts[k].s[0] != s->c[s->i])
			continue;
		len = strlen(puncts[k].s);
		if (s->i + len <= s->n && !memcmp(s->c + s->i, puncts[k].s, len)) {
			const char *p = puncts[k].same_as ? puncts[k].same_as : puncts[k].s;
			size_t kind = k;

			if (puncts[k].same_as)
				for (kind = 0; strcmp(puncts[kind].s, p); kind++)
					;
			emit(s, SIM_TK_PUNCT + (unsigned)kind, s->i);
			s->i += len;
			return;
		}
	}
	emit(s, SIM_TK_OTHER, s->i);
	s->i++;
}

static void scan(struct scan *s)
{
	s->line_start = 1;
	while (s->i < s->n && !s->oom) {
		int ch = at(s, 0);

		if (ch == '\n') {
			s->directive = 0;
			s->line_start = 1;
			s->i++;
			continue;
		}
		if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' || ch == '\f') {
			s->i++;
			continue;
		}
		if (skip_comment(s))
			continue;
		/* '#' (or "%:") first on a line: a directive. */
		if (s->line_start && (ch == '#' || (ch == '%' && at(s, 1) == ':'))) {
			s->directive = 1;
			s->line_start = 0;
			s->i += ch == '#' ? 1 : 2;
			continue;
		}
		s->line_start = 0;
		if (ch == '"' || ch == '\'') {
			size_t start = s->i;

			skip_quoted(s);
			emit(s, ch == '"' ? SIM_TK_STR : SIM_TK_CHR, start);
		} else if (isdigit(ch) || (ch == '.' && at(s, 1) >= 0 && isdigit(at(s, 1)))) {
			scan_number(s);
		} else if (word_char(ch)) {
			scan_word(s);
		} else {
			scan_punct(s);
		}
	}
}

int sim_tokenize(const char *buf, size_t len, uint16_t file,
		 struct sim_tokens *out, struct strbuf *err)
{
	struct scan s = { .file = file, .out = out };
	int rc = 0;

	if (clean_copy(&s, buf, len) < 0)
		s.oom = 1;
	else
		scan(&s);
	if (s.oom) {
		strbuf_addstr(err, "out of memory");
		rc = -1;
	}
	free(s.c);
	free(s.line);
	return rc;
}

void sim_tokens_release(struct sim_tokens *t)
{
	free(t->v);
	*t = (struct sim_tokens)SIM_TOKENS_INIT;
}
