/*
 * diff: first-difference report and bounded Myers unified diff.
 *
 * Theory of operation. Each output is a side: its lines (the first
 * SPLIT_MAX; under the default rule without its trailing blank lines, and
 * lines compare without their trailing blanks, so the diff never shows a
 * difference the grader does not count). Nothing is split whole: the
 * common head is skipped by comparing bytes (identical bytes are
 * identical lines under either rule; only the line holding the first
 * differing byte is compared as a line), the common tail is walked back
 * line by line, and only the window the unified diff can show (the
 * context before, at most max_lines of the middle, the context after) is
 * split into an array of lines (views into the caller's bytes, never
 * copied). So a wrong answer costs about one pass over its bytes, wherever
 * its lines differ. Each line of the window carries a hash so that Myers'
 * inner "snake" loop rarely touches bytes.
 *
 * Myers keeps, for each edit count d, the furthest-reaching x on every
 * diagonal k; the V array of each step is saved (d^2 ints in all) to walk
 * the path back. max_d bounds both time (O((N+M)·D)) and memory (O(D^2)).
 */
#include "grader/judge/diff.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grader/judge/compare.h"
#include "grader/lib/escape.h"
#include "grader/lib/strbuf.h"

/* Past this many lines a side is not split further (the rest is ignored by
 * the diff, and the text says so). */
#define SPLIT_MAX ((size_t)1 << 20)
/* Display columns of a line shown by diff_first, and where the window
 * starts when the difference lies far to the right. */
#define WINDOW_COLS 150
#define WINDOW_LEAD 80
/* Bytes of one line shown in the unified diff. */
#define UNIFIED_LINE_MAX 200

struct line {
	const char *p;
	size_t len;          /* without '\n' */
	int nl;              /* followed by '\n' */
	uint64_t h;
};

/* One output as the diff sees it. */
struct side {
	const char *p;
	size_t len;
	size_t n;            /* its lines */
	size_t end;          /* where line n would start: past line n - 1 */
	int capped;          /* more than SPLIT_MAX lines */
};

/* Lines base .. base + n - 1 of a side. */
struct lines {
	struct line *v;
	size_t base, n;
};

/* Both outputs, and where they first differ (first_diff): what the first
 * difference and the unified diff share. */
struct pair {
	struct side e, a;
	int exact;
	size_t head;         /* the first line that differs, or min(e.n, a.n) */
	size_t eo, ao;       /* where line head starts in each */
};

/* Line i (absolute) of a window that holds it. */
#define LINE(l, i) (&(l)->v[(i) - (l)->base])

/* The text being written: a strbuf (whose sticky failure is the "out of
 * memory" of the diff) that stops taking text past max bytes (0: no
 * bound) and says so in full. */
struct dbuf {
	struct strbuf sb;
	size_t max;
	int full;
};

/* ---- bounded text buffer ---- */

static void db_add(struct dbuf *b, const char *s, size_t n)
{
	if (b->full || strbuf_failed(&b->sb))
		return;
	if (b->max && b->sb.len + n > b->max) {
		b->full = 1;
		return;
	}
	strbuf_add(&b->sb, s, n);
}

static void db_str(struct dbuf *b, const char *s)
{
	db_add(b, s, strlen(s));
}

__attribute__((format(printf, 2, 3)))
static void db_printf(struct dbuf *b, const char *fmt, ...)
{
	struct strbuf tmp = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&tmp, fmt, ap);
	va_end(ap);
	if (strbuf_failed(&tmp))
		b->sb.failed = 1;
	else
		db_add(b, strbuf_str(&tmp), tmp.len);
	strbuf_release(&tmp);
}

/* The buffer's text (owned by the caller now), or NULL when out of memory. */
static char *db_finish(struct dbuf *b)
{
	return strbuf_detach(&b->sb, NULL);
}

/* ---- escaping ---- */

/* Appends the visible form of byte c (escape.h); returns its display
 * width. */
static int put_visible(struct dbuf *b, unsigned char c, int ws_visible)
{
	char tmp[8];
	int width = escape_visible_byte(c, ws_visible, tmp);

	db_str(b, tmp);
	return width;
}

/* ---- lines ---- */

static uint64_t hash_bytes(const char *p, size_t n)
{
	uint64_t h = 1469598103934665603ULL;   /* FNV-1a */

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * 1099511628211ULL;
	return h;
}

static size_t cmp_len(const struct line *l, int exact)
{
	return exact ? l->len : cmp_trim_len(l->p, l->len);
}

/* The line starting at byte at of s (at < s->end). Returns where the next
 * one starts. */
static size_t line_from(const struct side *s, size_t at, struct line *l)
{
	const char *nl = memchr(s->p + at, '\n', s->end - at);

	l->p = s->p + at;
	l->len = (size_t)((nl ? nl : s->p + s->end) - l->p);
	l->nl = nl != NULL;
	return at + l->len + l->nl;
}

/* The line ending at byte end (0 < end: its '\n' included when it has
 * one). Returns where it starts. */
static size_t line_before(const struct side *s, size_t end, struct line *l)
{
	size_t stop = end - (s->p[end - 1] == '\n');
	const char *nl = memrchr(s->p, '\n', stop);
	size_t at = nl ? (size_t)(nl - s->p) + 1 : 0;

	l->p = s->p + at;
	l->len = stop - at;
	l->nl = stop < end;
	return at;
}

/* The lines of p[0..len) (the old split's: at most SPLIT_MAX, then
 * capped; under the default rule, trailing blank lines dropped). */
static void side_init(struct side *s, const char *p, size_t len, int exact)
{
	size_t at = 0;
	struct line l;

	memset(s, 0, sizeof(*s));
	s->p = p;
	s->len = len;
	while (at < len) {
		const char *nl;

		if (s->n == SPLIT_MAX) {
			s->capped = 1;
			break;
		}
		nl = memchr(p + at, '\n', len - at);
		at = nl ? (size_t)(nl - p) + 1 : len;
		s->n++;
	}
	s->end = at;
	if (exact || s->capped)
		return;
	while (s->n > 0) {
		size_t start = line_before(s, s->end, &l);

		if (cmp_trim_len(l.p, l.len))
			break;
		s->end = start;
		s->n--;
	}
}

static int line_eq(const struct line *a, const struct line *b, int exact)
{
	if (a->h != b->h)
		return 0;
	if (exact && a->nl != b->nl)
		return 0;
	return cmp_line_equal(a->p, a->len, b->p, b->len, exact);
}

/* line_eq for lines without hashes (the hash is of the bytes compared). */
static int same_line(const struct line *a, const struct line *b, int exact)
{
	if (exact && a->nl != b->nl)
		return 0;
	return cmp_line_equal(a->p, a->len, b->p, b->len, exact);
}

/* How many '\n' in p[0..n). */
static size_t count_nl(const char *p, size_t n)
{
	size_t k = 0;

	for (const char *end = p + n; (p = memchr(p, '\n', (size_t)(end - p)));
	     p++)
		k++;
	return k;
}

/* Where the first difference is: *i the index of the first line that
 * differs (or min(e->n, a->n) when none does), *eo and *ao where that line
 * starts in each side. Byte-identical lines are skipped a block at a time
 * (cmp_common_prefix); only the line holding a differing byte is compared
 * under the rule, and when it is equal (trailing blanks) the skipping goes
 * on after it. */
static void first_diff(const struct side *e, const struct side *a, int exact,
		       size_t *i, size_t *eo, size_t *ao)
{
	size_t n = e->n < a->n ? e->n : a->n, k = 0, x = 0, y = 0;
	struct line el, al;

	while (k < n) {
		size_t room = e->end - x < a->end - y ? e->end - x : a->end - y;
		size_t same = cmp_common_prefix(e->p + x, a->p + y, room);
		const char *nl = memrchr(e->p + x, '\n', same);
		size_t skip = nl ? (size_t)(nl - (e->p + x)) + 1 : 0;
		size_t lines = count_nl(e->p + x, skip);

		if (lines >= n - k) {
			/* Every line left to compare is identical: find where
			 * line n starts (the same distance on both sides). */
			size_t x0 = x;

			for (; k < n; k++)
				x = line_from(e, x, &el);
			y += x - x0;
			break;
		}
		k += lines;
		x += skip;
		y += skip;
		size_t nx = line_from(e, x, &el), ny = line_from(a, y, &al);
		if (!same_line(&el, &al, exact))
			break;
		k++;
		x = nx;
		y = ny;
	}
	*i = k;
	*eo = x;
	*ao = y;
}

/* ---- first difference ---- */

static int is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* The lines are equal once every whitespace byte is removed. */
static int differ_only_in_ws(const char *a, size_t an, const char *b, size_t bn)
{
	size_t i = 0, j = 0;

	for (;;) {
		while (i < an && is_ws(a[i]))
			i++;
		while (j < bn && is_ws(b[j]))
			j++;
		if (i == an || j == bn)
			return i == an && j == bn;
		if (a[i++] != b[j++])
			return 0;
	}
}

/* Appends "  LABEL" and a window of the line starting at byte 'from';
 * returns the display width of the bytes [from, col). */
static int put_window(struct dbuf *b, const char *label, const char *p,
		      size_t len, size_t from, size_t col, int ws_visible)
{
	int width = 0, caret = 0;

	db_printf(b, "  %-10s", label);
	if (from > 0) {
		db_str(b, "\xe2\x80\xa6");
		width++;
	}
	for (size_t i = from; i < len; i++) {
		if (i == col)
			caret = width;
		if (width >= WINDOW_COLS) {
			db_str(b, "\xe2\x80\xa6");
			break;
		}
		width += put_visible(b, (unsigned char)p[i], ws_visible);
	}
	if (col >= len)
		caret = width;
	db_str(b, "\n");
	return caret;
}

static void explain_lines(struct dbuf *b, const struct line *e,
			  const struct line *a, int exact, struct diff_first *out)
{
	size_t en = cmp_len(e, exact), an = cmp_len(a, exact);
	size_t col = 0, n = en < an ? en : an;

	while (col < n && e->p[col] == a->p[col])
		col++;
	out->column = (long)col + 1;
	if (en == an && col == n) {
		/* Same bytes: only the newline after the last line differs. */
		db_printf(b, "first difference: line %ld, at its end: the expected "
			  "output %s a newline there, yours %s\n", out->line,
			  e->nl ? "has" : "does not have",
			  a->nl ? "has one" : "does not");
		return;
	}
	out->ws_only = differ_only_in_ws(e->p, en, a->p, an);
	db_printf(b, "first difference: line %ld, column %ld%s\n", out->line,
		  out->column, out->ws_only ? " (whitespace only)" : "");
	size_t from = col + 20 > WINDOW_COLS ? col - WINDOW_LEAD : 0;
	put_window(b, "expected:", e->p, en, from, col, out->ws_only);
	int caret = put_window(b, "actual:", a->p, an, from, col, out->ws_only);
	db_printf(b, "  %-10s%*s^\n", "", caret, "");
	if (out->ws_only)
		db_str(b, "  (\xc2\xb7 is a space, \\t a tab, \\r a carriage return)\n");
}

static void pair_init(struct pair *p, const char *exp, size_t elen,
		      const char *act, size_t alen, int exact)
{
	side_init(&p->e, exp, elen, exact);
	side_init(&p->a, act, alen, exact);
	p->exact = exact;
	first_diff(&p->e, &p->a, exact, &p->head, &p->eo, &p->ao);
}

/* diff_first's text for the pair. */
static int first_text(const struct pair *p, struct diff_first *out)
{
	struct dbuf b = { STRBUF_INIT, 0, 0 };
	size_t i = p->head, en = p->e.n, an = p->a.n;
	struct line el = { 0 }, al = { 0 };

	memset(out, 0, sizeof(*out));
	if (i < en)
		line_from(&p->e, p->eo, &el);
	if (i < an)
		line_from(&p->a, p->ao, &al);
	if (i < en || i < an) {
		out->line = (long)i + 1;
		out->column = 1;
		if (i < en && i < an) {
			explain_lines(&b, &el, &al, p->exact, out);
		} else if (i < en) {
			db_printf(&b, "first difference: line %ld: your output ends "
				  "there, %zu more line%s expected\n", out->line,
				  en - i, en - i == 1 ? " was" : "s were");
			put_window(&b, "expected:", el.p, el.len, 0, 0, 0);
		} else {
			db_printf(&b, "first difference: line %ld: your output goes "
				  "on after the expected last line\n", out->line);
			put_window(&b, "actual:", al.p, al.len, 0, 0, 0);
		}
		out->text = db_finish(&b);
	}
	return out->line && !out->text ? -1 : 0;
}

int diff_first(const char *exp, size_t elen, const char *act, size_t alen,
	       int exact, struct diff_first *out)
{
	struct pair p;

	pair_init(&p, exp, elen, act, alen, exact);
	return first_text(&p, out);
}

/* ---- Myers ---- */

struct edit {
	char op;             /* ' ', '-', '+' */
	size_t ai, bi;       /* indices of the line in each side */
};

struct script {
	struct edit *v;
	size_t n, cap;
	int oom;
};

static void push(struct script *s, char op, size_t ai, size_t bi)
{
	if (s->oom)
		return;
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct edit *v = realloc(s->v, cap * sizeof(*v));
		if (!v) {
			s->oom = 1;
			return;
		}
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = (struct edit){ op, ai, bi };
}

/* Reverses s->v[from..n) (the backtrack produces the path end first). */
static void reverse_from(struct script *s, size_t from)
{
	for (size_t i = from, j = s->n; i + 1 < j; i++, j--) {
		struct edit t = s->v[i];
		s->v[i] = s->v[j - 1];
		s->v[j - 1] = t;
	}
}

/* Saves V[-d..d] of step d at trace[d*d .. d*d + 2d] (d^2 values before
 * it); grows the trace as needed. Returns 0, or -1 when out of memory. */
static int save_step(int32_t **trace, size_t *cap, const int32_t *vk, long d)
{
	size_t need = (size_t)(d + 1) * (size_t)(d + 1);

	if (need > *cap) {
		size_t c = *cap ? *cap * 2 : 1024;
		while (c < need)
			c *= 2;
		int32_t *t = realloc(*trace, c * sizeof(*t));
		if (!t)
			return -1;
		*trace = t;
		*cap = c;
	}
	memcpy(*trace + d * d, vk - d, (size_t)(2 * d + 1) * sizeof(*vk));
	return 0;
}

/* Myers' forward pass over a[0..n) and b[0..m): the edit distance D, or -1
 * past max_d, or -2 when out of memory. *trace (malloc'd, the caller frees
 * it) holds every step's V. Values fit int32_t: x <= n <= max_lines. */
static long forward(const struct line *a, const struct line *b, long n, long m,
		    long max_d, int exact, int32_t **trace)
{
	int32_t *V = calloc((size_t)(2 * max_d + 3), sizeof(*V));
	int32_t *vk = V + max_d + 1;           /* vk[k], k in -max_d-1..max_d+1 */
	size_t cap = 0;
	long D = -1;

	if (!V)
		return -2;
	for (long d = 0; d <= max_d && D < 0; d++) {
		for (long k = -d; k <= d; k += 2) {
			long x = (k == -d || (k != d && vk[k - 1] < vk[k + 1]))
				 ? vk[k + 1] : vk[k - 1] + 1;
			long y = x - k;
			while (x < n && y < m && line_eq(&a[x], &b[y], exact))
				x++, y++;
			vk[k] = (int32_t)x;
			if (x >= n && y >= m)
				D = d;
		}
		if (save_step(trace, &cap, vk, d) < 0) {
			D = -2;
			break;
		}
	}
	free(V);
	return D;
}

/* Walks the saved steps back from (n, m), pushing the path end first. */
static void backtrack(const int32_t *trace, long D, long n, long m,
		      size_t a0, size_t b0, struct script *s)
{
	long x = n, y = m;

	for (long d = D; d > 0; d--) {
		const int32_t *prev = trace + (d - 1) * (d - 1) + (d - 1); /* prev[k] */
		long k = x - y;
		int down = k == -d || (k != d && prev[k - 1] < prev[k + 1]);
		long pk = down ? k + 1 : k - 1;
		long px = prev[pk], py = px - pk;
		long mx = down ? px : px + 1, my = down ? py + 1 : py;

		while (x > mx && y > my) {
			x--, y--;
			push(s, ' ', a0 + (size_t)x, b0 + (size_t)y);
		}
		push(s, down ? '+' : '-', a0 + (size_t)px, b0 + (size_t)py);
		x = px;
		y = py;
	}
	while (x > 0 && y > 0) {
		x--, y--;
		push(s, ' ', a0 + (size_t)x, b0 + (size_t)y);
	}
}

/* Shortest edit script between a[0..n) and b[0..m), lines a0.. and b0.. of
 * their sides, appended to s. Returns 0, 1 when the edit distance passes
 * max_d (nothing appended), -1 when out of memory. */
static int myers(const struct line *a, const struct line *b, long n, long m,
		 size_t a0, size_t b0, long max_d, int exact, struct script *s)
{
	int32_t *trace = NULL;
	long D = forward(a, b, n, m, max_d, exact, &trace);
	size_t from = s->n;

	if (D >= 0) {
		backtrack(trace, D, n, m, a0, b0, s);
		reverse_from(s, from);
	}
	free(trace);
	if (D == -2 || s->oom)
		return -1;
	return D < 0 ? 1 : 0;
}

/* ---- unified output ---- */

static void put_diff_line(struct dbuf *b, char op, const struct line *l,
			  int exact)
{
	size_t n = l->len < UNIFIED_LINE_MAX ? l->len : UNIFIED_LINE_MAX;

	db_add(b, &op, 1);
	for (size_t i = 0; i < n; i++)
		put_visible(b, (unsigned char)l->p[i], 0);
	if (n < l->len)
		db_printf(b, "\xe2\x80\xa6 (%zu more bytes)", l->len - n);
	db_str(b, "\n");
	if (exact && !l->nl)
		db_str(b, "\\ No newline at end of file\n");
}

/* "@@ -START,COUNT": for an empty range the start is the line before it. */
static void put_range(struct dbuf *b, char sign, size_t first, size_t count)
{
	db_printf(b, "%c%zu,%zu", sign, count ? first + 1 : first, count);
}

static void put_hunks(struct dbuf *b, const struct script *s,
		      const struct lines *e, const struct lines *a,
		      const struct diff_opts *o)
{
	size_t i = 0;

	while (i < s->n) {
		while (i < s->n && s->v[i].op == ' ')
			i++;
		if (i == s->n)
			break;
		/* One hunk joins changes separated by at most 2*context equal
		 * lines; it shows context lines on both sides. */
		size_t last = i;
		for (size_t j = i + 1; j < s->n && j - last - 1 <= 2 * o->context; j++)
			if (s->v[j].op != ' ')
				last = j;
		size_t start = i > o->context ? i - o->context : 0;
		size_t end = last + 1 + o->context < s->n ? last + 1 + o->context : s->n;
		size_t ac = 0, bc = 0;
		for (size_t j = start; j < end; j++) {
			ac += s->v[j].op != '+';
			bc += s->v[j].op != '-';
		}
		db_str(b, "@@ ");
		put_range(b, '-', s->v[start].ai, ac);
		db_str(b, " ");
		put_range(b, '+', s->v[start].bi, bc);
		db_str(b, " @@\n");
		for (size_t j = start; j < end; j++) {
			const struct edit *ed = &s->v[j];

			if (b->full)
				return;         /* nothing more would be shown */
			put_diff_line(b, ed->op, ed->op == '+' ? LINE(a, ed->bi)
							       : LINE(e, ed->ai), o->exact);
		}
		i = end;
	}
}

/* How many bytes a[-n..0) and b[-n..0) have in common at their ends
 * (cmp_common_prefix backwards). */
static size_t common_suffix(const char *a, const char *b, size_t n)
{
	size_t i = 0;

	while (n - i >= 64 && !memcmp(a - i - 64, b - i - 64, 64))
		i += 64;
	while (i < n && a[-(ptrdiff_t)i - 1] == b[-(ptrdiff_t)i - 1])
		i++;
	return i;
}

/* How many lines both sides end with (at most n - head of either), as
 * first_diff counts the head: whole lines of identical bytes are skipped
 * at once, the line that holds a differing byte is compared under the
 * rule. */
static size_t common_tail(const struct side *e, const struct side *a,
			  int exact, size_t head)
{
	size_t max = e->n - head < a->n - head ? e->n - head : a->n - head;
	size_t tail = 0, x = e->end, y = a->end;
	struct line el, al;

	while (tail < max) {
		size_t room = x < y ? x : y;
		size_t same = common_suffix(e->p + x, a->p + y, room);
		/* Whole lines inside the common bytes: those after its first
		 * '\n' (or all of it when it reaches both starts). */
		const char *nl = memchr(e->p + x - same, '\n', same);
		size_t skip = same == room && x == y ? same :
			      nl ? (size_t)(e->p + x - nl) - 1 : 0;
		size_t lines = count_nl(e->p + x - skip, skip) +
			       (skip && e->p[x - 1] != '\n');

		if (lines >= max - tail) {
			for (; tail < max; tail++) {
				size_t nx = line_before(e, x, &el);

				y -= x - nx;
				x = nx;
			}
			break;
		}
		tail += lines;
		x -= skip;
		y -= skip;
		size_t nx = line_before(e, x, &el), ny = line_before(a, y, &al);
		if (!same_line(&el, &al, exact))
			break;
		tail++;
		x = nx;
		y = ny;
	}
	return tail;
}

/* The window of side s the script can show: before lines ending at byte
 * at (where line first starts), then count lines from there, split and
 * hashed into *l (base first - before). Returns 0, or -1 when out of
 * memory. */
static int window(const struct side *s, size_t at, size_t first, size_t before,
		  size_t count, int exact, struct lines *l)
{
	struct line tmp;

	for (size_t k = 0; k < before; k++)
		at = line_before(s, at, &tmp);
	l->base = first - before;
	l->n = before + count;
	if (!(l->v = malloc((l->n ? l->n : 1) * sizeof(*l->v))))
		return -1;
	for (size_t k = 0; k < l->n; k++) {
		struct line *x = &l->v[k];

		at = line_from(s, at, x);
		x->h = hash_bytes(x->p, cmp_len(x, exact)) ^
		       (exact ? (uint64_t)x->nl : 0);
	}
	return 0;
}

/* The script over the whole of both sides: the last context lines of the
 * common head, the diff of the middle, the first context lines of the
 * common tail; *e and *a get the windows of lines it refers to. Returns
 * 0, or -1 when out of memory; *limited says the middle was cut or too
 * different for Myers. */
static int build_script(const struct pair *p, const struct diff_opts *o,
			struct lines *e, struct lines *a, struct script *s,
			int *limited)
{
	const struct side *es = &p->e, *as = &p->a;
	size_t head = p->head, eo = p->eo, ao = p->ao;
	size_t tail = common_tail(es, as, o->exact, head);

	size_t en = es->n - head - tail, an = as->n - head - tail;
	if (en > o->max_lines || an > o->max_lines) {
		*limited = 1;
		en = en > o->max_lines ? o->max_lines : en;
		an = an > o->max_lines ? o->max_lines : an;
		tail = 0;
	}
	size_t before = head > o->context ? o->context : head;
	size_t after = tail < o->context ? tail : o->context;
	if (window(es, eo, head, before, en + after, o->exact, e) < 0 ||
	    window(as, ao, head, before, an + after, o->exact, a) < 0)
		return -1;
	for (size_t k = head - before; k < head; k++)
		push(s, ' ', k, k);
	int rc = myers(LINE(e, head), LINE(a, head), (long)en, (long)an, head,
		       head, (long)o->max_d, o->exact, s);
	if (rc < 0)
		return -1;
	if (rc > 0) {
		*limited = 1;
		for (size_t k = 0; k < en; k++)
			push(s, '-', head + k, head);
		for (size_t k = 0; k < an; k++)
			push(s, '+', head + en, head + k);
	}
	for (size_t k = 0; k < after; k++)
		push(s, ' ', es->n - tail + k, as->n - tail + k);
	return s->oom ? -1 : 0;
}

/* diff_unified's text for the pair (o->exact must be the pair's rule). */
static char *unified_text(const struct pair *p, const struct diff_opts *o)
{
	struct lines e = { 0 }, a = { 0 };
	struct script s = { 0 };
	struct dbuf b = { STRBUF_INIT, o->max_bytes, 0 };
	int limited = 0;

	if (build_script(p, o, &e, &a, &s, &limited) < 0) {
		b.sb.failed = 1;
		goto out;
	}
	int changed = 0;
	for (size_t i = 0; i < s.n && !changed; i++)
		changed = s.v[i].op != ' ';
	if (!changed)
		goto out;
	db_str(&b, "--- expected\n+++ actual\n");
	put_hunks(&b, &s, &e, &a, o);
	if (limited || p->e.capped || p->a.capped) {
		b.full = 0;
		db_str(&b, "(diff limited: too many lines or changes; "
		       "the first difference above is exact)\n");
	}
out:
	if (b.full && !strbuf_failed(&b.sb)) {
		/* Cut back to the last whole line before the note. */
		size_t n = b.sb.len;

		while (n > 0 && b.sb.buf[n - 1] != '\n')
			n--;
		strbuf_setlen(&b.sb, n);
		b.full = 0;
		b.max = 0;
		db_printf(&b, "(diff truncated at %zu bytes)\n", o->max_bytes);
	}
	free(e.v);
	free(a.v);
	free(s.v);
	return db_finish(&b);
}

char *diff_unified(const char *exp, size_t elen, const char *act,
		   size_t alen, const struct diff_opts *o)
{
	struct pair p;

	pair_init(&p, exp, elen, act, alen, o->exact);
	return unified_text(&p, o);
}

int diff_report(const char *exp, size_t elen, const char *act, size_t alen,
		const struct diff_opts *o, struct diff_first *first,
		char **unified)
{
	struct pair p;

	pair_init(&p, exp, elen, act, alen, o->exact);
	*unified = NULL;
	if (first_text(&p, first) < 0)
		return -1;
	*unified = unified_text(&p, o);
	return *unified ? 0 : -1;
}
