/*
 * batch_merge: grade --merge --out DIR OUT...: one gradebook and summary
 * for a class graded in shards (grade --batch --shard K/N, each into its
 * own OUT).
 *
 * Theory of operation. The merge grades nothing and runs no program. It
 * fills a struct batch as a whole-class batch would have it at its end,
 * then writes through batch_write_outputs, batch's own writers: so the
 * merged gradebook.csv, summary.json, summary.txt and report.html are
 * the files a batch writes: whatever batch_write_outputs writes for a
 * batch, a merge writes too.
 *
 *   - the suite, as the writers need it (its name, its categories in order
 *     with their hints, its points), from the first OUT's summary.json;
 *   - the class: every name in some OUT's "class_students" (each shard
 *     lists the whole class, found before its shard filter);
 *   - each student from the one OUT whose shard holds it (shard.h): its
 *     report from OUT/students/NAME.json (copied into DIR/students/), or
 *     the reason it was not graded from OUT's summary.json.
 *
 * Refused, exit 2 and nothing written: an OUT without a readable
 * summary.json of a batch that knows --shard, OUTs (or a student report
 * in one) made by another grader version, suite or options
 * (grader_version, suite_hash, grade_options), OUTs of different N, and
 * two OUTs of one shard (the students they both graded are named: which
 * report is right is not the merge's to choose). A shard not given, or a
 * student in no shard given (added to the class after its shard ran), is
 * a partial merge: everything else is written, the student is "not
 * graded" with the reason, summary.json says "partial": true and lists
 * "merge": {"missing_shards", "missing_students"}, and the exit status is
 * 3, as for a batch that could not grade a student.
 */
#include "grader/cli/batch.h"
#include "grader/cli/batch_int.h"
#include "grader/cli/batch_keys.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grader/cli/options.h"
#include "grader/lib/strbuf.h"
#include "grader/lib/usage.h"
#include "grader/report/report_read.h"

struct shard_out {
	const char *dir;         /* OUT, as given */
	json_t *sum;             /* OUT/summary.json */
	struct shard shard;
};

struct merge {
	struct batch b;
	struct shard_out *outs;
	size_t nouts;
	/* reported[i]: b.st[i] has a report in its shard (from[i]), copied
	 * by copy_reports. Not kept in memory, as a batch keeps none: a
	 * graded student's row is kept (batch_row_keep); one without a
	 * submission has a report but, as in a batch, no row (the writers
	 * read a row as a graded submission). */
	char *reported;
	/* from[i]: the OUT of b.st[i]'s shard, where its log is; or NULL. */
	const char **from;
};

static void merge_usage(FILE *f)
{
	fputs("usage: grade --merge --out DIR OUT... [--quiet]\n"
	      "Combines the output folders of `grade --batch --shard K/N` "
	      "runs (one per shard)\n"
	      "into DIR: gradebook.csv, summary.txt, summary.json, "
	      "report.html and\nstudents/NAME.json.\n"
	      "Runs no program. Exit status: 0 every student graded and "
	      "accepted, 1 not all\n"
	      "accepted, 2 shards that do not belong together (nothing "
	      "written), 3 some student\n"
	      "not graded or in no shard given (a partial merge).\n", f);
}

/* One word of --merge's command line (options_walk): 1 for --help. */
static int one_word(void *ctx, int argc, char **argv, int *i,
		    const struct cli_option *o, int positional)
{
	struct merge *m = ctx;

	if (positional) {
		m->outs[m->nouts++].dir = argv[*i];
		return 0;
	}
	switch (o ? o->id : 0) {
	case OPT_MERGE: break;
	case OPT_SIM_VALUE:
		if (!strcmp(o->name, "similarity-base"))
			die_usage("--similarity-base is the shards': each "
				  "stored the base it was given");
		similarity_option(&m->b.sim, o->name, options_value(argc, argv, i));
		break;
	case 'h': return 1;
	case 'q': m->b.quiet = 1; break;
	case OPT_OUT_DIR:
		m->b.out = options_value(argc, argv, i);
		break;
	case OPT_BATCH:
		die_usage("--merge and --batch exclude each other");
	default:
		die_usage("'%s' is not available with --merge: each shard "
			  "was graded with its own options", argv[*i]);
	}
	return 0;
}

/* 1 when --help was given. */
static int parse_args(struct merge *m, int argc, char **argv)
{
	m->outs = xcalloc((size_t)argc, sizeof *m->outs);
	if (options_walk(argc, argv, 0, one_word, m))
		return 1;
	if (!m->b.out || !m->nouts)
		die_usage("%s", !m->b.out ? "needs --out DIR"
					  : "needs the OUT folders of the shards");
	/* Writing DIR's summary and gradebook over a shard's own would lose
	 * that shard's results if the merge failed half-way. */
	for (size_t i = 0; i < m->nouts; i++)
		if (batch_same_dir(m->b.out, m->outs[i].dir))
			die_usage("--out '%s' is the shard output '%s': merge into a "
				  "folder of its own", m->b.out, m->outs[i].dir);
	return 0;
}

/* OUT/summary.json, with the keys a merge needs: 0, or -1 (reported). */
static int load_summary(struct shard_out *o)
{
	char *path = batch_path(o->dir, "summary.json");
	json_error_t err;
	const json_t *sh;
	int rc = -1;

	o->sum = json_load_file(path, 0, &err);
	sh = json_object_get(o->sum, BK_SHARD);
	o->shard.index = (long)report_int(sh, BK_INDEX);
	o->shard.count = (long)report_int(sh, BK_COUNT);
	if (!o->sum)
		error("cannot read '%s': %d:%d: %s", path, err.line, err.column,
		      err.text);
	else if (json_unpack_ex(o->sum, &err, JSON_VALIDATE_ONLY,
				"{s:{s:I, s:I}, s:o, s:s, s:s, s:s, s:s, s:s, "
				"s:I, s:o, s:o, s:o}", BK_SHARD, BK_INDEX, BK_COUNT,
				BK_CLASS_STUDENTS, RK_GRADER_VERSION, BK_SUITE_HASH,
				BK_GRADE_OPTIONS, RK_SUITE, RK_SUITE_DIR,
				BK_SUITE_MAX_SCORE, RK_CATEGORIES, BK_ERRORS,
				BK_NOT_STARTED_STUDENTS) < 0)
		error("'%s': %s (not the summary of a grade --batch that "
		      "knows --shard)", path, err.text);
	else if (o->shard.count < 1 || o->shard.count > SHARD_MAX ||
		 o->shard.index < 1 || o->shard.index > o->shard.count)
		error("'%s': \"shard\" %ld of %ld is not a shard", path,
		      o->shard.index, o->shard.count);
	else
		rc = 0;
	free(path);
	return rc;
}

/* The keys that make reports comparable, and what each says. */
static const char *const same_keys[][2] = {
	{ RK_GRADER_VERSION, "made by another grader version" },
	{ BK_SUITE_HASH, "graded against another suite" },
	{ BK_GRADE_OPTIONS, "graded with other options" },
};
#define NSAME_KEYS (sizeof same_keys / sizeof *same_keys)

/* 0 when j (the summary or a report at where) has the first shard's
 * grader version, suite and options; else -1 (reported). */
static int same_as_first(const struct merge *m, const json_t *j,
			 const char *where)
{
	for (size_t i = 0; i < NSAME_KEYS; i++) {
		const char *key = same_keys[i][0];
		const char *want = report_text(m->outs[0].sum, key);

		if (strcmp(report_text(j, key), want) != 0)
			return error("'%s' was %s than '%s': %s '%s', not '%s'",
				     where, same_keys[i][1],
				     m->outs[0].dir, key, report_text(j, key), want);
	}
	return 0;
}

/* Every OUT readable and of one split: 0, or -1 (reported). */
/* Every name in OUT's class is one batch could have written (a key of
 * batch_student_key: no '/', no leading '.', no control byte): the merge
 * makes file names of them. */
static int check_names(const struct shard_out *o)
{
	const json_t *names = json_object_get(o->sum, BK_CLASS_STUDENTS);
	size_t k;
	const json_t *e;

	json_array_foreach(names, k, e) {
		const char *name = json_string_value(e);

		if (!name || !batch_student_key_valid(name))
			return error("'%s/summary.json': %s holds '%s', not a student "
				     "name grade --batch writes", o->dir,
				     BK_CLASS_STUDENTS, name ? name : "(not a string)");
	}
	return 0;
}

static int check_outs(struct merge *m)
{
	for (size_t i = 0; i < m->nouts; i++) {
		struct shard_out *o = &m->outs[i];

		if (load_summary(o) != 0 || (i && same_as_first(m, o->sum, o->dir)) ||
		    check_names(o) != 0)
			return -1;
		if (o->shard.count != m->outs[0].shard.count)
			return error("'%s' is shard %ld of %ld, '%s' of %ld: the "
				     "shards of one class split one way (the same "
				     "N)", o->dir, o->shard.index, o->shard.count,
				     m->outs[0].dir, m->outs[0].shard.count);
	}
	return 0;
}

static int holds_name(const json_t *names, const char *name)
{
	size_t i;
	const json_t *e;

	json_array_foreach(names, i, e)
		if (strcmp(json_string_value(e) ? json_string_value(e) : "", name) == 0)
			return 1;
	return 0;
}

/* Two OUTs of one shard: refused, naming the students both graded. */
static int check_overlap(const struct merge *m)
{
	for (size_t i = 0; i < m->nouts; i++)
		for (size_t j = i + 1; j < m->nouts; j++) {
			const struct shard_out *a = &m->outs[i], *b = &m->outs[j];
			struct strbuf both = STRBUF_INIT;
			size_t k;
			const json_t *e;

			if (a->shard.index != b->shard.index)
				continue;
			json_array_foreach(json_object_get(a->sum, BK_CLASS_STUDENTS), k, e)
				if (shard_holds(&a->shard, json_string_value(e)) &&
				    holds_name(json_object_get(b->sum, BK_CLASS_STUDENTS),
					       json_string_value(e)))
					strbuf_addf(&both, "%s%s", both.len ? ", " : "",
						    json_string_value(e));
			error("'%s' and '%s' are both shard %ld of %ld; graded by "
			      "both: %s (give each shard once)", a->dir, b->dir,
			      a->shard.index, a->shard.count,
			      both.len ? strbuf_str(&both) : "no student");
			strbuf_release(&both);
			return -1;
		}
	return 0;
}

/* The suite as the writers need it, from the first summary: its name, its
 * categories in suite order with their hints, its points. */
static void fill_suite(struct merge *m)
{
	const json_t *sum = m->outs[0].sum, *cats = json_object_get(sum, RK_CATEGORIES);
	struct suite *s = &m->b.suite;
	size_t i;
	const json_t *c;

	s->name = xstrdup(report_text(sum, RK_SUITE));
	s->categories = xcalloc(json_array_size(cats) + 1, sizeof *s->categories);
	s->hints = xcalloc(json_array_size(cats) + 1, sizeof *s->hints);
	json_array_foreach(cats, i, c) {
		const char *h = report_str(c, RK_HINT);

		s->categories[s->ncategories] = xstrdup(report_text(c, RK_CATEGORY));
		s->hints[s->ncategories++] = h ? xstrdup(h) : NULL;
	}
	m->b.suite_dir = report_text(sum, RK_SUITE_DIR);
	m->b.suite_max = (long)report_int(sum, BK_SUITE_MAX_SCORE);
	m->b.options_key = xstrdup(report_text(sum, BK_GRADE_OPTIONS));
	snprintf(m->b.suite_hash, sizeof m->b.suite_hash, "%s",
		 report_text(sum, BK_SUITE_HASH));
}

/* Every name of every shard's class, sorted, once each. */
static void fill_class(struct merge *m)
{
	struct namelist l = { NULL, 0, 0 };
	struct batch *b = &m->b;

	for (size_t i = 0; i < m->nouts; i++) {
		size_t k;
		const json_t *e;

		json_array_foreach(json_object_get(m->outs[i].sum, BK_CLASS_STUDENTS), k, e)
			if (json_string_value(e))
				batch_names_add(&l, xstrdup(json_string_value(e)));
	}
	batch_names_sort(&l);
	b->st = xcalloc(l.n + 1, sizeof *b->st);
	m->reported = xcalloc(l.n + 1, sizeof *m->reported);
	m->from = xcalloc(l.n + 1, sizeof *m->from);
	b->class_students = json_array();
	for (size_t i = 0; i < l.n; i++) {
		if (b->n && strcmp(b->st[b->n - 1].name, l.v[i]) == 0)
			continue;
		b->st[b->n].name = xstrdup(l.v[i]);
		b->st[b->n].pid = -1;
		b->st[b->n].state = ST_PENDING;
		json_array_append_new(b->class_students, json_string(l.v[i]));
		b->n++;
	}
	batch_names_free(&l);
}

static void set_failed(struct batch *b, struct student *s, int not_started,
		       const char *why)
{
	s->state = ST_FAILED;
	s->not_started = not_started;
	s->error = xstrdup(why);
	b->failed++;
}

/* The shard's error for a student it could not grade, or NULL. */
static const char *shard_error(const json_t *sum, const char *name)
{
	size_t i;
	const json_t *e;

	json_array_foreach(json_object_get(sum, BK_ERRORS), i, e)
		if (strcmp(report_text(e, RK_STUDENT), name) == 0)
			return report_text(e, RK_ERROR);
	return NULL;
}

/* A student the shard o graded, from its report: 0, or -1 (reported: a
 * report missing or from another suite makes o not a whole shard). */
static int fill_graded(struct merge *m, const struct shard_out *o,
		       struct student *s, char *reported)
{
	char *path = batch_path(o->dir, "students");
	char *file = batch_path(path, s->name);
	struct strbuf where = STRBUF_INIT;
	json_error_t err;
	json_t *r;
	int rc = -1;

	strbuf_addf(&where, "%s.json", file);
	r = json_load_file(strbuf_str(&where), 0, &err);
	if (!r)
		error("cannot read '%s': %d:%d: %s", strbuf_str(&where),
		      err.line, err.column, err.text);
	else if (strcmp(report_text(r, RK_STUDENT), s->name))
		error("'%s' is the report of '%s', not of '%s'", strbuf_str(&where),
		      report_text(r, RK_STUDENT), s->name);
	else if (same_as_first(m, r, strbuf_str(&where)) == 0)
		rc = 0;
	if (rc == 0 && strcmp(report_text(r, RK_STATUS), BK_NO_SUBMISSION_STATUS) == 0) {
		s->state = ST_NO_SUBMISSION;
		m->b.no_submission++;
	} else if (rc == 0 && json_array_size(json_object_get(r, RK_SUBMISSIONS)) == 1) {
		s->state = ST_DONE;
		m->b.graded++;
		if (!batch_all_accepted(r))
			m->b.imperfect++;
	} else if (rc == 0) {
		rc = error("'%s' holds no submission", strbuf_str(&where));
	}
	/* A graded student's row is kept as a batch keeps it (its report in
	 * the spool); copy_reports reads the report again. */
	if (rc == 0 && s->state == ST_DONE && batch_row_keep(&m->b, s, r) < 0)
		rc = -1;
	if (rc == 0)
		*reported = 1;
	json_decref(r);
	strbuf_release(&where);
	free(file);
	free(path);
	return rc;
}

/* The shard given for index K, or NULL. */
static const struct shard_out *out_of(const struct merge *m, long k)
{
	for (size_t i = 0; i < m->nouts; i++)
		if (m->outs[i].shard.index == k)
			return &m->outs[i];
	return NULL;
}

/* Each student from its shard: 0, or -1 (reported). */
static int fill_students(struct merge *m)
{
	struct batch *b = &m->b;
	struct shard all = { 1, m->outs[0].shard.count };
	json_t *missing = json_array(), *missing_shards = json_array();
	json_t *given = json_array();
	struct strbuf why = STRBUF_INIT;

	for (long k = 1; k <= all.count; k++)
		if (!out_of(m, k))
			json_array_append_new(missing_shards, json_integer(k));
	for (size_t i = 0; i < m->nouts; i++)
		json_array_append_new(given, json_string(m->outs[i].dir));
	b->merge = json_pack("{s:o, s:o, s:o}", BK_SHARDS, given, BK_MISSING_SHARDS,
			     missing_shards, BK_MISSING_STUDENTS, missing);
	if (!b->merge)
		die("out of memory");
	for (size_t i = 0; i < b->n; i++) {
		struct student *s = &b->st[i];
		long k;
		const struct shard_out *o;
		const char *err;

		/* The one shard that holds the student (shard.h). */
		for (k = 1; k < all.count; k++) {
			all.index = k;
			if (shard_holds(&all, s->name))
				break;
		}
		o = out_of(m, k);
		m->from[i] = o ? o->dir : NULL;
		strbuf_reset(&why);
		if (!o || !holds_name(json_object_get(o->sum, BK_CLASS_STUDENTS), s->name)) {
			if (!o)
				strbuf_addf(&why, "in shard %ld of %ld, which was "
					    "not given to the merge", k, all.count);
			else
				strbuf_addf(&why, "not in the class of shard %ld "
					    "of %ld ('%s'): added after it ran? grade "
					    "that shard again", k, all.count, o->dir);
			set_failed(b, s, 0, strbuf_str(&why));
			json_array_append_new(missing, json_string(s->name));
			b->partial = 1;
		} else if ((err = shard_error(o->sum, s->name)) != NULL) {
			set_failed(b, s, 0, err);
		} else if (holds_name(json_object_get(o->sum, BK_NOT_STARTED_STUDENTS),
				      s->name)) {
			strbuf_addf(&why, "not started: the batch of shard %ld "
				    "('%s') was interrupted", k, o->dir);
			set_failed(b, s, 1, strbuf_str(&why));
		} else if (fill_graded(m, o, s, &m->reported[i]) != 0) {
			strbuf_release(&why);
			return -1;
		}
	}
	b->partial |= json_array_size(missing_shards) > 0;
	strbuf_release(&why);
	return 0;
}

/* OUT/students/NAME.json, read again (one at a time: fill_graded kept
 * none), to path. 0, or -1 (reported). */
static int copy_report(const char *out, const char *name, const char *path)
{
	char *dir = batch_path(out, "students"), *file = batch_path(dir, name);
	struct strbuf from = STRBUF_INIT;
	json_error_t err;
	json_t *r;
	int rc;

	strbuf_addf(&from, "%s.json", file);
	r = json_load_file(strbuf_str(&from), 0, &err);
	rc = r ? batch_write_file(path, batch_put_json, r)
	       : error("cannot read '%s': %d:%d: %s", strbuf_str(&from), err.line,
		       err.column, err.text);
	json_decref(r);
	strbuf_release(&from);
	free(file);
	free(dir);
	return rc;
}

/* DIR/students/NAME.json: each graded student's report as its shard
 * wrote it; no report (not an earlier merge's) for one not graded. */
static int copy_reports(const struct merge *m)
{
	const struct batch *b = &m->b;
	int rc = 0;

	for (size_t i = 0; i < b->n; i++) {
		char *path = batch_out_path(b, "students", b->st[i].name, ".json");

		if (m->reported[i])
			rc |= copy_report(m->from[i], b->st[i].name, path);
		else if (unlink(path) < 0 && errno != ENOENT)
			rc |= error("cannot remove '%s': %s", path, strerror(errno));
		free(path);
	}
	return rc;
}

static int put_fd(FILE *f, const void *arg)
{
	char buf[8192];
	ssize_t n;

	while ((n = read(*(const int *)arg, buf, sizeof buf)) > 0)
		if (fwrite(buf, 1, (size_t)n, f) != (size_t)n)
			return -1;
	return n < 0 ? -1 : 0;
}

/* OUT/logs/NAME.log to DIR/logs/NAME.log, so that "(logs/NAME.log)" in
 * the merged gradebook points at something. A shard without the log
 * (its student was unchanged, or had no submission) leaves none. */
static int copy_logs(const struct merge *m)
{
	const struct batch *b = &m->b;
	int rc = 0;

	for (size_t i = 0; i < b->n; i++) {
		char *dst = batch_out_path(b, "logs", b->st[i].name, ".log");
		char *dir = m->from[i] ? batch_path(m->from[i], "logs") : NULL;
		char *src = dir ? batch_path(dir, b->st[i].name) : NULL;
		struct strbuf path = STRBUF_INIT;
		int fd = -1;

		if (src) {
			strbuf_addf(&path, "%s.log", src);
			fd = open(strbuf_str(&path), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		}
		if (fd >= 0)
			rc |= batch_write_file(dst, put_fd, &fd);
		else if (src && errno != ENOENT)
			rc |= error("cannot read '%s': %s", strbuf_str(&path), strerror(errno));
		if (fd >= 0)
			close(fd);
		strbuf_release(&path);
		free(src);
		free(dir);
		free(dst);
	}
	return rc;
}

static int run(struct merge *m)
{
	struct batch *b = &m->b;

	if (check_outs(m) != 0 || check_overlap(m) != 0)
		return WG_EXIT_USAGE;
	fill_suite(m);
	fill_class(m);
	if (fill_students(m) != 0)
		return WG_EXIT_USAGE;
	if (batch_make_out_dirs(b) != 0 || batch_lock_out(b) != 0)
		return WG_EXIT_USAGE;
	/* The similarity of the whole class, from every shard's store. */
	b->sim_outs = xcalloc(m->nouts + 1, sizeof *b->sim_outs);
	for (size_t i = 0; i < m->nouts; i++)
		b->sim_outs[b->nsim_outs++] = m->outs[i].dir;
	if (copy_reports(m) != 0 || copy_logs(m) != 0 || batch_write_pages(b) != 0 ||
	    batch_write_outputs(b) != 0)
		return WG_EXIT_INTERNAL;
	/* A missing shard is partial (exit 3) even when no known student is
	 * in it: it may hold one the other shards' classes do not. */
	return batch_exit_status(b);
}

int batch_merge_main(int argc, char **argv)
{
	struct merge m;
	int rc = WG_EXIT_ALL_AC;

	memset(&m, 0, sizeof m);
	m.b.lock_fd = -1;
	m.b.shard = (struct shard)SHARD_NONE;
	m.b.sim = (struct similarity_conf)SIMILARITY_CONF_INIT;
	usage_set_prefix("grade: merge");
	if (parse_args(&m, argc, argv))
		merge_usage(stdout);
	else
		rc = run(&m);
	for (size_t i = 0; i < m.nouts; i++)
		json_decref(m.outs[i].sum);
	free(m.outs);
	free(m.reported);
	free(m.from);
	batch_release(&m.b);
	return rc;
}
