/*
 * judge: one program, one case, one verdict (see judge.h).
 */
#include "grader/judge/judge.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grader/judge/compare.h"
#include "grader/judge/linemap.h"
#include "grader/lib/escape.h"
#include "grader/lib/strbuf.h"

/* Bytes of stderr kept in the report. */
#define STDERR_TAIL 2048

/* The expected output, read whole into sb (one allocation of the file's
 * size): 0, or -1 with errno. */
static int read_expected(const char *path, struct strbuf *sb)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), e = 0;
	struct stat st;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0)
		e = errno;
	else if (strbuf_grow(sb, (size_t)st.st_size + 8192) < 0)
		e = ENOMEM;
	else if (strbuf_read_fd(sb, fd, SIZE_MAX - 1) < 0)
		e = errno;
	close(fd);
	errno = e;
	return e ? -1 : 0;
}

/* The grader could not read a case file: IE, never the student's. */
static void unreadable(const char *path, struct judge_result *out)
{
	out->verdict = VERDICT_IE;
	out->limit = VERDICT_LIMIT_NONE;
	out->score = 0;
	snprintf(out->detail, sizeof(out->detail),
		 "grader failure: cannot read '%.200s': %s", path, strerror(errno));
}

/* Line lo of the input (1-based), escaped and cut, as the report shows it:
 * up to its '\n' (or a NUL byte), at most JUDGE_INPUT_LINE_MAX bytes. */
static char *input_line_text(const char *in, size_t in_len, long lo)
{
	const char *p = in, *end = in + in_len;
	size_t len = 0, max;
	char *text, *cut;

	for (long n = 1; n < lo && p < end; p++)
		n += *p == '\n';
	while (p + len < end && p[len] != '\n' && p[len])
		len++;
	max = len > JUDGE_INPUT_LINE_MAX ? JUDGE_INPUT_LINE_MAX : len;
	if (!(text = escape_visible(p, max, 0)) || max == len)
		return text;
	cut = malloc(strlen(text) + 4);
	if (cut)
		strcat(strcpy(cut, text), "...");
	free(text);
	return cut;
}

/* The input file mapped read-only (*len 0 and NULL for an empty one).
 * 0, or -1 (nothing to unmap). */
static int map_input(const char *path, const char **in, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	void *m = NULL;

	*in = NULL;
	*len = 0;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) == 0 && st.st_size > 0) {
		m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m != MAP_FAILED)
			*len = (size_t)st.st_size;
	}
	close(fd);
	if (m == MAP_FAILED)
		return -1;
	*in = m;
	return 0;
}

/* With a line map: the input line(s) that answered the first differing
 * line. The input is mapped, not read: linemap_find stops at that line,
 * so only the pages before it are touched. Nothing when it cannot say. */
static void place_input(const struct judge_config *cfg, const char *in_path,
			const struct strbuf *exp, struct judge_result *out)
{
	const char *in;
	size_t len;
	long lo, hi;

	if (map_input(in_path, &in, &len) < 0)
		return;
	if (linemap_find(cfg->line_map, in ? in : "", len, exp->buf, exp->len,
			 out->diff_line, &lo, &hi) == 0 &&
	    (out->input_line = input_line_text(in ? in : "", len, lo))) {
		out->input_lo = lo;
		out->input_hi = hi;
	}
	if (in)
		munmap((void *)in, len);
}

static void set_diff(const struct judge_config *cfg, const struct strbuf *exp,
		     const struct run_result *res, struct judge_result *out)
{
	struct diff_first f;
	char *uni = NULL;

	if (diff_report(exp->buf, exp->len, res->out, res->out_len, &cfg->diff,
			&f, &uni) < 0 && f.line && !f.text)
		return;         /* no memory for the first difference */
	out->diff_line = f.line;
	out->first = f.text;
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
	out->stderr_tail = escape_visible(res->err + res->err_len - n, n, 1);
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
		out->output_head = escape_visible(res->out, n, 1);
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

/* Whether the program fails on the first k lines of in as it did on the
 * whole (same verdict; a crash by the same signal or exit status). */
static int fails_on(const struct run_child *proto, const struct verdict_limits *vl,
		    const char *in, size_t in_len, long k,
		    const struct judge_result *whole)
{
	struct run_child c = *proto;
	struct verdict_info vi;
	int rc, same;

	c.res = (struct run_result){ 0 };
	c.input = in;
	c.input_len = prefix_len(in, in_len, k);
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

/* out->stop_line (and its text): the smallest k whose first k lines fail
 * the same way, by bisection (the whole input fails; an empty one is
 * tried first). The input is mapped for the search. */
static void find_stop_line(const struct run_child *proto,
			   const struct verdict_limits *vl, const char *in_path,
			   struct judge_result *out)
{
	const char *in;
	size_t len;
	long lo = 0, hi;
	int runs = 0;

	if (map_input(in_path, &in, &len) < 0)
		return;
	hi = count_lines(in, len);
	if (hi >= 1 && !fails_on(proto, vl, in, len, 0, out)) {
		runs++;
		/* Invariant: the first lo lines pass, the first hi lines fail. */
		while (hi - lo > 1 && runs++ < JUDGE_PROBE_RUNS) {
			long mid = lo + (hi - lo) / 2;
			if (fails_on(proto, vl, in, len, mid, out))
				hi = mid;
			else
				lo = mid;
		}
		if (hi - lo == 1 && (out->stop_text = input_line_text(in, len, hi)))
			out->stop_line = hi;
	}
	if (in)
		munmap((void *)in, len);
}

/* RTE or TLE on a case that asks for it: how far into the input the
 * program got (judge.h), each probe run as the case was. */
static void probe(const struct judge_config *cfg, const struct run_child *c0,
		  struct verdict_limits vl, const char *in_path,
		  struct judge_result *out)
{
	struct run_child p = RUN_CHILD_INIT;

	p.argv = c0->argv;
	p.dir = c0->dir;
	p.lim = cfg->lim;
	p.uid = c0->uid;
	p.gid = c0->gid;
	p.sbx = c0->sbx;
	if (out->verdict == VERDICT_TLE && p.lim.cpu_sec > JUDGE_PROBE_CPU_SEC) {
		/* A probe that runs out of time only needs to reach the
		 * loop; the wall limit follows. */
		p.lim.cpu_sec = JUDGE_PROBE_CPU_SEC;
		p.lim.wall_sec = 4 * JUDGE_PROBE_CPU_SEC;
		vl.cpu_sec = p.lim.cpu_sec;
		vl.wall_sec = p.lim.wall_sec;
	}
	find_stop_line(&p, &vl, in_path, out);
}

void judge_case(const struct judge_config *cfg, const char *prog,
		uint64_t image_bytes, const char *dir, uid_t uid, gid_t gid,
		struct sandbox_slot *sbx, const struct judge_data *data, int points,
		struct judge_result *out)
{
	const char *argv[] = { prog, NULL };
	struct run_child c = RUN_CHILD_INIT;
	struct strbuf exp = STRBUF_INIT;
	struct verdict_info vi;
	struct verdict_limits vl = {
		.cpu_sec = cfg->lim.cpu_sec, .wall_sec = cfg->lim.wall_sec,
		.mem_bytes = cfg->lim.mem_bytes, .output_bytes = cfg->lim.output_bytes,
		.image_bytes = image_bytes,
	};

	memset(out, 0, sizeof(*out));
	c.argv = argv;
	c.dir = dir;
	c.input_path = data->in_path;
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
	if (out->verdict == VERDICT_AC && read_expected(data->out_path, &exp) < 0) {
		unreadable(data->out_path, out);
	} else if (out->verdict == VERDICT_AC &&
		   !cmp_equal(exp.buf, exp.len, c.res.out, c.res.out_len, cfg->exact)) {
		out->verdict = VERDICT_WA;
		set_diff(cfg, &exp, &c.res, out);
		if (!out->detail[0])
			snprintf(out->detail, sizeof(out->detail), "output differs");
		if (cfg->line_map && out->diff_line)
			place_input(cfg, data->in_path, &exp, out);
	}
	if (out->ran && (out->verdict == VERDICT_RTE || out->verdict == VERDICT_TLE ||
			 out->verdict == VERDICT_OLE || out->verdict == VERDICT_MLE))
		keep_head(&c.res, out);
	out->score = out->verdict == VERDICT_AC ? points : 0;
	strbuf_release(&exp);
	if (data->probe && out->ran &&
	    (out->verdict == VERDICT_RTE || out->verdict == VERDICT_TLE))
		probe(cfg, &c, vl, data->in_path, out);
	run_child_release(&c);
}

void judge_result_release(struct judge_result *r)
{
	free(r->first);
	free(r->diff);
	free(r->stderr_tail);
	free(r->input_line);
	free(r->output_head);
	free(r->stop_text);
	r->first = r->diff = r->stderr_tail = r->input_line = NULL;
	r->output_head = r->stop_text = NULL;
}
