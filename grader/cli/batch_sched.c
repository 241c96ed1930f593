/*
 * batch_sched: the scheduler.
 *
 * Each student is graded by its slot's grader (batch_workers.c: this same
 * binary as grade --serve, in a process group of its own) or, with
 * --grade-per-student, by a child of its own running it as an ordinary
 * single-submission grade; either way its stdout and stderr go to
 * DIR/logs/NAME.log and the JSON report to DIR/students/NAME.json.part.
 * Up to -j students are graded at once, each one case at a time, so -j
 * bounds the CPUs in use.
 *
 * The parent blocks SIGCHLD, SIGINT, SIGTERM and SIGHUP and polls a
 * signalfd of them and the sockets of the graders whose answer it awaits,
 * until the next deadline or progress refresh; no handler runs, so
 * nothing is async-signal-unsafe. A student past its deadline gets
 * SIGTERM on its grader's group, then SIGKILL after a grace period; as
 * root, whatever still runs under that slot's sandbox uid is killed then,
 * and the slot serves again only once its grader is reaped. Each child
 * dies with the batch (PR_SET_PDEATHSIG), even a SIGKILLed one.
 */
#include "grader/cli/batch_int.h"
#include "grader/cli/batch_keys.h"
#include "grader/cli/child_grade.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
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
 * STUDENT_DIR (batch_grade_argv). uid is a buffer of the caller's. Freed
 * by the caller (the strings are borrowed). */
static char **child_argv(const struct batch *b, const struct student *s,
			 char *part, char *uid)
{
	char **v = xmalloc((b->npass + 18) * sizeof *v);
	size_t k = batch_grade_argv(b, v, uid);

	v[k++] = (char *)"--json";
	v[k++] = part;
	v[k++] = (char *)b->suite_dir;
	v[k++] = s->src;
	v[k] = NULL;
	return v;
}

/* A slot no student runs in, and whose grader (if any) is not ending:
 * until it is reaped it may hold the slot's uid. -1 when none. */
static int free_slot(const struct batch *b)
{
	for (int slot = 0; slot < b->jobs; slot++) {
		size_t i;

		if (b->workers && b->workers[slot].dying)
			continue;
		for (i = 0; i < b->n; i++)
			if (b->st[i].state == ST_RUNNING && b->st[i].slot == slot)
				break;
		if (i == b->n)
			return slot;
	}
	return -1;
}

void batch_fail_student(struct batch *b, struct student *s, const char *why)
{
	s->state = ST_FAILED;
	s->error = xstrdup(why);
	b->failed++;
	b->finished++;
	batch_progress_event(b, s, "NOT GRADED: %s", why);
}

static void start_student(struct batch *b, struct student *s, int slot,
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
	s->slot = slot;
	snprintf(uid, sizeof uid, "%ld", b->uid_base + s->slot);
	argv = child_argv(b, s, part, uid);
	if (fd < 0) {
		batch_fail_student(b, s, strbuf_str(&why));
		goto out;
	}
	/* The student's grade dies with the batch, even a SIGKILLed one:
	 * its slot's grader, or a grade of its own. */
	if (b->workers) {
		pid = batch_worker_give(b, s, fd, part, oldmask, &why);
	} else {
		pid = child_grade_start(&(struct child_grade){ .argv = argv,
			.in_fd = -1, .out_fd = fd, .err_fd = fd, .own_group = 1,
			.mask = oldmask });
		if (pid < 0)
			strbuf_addf(&why, "cannot fork: %s", strerror(errno));
	}
	close(fd);
	if (pid < 0) {
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
		if (pid > 0)
			batch_worker_reaped(b, pid);
	}
}

/* s's grader failed on it (exit 3) and is let go: s goes back to the
 * queue, for a new grader, once. A grader that served others may carry
 * what went wrong from one of them; a grade of s's own would have started
 * afresh. The first try's log is kept as NAME.log.1. */
static void retry_student(struct batch *b, struct student *s)
{
	char *part = batch_out_path(b, "students", s->name, ".json.part");
	char *log = batch_out_path(b, "logs", s->name, ".log");
	char *kept = batch_out_path(b, "logs", s->name, ".log.1");

	b->running--;
	s->pid = -1;
	s->state = ST_PENDING;
	s->retried = 1;
	b->requeued++;
	unlink(part);
	rename(log, kept);
	batch_progress_event(b, s, "its grader failed (logs/%s.log.1); "
			     "grading it again with a new one", s->name);
	free(part);
	free(log);
	free(kept);
}

/* The students whose slot's grader answered: graded as a grade of their
 * own that exited with that status would be (but for one retry after
 * the grader's own failure). A late one's answer is not taken: it ends
 * when its grader is reaped, as a grade of its own does. */
static void take_answers(struct batch *b)
{
	for (size_t i = 0; b->workers && i < b->n; i++) {
		struct student *s = &b->st[i];
		int code;

		if (s->state != ST_RUNNING || s->termed ||
		    !batch_worker_answer(b, s->slot, &code))
			continue;
		if (code == WG_EXIT_INTERNAL && !s->retried && !b->stop_signal)
			retry_student(b, s);
		else
			finish_student(b, s, (code & 0xff) << 8);  /* WIFEXITED */
	}
}

/* The next student to start: a retried one first, else the next of the
 * class (NULL at the end). */
static struct student *next_student(struct batch *b, size_t *next)
{
	for (size_t i = 0; b->requeued && i < *next; i++)
		if (b->st[i].state == ST_PENDING && b->st[i].retried) {
			b->requeued--;
			return &b->st[i];
		}
	return *next < b->n ? &b->st[(*next)++] : NULL;
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
			if (b->workers)
				batch_worker_dismiss(b, s->slot);
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

/* A signal taken (sfd: a signalfd of the blocked set) or nothing: 0. */
static int take_signal(int sfd)
{
	struct signalfd_siginfo si;
	int sig = 0;

	while (read(sfd, &si, sizeof(si)) == (ssize_t)sizeof(si))
		if (si.ssi_signo != SIGCHLD)
			sig = (int)si.ssi_signo;
	return sig;
}

/* Until a signal (SIGCHLD too), a busy grader's answer or the next
 * deadline or refresh: poll over the signalfd and the sockets of the
 * graders whose answer is awaited (an idle one's end of file is its
 * reaping's to tell); no handler runs, so nothing is
 * async-signal-unsafe. */
static void wait_events(struct batch *b, int sfd)
{
	double t = wg_now(), w = next_wakeup(b, t) - t;
	struct pollfd *p = xcalloc((size_t)b->jobs + 1, sizeof(*p));
	nfds_t n = 0;
	int sig;

	p[n++] = (struct pollfd){ .fd = sfd, .events = POLLIN };
	for (size_t i = 0; b->workers && i < b->n; i++) {
		const struct student *s = &b->st[i];

		if (s->state != ST_RUNNING || s->termed)
			continue;
		if (b->workers[s->slot].pid > 0 && !b->workers[s->slot].dying)
			p[n++] = (struct pollfd){ .fd = b->workers[s->slot].sock,
						  .events = POLLIN };
	}
	if (w < 0.001)
		w = 0.001;
	poll(p, n, (int)(w * 1000) + 1);
	free(p);
	sig = take_signal(sfd);
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
	int sfd, slot;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, &old);
	if ((sfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC)) < 0)
		die("cannot make a signalfd: %s", strerror(errno));
	if (!b->grade_per_student) {
		b->workers = xcalloc((size_t)b->jobs, sizeof(*b->workers));
		for (long i = 0; i < b->jobs; i++)
			b->workers[i].sock = -1;
	}
	b->t0 = wg_now();
	batch_progress_line(b);
	for (;;) {
		struct student *s;

		while (!b->stop_signal && b->running < (size_t)b->jobs &&
		       (next < b->n || b->requeued) && (slot = free_slot(b)) >= 0 &&
		       (s = next_student(b, &next)))
			if (s->state == ST_PENDING)
				start_student(b, s, slot, &old);
		if (b->running == 0 && ((next == b->n && !b->requeued) || b->stop_signal))
			break;
		wait_events(b, sfd);
		take_answers(b);
		reap(b);
		enforce_deadlines(b, wg_now());
		batch_progress_line(b);
	}
	batch_workers_end(b);
	free(b->workers);
	b->workers = NULL;
	close(sfd);
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
