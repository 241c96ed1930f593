/*
 * Unit tests for the sandbox's keeper (grader/run/sandbox.h): a run through a
 * slot gives the same results as a direct one, its program's own max RSS,
 * the wall deadline and a failed exec as results, and an exact account of
 * the layers. The helpers are the runner's (tests/helpers/rn_*.c), run
 * from check_main.c's copy (WG_HELPERS). Works as root and not: the layers
 * differ, the results must not.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "grader/lib/strbuf.h"
#include "grader/run/cgroup.h"
#include "grader/run/runner.h"
#include "grader/run/sandbox.h"
#include "grader/run/scratch.h"
#include "tests/unit/wg_check.h"

struct slot {
	struct scratch sc;
	struct sandbox_slot *s;
	struct sandbox_layers l;
	char prog[PATH_MAX + 64];
	char dir[PATH_MAX + 64];
	uid_t uid;
	gid_t gid;
};

static const char *const *slot_hide;   /* for the next slot_open */

/* A slot whose scratch tree holds a copy of helper `name` as bin/prog. */
static void slot_open(struct slot *t, const char *name, int no_ns)
{
	const char *h = getenv("WG_HELPERS"), *b = getenv("WG_BUILD");
	char src[PATH_MAX];
	struct strbuf err = STRBUF_INIT;
	struct sandbox_config cfg = { .tmp_bytes = 8 << 20, .no_namespaces = no_ns };

	if (h)
		snprintf(src, sizeof(src), "%s/%s", h, name);
	else
		snprintf(src, sizeof(src), "%s/helpers/%s", b && *b ? b : "build", name);
	ck_assert_msg(scratch_init(&t->sc, 1, &err) == 0, "%s", strbuf_str(&err));
	snprintf(t->prog, sizeof(t->prog), "%s/bin/prog", t->sc.base);
	ck_assert_int_eq(scratch_copy_file(src, t->prog, 0755, 0), 0);
	scratch_slot_ids(&t->sc, 0, &t->uid, &t->gid);
	cfg.scratch = t->sc.base;
	cfg.hide = slot_hide;
	cfg.uid = t->uid;
	cfg.gid = t->gid;
	ck_assert_msg(sandbox_open(&t->s, &cfg, &t->l, &err) == 0, "%s",
		      strbuf_str(&err));
	snprintf(t->dir, sizeof(t->dir), "%s/slot-0", t->sc.base);
	if (!sandbox_private_dirs(t->s)) {
		struct strbuf path = STRBUF_INIT;

		ck_assert_msg(scratch_fresh_dir(&t->sc, "slot-0", 0, &path,
						&err) == 0, "%s", strbuf_str(&err));
		strbuf_release(&path);
	}
}

static void slot_close(struct slot *t)
{
	sandbox_close(t->s);
	scratch_cleanup(&t->sc);
}

/* c: argv in slot t, with the tests' limits. */
static void prepare(struct slot *t, struct run_child *c, const char *const *argv)
{
	struct run_child init = RUN_CHILD_INIT;

	*c = init;
	c->argv = argv;
	c->dir = t->dir;
	c->uid = t->uid;
	c->gid = t->gid;
	c->sbx = t->s;
	c->lim.wall_sec = 10;
	c->lim.cpu_sec = 5;
	c->lim.mem_bytes = (uint64_t)256 << 20;
	c->lim.stack_bytes = (uint64_t)8 << 20;
	c->lim.nproc = 1;
}

static int run(struct slot *t, struct run_child *c, const char *const *argv)
{
	prepare(t, c, argv);
	return run_command(c);
}

START_TEST(test_echo_through_keeper)
{
	struct slot t;
	struct run_child c;
	const char *argv[2];
	static const char in[] = "one\ntwo\n";

	slot_open(&t, "rn_echo", 0);
	argv[0] = t.prog;
	argv[1] = NULL;
	for (int i = 0; i < 3; i++) {         /* the slot serves run after run */
		prepare(&t, &c, argv);
		c.input = in;
		c.input_len = sizeof(in) - 1;
		ck_assert_msg(run_command(&c) == 0, "%s", c.res.error);
		ck_assert_str_eq(c.res.out, in);
		ck_assert_int_eq(c.res.status, RUN_EXITED);
		ck_assert_int_eq(c.res.exit_code, 0);
		/* The keeper is small: so is its child's peak, whatever the
		 * test runner holds (not under ASan, whose shadow memory every
		 * process of the test carries). */
#ifndef __SANITIZE_ADDRESS__
		ck_assert_int_lt(c.res.max_rss_kb, 16384);
#endif
		run_child_release(&c);
	}
	slot_close(&t);
}
END_TEST

/* rn_sleep 5 s under a 0.3 s wall limit: killed in time, by whatever
 * the slot has (the cgroup's kill, or the keeper's and spawner's). */
static void wall_deadline_kills(void)
{
	struct slot t;
	struct run_child c;
	const char *argv[3];

	slot_open(&t, "rn_sleep", 0);
	argv[0] = t.prog;
	argv[1] = "5000";
	argv[2] = NULL;
	prepare(&t, &c, argv);
	c.lim.wall_sec = 0.3;
	ck_assert_msg(run_command(&c) == 0, "%s", c.res.error);
	ck_assert_int_eq(c.res.timed_out_wall, 1);
	ck_assert_int_eq(c.res.status, RUN_SIGNALED);
	ck_assert_int_lt(c.res.wall_ms, 3000);
	run_child_release(&c);
	slot_close(&t);
}

START_TEST(test_wall_deadline_kills)
{
	wall_deadline_kills();
}
END_TEST

/* The same without a cgroup (WG_NO_CGROUP): no cgroup.kill to fall back
 * on, so grade's kill must reach the program through the keeper, and as
 * root through the spawner that started it (sandbox_wait.c's stop). */
START_TEST(test_wall_deadline_kills_without_cgroup)
{
	setenv("WG_NO_CGROUP", "1", 1);    /* this test's process only */
	wall_deadline_kills();
	unsetenv("WG_NO_CGROUP");
}
END_TEST

START_TEST(test_exit_code_and_signal)
{
	struct slot t;
	struct run_child c;
	const char *argv[3];

	slot_open(&t, "rn_exit", 0);
	argv[0] = t.prog;
	argv[1] = "7";
	argv[2] = NULL;
	ck_assert_msg(run(&t, &c, argv) == 0, "%s", c.res.error);
	ck_assert_int_eq(c.res.exit_code, 7);
	run_child_release(&c);
	slot_close(&t);
}
END_TEST

START_TEST(test_missing_program_is_a_result)
{
	struct slot t;
	struct run_child c;
	const char *argv[2];

	slot_open(&t, "rn_exit", 0);
	/* A text file: the kernel refuses it, the program's fault. */
	FILE *f = fopen(t.prog, "w");
	ck_assert_ptr_nonnull(f);
	fputs("not a program\n", f);
	fclose(f);
	argv[0] = t.prog;
	argv[1] = NULL;
	ck_assert_msg(run(&t, &c, argv) == 0, "%s", c.res.error);
	ck_assert_int_eq(c.res.exec_errno, ENOEXEC);
	run_child_release(&c);
	slot_close(&t);
}
END_TEST

START_TEST(test_layers_without_namespaces)
{
	struct slot t;
	struct run_child c;
	const char *argv[3];

	slot_open(&t, "rn_exit", 1);
	ck_assert_int_eq(t.l.mount_ns, 0);
	ck_assert_int_eq(t.l.net_ns, 0);
	ck_assert_int_eq(t.l.private_tmp, 0);
	ck_assert_ptr_nonnull(strstr(t.l.missing, "WG_NO_NAMESPACES"));
	ck_assert_int_eq(t.l.uid_switch, geteuid() == 0);
	argv[0] = t.prog;
	argv[1] = "3";
	argv[2] = NULL;
	ck_assert_msg(run(&t, &c, argv) == 0, "%s", c.res.error);
	ck_assert_int_eq(c.res.exit_code, 3);
	run_child_release(&c);
	slot_close(&t);
}
END_TEST

/* A masked folder is an empty, closed tmpfs for the programs alone,
 * whatever the file modes, for run after run; the host's view is
 * untouched. Without namespaces the same file is readable: the test of
 * the test. */
START_TEST(test_masked_folder)
{
	char dir[PATH_MAX], file[PATH_MAX + 16];
	const char *hide[] = { dir, "/nonexistent/wg-skipped", NULL };
	const char *argv[3];
	struct slot t;
	struct run_child c;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(check_scratch(dir, sizeof(dir), "sandbox-hide-XXXXXX")));
	ck_assert_int_eq(chmod(dir, 0755), 0);
	snprintf(file, sizeof(file), "%s/answer.out", dir);
	ck_assert_ptr_nonnull(f = fopen(file, "w"));
	fputs("42\n", f);
	fclose(f);
	ck_assert_int_eq(chmod(file, 0644), 0);
	slot_hide = hide;
	for (int no_ns = 0; no_ns < 2; no_ns++) {
		slot_open(&t, "rn_peek", no_ns);
		argv[0] = t.prog;
		argv[1] = file;
		argv[2] = NULL;
		for (int i = 0; i < 2; i++) {
			ck_assert_msg(run(&t, &c, argv) == 0, "%s", c.res.error);
			if (t.l.mount_ns)
				ck_assert_msg(!strncmp(c.res.out, "denied: ", 8),
					      "a masked file was readable: %s", c.res.out);
			else if (!t.l.private_tmp)
				ck_assert_str_eq(c.res.out, "read: 42\n");
			ck_assert_int_eq(c.res.hidden, t.l.mount_ns);
			run_child_release(&c);
		}
		slot_close(&t);
	}
	slot_hide = NULL;
	ck_assert_int_eq(access(file, R_OK), 0);
	unlink(file);
	rmdir(dir);
}
END_TEST

/* The minimal root: a run sees its program, its libraries, /dev, /proc
 * and the private areas; nothing of /etc, /usr or the compiler, whatever
 * the modes. Where the root cannot be built the report says why. */
START_TEST(test_minimal_root)
{
	static const char *const host[] = { "/etc/passwd", "/usr/bin/cc",
					     "/usr/include/stdio.h" };
	const char *argv[3];
	struct slot t;
	struct run_child c;

	slot_open(&t, "rn_peek", 0);
	if (!t.l.minimal_root) {
		ck_assert_msg(t.l.missing[0], "no minimal root, and no reason");
		slot_close(&t);
		return;
	}
	for (size_t i = 0; i < sizeof(host) / sizeof(*host); i++) {
		if (access(host[i], R_OK) < 0)
			continue;
		argv[0] = t.prog;
		argv[1] = host[i];
		argv[2] = NULL;
		ck_assert_msg(run(&t, &c, argv) == 0, "%s", c.res.error);
		ck_assert_msg(!strncmp(c.res.out, "denied: ", 8), "%s visible: %s",
			      host[i], c.res.out);
		run_child_release(&c);
	}
	/* What it needs is there. */
	argv[1] = "/dev/null";
	ck_assert_msg(run(&t, &c, argv) == 0, "%s", c.res.error);
	ck_assert_str_eq(c.res.out, "read: \n");
	run_child_release(&c);
	slot_close(&t);
}
END_TEST

/* The tree's CPU, counted live: rn_tree's 4 workers burn 0.9 s each, every
 * one under its own 1 s RLIMIT_CPU, 3.6 s in all under a 1 s limit. Only
 * the live count of the cgroup's CPU kills it before it prints "done" (the
 * count at the end alone would still make it a TLE). _i 0: as the slot
 * runs by default (through the spawner where it has one: root, with the
 * seccomp filter); 1: WG_NO_SECCOMP, no spawner, the keeper's own watch. */
START_TEST(test_tree_cpu_killed_live)
{
	struct slot t;
	struct run_child c;
	const char *argv[4];

	if (_i == 1)
		setenv("WG_NO_SECCOMP", "1", 1);
	slot_open(&t, "rn_tree", 0);
	unsetenv("WG_NO_SECCOMP");
	if (!t.l.children_cpu) {
		fprintf(stderr, "test_tree_cpu_killed_live: skipped, no live "
			"count of the tree's CPU here (%s)\n", t.l.missing);
		slot_close(&t);
		return;
	}
	if (_i == 1)
		ck_assert_int_eq(t.l.seccomp, 0);
	argv[0] = t.prog;
	argv[1] = "4";
	argv[2] = "0.9";
	argv[3] = NULL;
	c = (struct run_child)RUN_CHILD_INIT;
	c.argv = argv;
	c.dir = t.dir;
	c.uid = t.uid;
	c.gid = t.gid;
	c.sbx = t.s;
	c.lim.wall_sec = 20;
	c.lim.cpu_sec = 1;
	c.lim.mem_bytes = (uint64_t)256 << 20;
	c.lim.nproc = 8;
	ck_assert_msg(run_command(&c) == 0, "%s", c.res.error);
	ck_assert_msg(c.res.tree_cpu_killed == 1, "not killed live: out '%s', "
		      "tree cpu %ld ms", c.res.out ? c.res.out : "",
		      c.res.tree_cpu_ms);
	ck_assert_ptr_null(strstr(c.res.out ? c.res.out : "", "done"));
	ck_assert_int_eq(c.res.status, RUN_SIGNALED);
	ck_assert_int_eq(c.res.cpu_exceeded, 1);
	ck_assert_int_eq(c.res.timed_out_wall, 0);
	run_child_release(&c);
	slot_close(&t);
}
END_TEST

/* A keeper opened and closed with no run leaves no process of its own
 * behind (the child that makes its first cgroup migration, cgroup.c):
 * this test is a subreaper, so whatever the keeper left would come here,
 * not to an init that may never reap it. */
START_TEST(test_keeper_leaves_no_orphan)
{
	struct slot t;
	pid_t orphan = 0;

	ck_assert_int_eq(prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), 0);
	slot_open(&t, "rn_echo", 0);
	slot_close(&t);
	for (int i = 0; i < 50 && orphan <= 0; i++) {
		orphan = waitpid(-1, NULL, WNOHANG);
		if (orphan < 0)
			break;          /* ECHILD: no child at all */
		usleep(10 * 1000);
	}
	ck_assert_msg(orphan <= 0, "pid %d was left to be reaped by others", (int)orphan);
}
END_TEST

/* A run's orphans, killed with it, end with it: without a PID namespace
 * they come to the spawner (a subreaper), and the last run's were its
 * zombies when the keeper ended, so they went to init (which may never
 * reap them), still counted against the slot uid's process limit for
 * whoever took the uid next (found by a red-team round: a unit test
 * failed with exit 127 beside a grade that had left five). Here the test
 * is the subreaper above the keeper: nothing may come to it. Only where
 * every process of a run is killed (a cgroup, a slot uid or a PID
 * namespace); elsewhere an escapee is a layer the account says is
 * missing. */
/* The zombies of uid in /proc (every process of the host's where there
 * is no PID namespace). */
static int zombies_of(uid_t uid)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d))) {
		char path[300], line[256];
		unsigned long u = (unsigned long)-1;
		int zombie = 0;
		FILE *f;

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/status", e->d_name);
		if (!(f = fopen(path, "r")))
			continue;
		while (fgets(line, sizeof(line), f)) {
			zombie |= !strncmp(line, "State:\tZ", 8);
			sscanf(line, "Uid:\t%lu", &u);
		}
		fclose(f);
		n += zombie && u == (unsigned long)uid;
	}
	closedir(d);
	return n;
}

START_TEST(test_run_orphans_reaped)
{
	const char *argv[] = { NULL, "setsid", NULL };
	struct slot t;
	struct run_child c;
	pid_t orphan = 0;

	ck_assert_int_eq(prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), 0);
	slot_open(&t, "rn_grandchild", _i);
	if (!(t.l.cgroup_caps & CG_KILL) && !t.l.uid_switch && !t.l.pid_ns) {
		slot_close(&t);
		return;
	}
	argv[0] = t.prog;
	for (int i = 0; i < 3; i++) {
		/* Two processes, just what it needs: a zombie of the last
		 * run's still counted would make its fork fail. */
		prepare(&t, &c, argv);
		c.lim.nproc = 2;
		ck_assert_msg(run_command(&c) == 0, "%s", c.res.error);
		ck_assert_msg(c.res.exit_code == 0, "run %d: exit %d (its fork refused?)",
			      i, c.res.exit_code);
		run_child_release(&c);
		/* Of the slot uid, at most this run's orphan is a zombie. */
		if (t.l.uid_switch && !t.l.pid_ns)
			ck_assert_int_le(zombies_of(t.uid), 1);
	}
	slot_close(&t);
	for (int i = 0; i < 50 && orphan <= 0; i++) {
		orphan = waitpid(-1, NULL, WNOHANG | __WALL);
		if (orphan < 0)
			break;          /* ECHILD: no child at all */
		usleep(10 * 1000);
	}
	ck_assert_msg(orphan <= 0, "pid %d was left to be reaped by others", (int)orphan);
}
END_TEST

Suite *make_sandbox_suite(void)
{
	Suite *s = suite_create("sandbox");
	TCase *tc = tcase_create("keeper");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_echo_through_keeper);
	tcase_add_test(tc, test_wall_deadline_kills);
	tcase_add_test(tc, test_wall_deadline_kills_without_cgroup);
	tcase_add_test(tc, test_exit_code_and_signal);
	tcase_add_test(tc, test_missing_program_is_a_result);
	tcase_add_test(tc, test_layers_without_namespaces);
	tcase_add_test(tc, test_masked_folder);
	tcase_add_test(tc, test_minimal_root);
	tcase_add_loop_test(tc, test_tree_cpu_killed_live, 0, 2);
	tcase_add_test(tc, test_keeper_leaves_no_orphan);
	tcase_add_loop_test(tc, test_run_orphans_reaped, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}
