#ifndef WG_SIMILARITY_CMD_H
#define WG_SIMILARITY_CMD_H
/*
 * grade --similarity: which submissions of a class share code.
 *
 *   grade --similarity CLASS_DIR [--similarity-base FILE]... [--json FILE]
 *         [--similarity-min SCORE] [--similarity-threshold SCORE]
 *         [--similarity-k N] [--similarity-window N]
 *         [--similarity-max-share SHARE] [--top N] [-q]
 *
 * CLASS_DIR is laid out as grade --batch takes it (one folder per
 * student; the one folder in it, at any depth, that holds .c files). No
 * program is built or run: the sources are read, compared
 * (grader/similarity/, docs/similarity.md) and the record written to
 * FILE (sim_report.h's JSON); the top pairs go to stdout.
 *
 * The batch (batch_similarity.c) computes the same record through
 * similarity_record() with the same options.
 */
#include <jansson.h>

#include "grader/similarity/sim_index.h"
#include "grader/similarity/sim_report.h"

#define SIMILARITY_TOP 10   /* pairs printed on the terminal */

struct similarity_conf {
	struct sim_opts opts;
	struct sim_report_opts report;
	const char **base;     /* --similarity-base FILE, in order */
	size_t nbase;
};
#define SIMILARITY_CONF_INIT { SIM_OPTS_INIT, SIM_REPORT_OPTS_INIT, NULL, 0 }

/* grade's main calls this when argv holds --similarity. Returns 0 the
 * record was written, 2 a usage or path error (an unreadable base file,
 * a CLASS_DIR that is not one), 3 an internal error (out of memory, the
 * JSON could not be written). */
int similarity_main(int argc, char **argv);

/* The base files of conf into c: 0, or -1 (reported: 'cannot read ...'). */
int similarity_load_base(struct sim_class *c, const struct similarity_conf *conf);

/* c compared and its record (a new reference), skipped (the students
 * whose sources could not be read, may be NULL) included; NULL when out
 * of memory (reported). */
json_t *similarity_record(struct sim_class *c, const struct similarity_conf *conf,
			  const json_t *skipped);

/* One option of the similarity family for conf (the batch's parser
 * calls it with its own words): 1 taken, 0 not one of them. A bad value
 * is a usage error (die_usage). */
int similarity_option(struct similarity_conf *conf, const char *name,
		      const char *value);

#endif
