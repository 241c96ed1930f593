/*
 * batch_options: grade --batch's command line. The options are grade's one
 * table (options.h): batch takes its own (-j, --uid-base, --out, ...),
 * refuses the report files, and passes every other word, with the value of
 * an option that takes one, to each student's grade.
 */
#include "grader/cli/batch_int.h"

#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grader/cli/options.h"
#include "grader/lib/strbuf.h"
#include "grader/lib/usage.h"
#include "grader/lib/util.h"

void batch_usage(FILE *f)
{
	fputs("usage: grade --batch SUITE_DIR SUBMISSIONS_DIR --out DIR "
	      "[-j N] [--force]\n"
	      "                   [--shard K/N] "
	      "(grade only shard K of N of the class)\n"
	      "                   [--student-timeout SECONDS] [--quiet] "
	      "[--grade-per-student] [grade options...]\n"
	      "                   [--similarity-base FILE]... "
	      "[--similarity-* ...] (docs/similarity.md)\n"
	      "                   [--roster FILE] [--assignment TITLE] "
	      "(the LMS imports)\n"
	      "Grades every subdirectory of SUBMISSIONS_DIR (one student "
	      "each: the one folder\n"
	      "in it that holds .c files, at any depth) and writes\n"
	      "DIR/students/NAME.json, DIR/students/NAME.html (the student's "
	      "page),\nDIR/logs/NAME.log, DIR/gradebook.csv, DIR/canvas.csv, "
	      "DIR/moodle.csv, DIR/summary.txt,\n"
	      "DIR/summary.json and DIR/report.html. A student graded before "
	      "whose sources,\n"
	      "suite and options are unchanged is skipped (--force regrades "
	      "everyone). -j\n"
	      "defaults to the number of CPUs less one. Other options "
	      "(--time-limit, --exact, ...)\n"
	      "go to each grading. The similarity of the class (which "
	      "students share code) goes\n"
	      "to summary.json, report.html and the terminal. Each of the "
	      "-j slots grades its\n"
	      "students one after another through one grader (grade --serve) "
	      "whose sandbox is\n"
	      "set up once; --grade-per-student starts a grade process per "
	      "student instead.\n", f);
}

long batch_default_jobs(void)
{
	cpu_set_t set;
	long n = 0;

	if (sched_getaffinity(0, sizeof set, &set) == 0)
		n = CPU_COUNT(&set);
	if (n <= 0)
		n = sysconf(_SC_NPROCESSORS_ONLN);
	/* Leave one core to the grader and the system. */
	return n > 1 ? n - 1 : 1;
}

/* A number for an option of batch's own, in [lo, hi], else a usage
 * error: "NAME: 'V' is not WHAT". */
static long number_or_die(const char *name, const char *v, long lo, long hi,
			  const char *what)
{
	struct strbuf err = STRBUF_INIT;
	long n;

	/* batch's own messages, not wg_parse_long's: they are documented. */
	if (wg_parse_long(name, v, lo, hi, &n, &err) < 0)
		die_usage("%s: '%s' is not %s", name, v, what);
	strbuf_release(&err);
	return n;
}

/* The word's option name, without any "=value": "--out", "-j". */
static char *option_name(const char *arg)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add(&sb, arg, strcspn(arg, "="));
	if (strbuf_failed(&sb))
		die("out of memory");
	return strbuf_detach(&sb, NULL);
}

/* One option of batch's own (OPTF_BATCH_OWN or OPTF_BATCH_ONLY); 1 when
 * it is --help. */
static int own_option(struct batch *b, const struct cli_option *o, int argc,
		      char **argv, int *i)
{
	const char *v = o->has_arg == required_argument ?
			options_value(argc, argv, i) : NULL;

	switch (o->id) {
	case 'h': return 1;
	case 'q': b->quiet = 1; break;
	case OPT_FORCE: b->force = 1; break;
	case OPT_OUT_DIR: b->out = v; break;
	case 'j':
		b->jobs = number_or_die("-j", v, 1, 1024,
					"a number from 1 to 1024");
		break;
	case OPT_UID_BASE:
		b->uid_base = number_or_die("--uid-base", v, 1000, LONG_MAX,
					    "a uid of 1000 or more");
		break;
	case OPT_SHARD: {
		struct strbuf err = STRBUF_INIT;

		if (shard_parse(v, &b->shard, &err) < 0)
			die_usage("%s", strbuf_str(&err));
		strbuf_release(&err);
		break;
	}
	case OPT_MERGE:
		die_usage("--merge and --batch exclude each other");
	case OPT_SIM_VALUE:
		similarity_option(&b->sim, o->name, v);
		break;
	case OPT_SIMILARITY:
	case OPT_TOP:
		die_usage("'--%s' is not available with --batch (the batch's "
			  "report has the similarity)", o->name);
	case OPT_ROSTER: b->roster_path = v; break;
	case OPT_ASSIGNMENT:
		if (!*v)
			die_usage("--assignment: the title is empty");
		b->assignment = v;
		break;
	case OPT_STUDENT_TIMEOUT: {
		struct strbuf err = STRBUF_INIT;

		if (wg_parse_seconds("--student-timeout", v, HUGE_VAL,
				     &b->student_timeout, &err) < 0)
			die_usage("--student-timeout: '%s' is not a positive "
				  "number of seconds", v);
		strbuf_release(&err);
		break;
	}
	case OPT_GRADE_PER_STUDENT: b->grade_per_student = 1; break;
	case OPT_SERVE:
		die_usage("--serve is the batch's own graders' (serve.h), not "
			  "an option of --batch");
	default: break;   /* --batch */
	}
	return 0;
}

/* Appends a passed-through word (and the value of a grade option that
 * takes one) to b->pass. A report option is refused: batch writes its
 * own reports. */
static void pass_option(struct batch *b, const struct cli_option *o,
			int argc, char **argv, int *i)
{
	char *name = option_name(argv[*i]);

	if (o && (o->flags & OPTF_REPORT))
		die_usage("'%s' is not available with --batch: every student's "
			  "report is in DIR/students/", name);
	/* Passed on (the logs get whole diffs), and the batch prints the
	 * logs too (batch_write_outputs). */
	if (o && o->id == 'v')
		b->verbose = 1;
	b->pass[b->npass++] = argv[*i];
	if (o && o->has_arg == required_argument && !strchr(argv[*i], '=')) {
		if (*i + 1 >= argc)
			die_usage("option '%s' needs a value", name);
		b->pass[b->npass++] = argv[++*i];
	}
	free(name);
}

/* The options passed through, one string: part of the resume key. */
static char *join_words(char **w, size_t n)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < n; i++)
		strbuf_addf(&sb, "%s%s", i ? " " : "", w[i]);
	if (strbuf_failed(&sb))
		die("out of memory");
	return strbuf_detach(&sb, NULL);
}

/* One word that starts with '-': 1 when it is --help. An option grade
 * does not know goes to each grade as it is (grade says why it refuses
 * it, in the student's log). */
struct words {
	struct batch *b;
	const char *pos[2];
	size_t npos;
};

/* One word of batch's command line (options_walk): 1 for --help. */
static int one_word(void *ctx, int argc, char **argv, int *i,
		    const struct cli_option *o, int positional)
{
	struct words *w = ctx;

	if (positional) {
		if (w->npos == 2)
			die_usage("unexpected argument '%s'", argv[*i]);
		w->pos[w->npos++] = argv[*i];
		return 0;
	}
	/* "--force=1": not batch's; grade will refuse it. */
	if (o && (o->flags & (OPTF_BATCH_OWN | OPTF_BATCH_ONLY)) &&
	    !(o->has_arg == no_argument && strchr(argv[*i], '=')))
		return own_option(w->b, o, argc, argv, i);
	pass_option(w->b, o, argc, argv, i);
	return 0;
}

int batch_parse_args(struct batch *b, int argc, char **argv)
{
	struct words w = { b, { NULL, NULL }, 0 };
	const char **pos = w.pos;
	size_t npos;

	b->pass = xmalloc((size_t)argc * sizeof *b->pass);
	if (options_walk(argc, argv, 0, one_word, &w))
		return 1;
	npos = w.npos;
	if (npos < 2 || !b->out)
		die_usage("%s", npos < 2 ? "needs SUITE_DIR and SUBMISSIONS_DIR"
					 : "needs --out DIR");
	b->suite_dir = pos[0];
	b->subs_dir = pos[1];
	b->options_key = join_words(b->pass, b->npass);
	return 0;
}
