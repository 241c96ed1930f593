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
	if (!(text = diff_escape(p, max, 0)) || max == len)
		return text;
	cut = malloc(strlen(text) + 4);
	if (cut)
		strcat(strcpy(cut, text), "...");
	free(text);
	return cut;
}

/* With a line map: the input line(s) that answered the first differing
 * line. The input is mapped, not read: linemap_find stops at that line,
 * so only the pages before it are touched. Nothing when it cannot say. */
static void place_input(const struct judge_config *cfg, const char *in_path,
			const struct strbuf *exp, struct judge_result *out)
{
	int fd = open(in_path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	char *in = NULL;
	size_t len = 0;
	long lo, hi;

	if (fd < 0)
		return;
	if (fstat(fd, &st) == 0 && st.st_size > 0) {
		len = (size_t)st.st_size;
		in = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	}
	close(fd);
	if (in == MAP_FAILED)
		return;
	if (linemap_find(cfg->line_map, in ? in : "", len, exp->buf, exp->len,
			 out->diff_line, &lo, &hi) == 0 &&
	    (out->input_line = input_line_text(in ? in : "", len, lo))) {
		out->input_lo = lo;
		out->input_hi = hi;
	}
	if (in)
		munmap(in, len);
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
	out->stderr_tail = diff_escape(res->err + res->err_len - n, n, 1);
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
	out->score = out->verdict == VERDICT_AC ? points : 0;
	strbuf_release(&exp);
	run_child_release(&c);
}

void judge_result_release(struct judge_result *r)
{
	free(r->first);
	free(r->diff);
	free(r->stderr_tail);
	free(r->input_line);
	r->first = r->diff = r->stderr_tail = r->input_line = NULL;
}
