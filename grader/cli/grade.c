/*
 * grade: the program: a table of modes (git's builtins), each the command
 * line of one part of the grader. The plain mode,
 *
 *   grade [OPTIONS] SUITE_DIR SUBMISSION...
 *
 * loads the suite, checks the submissions' paths and the report paths,
 * and runs the engine (engine.h). Every mode's exit status: 0 every case
 * AC; 1 graded, not all AC; 2 usage, suite or submission-path error; 3
 * internal error (an IE verdict anywhere, or the grader could not set
 * itself up).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grader/cli/batch.h"
#include "grader/cli/checkenv.h"
#include "grader/cli/engine.h"
#include "grader/cli/options.h"
#include "grader/cli/serve.h"
#include "grader/cli/similarity_cmd.h"
#include "grader/cli/suitereport_cmd.h"
#include "grader/judge/suite.h"
#include "grader/lib/steptime.h"
#include "grader/lib/strbuf.h"
#include "grader/lib/usage.h"
#include "grader/lib/util.h"
#include "grader/report/gradescope.h"
#include "grader/report/outfile.h"
#include "grader/run/readprobe.h"
#include "grader/run/runner.h"
#include "grader/run/sandbox.h"
#include "grader/run/scratch.h"

struct env_words {
	const char **hide, **pos;
	size_t nhide, npos;
	long base;
};

/* One word of --check-env's command line (options_walk). */
static int env_word(void *ctx, int argc, char **argv, int *i,
		    const struct cli_option *o, int positional)
{
	struct env_words *w = ctx;
	const char *arg = argv[*i];
	struct strbuf err = STRBUF_INIT;

	(void)o;
	if (positional) {
		w->pos[w->npos++] = arg;
	} else if (options_is(arg, "--uid-base")) {
		if (wg_parse_long("--uid-base", options_value(argc, argv, i), 1000,
				  2000000000L, &w->base, &err) < 0)
			die_usage("%s", strbuf_str(&err));
	} else if (options_is(arg, "--hide")) {
		w->hide[w->nhide++] = options_value(argc, argv, i);
	} else if (strcmp(arg, "--check-env")) {
		die_usage("--check-env takes --uid-base, --hide, a SUITE_DIR and "
			  "SUBMISSIONs, not '%s'", arg);
	}
	return 0;
}

/* grade --check-env [--uid-base UID] [--hide DIR]... [SUITE_DIR
 * [SUBMISSION...]], the options in any order around --check-env;
 * WG_UID_BASE as for grading (empty: unset). checkenv.h. */
static int check_env(int argc, char **argv)
{
	struct env_words w = { xcalloc((size_t)argc, sizeof(*w.hide)),
			       xcalloc((size_t)argc, sizeof(*w.pos)), 0, 0,
			       RUN_SLOT_UID_BASE };
	const char *env = getenv("WG_UID_BASE");
	struct strbuf err = STRBUF_INIT;
	int rc;

	if (env && *env && wg_parse_long("WG_UID_BASE", env, 1000, 2000000000L,
					 &w.base, &err) < 0)
		die_usage("%s", strbuf_str(&err));
	options_walk(argc, argv, OPTIONS_DASHDASH, env_word, &w);
	run_set_slot_uid_base((uid_t)w.base);
	struct checkenv_opts o = { .suite_dir = w.npos ? w.pos[0] : NULL,
				   .hide = w.hide, .subs = w.npos ? w.pos + 1 : NULL };
	rc = checkenv_main(&o);
	strbuf_release(&err);
	free(w.hide);
	free(w.pos);
	return rc;
}

/* grade --validate-gradescope FILE: 0 when FILE is a results.json that
 * Gradescope accepts (gradescope.h), else 2 with the reason. */
static int validate_gradescope(int argc, char **argv)
{
	struct strbuf err = STRBUF_INIT;
	int rc = WG_EXIT_ALL_AC;

	if (argc != 3)
		die_usage("--validate-gradescope takes one FILE");
	if (gradescope_validate_file(argv[2], &err) < 0) {
		error("%s", strbuf_str(&err));
		rc = WG_EXIT_USAGE;
	}
	strbuf_release(&err);
	return rc;
}

static int grade_main(int argc, char **argv)
{
	struct options o;
	struct suite s = { 0 };
	struct strbuf err = STRBUF_INIT;
	int first = options_parse(argc, argv, &o), rc;

	if (!first) {
		options_release(&o);
		return WG_EXIT_ALL_AC;   /* --help, --version */
	}
	/* First of all: the slots' cgroups, in a thread (sandbox.h). */
	sandbox_groups_begin(o.jobs);
	run_set_slot_uid_base((uid_t)o.uid_base);
	outfile_set_sandbox_ids(run_slot_uid(0), run_slot_uid(SCRATCH_UID_RANGE));
	if (suite_load(&s, argv[first], &err) < 0) {
		error("%s", strbuf_str(&err));
		strbuf_release(&err);
		options_release(&o);
		return WG_EXIT_USAGE;
	}
	strbuf_release(&err);
	steptime_mark("grade", "suite-loaded");
	if (o.serve) {
		rc = serve_main(&o, &s);
		options_release(&o);
		suite_free(&s);
		return rc;
	}
	size_t n = (size_t)(argc - first - 1);
	int *is_dir = xcalloc(n, sizeof(*is_dir));
	rc = engine_check_paths(argv + first + 1, n, is_dir, &o);
	if (!rc)
		rc = engine_grade(&o, &s, argv + first + 1, n, is_dir);
	free(is_dir);
	options_release(&o);
	suite_free(&s);
	return rc;
}

#ifdef __SANITIZE_ADDRESS__
/* The sanitizer build (make sanitize): LeakSanitizer needs ptrace, which
 * the sandbox's seccomp filter refuses the read probe, and then fails the
 * probe with a fatal error. The probe alone runs without the leak check;
 * grade itself keeps it. */
static int probe_mode;
int __lsan_is_turned_off(void);
int __lsan_is_turned_off(void)
{
	return probe_mode;
}
#endif

/* ---- the modes ---- */

enum { MODE_VALUE = 1, MODE_FIRST = 2 };

/* grade's modes besides the plain one, each found by its option anywhere
 * before "--" (MODE_VALUE: "--option=VALUE" too; MODE_FIRST: only as the
 * first argument). A lower rank wins whatever the order on the line; in
 * one rank the first option on the line does. */
static const struct mode {
	const char *option;
	int rank;
	unsigned flags;
	int (*main)(int argc, char **argv);
} modes[] = {
	{ "--batch", 0, 0, batch_main },
	{ "--merge", 0, 0, batch_merge_main },
	{ "--suite-report", 1, 0, suitereport_main },
	{ "--similarity", 1, MODE_VALUE, similarity_main },
	{ "--check-env", 2, 0, check_env },
	{ "--validate-gradescope", 3, MODE_FIRST, validate_gradescope },
};
#define NMODES (sizeof(modes) / sizeof(modes[0]))

static int is_mode(const struct mode *m, const char *arg, int i)
{
	size_t n = strlen(m->option);

	if ((m->flags & MODE_FIRST) && i != 1)
		return 0;
	if (strncmp(arg, m->option, n))
		return 0;
	return !arg[n] || ((m->flags & MODE_VALUE) && arg[n] == '=');
}

static const struct mode *find_mode(int argc, char **argv)
{
	for (int rank = 0; rank <= modes[NMODES - 1].rank; rank++)   /* by rank */
		for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
			for (size_t k = 0; k < NMODES; k++)
				if (modes[k].rank == rank && is_mode(&modes[k], argv[i], i))
					return &modes[k];
	return NULL;
}

int main(int argc, char **argv)
{
	const struct mode *m;
	int rc;

	/* The read probe (readprobe.h): grade's copy, run as a program of a
	 * slot; nothing of grade's own set-up applies to it. */
	if (argc == 2 && !strcmp(argv[1], "--probe-read")) {
#ifdef __SANITIZE_ADDRESS__
		probe_mode = 1;
#endif
		return readprobe_main();
	}

	/* Not dumpable: a program running under our own uid (no root, a user
	 * namespace) could otherwise read our memory, the expected outputs
	 * included, through /proc/PID/mem or environ. Root-owned /proc
	 * entries and no ptrace; inherited by the keepers and batch's
	 * graders, reset by every exec of a program. */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	steptime_init();
	steptime_mark("grade", "main");
	/* Where the sandbox's helpers blank it (util.h). */
	wg_save_args(argc, argv);
	/* Every file grade makes is private: reports hold hidden diffs. */
	umask(077);
	m = find_mode(argc, argv);
	if (m)
		return m->main(argc, argv);
	signal(SIGPIPE, SIG_IGN);
	rc = grade_main(argc, argv);
	if (engine_stop_signal()) {
		signal(engine_stop_signal(), SIG_DFL);
		raise(engine_stop_signal());
	}
	return rc;
}
