/*
 * batch: grade a whole class, one child grade process per student.
 *
 * Theory of operation. The parent never grades anything itself: for each
 * student directory it forks and execs this same binary (/proc/self/exe)
 * as an ordinary single-submission grade, in a process group of its own,
 * with stdout and stderr going to DIR/logs/NAME.log and the JSON report to
 * DIR/students/NAME.json.part. Whatever that child does (crash, hang past
 * the student deadline, fail to build the submission) costs one student
 * only. Up to -j children run at once; each grades its cases one at a
 * time, so -j bounds the CPUs in use.
 *
 * The parent blocks SIGCHLD, SIGINT, SIGTERM and SIGHUP and waits for them
 * with sigtimedwait, whose timeout is the time to the next deadline or
 * progress refresh; no handler runs, so nothing is async-signal-unsafe.
 * A student past its deadline gets SIGTERM on its group, then SIGKILL after
 * a grace period; as root, whatever still runs under that worker's sandbox
 * uid is killed then. An interrupt stops the batch the same way and still
 * writes the gradebook for the students finished so far.
 *
 * When a child ends with a report, the parent adds the keys that make the
 * batch resumable ("student", "source_hash", "suite_hash", "grade_options",
 * "graded_at") and writes DIR/students/NAME.json through a temporary file,
 * fsync and rename, so a report on disk is always whole. A later run skips
 * a student whose report records the same three hashes/options: FNV-1a 64
 * over every file's relative path and contents, for the student's
 * directory and for the suite directory, and the options passed through.
 * A student that could not be graded gets no report, so it is retried.
 *
 * At the end DIR/gradebook.csv, DIR/summary.txt, DIR/summary.json and
 * DIR/report.html are rebuilt from every current student's report (graded
 * now or earlier).
 *
 * One batch per DIR (an flock on DIR/.lock naming its pid); every file in
 * DIR is private and written through outfile.h; each child dies with the
 * batch (PR_SET_PDEATHSIG), even a SIGKILLed one.
 */
#include "grader/cli/batch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "grader/report/html.h"
#include "grader/report/outfile.h"
#include "grader/run/runner.h"
#include "grader/run/scratch.h"
#include "grader/judge/suite.h"

/* SIGTERM to SIGKILL for a late student: grade, on SIGTERM, lets the case
 * in flight end by its own limits and removes its scratch tree. */
#define TERM_GRACE_SEC 5.0
#define REFRESH_SEC 0.5        /* progress line refresh on a terminal */
#define TOP_FAILED 10          /* cases listed in the summary */
#define HIST_BINS 10
#define BATCH_UID_OFFSET 64    /* grade's most slots (-j 64) */

/* grade options that take their value as the next word (anything else
 * starting with '-' is passed through as one word; "--opt=value" always is
 * one word). */
static const char *const value_options[] = {
	"--time-limit", "--wall-limit", "--memory-limit", "--output-limit",
	"--color", "--colour", "--hide",
};

/* Options that make no sense per student: batch writes its own reports. */
static const char *const refused_options[] = {
	"--json", "--junit", "--gradescope", "--html",
};

enum student_state { ST_PENDING, ST_RUNNING, ST_SKIPPED, ST_DONE, ST_FAILED,
		     ST_NO_SUBMISSION };

struct student {
	char *name;              /* directory name under SUBMISSIONS_DIR */
	char *dir;               /* SUBMISSIONS_DIR/NAME */
	char *src;               /* the folder under dir holding the .c files */
	int not_started;         /* FAILED: the batch stopped before it */
	char hash[17];           /* FNV-1a 64 of the sources, hex */
	enum student_state state;
	pid_t pid;
	int slot;                /* worker slot while running */
	double started, deadline, termed;
	char *error;             /* why it could not be graded (FAILED) */
	json_t *report;          /* the student's report (SKIPPED, DONE) */
};

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
	struct student *st;
	size_t n;
	/* progress */
	double t0;
	size_t finished, graded, skipped, failed, imperfect, running;
	size_t no_submission;
	int line_shown;
	int stop_signal;
	int lock_fd;             /* DIR/.lock, held while the batch runs */
};

__attribute__((format(printf, 1, 2)))
static void complain(const char *fmt, ...)
{
	va_list ap;

	fputs("grade: batch: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static double now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		complain("out of memory");
		exit(3);
	}
	return p;
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

/* Returns a malloc'd "a/b"; the caller frees it. */
static char *join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *p = xmalloc(la + lb + 2);

	memcpy(p, a, la);
	p[la] = '/';
	memcpy(p + la + 1, b, lb + 1);
	return p;
}

/* ---- hashing the sources ------------------------------------------------ */

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

static void fnv(uint64_t *h, const void *p, size_t n)
{
	const unsigned char *c = p;

	for (size_t i = 0; i < n; i++) {
		*h ^= c[i];
		*h *= FNV_PRIME;
	}
}

struct namelist {
	char **v;
	size_t n, cap;
};

static void names_add(struct namelist *l, char *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->v = realloc(l->v, l->cap * sizeof *l->v);
		if (!l->v) {
			complain("out of memory");
			exit(3);
		}
	}
	l->v[l->n++] = s;
}

static void names_free(struct namelist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every non-directory under root, as paths relative to it (recursive). */
static void list_files(const char *root, const char *rel, struct namelist *l)
{
	char *path = rel ? join(root, rel) : xstrdup(root);
	DIR *d = opendir(path);
	struct dirent *e;

	if (!d) {
		free(path);
		return;
	}
	while ((e = readdir(d)) != NULL) {
		char *r, *full;
		struct stat sb;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		r = rel ? join(rel, e->d_name) : xstrdup(e->d_name);
		full = join(root, r);
		if (lstat(full, &sb) == 0 && S_ISDIR(sb.st_mode)) {
			list_files(root, r, l);
			free(r);
		} else {
			names_add(l, r);
		}
		free(full);
	}
	closedir(d);
	free(path);
}

static void hash_file(uint64_t *h, const char *path)
{
	char buf[65536], link[PATH_MAX];
	struct stat sb;
	ssize_t n;
	int fd;

	if (lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode)) {
		n = readlink(path, link, sizeof link);
		if (n > 0)
			fnv(h, link, (size_t)n);
		return;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return;
	while ((n = read(fd, buf, sizeof buf)) > 0 ||
	       (n < 0 && errno == EINTR))
		if (n > 0)
			fnv(h, buf, (size_t)n);
	close(fd);
}

/* FNV-1a 64 over each file's relative path, a NUL, and its contents, in
 * sorted path order; out gets 16 hex digits. */
static void hash_tree(const char *root, char out[17])
{
	struct namelist l = { NULL, 0, 0 };
	uint64_t h = FNV_OFFSET;

	list_files(root, NULL, &l);
	if (l.n)
		qsort(l.v, l.n, sizeof *l.v, cmp_str);
	for (size_t i = 0; i < l.n; i++) {
		char *full = join(root, l.v[i]);

		fnv(&h, l.v[i], strlen(l.v[i]) + 1);
		hash_file(&h, full);
		fnv(&h, "", 1);
		free(full);
	}
	names_free(&l);
	snprintf(out, 17, "%016llx", (unsigned long long)h);
}

/* ---- the command line --------------------------------------------------- */

static void usage(FILE *f)
{
	fputs("usage: grade --batch SUITE_DIR SUBMISSIONS_DIR --out DIR "
	      "[-j N] [--force]\n"
	      "                   [--student-timeout SECONDS] [--quiet] "
	      "[grade options...]\n"
	      "Grades every subdirectory of SUBMISSIONS_DIR (one student "
	      "each: the one folder\n"
	      "in it that holds .c files, at any depth) and writes\n"
	      "DIR/students/NAME.json, DIR/logs/NAME.log, DIR/gradebook.csv, "
	      "DIR/summary.txt,\n"
	      "DIR/summary.json and DIR/report.html. A student graded before "
	      "whose sources,\n"
	      "suite and options are unchanged is skipped (--force regrades "
	      "everyone). -j\n"
	      "defaults to the number of CPUs less one. Other options "
	      "(--time-limit, --exact, ...)\n"
	      "go to each grading.\n", f);
}

static int in_table(const char *arg, const char *const *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(arg, t[i]) == 0)
			return 1;
	return 0;
}

#define IN_TABLE(arg, t) in_table(arg, t, sizeof t / sizeof *t)

/* The option's name without any "=value". */
static char *option_name(const char *arg)
{
	const char *eq = strchr(arg, '=');
	size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
	char *s = xmalloc(n + 1);

	memcpy(s, arg, n);
	s[n] = '\0';
	return s;
}

static int parse_long(const char *s, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(s, &end, 10);
	return errno == 0 && end != s && *end == '\0';
}

static int parse_seconds(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return errno == 0 && end != s && *end == '\0' && *v > 0;
}

static long default_jobs(void)
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

/* The value of "--opt VALUE" / "--opt=VALUE" / "-jN"; advances *i. */
static const char *option_value(int argc, char **argv, int *i,
				const char *name)
{
	const char *arg = argv[*i];
	size_t n = strlen(name);

	if (strncmp(arg, name, n) == 0 && arg[n] == '=')
		return arg + n + 1;
	if (strcmp(name, "-j") == 0 && strncmp(arg, "-j", 2) == 0 && arg[2])
		return arg + 2;
	if (*i + 1 >= argc) {
		complain("option '%s' needs a value", name);
		return NULL;
	}
	return argv[++*i];
}

static int is_opt(const char *arg, const char *name)
{
	size_t n = strlen(name);

	return strncmp(arg, name, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

/* Handles one option of batch's own; 1 handled, 0 not ours, -1 error. */
static int own_option(struct batch *b, int argc, char **argv, int *i)
{
	const char *arg = argv[*i], *v;

	if (strcmp(arg, "--batch") == 0)
		return 1;
	if (strcmp(arg, "--force") == 0)
		return b->force = 1;
	if (strcmp(arg, "--quiet") == 0 || strcmp(arg, "-q") == 0)
		return b->quiet = 1;
	if (is_opt(arg, "--out") || is_opt(arg, "-o")) {
		v = option_value(argc, argv, i, arg[1] == 'o' ? "-o" : "--out");
		b->out = v;
		return v ? 1 : -1;
	}
	if (is_opt(arg, "--jobs") || strncmp(arg, "-j", 2) == 0) {
		v = option_value(argc, argv, i, arg[1] == 'j' ? "-j" : "--jobs");
		if (!v)
			return -1;
		if (!parse_long(v, &b->jobs) || b->jobs < 1 || b->jobs > 1024) {
			complain("-j: '%s' is not a number from 1 to 1024", v);
			return -1;
		}
		return 1;
	}
	if (is_opt(arg, "--uid-base")) {
		v = option_value(argc, argv, i, "--uid-base");
		if (!v)
			return -1;
		if (!parse_long(v, &b->uid_base) || b->uid_base < 1000) {
			complain("--uid-base: '%s' is not a uid of 1000 or more",
				 v);
			return -1;
		}
		return 1;
	}
	if (is_opt(arg, "--student-timeout")) {
		v = option_value(argc, argv, i, "--student-timeout");
		if (!v)
			return -1;
		if (!parse_seconds(v, &b->student_timeout)) {
			complain("--student-timeout: '%s' is not a positive "
				 "number of seconds", v);
			return -1;
		}
		return 1;
	}
	return 0;
}

/* Appends a passed-through option (and its value) to b->pass. */
static int pass_option(struct batch *b, int argc, char **argv, int *i)
{
	char *name = option_name(argv[*i]);
	int rc = 0;

	if (IN_TABLE(name, refused_options)) {
		complain("'%s' is not available with --batch: every student's "
			 "report is in DIR/students/", name);
		rc = -1;
	} else {
		b->pass[b->npass++] = argv[*i];
		if (!strchr(argv[*i], '=') && IN_TABLE(name, value_options)) {
			if (*i + 1 >= argc) {
				complain("option '%s' needs a value", name);
				rc = -1;
			} else {
				b->pass[b->npass++] = argv[++*i];
			}
		}
	}
	free(name);
	return rc;
}

static char *join_words(char **w, size_t n)
{
	size_t len = 1;
	char *s, *p;

	for (size_t i = 0; i < n; i++)
		len += strlen(w[i]) + 1;
	s = p = xmalloc(len);
	*p = '\0';
	for (size_t i = 0; i < n; i++)
		p += sprintf(p, "%s%s", i ? " " : "", w[i]);
	return s;
}

/* 0 ok, 1 --help given, -1 usage error (already reported). */
static int parse_args(struct batch *b, int argc, char **argv)
{
	const char *pos[2];
	size_t npos = 0;

	b->pass = xmalloc((size_t)argc * sizeof *b->pass);
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		int rc;

		if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)
			return 1;
		if (arg[0] != '-' || arg[1] == '\0') {
			if (npos == 2) {
				complain("unexpected argument '%s'", arg);
				return -1;
			}
			pos[npos++] = arg;
			continue;
		}
		rc = own_option(b, argc, argv, &i);
		if (rc == 0)
			rc = pass_option(b, argc, argv, &i);
		if (rc < 0)
			return -1;
	}
	if (npos < 2 || !b->out) {
		complain("%s", npos < 2 ? "needs SUITE_DIR and SUBMISSIONS_DIR"
					: "needs --out DIR");
		return -1;
	}
	b->suite_dir = pos[0];
	b->subs_dir = pos[1];
	b->options_key = join_words(b->pass, b->npass);
	return 0;
}

/* ---- students ------------------------------------------------------------ */

static int cmp_student(const void *a, const void *b)
{
	return strcmp(((const struct student *)a)->name,
		      ((const struct student *)b)->name);
}

static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Every subdirectory of SUBMISSIONS_DIR but dot-names and DIR itself. */
static int find_students(struct batch *b)
{
	DIR *d = opendir(b->subs_dir);
	struct dirent *e;
	size_t cap = 0;

	if (!d) {
		complain("cannot open '%s': %s", b->subs_dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		char *dir;
		struct stat sb;

		if (e->d_name[0] == '.')
			continue;
		dir = join(b->subs_dir, e->d_name);
		if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode) ||
		    same_file(dir, b->out)) {
			free(dir);
			continue;
		}
		if (b->n == cap) {
			cap = cap ? 2 * cap : 32;
			b->st = realloc(b->st, cap * sizeof *b->st);
			if (!b->st) {
				complain("out of memory");
				exit(3);
			}
		}
		memset(&b->st[b->n], 0, sizeof b->st[b->n]);
		b->st[b->n].name = xstrdup(e->d_name);
		b->st[b->n].dir = dir;
		b->st[b->n].pid = -1;
		b->n++;
	}
	closedir(d);
	if (b->n)
		qsort(b->st, b->n, sizeof *b->st, cmp_student);
	return 0;
}

/* ---- where a student's sources are --------------------------------------- */

#define MAX_SOURCE_DEPTH 16

/* 1 when dir directly holds a regular file named *.c. */
static int holds_sources(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0;

	while (d && !found && (e = readdir(d)) != NULL) {
		size_t n = strlen(e->d_name);
		struct stat sb;
		char *p;

		if (e->d_name[0] == '.' || n < 3 || strcmp(e->d_name + n - 2, ".c"))
			continue;
		p = join(dir, e->d_name);
		found = lstat(p, &sb) == 0 && S_ISREG(sb.st_mode);
		free(p);
	}
	if (d)
		closedir(d);
	return found;
}

/* Every folder at or under dir (links not followed; __MACOSX and dot
 * names skipped, as the Gradescope script does) that holds .c files. */
static void source_dirs(const char *dir, int depth, struct namelist *l)
{
	DIR *d;
	struct dirent *e;

	if (holds_sources(dir))
		names_add(l, xstrdup(dir));
	if (depth >= MAX_SOURCE_DEPTH || !(d = opendir(dir)))
		return;
	while ((e = readdir(d)) != NULL) {
		struct stat sb;
		char *p;

		if (e->d_name[0] == '.' || strcmp(e->d_name, "__MACOSX") == 0)
			continue;
		p = join(dir, e->d_name);
		if (lstat(p, &sb) == 0 && S_ISDIR(sb.st_mode))
			source_dirs(p, depth + 1, l);
		free(p);
	}
	closedir(d);
}

/* The student's source folder: s->src, or NO_SUBMISSION, or FAILED with
 * both folders named when there are two or more. */
static void find_sources(struct batch *b, struct student *s)
{
	struct namelist l = { NULL, 0, 0 };
	size_t root = strlen(s->dir);

	source_dirs(s->dir, 0, &l);
	if (l.n > 1)
		qsort(l.v, l.n, sizeof *l.v, cmp_str);
	if (l.n == 0) {
		s->state = ST_NO_SUBMISSION;
	} else if (l.n == 1) {
		s->src = l.v[0];
		l.v[0] = NULL;
	} else {
		char why[1200];

		snprintf(why, sizeof why, "C sources in %zu folders, '%s' and "
			 "'%s'%s; a submission is one folder", l.n,
			 l.v[0][root] ? l.v[0] + root + 1 : ".",
			 l.v[1][root] ? l.v[1] + root + 1 : ".",
			 l.n > 2 ? " (and more)" : "");
		s->state = ST_FAILED;
		s->error = xstrdup(why);
		b->failed++;
		b->finished++;
	}
	names_free(&l);
}

/* Returns a malloc'd DIR/SUB/NAME.EXT. */
static char *out_path(const struct batch *b, const char *sub,
		      const char *name, const char *ext)
{
	size_t n = strlen(b->out) + strlen(sub) + strlen(name) +
		   strlen(ext) + 3;
	char *p = xmalloc(n);

	snprintf(p, n, "%s/%s/%s%s", b->out, sub, name, ext);
	return p;
}

static int key_matches(const json_t *r, const char *key, const char *want)
{
	const char *v = json_string_value(json_object_get(r, key));

	return v && strcmp(v, want) == 0;
}

/* Loads the report of an earlier run when it is still valid for the
 * student's current sources, suite, options and grader version. */
static void try_resume(struct batch *b, struct student *s)
{
	char *path = out_path(b, "students", s->name, ".json");
	json_error_t err;
	json_t *r = json_load_file(path, 0, &err);

	free(path);
	if (!r)
		return;
	/* A report from another grader version is stale: a grader fix must
	 * reach every student on the next run. */
	if (!b->force && key_matches(r, "source_hash", s->hash) &&
	    key_matches(r, "grader_version", WG_VERSION) &&
	    key_matches(r, "suite_hash", b->suite_hash) &&
	    key_matches(r, "grade_options", b->options_key) &&
	    json_array_size(json_object_get(r, "submissions")) == 1) {
		s->report = r;
		s->state = ST_SKIPPED;
		return;
	}
	json_decref(r);
}

/* ---- progress ------------------------------------------------------------ */

static void fmt_duration(char *buf, size_t n, double sec)
{
	long s = (long)(sec + 0.5);

	if (s >= 3600)
		snprintf(buf, n, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60,
			 s % 60);
	else
		snprintf(buf, n, "%ld:%02ld", s / 60, s % 60);
}

static void progress_line(struct batch *b)
{
	size_t to_grade = b->n - b->skipped;
	size_t graded_or_failed = b->graded + b->failed;
	char eta[32] = "?";

	if (!b->tty || b->quiet)
		return;
	/* Skipped students take no time; the rate comes from the others. */
	if (graded_or_failed > 0)
		fmt_duration(eta, sizeof eta, (now_sec() - b->t0) /
			     (double)graded_or_failed *
			     (double)(to_grade - graded_or_failed));
	fprintf(stderr, "\r\033[K[%zu/%zu] %zu running, %zu not all AC, "
		"%zu not graded, ETA %s", b->finished, b->n, b->running,
		b->imperfect, b->failed, graded_or_failed ? eta : "?");
	fflush(stderr);
	b->line_shown = 1;
}

/* One line for a finished student: plain when not on a terminal, printed
 * above the progress line when on one. */
static void progress_event(struct batch *b, const struct student *s,
			   const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void progress_event(struct batch *b, const struct student *s,
			   const char *fmt, ...)
{
	va_list ap;

	if (b->quiet && s->state != ST_FAILED)
		return;
	if (b->line_shown)
		fputs("\r\033[K", stderr);
	fprintf(stderr, "[%zu/%zu] %s: ", b->finished, b->n, s->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	b->line_shown = 0;
	progress_line(b);
}

/* "7/10 (WA 2, TLE 1)" for a one-submission report. */
static void describe_result(const json_t *r, char *buf, size_t n)
{
	const json_t *sub = json_array_get(json_object_get(r, "submissions"), 0);
	const json_t *counts = json_object_get(sub, "verdicts");
	static const char *const order[] = {
		"WA", "TLE", "MLE", "OLE", "RTE", "CE", "IE",
	};
	size_t len;
	const char *sep = " (";

	len = (size_t)snprintf(buf, n, "%g/%g",
		json_number_value(json_object_get(sub, "score")),
		json_number_value(json_object_get(sub, "max_score")));
	for (size_t i = 0; i < sizeof order / sizeof *order && len < n; i++) {
		json_int_t c = json_integer_value(
			json_object_get(counts, order[i]));

		if (c <= 0)
			continue;
		len += (size_t)snprintf(buf + len, n - len, "%s%s %lld", sep,
					order[i], (long long)c);
		sep = ", ";
	}
	if (*sep == ',' && len < n)
		snprintf(buf + len, n - len, ")");
}

static int all_accepted(const json_t *r)
{
	const json_t *sub = json_array_get(json_object_get(r, "submissions"), 0);
	const json_t *counts = json_object_get(sub, "verdicts");
	const char *key;
	const json_t *v;

	json_object_foreach((json_t *)counts, key, v)
		if (strcmp(key, "AC") != 0 && json_integer_value(v) > 0)
			return 0;
	return json_array_size(json_object_get(sub, "cases")) > 0;
}

/* ---- running one student --------------------------------------------------- */

/* Writes path through a new temporary file (fn fills it), fsync and
 * rename (outfile.h), so a file on disk is always whole and private.
 * 0, or -1 (reported; no temporary file left). */
static int write_file_atomic(const char *path, int (*fn)(FILE *, const void *),
			     const void *arg)
{
	char err[4400];

	if (outfile_write(path, fn, arg, err, sizeof err) == 0)
		return 0;
	complain("%s", err);
	return -1;
}

static int put_json(FILE *f, const void *j)
{
	return json_dumpf(j, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0 ||
	       fputc('\n', f) == EOF ? -1 : 0;
}

static int write_json_atomic(const char *path, const json_t *j)
{
	return write_file_atomic(path, put_json, j);
}

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

static void fail_student(struct batch *b, struct student *s, const char *why)
{
	s->state = ST_FAILED;
	s->error = xstrdup(why);
	b->failed++;
	b->finished++;
	progress_event(b, s, "NOT GRADED: %s", why);
}

static void start_student(struct batch *b, struct student *s,
			  const sigset_t *oldmask)
{
	char *log = out_path(b, "logs", s->name, ".log");
	char *part = out_path(b, "students", s->name, ".json.part");
	char uid[32], err[4400];
	char **argv;
	int fd = outfile_create(log, err, sizeof err);
	pid_t pid, parent = getpid();

	unlink(part);
	s->slot = free_slot(b);
	snprintf(uid, sizeof uid, "%ld", b->uid_base + s->slot);
	argv = child_argv(b, s, part, uid);
	if (fd < 0) {
		fail_student(b, s, err);
		goto out;
	}
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		/* The student's grade dies with the batch, even a SIGKILLed
		 * one; the batch may have died before the prctl took. */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
			_exit(127);
		setpgid(0, 0);
		if (null >= 0)
			dup2(null, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		sigprocmask(SIG_SETMASK, oldmask, NULL);
		execv("/proc/self/exe", argv);
		dprintf(2, "grade: batch: cannot run '/proc/self/exe': %s\n",
			strerror(errno));
		_exit(127);
	}
	close(fd);
	if (pid < 0) {
		char why[256];

		snprintf(why, sizeof why, "cannot fork: %s", strerror(errno));
		fail_student(b, s, why);
		goto out;
	}
	setpgid(pid, pid); /* whichever of the two runs first */
	s->pid = pid;
	s->state = ST_RUNNING;
	s->started = now_sec();
	s->deadline = s->started + b->student_timeout;
	s->termed = 0;
	b->running++;
out:
	free(argv);
	free(part);
	free(log);
}

/* The line of the student's log that best says why grade gave up: the
 * last one grade itself wrote ("grade: ..."), else the last non-empty one. */
static void log_tail(const struct batch *b, const struct student *s,
		     char *buf, size_t n)
{
	char *log = out_path(b, "logs", s->name, ".log");
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
		       int exit_code, char *why, size_t n)
{
	char *final = out_path(b, "students", s->name, ".json");
	char when[32];
	int rc;

	iso_time(when, sizeof when);
	json_object_set_new(r, "student", json_string(s->name));
	json_object_set_new(r, "source_hash", json_string(s->hash));
	json_object_set_new(r, "suite_hash", json_string(b->suite_hash));
	json_object_set_new(r, "grade_options", json_string(b->options_key));
	json_object_set_new(r, "graded_at", json_string(when));
	json_object_set_new(r, "grade_exit", json_integer(exit_code));
	rc = write_json_atomic(final, r);
	if (rc != 0)
		snprintf(why, n, "cannot store the report '%s'", final);
	free(final);
	return rc;
}

/* A student without a C source gets a report that says so: no cases run,
 * no verdicts, not a compile error. */
static int keep_no_submission(struct batch *b, struct student *s)
{
	char *final = out_path(b, "students", s->name, ".json");
	char when[32];
	json_t *r;
	int rc;

	iso_time(when, sizeof when);
	r = json_pack("{s:s, s:s, s:s, s:s, s:s, s:i, s:i, s:[], s:s, s:s, "
		      "s:s, s:s}",
		"suite", b->suite.name, "grader_version", WG_VERSION,
		"status", "no submission",
		"detail", "no .c file in the folder (__MACOSX and dot-folders "
			  "ignored)",
		"student", s->name, "score", 0,
		"max_score", (int)suite_max_score(&b->suite), "submissions",
		"source_hash", s->hash, "suite_hash", b->suite_hash,
		"grade_options", b->options_key, "graded_at", when);
	rc = r ? write_json_atomic(final, r) : -1;
	json_decref(r);
	free(final);
	return rc;
}

/* Why a child that did not leave a usable report failed. */
static void explain_failure(const struct batch *b, const struct student *s,
			    int status, char *why, size_t n)
{
	char tail[400];

	log_tail(b, s, tail, sizeof tail);
	if (s->termed && b->stop_signal)
		snprintf(why, n, "interrupted (signal %d) before it finished",
			 b->stop_signal);
	else if (s->termed)
		snprintf(why, n, "grading took longer than %g s; stopped "
			 "(logs/%s.log)", b->student_timeout, s->name);
	else if (WIFSIGNALED(status))
		snprintf(why, n, "grade died of signal %d (logs/%s.log)",
			 WTERMSIG(status), s->name);
	else
		snprintf(why, n, "grade exited with status %d: %s",
			 WEXITSTATUS(status), tail[0] ? tail : "(no message)");
}

static void finish_student(struct batch *b, struct student *s, int status)
{
	char *part = out_path(b, "students", s->name, ".json.part");
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	json_error_t err;
	json_t *r = NULL;
	char why[600], res[200];

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
			snprintf(why, sizeof why, "unreadable report %s:%d:%d: "
				 "%s", part, err.line, err.column, err.text);
		else if (json_array_size(json_object_get(r, "submissions")) != 1)
			snprintf(why, sizeof why, "report '%s' holds no "
				 "submission", part);
		else if (keep_report(b, s, r, code, why, sizeof why) == 0)
			goto graded;
	} else {
		explain_failure(b, s, status, why, sizeof why);
	}
	json_decref(r);
	unlink(part);
	free(part);
	fail_student(b, s, why);
	return;
graded:
	unlink(part);
	free(part);
	s->report = r;
	s->state = ST_DONE;
	b->graded++;
	b->finished++;
	if (!all_accepted(r))
		b->imperfect++;
	describe_result(r, res, sizeof res);
	progress_event(b, s, "%s in %.1f s", res, now_sec() - s->started);
}

/* ---- the scheduling loop ------------------------------------------------- */

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
	double t = now_sec(), w = next_wakeup(b, t) - t;
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
		complain("interrupted; stopping the students being graded "
			 "(finished ones are kept)");
		b->line_shown = 0;
	}
}

static void run_all(struct batch *b)
{
	sigset_t set, old;
	size_t next = 0;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, &old);
	b->t0 = now_sec();
	progress_line(b);
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
		enforce_deadlines(b, now_sec());
		progress_line(b);
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

/* ---- the gradebook ------------------------------------------------------- */

/* One CSV field: quoted when it holds a separator, quote or line break;
 * a leading = + - @ gets a ' so spreadsheets never run it as a formula. */
static void csv_field(FILE *f, const char *s, int text)
{
	int quote = strpbrk(s, ",\"\r\n") != NULL;

	if (quote)
		fputc('"', f);
	if (text && s[0] && strchr("=+-@\t\r", s[0]))
		fputc('\'', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	if (quote)
		fputc('"', f);
}

static const char *const verdict_order[] = {
	"AC", "WA", "TLE", "MLE", "OLE", "RTE", "CE", "IE",
};
#define NVERDICTS (sizeof verdict_order / sizeof *verdict_order)

static const json_t *only_sub(const json_t *r)
{
	return json_array_get(json_object_get(r, "submissions"), 0);
}

static const json_t *category_of(const json_t *sub, const char *cat)
{
	size_t i;
	const json_t *c;

	json_array_foreach(json_object_get(sub, "categories"), i, c) {
		const char *name = json_string_value(json_object_get(c, "category"));

		if (name && strcmp(name, cat) == 0)
			return c;
	}
	return NULL;
}

static void csv_number(FILE *f, const json_t *v)
{
	if (v)
		fprintf(f, "%g", json_number_value(v));
}

static void gradebook_row(FILE *f, const struct batch *b,
			  const struct student *s)
{
	const json_t *sub = only_sub(s->report);
	const json_t *counts = json_object_get(sub, "verdicts");
	const char *build = json_string_value(json_object_get(
		json_object_get(sub, "build"), "status"));

	csv_field(f, s->name, 1);
	fputc(',', f);
	if (s->state == ST_NO_SUBMISSION) {
		fprintf(f, "0,%ld", suite_max_score(&b->suite));
	} else {
		csv_number(f, json_object_get(sub, "score"));
		fputc(',', f);
		csv_number(f, json_object_get(sub, "max_score"));
	}
	for (size_t c = 0; c < b->suite.ncategories; c++) {
		fputc(',', f);
		csv_number(f, json_object_get(category_of(sub,
			b->suite.categories[c]), "score"));
	}
	for (size_t v = 0; v < NVERDICTS; v++) {
		fputc(',', f);
		if (s->report)
			fprintf(f, "%lld", (long long)json_integer_value(
				json_object_get(counts, verdict_order[v])));
	}
	fputc(',', f);
	csv_field(f, build ? build : "", 1);
	fputc(',', f);
	if (s->state == ST_FAILED)
		csv_field(f, s->not_started ? "not started" : "not graded", 0);
	else if (s->state == ST_NO_SUBMISSION)
		csv_field(f, "no submission", 0);
	else
		csv_field(f, s->state == ST_SKIPPED ? "unchanged" : "graded", 0);
	fputc(',', f);
	csv_field(f, s->error ? s->error : "", 1);
	fputc('\n', f);
}

static void write_gradebook(FILE *f, const struct batch *b)
{
	fputs("student,score,max_score", f);
	for (size_t c = 0; c < b->suite.ncategories; c++) {
		fputc(',', f);
		csv_field(f, b->suite.categories[c], 1);
	}
	for (size_t v = 0; v < NVERDICTS; v++)
		fprintf(f, ",%s", verdict_order[v]);
	fputs(",build,status,error\n", f);
	for (size_t i = 0; i < b->n; i++)
		if (b->st[i].state != ST_PENDING && b->st[i].state != ST_RUNNING)
			gradebook_row(f, b, &b->st[i]);
}

/* ---- the summary ----------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The hint for a category: the suite's, else one a report carried. */
static const char *hint_for(const struct batch *b, const char *cat)
{
	const char *h = suite_hint(&b->suite, cat);

	for (size_t i = 0; !h && i < b->n; i++) {
		const json_t *c = category_of(only_sub(b->st[i].report), cat);

		h = json_string_value(json_object_get(c, "hint"));
	}
	return h;
}

/* {case name: {"case", "category", "failed", "verdicts": {V: n}}} */
static void count_failures(json_t *map, const json_t *sub)
{
	size_t i;
	const json_t *k;

	json_array_foreach(json_object_get(sub, "cases"), i, k) {
		const char *name = json_string_value(json_object_get(k, "name"));
		const char *v = json_string_value(json_object_get(k, "verdict"));
		json_t *e, *vs;

		if (!name || !v || strcmp(v, "AC") == 0)
			continue;
		e = json_object_get(map, name);
		if (!e) {
			e = json_pack("{s:s, s:O, s:i, s:{}}", "case", name,
				      "category", json_object_get(k, "category"),
				      "failed", 0, "verdicts");
			if (!e)
				continue;
			json_object_set_new(map, name, e);
		}
		json_object_set_new(e, "failed", json_integer(
			json_integer_value(json_object_get(e, "failed")) + 1));
		vs = json_object_get(e, "verdicts");
		json_object_set_new(vs, v, json_integer(
			json_integer_value(json_object_get(vs, v)) + 1));
	}
}

static int cmp_failed(const void *a, const void *b)
{
	const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	json_int_t fx = json_integer_value(json_object_get(x, "failed"));
	json_int_t fy = json_integer_value(json_object_get(y, "failed"));

	if (fx != fy)
		return fx < fy ? 1 : -1;
	return strcmp(json_string_value(json_object_get(x, "case")),
		      json_string_value(json_object_get(y, "case")));
}

/* The most failed cases, most first, each with its category's hint. */
static json_t *most_failed(const struct batch *b, size_t graded)
{
	json_t *map = json_object(), *arr = json_array(), **v;
	const char *key;
	json_t *e;
	size_t n = 0;

	for (size_t i = 0; i < b->n; i++)
		if (b->st[i].report)
			count_failures(map, only_sub(b->st[i].report));
	v = xmalloc((json_object_size(map) + 1) * sizeof *v);
	json_object_foreach(map, key, e)
		v[n++] = e;
	if (n)
		qsort(v, n, sizeof *v, cmp_failed);
	for (size_t i = 0; i < n && i < TOP_FAILED; i++) {
		const char *cat = json_string_value(json_object_get(v[i],
								    "category"));
		const char *h = cat ? hint_for(b, cat) : NULL;

		json_object_set_new(v[i], "of", json_integer((json_int_t)graded));
		json_object_set_new(v[i], "hint", h ? json_string(h) : json_null());
		json_array_append(arr, v[i]);
	}
	free(v);
	json_decref(map);
	return arr;
}

static json_t *category_stats(const struct batch *b)
{
	json_t *arr = json_array();

	for (size_t c = 0; c < b->suite.ncategories; c++) {
		const char *cat = b->suite.categories[c];
		double sum = 0, max = 0;
		size_t n = 0, full = 0;
		const char *h = hint_for(b, cat);

		for (size_t i = 0; i < b->n; i++) {
			const json_t *e = category_of(only_sub(b->st[i].report),
						      cat);
			double sc = json_number_value(json_object_get(e, "score"));

			if (!e)
				continue;
			max = json_number_value(json_object_get(e, "max_score"));
			sum += sc;
			n++;
			full += sc >= max;
		}
		json_array_append_new(arr, json_pack("{s:s, s:f, s:f, s:i, s:i, s:o}",
			"category", cat, "mean", n ? sum / (double)n : 0.0,
			"max_score", max, "full_marks", (int)full,
			"students", (int)n,
			"hint", h ? json_string(h) : json_null()));
	}
	return arr;
}

static json_t *score_stats(const struct batch *b, double *max_out)
{
	double *sc = xmalloc((b->n + 1) * sizeof *sc), max = 0, sum = 0;
	int hist[HIST_BINS] = { 0 };
	size_t n = 0;
	json_t *h = json_array(), *res;

	for (size_t i = 0; i < b->n; i++) {
		const json_t *sub = only_sub(b->st[i].report);
		double m, pct;
		int bin;

		if (!sub)
			continue;
		m = json_number_value(json_object_get(sub, "max_score"));
		sc[n] = json_number_value(json_object_get(sub, "score"));
		max = m > max ? m : max;
		sum += sc[n];
		pct = m > 0 ? 100.0 * sc[n] / m : 0;
		bin = (int)(pct / (100.0 / HIST_BINS));
		hist[bin >= HIST_BINS ? HIST_BINS - 1 : bin < 0 ? 0 : bin]++;
		n++;
	}
	if (n)
		qsort(sc, n, sizeof *sc, cmp_double);
	for (int i = 0; i < HIST_BINS; i++)
		json_array_append_new(h, json_pack("{s:i, s:i, s:i}",
			"from_percent", i * (100 / HIST_BINS),
			"to_percent", (i + 1) * (100 / HIST_BINS),
			"count", hist[i]));
	res = json_pack("{s:f, s:f, s:f, s:f, s:f, s:o}",
		"max_score", max,
		"mean", n ? sum / (double)n : 0.0,
		"median", n ? (n % 2 ? sc[n / 2] :
			       (sc[n / 2 - 1] + sc[n / 2]) / 2) : 0.0,
		"lowest", n ? sc[0] : 0.0,
		"highest", n ? sc[n - 1] : 0.0,
		"histogram", h);
	free(sc);
	*max_out = max;
	return res;
}

static json_t *verdict_totals(const struct batch *b)
{
	json_t *t = json_object();

	for (size_t v = 0; v < NVERDICTS; v++) {
		json_int_t sum = 0;

		for (size_t i = 0; i < b->n; i++)
			sum += json_integer_value(json_object_get(json_object_get(
				only_sub(b->st[i].report), "verdicts"),
				verdict_order[v]));
		json_object_set_new(t, verdict_order[v], json_integer(sum));
	}
	return t;
}

/* The students in state st (not_started: only those, else not those). */
static json_t *students_in(const struct batch *b, enum student_state st,
			   int not_started, int with_error)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < b->n; i++) {
		const struct student *s = &b->st[i];

		if (s->state != st || (st == ST_FAILED && s->not_started != not_started))
			continue;
		json_array_append_new(arr, with_error
			? json_pack("{s:s, s:s}", "student", s->name, "error", s->error)
			: json_string(s->name));
	}
	return arr;
}

/* An interrupted batch's figures are over the students graded so far, and
 * say so: "partial", "graded" of "students". Students never started are
 * one count and one list, not one error each. */
static json_t *summary_json(const struct batch *b)
{
	double max;
	size_t graded = b->graded + b->skipped;
	json_t *scores = score_stats(b, &max);
	json_t *not_started = students_in(b, ST_FAILED, 1, 0);
	int partial = b->stop_signal != 0;

	json_object_set_new(scores, "partial", json_boolean(partial));
	json_object_set_new(scores, "students", json_integer((json_int_t)graded));
	return json_pack("{s:s, s:s, s:b, s:i, s:i, s:i, s:i, s:i, s:i, s:o, "
			 "s:i, s:o, s:o, s:o, s:o, s:o, s:o}",
		"suite", b->suite.name, "suite_dir", b->suite_dir,
		"partial", partial,
		"students", (int)b->n, "graded", (int)graded,
		"graded_now", (int)b->graded,
		"unchanged", (int)b->skipped,
		"not_graded", (int)(b->failed - json_array_size(not_started)),
		"no_submission", (int)b->no_submission,
		"no_submission_students", students_in(b, ST_NO_SUBMISSION, 0, 0),
		"not_started", (int)json_array_size(not_started),
		"not_started_students", not_started,
		"scores", scores,
		"verdicts", verdict_totals(b),
		"categories", category_stats(b),
		"most_failed", most_failed(b, graded),
		"errors", students_in(b, ST_FAILED, 0, 1));
}

static void text_histogram(FILE *f, const json_t *scores)
{
	size_t i;
	const json_t *h;
	json_int_t top = 1;

	json_array_foreach(json_object_get(scores, "histogram"), i, h)
		if (json_integer_value(json_object_get(h, "count")) > top)
			top = json_integer_value(json_object_get(h, "count"));
	fputs("\nScore distribution (% of the maximum):\n", f);
	json_array_foreach(json_object_get(scores, "histogram"), i, h) {
		json_int_t c = json_integer_value(json_object_get(h, "count"));
		int bar = (int)(c * 40 / top);

		fprintf(f, "  [%3lld%%, %3lld%%%s |",
			(long long)json_integer_value(json_object_get(h,
							"from_percent")),
			(long long)json_integer_value(json_object_get(h,
							"to_percent")),
			i == HIST_BINS - 1 ? "]" : ")");
		for (int k = 0; k < bar; k++)
			fputc('#', f);
		fprintf(f, " %lld\n", (long long)c);
	}
}

static void text_failed(FILE *f, const json_t *failed)
{
	size_t i;
	const json_t *e;

	if (!json_array_size(failed))
		return;
	fputs("\nMost often failed cases:\n", f);
	json_array_foreach(failed, i, e) {
		const char *sep = "";
		const char *hint = json_string_value(json_object_get(e, "hint"));

		fprintf(f, "  %-24s %-14s failed by %lld of %lld (",
			json_string_value(json_object_get(e, "case")),
			json_string_value(json_object_get(e, "category")) ?
			json_string_value(json_object_get(e, "category")) : "?",
			(long long)json_integer_value(json_object_get(e, "failed")),
			(long long)json_integer_value(json_object_get(e, "of")));
		for (size_t k = 0; k < NVERDICTS; k++) {
			json_int_t c = json_integer_value(json_object_get(
				json_object_get(e, "verdicts"), verdict_order[k]));

			if (c <= 0)
				continue;
			fprintf(f, "%s%s %lld", sep, verdict_order[k],
				(long long)c);
			sep = ", ";
		}
		fputs(")\n", f);
		if (hint)
			fprintf(f, "      hint: %s\n", hint);
	}
}

#define LONG_LIST 20   /* names printed on one line before "..." */

/* "label (N): a, b, c" for a list of names. */
static void text_names(FILE *f, const char *label, const json_t *names)
{
	size_t i;
	const json_t *e;

	if (!json_array_size(names))
		return;
	fprintf(f, "%s (%zu): ", label, json_array_size(names));
	json_array_foreach(names, i, e) {
		if (i == LONG_LIST) {
			fputs(", ...", f);
			break;
		}
		fprintf(f, "%s%s", i ? ", " : "", json_string_value(e));
	}
	fputc('\n', f);
}

static long long int_of(const json_t *o, const char *key)
{
	return (long long)json_integer_value(json_object_get(o, key));
}

static void write_summary_text(FILE *f, const json_t *sum)
{
	const json_t *sc = json_object_get(sum, "scores");
	int partial = json_is_true(json_object_get(sum, "partial"));
	size_t i;
	const json_t *e;

	fprintf(f, "warpgrade batch: suite %s (%s)\n",
		json_string_value(json_object_get(sum, "suite")),
		json_string_value(json_object_get(sum, "suite_dir")));
	if (partial)
		fprintf(f, "PARTIAL: the batch was interrupted; %lld of %lld "
			"graded\n", int_of(sum, "graded"), int_of(sum, "students"));
	fprintf(f, "%lld students: %lld graded now, %lld unchanged since the "
		"last run, %lld not graded", int_of(sum, "students"),
		int_of(sum, "graded_now"), int_of(sum, "unchanged"),
		int_of(sum, "not_graded"));
	if (int_of(sum, "not_started"))
		fprintf(f, ", %lld not started", int_of(sum, "not_started"));
	if (int_of(sum, "no_submission"))
		fprintf(f, ", %lld without a submission", int_of(sum, "no_submission"));
	fputs("\n", f);
	if (partial)
		fprintf(f, "Score out of %g (partial: over the %lld of %lld "
			"graded): mean %.2f, median %g, lowest %g, highest %g\n",
			json_number_value(json_object_get(sc, "max_score")),
			int_of(sum, "graded"), int_of(sum, "students"),
			json_number_value(json_object_get(sc, "mean")),
			json_number_value(json_object_get(sc, "median")),
			json_number_value(json_object_get(sc, "lowest")),
			json_number_value(json_object_get(sc, "highest")));
	else
		fprintf(f, "Score out of %g: mean %.2f, median %g, lowest %g, "
			"highest %g\n",
			json_number_value(json_object_get(sc, "max_score")),
			json_number_value(json_object_get(sc, "mean")),
			json_number_value(json_object_get(sc, "median")),
			json_number_value(json_object_get(sc, "lowest")),
			json_number_value(json_object_get(sc, "highest")));
	text_histogram(f, sc);
	fputs("\nBy category (mean / max, students with full marks):\n", f);
	json_array_foreach(json_object_get(sum, "categories"), i, e)
		fprintf(f, "  %-20s %6.2f / %-4g %lld of %lld\n",
			json_string_value(json_object_get(e, "category")),
			json_number_value(json_object_get(e, "mean")),
			json_number_value(json_object_get(e, "max_score")),
			int_of(e, "full_marks"), int_of(e, "students"));
	text_failed(f, json_object_get(sum, "most_failed"));
	if (json_array_size(json_object_get(sum, "errors")))
		fputs("\nNot graded (run the batch again to retry them):\n", f);
	json_array_foreach(json_object_get(sum, "errors"), i, e)
		fprintf(f, "  %s: %s\n",
			json_string_value(json_object_get(e, "student")),
			json_string_value(json_object_get(e, "error")));
	if (json_array_size(json_object_get(sum, "not_started_students")) ||
	    json_array_size(json_object_get(sum, "no_submission_students")))
		fputc('\n', f);
	text_names(f, "Not started (run the batch again to grade them)",
		   json_object_get(sum, "not_started_students"));
	text_names(f, "No submission (no .c file)",
		   json_object_get(sum, "no_submission_students"));
}

/* Writes DIR/NAME through a temporary file and a rename. */
static int write_atomic(const struct batch *b, const char *name,
			int (*fn)(FILE *, const void *), const void *arg)
{
	char *path = join(b->out, name);
	int rc = write_file_atomic(path, fn, arg);

	free(path);
	return rc;
}

/* Write errors surface through ferror() in write_file_atomic. */
static int put_gradebook(FILE *f, const void *b)
{
	write_gradebook(f, b);
	return 0;
}

static int put_summary_text(FILE *f, const void *sum)
{
	write_summary_text(f, sum);
	return 0;
}

/* DIR/report.html (html.h): the staff's page, built from each finished
 * student's report alone, with the gradebook's status words. */
static int put_html(FILE *f, const void *arg)
{
	const struct batch *b = arg;
	json_t *cls = html_class_new(b->suite.name, "staff");
	int rc = cls ? 0 : -1;

	for (size_t i = 0; rc == 0 && i < b->n; i++) {
		const struct student *s = &b->st[i];
		const char *status = s->state == ST_FAILED
			? (s->not_started ? "not started" : "not graded")
			: s->state == ST_NO_SUBMISSION ? "no submission"
			: s->state == ST_SKIPPED ? "unchanged" : "graded";

		if (s->state != ST_PENDING && s->state != ST_RUNNING)
			rc = html_class_add(cls, s->name, status, s->error,
					    s->report);
	}
	if (rc == 0)
		rc = html_write(f, cls);
	json_decref(cls);
	return rc;
}

static int write_outputs(const struct batch *b)
{
	json_t *sum = summary_json(b);
	int rc = 0;

	if (!sum) {
		complain("out of memory");
		return -1;
	}
	rc |= write_atomic(b, "gradebook.csv", put_gradebook, b);
	rc |= write_atomic(b, "summary.json", put_json, sum);
	rc |= write_atomic(b, "summary.txt", put_summary_text, sum);
	rc |= write_atomic(b, "report.html", put_html, b);
	if (!b->quiet)
		write_summary_text(stdout, sum);
	json_decref(sum);
	return rc;
}

/* ---- setting up ------------------------------------------------------------ */

/* DIR, DIR/students and DIR/logs: private (0700, even when an earlier
 * run made them 0755), and DIR in a folder no sandboxed program can
 * write (outfile.h). */
static int make_out_dirs(const struct batch *b)
{
	char *students = join(b->out, "students"), *logs = join(b->out, "logs");
	char err[4400];
	int rc = outfile_private_dir(b->out, err, sizeof err) ||
		 outfile_check_dir(b->out, err, sizeof err) ||
		 outfile_private_dir(students, err, sizeof err) ||
		 outfile_private_dir(logs, err, sizeof err);

	if (rc)
		complain("%s", err);
	free(students);
	free(logs);
	return rc ? -1 : 0;
}

/* One batch per DIR: a flock on DIR/.lock for the life of the batch, the
 * file naming the holder's pid. The kernel drops the lock however the
 * batch ends, SIGKILL included, so there is no stale lock to clear. */
static int lock_out(struct batch *b)
{
	char *path = join(b->out, ".lock"), buf[32], mine[32];
	int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	int len = snprintf(mine, sizeof mine, "%ld\n", (long)getpid());
	ssize_t n;

	if (fd < 0) {
		complain("cannot open '%s': %s", path, strerror(errno));
		goto fail;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		n = errno == EWOULDBLOCK ? pread(fd, buf, sizeof buf - 1, 0) : -1;
		buf[n > 0 ? n : 0] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		if (n > 0)
			complain("'%s' is in use by another batch (pid %s); "
				 "wait for it to end, or stop it", b->out, buf);
		else
			complain("cannot lock '%s': %s", path, strerror(errno));
		goto fail;
	}
	if (ftruncate(fd, 0) < 0 || pwrite(fd, mine, (size_t)len, 0) != len) {
		complain("cannot write '%s': %s", path, strerror(errno));
		goto fail;
	}
	free(path);
	b->lock_fd = fd;
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	free(path);
	return -1;
}

/* Unless --student-timeout: the build, then every case at a generous
 * multiple of its CPU limit (grade's wall limit is a multiple too). */
static double default_student_timeout(const struct suite *s)
{
	return 120.0 + (double)s->ncases * (10.0 * s->cpu_seconds + 2.0);
}

static int setup(struct batch *b)
{
	char err[1024];

	if (suite_load(&b->suite, b->suite_dir, err, sizeof err) != 0) {
		fprintf(stderr, "grade: %s\n", err);
		return 2;
	}
	if (b->student_timeout <= 0)
		b->student_timeout = default_student_timeout(&b->suite);
	if (access("/proc/self/exe", X_OK) != 0) {
		complain("cannot run '/proc/self/exe': %s", strerror(errno));
		return 3;
	}
	if (make_out_dirs(b) != 0 || lock_out(b) != 0 || find_students(b) != 0)
		return 2;
	if (b->n == 0) {
		complain("no student directories in '%s'", b->subs_dir);
		return 2;
	}
	hash_tree(b->suite_dir, b->suite_hash);
	for (size_t i = 0; i < b->n; i++) {
		hash_tree(b->st[i].dir, b->st[i].hash);
		find_sources(b, &b->st[i]);
		if (b->st[i].state == ST_NO_SUBMISSION) {
			b->no_submission++;
			b->finished++;
			if (keep_no_submission(b, &b->st[i]) != 0)
				return 3;
			progress_event(b, &b->st[i], "no submission (no .c file)");
			continue;
		}
		if (b->st[i].state == ST_FAILED) {
			progress_event(b, &b->st[i], "NOT GRADED: %s",
				       b->st[i].error);
			continue;
		}
		try_resume(b, &b->st[i]);
		if (b->st[i].state == ST_SKIPPED) {
			b->skipped++;
			b->finished++;
			if (!all_accepted(b->st[i].report))
				b->imperfect++;
		}
	}
	return 0;
}

static void release(struct batch *b)
{
	for (size_t i = 0; i < b->n; i++) {
		free(b->st[i].name);
		free(b->st[i].dir);
		free(b->st[i].src);
		free(b->st[i].error);
		json_decref(b->st[i].report);
	}
	free(b->st);
	free(b->pass);
	free(b->options_key);
	suite_free(&b->suite);
	if (b->lock_fd >= 0)
		close(b->lock_fd);
}

int batch_main(int argc, char **argv)
{
	struct batch b;
	int rc;

	memset(&b, 0, sizeof b);
	b.lock_fd = -1;
	b.jobs = default_jobs();
	/* By default past the range a plain grade uses (its slots 0..63), so
	 * a batch and a `grade` started by hand never share a sandbox uid. */
	b.uid_base = RUN_SLOT_UID_BASE + BATCH_UID_OFFSET;
	if (getenv("WG_UID_BASE") && !parse_long(getenv("WG_UID_BASE"),
						 &b.uid_base)) {
		complain("WG_UID_BASE: '%s' is not a uid",
			 getenv("WG_UID_BASE"));
		return 2;
	}
	b.tty = isatty(STDERR_FILENO);
	rc = parse_args(&b, argc, argv);
	/* Worker K's grade claims uids from uid_base + K upward (scratch.h). */
	outfile_set_sandbox_ids((uid_t)b.uid_base, (uid_t)(b.uid_base + b.jobs +
				SCRATCH_UID_RANGE));
	if (rc != 0) {
		usage(rc > 0 ? stdout : stderr);
		release(&b);
		return rc > 0 ? 0 : 2;
	}
	rc = setup(&b);
	if (rc == 0) {
		if (!b.quiet)
			fprintf(stderr, "grade: batch: %zu students (%zu "
				"unchanged), -j %ld\n", b.n, b.skipped, b.jobs);
		run_all(&b);
		if (write_outputs(&b) != 0)
			rc = 3;
		else if (b.stop_signal)
			rc = 128 + b.stop_signal;
		else if (b.failed)
			rc = 3;
		else
			rc = b.imperfect ? 1 : 0;
	}
	release(&b);
	return rc;
}
