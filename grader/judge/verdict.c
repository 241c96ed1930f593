/*
 * verdict: names, colours and the classification rule (see verdict.h).
 */
#include "grader/judge/verdict.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

static const struct {
	const char *code, *name, *color, *title;
} verdicts[VERDICT_COUNT] = {
	[VERDICT_AC]  = { "AC",  "accepted",              "\033[1;32m",
			  "Accepted" },
	[VERDICT_WA]  = { "WA",  "wrong answer",          "\033[1;31m",
			  "Wrong Answer" },
	[VERDICT_TLE] = { "TLE", "time limit exceeded",   "\033[1;33m",
			  "Time Limit Exceeded" },
	[VERDICT_MLE] = { "MLE", "memory limit exceeded", "\033[1;35m",
			  "Memory Limit Exceeded" },
	[VERDICT_OLE] = { "OLE", "output limit exceeded", "\033[1;35m",
			  "Output Limit Exceeded" },
	[VERDICT_RTE] = { "RTE", "run-time error",        "\033[1;31m",
			  "Runtime Error" },
	[VERDICT_CE]  = { "CE",  "compilation error",     "\033[1;36m",
			  "Compilation Error" },
	[VERDICT_IE]  = { "IE",  "internal error",        "\033[1;7;31m",
			  "Internal Error (the grader's fault, not yours)" },
};

/* Lower-case fragments of the messages allocators and runtimes print when
 * an allocation fails. Not "malloc" alone: glibc's heap-corruption aborts
 * ("malloc(): corrupted top size") are a program's bug, not its memory. */
static const char *const alloc_failures[] = {
	"out of memory", "cannot allocate", "bad_alloc", "memory exhausted",
	"failed to allocate", "allocation failed",
};

const char *verdict_code(enum verdict v)
{
	return v < VERDICT_COUNT ? verdicts[v].code : "?";
}

const char *verdict_long_name(enum verdict v)
{
	return v < VERDICT_COUNT ? verdicts[v].name : "unknown verdict";
}

void verdict_print_legend(FILE *f)
{
	fputs("Verdicts:", f);
	for (int v = 0; v < VERDICT_COUNT; v++)
		fprintf(f, "%s %s %s", v ? "," : "", verdicts[v].code, verdicts[v].name);
	fputs(" (the grader's fault)\n", f);
}

const char *verdict_title(enum verdict v)
{
	return v < VERDICT_COUNT ? verdicts[v].title : NULL;
}

int verdict_is(const char *code, enum verdict v)
{
	return code && verdict_from_code(code) == v;
}

const char *verdict_color(enum verdict v)
{
	return v < VERDICT_COUNT ? verdicts[v].color : "";
}

enum verdict verdict_from_code(const char *code)
{
	for (int v = 0; v < VERDICT_COUNT; v++)
		if (!strcmp(code, verdicts[v].code))
			return (enum verdict)v;
	return VERDICT_COUNT;
}

const char *verdict_limit_name(enum verdict_limit l)
{
	switch (l) {
	case VERDICT_LIMIT_CPU: return "cpu";
	case VERDICT_LIMIT_WALL: return "wall";
	default: return NULL;
	}
}

/* Case-insensitive search of a lower-case needle in bytes that may hold
 * NULs (stderr is whatever the program wrote). */
static int contains_ci(const char *hay, size_t len, const char *needle)
{
	size_t n = strlen(needle);

	for (size_t i = 0; hay && i + n <= len; i++) {
		size_t k = 0;
		while (k < n && tolower((unsigned char)hay[i + k]) == needle[k])
			k++;
		if (k == n)
			return 1;
	}
	return 0;
}

static int died(const struct run_result *r)
{
	return r->status == RUN_SIGNALED || r->exit_code != 0;
}

/* 0: not MLE; 1: by max RSS; 2: by an allocation failure on stderr; 3: by
 * the program's own image (a static array larger than the limit kills it
 * while it loads, before it has any RSS to speak of); 4: the cgroup's OOM
 * killer struck (memory.max counts the tmpfs and shm too): certain; 5: the
 * loader could not map a library beside a large image under the
 * address-space limit ("failed to map segment", exit 127): the program
 * never ran, for want of memory. */
static int looks_like_mle(const struct run_result *r,
			  const struct verdict_limits *lim)
{
	if (r->oom_killed)
		return 4;
	if (!lim->mem_bytes || !died(r))
		return 0;
	if (lim->image_bytes * 100 >= lim->mem_bytes * VERDICT_MLE_RSS_PERCENT)
		return 3;
	if (r->status == RUN_EXITED && r->exit_code == 127 &&
	    contains_ci(r->err, r->err_len, "failed to map segment"))
		return 5;
	if ((unsigned long long)r->max_rss_kb * 1024 * 100 >=
	    lim->mem_bytes * VERDICT_MLE_RSS_PERCENT)
		return 1;
	for (size_t i = 0; i < sizeof(alloc_failures) / sizeof(*alloc_failures); i++)
		if (contains_ci(r->err, r->err_len, alloc_failures[i]))
			return 2;
	return 0;
}

static const char *death(const struct run_result *r, char *buf, size_t len)
{
	if (r->status == RUN_SIGNALED)
		snprintf(buf, len, "killed by %s", run_signal_name(r->term_signal));
	else
		snprintf(buf, len, "exit status %d", r->exit_code);
	return buf;
}

static void set(struct verdict_info *out, enum verdict v, enum verdict_limit l)
{
	out->verdict = v;
	out->limit = l;
}

void verdict_classify(int harness_rc, const struct run_result *r,
		      const struct verdict_limits *lim,
		      struct verdict_info *out)
{
	char how[64];
	int mle;

	out->detail[0] = '\0';
	set(out, VERDICT_AC, VERDICT_LIMIT_NONE);
	if (harness_rc < 0) {
		set(out, VERDICT_IE, VERDICT_LIMIT_NONE);
		snprintf(out->detail, sizeof(out->detail), "grader failure: %s",
			 r->error[0] ? r->error : "unknown error");
	} else if (r->exec_errno == ENOMEM && lim->mem_bytes) {
		set(out, VERDICT_MLE, VERDICT_LIMIT_NONE);
		snprintf(out->detail, sizeof(out->detail),
			 "cannot load the program under the memory limit of "
			 "%llu MiB", lim->mem_bytes >> 20);
	} else if (r->exec_errno) {
		/* The program file itself is not runnable (a text file, a binary
		 * for another machine): the submission's fault. Anything else
		 * (no such file, a sandbox step) is the grader's. */
		set(out, r->exec_errno == ENOEXEC ? VERDICT_RTE : VERDICT_IE,
		    VERDICT_LIMIT_NONE);
		int at_exec = !r->exec_stage || !strcmp(r->exec_stage, "exec");
		snprintf(out->detail, sizeof(out->detail), "cannot run%s%s%s: %s",
			 at_exec ? "" : " (", at_exec ? "" : r->exec_stage,
			 at_exec ? "" : ")",
			 strerror(r->exec_errno));
	} else if (r->output_exceeded || r->stderr_exceeded) {
		set(out, VERDICT_OLE, VERDICT_LIMIT_NONE);
		snprintf(out->detail, sizeof(out->detail),
			 "output limit of %llu KiB exceeded on %s",
			 lim->output_bytes / 1024,
			 r->output_exceeded ? "standard output" : "standard error");
	} else if (r->cpu_exceeded) {
		set(out, VERDICT_TLE, VERDICT_LIMIT_CPU);
		snprintf(out->detail, sizeof(out->detail),
			 "CPU time limit of %.3g s exceeded", lim->cpu_sec);
	} else if (r->timed_out_wall) {
		set(out, VERDICT_TLE, VERDICT_LIMIT_WALL);
		snprintf(out->detail, sizeof(out->detail),
			 "wall-clock limit of %.3g s exceeded (CPU %ld ms: "
			 "sleeping or blocked?)", lim->wall_sec, r->cpu_ms);
	} else if ((mle = looks_like_mle(r, lim)) != 0) {
		set(out, VERDICT_MLE, VERDICT_LIMIT_NONE);
		if (mle == 5)
			snprintf(out->detail, sizeof(out->detail),
				 "the program (%llu MiB of code and static data) and "
				 "its libraries could not be loaded under the memory "
				 "limit of %llu MiB", lim->image_bytes >> 20,
				 lim->mem_bytes >> 20);
		else if (mle == 4)
			snprintf(out->detail, sizeof(out->detail),
				 "the memory limit of %llu MiB (files in /tmp and "
				 "/dev/shm included) was reached: killed by the OOM "
				 "killer", lim->mem_bytes >> 20);
		else if (mle == 3)
			snprintf(out->detail, sizeof(out->detail),
				 "the program's static data (%llu MiB) do not fit "
				 "the memory limit of %llu MiB, then %s",
				 lim->image_bytes >> 20, lim->mem_bytes >> 20,
				 death(r, how, sizeof(how)));
		else if (mle == 1)
			snprintf(out->detail, sizeof(out->detail),
				 "max RSS %ld KiB, within %d %% of the memory limit "
				 "of %llu MiB, then %s", r->max_rss_kb,
				 100 - VERDICT_MLE_RSS_PERCENT, lim->mem_bytes >> 20,
				 death(r, how, sizeof(how)));
		else
			snprintf(out->detail, sizeof(out->detail),
				 "an allocation failed under the memory limit of "
				 "%llu MiB (see stderr), then %s", lim->mem_bytes >> 20,
				 death(r, how, sizeof(how)));
	} else if (r->status == RUN_SIGNALED) {
		set(out, VERDICT_RTE, VERDICT_LIMIT_NONE);
		snprintf(out->detail, sizeof(out->detail), "killed by %s",
			 run_signal_name(r->term_signal));
	} else if (r->exit_code != 0) {
		set(out, VERDICT_RTE, VERDICT_LIMIT_NONE);
		snprintf(out->detail, sizeof(out->detail),
			 "exit status %d (the program must exit 0)", r->exit_code);
	}
}
