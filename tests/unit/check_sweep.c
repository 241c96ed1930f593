/*
 * Unit tests for sandbox_sweep.c: what a slot uid leaves in the host's
 * world-writable folders goes, whatever its shape (a folder chain deeper
 * than the sweep's descriptors, a mode-000 folder, a FIFO), and nothing
 * of another uid's, nor the scratch tree, nor anything in a folder the uid
 * could not write in. Root only (the files are given to a uid no one
 * uses); elsewhere the tests pass without checking.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grader/run/sandbox_int.h"
#include "tests/unit/wg_check.h"

/* A uid and gid no process or file of the machine has (the top of the
 * 31-bit range, past any slot base), and another one. */
#define SWEPT_UID ((uid_t)2147480001u)
#define OTHER_UID ((uid_t)2147480002u)

static char top[PATH_MAX];

static void mk(const char *rel, mode_t mode, uid_t uid, int dir)
{
	char path[PATH_MAX + 256];

	ck_assert(snprintf(path, sizeof(path), "%s/%s", top, rel) < (int)sizeof(path));
	if (dir)
		ck_assert_msg(mkdir(path, 0700) == 0, "%s: %s", path, strerror(errno));
	else if (S_ISFIFO(mode))
		ck_assert_msg(mkfifo(path, 0600) == 0, "%s: %s", path, strerror(errno));
	else
		close(open(path, O_WRONLY | O_CREAT | O_EXCL, 0600));
	ck_assert_int_eq(lchown(path, uid, uid), 0);
	ck_assert_int_eq(chmod(path, mode & 07777), 0);
}

/* 1 when the run folder lies in a folder the keeper's walk finds (a
 * world-writable one near "/", sandbox_sweep.c), as the default /tmp does:
 * only there is a world-writable folder of the test's found. */
static int run_dir_is_swept(void)
{
	static char roots[SBX_SWEEP_ROOTS][PATH_MAX];
	char real[PATH_MAX];
	int n;

	ck_assert_ptr_nonnull(realpath(check_dir(), real));
	sbx_sweep_init(NULL);
	n = sbx_sweep_roots(roots, SBX_SWEEP_ROOTS);
	for (int i = 0; i < n; i++) {
		size_t len = strlen(roots[i]);

		if (!strncmp(real, roots[i], len) && real[len] == '/')
			return 1;
	}
	fprintf(stderr, "sweep: the run folder %s is in no swept folder: "
		"not checked\n", real);
	return 0;
}

static int exists(const char *rel)
{
	char path[PATH_MAX + 256];
	struct stat st;

	ck_assert(snprintf(path, sizeof(path), "%s/%s", top, rel) < (int)sizeof(path));
	return lstat(path, &st) == 0;
}

START_TEST(test_sweep_removes_the_uids_files_only)
{
	char rel[512] = "chain";
	size_t len = strlen(rel);

	if (geteuid() != 0 || !run_dir_is_swept())
		return;
	/* A world-writable folder of its own in the run folder (below /tmp,
	 * a root, through folders others can search): found by the walk at
	 * init, read after every run. */
	check_scratch(top, sizeof(top), "sweep");
	ck_assert_int_eq(mkdir(top, 0700), 0);
	ck_assert_int_eq(chmod(top, 01777), 0);
	mk("mine", 0644, SWEPT_UID, 0);
	mk("fifo", S_IFIFO | 0600, SWEPT_UID, 0);
	mk("theirs", 0644, OTHER_UID, 0);
	mk("closed", 0000, SWEPT_UID, 1);
	mk("closed/inside", 0644, SWEPT_UID, 0);
	/* Another's world-writable folder, holding one file of each. */
	mk("open", 0777, OTHER_UID, 1);
	mk("open/mine", 0644, SWEPT_UID, 0);
	mk("open/theirs", 0644, OTHER_UID, 0);
	/* Its own world-writable folder, where another slot wrote: all goes. */
	mk("own", 0777, SWEPT_UID, 1);
	mk("own/theirs", 0644, OTHER_UID, 0);
	/* Folders the uid cannot write in: nothing there can be its doing
	 * (left alone, though the files are given to the uid here). */
	mk("shut", 0700, OTHER_UID, 1);
	mk("shut/given", 0644, SWEPT_UID, 0);
	mk("ro", 0755, OTHER_UID, 1);
	mk("ro/given", 0644, SWEPT_UID, 0);
	/* Deeper than the sweep's descriptors (SWEEP_FDS is 32). */
	mk(rel, 0700, SWEPT_UID, 1);
	for (int i = 0; i < 80; i++) {
		len += (size_t)snprintf(rel + len, sizeof(rel) - len, "/d");
		mk(rel, 0700, SWEPT_UID, 1);
	}
	mk("chain/d/leaf", 0644, SWEPT_UID, 0);

	sbx_sweep_init(NULL);
	sbx_sweep(SWEPT_UID);

	ck_assert(!exists("mine"));
	ck_assert(!exists("fifo"));
	ck_assert(!exists("closed"));
	ck_assert(!exists("chain"));
	ck_assert(!exists("open/mine"));
	ck_assert(!exists("own"));
	ck_assert(exists("ro/given"));
	ck_assert(exists("theirs"));
	ck_assert(exists("open/theirs"));
	ck_assert(exists("shut/given"));
	/* Nothing the sweep moved up was left behind. */
	char cmd[PATH_MAX + 64];
	snprintf(cmd, sizeof(cmd), "ls -a '%s' | grep -q '^\\.wg-sweep-'", top);
	ck_assert_int_eq(system(cmd) == 0, 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* The scratch tree is grade's: a build folder of the slot uid stays. */
START_TEST(test_sweep_skips_the_scratch_tree)
{
	char cmd[PATH_MAX + 64];

	if (geteuid() != 0)
		return;
	check_scratch(top, sizeof(top), "scratch");
	ck_assert_int_eq(mkdir(top, 0711), 0);
	mk("build-0", 0700, SWEPT_UID, 1);
	mk("build-0/prog", 0755, SWEPT_UID, 0);
	sbx_sweep_init(top);
	sbx_sweep(SWEPT_UID);
	ck_assert(exists("build-0/prog"));
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

Suite *make_sweep_suite(void)
{
	Suite *s = suite_create("sweep");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_sweep_removes_the_uids_files_only);
	tcase_add_test(tc, test_sweep_skips_the_scratch_tree);
	suite_add_tcase(s, tc);
	return s;
}
