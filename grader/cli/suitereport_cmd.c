/*
 * grade --suite-report (suitereport_cmd.h).
 *
 * Theory of operation. Nothing here runs a program. The parent lists the
 * wrong solutions, makes a private temporary folder, and forks and execs
 * this same binary (/proc/self/exe, as batch does) as an ordinary grade of
 * all of them at once:
 *
 *   grade -q --json TMP/report.json [passed options] -- SUITE_DIR WRONG_DIR/NAME...
 *
 * so each one is built and judged on every case by the real grading path
 * (sandbox, limits, comparison, -j slots). The child's stdout (totals) is
 * dropped, its stderr (warnings, errors) passed through. Its report is
 * read back and turned into the suite report (suitereport.h); the folder
 * is removed whatever happens. SIGINT, SIGTERM and SIGHUP are passed on to
 * the child, waited for, and then end this process the default way.
 */
#include "grader/cli/suitereport_cmd.h"

#include <getopt.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "grader/cli/child_grade.h"
#include "grader/cli/options.h"
#include "grader/lib/strbuf.h"
#include "grader/lib/usage.h"
#include "grader/lib/util.h"
#include "grader/report/html.h"
#include "grader/report/keys.h"
#include "grader/report/outfile.h"
#include "grader/report/report.h"
#include "grader/report/html.h"
#include "grader/report/html.h"
#include "grader/report/outfile.h"
#include "grader/report/report_read.h"
#include "grader/report/suitereport.h"
#include "grader/run/runner.h"
#include "grader/run/scratch.h"

/* Words that are no option of grade's table but are refused by name. */
static const char *const refused_words[] = { "--check-env", "--validate-gradescope" };

static const char usage_text[] =
"usage: grade --suite-report SUITE_DIR WRONG_DIR [--suite-report-json FILE]\n"
"             [-j N] [grade options]\n"
"\n"
"Grades every wrong solution (each subfolder of WRONG_DIR holding .c files;\n"
"WRONG_DIR/INDEX, 'NAME<TAB>FAMILY...' lines, names their families) against\n"
"SUITE_DIR exactly as grade does, and prints which case kills which solution\n"
"(its verdict is not AC), the solutions no case kills, those one case only\n"
"kills, the cases that kill nothing, and per category how many distinct\n"
"solutions its cases kill.\n"
"  --suite-report-json FILE  write the report as JSON ('-': standard output,\n"
"                            instead of the text)\n"
"  --suite-report-html FILE  write an HTML page: the suite strength section,\n"
"                            then every wrong solution's verdicts (staff view)\n"
"Other options (-j, limits, --exact, --hide, --uid-base) go to the grading.\n"
"Exit status: 0 every solution killed, 1 some survive, 2 usage, suite or\n"
"path error, 3 internal error.\n";

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

struct sr_args {
	const char *suite, *wrong, *json, *html;
	const char **pass;   /* options passed through, in order */
	size_t npass;
};

#define COUNT(a) (sizeof(a) / sizeof(*(a)))

/* Whether a word of grade's option table (options.h) takes its value from
 * the next word: not "--name=VALUE", not "-cVALUE". */
static int value_follows(const struct cli_option *o, const char *arg)
{
	if (o->has_arg != required_argument)
		return 0;
	return arg[1] == '-' ? !strchr(arg, '=') : !arg[2];
}

/* -1 to go on, else the exit status. */
struct words {
	struct sr_args *a;
	const char *pos[2];
	size_t npos;
};

/* One word of --suite-report's command line (options_walk): grade's own
 * options go to the grading, but for the reports (the report is the
 * suite report) and batch's. 1 after --help. */
static int one_word(void *ctx, int argc, char **argv, int *i,
		    const struct cli_option *o, int positional)
{
	struct words *w = ctx;
	struct sr_args *a = w->a;
	const char *arg = argv[*i];
	int refused = 0;

	if (positional) {
		if (w->npos == 2)
			die_usage("--suite-report: one SUITE_DIR and one WRONG_DIR, "
				  "not also '%s'", arg);
		w->pos[w->npos++] = arg;
		return 0;
	}
	if (!strcmp(arg, "--suite-report"))
		return 0;
	if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
		fputs(usage_text, stdout);
		return 1;
	}
	if (options_is(arg, "--suite-report-json")) {
		a->json = options_value(argc, argv, i);
		return 0;
	}
	if (options_is(arg, "--suite-report-html")) {
		a->html = options_value(argc, argv, i);
		return 0;
	}
	for (size_t k = 0; k < COUNT(refused_words); k++)
		refused |= !strcmp(arg, refused_words[k]);
	if (!o && !refused)
		die_usage("unknown option '%s'", arg);
	if (refused || o->flags & (OPTF_REPORT | OPTF_BATCH_ONLY) ||
	    o->id == 'h' || o->id == OPT_VERSION)
		die_usage("--suite-report: '%s' does not apply (the report is "
			  "--suite-report-json)", arg);
	a->pass[a->npass++] = arg;
	if (value_follows(o, arg)) {
		if (*i + 1 == argc)
			die_usage("option '%s' needs an argument", arg);
		a->pass[a->npass++] = argv[++*i];
	}
	return 0;
}

/* -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, struct sr_args *a)
{
	struct words w = { a, { NULL, NULL }, 0 };

	a->pass = xcalloc((size_t)argc, sizeof(*a->pass));
	if (options_walk(argc, argv, OPTIONS_DASHDASH, one_word, &w))
		return WG_EXIT_ALL_AC;          /* --help */
	if (w.npos < 2)
		die_usage("--suite-report: missing %s",
			  w.npos ? "WRONG_DIR" : "SUITE_DIR and WRONG_DIR");
	a->suite = w.pos[0];
	a->wrong = w.pos[1];
	return -1;
}

static int has_c_file(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0;

	while (d && !found && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		found = n > 2 && !strcmp(e->d_name + n - 2, ".c");
	}
	if (d)
		closedir(d);
	return found;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The solutions: "WRONG_DIR/NAME" for every subfolder (not a link, not a
 * dot-folder) holding a .c file, sorted by name. Caller frees each and the
 * array; *n their number. Exits 2 when WRONG_DIR cannot be read. */
static char **list_solutions(const char *wrong, size_t *n)
{
	DIR *d = opendir(wrong);
	struct dirent *e;
	char **list = NULL;
	size_t cap = 0;
	struct stat st;

	if (!d)
		die_usage("cannot read the wrong solutions' folder '%s': %s", wrong,
			  strerror(errno));
	*n = 0;
	while ((e = readdir(d))) {
		struct strbuf p = STRBUF_INIT;
		if (e->d_name[0] == '.')
			continue;
		if (wg_path_join(&p, wrong, e->d_name) < 0)
			die("out of memory");
		if (lstat(p.buf, &st) < 0 || !S_ISDIR(st.st_mode) || !has_c_file(p.buf)) {
			strbuf_release(&p);
			continue;
		}
		if (*n == cap)
			list = xrealloc(list, (cap = cap ? 2 * cap : 64) * sizeof(*list));
		list[(*n)++] = strbuf_detach(&p, NULL);
	}
	closedir(d);
	if (!*n)
		die_usage("'%s' holds no wrong solution (a folder with a .c file)", wrong);
	qsort(list, *n, sizeof(*list), by_name);
	return list;
}

/* Runs the child grade; its exit status, or -1 (reported). */
static int run_grade(const struct sr_args *a, char **sols, size_t nsols,
		     const char *report)
{
	size_t n = 0;
	const char **argv = xcalloc(nsols + a->npass + 8, sizeof(*argv));
	pid_t pid;
	int status, forwarded = 0;

	argv[n++] = "grade";
	argv[n++] = "-q";
	argv[n++] = "--json";
	argv[n++] = report;
	for (size_t i = 0; i < a->npass; i++)
		argv[n++] = a->pass[i];
	argv[n++] = "--";
	argv[n++] = a->suite;
	for (size_t i = 0; i < nsols; i++)
		argv[n++] = sols[i];
	/* Its stdout (the summary) is not ours to print; its stderr is. */
	pid = child_grade_start(&(struct child_grade){ .argv = (char *const *)argv,
		.in_fd = -1, .out_fd = -1, .err_fd = 2 });
	if (pid < 0) {
		free(argv);
		return error("cannot fork: %s", strerror(errno));
	}
	free(argv);
	for (;;) {
		if (waitpid(pid, &status, 0) == pid)
			break;
		if (errno != EINTR)
			return error("cannot wait for grade: %s", strerror(errno));
		if (stop_signal && !forwarded++)
			kill(pid, SIGTERM);
	}
	if (WIFSIGNALED(status))
		return error("grade ended by signal %d", WTERMSIG(status));
	return WEXITSTATUS(status);
}

static int put_page(FILE *f, const void *report)
{
	return html_write(f, report);
}

/* The grading of the wrong solutions, staff view, with the suite report
 * as its first section (html_suite_section). */
static int write_page(const char *path, json_t *grade_report, json_t *sr)
{
	struct strbuf err = STRBUF_INIT;
	int rc = 0;

	if (json_object_set(grade_report, RK_SUITE_REPORT, sr) < 0 ||
	    json_object_set_new(grade_report, RK_VIEW, json_string(RK_VIEW_STAFF)) < 0)
		return error("out of memory");
	if (outfile_write(path, put_page, grade_report, &err) < 0)
		rc = error("%s", strbuf_str(&err));
	strbuf_release(&err);
	return rc;
}

/* The report from the child's JSON: printed, and written to a->json. */
static int make_report(const struct sr_args *a, const char *path)
{
	struct strbuf err = STRBUF_INIT, idx = STRBUF_INIT;
	json_error_t jerr;
	json_t *grade_report = json_load_file(path, 0, &jerr);
	json_t *families = NULL, *sr = NULL;
	int rc = WG_EXIT_INTERNAL;
	struct stat st;

	if (!grade_report) {
		error("%s:%d:%d: %s", path, jerr.line, jerr.column, jerr.text);
		goto out;
	}
	if (wg_path_join(&idx, a->wrong, "INDEX") < 0)
		die("out of memory");
	if (stat(idx.buf, &st) == 0 && !(families = suitereport_read_index(idx.buf, &err))) {
		error("%s", strbuf_str(&err));
		rc = WG_EXIT_USAGE;
		goto out;
	}
	if (!(sr = suitereport_from_grade(grade_report, families, &err)) ||
	    json_object_set_new(sr, SRK_WRONG_DIR, json_string(a->wrong)) < 0) {
		error("%s", strbuf_failed(&err) ? "out of memory" : strbuf_str(&err));
		goto out;
	}
	/* "-": the JSON alone on stdout. */
	if ((!a->json || strcmp(a->json, "-")) &&
	    (suitereport_print(stdout, sr) < 0 || fflush(stdout) == EOF)) {
		error("cannot write the report: %s", strerror(errno));
		goto out;
	}
	if (a->json && report_write_json(sr, a->json, &err) < 0) {
		error("%s", strbuf_str(&err));
		goto out;
	}
	if (a->html && write_page(a->html, grade_report, sr) < 0)
		goto out;
	const json_t *sum = json_object_get(sr, SRK_SUMMARY);
	rc = report_int(sum, SRK_ERRORS) ? WG_EXIT_INTERNAL
	     : report_int(sum, SRK_SURVIVORS) ? WG_EXIT_NOT_AC
	     : WG_EXIT_ALL_AC;
out:
	strbuf_release(&err);
	strbuf_release(&idx);
	json_decref(grade_report);
	json_decref(families);
	json_decref(sr);
	return rc;
}

int suitereport_main(int argc, char **argv)
{
	struct sr_args a = { 0 };
	char tmpl[4096], report[4200];
	const char *tmpdir = getenv("TMPDIR");
	char **sols;
	size_t nsols;
	int rc;

	if ((rc = parse_args(argc, argv, &a)) >= 0) {
		free(a.pass);
		return rc;
	}
	for (size_t i = 0; i < a.npass; i++) {
		const char *v = !strcmp(a.pass[i], "--uid-base") && i + 1 < a.npass
				? a.pass[i + 1]
				: !strncmp(a.pass[i], "--uid-base=", 11) ? a.pass[i] + 11 : NULL;
		long base;
		struct strbuf e = STRBUF_INIT;
		if (!v)
			continue;
		if (wg_parse_long("--uid-base", v, 1000, 2000000000L, &base, &e) < 0)
			die_usage("%s", strbuf_str(&e));
		run_set_slot_uid_base((uid_t)base);
	}
	outfile_set_sandbox_ids(run_slot_uid(0), run_slot_uid(SCRATCH_UID_RANGE));
	/* Before grading: a report path a program could redirect is refused
	 * at once (outfile.h). */
	const char *outs[] = { a.json, a.html };
	for (size_t i = 0; i < sizeof(outs) / sizeof(*outs); i++) {
		struct strbuf e = STRBUF_INIT;
		if (outs[i] && strcmp(outs[i], "-") && outfile_check(outs[i], &e) < 0)
			die_usage("%s", strbuf_str(&e));
		strbuf_release(&e);
	}
	sols = list_solutions(a.wrong, &nsols);
	snprintf(tmpl, sizeof(tmpl), "%s/wg-suite-report-XXXXXX",
		 tmpdir && *tmpdir ? tmpdir : "/tmp");
	if (!mkdtemp(tmpl)) {
		error("cannot make a folder like '%s': %s", tmpl, strerror(errno));
		rc = WG_EXIT_INTERNAL;
		goto out;
	}
	snprintf(report, sizeof(report), "%s/report.json", tmpl);
	wg_stop_signals(on_stop);
	rc = run_grade(&a, sols, nsols, report);
	if (stop_signal)
		rc = WG_EXIT_INTERNAL;
	else if (rc == WG_EXIT_USAGE)
		;  /* grade said why */
	else if (rc < 0 || (rc > WG_EXIT_INTERNAL) || access(report, F_OK) < 0) {
		if (rc >= 0)
			error("grade ended with status %d and no report", rc);
		rc = WG_EXIT_INTERNAL;
	} else {
		rc = make_report(&a, report);
	}
	scratch_remove_tree(tmpl);
out:
	for (size_t i = 0; i < nsols; i++)
		free(sols[i]);
	free(sols);
	free(a.pass);
	if (stop_signal) {
		signal(stop_signal, SIG_DFL);
		raise(stop_signal);
	}
	return rc;
}
