/* build: the loaded size of a program, which the MLE rule relies on; the
 * source names given to the compiler; the compiler's limits; taking the
 * program from the build folder. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "grader/run/build.h"
#include "grader/run/scratch.h"
#include "tests/unit/wg_check.h"

static const char *helper(const char *name, char *buf, size_t n)
{
	const char *b = getenv("WG_BUILD");

	snprintf(buf, n, "%s/helpers/%s", b && *b ? b : "build", name);
	return buf;
}

START_TEST(test_image_size_counts_static_arrays)
{
	char path[4096];
	uint64_t big = build_image_size(helper("rn_bigstatic", path, sizeof(path)));
	uint64_t small = build_image_size(helper("rn_exit", path, sizeof(path)));

	/* 64 MiB of .bss plus a few pages of code and data. */
	ck_assert_uint_ge(big, (uint64_t)64 << 20);
	ck_assert_uint_lt(big, (uint64_t)65 << 20);
	ck_assert_uint_gt(small, 0);
	ck_assert_uint_lt(small, (uint64_t)1 << 20);
}
END_TEST

START_TEST(test_image_size_of_non_elf)
{
	char path[PATH_MAX];
	int fd = mkstemp(check_scratch(path, sizeof(path), "build-script-XXXXXX"));

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "#!/bin/sh\nexit 0\n", 17), 17);
	close(fd);
	ck_assert_uint_eq(build_image_size(path), 0);
	unlink(path);
	ck_assert_uint_eq(build_image_size("/nonexistent/wg-prog"), 0);
}
END_TEST

/* A source folder and an empty build folder under one temporary folder. */
struct tree {
	char top[96], src[128], out[128], dst[128];
};

static void tree_init(struct tree *t)
{
	check_scratch(t->top, sizeof(t->top), "build-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(t->top));
	snprintf(t->src, sizeof(t->src), "%s/src", t->top);
	snprintf(t->out, sizeof(t->out), "%s/out", t->top);
	snprintf(t->dst, sizeof(t->dst), "%s/prog-copy", t->top);
	ck_assert_int_eq(mkdir(t->src, 0700), 0);
	ck_assert_int_eq(mkdir(t->out, 0700), 0);
}

static void tree_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

static void tree_free(struct tree *t)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->top);
	ck_assert_int_eq(system(cmd), 0);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Names that look like options are files: "-x.c" holds main, "a b.c" the
 * function it calls. The program taken is the grader's alone. */
START_TEST(test_names_stay_files)
{
	struct build_limits lim = BUILD_LIMITS_INIT;
	struct build_result r;
	struct tree t;
	struct stat st;

	tree_init(&t);
	tree_file(t.src, "-x.c", "int f(void);\nint main(void) { return f(); }\n");
	tree_file(t.src, "a b.c", "int f(void) { return 0; }\n");
	build_submission(t.src, t.out, (uid_t)-1, (gid_t)-1, &lim, &r);
	ck_assert_msg(r.status == BUILD_OK, "build: %s", r.log);
	ck_assert_str_eq(r.reason, "");
	ck_assert_int_eq(build_take_program(t.out, (uid_t)-1, t.dst, &r), 0);
	ck_assert_int_eq(stat(t.dst, &st), 0);
	/* The grader's alone: a run gets a copy of its own (scratch.h). */
	ck_assert_uint_eq(st.st_mode & 07777, SCRATCH_PROGRAM_MODE);
	free(r.log);
	tree_free(&t);
}
END_TEST

/* "@x.c" would be read by gcc as options ("-wrapper ..."): refused. */
START_TEST(test_response_file_refused)
{
	struct build_limits lim = BUILD_LIMITS_INIT;
	struct build_result r;
	struct tree t;
	char prog[200];

	tree_init(&t);
	tree_file(t.src, "main.c", "int main(void) { return 0; }\n");
	tree_file(t.src, "@x.c", "-wrapper /bin/true\n");
	build_submission(t.src, t.out, (uid_t)-1, (gid_t)-1, &lim, &r);
	ck_assert_int_eq(r.status, BUILD_FAILED);
	ck_assert_ptr_nonnull(strstr(r.log, "'@x.c'"));
	ck_assert_ptr_nonnull(strstr(r.reason, "'@'"));
	snprintf(prog, sizeof(prog), "%s/prog", t.out);
	ck_assert_int_ne(access(prog, F_OK), 0);    /* the compiler never ran */
	free(r.log);
	tree_free(&t);
}
END_TEST

/* "prog" is taken only when it is a regular file of one link: a link
 * (to a file the grader could read), a FIFO (which must not hang us) or a
 * hard link are refused as the build's fault; nothing is copied. */
START_TEST(test_take_program_refuses)
{
	static const char *const kinds[] = { "symlink", "fifo", "hardlink",
					     "missing" };
	struct build_result r;
	struct tree t;
	char prog[200], other[200];

	for (size_t k = 0; k < sizeof(kinds) / sizeof(*kinds); k++) {
		tree_init(&t);
		snprintf(prog, sizeof(prog), "%s/prog", t.out);
		snprintf(other, sizeof(other), "%s/other", t.out);
		tree_file(t.out, "other", "#!/bin/sh\n");
		if (!strcmp(kinds[k], "symlink"))
			ck_assert_int_eq(symlink("/etc/passwd", prog), 0);
		else if (!strcmp(kinds[k], "fifo"))
			ck_assert_int_eq(mkfifo(prog, 0700), 0);
		else if (!strcmp(kinds[k], "hardlink"))
			ck_assert_int_eq(link(other, prog), 0);
		memset(&r, 0, sizeof(r));
		ck_assert_int_eq(build_take_program(t.out, (uid_t)-1, t.dst, &r), -1);
		ck_assert_msg(r.status == BUILD_FAILED, "%s: status %d", kinds[k],
			      r.status);
		ck_assert_str_eq(r.reason, "the build left no program of its own");
		ck_assert_int_ne(access(t.dst, F_OK), 0);
		free(r.log);
		tree_free(&t);
	}
}
END_TEST

/* A compiler flooding its messages is stopped at the cap at once, not at
 * its time limit: 16^4 * 8 * 16 errors with their macro notes would take
 * gcc about a minute. */
START_TEST(test_compiler_flood_stopped)
{
	struct build_limits lim = BUILD_LIMITS_INIT;
	struct build_result r;
	struct tree t;
	double t0;

	tree_init(&t);
	tree_file(t.src, "main.c",
		  "#define A 1 = 1; 1 = 1; 1 = 1; 1 = 1; 1 = 1; 1 = 1; 1 = 1; 1 = 1;\n"
		  "#define B A A A A A A A A A A A A A A A A\n"
		  "#define C B B B B B B B B B B B B B B B B\n"
		  "#define D C C C C C C C C C C C C C C C C\n"
		  "#define E D D D D D D D D D D D D D D D D\n"
		  "int main(void) { E E E E E E E E E E E E E E E E }\n");
	lim.output_bytes = 64 << 10;
	t0 = now();
	build_submission(t.src, t.out, (uid_t)-1, (gid_t)-1, &lim, &r);
	ck_assert_double_lt(now() - t0, 10.0);
	ck_assert_int_eq(r.status, BUILD_FAILED);
	ck_assert_str_eq(r.reason, "compiler output over 64 KiB");
	ck_assert_ptr_nonnull(strstr(r.log, "(compilation stopped: compiler "
				     "output over 64 KiB)"));
	free(r.log);
	tree_free(&t);
}
END_TEST

/* '#include "/dev/zero"' grows cc1 without end: the address-space limit
 * stops it, and the build says why. */
START_TEST(test_compiler_memory_limited)
{
	struct build_limits lim = BUILD_LIMITS_INIT;
	struct build_result r;
	struct tree t;
	double t0;

	tree_init(&t);
	tree_file(t.src, "main.c", "#include \"/dev/zero\"\n");
	lim.mem_bytes = (uint64_t)256 << 20;
	t0 = now();
	build_submission(t.src, t.out, (uid_t)-1, (gid_t)-1, &lim, &r);
	ck_assert_double_lt(now() - t0, 20.0);
	ck_assert_int_eq(r.status, BUILD_FAILED);
	ck_assert_msg(strstr(r.reason, "compiler out of memory (limit 256 MiB)"),
		      "reason '%s', log %s", r.reason, r.log);
	free(r.log);
	tree_free(&t);
}
END_TEST

/* The compiler said no: CE with its messages, no reason of our own, no
 * program. */
START_TEST(test_compile_error)
{
	struct build_limits lim = BUILD_LIMITS_INIT;
	struct build_result r;
	struct tree t;
	char prog[200];

	tree_init(&t);
	tree_file(t.src, "main.c", "int main(void) { return 0 }\n");
	build_submission(t.src, t.out, (uid_t)-1, (gid_t)-1, &lim, &r);
	ck_assert_int_eq(r.status, BUILD_FAILED);
	ck_assert_msg(strstr(r.log, "main.c:1:") && strstr(r.log, "error"),
		      "log: %s", r.log);
	ck_assert_str_eq(r.reason, "");
	snprintf(prog, sizeof(prog), "%s/prog", t.out);
	ck_assert_int_ne(access(prog, F_OK), 0);
	free(r.log);
	tree_free(&t);
}
END_TEST

/* A folder: its .c files linked together with its headers; not a file of
 * a subfolder. A symbolic link among the sources is refused (a CE that
 * says so), never followed. */
START_TEST(test_folder)
{
	struct build_limits lim = BUILD_LIMITS_INIT;
	struct build_result r;
	struct tree t;
	char sub[200], evil[200];

	tree_init(&t);
	tree_file(t.src, "main.c", "#include \"util.h\"\n"
		  "int main(void) { return twice(0); }\n");
	tree_file(t.src, "util.c", "#include \"util.h\"\n"
		  "int twice(int x) { return 2 * x; }\n");
	tree_file(t.src, "util.h", "int twice(int x);\n");
	snprintf(sub, sizeof(sub), "%s/old", t.src);
	ck_assert_int_eq(mkdir(sub, 0700), 0);
	tree_file(sub, "main.c", "int main(void) { return 1; }\n");
	tree_file(t.top, "evil.c", "#error a link was followed\n");
	snprintf(evil, sizeof(evil), "%s/evil.c", t.top);
	snprintf(sub, sizeof(sub), "%s/link.c", t.src);
	ck_assert_int_eq(symlink(evil, sub), 0);
	build_submission(t.src, t.out, (uid_t)-1, (gid_t)-1, &lim, &r);
	ck_assert_msg(r.status == BUILD_FAILED, "build: %s", r.log);
	ck_assert_str_eq(r.reason, "a source is not a regular file");
	ck_assert_ptr_nonnull(strstr(r.log, "'link.c' refused: it is a symbolic link"));
	ck_assert_ptr_null(strstr(r.log, "followed"));
	free(r.log);
	ck_assert_int_eq(unlink(sub), 0);
	build_submission(t.src, t.out, (uid_t)-1, (gid_t)-1, &lim, &r);
	ck_assert_msg(r.status == BUILD_OK, "build: %s", r.log);
	ck_assert_int_eq(build_take_program(t.out, (uid_t)-1, t.dst, &r), 0);
	ck_assert_int_eq(system(t.dst), 0);     /* twice(0): exit 0 */
	free(r.log);
	tree_free(&t);
}
END_TEST

/* What a submission holds is never an IE: a sparse header past the 4 MiB
 * of sources, a FIFO named like a source, a name with an escape: each a
 * CE with its reason (docs/grade.md, "Submission limits"). */
START_TEST(test_odd_sources)
{
	struct build_limits lim = BUILD_LIMITS_INIT;
	struct build_result r;
	struct tree t;
	char path[300];
	static const struct { const char *name, *reason; } odd[] = {
		{ "big.h", "sources over 4 MiB" },
		{ "pipe.h", "a source is not a regular file" },
		{ "x\033[2J.c", "a source name holds a control character" },
	};

	for (size_t i = 0; i < sizeof(odd) / sizeof(*odd); i++) {
		tree_init(&t);
		tree_file(t.src, "main.c", "int main(void) { return 0; }\n");
		snprintf(path, sizeof(path), "%s/%s", t.src, odd[i].name);
		if (i == 0) {
			tree_file(t.src, odd[i].name, "");
			ck_assert_int_eq(truncate(path, 5 << 20), 0);
		} else if (i == 1)
			ck_assert_int_eq(mkfifo(path, 0600), 0);
		else
			tree_file(t.src, odd[i].name, "int f;\n");
		build_submission(t.src, t.out, (uid_t)-1, (gid_t)-1, &lim, &r);
		ck_assert_msg(r.status == BUILD_FAILED, "%s: %s", odd[i].name, r.log);
		ck_assert_str_eq(r.reason, odd[i].reason);
		ck_assert_ptr_null(strchr(r.log, '\033'));
		free(r.log);
		tree_free(&t);
	}
}
END_TEST

/* One file: it alone, with the headers beside it; when it fails and other
 * .c files are there, the log says to give the folder. */
START_TEST(test_single_file)
{
	struct build_limits lim = BUILD_LIMITS_INIT;
	struct build_result r;
	struct tree t;
	char file[200];

	tree_init(&t);
	tree_file(t.src, "main.c", "#include \"util.h\"\n"
		  "int main(void) { return LIMIT - 7; }\n");
	tree_file(t.src, "util.h", "#define LIMIT 7\n");
	tree_file(t.src, "other.c", "#error not this one\n");
	snprintf(file, sizeof(file), "%s/main.c", t.src);
	build_submission(file, t.out, (uid_t)-1, (gid_t)-1, &lim, &r);
	ck_assert_msg(r.status == BUILD_OK, "build: %s", r.log);
	free(r.log);
	tree_free(&t);

	tree_init(&t);
	tree_file(t.src, "main.c", "int helper(void);\n"
		  "int main(void) { return helper(); }\n");
	tree_file(t.src, "helper.c", "int helper(void) { return 0; }\n");
	snprintf(file, sizeof(file), "%s/main.c", t.src);
	build_submission(file, t.out, (uid_t)-1, (gid_t)-1, &lim, &r);
	ck_assert_int_eq(r.status, BUILD_FAILED);
	ck_assert_msg(strstr(r.log, "holds 1 other .c file: give the folder"),
		      "log: %s", r.log);
	free(r.log);
	tree_free(&t);
}
END_TEST

/* Nothing to build is the submission's fault; no compiler is ours. */
START_TEST(test_nothing_to_build)
{
	struct build_limits lim = BUILD_LIMITS_INIT;
	struct build_result r;
	struct tree t;

	tree_init(&t);
	tree_file(t.src, "notes.txt", "int main(void) { return 0; }\n");
	build_submission(t.src, t.out, (uid_t)-1, (gid_t)-1, &lim, &r);
	ck_assert_int_eq(r.status, BUILD_FAILED);
	ck_assert_ptr_nonnull(strstr(r.log, "no .c files in '"));
	free(r.log);
	tree_file(t.src, "main.c", "int main(void) { return 0; }\n");
	setenv("CC", "/nonexistent-wg/cc", 1);     /* this test's process only */
	build_submission(t.src, t.out, (uid_t)-1, (gid_t)-1, &lim, &r);
	unsetenv("CC");
	ck_assert_int_eq(r.status, BUILD_ERROR);
	ck_assert_ptr_nonnull(strstr(r.log, "cannot find the C compiler "
				     "'/nonexistent-wg/cc'"));
	free(r.log);
	tree_free(&t);
}
END_TEST

Suite *make_build_suite(void)
{
	Suite *s = suite_create("build");
	TCase *tc = tcase_create("image");
	TCase *tb = tcase_create("compile");

	tcase_add_test(tc, test_image_size_counts_static_arrays);
	tcase_add_test(tc, test_image_size_of_non_elf);
	suite_add_tcase(s, tc);
	tcase_set_timeout(tb, 60);
	tcase_add_test(tb, test_names_stay_files);
	tcase_add_test(tb, test_response_file_refused);
	tcase_add_test(tb, test_take_program_refuses);
	tcase_add_test(tb, test_compiler_flood_stopped);
	tcase_add_test(tb, test_compiler_memory_limited);
	tcase_add_test(tb, test_compile_error);
	tcase_add_test(tb, test_folder);
	tcase_add_test(tb, test_odd_sources);
	tcase_add_test(tb, test_single_file);
	tcase_add_test(tb, test_nothing_to_build);
	suite_add_tcase(s, tb);
	return s;
}
