/*
 * judge: one program, one case, one verdict (see judge.h).
 */
#include "grader/judge/judge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grader/judge/compare.h"

/* Bytes of stderr kept in the report. */
#define STDERR_TAIL 2048

static void set_diff(const struct judge_config *cfg, const struct judge_data *d,
		     const struct run_result *res, struct judge_result *out)
{
	struct diff_first f;
	char *uni = NULL;

	if (diff_first(d->out, d->out_len, res->out, res->out_len, cfg->exact, &f) < 0)
		return;
	out->diff_line = f.line;
	out->first = f.text;
	uni = diff_unified(d->out, d->out_len, res->out, res->out_len, &cfg->diff);
	if (f.text && uni) {
		size_t a = strlen(f.text), b = strlen(uni);
		out->diff = malloc(a + b + 2);
		if (out->diff) {
			memcpy(out->diff, f.text, a);
			out->diff[a] = '\n';
			memcpy(out->diff + a + 1, uni, b + 1);
		}
	}
	free(uni);
	if (f.line)
		snprintf(out->detail, sizeof(out->detail),
			 "first difference on line %ld, column %ld%s",
			 f.line, f.column, f.ws_only ? " (whitespace only)" : "");
}

static void keep_stderr(const struct run_result *res, struct judge_result *out)
{
	if (!res->err || res->err_len == 0)
		return;
	size_t n = res->err_len > STDERR_TAIL ? STDERR_TAIL : res->err_len;
	out->stderr_tail = diff_escape(res->err + res->err_len - n, n, 1);
}

void judge_case(const struct judge_config *cfg, const char *prog,
		uint64_t image_bytes, const char *dir, uid_t uid, gid_t gid,
		struct sandbox_slot *sbx, const struct judge_data *data, int points,
		struct judge_result *out)
{
	const char *argv[] = { prog, NULL };
	struct run_child c = RUN_CHILD_INIT;
	struct verdict_info vi;
	struct verdict_limits vl = {
		.cpu_sec = cfg->lim.cpu_sec, .wall_sec = cfg->lim.wall_sec,
		.mem_bytes = cfg->lim.mem_bytes, .output_bytes = cfg->lim.output_bytes,
		.image_bytes = image_bytes,
	};

	memset(out, 0, sizeof(*out));
	c.argv = argv;
	c.dir = dir;
	c.input = data->in;
	c.input_len = data->in_len;
	c.lim = cfg->lim;
	c.uid = uid;
	c.gid = gid;
	c.sbx = sbx;

	int rc = run_command(&c);
	verdict_classify(rc, &c.res, &vl, &vi);
	out->verdict = vi.verdict;
	out->limit = vi.limit;
	_Static_assert(sizeof(out->detail) == sizeof(vi.detail),
		       "judge_result.detail holds verdict_info.detail");
	memcpy(out->detail, vi.detail, sizeof(out->detail));
	out->ran = rc == 0 && !c.res.exec_errno;
	if (out->ran) {
		out->cpu_ms = c.res.cpu_ms;
		out->wall_ms = c.res.wall_ms;
		out->max_rss_kb = c.res.max_rss_kb;
		out->signaled = c.res.status == RUN_SIGNALED;
		out->exit_code = c.res.exit_code;
		out->term_signal = c.res.term_signal;
		keep_stderr(&c.res, out);
	}
	if (out->verdict == VERDICT_AC &&
	    !cmp_equal(data->out, data->out_len, c.res.out, c.res.out_len, cfg->exact)) {
		out->verdict = VERDICT_WA;
		set_diff(cfg, data, &c.res, out);
		if (!out->detail[0])
			snprintf(out->detail, sizeof(out->detail), "output differs");
	}
	out->score = out->verdict == VERDICT_AC ? points : 0;
	run_child_release(&c);
}

void judge_result_release(struct judge_result *r)
{
	free(r->first);
	free(r->diff);
	free(r->stderr_tail);
	r->first = r->diff = r->stderr_tail = NULL;
}
