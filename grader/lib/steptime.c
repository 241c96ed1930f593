/* steptime: see steptime.h. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "grader/lib/steptime.h"

static int on = -1;

void steptime_init(void)
{
	const char *v = getenv("WG_STEP_TIMES");

	on = v && *v && strcmp(v, "0") != 0;
}

int steptime_on(void)
{
	return on > 0;
}

/* Appends the decimal of V, at least WIDTH digits. */
static size_t put_num(char *p, unsigned long long v, int width)
{
	char tmp[24];
	size_t n = 0, i;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v || (int)n < width);
	for (i = 0; i < n; i++)
		p[i] = tmp[n - 1 - i];
	return n;
}

static size_t put_str(char *p, const char *s, size_t room)
{
	size_t n = strnlen(s, room);

	memcpy(p, s, n);
	return n;
}

void steptime_mark(const char *who, const char *step)
{
	char line[256];
	struct timespec t;
	size_t n = 0;

	if (on <= 0 || !who)
		return;
	clock_gettime(CLOCK_MONOTONIC, &t);
	n += put_str(line + n, "wg-step: ", 16);
	n += put_num(line + n, (unsigned long long)t.tv_sec, 1);
	line[n++] = '.';
	n += put_num(line + n, (unsigned long long)t.tv_nsec, 9);
	line[n++] = ' ';
	n += put_num(line + n, (unsigned long long)getpid(), 1);
	line[n++] = ' ';
	n += put_str(line + n, who, 40);
	line[n++] = ' ';
	n += put_str(line + n, step, 100);
	line[n++] = '\n';
	/* Best effort: a lost mark loses a figure, never a grade. */
	if (write(2, line, n) < 0)
		return;
}
