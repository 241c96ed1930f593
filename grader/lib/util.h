#ifndef WG_UTIL_H
#define WG_UTIL_H
/*
 * util: the small helpers every part of the grader shares, one copy each.
 * Library-safe: nothing here prints or exits (usage.h's x* functions do).
 *
 * Errors: wg_path_join: -1 when memory runs out (the strbuf's flag);
 * wg_open_unlinked: -1 and errno (ENOMEM when memory runs out);
 * wg_parse_long and wg_parse_seconds: -1 and a message in err; the rest
 * cannot fail.
 */
#include "grader/lib/strbuf.h"

#include <stddef.h>

/* Seconds on the monotonic clock. */
double wg_now(void);

/* The signals that ask grade to stop (SIGINT, SIGTERM, SIGHUP) to handler,
 * or to SIG_IGN / SIG_DFL, with no flags and an empty mask. A handler only
 * sets a flag (docs/hacking.md, "Conventions"; as git and isolate do). */
void wg_stop_signals(void (*handler)(int));

/* "a/b" into out (appended). 0, or -1 (allocation). */
int wg_path_join(struct strbuf *out, const char *a, const char *b);

/* A new private file (0600, close-on-exec) named DIR/NAME-XXXXXX and
 * unlinked at once (a spool: nothing is left behind however the process
 * ends), in dir, else (dir NULL or unusable) in $TMPDIR or /tmp. Its
 * descriptor, or -1 with errno and the last path tried in path. */
int wg_open_unlinked(const char *dir, const char *name, struct strbuf *path);

/* Whether path is dir or below it (by name: both should be absolute and
 * normalised). */
int wg_path_within(const char *path, const char *dir);

/* A whole decimal integer in [lo, hi] (no sign games, no trailing text):
 * 0 and *out, or -1 with the reason in err ("NAME: 'ARG' is not an
 * integer in LO-HI"). name says what is parsed: "-j", "WG_UID_BASE". */
int wg_parse_long(const char *name, const char *arg, long lo, long hi, long *out,
		  struct strbuf *err);
/* A number of seconds in (0, max]: 0, or -1 with the reason in err. */
int wg_parse_seconds(const char *name, const char *arg, double max, double *out,
		     struct strbuf *err);

/* The process's command line, as main() got it: wg_save_args keeps where
 * its strings lie, wg_blank_args zeroes them, so that /proc/PID/cmdline of
 * this process reads empty. For a forked helper that never reads its
 * arguments again (the sandbox's PID-namespace init): what a program can
 * read there must not name the suite, the classmates or the reports. */
void wg_save_args(int argc, char **argv);
void wg_blank_args(void);

#endif
