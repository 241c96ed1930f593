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

/* The first JUDGE_HEAD_LINES lines of what the program wrote, and how
 * many lines it wrote. */
static void keep_head(const struct run_result *res, struct judge_result *out)
{
	size_t n = 0, lines = 0;

	for (size_t i = 0; i < res->out_len; i++)
		out->output_lines += res->out[i] == '\n';
	if (res->out_len && res->out[res->out_len - 1] != '\n')
		out->output_lines++;
	while (n < res->out_len && n < JUDGE_HEAD_BYTES && lines < JUDGE_HEAD_LINES)
		lines += res->out[n++] == '\n';
	if (n)
		out->output_head = diff_escape(res->out, n, 1);
}

/* Bytes of in up to the end of its first k lines. */
static size_t prefix_len(const char *in, size_t len, long k)
{
	size_t i = 0;

	for (long line = 0; i < len && line < k; i++)
		line += in[i] == '\n';
	return i;
}

static long count_lines(const char *in, size_t len)
{
	long n = 0;

	for (size_t i = 0; i < len; i++)
		n += in[i] == '\n';
	return n + (len && in[len - 1] != '\n');
}

/* Whether the program fails on the first k lines of the input as it did
 * on the whole (same verdict; a crash by the same signal or exit status). */
static int fails_on(const struct run_child *proto, const struct verdict_limits *vl,
		    const struct judge_data *data, long k,
		    const struct judge_result *whole)
{
	struct run_child c = *proto;
	struct verdict_info vi;
	int rc, same;

	c.res = (struct run_result){ 0 };
	c.input_len = prefix_len(data->in, data->in_len, k);
	rc = run_command(&c);
	verdict_classify(rc, &c.res, vl, &vi);
	same = rc == 0 && vi.verdict == whole->verdict;
	if (same && whole->verdict == VERDICT_RTE)
		same = (c.res.status == RUN_SIGNALED) == whole->signaled &&
		       (whole->signaled ? c.res.term_signal == whole->term_signal
					: c.res.exit_code == whole->exit_code);
	run_child_release(&c);
	return same;
}

/* out->stop_line: the smallest k whose first k lines fail the same way,
 * by bisection (the whole input fails; an empty one is tried first). */
static void find_stop_line(const struct run_child *proto,
			   const struct verdict_limits *vl,
			   const struct judge_data *data, struct judge_result *out)
{
	long lo = 0, hi = count_lines(data->in, data->in_len);
	int runs = 0;

	if (hi < 1 || fails_on(proto, vl, data, 0, out))
		return;
	runs++;
	/* Invariant: the first lo lines pass, the first hi lines fail. */
	while (hi - lo > 1 && runs++ < JUDGE_PROBE_RUNS) {
		long mid = lo + (hi - lo) / 2;
		if (fails_on(proto, vl, data, mid, out))
			hi = mid;
		else
			lo = mid;
	}
	if (hi - lo == 1)
		out->stop_line = hi;
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
	if (out->ran && (out->verdict == VERDICT_RTE || out->verdict == VERDICT_TLE ||
			 out->verdict == VERDICT_OLE || out->verdict == VERDICT_MLE))
		keep_head(&c.res, out);
	out->score = out->verdict == VERDICT_AC ? points : 0;
	run_child_release(&c);
	if (out->ran && (out->verdict == VERDICT_RTE || out->verdict == VERDICT_TLE)) {
		struct run_child probe = RUN_CHILD_INIT;

		probe.argv = argv;
		probe.dir = dir;
		probe.input = data->in;
		probe.lim = cfg->lim;
		probe.uid = uid;
		probe.gid = gid;
		probe.sbx = sbx;
		if (out->verdict == VERDICT_TLE &&
		    probe.lim.cpu_sec > JUDGE_PROBE_CPU_SEC) {
			/* A probe that runs out of time only needs to
			 * reach the loop; the wall limit follows. */
			probe.lim.cpu_sec = JUDGE_PROBE_CPU_SEC;
			probe.lim.wall_sec = 4 * JUDGE_PROBE_CPU_SEC;
			vl.cpu_sec = probe.lim.cpu_sec;
			vl.wall_sec = probe.lim.wall_sec;
		}
		find_stop_line(&probe, &vl, data, out);
	}
}

void judge_result_release(struct judge_result *r)
{
	free(r->first);
	free(r->diff);
	free(r->stderr_tail);
	free(r->output_head);
	r->first = r->diff = r->stderr_tail = r->output_head = NULL;
}
