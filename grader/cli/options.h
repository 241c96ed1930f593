#ifndef WG_OPTIONS_H
#define WG_OPTIONS_H
/*
 * options: grade's command line, and the one table of options that grade
 * and grade --batch share.
 *
 * Every option is one row of the table (options.c): its long name, its
 * short letter, whether it takes a value, and flags that say how batch
 * treats it. grade builds its getopt_long table from the rows; batch
 * (batch_options.c) looks each word up with options_find() and either
 * takes the option itself, refuses it, or passes it (with its value) to
 * every student's grade.
 */
#include <stddef.h>

#define OPTIONS_MAX_JOBS 64   /* grade -j: its most slots */

/* What options_find() returns an id of (getopt_long's val). */
enum options_id {
	OPT_JSON = 256, OPT_TIME, OPT_WALL, OPT_MEM, OPT_OUT, OPT_EXACT,
	OPT_COLOR, OPT_VERSION, OPT_JUNIT, OPT_GRADESCOPE, OPT_STAFF,
	OPT_STUDENT, OPT_UID_BASE, OPT_HIDE, OPT_HTML, OPT_SERVE,
	/* batch only */
	OPT_BATCH, OPT_OUT_DIR, OPT_FORCE, OPT_STUDENT_TIMEOUT, OPT_SHARD,
	OPT_MERGE, OPT_ROSTER, OPT_ASSIGNMENT, OPT_GRADE_PER_STUDENT,
	/* grade --similarity (similarity_cmd.h); the family's values also
	 * for the batch */
	OPT_SIMILARITY, OPT_SIM_VALUE, OPT_TOP
};

enum options_flags {
	OPTF_BATCH_OWN = 1,   /* batch takes it itself (-j, --uid-base, ...) */
	OPTF_BATCH_ONLY = 2,  /* batch's alone: grade does not know it */
	OPTF_REPORT = 4       /* a report file: batch writes its own, refuses it */
};

struct cli_option {
	const char *name;     /* long name, without "--" */
	int short_name;       /* 0: none */
	int has_arg;          /* no_argument or required_argument */
	int id;               /* the short letter, or an options_id */
	unsigned flags;       /* options_flags */
};

/* The row for a command-line word: "--name", "--name=VALUE", "-c", and
 * for a short option that takes a value "-cVALUE" too. NULL when the word
 * names no option. */
const struct cli_option *options_find(const char *arg);
/* The value of the option at argv[*i], which takes one: "--name=VALUE",
 * "-cVALUE" or the next word (then *i moves past it). No value is a usage
 * error (die_usage). Every mode reads its options' values so. */
const char *options_value(int argc, char **argv, int *i);
/* Whether arg is the long option name ("--name" or "--name=VALUE"). */
int options_is(const char *arg, const char *name);

/*
 * The one walk over a mode's command line (every mode but the plain one,
 * which is getopt_long's): fn is called for each word of argv[1..argc),
 * in order, with *i its index:
 *   a positional word (not starting with '-', a lone "-", and with
 *   OPTIONS_DASHDASH every word after "--"): o NULL, positional 1;
 *   an option word: o its row of the table (NULL when the table has
 *   none: the mode says whether that is an error), positional 0.
 * fn reads a value with options_value(argc, argv, i), which moves *i past
 * it. fn returns 0 to go on; anything else ends the walk, which returns
 * it. Returns 0 at the end of the line.
 */
enum { OPTIONS_DASHDASH = 1 };    /* "--" ends the options */
typedef int options_fn(void *ctx, int argc, char **argv, int *i,
		       const struct cli_option *o, int positional);
int options_walk(int argc, char **argv, unsigned flags, options_fn *fn, void *ctx);

struct options {
	const char *json, *junit, *gradescope, *html;
	double cpu_sec, wall_sec;    /* 0: from the suite / derived */
	long memory_mib, output_kib; /* 0: from the suite */
	int jobs, exact, quiet, verbose, staff;
	int color;                   /* -1 auto */
	long uid_base;
	const char **hide;           /* --hide DIR, in order */
	size_t nhide;
	int serve;                   /* --serve: the batch's grader (serve.h) */
};

/* Parses grade's command line into o (the strings are argv's). A usage
 * error is reported and exits WG_EXIT_USAGE (die_usage). Returns the
 * index of SUITE_DIR in argv (the submissions follow it), or 0 when
 * --help or --version was printed and grade is done. o->hide is the
 * caller's to free (options_release). */
int options_parse(int argc, char **argv, struct options *o);
void options_release(struct options *o);

#endif
