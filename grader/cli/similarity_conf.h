#ifndef WG_SIMILARITY_CONF_H
#define WG_SIMILARITY_CONF_H
/*
 * similarity_conf: how a class is compared (the --similarity-* options)
 * and the record of a comparison, shared by grade --similarity
 * (similarity_cmd.h) and the batch (batch_similarity.c), so that both
 * compare alike. It knows nothing of how either finds the students.
 *
 * Errors: as each function says; a bad option value is a usage error.
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

/* v as a whole number from lo to hi for option name (--top, -k...); else
 * a usage error (die_usage). */
unsigned similarity_count(const char *name, const char *v, long lo, long hi);

#endif
