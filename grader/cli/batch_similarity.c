/*
 * batch_similarity: the similarity of a batch's class (similarity_cmd.h,
 * docs/similarity.md), computed once every student is graded and written
 * with the other outputs: summary.json's "similarity", the report.html
 * section, the top pairs on the terminal.
 *
 * A whole-class batch compares its students' source folders. A shard sees
 * only its part of the class, so it compares nothing: it stores its
 * students' sources (and the base files) in DIR/similarity-sources.json,
 * and grade --merge compares the whole class from the shards' stores. A
 * shard's store missing (a shard of an older grade) leaves its students
 * out, named in the record's "skipped".
 */
#include "grader/cli/batch_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grader/lib/strbuf.h"
#include "grader/lib/usage.h"

#define SOURCES_FILE "similarity-sources.json"

static int skip(json_t *skipped, const char *name, const char *why)
{
	if (json_array_append_new(skipped, json_pack("{s:s, s:s}", "student",
						       name, "error", why)))
		return error("out of memory");
	return 0;
}

/* The batch's own students with sources into c. */
static int add_students(const struct batch *b, struct sim_class *c,
			json_t *skipped)
{
	struct strbuf err = STRBUF_INIT;
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < b->n; i++) {
		const struct student *s = &b->st[i];
		struct sim_source src = { NULL, 0 };

		if (!s->src)
			continue;
		strbuf_reset(&err);
		if (sim_source_load_dir(&src, s->src, &err) < 0) {
			sim_source_release(&src);
			rc = skip(skipped, s->name, strbuf_str(&err));
		} else if (sim_class_add(c, s->name, &src, &err) < 0) {
			rc = error("similarity: %s", strbuf_str(&err));
		}
	}
	strbuf_release(&err);
	return rc;
}

/* Each shard's store into c (the merge): the base from the first. */
static int add_shards(const struct batch *b, struct sim_class *c, json_t *skipped)
{
	struct strbuf err = STRBUF_INIT;
	int rc = 0, base = 1;

	for (size_t i = 0; rc == 0 && i < b->nsim_outs; i++) {
		char *path = batch_path(b->sim_outs[i], SOURCES_FILE);
		json_error_t je;
		json_t *rec = json_load_file(path, 0, &je);
		size_t dup = 0;

		strbuf_reset(&err);
		if (!rec) {
			strbuf_addf(&err, "cannot read '%s': %s", path, je.text);
			rc = skip(skipped, b->sim_outs[i], strbuf_str(&err));
		} else if (sim_report_load_sources(c, rec, base, &dup, &err) < 0) {
			rc = error("'%s': %s", path, strbuf_str(&err));
		}
		base &= !rec;
		json_decref(rec);
		free(path);
	}
	strbuf_release(&err);
	return rc;
}

static int put_sources(FILE *f, const void *c)
{
	struct strbuf err = STRBUF_INIT;
	int rc = sim_report_put_sources(f, c, &err) < 0 || fputc('\n', f) == EOF
		 ? -1 : 0;

	if (err.len)
		error("similarity: %s", strbuf_str(&err));
	strbuf_release(&err);
	return rc;
}

int batch_similarity(struct batch *b)
{
	struct sim_class c = SIM_CLASS_INIT;
	json_t *skipped = json_array();
	int rc = -1;

	c.opts = b->sim.opts;
	/* The spool in the batch's folder, private (its own $TMPDIR else). */
	c.spool.dir = b->out;
	if (!skipped || similarity_load_base(&c, &b->sim) < 0)
		goto out;
	if (b->nsim_outs ? add_shards(b, &c, skipped) : add_students(b, &c, skipped))
		goto out;
	if (b->shard.count > 1) {
		rc = batch_write_out(b, SOURCES_FILE, put_sources, &c);
		goto out;
	}
	b->similarity = similarity_record(&c, &b->sim, skipped);
	rc = b->similarity ? 0 : -1;
out:
	json_decref(skipped);
	sim_class_release(&c);
	return rc;
}
