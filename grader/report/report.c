/*
 * report: the terminal table and the JSON report (see report.h).
 */
#include "grader/report/report.h"
#include "grader/run/cgroup.h"

#include "grader/report/keys.h"
#include "grader/report/outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grader/judge/diff.h"
#include "grader/judge/verdict.h"
#include "grader/lib/escape.h"
#include "grader/lib/strbuf.h"
#include "grader/lib/usage.h"

#define BOLD  "\033[1m"
#define RESET "\033[0m"
/* Lines of compiler messages shown without --verbose. */
#define BUILD_LOG_LINES 20

static void paint(FILE *f, const struct report_opts *o, const char *sgr,
		  const char *text, int width)
{
	int pad = width - (int)strlen(text);

	/* text may be a path a submission chose: scrubbed (usage.h). */
	if (o->color)
		fputs(sgr, f);
	escape_fput_scrubbed(f, text, strlen(text), 0);
	fprintf(f, "%*s%s", pad > 0 ? pad : 0, "", o->color ? RESET : "");
}

/* Prints text with every line indented; at most max_lines lines (0: all). */
static void indented(FILE *f, const char *text, const char *indent,
		     size_t max_lines)
{
	size_t lines = 0;

	while (text && *text) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);
		if (max_lines && lines++ == max_lines) {
			fprintf(f, "%s(... %s)\n", indent, "more in --verbose or --json");
			return;
		}
		fputs(indent, f);
		escape_fput_scrubbed(f, text, len, 0);
		fputc('\n', f);
		text += len + (nl != NULL);
	}
}

/* The folder a build's "./NAME" stands for: the submission folder, or
 * the folder of a single .c file ("" for one in the current folder). */
static void source_prefix(const struct report_sub *sub, char *buf, size_t n)
{
	const char *slash = strrchr(sub->path, '/');

	if (sub->is_dir == 1)
		snprintf(buf, n, "%s/", sub->path);
	else
		snprintf(buf, n, "%.*s", slash ? (int)(slash - sub->path + 1) : 0,
			 sub->path);
}

/* The compiler's messages, indented, at most max_lines (0: all). In the
 * staff view "./NAME" (how the build names the files it compiles) at the
 * start of a line or after "from " becomes the real path, so that staff
 * can open the file the message is about. */
static void print_build_log(FILE *f, const struct report_sub *sub,
			    const struct report_opts *o, const char *indent,
			    size_t max_lines)
{
	struct strbuf sb = STRBUF_INIT;
	char prefix[4096];
	const char *p = sub->build_log;

	if (!o->staff || !p) {
		indented(f, p, indent, max_lines);
		return;
	}
	source_prefix(sub, prefix, sizeof(prefix));
	for (; *p; p++) {
		int at_word = p == sub->build_log || p[-1] == '\n' ||
			      (p - sub->build_log >= 5 && !strncmp(p - 5, "from ", 5));
		if (at_word && p[0] == '.' && p[1] == '/' && p[2] && p[2] != '/') {
			strbuf_addstr(&sb, prefix);
			p++;
			continue;
		}
		strbuf_addch(&sb, *p);
	}
	indented(f, strbuf_failed(&sb) ? sub->build_log : sb.buf, indent, max_lines);
	strbuf_release(&sb);
}

static int widest(const struct suite *s, int category)
{
	int w = category ? 8 : 4;

	for (size_t i = 0; i < s->ncases; i++) {
		int n = (int)strlen(category ? s->cases[i].category : s->cases[i].name);
		w = n > w ? n : w;
	}
	return w > 32 ? 32 : w;
}

/* Row layout after the name and category columns: verdict (VW, coloured),
 * CPU ms (8), points (PW); subtotals right-align under the points. */
#define VW 8
#define PW 8
#define TAIL_W (VW + 1 + 8 + 1 + PW)

static void print_case_line(FILE *f, const struct suite_case *c,
			    const struct judge_result *r, int nw, int cw,
			    const struct report_opts *o)
{
	char cpu[32], pts[32], cell[16];

	snprintf(cell, sizeof(cell), "%s%s%s", verdict_code(r->verdict),
		 r->limit != VERDICT_LIMIT_NONE ? " " : "",
		 r->limit != VERDICT_LIMIT_NONE ? verdict_limit_name(r->limit) : "");
	if (c->hidden && !o->staff)
		/* A hidden case's time is a channel its program chooses (5 ms
		 * per byte of input...): students see none. */
		snprintf(cpu, sizeof(cpu), "-");
	else if (r->limit == VERDICT_LIMIT_CPU)
		/* Killed at the limit: rusage may read a little under it. */
		snprintf(cpu, sizeof(cpu), ">%.0f", o->cpu_sec * 1000);
	else if (r->ran)
		snprintf(cpu, sizeof(cpu), "%ld", r->cpu_ms);
	else
		snprintf(cpu, sizeof(cpu), "-");
	if (r->verdict == VERDICT_IE)
		snprintf(pts, sizeof(pts), "-/%d", c->points);
	else
		snprintf(pts, sizeof(pts), "%d/%d", r->score, c->points);
	fprintf(f, "  %-*.*s  %-*.*s  ", nw, nw, c->name, cw, cw, c->category);
	paint(f, o, verdict_color(r->verdict), cell, VW);
	fprintf(f, " %8s %*s%s\n", cpu, PW, pts, c->hidden ? "  hidden" : "");
}

static void print_totals(FILE *f, const struct report_sub *sub, int nw, int cw,
			 const struct report_opts *o)
{
	const struct score_total *t = &sub->total;
	char pts[48];

	for (size_t i = 0; i < t->ncats; i++) {
		snprintf(pts, sizeof(pts), "%ld/%ld", t->cats[i].score, t->cats[i].max_score);
		fprintf(f, "  %-*s  %-*.*s  %*s\n", nw, i ? "" : "subtotal", cw, cw,
			t->cats[i].name, TAIL_W, pts);
	}
	snprintf(pts, sizeof(pts), "%ld/%ld", t->score, t->max_score);
	fprintf(f, "  ");
	paint(f, o, BOLD, "total", nw + 2 + cw + 2);
	fprintf(f, "%*s ", TAIL_W, pts);
	for (int v = 0; v < VERDICT_COUNT; v++)
		if (t->counts[v])
			fprintf(f, " %s %d", verdict_code((enum verdict)v), t->counts[v]);
	if (t->excluded_points)
		fprintf(f, "  (%ld points of IE cases left out)", t->excluded_points);
	fputc('\n', f);
}

/* Appends path to m, quoted for a POSIX shell when it needs it; a
 * program without a '/' gets "./" (the shell would search PATH). */
static void shell_word(FILE *m, const char *path, int program)
{
	if (program && !strchr(path, '/'))
		fputs("./", m);
	if (path[strspn(path, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			"0123456789_./-+,:=@%")] == '\0' && *path) {
		fputs(path, m);
		return;
	}
	fputc('\'', m);
	for (const char *p = path; *p; p++)
		if (*p == '\'')
			fputs("'\\''", m);
		else
			fputc(*p, m);
	fputc('\'', m);
}

/* The shell command that reruns case c as the grader did and diffs the
 * output: a program as given; sources built the way the grading builds
 * them, into ./a.out. */
static void print_reproduce(FILE *f, const struct suite_case *c,
			    const struct report_sub *sub)
{
	fprintf(f, "    input file: ");
	shell_word(f, c->in_path, 0);
	fprintf(f, "\n    reproduce:  ");
	if (sub->is_dir) {
		fprintf(f, "cc -std=c11 -O2 ");
		shell_word(f, sub->path, 0);
		fprintf(f, "%s -lm && ./a.out", sub->is_dir == 1 ? "/*.c" : "");
	} else {
		shell_word(f, sub->path, 1);
	}
	fprintf(f, " < ");
	shell_word(f, c->in_path, 0);
	/* The grader's own signs and labels: '-' expected, '+' actual. */
	fprintf(f, " | diff -u --label expected --label actual ");
	shell_word(f, c->out_path, 0);
	fprintf(f, " -\n");
}

/* "input line N: TEXT" for the line whose answer differs, when the suite
 * has a line_map that placed it (judge.h). */
static void print_input_line(FILE *f, const struct judge_result *r)
{
	if (!r->input_lo)
		return;
	if (r->input_lo == r->input_hi)
		fprintf(f, "    input line %ld (answered by expected line %ld): %s\n",
			r->input_lo, r->diff_line, r->input_line);
	else
		fprintf(f, "    input lines %ld-%ld (one of these commands answered "
			"expected line %ld): %s\n", r->input_lo, r->input_hi,
			r->diff_line, r->input_line);
}

/* A run that stopped early (RTE, TLE, OLE, MLE): how far into its input
 * it got and the first lines it wrote (judge.h). */
static void print_progress(FILE *f, const struct judge_result *r)
{
	if (r->stop_line && r->stop_text) {
		fprintf(f, "    it %s once it reads input line %ld: %s\n",
			r->verdict == VERDICT_TLE ? "runs out of time" : "fails",
			r->stop_line, r->stop_text);
		fprintf(f, "      (the lines before it alone run fine; with "
			"it, it fails the same way)\n");
	}
	if (r->verdict != VERDICT_RTE && r->verdict != VERDICT_TLE &&
	    r->verdict != VERDICT_OLE && r->verdict != VERDICT_MLE)
		return;
	if (!r->output_head) {
		fprintf(f, "    its output: nothing%s\n", r->verdict == VERDICT_RTE
			? " (what it printed may have been lost in a buffer it "
			  "never flushed)" : "");
		return;
	}
	fprintf(f, "    its output (%ld line%s; the first ones):\n",
		r->output_lines, r->output_lines == 1 ? "" : "s");
	indented(f, r->output_head, "      ", 0);
}

static void print_details(FILE *f, const struct suite *s,
			  const struct report_sub *sub, const struct report_opts *o)
{
	for (size_t i = 0; i < s->ncases; i++) {
		const struct suite_case *c = &s->cases[i];
		const struct judge_result *r = &sub->cases[i];
		int show_diff = !c->hidden || o->staff;

		if (r->verdict == VERDICT_AC || r->verdict == VERDICT_CE)
			continue;
		fprintf(f, "  ");
		paint(f, o, BOLD, c->name, 0);
		if (r->verdict == VERDICT_WA && show_diff && r->first) {
			/* The first-difference text says where itself. */
			fprintf(f, ": %s\n", verdict_long_name(r->verdict));
			indented(f, o->verbose && r->diff ? r->diff : r->first, "    ", 0);
		} else if (!show_diff) {
			/* Not even the detail: "first difference on line 1,
			 * column 4" answers guesses at the expected output. */
			fprintf(f, ": %s (hidden case: the details are shown to "
				"staff only)\n", verdict_long_name(r->verdict));
		} else {
			fprintf(f, ": %s: ", verdict_long_name(r->verdict));
			escape_fput_scrubbed(f, r->detail, strlen(r->detail), 0);
			fputc('\n', f);
		}
		if (o->verbose && r->stderr_tail && show_diff) {
			fprintf(f, "    stderr (tail):\n");
			indented(f, r->stderr_tail, "      ", 0);
		}
		if (!show_diff || !r->ran)
			continue;
		if (r->verdict == VERDICT_WA)
			print_input_line(f, r);
		else
			print_progress(f, r);
		print_reproduce(f, c, sub);
	}
}

static void print_sub(FILE *f, const struct suite *s, const struct report_sub *sub,
		      const struct report_opts *o)
{
	int nw = widest(s, 0), cw = widest(s, 1);

	paint(f, o, BOLD, sub->path, 0);
	fprintf(f, ": %ld/%ld\n", sub->total.score, sub->total.max_score);
	if (o->quiet)
		return;
	if (sub->is_dir && sub->build == BUILD_FAILED) {
		/* Every case is CE for one reason: the compiler's messages are
		 * the whole story, and a table of CE rows and hints for every
		 * category would bury them. */
		print_build_log(f, sub, o, "  ", o->verbose ? 0 : BUILD_LOG_LINES);
		fprintf(f, "%s\n", o->staff ? REPORT_CE_LINE_STAFF : REPORT_CE_LINE);
		return;
	}
	if (sub->is_dir && sub->build != BUILD_OK) {
		fprintf(f, "  build %s:\n", sub->build == BUILD_FAILED ? "failed"
			: "could not run (internal error)");
		print_build_log(f, sub, o, "    ", o->verbose ? 0 : BUILD_LOG_LINES);
	} else if (o->verbose && sub->is_dir && sub->build_log && *sub->build_log) {
		fprintf(f, "  build warnings:\n");
		print_build_log(f, sub, o, "    ", 0);
	}
	fprintf(f, "  %-*s  %-*s  %-*s %8s %*s\n", nw, "case", cw, "category",
		VW, "verdict", "cpu ms", PW, "points");
	for (size_t i = 0; i < s->ncases; i++)
		print_case_line(f, &s->cases[i], &sub->cases[i], nw, cw, o);
	print_totals(f, sub, nw, cw, o);
	print_details(f, s, sub, o);
	for (size_t i = 0; i < sub->total.ncats; i++) {
		const struct score_category *c = &sub->total.cats[i];
		if (c->hint && c->score < c->max_score)
			fprintf(f, "  hint (%s): %s\n", c->name, c->hint);
	}
}

/* One line per submission: score and verdict counts, in columns. */
static void print_summary(FILE *f, const struct report_sub *subs, size_t n,
			  const struct report_opts *o)
{
	int w = 10;
	char pts[48];

	for (size_t i = 0; i < n; i++)
		w = (int)strlen(subs[i].path) > w ? (int)strlen(subs[i].path) : w;
	fprintf(f, "\n");
	paint(f, o, BOLD, "summary", w);
	fprintf(f, " %9s", "score");
	for (int v = 0; v < VERDICT_COUNT; v++)
		fprintf(f, " %4s", verdict_code((enum verdict)v));
	fputc('\n', f);
	for (size_t i = 0; i < n; i++) {
		const struct score_total *t = &subs[i].total;
		snprintf(pts, sizeof(pts), "%ld/%ld", t->score, t->max_score);
		paint(f, &(struct report_opts){ .color = 0 }, "", subs[i].path, w);
		fprintf(f, " %9s", pts);
		for (int v = 0; v < VERDICT_COUNT; v++) {
			if (!t->counts[v]) {
				fprintf(f, " %4s", ".");
				continue;
			}
			snprintf(pts, sizeof(pts), "%4d", t->counts[v]);
			fputc(' ', f);
			paint(f, o, verdict_color((enum verdict)v), pts, 4);
		}
		fputc('\n', f);
	}
	verdict_print_legend(f);
}

void report_print(FILE *f, const struct suite *s, const struct report_sub *subs,
		  size_t n, const struct report_opts *o)
{
	for (size_t i = 0; i < n; i++) {
		if (i && !o->quiet)
			fputc('\n', f);
		print_sub(f, s, &subs[i], o);
	}
	if (n > 1 && !o->quiet)
		print_summary(f, subs, n, o);
}

/* ---- JSON ---- */

/* Whether text is UTF-8 as jansson takes it (shortest forms, no
 * surrogates, at most U+10FFFF). */
static int utf8_valid(const unsigned char *s)
{
	while (*s) {
		unsigned c = *s, n = c < 0x80 ? 0 : c >= 0xC2 && c <= 0xDF ? 1
			   : c >= 0xE0 && c <= 0xEF ? 2 : c >= 0xF0 && c <= 0xF4 ? 3 : 4;
		unsigned long cp = n ? c & (0x3Fu >> n) : c;

		if (n == 4)
			return 0;
		for (unsigned i = 1; i <= n; i++) {
			if ((s[i] & 0xC0) != 0x80)
				return 0;
			cp = cp << 6 | (s[i] & 0x3F);
		}
		if ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
		    cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
			return 0;
		s += n + 1;
	}
	return 1;
}

/* A JSON string of text; bytes that are not valid UTF-8 (a path, a system
 * message) are escaped as \xNN rather than dropping the value. null for
 * NULL; NULL when out of memory (never a null in place of the text). */
static json_t *str_or_null(const char *text)
{
	json_t *j;
	char *esc;

	if (!text)
		return json_null();
	if ((j = json_string(text)) || utf8_valid((const unsigned char *)text))
		return j;
	esc = escape_visible(text, strlen(text), 1);
	j = esc ? json_string(esc) : NULL;
	free(esc);
	return j;
}

/* Every value below is checked: json_object_set_new() and
 * json_array_append_new() fail when out of memory or given NULL (a value
 * that could not be made), and a report silently missing a case or a key
 * would still be written. A failure anywhere makes report_json() NULL. */
static json_t *case_json(const struct suite_case *c, const struct judge_result *r)
{
	json_t *j = json_pack("{s:s, s:s, s:s, s:s, s:i, s:i, s:I, s:I, s:I}",
			      RK_NAME, c->name, RK_CATEGORY, c->category,
			      RK_VISIBILITY, c->hidden ? RK_HIDDEN : RK_VISIBLE,
			      RK_VERDICT, verdict_code(r->verdict),
			      RK_SCORE, r->score, RK_MAX_SCORE, c->points,
			      RK_CPU_MS, (json_int_t)r->cpu_ms,
			      RK_WALL_MS, (json_int_t)r->wall_ms,
			      RK_MAX_RSS_KB, (json_int_t)r->max_rss_kb);
	int bad = 0;

	if (!j)
		return NULL;
	if (r->ran && r->signaled)
		bad |= json_object_set_new(j, RK_SIGNAL,
					   json_string(run_signal_name(r->term_signal)));
	else
		bad |= json_object_set_new(j, RK_EXIT_CODE, r->ran ?
					   json_integer(r->exit_code) : json_null());
	bad |= json_object_set_new(j, RK_DETAIL, str_or_null(r->detail));
	if (r->limit != VERDICT_LIMIT_NONE)
		bad |= json_object_set_new(j, RK_LIMIT,
					   json_string(verdict_limit_name(r->limit)));
	bad |= json_object_set_new(j, RK_DIFF, str_or_null(r->diff));
	bad |= json_object_set_new(j, RK_STDERR_TAIL, str_or_null(r->stderr_tail));
	if (r->diff_line)
		bad |= json_object_set_new(j, RK_DIFF_LINE, json_integer(r->diff_line));
	if (r->output_head)
		bad |= json_object_set_new(j, RK_OUTPUT_HEAD, str_or_null(r->output_head));
	if (r->output_head || r->stop_line)
		bad |= json_object_set_new(j, RK_OUTPUT_LINES,
					   json_integer(r->output_lines));
	if (r->stop_line) {
		bad |= json_object_set_new(j, RK_STOP_LINE, json_integer(r->stop_line));
		if (r->stop_text)
			bad |= json_object_set_new(j, RK_STOP_INPUT, str_or_null(r->stop_text));
	}
	if (r->verdict == VERDICT_IE)
		bad |= json_object_set_new(j, RK_EXCLUDED, json_true());
	if (bad) {
		json_decref(j);
		return NULL;
	}
	return j;
}

static json_t *categories_json(const struct score_total *t)
{
	json_t *a = json_array();
	int bad = 0;

	for (size_t i = 0; a && !bad && i < t->ncats; i++) {
		json_t *c = json_pack("{s:s, s:I, s:I}", RK_CATEGORY, t->cats[i].name,
				      RK_SCORE, (json_int_t)t->cats[i].score,
				      RK_MAX_SCORE, (json_int_t)t->cats[i].max_score);
		if (c && t->cats[i].hint && t->cats[i].score < t->cats[i].max_score)
			bad |= json_object_set_new(c, RK_HINT, json_string(t->cats[i].hint));
		bad |= json_array_append_new(a, c);
	}
	if (bad) {
		json_decref(a);
		return NULL;
	}
	return a;
}

static const char *build_status_name(const struct report_sub *sub)
{
	if (!sub->is_dir)
		return RK_BUILD_NONE;
	return sub->build == BUILD_OK ? RK_BUILD_OK
	       : sub->build == BUILD_FAILED ? RK_BUILD_FAILED : RK_BUILD_ERROR;
}

static json_t *sub_json(const struct suite *s, const struct report_sub *sub)
{
	json_t *verdicts = json_object(), *cases = json_array();
	int bad = !verdicts || !cases;

	for (int v = 0; !bad && v < VERDICT_COUNT; v++)
		bad |= json_object_set_new(verdicts, verdict_code((enum verdict)v),
					   json_integer(sub->total.counts[v]));
	for (size_t i = 0; !bad && i < s->ncases; i++)
		bad |= json_array_append_new(cases, case_json(&s->cases[i], &sub->cases[i]));
	if (bad) {
		json_decref(verdicts);
		json_decref(cases);
		return NULL;
	}
	/* "o" values are the pack's even when it fails. */
	return json_pack("{s:o, s:I, s:I, s:I, s:{s:s, s:o, s:o}, s:o, s:o, s:o}",
			 RK_SUBMISSION, str_or_null(sub->path),
			 RK_SCORE, (json_int_t)sub->total.score,
			 RK_MAX_SCORE, (json_int_t)sub->total.max_score,
			 RK_EXCLUDED_POINTS, (json_int_t)sub->total.excluded_points,
			 RK_BUILD, RK_BUILD_STATUS, build_status_name(sub),
			 RK_BUILD_LOG, str_or_null(sub->build_log),
			 RK_BUILD_REASON, sub->build_reason[0]
					  ? json_string(sub->build_reason) : json_null(),
			 RK_CATEGORIES, categories_json(&sub->total),
			 RK_VERDICTS, verdicts, RK_CASES, cases);
}

/* What each run got from the sandbox (sandbox.h), so a report says how
 * far its grades can be trusted. */
static json_t *sandbox_layers_json(const struct sandbox_layers *l, long processes);

/* Words separated by any of sep in text, as a JSON array of strings. A
 * word may name a student's file (a leak the read probe found), whose
 * bytes need not be UTF-8: escaped as str_or_null does, never a report
 * lost (it made grade exit 3 on such a name without namespaces). */
static json_t *split_json(const char *text, const char *sep)
{
	json_t *arr = json_array();

	for (const char *p = text; arr && p && *p;) {
		size_t len = strcspn(p, sep);
		char *word = len ? strndup(p, len) : NULL;

		if (len && (!word || json_array_append_new(arr, str_or_null(word)) < 0)) {
			free(word);
			json_decref(arr);
			return NULL;
		}
		free(word);
		p += len;
		p += strspn(p, sep);
	}
	return arr;
}

/* The account's keys (docs/sandbox.md, "The report's account"): the folders swept without a
 * private /tmp, and whether (and how) the suite's hidden tests may leak. */
static int add_account(json_t *sb, const struct sandbox_layers *l,
		       const char *leaks, int hidden)
{
	json_t *swept = split_json(l->swept, " "), *why = split_json(leaks, "\n");

	if (!sb || !swept || !why) {
		json_decref(swept);
		json_decref(why);
		return -1;
	}
	return json_object_set_new(sb, RK_TMP_SWEEP, json_boolean(l->tmp_sweep)) |
	       json_object_set_new(sb, RK_SWEPT, swept) |
	       json_object_set_new(sb, RK_HIDDEN_MAY_LEAK,
				   json_boolean(hidden && json_array_size(why))) |
	       json_object_set_new(sb, RK_LEAKS, why);
}

static json_t *sandbox_json(const struct sandbox_layers *l, long processes,
			    const char *leaks, int hidden)
{
	json_t *sb = sandbox_layers_json(l, processes);

	if (add_account(sb, l, leaks, hidden) < 0) {
		json_decref(sb);
		return NULL;
	}
	return sb;
}

static json_t *sandbox_layers_json(const struct sandbox_layers *l, long processes)
{
	static const struct { int cap; const char *name; } controls[] = {
		{ CG_KILL, "kill" }, { CG_CPU, "cpu" }, { CG_MEM, "memory" },
		{ CG_PIDS, "pids" },
	};
	json_t *ctl = json_array(), *missing = json_array();
	char buf[sizeof(l->missing)], *part, *save = NULL;
	int bad = !ctl || !missing;

	for (size_t i = 0; !bad && i < sizeof(controls) / sizeof(controls[0]); i++)
		if (l->cgroup_caps & controls[i].cap)
			bad |= json_array_append_new(ctl, json_string(controls[i].name));
	snprintf(buf, sizeof(buf), "%s", l->missing);
	for (part = strtok_r(buf, ";", &save); !bad && part;
	     part = strtok_r(NULL, ";", &save))
		bad |= json_array_append_new(missing, json_string(part + (*part == ' ')));
	if (bad) {
		json_decref(ctl);
		json_decref(missing);
		return NULL;
	}
	return json_pack("{s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:o, s:o, "
			 "s:b, s:s, s:I, s:o}",
			 RK_UID_SWITCH, l->uid_switch, RK_USER_NAMESPACE, l->user_ns,
			 RK_MOUNT_NAMESPACE, l->mount_ns, RK_PRIVATE_TMP, l->private_tmp,
			 RK_MINIMAL_ROOT, l->minimal_root, RK_BUILD_VIEW, l->build_view,
			 RK_IPC_NAMESPACE, l->ipc_ns, RK_NETWORK_NAMESPACE, l->net_ns,
			 RK_PID_NAMESPACE, l->pid_ns, RK_PRIVATE_PROC, l->private_proc,
			 RK_SECCOMP, l->seccomp,
			 RK_CGROUP, str_or_null(l->cgroup), RK_CGROUP_CONTROLS, ctl,
			 RK_CHILDREN_CPU, l->children_cpu,
			 /* What the memory limit counts (spawn.h's mem_bytes). */
			 RK_MEMORY_LIMIT, l->cgroup_caps & CG_MEM ? "cgroup" : "address space",
			 RK_PROCESSES, (json_int_t)processes,
			 RK_MISSING, missing);
}

/* The compiler's limits, in suite.json's "build_limits" keys. */
static json_t *build_limits_json(const struct build_limits *b)
{
	return json_pack("{s:f, s:f, s:I, s:I, s:I, s:I, s:I}",
			 RK_CPU_SECONDS, b->cpu_sec, RK_WALL_SECONDS, b->wall_sec,
			 RK_TMP_MIB, (json_int_t)(b->tmp_bytes >> 20),
			 RK_MEMORY_MIB, (json_int_t)(b->mem_bytes >> 20),
			 RK_PROCESSES, (json_int_t)b->nproc,
			 RK_FILE_SIZE_MIB, (json_int_t)(b->fsize_bytes >> 20),
			 RK_OUTPUT_KIB, (json_int_t)(b->output_bytes >> 10));
}

json_t *report_json(const struct suite *s, const struct report_sub *subs,
		    size_t n, const struct report_opts *o)
{
	json_t *arr = json_array();
	int bad = !arr;

	for (size_t i = 0; !bad && i < n; i++)
		bad |= json_array_append_new(arr, sub_json(s, &subs[i]));
	if (bad) {
		json_decref(arr);
		return NULL;
	}
	json_t *r = json_pack("{s:s, s:o, s:s, s:b, s:s, s:{s:f, s:f, s:I, s:I, s:I, s:I, s:I},"
			      " s:o, s:o}",
			 RK_SUITE, s->name, RK_SUITE_DIR, str_or_null(s->dir),
			 RK_GRADER_VERSION, WG_VERSION, RK_EXACT, o->exact,
			 RK_VIEW, o->staff ? RK_VIEW_STAFF : RK_VIEW_STUDENT,
			 RK_LIMITS, RK_CPU_SECONDS, o->cpu_sec, RK_WALL_SECONDS, o->wall_sec,
			 RK_MEMORY_MIB, (json_int_t)o->memory_mib,
			 RK_OUTPUT_KIB, (json_int_t)o->output_kib,
			 RK_STACK_MIB, (json_int_t)o->stack_mib,
			 RK_PROCESSES, (json_int_t)o->processes,
			 RK_TMP_MIB, (json_int_t)o->tmp_mib,
			 RK_SANDBOX, o->sandbox ? sandbox_json(o->sandbox, o->processes,
								o->leaks,
								suite_hidden_cases(s) > 0)
					       : json_null(),
			 RK_SUBMISSIONS, arr);
	if (r && o->build &&
	    json_object_set_new(r, RK_BUILD_LIMITS, build_limits_json(o->build)) < 0) {
		json_decref(r);
		return NULL;
	}
	return r;
}

static int put_report(FILE *f, const void *report)
{
	return json_dumpf(report, f, JSON_INDENT(2)) < 0 || fputc('\n', f) == EOF
	       ? -1 : 0;
}

int report_write_json(const json_t *report, const char *path,
		      struct strbuf *err)
{
	if (strcmp(path, "-") != 0)
		return outfile_write(path, put_report, report, err);
	if (put_report(stdout, report) < 0 || fflush(stdout) == EOF) {
		strbuf_addf(err, "cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	return 0;
}
