/*
 * batch_sched: the scheduler and the child grades.
 *
 * Each student is graded by a child running this same binary
 * (/proc/self/exe) as an ordinary single-submission grade, in a process
 * group of its own, with stdout and stderr going to DIR/logs/NAME.log and
 * the JSON report to DIR/students/NAME.json.part. Up to -j children run at
 * once; each grades its cases one at a time, so -j bounds the CPUs in use.
 *
 * The parent blocks SIGCHLD, SIGINT, SIGTERM and SIGHUP and waits for them
 * with sigtimedwait, whose timeout is the time to the next deadline or
 * progress refresh; no handler runs, so nothing is async-signal-unsafe.
 * A student past its deadline gets SIGTERM on its group, then SIGKILL
 * after a grace period; as root, whatever still runs under that worker's
 * sandbox uid is killed then. Each child dies with the batch
 * (PR_SET_PDEATHSIG), even a SIGKILLed one.
 */
#include "grader/cli/batch_int.h"
#include "grader/cli/batch_keys.h"
#include "grader/cli/child_grade.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "grader/lib/escape.h"
#include "grader/lib/strbuf.h"
#include "grader/lib/usage.h"
#include "grader/lib/util.h"
#include "grader/report/outfile.h"
#include "grader/run/scratch.h"

/* The child's argv: grade [passed options] -j 1 --uid-base UID --hide
 * SUBMISSIONS_DIR --hide OUT --staff --color=never --json PART SUITE_DIR
 * STUDENT_DIR. uid is a buffer of the
 * caller's. Freed by the caller (the strings are borrowed). */
static char **child_argv(const struct batch *b, const struct student *s,
			 char *part, char *uid)
{
	char **v = xmalloc((b->npass + 18) * sizeof *v);
	size_t k = 0;

	v[k++] = (char *)"grade";
	for (size_t i = 0; i < b->npass; i++)
		v[k++] = b->pass[i];
	/* Students run side by side; each grades its cases one at a time,
	 * as root under its worker's own uid (slot 0 of a grade is its
	 * --uid-base), so no two students ever share a sandbox uid. */
	v[k++] = (char *)"-j";
	v[k++] = (char *)"1";
	v[k++] = (char *)"--uid-base";
	v[k++] = uid;
	/* No student reads another's sources or reports (root only). */
	v[k++] = (char *)"--hide";
	v[k++] = (char *)b->subs_dir;
	v[k++] = (char *)"--hide";
	v[k++] = (char *)b->out;
	/* The log is the staff's: every diff in it. */
	v[k++] = (char *)"--staff";
	v[k++] = (char *)"--color=never";
	v[k++] = (char *)"--json";
	v[k++] = part;
	v[k++] = (char *)b->suite_dir;
	v[k++] = s->src;
	v[k] = NULL;
	return v;
}

static int free_slot(const struct batch *b)
{
	for (int slot = 0;; slot++) {
		size_t i;

		for (i = 0; i < b->n; i++)
			if (b->st[i].state == ST_RUNNING && b->st[i].slot == slot)
				break;
		if (i == b->n)
			return slot;
	}
}

void batch_fail_student(struct batch *b, struct student *s, const char *why)
{
	s->state = ST_FAILED;
	s->error = xstrdup(why);
	b->failed++;
	b->finished++;
	batch_progress_event(b, s, "NOT GRADED: %s", why);
}

static void start_student(struct batch *b, struct student *s,
			  const sigset_t *oldmask)
{
	char *log = batch_out_path(b, "logs", s->name, ".log");
	char *part = batch_out_path(b, "students", s->name, ".json.part");
	char uid[32];
	char **argv;
	struct strbuf why = STRBUF_INIT;
	int fd = outfile_open_new(log, &why);
	pid_t pid;

	unlink(part);
	s->slot = free_slot(b);
	snprintf(uid, sizeof uid, "%ld", b->uid_base + s->slot);
	argv = child_argv(b, s, part, uid);
	if (fd < 0) {
		batch_fail_student(b, s, strbuf_str(&why));
		goto out;
	}
	/* The student's grade dies with the batch, even a SIGKILLed one. */
	pid = child_grade_start(&(struct child_grade){ argv, fd, fd, 1, oldmask });
	close(fd);
	if (pid < 0) {
		strbuf_addf(&why, "cannot fork: %s", strerror(errno));
		batch_fail_student(b, s, strbuf_str(&why));
		goto out;
	}
	s->pid = pid;
	s->state = ST_RUNNING;
	s->started = wg_now();
	s->deadline = s->started + b->student_timeout;
	s->termed = 0;
	b->running++;
out:
	strbuf_release(&why);
	free(argv);
	free(part);
	free(log);
}

/* The line of the student's log that best says why grade gave up: the
 * last one grade itself wrote ("grade: ..."), else the last non-empty one. */
static void log_tail(const struct batch *b, const struct student *s,
		     char *buf, size_t n)
{
	char *log = batch_out_path(b, "logs", s->name, ".log");
	FILE *f = fopen(log, "r");
	char line[512];
	int from_grade = 0;

	buf[0] = '\0';
	free(log);
	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		int ours = strncmp(line, "grade:", 6) == 0;
		size_t len;

		line[strcspn(line, "\r\n")] = '\0';
		if (!line[0] || (from_grade && !ours))
			continue;
		from_grade |= ours;
		len = strnlen(line, n - 1); /* a reminder, not the log */
		memcpy(buf, line, len);
		buf[len] = '\0';
	}
	fclose(f);
	/* It reaches the gradebook, summary.txt and the terminal. */
	escape_scrub(buf, strlen(buf), 0);
}

static void iso_time(char *buf, size_t n)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Adds the resume keys to the child's report and stores it for good. */
static int keep_report(struct batch *b, struct student *s, json_t *r,
		       int exit_code, struct strbuf *why)
{
	char *final = batch_out_path(b, "students", s->name, ".json");
	char when[32];
	int rc;

	iso_time(when, sizeof when);
	json_object_set_new(r, RK_STUDENT, json_string(s->name));
	json_object_set_new(r, BK_SOURCE_HASH, json_string(s->hash));
	json_object_set_new(r, BK_SUITE_HASH, json_string(b->suite_hash));
	json_object_set_new(r, BK_GRADE_OPTIONS, json_string(b->options_key));
	json_object_set_new(r, BK_GRADED_AT, json_string(when));
	json_object_set_new(r, BK_GRADE_EXIT, json_integer(exit_code));
	json_object_set_new(r, BK_SHARD, batch_shard_json(&b->shard));
	rc = batch_write_file(final, batch_put_json, r);
	if (rc != 0)
		strbuf_addf(why, "cannot store the report '%s'", final);
	free(final);
	return rc;
}

/* A student without a C source gets a report that says so: no cases run,
 * no verdicts, not a compile error. */
int batch_keep_no_submission(struct batch *b, struct student *s)
{
	char *final = batch_out_path(b, "students", s->name, ".json");
	char when[32];
	json_t *r;
	int rc;

	iso_time(when, sizeof when);
	r = json_pack("{s:s, s:s, s:s, s:s, s:s, s:i, s:i, s:[], s:s, s:s, "
		      "s:s, s:s}",
		RK_SUITE, b->suite.name, RK_GRADER_VERSION, WG_VERSION,
		RK_STATUS, BK_NO_SUBMISSION_STATUS,
		RK_DETAIL, s->error ? s->error : "no .c file in the folder "
			  "(__MACOSX and dot-folders ignored)",
		RK_STUDENT, s->name, RK_SCORE, 0,
		RK_MAX_SCORE, (int)suite_max_score(&b->suite), RK_SUBMISSIONS,
		BK_SOURCE_HASH, s->hash, BK_SUITE_HASH, b->suite_hash,
		BK_GRADE_OPTIONS, b->options_key, BK_GRADED_AT, when);
	if (r)
		json_object_set_new(r, BK_SHARD, batch_shard_json(&b->shard));
	rc = r ? batch_write_file(final, batch_put_json, r) : error("out of memory");
	json_decref(r);
	free(final);
	return rc;
}

/* Why a child that did not leave a usable report failed. */
static void explain_failure(const struct batch *b, const struct student *s,
			    int status, struct strbuf *why)
{
	char tail[400];

	log_tail(b, s, tail, sizeof tail);
	if (s->termed && b->stop_signal)
		strbuf_addf(why, "interrupted (signal %d) before it finished",
			    b->stop_signal);
	else if (s->termed)
		strbuf_addf(why, "grading took longer than %g s; stopped "
			    "(logs/%s.log)", b->student_timeout, s->name);
	else if (WIFSIGNALED(status))
		strbuf_addf(why, "grade died of signal %d (logs/%s.log)",
			    WTERMSIG(status), s->name);
	else
		strbuf_addf(why, "grade exited with status %d: %s",
			    WEXITSTATUS(status), tail[0] ? tail : "(no message)");
}

/* s's report r is kept (batch_rows.c), its page written, and let go. */
static void mark_graded(struct batch *b, struct student *s, json_t *r)
{
	struct strbuf res = STRBUF_INIT;

	if (batch_row_keep(b, s, r) < 0) {
		json_decref(r);
		batch_fail_student(b, s, "its report could not be kept for the "
				   "class's files (above)");
		return;
	}
	s->state = ST_DONE;
	batch_write_page(b, s, r);
	json_decref(r);
	b->graded++;
	b->finished++;
	if (!s->row.accepted)
		b->imperfect++;
	batch_row_describe(&s->row, &res);
	batch_progress_event(b, s, "%s in %.1f s", strbuf_str(&res),
			     wg_now() - s->started);
	strbuf_release(&res);
}

static void finish_student(struct batch *b, struct student *s, int status)
{
	char *part = batch_out_path(b, "students", s->name, ".json.part");
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	json_error_t err;
	json_t *r = NULL;
	struct strbuf why = STRBUF_INIT;

	b->running--;
	if (s->termed || WIFSIGNALED(status))
		scratch_kill_uids_of(s->pid);
	s->pid = -1;
	/* Exit 0 and 1 are graded; 3 (the grader's own failure) may still
	 * carry a report with IE cases, which is not the student's fault but
	 * must be looked at, so it is not kept as a final grade. */
	if (!s->termed && (code == 0 || code == 1)) {
		r = json_load_file(part, 0, &err);
		if (!r)
			strbuf_addf(&why, "unreadable report %s:%d:%d: %s", part,
				    err.line, err.column, err.text);
		else if (json_array_size(json_object_get(r, RK_SUBMISSIONS)) != 1)
			strbuf_addf(&why, "report '%s' holds no submission", part);
		else if (keep_report(b, s, r, code, &why) == 0)
			goto graded;
	} else {
		explain_failure(b, s, status, &why);
	}
	json_decref(r);
	unlink(part);
	free(part);
	batch_fail_student(b, s, strbuf_str(&why));
	strbuf_release(&why);
	return;
graded:
	unlink(part);
	free(part);
	mark_graded(b, s, r);
}
static struct student *by_pid(struct batch *b, pid_t pid)
{
	for (size_t i = 0; i < b->n; i++)
		if (b->st[i].state == ST_RUNNING && b->st[i].pid == pid)
			return &b->st[i];
	return NULL;
}

static void reap(struct batch *b)
{
	int status;
	pid_t pid;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0 ||
	       (pid < 0 && errno == EINTR)) {
		struct student *s = pid > 0 ? by_pid(b, pid) : NULL;

		if (s) {
			/* The grade is gone; anything it left behind too. */
			kill(-pid, SIGKILL);
			finish_student(b, s, status);
		}
	}
}

/* SIGTERM to a late student's group, SIGKILL after the grace period. */
static void enforce_deadlines(struct batch *b, double t)
{
	for (size_t i = 0; i < b->n; i++) {
		struct student *s = &b->st[i];

		if (s->state != ST_RUNNING)
			continue;
		if (!s->termed && (t >= s->deadline || b->stop_signal)) {
			kill(-s->pid, SIGTERM);
			s->termed = t;
		} else if (s->termed && t >= s->termed + TERM_GRACE_SEC) {
			kill(-s->pid, SIGKILL);
		}
	}
}

static double next_wakeup(const struct batch *b, double t)
{
	double w = t + (b->tty ? REFRESH_SEC : 5.0);

	for (size_t i = 0; i < b->n; i++) {
		const struct student *s = &b->st[i];
		double d;

		if (s->state != ST_RUNNING)
			continue;
		d = s->termed ? s->termed + TERM_GRACE_SEC : s->deadline;
		if (d < w)
			w = d;
	}
	return w;
}

static void wait_events(struct batch *b, const sigset_t *set)
{
	double t = wg_now(), w = next_wakeup(b, t) - t;
	struct timespec ts;
	int sig;

	if (w < 0.001)
		w = 0.001;
	ts.tv_sec = (time_t)w;
	ts.tv_nsec = (long)((w - (double)ts.tv_sec) * 1e9);
	sig = sigtimedwait(set, NULL, &ts);
	if ((sig == SIGINT || sig == SIGTERM || sig == SIGHUP) &&
	    !b->stop_signal) {
		b->stop_signal = sig;
		if (b->line_shown)
			fputs("\r\033[K", stderr);
		warning("interrupted; stopping the students being graded "
			 "(finished ones are kept)");
		b->line_shown = 0;
	}
}

void batch_run_all(struct batch *b)
{
	sigset_t set, old;
	size_t next = 0;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, &old);
	b->t0 = wg_now();
	batch_progress_line(b);
	for (;;) {
		while (!b->stop_signal && b->running < (size_t)b->jobs &&
		       next < b->n) {
			struct student *s = &b->st[next++];

			if (s->state == ST_PENDING)
				start_student(b, s, &old);
		}
		if (b->running == 0 && (next == b->n || b->stop_signal))
			break;
		wait_events(b, &set);
		reap(b);
		enforce_deadlines(b, wg_now());
		batch_progress_line(b);
	}
	/* Students never started still get a row saying so (and no line
	 * each: the interruption was reported once). */
	for (size_t i = 0; i < b->n; i++) {
		if (b->st[i].state != ST_PENDING)
			continue;
		b->st[i].state = ST_FAILED;
		b->st[i].not_started = 1;
		b->st[i].error = xstrdup("not started: the batch was interrupted");
		b->failed++;
	}
	if (b->line_shown)
		fputs("\r\033[K", stderr);
	b->line_shown = 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
}
