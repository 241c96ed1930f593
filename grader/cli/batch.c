/*
 * batch: grade a whole class through child graders.
 *
 * Theory of operation. The parent never grades anything itself: each of
 * its -j slots runs this same binary as grade --serve (serve.h,
 * batch_workers.c), which grades the slot's students one after another,
 * each as an ordinary single-submission grade would, through a sandbox
 * set up once (--grade-per-student: a child grade process per student,
 * batch_sched.c). Whatever a child does (crash, hang past the student
 * deadline, fail to build the submission) costs one student only: its
 * grader is stopped and the next student gets a new one.
 *
 * When a child ends with a report, the parent adds the keys that make the
 * batch resumable ("student", "source_hash", "suite_hash", "grade_options",
 * "graded_at") and writes DIR/students/NAME.json through a temporary file,
 * fsync and rename, so a report on disk is always whole. A later run skips
 * a student whose report records the same hashes and options
 * (batch_resume.c). A student that could not be graded gets no report, so
 * it is retried.
 *
 * The report is then let go: the batch keeps of it a fixed-size row (the
 * figures of the gradebook, the LMS files and the summary), the class's
 * running tallies and the report itself in a spool on disk
 * (batch_rows.c), and writes the student's page (batch_pages.c), so that
 * its memory does not grow with the class. At the end DIR/gradebook.csv,
 * DIR/summary.txt, DIR/summary.json and DIR/report.html are rebuilt from
 * every current student's row (graded now or earlier), report.html
 * reading the reports back from the spool one at a time.
 * An interrupt stops the batch and still writes them for the students
 * finished so far.
 *
 * One batch per DIR (an flock on DIR/.lock naming its pid); every file in
 * DIR is private and written through outfile.h. The files of batch and
 * what each does: batch_int.h.
 */
#include "grader/cli/batch.h"
#include "grader/cli/batch_int.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grader/lib/strbuf.h"
#include "grader/lib/usage.h"
#include "grader/lib/util.h"
#include "grader/report/outfile.h"
#include "grader/run/runner.h"
#include "grader/run/scratch.h"

/* --verbose: every student's log (its whole report), in name order. */
static void print_logs(const struct batch *b)
{
	char buf[8192];
	size_t n;

	for (size_t i = 0; i < b->n; i++) {
		char *log = batch_out_path(b, "logs", b->st[i].name, ".log");
		FILE *f = fopen(log, "r");

		if (f) {
			printf("==> %s <==\n", log);
			while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
				fwrite(buf, 1, n, stdout);
			fclose(f);
			putchar('\n');
		}
		free(log);
	}
}

/* Where the details are, after the summary: the files of DIR that exist,
 * each with what it holds. */
static void print_details(const struct batch *b)
{
	static const struct { const char *name, *what; } files[] = {
		{ "logs/", "each student's whole report as staff see it "
		  "(NAME.log: every case, every diff)" },
		{ "students/", "each student's page (NAME.html, the student "
		  "view) and JSON report (NAME.json)" },
		{ "report.html", "the class page: table, histogram, every case" },
		{ "gradebook.csv", "one row per student" },
		{ "canvas.csv", "the gradebook for Canvas's import" },
		{ "moodle.csv", "the gradebook for Moodle's import" },
		{ "summary.txt", "this summary" },
	};
	int w = 0;

	for (size_t i = 0; i < sizeof(files) / sizeof(*files); i++) {
		int n = (int)(strlen(b->out) + 1 + strlen(files[i].name));
		w = n > w ? n : w;
	}
	printf("\nDetails:\n");
	for (size_t i = 0; i < sizeof(files) / sizeof(*files); i++) {
		char *path = batch_path(b->out, files[i].name);

		if (access(path, F_OK) == 0)
			printf("  %-*s  %s\n", w, path, files[i].what);
		free(path);
	}
}

int batch_write_outputs(struct batch *b)
{
	json_t *sum;
	/* The similarity failing (out of memory, a store unreadable) costs
	 * its section, never the gradebook: rc says so afterwards. */
	int rc = batch_similarity(b);

	if (!(sum = batch_summary_json(b)))
		return error("out of memory");
	if (b->similarity && json_object_set(sum, SK_SIMILARITY, b->similarity))
		rc = error("out of memory");
	rc |= batch_write_out(b, "gradebook.csv", batch_put_gradebook, b);
	rc |= batch_write_out(b, "summary.json", batch_put_json, sum);
	rc |= batch_write_out(b, "summary.txt", batch_put_summary_text, sum);
	rc |= batch_write_out(b, "report.html", batch_put_html, b);
	rc |= batch_write_out(b, "canvas.csv", batch_put_canvas, b);
	rc |= batch_write_out(b, "moodle.csv", batch_put_moodle, b);
	/* Each page was written as its student finished (batch_pages.c). */
	if (b->pages_failed)
		rc = -1;
	if (!b->quiet)
		batch_lms_warn(b);
	if (!b->quiet) {
		if (b->verbose)
			print_logs(b);
		batch_write_summary_text(stdout, sum);
		if (b->similarity)
			sim_report_print(stdout, b->similarity, SIMILARITY_TOP);
		print_details(b);
	}
	json_decref(sum);
	return rc;
}

/* Unless --student-timeout: the build, then every case at a generous
 * multiple of its CPU limit (grade's wall limit is a multiple too). */

static double default_student_timeout(const struct suite *s)
{
	return 120.0 + (double)s->ncases * (10.0 * s->cpu_seconds + 2.0);
}

static int setup(struct batch *b)
{
	struct strbuf err = STRBUF_INIT;

	if (suite_load(&b->suite, b->suite_dir, &err) != 0) {
		error("%s", strbuf_str(&err));
		strbuf_release(&err);
		return WG_EXIT_USAGE;
	}
	strbuf_release(&err);
	if (b->student_timeout <= 0)
		b->student_timeout = default_student_timeout(&b->suite);
	b->suite_max = suite_max_score(&b->suite);
	/* Before any grading: a roster with a fault stops the batch now. */
	if (b->roster_path && batch_load_roster(b, b->roster_path, &err) < 0) {
		error("%s", strbuf_str(&err));
		strbuf_release(&err);
		return WG_EXIT_USAGE;
	}
	if (access("/proc/self/exe", X_OK) != 0) {
		error("cannot run '/proc/self/exe': %s", strerror(errno));
		return WG_EXIT_INTERNAL;
	}
	for (size_t i = 0; i < b->sim.nbase; i++)
		if (access(b->sim.base[i], R_OK) != 0) {
			error("--similarity-base: cannot read '%s': %s", b->sim.base[i],
			      strerror(errno));
			return WG_EXIT_USAGE;
		}
	if (batch_make_out_dirs(b) != 0 || batch_lock_out(b) != 0 || batch_find_students(b) != 0)
		return WG_EXIT_USAGE;
	if (b->n == 0) {
		error("no student directories in '%s'", b->subs_dir);
		return WG_EXIT_USAGE;
	}
	/* A shard may hold no student of a small class: it writes an empty
	 * gradebook, and the merge still learns the class from it. */
	batch_keep_shard(b);
	batch_hash_tree(b->suite_dir, b->suite_hash);
	for (size_t i = 0; i < b->n; i++) {
		batch_hash_tree(b->st[i].dir, b->st[i].hash);
		batch_find_sources(&b->st[i]);
		if (b->st[i].state == ST_NO_SUBMISSION) {
			/* One student's report that cannot be stored is that
			 * student's "not graded", never the class's. */
			if (batch_keep_no_submission(b, &b->st[i]) != 0) {
				batch_fail_student(b, &b->st[i], "no submission, and "
						   "its report could not be stored (above)");
				continue;
			}
			b->no_submission++;
			b->finished++;
			batch_write_page(b, &b->st[i], NULL);
			batch_progress_event(b, &b->st[i], "no submission (%s)",
					     b->st[i].error ? b->st[i].error : "no .c file");
			continue;
		}
		if (b->st[i].state == ST_FAILED) {
			batch_progress_event(b, &b->st[i], "NOT GRADED: %s",
				       b->st[i].error);
			continue;
		}
		batch_try_resume(b, &b->st[i]);
		if (b->st[i].state == ST_SKIPPED) {
			b->skipped++;
			b->finished++;
			if (!b->st[i].row.accepted)
				b->imperfect++;
		}
	}
	return 0;
}

void batch_release(struct batch *b)
{
	for (size_t i = 0; i < b->n; i++)
		batch_student_free(&b->st[i]);
	free(b->st);
	batch_rows_release(b);
	json_decref(b->class_students);
	json_decref(b->merge);
	json_decref(b->similarity);
	free(b->sim.base);
	free(b->sim_outs);
	batch_roster_free(b->roster);
	free(b->pass);
	free(b->options_key);
	suite_free(&b->suite);
	if (b->lock_fd >= 0)
		close(b->lock_fd);
}

/* The options and the environment into b: 0, or 1 when --help was
 * printed. A usage error exits WG_EXIT_USAGE. */
static int configure(struct batch *b, int argc, char **argv)
{
	const char *env_base = getenv("WG_UID_BASE");
	struct strbuf err = STRBUF_INIT;

	b->lock_fd = -1;
	b->shard = (struct shard)SHARD_NONE;
	b->sim = (struct similarity_conf)SIMILARITY_CONF_INIT;
	b->jobs = batch_default_jobs();
	/* By default past the range a plain grade uses (its slots 0..63), so
	 * a batch and a `grade` started by hand never share a sandbox uid. */
	b->uid_base = RUN_SLOT_UID_BASE + BATCH_UID_OFFSET;
	/* Empty is unset, as for grade (options.c). */
	if (env_base && *env_base && wg_parse_long("WG_UID_BASE", env_base, LONG_MIN, LONG_MAX,
				      &b->uid_base, &err) < 0)
		die_usage("WG_UID_BASE: '%s' is not a uid", env_base);
	strbuf_release(&err);
	b->tty = isatty(STDERR_FILENO);
	if (batch_parse_args(b, argc, argv)) {
		batch_usage(stdout);
		return 1;
	}
	/* Worker K's grade claims uids from uid_base + K upward (scratch.h). */
	outfile_set_sandbox_ids((uid_t)b->uid_base, (uid_t)(b->uid_base + b->jobs +
				SCRATCH_UID_RANGE));
	return 0;
}

/* The line of every student not graded again (resumed), so that each
 * student has one, numbered as if they had finished first. */
static void print_unchanged(struct batch *b)
{
	size_t finished = b->finished;

	b->finished -= b->skipped;
	for (size_t i = 0; i < b->n; i++) {
		struct strbuf res = STRBUF_INIT;

		if (b->st[i].state != ST_SKIPPED)
			continue;
		b->finished++;
		batch_row_describe(&b->st[i].row, &res);
		batch_progress_event(b, &b->st[i], "%s, unchanged since the "
				     "last run", strbuf_str(&res));
		strbuf_release(&res);
	}
	b->finished = finished;
}

/* Grades the students not skipped and writes the outputs: batch's exit
 * status (batch.h). */
static int run(struct batch *b)
{
	if (!b->quiet && b->shard.count > 1)
		fprintf(stderr, "grade: batch: shard %ld of %ld: %zu of the "
			"class's %zu students\n", b->shard.index, b->shard.count,
			b->n, json_array_size(b->class_students));
	if (!b->quiet)
		fprintf(stderr, "grade: batch: %zu students (%zu unchanged), "
			"-j %ld\n", b->n, b->skipped, b->jobs);
	print_unchanged(b);
	batch_run_all(b);
	if (batch_write_outputs(b) != 0)
		return WG_EXIT_INTERNAL;
	return batch_exit_status(b);
}

int batch_exit_status(const struct batch *b)
{
	if (b->stop_signal)
		return 128 + b->stop_signal;
	if (b->failed || b->partial)
		return WG_EXIT_INTERNAL;
	return b->imperfect ? WG_EXIT_NOT_AC : WG_EXIT_ALL_AC;
}

int batch_main(int argc, char **argv)
{
	struct batch b;
	int rc = WG_EXIT_ALL_AC;

	memset(&b, 0, sizeof b);
	usage_set_prefix("grade: batch");
	if (!configure(&b, argc, argv)) {
		rc = setup(&b);
		if (!rc)
			rc = run(&b);
	}
	batch_release(&b);
	return rc;
}
