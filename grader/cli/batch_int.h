#ifndef WG_BATCH_INT_H
#define WG_BATCH_INT_H
/*
 * batch_int: what the files of batch share (batch.h is the public entry).
 *
 *   batch.c            batch_main: set up, run, write the outputs
 *   batch_options.c    the command line
 *   batch_students.c   the students and where their sources are
 *   batch_resume.c     hashing the sources; resuming from earlier reports
 *   batch_sched.c      the scheduler: students to slots, answers, deadlines
 *   batch_workers.c    each slot's grader (grade --serve) and its socket
 *   batch_progress.c   the progress line and one line per student
 *   batch_out.c        DIR: its folders, its lock, its files written whole
 *   batch_gradebook.c  DIR/gradebook.csv
 *   batch_lms.c        DIR/canvas.csv, DIR/moodle.csv and --roster
 *   batch_pages.c      DIR/students/NAME.html, each student's own page
 *   batch_rows.c       what is kept of each report: its row, the class's
 *                      tallies, the spool; DIR/report.html from them
 *   batch_summary.c    DIR/summary.json and DIR/summary.txt
 *   batch_merge.c      grade --merge: the batch filled from shard outputs
 *   batch_similarity.c which students share code (similarity_conf.h)
 *   batch_keys.h       the JSON names batch adds: summary.json, the resume keys
 */
#include <stdio.h>
#include <sys/types.h>

#include <jansson.h>

#include "grader/cli/shard.h"
#include "grader/cli/similarity_conf.h"
#include "grader/judge/suite.h"
#include "grader/judge/verdict.h"

/* SIGTERM to SIGKILL for a late student: grade, on SIGTERM, lets the case
 * in flight end by its own limits and removes its scratch tree. */
#define TERM_GRACE_SEC 5.0
#define REFRESH_SEC 0.5        /* progress line refresh on a terminal */
#define TOP_FAILED 10          /* cases listed in the summary */
#define HIST_BINS 10
#define BATCH_UID_OFFSET 64    /* grade's most slots (-j 64) */

enum student_state { ST_PENDING, ST_RUNNING, ST_SKIPPED, ST_DONE, ST_FAILED,
		     ST_NO_SUBMISSION };

/* What the batch keeps of a student's report (batch_rows.c): the figures
 * of the gradebook, the LMS files and the summary, each as the report had
 * it (absent, or its value), and where the whole report is in the spool.
 * A fixed size, whatever the report holds. All zero: no report. */
struct batch_row_cat {     /* one per suite category, in the suite's order */
	double score, max;
	unsigned char has, has_score;
};
struct batch_row {
	unsigned report : 1;     /* kept from a report (SKIPPED, DONE) */
	unsigned sub : 1;        /* the report's one submission */
	unsigned has_score : 1, has_max : 1;
	unsigned accepted : 1;   /* batch_all_accepted */
	double score, max;       /* the submission's */
	json_int_t verdicts[VERDICT_COUNT];
	char *build;             /* the build's status, or NULL */
	struct batch_row_cat *cats;
	off_t off;               /* the report in the spool */
	size_t len;
};

struct student {
	char *name;              /* directory name under SUBMISSIONS_DIR */
	char *dir;               /* SUBMISSIONS_DIR/NAME */
	char *src;               /* the folder under dir holding the .c files */
	int not_started;         /* FAILED: the batch stopped before it */
	char hash[17];           /* FNV-1a 64 of the sources, hex */
	enum student_state state;
	pid_t pid;
	int slot;                /* worker slot while running */
	int retried;             /* its slot's grader failed (exit 3): graded
	                            again by a new one, once */
	double started, deadline, termed;
	char *error;             /* why it could not be graded (FAILED) */
	struct batch_row row;    /* of its report (SKIPPED, DONE) */
};

struct batch_tally;

struct batch {
	const char *suite_dir, *subs_dir, *out;
	char **pass;             /* options passed through to each grade */
	size_t npass;
	char *options_key;       /* pass, joined: part of the resume key */
	char suite_hash[17];
	struct suite suite;
	long jobs;
	long uid_base;           /* worker slot K grades as uid_base + K */
	double student_timeout;
	int force, quiet, tty;
	int verbose;              /* --verbose: each student's log on stdout */
	struct student *st;
	size_t n;
	/* progress */
	double t0;
	size_t finished, graded, skipped, failed, imperfect, running;
	size_t no_submission;
	int line_shown;
	int stop_signal;
	int lock_fd;             /* DIR/.lock, held while the batch runs */
	/* --shard K/N: st holds the shard's students only; class_students
	 * (a JSON array of names, found before the shard filter) the whole
	 * class's. Without --shard, SHARD_NONE (1/1). */
	struct shard shard;
	json_t *class_students;
	/* grade --merge (batch_merge.c): what the summary says of the merge
	 * ({"shards", "missing_shards", "missing_students"}), else NULL;
	 * partial when some student is in no shard given. */
	json_t *merge;
	int partial;
	long suite_max;          /* the suite's points (a merge has no cases) */
	/* --similarity-*: how the class is compared; the record once it is
	 * (batch_similarity), NULL before, for a shard and on failure. A
	 * merge compares the stores of the OUT folders in sim_outs. */
	struct similarity_conf sim;
	json_t *similarity;
	const char **sim_outs;
	size_t nsim_outs;
	/* The LMS imports (batch_lms.c): --roster FILE, read into roster;
	 * --assignment TITLE (default: the suite's name). */
	const char *roster_path, *assignment;
	struct roster *roster;
	/* batch_rows.c: the class's running tallies, and the spool (an
	 * unlinked file, open while spool_open) of spool_len bytes. */
	struct batch_tally *tally;
	int spool_fd, spool_open;
	off_t spool_len;
	int pages_failed;        /* a student's page could not be written */
	/* batch_workers.c: per slot, its grade --serve (serve.h), kept from
	 * student to student; NULL with --grade-per-student (a grade
	 * process per student, as before). */
	struct batch_worker *workers;
	int grade_per_student;
	size_t requeued;         /* retried students not started again yet */
};

/* One slot's grader: pid 0 when none runs. dying: told to end (its
 * socket closed, or a signal sent): its slot is not given to another
 * student until it has been reaped (it may hold the slot's uid). */
struct batch_worker {
	pid_t pid;
	int sock;
	int dying;
};

/* batch_options.c. Parses argv into b (the strings stay argv's); a usage
 * error is reported and exits WG_EXIT_USAGE. 1 when --help was given,
 * else 0. Option values are read with options_value (options.h). */
int batch_parse_args(struct batch *b, int argc, char **argv);
void batch_usage(FILE *f);
long batch_default_jobs(void);

/* batch_students.c. A vector of malloc'd strings, each freed by
 * batch_names_free. */
struct namelist {
	char **v;
	size_t n, cap;
};
void batch_names_add(struct namelist *l, char *s);
void batch_names_free(struct namelist *l);
void batch_names_sort(struct namelist *l);
/* b->st: every subdirectory of SUBMISSIONS_DIR. 0, or -1 (reported). */
/* Whether paths a and b name one existing file (device and inode). */
int batch_same_dir(const char *a, const char *b);
/* The student's name for files, JSON and text: the folder's own name
 * where that is safe, else a key made from it (batch_students.c). */
void batch_student_key(struct strbuf *out, const char *folder);
/* Whether name is one batch_student_key could have made: what a merge
 * accepts from a summary before it makes file names of it. */
int batch_student_key_valid(const char *name);
int batch_find_students(struct batch *b);
/* s->src, or NO_SUBMISSION, or FAILED with the reason. */
void batch_find_sources(struct student *s);
/* b->class_students from b->st, then b->st cut to b->shard's students. */
void batch_keep_shard(struct batch *b);
void batch_student_free(struct student *s);
/* {"index": K, "count": N}: a new reference. */
json_t *batch_shard_json(const struct shard *s);

/* batch_resume.c */
void batch_hash_tree(const char *root, char out[17]);
void batch_try_resume(struct batch *b, struct student *s);

/* batch_workers.c. The child's argv but for what ends it (the caller's:
 * the report and submission, or --serve and the suite), in v (room for
 * b->npass + 18); returns how many were put. */
size_t batch_grade_argv(const struct batch *b, char **v, char *uid);
/* Hands s to its slot's grader, started first where none runs (its
 * stdin a socket, its stdout and stderr /dev/null, a process group of
 * its own); log is s's log (the grader's output while it grades s, not
 * closed here). The grader's pid, or -1 with the reason in why. */
pid_t batch_worker_give(struct batch *b, const struct student *s, int log,
			const char *part, const sigset_t *oldmask, struct strbuf *why);
/* The answer of slot's grader, when one came: 1 and *code (its exit
 * status for the student), else 0 (nothing yet, or it is going away:
 * then its reaping tells). */
int batch_worker_answer(struct batch *b, int slot, int *code);
/* The grader pid was reaped: its slot is free. */
void batch_worker_reaped(struct batch *b, pid_t pid);
/* Tells slot's grader to end (its socket closed): it ends at once when
 * idle, with a signal when not. */
void batch_worker_dismiss(struct batch *b, int slot);
/* Every grader told to end and waited for. */
void batch_workers_end(struct batch *b);

/* batch_sched.c */
void batch_run_all(struct batch *b);
/* The student is not graded, for why (kept for the gradebook). */
void batch_fail_student(struct batch *b, struct student *s, const char *why);
int batch_keep_no_submission(struct batch *b, struct student *s);

/* batch_progress.c */
void batch_progress_line(struct batch *b);
void batch_progress_event(struct batch *b, const struct student *s,
			  const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Whether a one-submission report has cases, all accepted. */
struct strbuf;
int batch_all_accepted(const json_t *r);

/* batch_out.c. Paths are malloc'd, freed by the caller. */
char *batch_path(const char *a, const char *b);   /* "a/b" */
char *batch_out_path(const struct batch *b, const char *sub,
		     const char *name, const char *ext);  /* DIR/SUB/NAMEEXT */
int batch_put_json(FILE *f, const void *j);
/* path (or DIR/name) written whole and private (outfile.h); 0, or -1
 * (reported, no temporary file left). */
int batch_write_file(const char *path, int (*fn)(FILE *, const void *),
		     const void *arg);
int batch_write_out(const struct batch *b, const char *name,
		    int (*fn)(FILE *, const void *), const void *arg);
int batch_make_out_dirs(const struct batch *b);
int batch_lock_out(struct batch *b);

/* batch_gradebook.c. The report's one submission, and its category. */
const json_t *batch_only_sub(const json_t *r);
const json_t *batch_category_of(const json_t *sub, const char *cat);
int batch_put_gradebook(FILE *f, const void *b);
/* "graded", "unchanged", "not graded", "not started", "no submission". */
const char *batch_status_word(const struct student *s);
/* DIR/report.html: the staff's page of the class (html.h). */
int batch_put_html(FILE *f, const void *b);

/* batch_lms.c. The roster (--roster FILE): a CSV whose header names its
 * columns; "folder" (a student's folder under SUBMISSIONS_DIR) and "id"
 * (the LMS's id of the student) are required; "name", "email", "section",
 * "sis_user_id" and "sis_login_id" are optional. 0, or -1 with the
 * reason, FILE:LINE:COLUMN first, in err. */
struct strbuf;
int batch_load_roster(struct batch *b, const char *path, struct strbuf *err);
void batch_roster_free(struct roster *r);
/* DIR/canvas.csv and DIR/moodle.csv, rows in b->st's order; a student
 * without a roster row is left out (warned once, by batch_lms_warn). */
int batch_put_canvas(FILE *f, const void *b);
int batch_put_moodle(FILE *f, const void *b);
void batch_lms_warn(const struct batch *b);
/* CSV fields (batch_gradebook.c): text gets a ' before = + - @. */
void batch_csv_field(FILE *f, const char *s, int text);

/* batch_pages.c: a student's page, DIR/students/NAME.html (html.h's
 * student view of its report, NULL for one without a submission),
 * written when the student is finished; b->pages_failed when it could not
 * be (reported). batch_write_pages: every finished student's, each report
 * read back from the spool (a merge's). 0, or -1 (reported). */
void batch_write_page(struct batch *b, const struct student *s,
		      const json_t *report);
int batch_write_pages(struct batch *b);

/* batch_rows.c. Keeps what the outputs need of s's report (s->row, the
 * tallies, the report in the spool); the caller lets go of the report.
 * 0, or -1 (reported: the spool could not be written). */
int batch_row_keep(struct batch *b, struct student *s, const json_t *report);
/* s's report read back from the spool: a new reference; NULL when it has
 * none, or (reported) when it cannot be read. */
json_t *batch_row_report(const struct batch *b, const struct student *s);
/* "7/10 (WA 2, TLE 1)": the row's score, points and verdicts but AC,
 * appended to sb. */
void batch_row_describe(const struct batch_row *r, struct strbuf *sb);
void batch_row_free(struct batch_row *r);
/* A category's hint: the suite's, else the one the first student (in
 * b->st's order) whose report has that category carried. */
const char *batch_tally_hint(const struct batch *b, const char *cat);
/* Every case some student failed: {"case", "category", "failed",
 * "verdicts": {V: n}}, as summary.json's "most_failed" has them (before
 * "of" and "hint"), in no order. A new reference; NULL out of memory. */
json_t *batch_tally_failures(const struct batch *b);
/* Closes the spool and frees the tallies. */
void batch_rows_release(struct batch *b);

/* batch_summary.c. A new reference, NULL when out of memory. */
json_t *batch_summary_json(const struct batch *b);
/* The gradebook, summary.json and summary.txt into DIR (and the summary on
 * stdout unless quiet): 0, or -1 (reported). batch.c. */
int batch_write_outputs(struct batch *b);
/* batch_similarity.c: b->similarity from the class's sources, or (a shard)
 * DIR/similarity-sources.json for the merge. 0, or -1 (reported: the
 * outputs are written without it). */
int batch_similarity(struct batch *b);
/* batch.h's exit status for a batch (or merge) that wrote its outputs:
 * 128+signal interrupted, 3 a student not graded or a partial merge, 1
 * not all accepted, else 0. batch.c. */
int batch_exit_status(const struct batch *b);
/* Frees what b holds (not b) and drops DIR's lock. batch.c. */
void batch_release(struct batch *b);
void batch_write_summary_text(FILE *f, const json_t *sum);
int batch_put_summary_text(FILE *f, const void *sum);

#endif
