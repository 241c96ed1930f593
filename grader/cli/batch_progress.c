/*
 * batch_progress: what the batch says on stderr as it goes: a progress
 * line with an ETA on a terminal, one line per finished student.
 */
#include "grader/cli/batch_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "grader/judge/verdict.h"
#include "grader/lib/escape.h"
#include "grader/lib/strbuf.h"
#include "grader/lib/usage.h"
#include "grader/lib/util.h"
#include "grader/report/keys.h"

static void fmt_duration(char *buf, size_t n, double sec)
{
	long s = (long)(sec + 0.5);

	if (s >= 3600)
		snprintf(buf, n, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60,
			 s % 60);
	else
		snprintf(buf, n, "%ld:%02ld", s / 60, s % 60);
}

void batch_progress_line(struct batch *b)
{
	size_t to_grade = b->n - b->skipped;
	size_t graded_or_failed = b->graded + b->failed;
	char eta[32] = "?";

	if (!b->tty || b->quiet)
		return;
	/* Skipped students take no time; the rate comes from the others. */
	if (graded_or_failed > 0)
		fmt_duration(eta, sizeof eta, (wg_now() - b->t0) /
			     (double)graded_or_failed *
			     (double)(to_grade - graded_or_failed));
	fprintf(stderr, "\r\033[K[%zu/%zu] %zu running, %zu not all AC, "
		"%zu not graded, ETA %s", b->finished, b->n, b->running,
		b->imperfect, b->failed, graded_or_failed ? eta : "?");
	fflush(stderr);
	b->line_shown = 1;
}

/* One line for a finished student: plain when not on a terminal, printed
 * above the progress line when on one. */
void batch_progress_event(struct batch *b, const struct student *s,
			   const char *fmt, ...)
{
	va_list ap;

	if (b->quiet && s->state != ST_FAILED)
		return;
	if (b->line_shown)
		fputs("\r\033[K", stderr);
	struct strbuf line = STRBUF_INIT;

	strbuf_addf(&line, "%s: ", s->name);
	va_start(ap, fmt);
	strbuf_vaddf(&line, fmt, ap);
	va_end(ap);
	fprintf(stderr, "[%zu/%zu] ", b->finished, b->n);
	/* The name and the error are the student's: scrubbed (usage.h). */
	escape_fput_scrubbed(stderr, line.buf ? line.buf : "", line.len, 0);
	fputc('\n', stderr);
	strbuf_release(&line);
	b->line_shown = 0;
	batch_progress_line(b);
}

int batch_all_accepted(const json_t *r)
{
	const json_t *sub = batch_only_sub(r);
	const json_t *counts = json_object_get(sub, RK_VERDICTS);
	const char *key;
	const json_t *v;

	json_object_foreach((json_t *)counts, key, v)
		if (verdict_from_code(key) != VERDICT_AC && json_integer_value(v) > 0)
			return 0;
	return json_array_size(json_object_get(sub, RK_CASES)) > 0;
}
