/*
 * The one Check runner: every tests/unit/check_<module>.c exports
 * make_<module>_suite(), and the build lists them in check_suites.h.
 * CK_FORK=no in the environment runs tests in-process (for gdb).
 * WG_CHECK_LOG=FILE sends the tests' stderr there (make check-unit does):
 * the messages the negative tests expect (die(), error(), an allocation
 * that fails) are the test's log, not the terminal's. Check's own report
 * is on stdout.
 *
 * The run folder. Everything a test makes on disk lies in one folder,
 * $TMPDIR/wg-check.XXXXXX (/tmp without TMPDIR), made here before the
 * first test and removed here after the last, in this process: Check runs
 * each test in a fork, so a test that fails an assert or is killed at its
 * timeout leaves its scratch to this removal, not to its own cleanup.
 * Tests name their files with check_scratch() (wg_check.h); TMPDIR is the
 * run folder while they run, so what the product makes under TMPDIR (the
 * scratch tree of scratch_create()) lands there too. The folder is 0711:
 * as root the runner's and the sandbox's tests run programs under test
 * uids, which must reach the helpers and the scratch in it though the
 * checkout may be private (0700, such as /root/...); so TMPDIR itself must
 * be searchable by others when root runs the tests (the default, /tmp, is).
 * make check-unit runs this with TMPDIR set to a fresh folder and fails
 * when anything is left in it.
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
#include "tests/unit/wg_check.h"

static char run_dir[4096];

const char *check_dir(void)
{
	return run_dir;
}

char *check_scratch(char *buf, size_t size, const char *name)
{
	int n = snprintf(buf, size, "%s/%s", run_dir, name);

	ck_assert_msg(*run_dir, "check_scratch(\"%s\") before the run folder", name);
	ck_assert_msg(n > 0 && (size_t)n < size, "check_scratch: '%s' is too long", name);
	return buf;
}

/* The run folder under $TMPDIR (or /tmp), 0711, into run_dir; TMPDIR
 * becomes it. Returns -1 (with a message) when it cannot be made. */
static int make_run_dir(void)
{
	const char *tmp = getenv("TMPDIR");
	int n = snprintf(run_dir, sizeof(run_dir), "%s/wg-check.XXXXXX",
			 tmp && *tmp ? tmp : "/tmp");

	if (n < 0 || (size_t)n >= sizeof(run_dir) - 256) {
		fprintf(stderr, "check: TMPDIR is too long\n");
		return -1;
	}
	if (!mkdtemp(run_dir) || chmod(run_dir, 0711) < 0) {
		perror(run_dir);
		*run_dir = '\0';
		return -1;
	}
	setenv("TMPDIR", run_dir, 1);
	return 0;
}

/* The helper programs, copied into the run folder's helpers/: as root the
 * runner's tests run them under test uids, which cannot reach a checkout
 * inside a private (0700) folder such as /root. WG_HELPERS names the copy.
 * Nothing when there is nothing to copy. */
static void copy_helpers(void)
{
	const char *b = getenv("WG_BUILD");
	char src[4096], dir[4200], from[8192], to[8192];
	struct dirent *e;
	DIR *d;

	snprintf(src, sizeof(src), "%s/helpers", b && *b ? b : "build");
	snprintf(dir, sizeof(dir), "%s/helpers", run_dir);
	if (!(d = opendir(src)))
		return;
	if (mkdir(dir, 0755) < 0 || chmod(dir, 0755) < 0) {
		perror(dir);
		closedir(d);
		return;
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
	int failed;

	log_stderr();
	if (make_run_dir() < 0)
		return EXIT_FAILURE;
	copy_helpers();
	SRunner *sr = srunner_create(NULL);
#define WG_SUITE(name) srunner_add_suite(sr, make_##name##_suite());
#include "check_suites.h"
#undef WG_SUITE
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	if (scratch_remove_tree(run_dir) < 0) {
		perror(run_dir);
		failed++;
	}
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
