/*
 * sb_stash: a hostile submission for tests/e2e/test_hidden_last.sh, beside
 * sb_attack. The first word of stdin picks what it does; every mode is
 * bounded (a few small files, one 40 ms sleep).
 *
 *   hide NAME      a hidden case: stashes the rest of its input where a
 *                  later case of this or another grade could find it:
 *                  /tmp/NAME, /var/tmp/NAME, /dev/shm/NAME and
 *                  /tmp/NAME.d/deep/NAME (a folder of its own), each
 *                  world-readable; prints "stashed"
 *   look NAME      a visible case: prints what it finds in those places,
 *                  or "nothing"
 *   stamp          prints "T START END": CLOCK_REALTIME in ns when it
 *                  started and when it ends, 40 ms later (the order cases
 *                  ran in, across slots)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static const char *const places[] = {
	"/tmp/%s", "/var/tmp/%s", "/dev/shm/%s", "/tmp/%s.d/deep/%s",
};
#define NPLACES (sizeof(places) / sizeof(places[0]))

static void place(char *buf, size_t len, size_t i, const char *name)
{
	snprintf(buf, len, places[i], name, name);
}

static int hide(const char *name, const char *secret)
{
	char path[512];

	snprintf(path, sizeof(path), "/tmp/%s.d", name);
	mkdir(path, 0777);
	snprintf(path, sizeof(path), "/tmp/%s.d/deep", name);
	mkdir(path, 0777);
	for (size_t i = 0; i < NPLACES; i++) {
		FILE *f;

		place(path, sizeof(path), i, name);
		if ((f = fopen(path, "w"))) {
			fprintf(f, "%s\n", secret);
			fclose(f);
			chmod(path, 0644);
		}
	}
	puts("stashed");
	return 0;
}

static int look(const char *name)
{
	char path[512], line[256];
	int found = 0;

	for (size_t i = 0; i < NPLACES; i++) {
		FILE *f;

		place(path, sizeof(path), i, name);
		if (!(f = fopen(path, "r")))
			continue;
		while (fgets(line, sizeof(line), f)) {
			printf("found in %s: %s", path, line);
			found = 1;
		}
		fclose(f);
	}
	if (!found)
		puts("nothing");
	return 0;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int stamp(void)
{
	struct timespec nap = { 0, 40 * 1000000L };
	long long start = now_ns();

	while (nanosleep(&nap, &nap) != 0)
		;
	printf("T %lld %lld\n", start, now_ns());
	return 0;
}

int main(void)
{
	char line[512], mode[16] = "", name[128] = "", secret[256] = "";

	if (!fgets(line, sizeof(line), stdin))
		return 2;
	if (sscanf(line, "%15s %127s %255[^\n]", mode, name, secret) < 1)
		return 2;
	if (!strcmp(mode, "hide") && name[0])
		return hide(name, secret);
	if (!strcmp(mode, "look") && name[0])
		return look(name);
	if (!strcmp(mode, "stamp"))
		return stamp();
	return 2;
}
