/*
 * The one Check runner: every tests/check_<module>.c exports
 * make_<module>_suite(), and the build lists them in check_suites.h.
 * CK_FORK=no in the environment runs tests in-process (for gdb).
 * WG_CHECK_LOG=FILE sends the tests' stderr there (make check-unit does):
 * the messages the negative tests expect (die(), error(), an allocation
 * that fails) are the test's log, not the terminal's. Check's own report
 * is on stdout.
 */
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grader/run/scratch.h"

#define WG_SUITE(name) Suite *make_##name##_suite(void);
#include "check_suites.h"
#undef WG_SUITE

/* The helper programs, copied into a folder of our own under /tmp: as
 * root the runner's tests run them under test uids, which cannot reach a
 * checkout inside a private (0700) folder such as /root. WG_HELPERS names
 * the copy; it is removed at the end. NULL when there is nothing to copy. */
static char *copy_helpers(void)
{
	const char *b = getenv("WG_BUILD");
	char src[4096], from[8192], to[8192], *dir;
	struct dirent *e;
	DIR *d;

	snprintf(src, sizeof(src), "%s/helpers", b && *b ? b : "build");
	if (!(d = opendir(src)))
		return NULL;
	if (!(dir = strdup("/tmp/wg-check.XXXXXX")) || !mkdtemp(dir) ||
	    chmod(dir, 0755) < 0) {
		closedir(d);
		free(dir);
		return NULL;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(from, sizeof(from), "%s/%s", src, e->d_name);
		snprintf(to, sizeof(to), "%s/%s", dir, e->d_name);
		scratch_copy_file(from, to, 0755, 0);
	}
	closedir(d);
	setenv("WG_HELPERS", dir, 1);
	return dir;
}

/* stderr (of the runner and every forked test) into WG_CHECK_LOG. */
static void log_stderr(void)
{
	const char *path = getenv("WG_CHECK_LOG");
	int fd;

	if (!path || !*path)
		return;
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	if (fd < 0) {
		perror(path);
		return;
	}
	fflush(stderr);
	dup2(fd, STDERR_FILENO);
	close(fd);
}

int main(void)
{
	char *helpers;

	log_stderr();
	helpers = copy_helpers();
	SRunner *sr = srunner_create(NULL);
#define WG_SUITE(name) srunner_add_suite(sr, make_##name##_suite());
#include "check_suites.h"
#undef WG_SUITE
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	if (helpers)
		scratch_remove_tree(helpers);
	free(helpers);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
