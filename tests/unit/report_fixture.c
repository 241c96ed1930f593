/*
 * report_fixture: reports from the real writer for the exporters' tests
 * (see report_fixture.h). A wrong answer's texts are made the way judge.c
 * makes them: diff_first(), then its text, a newline and diff_unified().
 */
#include "tests/unit/report_fixture.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grader/judge/diff.h"

struct fixture_case {
	const char *name, *category;
	int points, hidden;
};

/* One case's result: verdict, limit, detail, and for a run its figures. */
struct fixture_result {
	enum verdict verdict;
	enum verdict_limit limit;
	const char *detail;
	int ran, signal;
	long cpu_ms, wall_ms;
	const char *expected, *actual;   /* WA: the two outputs */
	const char *stderr_tail;
};

static const struct fixture_case mixed_cases[] = {
	{ "strided_basic", "strided", 2, 0 },
	{ "strided_round", "strided", 2, 0 },
	{ "shared_conflict", "shared", 1, 1 },
	{ "misaligned_secret", "misaligned", 1, 1 },
	{ "misaligned_slow", "misaligned", 1, 1 },
	{ "misaligned_ie", "misaligned", 1, 0 },
};

/* The program printed a stray SOH, an escape sequence and a CR where the
 * reference rounds up; its stderr rings a bell. */
static const struct fixture_result rounding[] = {
	{ VERDICT_AC, 0, "", 1, 0, 1, 3, NULL, NULL, NULL },
	{ VERDICT_WA, 0, NULL, 1, 0, 1, 250,
	  "sectors 4\nlines 1\nefficiency 6.3% \"q\" 'a' <&>\n",
	  "sectors 4\nlines 1\nefficiency 6.2%\x01\x1b[0m\r\n", "warn\\x07 bell" },
	{ VERDICT_AC, 0, "", 1, 0, 2, 4, NULL, NULL, NULL },
	{ VERDICT_WA, 0, NULL, 1, 0, 1, 2, "SECRET_EXPECTED 42\n", "0\n", NULL },
	{ VERDICT_TLE, VERDICT_LIMIT_CPU, "cpu time 1.01 s over the 1 s limit",
	  1, 24 /* SIGXCPU */, 1010, 1020, NULL, NULL, NULL },
	{ VERDICT_IE, 0, "grader failure: cannot fork: Resource temporarily "
	  "unavailable", 0, 0, 0, 0, NULL, NULL, NULL },
};

static const struct fixture_case single_cases[] = {
	{ "a", "strided", 1, 0 },
	{ "b", "strided", 1, 0 },
};

static const struct fixture_result correct[] = {
	{ VERDICT_AC, 0, "", 1, 0, 1, 1500, NULL, NULL, NULL },
	{ VERDICT_AC, 0, "", 1, 0, 1, 2, NULL, NULL, NULL },
};

static int set_diff(const struct fixture_result *fr, struct judge_result *r)
{
	struct diff_opts o = DIFF_OPTS_INIT;
	size_t el = strlen(fr->expected), al = strlen(fr->actual);
	struct diff_first f;
	char *uni;

	if (diff_first(fr->expected, el, fr->actual, al, 0, &f) < 0)
		return -1;
	r->diff_line = f.line;
	r->first = f.text;
	uni = diff_unified(fr->expected, el, fr->actual, al, &o);
	if (!uni || asprintf(&r->diff, "%s\n%s", f.text, uni) < 0) {
		r->diff = NULL;
		free(uni);
		return -1;
	}
	free(uni);
	snprintf(r->detail, sizeof(r->detail),
		 "first difference on line %ld, column %ld", f.line, f.column);
	return 0;
}

static int set_result(const struct fixture_result *fr, int points,
		      struct judge_result *r)
{
	memset(r, 0, sizeof(*r));
	r->verdict = fr->verdict;
	r->limit = fr->limit;
	r->ran = fr->ran;
	r->signaled = fr->signal != 0;
	r->term_signal = fr->signal;
	r->cpu_ms = fr->cpu_ms;
	r->wall_ms = fr->wall_ms;
	r->max_rss_kb = fr->ran ? 1200 : 0;
	r->score = fr->verdict == VERDICT_AC ? points : 0;
	if (fr->detail)
		snprintf(r->detail, sizeof(r->detail), "%s", fr->detail);
	if (fr->stderr_tail && !(r->stderr_tail = strdup(fr->stderr_tail)))
		return -1;
	return fr->expected ? set_diff(fr, r) : 0;
}

/* A CE result, as grade gives every case of a failed build. */
static void set_ce(struct judge_result *r)
{
	memset(r, 0, sizeof(*r));
	r->verdict = VERDICT_CE;
	snprintf(r->detail, sizeof(r->detail), "compilation failed");
}

static int add_category(struct suite *s, const char *cat, const char *hint)
{
	for (size_t i = 0; i < s->ncategories; i++)
		if (!strcmp(s->categories[i], cat))
			return 0;
	s->categories[s->ncategories] = strdup(cat);
	s->hints[s->ncategories] = hint ? strdup(hint) : NULL;
	if (!s->categories[s->ncategories] || (hint && !s->hints[s->ncategories]))
		return -1;
	s->ncategories++;
	return 0;
}

static const char *hint_of(const char *cat)
{
	if (!strcmp(cat, "strided"))
		return "round half up in integers, not with printf";
	if (!strcmp(cat, "misaligned"))
		return "a range that crosses a sector boundary touches two sectors";
	return NULL;
}

static int make_suite(struct suite *s, const char *name, const char *dir,
		      const struct fixture_case *fc, size_t n)
{
	memset(s, 0, sizeof(*s));
	s->name = strdup(name);
	s->dir = strdup(dir);
	s->cases = calloc(n, sizeof(*s->cases));
	s->categories = calloc(n, sizeof(*s->categories));
	s->hints = calloc(n, sizeof(*s->hints));
	if (!s->name || !s->dir || !s->cases || !s->categories || !s->hints)
		return -1;
	s->cpu_seconds = 1;
	s->memory_mib = 256;
	s->output_kib = 1024;
	for (size_t i = 0; i < n; i++) {
		struct suite_case *c = &s->cases[i];

		s->ncases = i + 1;
		c->name = strdup(fc[i].name);
		c->category = strdup(fc[i].category);
		c->points = fc[i].points;
		c->hidden = fc[i].hidden;
		if (!c->name || !c->category ||
		    add_category(s, c->category, hint_of(c->category)) < 0)
			return -1;
	}
	return 0;
}

/* A submission built from sources; results NULL: its build failed. */
static int make_sub(struct report_sub *sub, const struct suite *s,
		    const char *path, const struct fixture_result *results)
{
	memset(sub, 0, sizeof(*sub));
	sub->path = path;
	sub->is_dir = 1;
	sub->build = results ? BUILD_OK : BUILD_FAILED;
	sub->build_log = strdup(results ? "" :
		"main.c:3:1: error: expected ';' before '}' token");
	sub->cases = calloc(s->ncases, sizeof(*sub->cases));
	if (!sub->build_log || !sub->cases)
		return -1;
	for (size_t i = 0; i < s->ncases; i++) {
		if (!results)
			set_ce(&sub->cases[i]);
		else if (set_result(&results[i], s->cases[i].points,
				    &sub->cases[i]) < 0)
			return -1;
	}
	return score_submission(s, sub->cases, &sub->total);
}

int report_fixture_init(struct report_fixture *f, const char *name)
{
	int mixed = !strcmp(name, "mixed");

	memset(f, 0, sizeof(*f));
	f->opts = (struct report_opts){ .cpu_sec = 1, .wall_sec = 3,
		.memory_mib = 256, .output_kib = 1024, .stack_mib = 256,
		.processes = 1, .tmp_mib = 64 };
	if (mixed) {
		f->nsubs = 2;
		if (make_suite(&f->suite, "hidden", "hidden-tests", mixed_cases,
			       sizeof(mixed_cases) / sizeof(*mixed_cases)) < 0 ||
		    make_sub(&f->subs[0], &f->suite, "submissions/rounding",
			     rounding) < 0 ||
		    make_sub(&f->subs[1], &f->suite, "submissions/no-compile",
			     NULL) < 0)
			goto fail;
		return 0;
	}
	if (strcmp(name, "single"))
		return -1;
	f->nsubs = 1;
	if (make_suite(&f->suite, "public", "public-tests", single_cases,
		       sizeof(single_cases) / sizeof(*single_cases)) < 0 ||
	    make_sub(&f->subs[0], &f->suite, "submissions/correct", correct) < 0)
		goto fail;
	return 0;
fail:
	report_fixture_release(f);
	return -1;
}

void report_fixture_release(struct report_fixture *f)
{
	for (size_t i = 0; i < f->nsubs; i++) {
		struct report_sub *sub = &f->subs[i];

		for (size_t c = 0; sub->cases && c < f->suite.ncases; c++)
			judge_result_release(&sub->cases[c]);
		free(sub->cases);
		free(sub->build_log);
		score_release(&sub->total);
	}
	suite_free(&f->suite);
	memset(f, 0, sizeof(*f));
}

json_t *report_fixture_json(const char *name)
{
	struct report_fixture f;
	json_t *r;

	if (report_fixture_init(&f, name) < 0)
		return NULL;
	r = report_json(&f.suite, f.subs, f.nsubs, &f.opts);
	report_fixture_release(&f);
	return r;
}

static ssize_t full_write(void *cookie, const char *buf, size_t n)
{
	(void)cookie;
	(void)buf;
	(void)n;
	errno = ENOSPC;
	return -1;
}

FILE *report_fixture_full_stream(void)
{
	cookie_io_functions_t io = { .write = full_write };
	FILE *f = fopencookie(NULL, "w", io);

	if (f)
		setvbuf(f, NULL, _IOFBF, 256);
	return f;
}

/* The text between a and b with the page's three entities undone. */
static char *unescape(const char *a, const char *b)
{
	static const struct { const char *ent; char c; } ents[] = {
		{ "&lt;", '<' }, { "&gt;", '>' }, { "&amp;", '&' },
	};
	char *text = strndup(a, (size_t)(b - a)), *t = text;

	for (const char *p = text; p && *p;) {
		size_t i;

		for (i = 0; i < 3; i++)
			if (!strncmp(p, ents[i].ent, strlen(ents[i].ent)))
				break;
		if (i < 3) {
			*t++ = ents[i].c;
			p += strlen(ents[i].ent);
		} else {
			*t++ = *p++;
		}
	}
	if (text)
		*t = '\0';
	return text;
}

json_t *report_fixture_html_data(const char *page)
{
	const char *open = "<pre id=\"wg-data\" hidden>";
	const char *a = strstr(page, open), *b;
	char *text;
	json_t *j;

	if (!a)
		return NULL;
	a += strlen(open);
	if (!(b = strstr(a, "</pre>")) || memchr(a, '<', (size_t)(b - a)) ||
	    !(text = unescape(a, b)))
		return NULL;
	j = json_loads(text, 0, NULL);
	free(text);
	return j;
}

const json_t *report_fixture_html_case(const json_t *data, size_t sub,
				       const char *name)
{
	const json_t *s = json_array_get(json_object_get(data, "s"), sub);
	const json_t *ids = json_object_get(s, "i"), *c;
	size_t i;

	json_array_foreach(json_object_get(s, "c"), i, c) {
		json_int_t p = json_integer_value(json_array_get(c, 0));
		json_int_t k = ids ? json_integer_value(json_array_get(ids, (size_t)p)) : p;
		const char *n = json_string_value(json_array_get(json_array_get(
			json_object_get(data, "k"), (size_t)k), 0));

		if (n && !strcmp(n, name))
			return c;
	}
	return NULL;
}

const char *report_fixture_html_text(const json_t *data, const json_t *id)
{
	if (!json_is_integer(id))
		return NULL;
	return json_string_value(json_array_get(json_object_get(data, "t"),
						(size_t)json_integer_value(id)));
}
