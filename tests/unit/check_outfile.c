/*
 * outfile: reports written privately through a new temporary file and a
 * rename, never through a link; the folder rule (as root).
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grader/lib/strbuf.h"
#include "grader/report/outfile.h"
#include "tests/unit/wg_check.h"

#define SANDBOX_LO 45000u

static char top[96];

static void setup(void)
{
	check_scratch(top, sizeof(top), "outfile-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(top));
	outfile_set_sandbox_ids(SANDBOX_LO, SANDBOX_LO + 100);
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	ck_assert_int_eq(system(cmd), 0);
}

static int put_text(FILE *f, const void *text)
{
	return fputs(text, f) == EOF ? -1 : 0;
}

static int put_nothing(FILE *f, const void *text)
{
	(void)f;
	(void)text;
	return -1;
}

/* Entries of dir whose names start with ".wg-" (temporary files). */
static int temporaries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		n += !strncmp(e->d_name, ".wg-", 4);
	closedir(d);
	return n;
}

static void slurp(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");
	size_t got;

	ck_assert_ptr_nonnull(f);
	got = fread(buf, 1, n - 1, f);
	buf[got] = '\0';
	fclose(f);
}

START_TEST(test_write_private_whole)
{
	char path[128], buf[64];
	struct strbuf err = STRBUF_INIT;
	struct stat st;
	mode_t old = umask(022);

	snprintf(path, sizeof(path), "%s/r.json", top);
	strbuf_reset(&err);
	ck_assert_msg(outfile_write(path, put_text, "one\n", &err) == 0,
		      "%s", strbuf_str(&err));
	umask(old);
	ck_assert_int_eq(lstat(path, &st), 0);
	ck_assert(S_ISREG(st.st_mode));
	ck_assert_uint_eq(st.st_mode & 07777, 0600);
	slurp(path, buf, sizeof(buf));
	ck_assert_str_eq(buf, "one\n");
	/* A failed fill leaves the old file and no temporary file. */
	strbuf_reset(&err);
	ck_assert_int_eq(outfile_write(path, put_nothing, NULL, &err), -1);
	slurp(path, buf, sizeof(buf));
	ck_assert_str_eq(buf, "one\n");
	ck_assert_int_eq(temporaries(top), 0);
	strbuf_release(&err);
}
END_TEST

/* A link planted at the report's name is replaced, never written through. */
START_TEST(test_write_replaces_link)
{
	char path[128], victim[128], buf[64];
	struct strbuf err = STRBUF_INIT;
	struct stat st;
	FILE *f;

	snprintf(path, sizeof(path), "%s/r.json", top);
	snprintf(victim, sizeof(victim), "%s/victim", top);
	f = fopen(victim, "w");
	ck_assert_ptr_nonnull(f);
	fputs("keep\n", f);
	fclose(f);
	ck_assert_int_eq(symlink(victim, path), 0);
	strbuf_reset(&err);
	ck_assert_msg(outfile_write(path, put_text, "report\n", &err) == 0,
		      "%s", strbuf_str(&err));
	ck_assert_int_eq(lstat(path, &st), 0);
	ck_assert(S_ISREG(st.st_mode));
	slurp(victim, buf, sizeof(buf));
	ck_assert_str_eq(buf, "keep\n");
	slurp(path, buf, sizeof(buf));
	ck_assert_str_eq(buf, "report\n");
	strbuf_release(&err);
}
END_TEST

/* A device, a FIFO or a folder at the name is refused and left as it
 * was (as root, `--json /dev/null` replaced /dev/null with a file). */
START_TEST(test_write_refuses_non_files)
{
	char fifo[128], dir[128];
	struct strbuf err = STRBUF_INIT;
	struct stat st;

	snprintf(fifo, sizeof(fifo), "%s/fifo", top);
	snprintf(dir, sizeof(dir), "%s/dir", top);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	ck_assert_int_eq(outfile_write(fifo, put_text, "x\n", &err), -1);
	ck_assert_msg(strstr(strbuf_str(&err), "it is a FIFO or socket, not a file"),
		      "%s", strbuf_str(&err));
	ck_assert_int_eq(lstat(fifo, &st), 0);
	ck_assert(S_ISFIFO(st.st_mode));
	strbuf_reset(&err);
	ck_assert_int_eq(outfile_check(dir, &err), -1);
	ck_assert_msg(strstr(strbuf_str(&err), "it is a folder"), "%s", strbuf_str(&err));
	strbuf_reset(&err);
	ck_assert_int_eq(outfile_check("/dev/null", &err), -1);
	ck_assert_msg(strstr(strbuf_str(&err), "'/dev/null': it is a device"), "%s",
		      strbuf_str(&err));
	ck_assert_int_eq(lstat("/dev/null", &st), 0);
	ck_assert(S_ISCHR(st.st_mode));
	strbuf_release(&err);
}
END_TEST

START_TEST(test_create_and_private_dir)
{
	char path[256], dir[128], link[128];
	struct strbuf err = STRBUF_INIT;
	struct stat st;
	int fd;

	snprintf(dir, sizeof(dir), "%s/out", top);
	ck_assert_int_eq(mkdir(dir, 0755), 0);
	ck_assert_int_eq(chmod(dir, 0755), 0);
	strbuf_reset(&err);
	ck_assert_msg(outfile_private_dir(dir, &err) == 0, "%s", strbuf_str(&err));
	ck_assert_int_eq(stat(dir, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0700);
	snprintf(link, sizeof(link), "%s/link", top);
	ck_assert_int_eq(symlink(dir, link), 0);
	strbuf_reset(&err);
	ck_assert_int_eq(outfile_private_dir(link, &err), -1);
	ck_assert_ptr_nonnull(strstr(strbuf_str(&err), "symbolic link"));
	snprintf(path, sizeof(path), "%s/x.log", dir);
	ck_assert_int_eq(symlink("/nonexistent-wg", path), 0);
	strbuf_reset(&err);
	fd = outfile_open_new(path, &err);
	ck_assert_msg(fd >= 0, "%s", strbuf_str(&err));
	ck_assert_int_eq(write(fd, "x", 1), 1);
	close(fd);
	ck_assert_int_eq(lstat(path, &st), 0);
	ck_assert(S_ISREG(st.st_mode));
	ck_assert_uint_eq(st.st_mode & 07777, 0600);
	ck_assert_int_eq(st.st_size, 1);
	strbuf_release(&err);
}
END_TEST

/* As root: a folder the sandbox uids could write is refused, a sticky one
 * accepted, and an entry in a sticky folder that a sandbox uid owns (a
 * folder, or a link it planted) is refused. */
START_TEST(test_folder_rule)
{
	char open_dir[128], sticky[128], sub[192], link[192], file[256];
	struct strbuf err = STRBUF_INIT;

	if (geteuid() != 0)
		return;     /* the programs run as the grader: nothing to check */
	snprintf(open_dir, sizeof(open_dir), "%s/open", top);
	ck_assert_int_eq(mkdir(open_dir, 0777), 0);
	ck_assert_int_eq(chmod(open_dir, 0777), 0);
	snprintf(file, sizeof(file), "%s/r.json", open_dir);
	strbuf_reset(&err);
	ck_assert_int_eq(outfile_check(file, &err), -1);
	ck_assert_ptr_nonnull(strstr(strbuf_str(&err), "the sandboxed programs can write it"));
	strbuf_reset(&err);
	ck_assert_int_eq(outfile_write(file, put_text, "x", &err), -1);
	ck_assert_int_ne(access(file, F_OK), 0);

	snprintf(sticky, sizeof(sticky), "%s/sticky", top);
	ck_assert_int_eq(mkdir(sticky, 0777), 0);
	ck_assert_int_eq(chmod(sticky, 01777), 0);
	snprintf(file, sizeof(file), "%s/r.json", sticky);
	strbuf_reset(&err);
	ck_assert_msg(outfile_check(file, &err) == 0, "%s", strbuf_str(&err));

	snprintf(sub, sizeof(sub), "%s/planted", sticky);
	ck_assert_int_eq(mkdir(sub, 0700), 0);
	ck_assert_int_eq(chown(sub, SANDBOX_LO + 1, SANDBOX_LO + 1), 0);
	snprintf(file, sizeof(file), "%s/r.json", sub);
	strbuf_reset(&err);
	ck_assert_int_eq(outfile_check(file, &err), -1);

	/* A folder the sandbox owns and can write, not sticky. */
	ck_assert_int_eq(chown(sub, 0, 0), 0);
	strbuf_reset(&err);
	ck_assert_msg(outfile_check(file, &err) == 0, "%s", strbuf_str(&err));
	ck_assert_int_eq(chown(sub, SANDBOX_LO + 2, 0), 0);
	ck_assert_int_eq(chmod(sub, 0755), 0);
	strbuf_reset(&err);
	ck_assert_int_eq(outfile_check(file, &err), -1);

	snprintf(link, sizeof(link), "%s/link", sticky);
	ck_assert_int_eq(symlink(top, link), 0);
	ck_assert_int_eq(lchown(link, SANDBOX_LO + 3, SANDBOX_LO + 3), 0);
	snprintf(file, sizeof(file), "%s/r.json", link);
	strbuf_reset(&err);
	ck_assert_int_eq(outfile_check(file, &err), -1);
	ck_assert_ptr_nonnull(strstr(strbuf_str(&err), "could replace it"));
	strbuf_release(&err);
}
END_TEST

Suite *make_outfile_suite(void)
{
	Suite *s = suite_create("outfile");
	TCase *tc = tcase_create("write");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_write_private_whole);
	tcase_add_test(tc, test_write_replaces_link);
	tcase_add_test(tc, test_write_refuses_non_files);
	tcase_add_test(tc, test_create_and_private_dir);
	tcase_add_test(tc, test_folder_rule);
	suite_add_tcase(s, tc);
	return s;
}
