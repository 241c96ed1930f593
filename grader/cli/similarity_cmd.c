/*
 * similarity_cmd: grade --similarity; see similarity_cmd.h. The students
 * are found as grade --batch finds them (batch_find_students,
 * batch_find_sources), so both name a student alike.
 */
#include "grader/cli/similarity_cmd.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grader/cli/batch_int.h"
#include "grader/cli/similarity_conf.h"
#include "grader/cli/options.h"
#include "grader/lib/strbuf.h"
#include "grader/lib/usage.h"
#include "grader/lib/util.h"
#include "grader/report/outfile.h"

static const char usage_text[] =
"usage: grade --similarity CLASS_DIR [--similarity-base FILE]... [--json FILE]\n"
"             [--similarity-min SCORE] [--similarity-threshold SCORE]\n"
"             [--similarity-k N] [--similarity-window N]\n"
"             [--similarity-max-share SHARE] [--similarity-memory MIB]\n"
"             [--top N] [-q]\n"
"Compares every pair of students of CLASS_DIR (laid out as --batch takes it)\n"
"by their C token streams and writes the pairs, by score, to FILE ('-':\n"
"standard output); the top pairs go to the terminal. Nothing is built or run.\n"
"  --similarity-base FILE      code every student was given (repeatable):\n"
"                              it counts for nothing\n"
"  --similarity-min SCORE      list pairs scoring at least this (default 0.1;\n"
"                              0: every pair that shares a fingerprint)\n"
"  --similarity-threshold SCORE  pairs with matched regions, clusters\n"
"                              (default 0.2)\n"
"  --similarity-k N            tokens per k-gram (default 15)\n"
"  --similarity-window N       k-grams per winnowing window (default 8)\n"
"  --similarity-max-share SHARE  a fingerprint in more of the class is an\n"
"                              idiom and ignored (default 0.25; never below\n"
"                              10 students)\n"
"  --similarity-memory MIB     fingerprints held at once while comparing\n"
"                              (default 8; more passes below the class's\n"
"                              own, the same result)\n"
"  --top N                     pairs printed (default 10)\n"
"See docs/similarity.md. Exit status: 0 written, 2 usage or path error,\n"
"3 internal error.\n";


/* ---- grade --similarity ---- */

struct cmd {
	struct similarity_conf conf;
	const char *class_dir, *json;
	long top;
	int quiet;
};

/* One word of --similarity's command line (options_walk). */
static int one_word(void *ctx, int argc, char **argv, int *i,
		    const struct cli_option *o, int positional)
{
	struct cmd *m = ctx;
	const char *arg = argv[*i], *v;

	if (positional) {
		if (m->class_dir)
			die_usage("--similarity: one CLASS_DIR, not '%s' too", arg);
		m->class_dir = arg;
		return 0;
	}
	if (!o)
		die_usage("unknown option '%s'", arg);
	if (o->id == 'h') {
		fputs(usage_text, stdout);
		exit(WG_EXIT_ALL_AC);
	}
	if (o->id == 'q') {
		m->quiet = 1;
		return 0;
	}
	v = o->has_arg == required_argument ? options_value(argc, argv, i) : NULL;
	if (o->id == OPT_SIMILARITY) {
		if (m->class_dir)
			die_usage("--similarity: one CLASS_DIR, not '%s' too", v);
		m->class_dir = v;
	} else if (o->id == OPT_JSON) {
		m->json = v;
	} else if (o->id == OPT_TOP) {
		m->top = similarity_count("--top", v, 0, 1000000);
	} else if (!similarity_option(&m->conf, o->name, v)) {
		die_usage("--similarity: '%s' does not apply (nothing is "
			  "graded)", arg);
	}
	return 0;
}

static void parse_args(struct cmd *m, int argc, char **argv)
{
	options_walk(argc, argv, 0, one_word, m);
	if (!m->class_dir)
		die_usage("--similarity: missing CLASS_DIR");
}

/* Every student with sources into c; the ones that cannot be read into
 * skipped. 0, or WG_EXIT_USAGE / WG_EXIT_INTERNAL (reported). */
static int load_class(struct sim_class *c, const char *dir, json_t *skipped)
{
	struct batch b;
	struct strbuf err = STRBUF_INIT;
	int rc = 0;

	memset(&b, 0, sizeof b);
	b.subs_dir = dir;
	b.out = "";
	if (batch_find_students(&b) < 0)
		return WG_EXIT_USAGE;
	if (!b.n) {
		error("no student directories in '%s'", dir);
		rc = WG_EXIT_USAGE;
	}
	for (size_t i = 0; rc == 0 && i < b.n; i++) {
		struct student *s = &b.st[i];
		struct sim_source src = { NULL, 0 };

		batch_find_sources(s);
		strbuf_reset(&err);
		/* No C file: nothing to compare; sources in two folders:
		 * skipped, with the reason. */
		if (s->state == ST_NO_SUBMISSION && !s->error)
			continue;
		if (s->state != ST_NO_SUBMISSION &&
		    sim_source_load_dir(&src, s->src, &err) == 0) {
			if (sim_class_add(c, s->name, &src, &err) < 0)
				rc = error("%s", strbuf_str(&err));
			continue;
		}
		sim_source_release(&src);
		if (json_array_append_new(skipped, json_pack("{s:s, s:s}", "student",
				s->name, "error", s->error ? s->error : strbuf_str(&err))))
			rc = error("out of memory");
	}
	if (rc)
		rc = rc == WG_EXIT_USAGE ? rc : WG_EXIT_INTERNAL;
	for (size_t i = 0; i < b.n; i++)
		batch_student_free(&b.st[i]);
	free(b.st);
	strbuf_release(&err);
	return rc;
}

static int write_record(const char *path, const json_t *rec)
{
	if (!strcmp(path, "-"))
		return batch_put_json(stdout, rec) < 0 || fflush(stdout) ? -1 : 0;
	return batch_write_file(path, batch_put_json, rec);
}

int similarity_main(int argc, char **argv)
{
	struct cmd m = { .conf = SIMILARITY_CONF_INIT, .top = SIMILARITY_TOP };
	struct sim_class c = SIM_CLASS_INIT;
	json_t *skipped = json_array(), *rec = NULL;
	struct strbuf err = STRBUF_INIT;
	int rc;

	usage_set_prefix("grade: similarity");
	parse_args(&m, argc, argv);
	c.opts = m.conf.opts;
	if (m.json && strcmp(m.json, "-") && outfile_check(m.json, &err) < 0) {
		error("%s", strbuf_str(&err));
		rc = WG_EXIT_USAGE;
	} else if (!skipped) {
		error("out of memory");
		rc = WG_EXIT_INTERNAL;
	} else if (similarity_load_base(&c, &m.conf) < 0) {
		rc = WG_EXIT_USAGE;
	} else if (!(rc = load_class(&c, m.class_dir, skipped))) {
		rec = similarity_record(&c, &m.conf, skipped);
		rc = rec ? 0 : WG_EXIT_INTERNAL;
	}
	if (rec && !m.quiet && !(m.json && !strcmp(m.json, "-")))
		sim_report_print(stdout, rec, (size_t)m.top);
	if (rec && m.json && write_record(m.json, rec) < 0)
		rc = WG_EXIT_INTERNAL;
	json_decref(rec);
	json_decref(skipped);
	sim_class_release(&c);
	free(m.conf.base);
	strbuf_release(&err);
	return rc;
}
