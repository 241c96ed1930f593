/* util: see util.h. */
#include "grader/lib/util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char *args_start, *args_end;

void wg_save_args(int argc, char **argv)
{
	if (argc < 1 || !argv[0])
		return;
	args_start = argv[0];
	args_end = argv[argc - 1] + strlen(argv[argc - 1]) + 1;
}

void wg_blank_args(void)
{
	/* The kernel lays argv's strings out one after another: the one
	 * range covers them all. */
	if (args_start && args_end > args_start)
		memset(args_start, 0, (size_t)(args_end - args_start));
}

int wg_open_unlinked(const char *dir, const char *name, struct strbuf *path)
{
	const char *tmp = getenv("TMPDIR");
	const char *dirs[] = { dir, tmp && *tmp ? tmp : "/tmp" };
	int fd = -1;

	for (size_t i = 0; fd < 0 && i < sizeof(dirs) / sizeof(*dirs); i++) {
		if (!dirs[i])
			continue;
		strbuf_reset(path);
		if (wg_path_join(path, dirs[i], name) < 0 ||
		    strbuf_addstr(path, "-XXXXXX") < 0) {
			errno = ENOMEM;
			return -1;
		}
		fd = mkostemp(path->buf, O_CLOEXEC);
		if (fd >= 0)
			unlink(path->buf);
	}
	return fd;
}

double wg_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void wg_stop_signals(void (*handler)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int wg_path_join(struct strbuf *out, const char *a, const char *b)
{
	strbuf_addstr(out, a);
	if (out->len && out->buf[out->len - 1] != '/')
		strbuf_addch(out, '/');
	return strbuf_addstr(out, b);
}

int wg_path_within(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	return !strncmp(path, dir, n) && (path[n] == '/' || path[n] == '\0');
}

int wg_parse_long(const char *name, const char *arg, long lo, long hi, long *out,
		  struct strbuf *err)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < lo || v > hi || isspace((unsigned char)arg[0])) {
		strbuf_addf(err, "%s: '%s' is not an integer in %ld-%ld", name, arg, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

int wg_parse_seconds(const char *name, const char *arg, double max, double *out,
		     struct strbuf *err)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || isnan(v) || !(v > 0) || v > max) {
		strbuf_addf(err, "%s: '%s' is not a number of seconds in (0, %g]",
			    name, arg, max);
		return -1;
	}
	*out = v;
	return 0;
}
