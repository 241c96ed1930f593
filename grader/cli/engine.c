/*
 * engine: the grading of one or more submissions against a suite
 * (engine.h). Theory of operation. The suite is loaded by the caller (its
 * cases' files are read only when each case runs: judge.h, so grade's
 * memory does not grow with the suite nor with an input's size). A
 * private scratch tree is made (scratch.h). Phase 1 builds every
 * submission directory (a job each); phase 2 runs every (submission,
 * case) pair, every visible case of every submission before any hidden
 * one (run_cases: a barrier across all slots); both phases go through the
 * same pool of -j worker threads, each owning a slot (scratch directory
 * and, as root, uid). Results land in preallocated arrays, so the report
 * is the same whatever the order jobs finished in. Then scores, the
 * terminal report, and the JSON/JUnit/Gradescope files.
 */
#include "grader/cli/engine.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "grader/cli/secrets.h"
#include "grader/run/readprobe.h"
#include "grader/run/build.h"
#include "grader/report/gradescope.h"
#include "grader/report/html.h"
#include "grader/judge/judge.h"
#include "grader/report/junit.h"
#include "grader/report/outfile.h"
#include "grader/run/pool.h"
#include "grader/run/runner.h"
#include "grader/report/report.h"
#include "grader/run/sandbox.h"
#include "grader/run/cgroup.h"
#include "grader/run/scratch.h"
#include "grader/lib/steptime.h"
#include "grader/judge/suite.h"
#include "grader/cli/guard.h"
#include "grader/cli/options.h"
#include "grader/lib/strbuf.h"
#include "grader/lib/usage.h"
#include "grader/lib/util.h"


/* Set by SIGINT/SIGTERM/SIGHUP: no new job starts; the runs in flight end
 * by their own limits; the scratch tree is removed; then the signal is
 * raised again with its default action. */
static volatile sig_atomic_t stop_signal;

/* Everything the jobs share. */
struct grading {
	const struct suite *suite;
	struct judge_config cfg;
	struct build_limits build_lim; /* the compiler's (suite.json) */
	struct scratch scratch;
	struct report_sub *subs;
	char (*progs)[4096];         /* per submission: the program to run */
	size_t nsubs;
	char **hide;                 /* NULL-terminated real paths masked from
	                                every program and compiler (root) */
	struct sandbox_slot **slots; /* per slot: its keeper (sandbox.h) */
	struct sandbox_layers layers;/* what slot 0 got (they all get the same) */
	int *cpus;                   /* per slot: its CPU, or -1 */
	int nslots;
	char *leaks;                 /* sandbox_leaks' lines ("": none) */
	size_t *order;               /* case jobs: submission * ncases + case,
	                                every visible one before any hidden */
	size_t phase;                /* first index of order of this pool_run */
	int scripts;                 /* a program given is not an ELF
	                                executable: the runs see the host */
	int gradings;                /* engine_run calls so far */
};

/* ---- setup ---- */

static int is_c_file(const char *path)
{
	size_t n = strlen(path);

	return n > 2 && !strcmp(path + n - 2, ".c");
}

/* is_dir[i]: 1 a directory of sources, 2 one .c file, 0 a program. */
static int check_submissions(char **paths, size_t n, int *is_dir)
{
	struct stat st;

	for (size_t i = 0; i < n; i++) {
		/* "dir/" and "dir" are one submission: report it without '/'. */
		for (size_t len = strlen(paths[i]); len > 1 && paths[i][len - 1] == '/';)
			paths[i][--len] = '\0';
		if (stat(paths[i], &st) < 0) {
			return error("cannot use submission '%s': %s", paths[i],
				     strerror(errno));
		}
		is_dir[i] = S_ISDIR(st.st_mode) ? 1
			    : S_ISREG(st.st_mode) && is_c_file(paths[i]) ? 2 : 0;
		if (!is_dir[i] && (!S_ISREG(st.st_mode) || access(paths[i], X_OK) < 0)) {
			return error("submission '%s' is not a program, a .c file "
				     "or a folder of C sources; give the folder that "
				     "holds your .c files", paths[i]);
		}
	}
	return 0;
}
/* The CPU slot `slot` keeps to (its worker thread, its keeper and so its
 * programs), or -1: when there are no more slots than CPUs grade may use,
 * each slot gets one of its own. A run is a relay (grade, keeper, program,
 * keeper, grade) and every wake-up across CPUs costs; on a VM one costs
 * more than the keeper's whole bookkeeping (~60 us a case measured here). */
static int slot_cpu(int slot, int nslots)
{
	cpu_set_t set;
	int seen = 0;

	if (sched_getaffinity(0, sizeof(set), &set) < 0 || CPU_COUNT(&set) < nslots)
		return -1;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set) && seen++ == slot)
			return cpu;
	return -1;
}

/* The calling worker thread onto its slot's CPU, once. */
static void pin_worker(const struct grading *g, int slot)
{
	static _Thread_local int pinned = -1;
	int cpu = g->cpus ? g->cpus[slot] : -1;
	cpu_set_t set;

	if (cpu < 0 || pinned == cpu)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set) == 0)
		pinned = cpu;
}

/* 1 when a program given as such (not built here) is not an ELF file: a
 * script needs the host's /bin/sh and more, which the minimal root has
 * not (staff's scripts; a student's submission is always built). */
static int is_script(const char *path)
{
	char magic[4] = { 0 };
	FILE *f = fopen(path, "rb");
	int script;

	if (!f)
		return 0;
	script = fread(magic, 1, 4, f) != 4 || memcmp(magic, "\177ELF", 4);
	fclose(f);
	return script;
}

static int any_script(const struct grading *g)
{
	for (size_t i = 0; i < g->nsubs; i++)
		if (!g->subs[i].is_dir && is_script(g->subs[i].path))
			return 1;
	return 0;
}

/* engine_keepers_output's descriptor, or -1. */
static int keepers_output = -1;

void engine_keepers_output(int fd)
{
	keepers_output = fd;
}

/* One keeper per slot, forked now, while grade is small (before any
 * report is built): each run's max RSS is then its own. Every keeper is
 * forked before the first is waited for: they build their layers at the
 * same time. */
static int open_slots(struct grading *g, const struct options *o)
{
	struct strbuf err = STRBUF_INIT;
	int rc = 0;

	g->slots = xcalloc((size_t)o->jobs, sizeof(*g->slots));
	g->cpus = xcalloc((size_t)o->jobs, sizeof(*g->cpus));
	for (int i = 0; i < o->jobs; i++)
		g->cpus[i] = slot_cpu(i, o->jobs);
	for (int i = 0; i < o->jobs; i++) {
		struct sandbox_config cfg = {
			.hide = (const char *const *)g->hide,
			.scratch = g->scratch.base,
			.tmp_bytes = (uint64_t)g->suite->tmp_mib << 20,
			.build_tmp_bytes = g->build_lim.tmp_bytes,
			.host_view = g->scripts,
			.slot = i,
			.no_namespaces = sandbox_namespaces_disabled(),
			.pin = g->cpus[i] >= 0, .cpu = g->cpus[i],
			.output_fd = keepers_output,
			.groups = sandbox_groups_slot(i),
		};
		scratch_slot_ids(&g->scratch, i, &cfg.uid, &cfg.gid);
		if (sandbox_start(&g->slots[i], &cfg, &err) < 0) {
			rc = error("%s", strbuf_str(&err));
			break;
		}
		g->nslots = i + 1;
	}
	sandbox_groups_end(g->nslots);
	for (int i = 0; i < g->nslots; i++) {
		struct sandbox_layers l;

		strbuf_reset(&err);
		if (sandbox_ready(&g->slots[i], &l, &err) < 0) {
			if (!rc)
				rc = error("%s", strbuf_str(&err));
			continue;
		}
		if (i == 0)
			g->layers = l;
	}
	strbuf_release(&err);
	return rc;
}

/* The compiler runs in the sandbox, where only the system's folders are
 * left: a $CC elsewhere (a wrapper in a course folder) is copied into the
 * scratch tree, where the keeper binds it like a program. */
static int reach_compiler(struct grading *g, int dirs)
{
	struct strbuf dst = STRBUF_INIT;
	char cc[4096], *real;
	int rc = 0;

	if (!dirs || !g->layers.mount_ns || build_find_compiler(cc, sizeof(cc)) < 0 ||
	    !(real = realpath(cc, NULL)))
		return 0;
	if (!sandbox_path_visible(real)) {
		wg_path_join(&dst, g->scratch.base, "bin/cc");
		if (strbuf_failed(&dst))
			die("out of memory");
		if (scratch_copy_file(real, dst.buf, 0755, 0) < 0)
			rc = error("cannot copy the compiler '%s': %s", real,
				   strerror(errno));
		else
			setenv("CC", dst.buf, 1);
	}
	strbuf_release(&dst);
	free(real);
	return rc;
}

/* Without a mount namespace, whether the programs can read the suite (and
 * the rest of the hide list, and the reference) is a question of file
 * modes: a read probe (readprobe.h) runs as a program of slot 0 and says.
 * NULL when there is nothing to ask (masks in force, or nothing hidden) or
 * the probe could not run (the account then assumes the worst). */
static char *probe_reads(struct grading *g)
{
	struct strbuf dir = STRBUF_INIT, out = STRBUF_INIT, err = STRBUF_INIT;
	char **secrets, *found = NULL;
	uid_t uid;
	gid_t gid;

	if (g->layers.mount_ns || !suite_hidden_cases(g->suite))
		return NULL;
	secrets = secrets_list(g->suite, (const char *const *)g->hide);
	scratch_slot_ids(&g->scratch, 0, &uid, &gid);
	if (sandbox_private_dirs(g->slots[0]))
		wg_path_join(&dir, g->scratch.base, "slot-0");
	else
		scratch_fresh_dir(&g->scratch, "slot-0", 0, &dir, &err);
	if (secrets && !err.len && !strbuf_failed(&dir) &&
	    readprobe_run(g->slots[0], g->scratch.base, dir.buf, uid, gid,
			  (const char *const *)secrets, &out, &err) == 0)
		found = strbuf_detach(&out, NULL);     /* "": nothing read */
	else
		warning("cannot tell what the programs can read: %s",
			err.len ? strbuf_str(&err) : "out of memory");
	secrets_free(secrets);
	strbuf_release(&out);
	strbuf_release(&dir);
	strbuf_release(&err);
	return found;
}

/* The sandbox's account (sandbox_leaks) into g->leaks, for the report. */
static void account(struct grading *g)
{
	const struct sandbox_layers *l = &g->layers;
	struct strbuf why = STRBUF_INIT;
	char *readable = probe_reads(g);

	if (sandbox_leaks(l, readable, &why) < 0)
		die("out of memory");
	free(readable);
	g->leaks = strbuf_detach(&why, NULL);
	if (!g->leaks)
		die("out of memory");
}

/* When the suite has something to hide: one warning per way it may leak
 * (the account), and one per layer whose absence changes a grade; before
 * each grading (a served one's go to its own log). */
static void warn_account(const struct grading *g, const struct options *o)
{
	const struct sandbox_layers *l = &g->layers;

	if (!suite_hidden_cases(g->suite) || o->quiet)
		return;
	for (const char *p = g->leaks; *p;) {
		size_t len = strcspn(p, "\n");
		warning("hidden tests may leak here: %.*s", (int)len, p);
		p += len + (p[len] == '\n');
	}
	if (!l->uid_switch && !l->user_ns)
		warning("the programs run as you and can "
			"signal grade");
	if (!(l->cgroup_caps & CG_CPU) && g->suite->processes > 1)
		warning("no cgroup: children's CPU time does "
			"not count");
}

/* Every limit that shapes a run comes from the suite and the options
 * alone, never from the shell grade was started from (an inherited
 * "ulimit -s unlimited" once turned a crash into MLE). */
static void set_limits(const struct options *o, const struct suite *s,
		       struct judge_config *cfg)
{
	double cpu = o->cpu_sec > 0 ? o->cpu_sec : s->cpu_seconds;
	long mem = o->memory_mib ? o->memory_mib : s->memory_mib;
	long out = o->output_kib ? o->output_kib : s->output_kib;
	double wall = o->wall_sec > 0 ? o->wall_sec : s->wall_seconds;

	memset(cfg, 0, sizeof(*cfg));
	cfg->lim.cpu_sec = cpu;
	cfg->lim.wall_sec = wall > 0 ? wall : (3 * cpu > cpu + 2 ? 3 * cpu : cpu + 2);
	cfg->lim.mem_bytes = (uint64_t)mem << 20;
	/* The stack may use all of the memory, as in CMS; set_stack() may
	 * lower that default once the sandbox says what counts memory. */
	cfg->lim.stack_bytes = (uint64_t)(s->stack_mib ? s->stack_mib : mem) << 20;
	cfg->lim.output_bytes = (uint64_t)out << 10;
	/* Files a child writes in its scratch directory: no more than it may
	 * print. */
	cfg->lim.fsize_bytes = (uint64_t)out << 10;
	cfg->lim.stderr_bytes = 64 * 1024;
	cfg->lim.stderr_kill_bytes = (uint64_t)out << 10;
	cfg->lim.nofile = 64;
	/* RLIMIT_NPROC counts every process of the uid (of the user
	 * namespace): the slot's own uid as root, the keeper and the program
	 * in a user namespace. Not root and without one, it counts the user's
	 * whole session: 1 still means "no fork", but a higher limit cannot
	 * be expressed, so none is set. */
	cfg->lim.nproc = s->processes;
	cfg->exact = o->exact;
	cfg->line_map = s->line_map;
	cfg->diff = (struct diff_opts)DIFF_OPTS_INIT;
	cfg->diff.exact = o->exact;
}

/* The default stack (no "stack_mib"), once the slots are open. glibc gives
 * each new thread a stack of RLIMIT_STACK's size. Where a memory cgroup
 * counts memory in use that reserves nothing that counts, and the stack
 * stays the memory limit (recursion may use all of it, as in CMS). Where
 * the limit is the address space (no memory cgroup) and threads are
 * allowed (processes > 1), `processes` stacks of the memory limit could
 * never fit, and pthread_create would fail (EAGAIN): each gets the memory
 * limit / (2 x processes), half the address space for the stacks and half
 * for the rest. docs/suites.md "Limits" says the same. */
static void set_stack(const struct suite *s, const struct sandbox_layers *l,
		      struct judge_config *cfg)
{
	if (s->stack_mib || (l->cgroup_caps & CG_MEM) || cfg->lim.nproc <= 1)
		return;
	uint64_t share = cfg->lim.mem_bytes / (2 * (uint64_t)cfg->lim.nproc);

	cfg->lim.stack_bytes = share < ((uint64_t)1 << 20) ? (uint64_t)1 << 20 : share;
}

/* The compiler's limits: suite.json's "build_limits" (defaults in build.h). */
static void set_build_limits(const struct suite *s, struct build_limits *b)
{
	*b = (struct build_limits)BUILD_LIMITS_INIT;
	b->cpu_sec = s->build.cpu_seconds;
	b->wall_sec = s->build.wall_seconds;
	b->mem_bytes = (uint64_t)s->build.memory_mib << 20;
	b->nproc = s->build.processes;
	b->fsize_bytes = (uint64_t)s->build.file_size_mib << 20;
	b->output_bytes = (size_t)s->build.output_kib << 10;
	b->tmp_bytes = (uint64_t)s->build.tmp_mib << 20;
}

/* ---- jobs ---- */

static void on_stop(int sig)
{
	stop_signal = sig;
}

static void build_job(void *ctx, size_t i, int slot)
{
	struct grading *g = ctx;
	struct report_sub *sub = &g->subs[i];
	char name[64];
	struct strbuf dir = STRBUF_INIT, why = STRBUF_INIT;
	struct build_limits lim = BUILD_LIMITS_INIT;
	struct build_result br;
	uid_t uid;
	gid_t gid;

	snprintf(g->progs[i], sizeof(g->progs[i]), "%s/bin/sub-%zu", g->scratch.base, i);
	if (stop_signal)
		return;
	if (!sub->is_dir) {
		if (scratch_copy_file(sub->path, g->progs[i], SCRATCH_PROGRAM_MODE, 0) < 0) {
			sub->build = BUILD_ERROR;
			strbuf_addf(&why, "cannot copy '%s': %s", sub->path,
				    strerror(errno));
			/* NULL when memory ran out: the case says so. */
			sub->build_log = strbuf_detach(&why, NULL);
		}
		sub->image_bytes = build_image_size(g->progs[i]);
		return;
	}
	snprintf(name, sizeof(name), "build-%zu", i);
	scratch_slot_ids(&g->scratch, slot, &uid, &gid);
	if (scratch_fresh_dir(&g->scratch, name, slot, &dir, &why) < 0) {
		sub->build = BUILD_ERROR;
		sub->build_log = strbuf_detach(&why, NULL);
		strbuf_release(&dir);
		return;
	}
	lim = g->build_lim;
	lim.sbx = g->slots[slot];
	build_submission(sub->path, dir.buf, uid, gid, &lim, &br);
	/* Never by path: the build may have swapped "prog" for a link. */
	if (br.status == BUILD_OK)
		build_take_program(dir.buf, uid, g->progs[i], &br);
	sub->build = br.status;
	sub->build_log = br.log;
	snprintf(sub->build_reason, sizeof(sub->build_reason), "%s", br.reason);
	if (sub->build == BUILD_OK)
		sub->image_bytes = build_image_size(g->progs[i]);
	scratch_remove_tree(dir.buf);
	strbuf_release(&dir);
}

/* Without private areas, the run's program is a copy in its working
 * folder dir (fresh for the case, the slot uid's, 0700), the grader's and
 * 0755: BASE/bin is the grader's alone (SCRATCH_PROGRAM_MODE), so a slot
 * uid reaches no program but the one it runs. Its path into *prog, or the
 * reason into err. */
static void run_program_copy(const char *src, const struct strbuf *dir,
			     struct strbuf *prog, struct strbuf *err)
{
	const char *slash = strrchr(src, '/');

	wg_path_join(prog, dir->buf, slash ? slash + 1 : src);
	if (!strbuf_failed(prog) && scratch_copy_file(src, prog->buf, 0755, 0) < 0)
		strbuf_addf(err, "cannot copy the program into '%s': %s", dir->buf,
			    strerror(errno));
}

/* A case that did not run because the build did not give a program. */
static void unbuilt_case(const struct report_sub *sub, struct judge_result *r)
{
	memset(r, 0, sizeof(*r));
	if (sub->build == BUILD_FAILED) {
		r->verdict = VERDICT_CE;
		snprintf(r->detail, sizeof(r->detail), "%s", sub->build_reason[0]
			 ? sub->build_reason : "compilation failed");
	} else {
		r->verdict = VERDICT_IE;
		snprintf(r->detail, sizeof(r->detail), "grader failure: %s",
			 sub->build_log ? sub->build_log : "cannot prepare the program");
		char *nl = strchr(r->detail, '\n');
		if (nl)
			*nl = '\0';
	}
}

static int first_case = 1;

static void case_job(void *ctx, size_t job, int slot)
{
	struct grading *g = ctx;

	pin_worker(g, slot);
	job = g->order[g->phase + job];
	size_t si = job / g->suite->ncases, ci = job % g->suite->ncases;
	struct report_sub *sub = &g->subs[si];
	struct judge_result *r = &sub->cases[ci];
	struct strbuf dir = STRBUF_INIT, prog = STRBUF_INIT, err = STRBUF_INIT;
	char name[32];
	uid_t uid;
	gid_t gid;

	if (stop_signal)
		return;
	if (sub->build != BUILD_OK) {
		unbuilt_case(sub, r);
		return;
	}
	snprintf(name, sizeof(name), "slot-%d", slot);
	/* With private folders the keeper makes the working folder inside
	 * its own tmpfs (and copies the program there); the host's stays
	 * unused. */
	if (sandbox_private_dirs(g->slots[slot]))
		wg_path_join(&dir, g->scratch.base, name);
	else if (scratch_fresh_dir(&g->scratch, name, slot, &dir, &err) == 0)
		run_program_copy(g->progs[si], &dir, &prog, &err);
	if (err.len || strbuf_failed(&dir) || strbuf_failed(&prog)) {
		memset(r, 0, sizeof(*r));
		r->verdict = VERDICT_IE;
		snprintf(r->detail, sizeof(r->detail), "grader failure: %.300s",
			 err.len ? err.buf : "out of memory");
	} else {
		const struct suite_case *sc = &g->suite->cases[ci];
		/* Where a crash or time-out stopped is searched for (reruns
		 * on starts of the input, judge.h) only where a student sees
		 * it: a visible case. */
		struct judge_data d = { sc->in_path, sc->out_path, !sc->hidden };

		scratch_slot_ids(&g->scratch, slot, &uid, &gid);
		judge_case(&g->cfg, prog.len ? prog.buf : g->progs[si], sub->image_bytes,
			   dir.buf, uid, gid, g->slots[slot], &d, sc->points, r);
		/* The copy, and whatever the run left, go now, not at the
		 * slot's next case: the slot uid outlives the student (the
		 * next one's compiler runs as it under grade --serve, and read
		 * the last copy: a red-team submission embedded a classmate's
		 * program with .incbin). */
		if (prog.len)   /* a failure here is the next case's IE */
			scratch_fresh_dir(&g->scratch, name, slot, &dir, &err);
		/* The first case judged: against a later one, what a cold
		 * start costs (the account of make bench-grade). */
		if (steptime_on() && __atomic_exchange_n(&first_case, 0, __ATOMIC_RELAXED))
			steptime_mark("grade", "first-case-judged");
	}
	strbuf_release(&dir);
	strbuf_release(&prog);
	strbuf_release(&err);
}

/* The hidden-last barrier. Every visible case of every submission runs
 * first; pool_run returns only when all of them have ended, in every slot;
 * then the hidden cases run. So whatever a hidden case could leave behind
 * (a file the cleanup missed, a cache's state, a counter no namespace
 * resets) can reach no visible result of this grade, whichever layers
 * held. The promise is per grading (engine_run): grade --batch grades
 * each student alone (a slot's grade --serve runs one grading after
 * another, a student's hidden cases before the next student's visible
 * ones: what one student's program left is the per-case renewal's to
 * clear, as between two cases). Results land in place, so the report
 * keeps the suite's order. */
static void run_cases(struct grading *g, int jobs)
{
	size_t nc = g->suite->ncases, n = g->nsubs * nc, nvis = 0, k = 0;

	g->order = xcalloc(n ? n : 1, sizeof(*g->order));
	for (int hidden = 0; hidden <= 1; hidden++)
		for (size_t si = 0; si < g->nsubs; si++)
			for (size_t ci = 0; ci < nc; ci++)
				if ((g->suite->cases[ci].hidden != 0) == hidden)
					g->order[k++] = si * nc + ci;
	for (size_t ci = 0; ci < nc; ci++)
		nvis += !g->suite->cases[ci].hidden;
	nvis *= g->nsubs;
	g->phase = 0;
	pool_run(nvis, jobs, case_job, g);
	g->phase = nvis;
	pool_run(n - nvis, jobs, case_job, g);
}

/* ---- reports ---- */

struct exporter_arg {
	int (*write)(FILE *f, const json_t *report);
	const json_t *report;
};

static int put_exporter(FILE *f, const void *arg)
{
	const struct exporter_arg *a = arg;

	return a->write(f, a->report);
}

/* Through outfile.h: a new private temporary file, fsync and rename, so a
 * reader (run_autograder, a CI job) sees the old file or the whole new
 * one, and a link planted at the path is replaced, never followed. */
static int write_exporter(const char *path,
			  int (*write)(FILE *f, const json_t *report),
			  const json_t *report)
{
	struct exporter_arg a = { write, report };
	struct strbuf err = STRBUF_INIT;
	int rc = 0;

	if (outfile_write(path, put_exporter, &a, &err) < 0)
		rc = error("%s", strbuf_str(&err));
	strbuf_release(&err);
	return rc;
}

/* The report files the options ask for, in one list for the check before
 * grading and the writing after: the JSON (write NULL: report_write_json,
 * which alone takes "-") and the exporters. Returns how many. */
struct output {
	const char *path;
	int (*write)(FILE *f, const json_t *report);
};

static size_t outputs(const struct options *o, struct output out[4])
{
	const struct output all[] = {
		{ o->json, NULL }, { o->junit, junit_write },
		{ o->gradescope, gradescope_write }, { o->html, html_write },
	};
	size_t n = 0;

	for (size_t i = 0; i < sizeof(all) / sizeof(*all); i++)
		if (all[i].path)
			out[n++] = all[i];
	return n;
}

/* Before grading: a report path a sandboxed program could redirect is
 * refused at once (outfile.h), not after every case has run. */
static int check_report_paths(const struct options *o)
{
	struct output out[4];
	size_t n = outputs(o, out);
	struct strbuf err = STRBUF_INIT;
	int rc = 0;

	for (size_t i = 0; !rc && i < n; i++)
		if (strcmp(out[i].path, "-") && outfile_check(out[i].path, &err) < 0)
			rc = error("%s", strbuf_str(&err));
	strbuf_release(&err);
	return rc;
}

static int write_reports(const struct options *o, const json_t *report)
{
	struct output out[4];
	size_t n = outputs(o, out);
	struct strbuf err = STRBUF_INIT;
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		if (out[i].write) {
			if (write_exporter(out[i].path, out[i].write, report) < 0)
				rc = -1;
			continue;
		}
		strbuf_reset(&err);
		if (report_write_json(report, out[i].path, &err) < 0)
			rc = error("%s", strbuf_str(&err));
	}
	strbuf_release(&err);
	return rc;
}

static int final_status(const struct grading *g)
{
	int all_ac = 1;

	for (size_t i = 0; i < g->nsubs; i++) {
		if (g->subs[i].total.counts[VERDICT_IE])
			return WG_EXIT_INTERNAL;
		all_ac &= g->subs[i].total.counts[VERDICT_AC] == (int)g->suite->ncases;
	}
	return all_ac ? WG_EXIT_ALL_AC : WG_EXIT_NOT_AC;
}

static int report_all(struct grading *g, const struct options *o)
{
	struct output out[4];
	struct report_opts ro = {
		.color = o->color >= 0 ? o->color
			 : isatty(STDOUT_FILENO) && !(getenv("NO_COLOR") && *getenv("NO_COLOR")),
		.quiet = o->quiet, .verbose = o->verbose, .staff = o->staff,
		.exact = o->exact, .cpu_sec = g->cfg.lim.cpu_sec,
		.wall_sec = g->cfg.lim.wall_sec,
		.memory_mib = (long)(g->cfg.lim.mem_bytes >> 20),
		.output_kib = (long)(g->cfg.lim.output_bytes >> 10),
		.stack_mib = (long)(g->cfg.lim.stack_bytes >> 20),
		.processes = g->suite->processes, .tmp_mib = g->suite->tmp_mib,
		.sandbox = &g->layers, .leaks = g->leaks,
		.build = &g->build_lim,
	};

	for (size_t i = 0; i < g->nsubs; i++)
		if (score_submission(g->suite, g->subs[i].cases, &g->subs[i].total) < 0)
			die("out of memory");
	report_print(stdout, g->suite, g->subs, g->nsubs, &ro);
	fflush(stdout);
	if (outputs(o, out) > 0) {
		json_t *report = report_json(g->suite, g->subs, g->nsubs, &ro);
		int rc = report ? write_reports(o, report) : -1;
		if (!report)
			error("out of memory building the JSON report");
		json_decref(report);
		if (rc < 0)
			return WG_EXIT_INTERNAL;
	}
	return final_status(g);
}

int engine_servable(const struct grading *g, const char *path, int is_dir,
		    struct strbuf *why)
{
	char *real = realpath(path, NULL);
	int hidden = 0;

	for (size_t i = 0; real && g->hide[i] && !hidden; i++)
		hidden = wg_path_within(real, g->hide[i]);
	free(real);
	if (!hidden) {
		strbuf_addf(why, "'%s' is in no hidden folder (--hide): another "
			    "submission's programs could read it", path);
		return 0;
	}
	if (!is_dir && !g->scripts && is_script(path)) {
		strbuf_addf(why, "'%s' is not an ELF program: a script needs the "
			    "host's view of the system, which these slots do not "
			    "give", path);
		return 0;
	}
	return 1;
}

/* What one grading made: the submissions' results, their programs. */
static void release_subs(struct grading *g)
{
	for (size_t i = 0; g->subs && i < g->nsubs; i++) {
		for (size_t k = 0; g->subs[i].cases && k < g->suite->ncases; k++)
			judge_result_release(&g->subs[i].cases[k]);
		free(g->subs[i].cases);
		free(g->subs[i].build_log);
		score_release(&g->subs[i].total);
		/* The next grading's program is a new file (its own inode and
		 * ctime: the keeper copies it afresh). */
		if (g->progs && g->progs[i][0])
			unlink(g->progs[i]);
	}
	free(g->subs);
	free(g->progs);
	free(g->order);
	g->subs = NULL;
	g->progs = NULL;
	g->order = NULL;
	g->nsubs = 0;
}

void engine_close(struct grading *g)
{
	if (!g)
		return;
	release_subs(g);
	free(g->leaks);
	guard_free_list(g->hide);
	/* The keepers end (spawners, cgroups, namespaces) while grade
	 * removes the scratch tree: no run is left to use it. The uids are
	 * let go only once every keeper is gone (scratch_cleanup). */
	for (int i = 0; g->slots && i < g->nslots; i++)
		sandbox_close_begin(g->slots[i]);
	scratch_remove_base(&g->scratch);
	steptime_mark("grade", "scratch-tree-removed");
	for (int i = 0; g->slots && i < g->nslots; i++)
		sandbox_close(g->slots[i]);
	steptime_mark("grade", "keepers-ended");
	free(g->slots);
	free(g->cpus);
	scratch_cleanup(&g->scratch);
	steptime_mark("grade", "uids-released");
	free(g);
}

/* The submissions of one grading, as report_subs (paths borrowed); s
 * NULL: their names alone, no room for results (engine_open's hide list). */
static struct report_sub *new_subs(const struct suite *s, char **paths, size_t n,
				   const int *is_dir)
{
	struct report_sub *subs = xcalloc(n ? n : 1, sizeof(*subs));

	for (size_t i = 0; i < n; i++) {
		subs[i].path = paths[i];
		subs[i].is_dir = is_dir[i];
		subs[i].build = BUILD_OK;
		if (s)
			subs[i].cases = xcalloc(s->ncases ? s->ncases : 1,
						sizeof(struct judge_result));
	}
	return subs;
}

int engine_open(struct grading **out, const struct options *o,
		const struct suite *s, char **paths, size_t n, const int *is_dir)
{
	struct grading *g = xcalloc(1, sizeof(*g));
	struct strbuf err = STRBUF_INIT;
	int rc = WG_EXIT_INTERNAL, dirs = !paths;

	*out = g;
	g->suite = s;
	if (scratch_init(&g->scratch, o->jobs, &err) < 0) {
		error("%s", strbuf_str(&err));
		strbuf_release(&err);
		return rc;
	}
	steptime_mark("grade", "scratch-made");
	set_limits(o, s, &g->cfg);
	set_build_limits(s, &g->build_lim);
	/* The submissions named now are hidden from every program (each
	 * other's too); a served one must lie in a hidden folder already
	 * (engine_serve_check). */
	g->subs = new_subs(NULL, paths, n, is_dir);
	g->nsubs = n;
	for (size_t i = 0; i < n; i++)
		dirs |= is_dir[i] != 0;
	g->scripts = any_script(g);
	g->hide = guard_hide_list(s->dir, g->subs, n, o->hide, o->nhide,
				  g->scratch.base);
	release_subs(g);
	if (!g->hide)
		return WG_EXIT_USAGE;
	steptime_mark("grade", "hide-list");
	if (guard_check_suid_dumpable() < 0 || open_slots(g, o) < 0 ||
	    reach_compiler(g, dirs) < 0)
		return rc;
	steptime_mark("grade", "keepers-ready");
	set_stack(s, &g->layers, &g->cfg);
	account(g);
	wg_stop_signals(on_stop);
	return 0;
}

/* Before a grading after the first: every slot's sandbox made anew
 * (sandbox_renew), so that nothing the last grading's programs did shows
 * in this one's world, renewed or not. 0, or -1 (reported). */
static int renew_slots(struct grading *g)
{
	struct strbuf err = STRBUF_INIT;
	int rc = 0;

	for (int i = 0; i < g->nslots && !rc; i++)
		if (sandbox_renew(g->slots[i], &err) < 0)
			rc = error("%s", strbuf_str(&err));
	strbuf_release(&err);
	return rc;
}

int engine_run(struct grading *g, const struct options *o, char **paths,
	       size_t n, const int *is_dir)
{
	int rc = WG_EXIT_INTERNAL;

	if (g->gradings++ && renew_slots(g) < 0)
		return rc;
	g->subs = new_subs(g->suite, paths, n, is_dir);
	g->progs = xcalloc(n ? n : 1, sizeof(*g->progs));
	g->nsubs = n;
	warn_account(g, o);
	pool_run(n, o->jobs, build_job, g);
	steptime_mark("grade", "programs-placed");
	run_cases(g, o->jobs);
	steptime_mark("grade", "cases-run");
	if (!stop_signal)
		rc = report_all(g, o);
	steptime_mark("grade", "reported");
	release_subs(g);
	return rc;
}

int engine_grade(const struct options *o, const struct suite *s, char **paths,
		 size_t n, const int *is_dir)
{
	struct grading *g;
	int rc = engine_open(&g, o, s, paths, n, is_dir);

	if (!rc)
		rc = engine_run(g, o, paths, n, is_dir);
	engine_close(g);
	return rc;
}

/* The submissions and the report paths, before anything is set up: 0, or
 * WG_EXIT_USAGE (reported). */
int engine_check_paths(char **paths, size_t n, int *is_dir,
		       const struct options *o)
{
	if (check_submissions(paths, n, is_dir) < 0 || check_report_paths(o) < 0)
		return WG_EXIT_USAGE;
	return 0;
}

int engine_stop_signal(void)
{
	return (int)stop_signal;
}
