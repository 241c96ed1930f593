/* options: see options.h. */
#include "grader/cli/options.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grader/lib/usage.h"
#include "grader/lib/util.h"
#include "grader/report/outfile.h"
#include "grader/run/runner.h"

static const struct cli_option table[] = {
	{ "json", 0, required_argument, OPT_JSON, OPTF_REPORT },
	{ "time-limit", 0, required_argument, OPT_TIME, 0 },
	{ "wall-limit", 0, required_argument, OPT_WALL, 0 },
	{ "memory-limit", 0, required_argument, OPT_MEM, 0 },
	{ "output-limit", 0, required_argument, OPT_OUT, 0 },
	{ "jobs", 'j', required_argument, 'j', OPTF_BATCH_OWN },
	{ "exact", 0, no_argument, OPT_EXACT, 0 },
	{ "quiet", 'q', no_argument, 'q', OPTF_BATCH_OWN },
	{ "verbose", 'v', no_argument, 'v', 0 },
	{ "color", 0, required_argument, OPT_COLOR, 0 },
	{ "colour", 0, required_argument, OPT_COLOR, 0 },
	{ "help", 'h', no_argument, 'h', OPTF_BATCH_OWN },
	{ "version", 0, no_argument, OPT_VERSION, 0 },
	{ "junit", 0, required_argument, OPT_JUNIT, OPTF_REPORT },
	{ "gradescope", 0, required_argument, OPT_GRADESCOPE, OPTF_REPORT },
	{ "html", 0, required_argument, OPT_HTML, OPTF_REPORT },
	{ "staff", 0, no_argument, OPT_STAFF, 0 },
	{ "show-hidden", 0, no_argument, OPT_STAFF, 0 },
	{ "student", 0, no_argument, OPT_STUDENT, 0 },
	{ "uid-base", 0, required_argument, OPT_UID_BASE, OPTF_BATCH_OWN },
	{ "hide", 0, required_argument, OPT_HIDE, 0 },
	{ "serve", 0, no_argument, OPT_SERVE, OPTF_BATCH_OWN },
	{ "batch", 0, no_argument, OPT_BATCH, OPTF_BATCH_ONLY },
	{ "out", 'o', required_argument, OPT_OUT_DIR, OPTF_BATCH_ONLY },
	{ "force", 0, no_argument, OPT_FORCE, OPTF_BATCH_ONLY },
	{ "student-timeout", 0, required_argument, OPT_STUDENT_TIMEOUT,
	  OPTF_BATCH_ONLY },
	{ "shard", 0, required_argument, OPT_SHARD, OPTF_BATCH_ONLY },
	{ "merge", 0, no_argument, OPT_MERGE, OPTF_BATCH_ONLY },
	{ "similarity", 0, required_argument, OPT_SIMILARITY, OPTF_BATCH_ONLY },
	{ "similarity-base", 0, required_argument, OPT_SIM_VALUE, OPTF_BATCH_ONLY },
	{ "similarity-min", 0, required_argument, OPT_SIM_VALUE, OPTF_BATCH_ONLY },
	{ "similarity-threshold", 0, required_argument, OPT_SIM_VALUE,
	  OPTF_BATCH_ONLY },
	{ "similarity-k", 0, required_argument, OPT_SIM_VALUE, OPTF_BATCH_ONLY },
	{ "similarity-window", 0, required_argument, OPT_SIM_VALUE, OPTF_BATCH_ONLY },
	{ "similarity-max-share", 0, required_argument, OPT_SIM_VALUE,
	  OPTF_BATCH_ONLY },
	{ "similarity-memory", 0, required_argument, OPT_SIM_VALUE, OPTF_BATCH_ONLY },
	{ "top", 0, required_argument, OPT_TOP, OPTF_BATCH_ONLY },
	{ "roster", 0, required_argument, OPT_ROSTER, OPTF_BATCH_ONLY },
	{ "assignment", 0, required_argument, OPT_ASSIGNMENT, OPTF_BATCH_ONLY },
	{ "grade-per-student", 0, no_argument, OPT_GRADE_PER_STUDENT, OPTF_BATCH_ONLY },
};
#define NOPTIONS (sizeof(table) / sizeof(*table))

static const char usage_text[] =
"usage: grade [OPTIONS] SUITE_DIR SUBMISSION...\n"
"       grade --batch SUITE_DIR SUBMISSIONS_DIR --out DIR [--shard K/N] [OPTIONS]\n"
"       grade --merge --out DIR OUT...\n"
"       grade --suite-report SUITE_DIR WRONG_DIR [--suite-report-json FILE] [OPTIONS]\n"
"       grade --similarity CLASS_DIR [--similarity-base FILE]... [--json FILE]\n"
"\n"
"Grades each SUBMISSION (an executable, a directory of C sources built\n"
"with 'cc -std=c11 -O2 *.c -lm', or one .c file) against the cases of\n"
"SUITE_DIR/suite.json.\n"
"\n"
"Limits (default: the suite's):\n"
"  --time-limit SECONDS    CPU time per case\n"
"  --wall-limit SECONDS    wall-clock time per case (default max(3 x CPU, CPU + 2))\n"
"  --memory-limit MIB      memory per case (in use; the address space where\n"
"                          no memory cgroup exists)\n"
"  --output-limit KIB      standard output per case\n"
"Running:\n"
"  -j, --jobs N            grade N cases at once (default 1)\n"
"  --exact                 compare bytes (default: ignore trailing spaces, tabs\n"
"                          and CRs at line ends, and trailing blank lines)\n"
"  --uid-base UID          as root, slot S runs as uid/gid UID+S (default %d,\n"
"                          or $WG_UID_BASE)\n"
"  --hide DIR              as root, mask DIR from the programs too (repeatable;\n"
"                          the suite and the submissions always are)\n"
"Reports:\n"
"  --json FILE             write the JSON report ('-': standard output)\n"
"  --junit FILE            write JUnit XML\n"
"  --gradescope FILE       write a Gradescope results.json\n"
"  --html FILE             write a self-contained HTML page (the view as --junit)\n"
"  -q, --quiet             print only each submission's total\n"
"  -v, --verbose           print whole diffs, stderr tails, compiler warnings\n"
"  --color=WHEN            auto (a terminal and NO_COLOR unset), always, never\n"
"  --student               hide the diffs of hidden cases (default)\n"
"  --staff, --show-hidden  show every diff\n"
"  --batch                 grade a whole class (see docs/workflows.md)\n"
"  --shard K/N             with --batch: grade only shard K of N of the class\n"
"  --merge --out DIR OUT...  combine the outputs of the shards into DIR\n"
"  --suite-report SUITE_DIR WRONG_DIR  which cases kill which wrong solutions\n"
"                          (see grade --suite-report --help)\n"
"  --similarity CLASS_DIR  which students share code (see grade --similarity\n"
"                          --help; a batch's report has it too)\n"
"  --check-env [SUITE_DIR] print the sandbox this machine gives; exit 1 when\n"
"                          a hidden suite would be graded without masking\n"
"  --validate-gradescope FILE  check a results.json (exit 0, or 2 and why)\n"
"  -h, --help, --version\n"
"\n"
"Verdicts: AC, WA, TLE (CPU or wall limit), MLE, OLE, RTE (exit status or\n"
"signal), CE (the build failed), IE. MLE is best effort: the program died\n"
"(a signal or a non-zero exit) with a max RSS, or a loaded image (static\n"
"arrays included), of at least 90%% of the memory limit, or after an\n"
"allocation failure on stderr (\"out of memory\"...).\n"
"An internal error (IE) is the grader's fault, never the student's: its\n"
"points are left out of max_score and the exit status is 3.\n"
"The JSON report always holds every diff (it is the staff's record); each\n"
"case says its visibility, and exporters for students leave hidden ones out.\n"
"Exit status: 0 all accepted, 1 not all accepted, 2 usage, suite or\n"
"submission error, 3 internal error.\n";

const char *options_value(int argc, char **argv, int *i)
{
	const char *arg = argv[*i], *eq = strchr(arg, '=');

	if (eq)
		return eq + 1;
	if (arg[1] != '-' && arg[2])
		return arg + 2;
	if (*i + 1 >= argc)
		die_usage("option '%s' needs a value", arg);
	return argv[++*i];
}

int options_walk(int argc, char **argv, unsigned flags, options_fn *fn, void *ctx)
{
	int opts = 1;

	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		int rc;

		if (opts && (flags & OPTIONS_DASHDASH) && !strcmp(arg, "--")) {
			opts = 0;
			continue;
		}
		if (!opts || arg[0] != '-' || !arg[1])
			rc = fn(ctx, argc, argv, &i, NULL, 1);
		else
			rc = fn(ctx, argc, argv, &i, options_find(arg), 0);
		if (rc)
			return rc;
	}
	return 0;
}

int options_is(const char *arg, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(arg, name, n) && (!arg[n] || arg[n] == '=');
}

const struct cli_option *options_find(const char *arg)
{
	size_t n = strcspn(arg, "=");

	if (arg[0] != '-' || !arg[1])
		return NULL;
	for (size_t i = 0; i < NOPTIONS; i++) {
		const struct cli_option *o = &table[i];

		if (arg[1] == '-' && strlen(o->name) == n - 2 &&
		    !strncmp(arg + 2, o->name, n - 2))
			return o;
		if (arg[1] != '-' && o->short_name == arg[1] &&
		    (!arg[2] || arg[2] == '=' || o->has_arg == required_argument))
			return o;
	}
	return NULL;
}

/* grade's getopt_long table: every row but batch's own (an abbreviation
 * such as "--stu" must mean to grade what it always has). Freed by the
 * caller. */
static struct option *getopt_table(void)
{
	struct option *t = xcalloc(NOPTIONS + 1, sizeof(*t));
	size_t k = 0;

	for (size_t i = 0; i < NOPTIONS; i++)
		if (!(table[i].flags & OPTF_BATCH_ONLY))
			t[k++] = (struct option){ table[i].name, table[i].has_arg,
						  NULL, table[i].id };
	return t;
}

static void parse_long_or_die(const char *name, const char *arg, long lo,
			      long hi, long *out)
{
	struct strbuf err = STRBUF_INIT;

	if (wg_parse_long(name, arg, lo, hi, out, &err) < 0)
		die_usage("%s", strbuf_str(&err));
}

static void parse_seconds_or_die(const char *name, const char *arg, double *out)
{
	struct strbuf err = STRBUF_INIT;

	if (wg_parse_seconds(name, arg, 86400, out, &err) < 0)
		die_usage("%s", strbuf_str(&err));
}

static int parse_color(const char *arg)
{
	static const char *const when[] = { "never", "always", "auto" };

	for (int i = 0; i < 3; i++)
		if (!strcmp(arg, when[i]))
			return i < 2 ? i : -1;
	die_usage("--color: '%s' is not auto, always or never", arg);
}

/* One option; 1 when grade is done (--help, --version), else 0. */
static int one_option(int c, const char *arg, struct options *o)
{
	long v;

	switch (c) {
	case OPT_JSON: o->json = arg; break;
	case OPT_JUNIT: o->junit = arg; break;
	case OPT_GRADESCOPE: o->gradescope = arg; break;
	case OPT_HTML: o->html = arg; break;
	case OPT_TIME: parse_seconds_or_die("--time-limit", arg, &o->cpu_sec); break;
	case OPT_WALL: parse_seconds_or_die("--wall-limit", arg, &o->wall_sec); break;
	case OPT_MEM: parse_long_or_die("--memory-limit", arg, 1, 1L << 20, &o->memory_mib); break;
	case OPT_OUT: parse_long_or_die("--output-limit", arg, 1, 1L << 22, &o->output_kib); break;
	case 'j':
		parse_long_or_die("-j", arg, 1, OPTIONS_MAX_JOBS, &v);
		o->jobs = (int)v;
		break;
	case OPT_UID_BASE:
		parse_long_or_die("--uid-base", arg, 1000, 2000000000L, &o->uid_base);
		break;
	case OPT_HIDE: o->hide[o->nhide++] = arg; break;
	case OPT_EXACT: o->exact = 1; break;
	case 'q': o->quiet = 1; break;
	case 'v': o->verbose = 1; break;
	case OPT_STAFF: o->staff = 1; break;
	case OPT_STUDENT: o->staff = 0; break;
	case OPT_COLOR: o->color = parse_color(arg); break;
	case OPT_SERVE: o->serve = 1; break;
	case 'h': printf(usage_text, RUN_SLOT_UID_BASE); return 1;
	case OPT_VERSION: printf("grade (warpgrade) %s\n", WG_VERSION); return 1;
	default: die_usage("unknown option (see above)");
	}
	return 0;
}

static int getopt_loop(int argc, char **argv, struct options *o)
{
	struct option *t = getopt_table();
	int c, done = 0;

	opterr = 0;
	while (!done && (c = getopt_long(argc, argv, ":j:qvh", t, NULL)) != -1) {
		if (c == '?' || c == ':') {
			if (optopt == 'j' || c == ':')
				die_usage("option '%s' needs an argument", argv[optind - 1]);
			die_usage("unknown option '%s'", argv[optind - 1]);
		}
		done = one_option(c, optarg, o);
	}
	free(t);
	return done;
}

int options_parse(int argc, char **argv, struct options *o)
{
	const char *env_base = getenv("WG_UID_BASE");

	*o = (struct options){ .jobs = 1, .color = -1,
			       .uid_base = RUN_SLOT_UID_BASE };
	/* Every --hide fits: there are fewer than argc of them. */
	o->hide = xcalloc((size_t)argc, sizeof(*o->hide));
	if (env_base && *env_base)
		parse_long_or_die("WG_UID_BASE", env_base, 1000, 2000000000L,
				  &o->uid_base);
	if (getopt_loop(argc, argv, o))
		return 0;
	if (o->serve) {
		/* The submissions and report paths come with each request. */
		if (argc - optind != 1)
			die_usage("--serve takes SUITE_DIR alone");
		if (o->json || o->junit || o->gradescope || o->html)
			die_usage("--serve takes no report file (each request "
				  "names its JSON report)");
		return optind;
	}
	if (argc - optind < 2)
		die_usage(argc - optind < 1 ? "missing SUITE_DIR and SUBMISSION"
					    : "missing SUBMISSION");
	if (o->quiet && o->verbose)
		die_usage("--quiet and --verbose exclude each other");
	return optind;
}

void options_release(struct options *o)
{
	free(o->hide);
	o->hide = NULL;
}
