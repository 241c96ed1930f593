/*
 * similarity_conf: the --similarity-* options and the record of a
 * comparison (similarity_conf.h).
 */
#include "grader/cli/similarity_conf.h"

#include <stdlib.h>
#include <string.h>

#include "grader/lib/strbuf.h"
#include "grader/lib/usage.h"
#include "grader/lib/util.h"

static double score_or_die(const char *name, const char *v, double hi)
{
	char *end;
	double d = strtod(v, &end);

	if (!*v || *end || !(d >= 0 && d <= hi))
		die_usage("%s: '%s' is not a number from 0 to %g", name, v, hi);
	return d;
}

unsigned similarity_count(const char *name, const char *v, long lo, long hi)
{
	struct strbuf err = STRBUF_INIT;
	long n;

	if (wg_parse_long(name, v, lo, hi, &n, &err) < 0)
		die_usage("%s", strbuf_str(&err));
	strbuf_release(&err);
	return (unsigned)n;
}

int similarity_option(struct similarity_conf *conf, const char *name,
		      const char *v)
{
	if (!strcmp(name, "similarity-base")) {
		conf->base = xrealloc(conf->base, (conf->nbase + 1) * sizeof *conf->base);
		conf->base[conf->nbase++] = v;
	} else if (!strcmp(name, "similarity-min")) {
		conf->report.min_score = score_or_die("--similarity-min", v, 1);
	} else if (!strcmp(name, "similarity-threshold")) {
		conf->report.threshold = score_or_die("--similarity-threshold", v, 1);
	} else if (!strcmp(name, "similarity-k")) {
		conf->opts.k = similarity_count("--similarity-k", v, 1, 1000);
	} else if (!strcmp(name, "similarity-window")) {
		conf->opts.w = similarity_count("--similarity-window", v, 1, 1000);
	} else if (!strcmp(name, "similarity-max-share")) {
		conf->opts.max_share = score_or_die("--similarity-max-share", v, 1);
	} else if (!strcmp(name, "similarity-memory")) {
		conf->opts.memory = (size_t)similarity_count("--similarity-memory", v,
							     1, 4096) << 20;
	} else {
		return 0;
	}
	return 1;
}

int similarity_load_base(struct sim_class *c, const struct similarity_conf *conf)
{
	struct strbuf err = STRBUF_INIT;
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < conf->nbase; i++) {
		struct sim_source s = { NULL, 0 };
		const char *slash = strrchr(conf->base[i], '/');

		if (sim_source_load_file(&s, conf->base[i], slash ? slash + 1
					 : conf->base[i], &err) < 0 ||
		    sim_class_add_base(c, &s, &err) < 0)
			rc = error("--similarity-base: %s", strbuf_str(&err));
		sim_source_release(&s);
	}
	strbuf_release(&err);
	return rc;
}

json_t *similarity_record(struct sim_class *c, const struct similarity_conf *conf,
			  const json_t *skipped)
{
	struct sim_select sel = sim_report_select(&conf->report);
	struct sim_result r;
	struct strbuf err = STRBUF_INIT;
	json_t *rec = NULL;

	if (sim_class_compare(c, &sel, &r, &err) == 0)
		rec = sim_report_json(c, &r, &conf->report, skipped, &err);
	if (!rec)
		error("similarity: %s", strbuf_str(&err));
	sim_result_release(&r);
	strbuf_release(&err);
	return rec;
}
