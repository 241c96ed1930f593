/*
 * Unit tests for the runner, with the bounded helper programs
 * tests/helpers/rn_*.c (built to $WG_BUILD/helpers/). Every test checks the
 * verdict fields and that no process of the run is left: none in its
 * process group and, when the tests run as root (each run then has a
 * dedicated uid, see test_uid), none of its uid. Zombies do not count: an
 * orphan killed by the runner is reaped by init, which some containers
 * never do.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "grader/run/runner.h"
#include "tests/unit/wg_check.h"

#define MIB ((size_t)1 << 20)

/* A helper run: the struct, the program path and its argv. */
struct hrun {
	struct run_child c;
	char path[PATH_MAX];
	const char *argv[8];
};

static const char *build_dir(void)
{
	const char *b = getenv("WG_BUILD");

	return b && *b ? b : "build";
}

static int is_root(void)
{
	return geteuid() == 0;
}

/* A dedicated uid for slot (< 40) of this test process. Every run kills
 * all the processes of its uid, so two test runs at once (two checkouts,
 * two developers) must not share uids: the range depends on our pid, live
 * pids being distinct. 40000..59999 stays clear of the grader's default
 * slots (62000...) and of systemd's dynamic users (61184...). */
static uid_t test_uid(int slot)
{
	return 40000 + (uid_t)(getpid() % 500) * 40 + (uid_t)slot;
}

/* Prepare h to run helper `name` with the NULL-terminated arguments, in
 * /tmp, under test_uid(slot) when root, with a 20 s wall limit as a safety
 * net. */
static void hrun_init(struct hrun *h, int slot, const char *name, ...)
{
	struct run_child init = RUN_CHILD_INIT;
	const char *a;
	va_list ap;
	int n = 1;

	memset(h, 0, sizeof(*h));
	h->c = init;
	/* The copy check_main.c made, which any test uid can run. */
	if (getenv("WG_HELPERS"))
		snprintf(h->path, sizeof(h->path), "%s/%s", getenv("WG_HELPERS"), name);
	else
		snprintf(h->path, sizeof(h->path), "%s/helpers/%s", build_dir(), name);
	h->argv[0] = h->path;
	va_start(ap, name);
	while ((a = va_arg(ap, const char *)) && n < 7)
		h->argv[n++] = a;
	va_end(ap);
	h->argv[n] = NULL;
	h->c.argv = h->argv;
	h->c.dir = "/tmp";
	h->c.lim.wall_sec = 20;
	if (is_root())
		h->c.uid = test_uid(slot);
}

/* Live (not zombie) processes in process group pgid, or of real uid `uid`
 * when uid != -1, other than ourselves. */
static int count_alive(pid_t pgid, uid_t uid)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d))) {
		char path[300], buf[1024], state;
		int pid = atoi(e->d_name), pg = 0, match = 0;
		unsigned ruid;
		FILE *f;

		if (pid <= 0 || pid == getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%d/stat", pid);
		if (!(f = fopen(path, "r")))
			continue;
		buf[0] = '\0';
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
		char *rp = strrchr(buf, ')');
		if (!rp || sscanf(rp + 1, " %c %*d %d", &state, &pg) != 2 ||
		    state == 'Z' || state == 'X')
			continue;
		if (pg == pgid)
			match = 1;
		snprintf(path, sizeof(path), "/proc/%d/status", pid);
		if (uid != (uid_t)-1 && (f = fopen(path, "r"))) {
			while (fgets(buf, sizeof(buf), f))
				if (sscanf(buf, "Uid: %u", &ruid) == 1 && ruid == uid)
					match = 1;
			fclose(f);
		}
		n += match;
	}
	closedir(d);
	return n;
}

/* SIGKILL has been sent; give the dying a moment to become zombies. */
static int alive_after(pid_t pgid, uid_t uid)
{
	int i, n = 0;

	for (i = 0; i < 200; i++) {
		n = count_alive(pgid, uid);
		if (n == 0)
			break;
		usleep(10000);
	}
	return n;
}

static int pid_alive(pid_t pid)
{
	char path[64], buf[512], state = '?';
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	for (i = 0; i < 200; i++, usleep(10000)) {
		if (!(f = fopen(path, "r")))
			return 0;
		char *rp = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
		fclose(f);
		if (!rp || sscanf(rp + 1, " %c", &state) != 1 || state == 'Z' ||
		    state == 'X')
			return 0;
	}
	return 1;
}

static void assert_nothing_left(const struct hrun *h)
{
	uid_t uid = h->c.res.uid_switched ? h->c.uid : (uid_t)-1;

	ck_assert_int_gt(h->c.res.pid, 0);
	ck_assert_int_eq(alive_after(h->c.res.pid, uid), 0);
}

/* Run to completion; the harness itself must not fail. */
static void hrun(struct hrun *h)
{
	int rc = run_command(&h->c);

	ck_assert_msg(rc == 0, "run_command failed: %s", h->c.res.error);
	ck_assert_ptr_nonnull(h->c.res.out);
	ck_assert_ptr_nonnull(h->c.res.err);
	ck_assert_int_eq(h->c.res.uid_switched, is_root());
	assert_nothing_left(h);
}

static size_t count_char(const char *s, size_t n, char ch)
{
	size_t k = 0;

	while (n--)
		k += *s++ == ch;
	return k;
}

static char *pattern(size_t n)
{
	char *p = malloc(n);
	size_t i;

	ck_assert_ptr_nonnull(p);
	for (i = 0; i < n; i++)
		p[i] = (char)('a' + (i * 7 + i / 4096) % 26);
	return p;
}

/* ---- exit codes and signals ---- */

static const int exit_codes[] = { 0, 1, 42, 255 };

START_TEST(test_exit_code)
{
	struct hrun h;
	char arg[16];

	snprintf(arg, sizeof(arg), "%d", exit_codes[_i]);
	hrun_init(&h, 0, "rn_exit", arg, NULL);
	hrun(&h);
	ck_assert_int_eq(h.c.res.status, RUN_EXITED);
	ck_assert_int_eq(h.c.res.exit_code, exit_codes[_i]);
	ck_assert_int_eq(h.c.res.exec_errno, 0);
	ck_assert_int_eq(h.c.res.timed_out_wall, 0);
	ck_assert_int_eq(h.c.res.cpu_exceeded, 0);
	ck_assert_int_eq(h.c.res.output_exceeded, 0);
	ck_assert_int_ge(h.c.res.wall_ms, 0);
	ck_assert_int_ge(h.c.res.cpu_ms, 0);
	ck_assert_int_gt(h.c.res.max_rss_kb, 0);
	run_child_release(&h.c);
}
END_TEST

static const struct {
	const char *how;
	int sig;
	const char *name;
} sig_cases[] = {
	{ "segv", SIGSEGV, "SIGSEGV" }, { "abrt", SIGABRT, "SIGABRT" },
	{ "fpe", SIGFPE, "SIGFPE" },    { "bus", SIGBUS, "SIGBUS" },
	{ "ill", SIGILL, "SIGILL" },    { "pipe", SIGPIPE, "SIGPIPE" },
	{ "kill", SIGKILL, "SIGKILL" }, { "term", SIGTERM, "SIGTERM" },
	{ "usr1", SIGUSR1, "SIGUSR1" },
};

START_TEST(test_signal)
{
	struct hrun h;

	hrun_init(&h, 1, "rn_signal", sig_cases[_i].how, NULL);
	hrun(&h);
	ck_assert_int_eq(h.c.res.status, RUN_SIGNALED);
	ck_assert_int_eq(h.c.res.term_signal, sig_cases[_i].sig);
	ck_assert_str_eq(run_signal_name(h.c.res.term_signal), sig_cases[_i].name);
	ck_assert_int_eq(h.c.res.timed_out_wall, 0);
	ck_assert_int_eq(h.c.res.cpu_exceeded, 0);
	run_child_release(&h.c);
}
END_TEST

START_TEST(test_signal_names)
{
	char want[32];

	ck_assert_str_eq(run_signal_name(SIGSEGV), "SIGSEGV");
	ck_assert_str_eq(run_signal_name(SIGXCPU), "SIGXCPU");
	ck_assert_str_eq(run_signal_name(SIGXFSZ), "SIGXFSZ");
	ck_assert_str_eq(run_signal_name(SIGRTMIN + 2), "SIGRTMIN+2");
	snprintf(want, sizeof(want), "signal %d", 200);
	ck_assert_str_eq(run_signal_name(200), want);
	ck_assert_str_eq(run_signal_name(0), "signal 0");
}
END_TEST

START_TEST(test_slot_uid)
{
	ck_assert_uint_eq(run_slot_uid(0), RUN_SLOT_UID_BASE);
	ck_assert_uint_eq(run_slot_uid(3), RUN_SLOT_UID_BASE + 3);
	run_set_slot_uid_base(70000);
	ck_assert_uint_eq(run_slot_uid(1), 70001);
	run_set_slot_uid_base(RUN_SLOT_UID_BASE);
}
END_TEST

/* ---- time limits ---- */

START_TEST(test_wall_sleep)
{
	struct hrun h;

	hrun_init(&h, 2, "rn_sleep", "30000", NULL);
	h.c.lim.wall_sec = 0.3;
	h.c.lim.cpu_sec = 5;
	hrun(&h);
	ck_assert_int_eq(h.c.res.timed_out_wall, 1);
	ck_assert_int_eq(h.c.res.status, RUN_SIGNALED);
	ck_assert_int_eq(h.c.res.term_signal, SIGKILL);
	ck_assert_int_eq(h.c.res.cpu_exceeded, 0);
	ck_assert_int_ge(h.c.res.wall_ms, 300);
	ck_assert_int_lt(h.c.res.wall_ms, 15000);
	run_child_release(&h.c);
}
END_TEST

START_TEST(test_ignore_sigterm)
{
	struct hrun h;

	hrun_init(&h, 3, "rn_sleep", "30000", "ignterm", NULL);
	h.c.lim.wall_sec = 0.3;
	hrun(&h);
	ck_assert_str_eq(h.c.res.out, "survived\n");
	ck_assert_int_eq(h.c.res.timed_out_wall, 1);
	ck_assert_int_eq(h.c.res.status, RUN_SIGNALED);
	ck_assert_int_eq(h.c.res.term_signal, SIGKILL);
	run_child_release(&h.c);
}
END_TEST

START_TEST(test_cpu_spin)
{
	struct hrun h;

	hrun_init(&h, 4, "rn_spin", "10", NULL);
	h.c.lim.cpu_sec = 1;
	h.c.lim.wall_sec = 20;
	hrun(&h);
	ck_assert_int_eq(h.c.res.status, RUN_SIGNALED);
	ck_assert_int_eq(h.c.res.term_signal, SIGXCPU);
	ck_assert_int_eq(h.c.res.cpu_exceeded, 1);
	ck_assert_int_eq(h.c.res.timed_out_wall, 0);
	ck_assert_int_ge(h.c.res.cpu_ms, 500);   /* rusage may read low */
	run_child_release(&h.c);
}
END_TEST

/* A death by SIGXCPU is the CPU limit's, however little CPU rusage
 * shows (the kernel sends it at the soft limit; rusage is tick-sampled):
 * TLE, its CPU shown as the limit. Raised at once here, so only the
 * signal can say so (test_cpu_spin's rusage usually says it too). */
START_TEST(test_xcpu_is_the_limit)
{
	struct hrun h;

	hrun_init(&h, 26, "rn_signal", "xcpu", NULL);
	h.c.lim.cpu_sec = 2;
	hrun(&h);
	ck_assert_int_eq(h.c.res.status, RUN_SIGNALED);
	ck_assert_int_eq(h.c.res.term_signal, SIGXCPU);
	ck_assert_int_eq(h.c.res.cpu_exceeded, 1);
	ck_assert_int_eq(h.c.res.cpu_ms, 2000);
	run_child_release(&h.c);
}
END_TEST

/* SIGXCPU ignored: the hard limit, one second above, kills. */
START_TEST(test_cpu_spin_ignoring_xcpu)
{
	struct hrun h;

	hrun_init(&h, 5, "rn_spin", "10", "ignxcpu", NULL);
	h.c.lim.cpu_sec = 0.5;
	h.c.lim.wall_sec = 20;
	hrun(&h);
	ck_assert_int_eq(h.c.res.status, RUN_SIGNALED);
	ck_assert_int_eq(h.c.res.term_signal, SIGKILL);
	ck_assert_int_eq(h.c.res.cpu_exceeded, 1);
	ck_assert_int_eq(h.c.res.timed_out_wall, 0);
	ck_assert_int_ge(h.c.res.cpu_ms, 1000);
	run_child_release(&h.c);
}
END_TEST

/* runner.c's 3/4 rule: a SIGKILL the harness did not send, after at
 * least 3/4 of the soft CPU limit, is the kernel's at the hard limit
 * (rusage, tick-sampled, may read a quarter low on a loaded machine): TLE,
 * its CPU shown as the limit. rn_cpukill (which ignores SIGXCPU) kills
 * itself after 1.75 s of CPU under a 2 s limit (the rule's range: 1.5-2
 * s); after 0.3 s under 1 s (below 3/4) the same death is the program's
 * own, an RTE. */
static const struct {
	const char *burn;
	double limit;
	int exceeded;
} cpukill_cases[] = {
	{ "1.75", 2, 1 },
	{ "0.3", 1, 0 },
};

START_TEST(test_cpu_kill_near_hard_limit)
{
	struct hrun h;

	hrun_init(&h, 6, "rn_cpukill", cpukill_cases[_i].burn, NULL);
	h.c.lim.cpu_sec = cpukill_cases[_i].limit;
	h.c.lim.wall_sec = 20;
	hrun(&h);
	ck_assert_int_eq(h.c.res.status, RUN_SIGNALED);
	ck_assert_int_eq(h.c.res.term_signal, SIGKILL);
	ck_assert_int_eq(h.c.res.timed_out_wall, 0);
	ck_assert_msg(h.c.res.cpu_exceeded == cpukill_cases[_i].exceeded,
		      "%s s of CPU: cpu_exceeded %d (cpu_ms %ld)",
		      cpukill_cases[_i].burn, h.c.res.cpu_exceeded, h.c.res.cpu_ms);
	if (cpukill_cases[_i].exceeded)
		ck_assert_int_ge(h.c.res.cpu_ms, 2000);
	run_child_release(&h.c);
}
END_TEST

/* A stopped child does not exit and does not burn CPU: the wall deadline
 * must still end it. */
START_TEST(test_stopped_child)
{
	struct hrun h;

	hrun_init(&h, 22, "rn_signal", "stop", NULL);
	h.c.lim.wall_sec = 0.3;
	h.c.lim.cpu_sec = 1;
	hrun(&h);
	ck_assert_int_eq(h.c.res.timed_out_wall, 1);
	ck_assert_int_eq(h.c.res.status, RUN_SIGNALED);
	ck_assert_int_eq(h.c.res.term_signal, SIGKILL);
	ck_assert_int_eq(h.c.res.cpu_exceeded, 0);
	run_child_release(&h.c);
}
END_TEST

/* ---- processes and memory ---- */

START_TEST(test_fork_bomb)
{
	struct hrun h;
	size_t p, e;

	if (is_root()) {
		hrun_init(&h, 6, "rn_forkbomb", "10", NULL);
		h.c.lim.nproc = 32;
	} else {
		hrun_init(&h, 6, "rn_forkbomb", "6", NULL);
	}
	hrun(&h);
	p = count_char(h.c.res.out, h.c.res.out_len, 'P');
	e = count_char(h.c.res.out, h.c.res.out_len, 'E');
	ck_assert_int_eq(h.c.res.status, RUN_EXITED);
	ck_assert_int_eq(h.c.res.exit_code, 0);
	if (is_root()) {
		ck_assert_uint_le(p, 32);
		ck_assert_uint_gt(e, 0);
	} else {
		ck_assert_uint_eq(p, 127);
		ck_assert_uint_eq(e, 0);
	}
	run_child_release(&h.c);
}
END_TEST

START_TEST(test_memory_hog)
{
	struct hrun h;
	int got = -1;

	hrun_init(&h, 7, "rn_memhog", "1024", NULL);
	h.c.lim.mem_bytes = 128 * MIB;
	hrun(&h);
	ck_assert_int_eq(h.c.res.status, RUN_EXITED);
	ck_assert_int_eq(h.c.res.exit_code, 3);
	ck_assert_int_eq(sscanf(h.c.res.out, "got %d MiB", &got), 1);
	ck_assert_int_ge(got, 16);
	ck_assert_int_lt(got, 128);
	ck_assert_int_le(h.c.res.max_rss_kb, 128 * 1024);
	ck_assert_int_ge(h.c.res.max_rss_kb, 16 * 1024);
	run_child_release(&h.c);
}
END_TEST

START_TEST(test_release_unfinished)
{
	struct hrun h;
	pid_t pid;

	hrun_init(&h, 8, "rn_sleep", "30000", NULL);
	ck_assert_int_eq(run_start(&h.c), 0);
	pid = h.c.pid;
	run_child_release(&h.c);
	ck_assert_int_eq(alive_after(pid, is_root() ? h.c.uid : (uid_t)-1), 0);
	ck_assert_int_eq(kill(pid, 0), -1);
	ck_assert_int_eq(errno, ESRCH);
}
END_TEST

/* ---- output ---- */

START_TEST(test_small_io)
{
	struct hrun h;

	hrun_init(&h, 9, "rn_echo", NULL);
	h.c.input = "hello\n";
	h.c.input_len = 6;
	hrun(&h);
	ck_assert_int_eq(h.c.res.status, RUN_EXITED);
	ck_assert_int_eq(h.c.res.exit_code, 0);
	ck_assert_str_eq(h.c.res.out, "hello\n");
	ck_assert_uint_eq(h.c.res.out_len, 6);
	ck_assert_uint_eq(h.c.res.stdout_bytes, 6);
	ck_assert_str_eq(h.c.res.err, "");
	ck_assert_uint_eq(h.c.res.stderr_bytes, 0);
	run_child_release(&h.c);
}
END_TEST

/* The output cap's edge: exactly the cap is allowed, one byte more is
 * OLE, even from a program that then exits cleanly. */
static const struct {
	const char *bytes;
	int exceeded;
} cap_edges[] = {
	{ "1048576", 0 },
	{ "1048577", 1 },
};

START_TEST(test_output_cap_edge)
{
	struct hrun h;

	hrun_init(&h, 10, "rn_flood", "out", cap_edges[_i].bytes, NULL);
	h.c.lim.output_bytes = MIB;
	hrun(&h);
	ck_assert_msg(h.c.res.output_exceeded == cap_edges[_i].exceeded,
		      "%s bytes under a 1 MiB cap: output_exceeded %d",
		      cap_edges[_i].bytes, h.c.res.output_exceeded);
	ck_assert_uint_eq(h.c.res.stdout_bytes, (size_t)atol(cap_edges[_i].bytes));
	ck_assert_uint_eq(h.c.res.out_len, MIB);
	run_child_release(&h.c);
}
END_TEST

START_TEST(test_stdout_flood)
{
	struct hrun h;

	hrun_init(&h, 10, "rn_flood", "out", "67108864", NULL);
	h.c.lim.output_bytes = MIB;
	hrun(&h);
	ck_assert_int_eq(h.c.res.output_exceeded, 1);
	ck_assert_int_eq(h.c.res.status, RUN_SIGNALED);
	ck_assert_int_eq(h.c.res.term_signal, SIGKILL);
	ck_assert_int_eq(h.c.res.timed_out_wall, 0);
	ck_assert_uint_eq(h.c.res.out_len, MIB);
	ck_assert_uint_gt(h.c.res.stdout_bytes, MIB);
	ck_assert_uint_lt(h.c.res.stdout_bytes, 64 * MIB);
	ck_assert_int_eq(memcmp(h.c.res.out, "0123456789abcdef", 16), 0);
	run_child_release(&h.c);
}
END_TEST

START_TEST(test_stderr_flood_tail)
{
	struct hrun h;

	hrun_init(&h, 11, "rn_flood", "err", "8388608", NULL);
	hrun(&h);
	ck_assert_int_eq(h.c.res.status, RUN_EXITED);
	ck_assert_int_eq(h.c.res.exit_code, 0);
	ck_assert_int_eq(h.c.res.stderr_exceeded, 0);
	ck_assert_uint_eq(h.c.res.stderr_bytes, 8 * MIB);
	ck_assert_uint_eq(h.c.res.err_len, RUN_DEFAULT_STDERR_BYTES);
	ck_assert_uint_eq(strlen(h.c.res.err), h.c.res.err_len);
	ck_assert_str_eq(h.c.res.err + h.c.res.err_len - 8, "89abEND\n");
	ck_assert_uint_eq(h.c.res.out_len, 0);
	run_child_release(&h.c);
}
END_TEST

/* A small tail: every read of the flood is longer than the cap, and what
 * is kept is still the last bytes, not a read's first. */
START_TEST(test_stderr_small_tail)
{
	struct hrun h;

	hrun_init(&h, 11, "rn_flood", "err", "1048576", NULL);
	h.c.lim.stderr_bytes = 100;
	hrun(&h);
	ck_assert_int_eq(h.c.res.status, RUN_EXITED);
	ck_assert_uint_eq(h.c.res.stderr_bytes, MIB);
	ck_assert_uint_eq(h.c.res.err_len, 100);
	ck_assert_str_eq(h.c.res.err + h.c.res.err_len - 8, "89abEND\n");
	run_child_release(&h.c);
}
END_TEST

/* stdout and stderr together: 600 KiB on each passes the 1 MiB cap that
 * neither stream reaches alone, and the run is killed there, long before
 * its final sleep would end. */
START_TEST(test_total_flood_kill)
{
	struct hrun h;
	char script[2 * PATH_MAX + 64], abs[PATH_MAX];

	hrun_init(&h, 13, "rn_flood", NULL);
	ck_assert_ptr_nonnull(realpath(h.path, abs));   /* the run is in /tmp */
	snprintf(script, sizeof(script), "%s out 614400; %s err 614400; sleep 10",
		 abs, abs);
	h.argv[0] = "/bin/sh";
	h.argv[1] = "-c";
	h.argv[2] = script;
	h.argv[3] = NULL;
	h.c.lim.total_kill_bytes = MIB;
	h.c.lim.stderr_bytes = MIB;
	hrun(&h);
	ck_assert_msg(h.c.res.total_exceeded == 1, "out %lu err %lu wall %ld: %s",
		      (unsigned long)h.c.res.stdout_bytes,
		      (unsigned long)h.c.res.stderr_bytes, h.c.res.wall_ms,
		      h.c.res.err);
	ck_assert_int_eq(h.c.res.output_exceeded, 0);
	ck_assert_int_eq(h.c.res.stderr_exceeded, 0);
	ck_assert_uint_gt(h.c.res.stdout_bytes + h.c.res.stderr_bytes, MIB);
	ck_assert_uint_le(h.c.res.stdout_bytes, 614400);
	ck_assert_int_eq(h.c.res.status, RUN_SIGNALED);
	ck_assert_int_eq(h.c.res.term_signal, SIGKILL);
	ck_assert_int_lt(h.c.res.wall_ms, 5000);
	run_child_release(&h.c);
}
END_TEST

START_TEST(test_stderr_flood_kill)
{
	struct hrun h;

	hrun_init(&h, 12, "rn_flood", "err", "67108864", NULL);
	h.c.lim.stderr_kill_bytes = MIB;
	h.c.lim.stderr_bytes = 1000;
	hrun(&h);
	ck_assert_int_eq(h.c.res.stderr_exceeded, 1);
	ck_assert_int_eq(h.c.res.output_exceeded, 0);
	ck_assert_int_eq(h.c.res.status, RUN_SIGNALED);
	ck_assert_int_eq(h.c.res.term_signal, SIGKILL);
	ck_assert_uint_eq(h.c.res.err_len, 1000);
	ck_assert_uint_gt(h.c.res.stderr_bytes, MIB);
	ck_assert_uint_lt(h.c.res.stderr_bytes, 64 * MIB);
	run_child_release(&h.c);
}
END_TEST

/* ---- stdin ---- */

START_TEST(test_stdin_never_read)
{
	struct hrun h;
	char *in = pattern(16 * MIB);

	hrun_init(&h, 13, "rn_noread", "50", NULL);
	h.c.input = in;
	h.c.input_len = 16 * MIB;
	hrun(&h);
	ck_assert_int_eq(h.c.res.status, RUN_EXITED);
	ck_assert_int_eq(h.c.res.exit_code, 0);
	ck_assert_str_eq(h.c.res.out, "bye\n");
	ck_assert_int_eq(h.c.res.timed_out_wall, 0);
	run_child_release(&h.c);
	free(in);
}
END_TEST

START_TEST(test_large_echo)
{
	struct hrun h;
	char *in = pattern(16 * MIB);

	hrun_init(&h, 14, "rn_echo", NULL);
	h.c.input = in;
	h.c.input_len = 16 * MIB;
	h.c.lim.output_bytes = 32 * MIB;
	hrun(&h);
	ck_assert_int_eq(h.c.res.status, RUN_EXITED);
	ck_assert_int_eq(h.c.res.exit_code, 0);
	ck_assert_uint_eq(h.c.res.out_len, 16 * MIB);
	ck_assert_uint_eq(h.c.res.stdout_bytes, 16 * MIB);
	ck_assert_int_eq(memcmp(h.c.res.out, in, 16 * MIB), 0);
	run_child_release(&h.c);
	free(in);
}
END_TEST

START_TEST(test_closes_stdout_early)
{
	struct hrun h;
	char *in = pattern(16 * MIB);

	hrun_init(&h, 15, "rn_closer", NULL);
	h.c.input = in;
	h.c.input_len = 16 * MIB;
	hrun(&h);
	ck_assert_int_eq(h.c.res.status, RUN_EXITED);
	ck_assert_int_eq(h.c.res.exit_code, 5);
	ck_assert_str_eq(h.c.res.err, "closed\n");
	ck_assert_uint_eq(h.c.res.out_len, 0);
	ck_assert_int_eq(h.c.res.timed_out_wall, 0);
	run_child_release(&h.c);
	free(in);
}
END_TEST

/* ---- stdin from a file (input_path) ---- */

/* n bytes of pattern() in a new file of the run folder, whose path goes
 * to path. */
static char *pattern_file(size_t n, char path[PATH_MAX])
{
	char *in = pattern(n);
	int fd;

	fd = mkstemp(check_scratch(path, PATH_MAX, "input-XXXXXX"));
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, in, n), (ssize_t)n);
	close(fd);
	return in;
}

/* Fed as it is read: every byte arrives, past many CHUNKs and with a last
 * chunk that is not a whole one. */
START_TEST(test_input_file_echo)
{
	struct hrun h;
	char path[PATH_MAX];
	size_t n = 4 * MIB + 12345;
	char *in = pattern_file(n, path);

	hrun_init(&h, 16, "rn_echo", NULL);
	h.c.input_path = path;
	h.c.lim.output_bytes = 8 * MIB;
	hrun(&h);
	ck_assert_int_eq(h.c.res.exit_code, 0);
	ck_assert_uint_eq(h.c.res.out_len, n);
	ck_assert_int_eq(memcmp(h.c.res.out, in, n), 0);
	ck_assert_int_eq(h.c.fd_input, -1);
	/* As root under a slot uid the file (ours, 0600) is the program's
	 * stdin itself: nothing went through our pipe. Else all of it did. */
	ck_assert_uint_eq(h.c.in_off, is_root() ? 0 : n);
	run_child_release(&h.c);
	unlink(path);
	free(in);
}
END_TEST

/* A file the program's uid could write through its descriptor (a reopen
 * of /proc/self/fd/0) is never handed over: it is fed through the pipe.
 * Group write counts whatever the group: with a POSIX ACL the group bits
 * are its mask, and an entry naming the slot uid wrote through fd 0. */
static const mode_t writable_modes[] = { 0666, 0664, 0620 };

START_TEST(test_input_file_writable_piped)
{
	struct hrun h;
	char path[64];
	size_t n = 3 * 65536 + 7;       /* past a few of the pump's chunks */
	char *in = pattern_file(n, path);

	ck_assert_int_eq(chmod(path, writable_modes[_i]), 0);
	hrun_init(&h, 16, "rn_echo", NULL);
	h.c.input_path = path;
	hrun(&h);
	ck_assert_uint_eq(h.c.res.out_len, n);
	ck_assert_int_eq(memcmp(h.c.res.out, in, n), 0);
	ck_assert_uint_eq(h.c.in_off, n);
	run_child_release(&h.c);
	unlink(path);
	free(in);
}
END_TEST

/* A program that never reads: the feeding stops, nothing waits on it. */
START_TEST(test_input_file_never_read)
{
	struct hrun h;
	char path[PATH_MAX];
	char *in = pattern_file(16 * MIB, path);

	hrun_init(&h, 17, "rn_noread", "50", NULL);
	h.c.input_path = path;
	hrun(&h);
	ck_assert_int_eq(h.c.res.exit_code, 0);
	ck_assert_str_eq(h.c.res.out, "bye\n");
	ck_assert_int_eq(h.c.res.timed_out_wall, 0);
	run_child_release(&h.c);
	unlink(path);
	free(in);
}
END_TEST

/* A file the kernel will not splice (/proc/PID/cmdline: EINVAL; its size
 * reads 0, so it is never handed over as it is) is copied
 * through the buffer instead: the program reads our own command line. */
START_TEST(test_input_file_copied)
{
	struct hrun h;
	char path[64];
	struct strbuf want = STRBUF_INIT;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)getpid());
	ck_assert_int_eq(strbuf_read_file(&want, path, MIB), 0);
	ck_assert_uint_gt(want.len, 0);
	hrun_init(&h, 20, "rn_echo", NULL);
	h.c.input_path = path;
	hrun(&h);
	ck_assert_int_eq(h.c.in_copy, 1);
	ck_assert_uint_eq(h.c.res.out_len, want.len);
	ck_assert_int_eq(memcmp(h.c.res.out, want.buf, want.len), 0);
	run_child_release(&h.c);
	strbuf_release(&want);
}
END_TEST

/* An input the harness cannot open is its own failure: -1, no process. */
START_TEST(test_input_file_missing)
{
	struct hrun h;

	hrun_init(&h, 16, "rn_echo", NULL);
	h.c.input_path = "/nonexistent-wg-input";
	ck_assert_int_eq(run_command(&h.c), -1);
	ck_assert_ptr_nonnull(strstr(h.c.res.error,
		"cannot open the input '/nonexistent-wg-input': No such file"));
	ck_assert_int_eq(h.c.started, 0);
	run_child_release(&h.c);
}
END_TEST

/* ---- descendants ---- */

static void grandchild(int slot, const char *how, int must_die, int own_uid)
{
	struct hrun h;
	int gpid = 0;

	hrun_init(&h, slot, "rn_grandchild", how, NULL);
	h.c.lim.wall_sec = 20;
	if (own_uid) {
		hrun(&h);
	} else {
		/* No dedicated uid, even as root: only the group's kill
		 * can reach the grandchild. */
		h.c.uid = (uid_t)-1;
		ck_assert_msg(run_command(&h.c) == 0, "%s", h.c.res.error);
		ck_assert_int_eq(h.c.res.uid_switched, 0);
	}
	ck_assert_int_eq(h.c.res.status, RUN_EXITED);
	ck_assert_int_eq(h.c.res.exit_code, 0);
	ck_assert_int_eq(h.c.res.timed_out_wall, 0);
	ck_assert_int_lt(h.c.res.wall_ms, 10000);   /* not the 30 s sleep */
	ck_assert_int_eq(sscanf(h.c.res.out, "%d", &gpid), 1);
	ck_assert_int_gt(gpid, 1);
	if (must_die) {
		ck_assert_int_eq(pid_alive(gpid), 0);
	} else {
		/* Not root: the escapee survives the cleanup (runner.h), in
		 * a session of its own, still holding the pipes; the run
		 * ended anyway (above: the drain's bound, RUN_DRAIN_MS, not
		 * the 30 s sleep), and said nothing about it. */
		ck_assert_msg(pid_alive(gpid) == 1, "gpid %d gone", gpid);
		ck_assert_int_eq(getsid(gpid), gpid);
		ck_assert_int_eq(h.c.res.timed_out_wall, 0);
		kill(gpid, SIGKILL);
	}
	run_child_release(&h.c);
}

START_TEST(test_grandchild_in_group)
{
	grandchild(16, "stay", 1, 1);
}
END_TEST

START_TEST(test_grandchild_in_group_same_uid)
{
	grandchild(16, "stay", 1, 0);
}
END_TEST

/* Only a dedicated uid (root) can find a grandchild that left the group. */
START_TEST(test_grandchild_detached)
{
	grandchild(17, "setsid", is_root(), 1);
}
END_TEST

/* ---- the sandbox ---- */

static const char *probe_line(const char *out, const char *key, char *buf,
			      size_t sz)
{
	size_t kl = strlen(key);
	const char *p = out;

	while (p && *p) {
		if (!strncmp(p, key, kl) && p[kl] == ':' && p[kl + 1] == ' ') {
			const char *nl = strchr(p, '\n');
			size_t n = nl ? (size_t)(nl - p - kl - 2) : strlen(p + kl + 2);

			snprintf(buf, sz, "%.*s", (int)n, p + kl + 2);
			return buf;
		}
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return "(missing)";
}

static void noop_handler(int sig)
{
	(void)sig;
}

START_TEST(test_sandbox_probe)
{
	struct hrun h;
	char dir[PATH_MAX], buf[4096], want[4200 + PATH_MAX];
	sigset_t block;
	int fd;

	ck_assert_ptr_nonnull(mkdtemp(check_scratch(dir, sizeof(dir), "runner-probe-XXXXXX")));
	hrun_init(&h, 18, "rn_probe", NULL);
	if (is_root())
		ck_assert_int_eq(chown(dir, h.c.uid, h.c.uid), 0);
	h.c.dir = dir;
	h.c.lim.cpu_sec = 1.5;
	h.c.lim.mem_bytes = 256 * MIB;
	/* Leaks to plug: fds without close-on-exec, a blocked signal, ignored
	 * ones, a handler. */
	fd = open("/dev/null", O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(dup2(fd, 7), 7);
	ck_assert_int_eq(dup2(fd, 900), 900);
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, NULL);
	signal(SIGUSR2, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	signal(SIGHUP, noop_handler);
	hrun(&h);
	close(900);
	close(7);
	close(fd);
	pthread_sigmask(SIG_UNBLOCK, &block, NULL);
	signal(SIGUSR2, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGHUP, SIG_DFL);

	ck_assert_int_eq(h.c.res.exit_code, 0);
	ck_assert_str_eq(probe_line(h.c.res.out, "fds", buf, sizeof(buf)), "none");
	ck_assert_str_eq(probe_line(h.c.res.out, "blocked", buf, sizeof(buf)), "none");
	ck_assert_str_eq(probe_line(h.c.res.out, "ignored", buf, sizeof(buf)), "none");
	ck_assert_str_eq(probe_line(h.c.res.out, "pgid", buf, sizeof(buf)), "yes");
	ck_assert_str_eq(probe_line(h.c.res.out, "sid", buf, sizeof(buf)), "yes");
	snprintf(want, sizeof(want), "PATH=/usr/bin:/bin;LANG=C;HOME=%s", dir);
	ck_assert_str_eq(probe_line(h.c.res.out, "env", buf, sizeof(buf)), want);
	ck_assert_str_eq(probe_line(h.c.res.out, "cwd", buf, sizeof(buf)), dir);
	ck_assert_str_eq(probe_line(h.c.res.out, "core", buf, sizeof(buf)), "0");
	ck_assert_str_eq(probe_line(h.c.res.out, "nofile", buf, sizeof(buf)), "64");
	snprintf(want, sizeof(want), "%zu", 256 * MIB);
	ck_assert_str_eq(probe_line(h.c.res.out, "as", buf, sizeof(buf)), want);
	ck_assert_str_eq(probe_line(h.c.res.out, "cpu", buf, sizeof(buf)), "2/3");
	if (is_root()) {
		snprintf(want, sizeof(want), "%u", (unsigned)h.c.uid);
		ck_assert_str_eq(probe_line(h.c.res.out, "uid", buf, sizeof(buf)), want);
		ck_assert_str_eq(probe_line(h.c.res.out, "gid", buf, sizeof(buf)), want);
		ck_assert_str_eq(probe_line(h.c.res.out, "groups", buf, sizeof(buf)), "0");
	}
	run_child_release(&h.c);
	rmdir(dir);
}
END_TEST

/* A relative program path still works when the child changes directory:
 * it is taken relative to the grader's cwd (here /, which every test uid
 * can cross, unlike a checkout under a 0700 folder). */
START_TEST(test_relative_path_with_dir)
{
	struct hrun h;
	char cwd[PATH_MAX], rel[3 * PATH_MAX];

	hrun_init(&h, 19, "rn_exit", "7", NULL);
	ck_assert_ptr_nonnull(getcwd(cwd, sizeof(cwd)));
	if (h.path[0] == '/')
		snprintf(rel, sizeof(rel), "%s", h.path + 1);
	else
		snprintf(rel, sizeof(rel), "%s/%s", cwd + 1, h.path);
	ck_assert_uint_lt(strlen(rel), sizeof(h.path));
	memcpy(h.path, rel, strlen(rel) + 1);
	ck_assert_int_eq(chdir("/"), 0);
	hrun(&h);
	ck_assert_int_eq(chdir(cwd), 0);
	ck_assert_int_eq(h.c.res.exec_errno, 0);
	ck_assert_int_eq(h.c.res.exit_code, 7);
	run_child_release(&h.c);
}
END_TEST

/* ---- failures: the program's (results) and the harness's (-1) ---- */

static void write_file(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	ck_assert_int_eq(chmod(path, mode), 0);
}

static const struct {
	const char *file;
	mode_t mode;
	int err;
} exec_cases[] = {
	{ "garbage", 0755, ENOEXEC },
	{ "noexec", 0644, EACCES },
	{ "missing", 0, ENOENT },
};

START_TEST(test_exec_failure)
{
	char dir[PATH_MAX], path[PATH_MAX + 16], msg[128];
	const char *argv[2] = { path, NULL };
	struct run_child c = RUN_CHILD_INIT;

	ck_assert_ptr_nonnull(mkdtemp(check_scratch(dir, sizeof(dir), "runner-exec-XXXXXX")));
	ck_assert_int_eq(chmod(dir, 0755), 0);
	snprintf(path, sizeof(path), "%s/%s", dir, exec_cases[_i].file);
	if (exec_cases[_i].mode)
		write_file(path, "this is not a program\n", exec_cases[_i].mode);
	c.argv = argv;
	c.dir = "/tmp";
	c.lim.wall_sec = 10;
	if (is_root())
		c.uid = test_uid(20);
	ck_assert_msg(run_command(&c) == 0, "harness failed: %s", c.res.error);
	ck_assert_int_eq(c.res.exec_errno, exec_cases[_i].err);
	ck_assert_str_eq(c.res.exec_stage, "exec");
	ck_assert_int_eq(c.res.status, RUN_EXITED);
	ck_assert_int_eq(c.res.exit_code, 127);
	snprintf(msg, sizeof(msg), "cannot run: %s", strerror(c.res.exec_errno));
	if (exec_cases[_i].err == ENOEXEC)
		ck_assert_str_eq(msg, "cannot run: Exec format error");
	ck_assert_int_eq(alive_after(c.res.pid, (uid_t)-1), 0);
	run_child_release(&c);
	unlink(path);
	rmdir(dir);
}
END_TEST

/* A sandbox step failing is the harness's fault: -1, no process left. */
START_TEST(test_setup_failure)
{
	struct hrun h;

	hrun_init(&h, 21, "rn_exit", "0", NULL);
	h.c.dir = "/nonexistent/wg-runner";
	ck_assert_int_eq(run_start(&h.c), -1);
	ck_assert_str_eq(h.c.res.exec_stage, "chdir");
	ck_assert_int_eq(h.c.res.exec_errno, ENOENT);
	ck_assert_ptr_nonnull(strstr(h.c.res.error, "chdir"));
	ck_assert_ptr_nonnull(strstr(h.c.res.error, "No such file or directory"));
	ck_assert_int_eq(alive_after(h.c.res.pid, (uid_t)-1), 0);
	ck_assert_int_eq(kill(h.c.res.pid, 0), -1);
	run_child_release(&h.c);
}
END_TEST

START_TEST(test_no_program)
{
	struct run_child c = RUN_CHILD_INIT;

	ck_assert_int_eq(run_command(&c), -1);
	ck_assert_str_eq(c.res.error, "no program to run");
	run_child_release(&c);
}
END_TEST

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/* Every path (result, wall kill, cap kill, exec failure, setup failure)
 * closes every descriptor it opened. */
START_TEST(test_no_fd_leak)
{
	int before = count_fds(), i;

	for (i = 0; i < 2; i++) {
		struct hrun h;

		hrun_init(&h, 23, "rn_exit", "3", NULL);
		hrun(&h);
		run_child_release(&h.c);
		hrun_init(&h, 23, "rn_sleep", "30000", NULL);
		h.c.lim.wall_sec = 0.05;
		hrun(&h);
		run_child_release(&h.c);
		hrun_init(&h, 23, "rn_flood", "out", "4194304", NULL);
		h.c.lim.output_bytes = 1000;
		hrun(&h);
		run_child_release(&h.c);
		hrun_init(&h, 23, "rn_missing_program", NULL);
		hrun(&h);
		ck_assert_int_eq(h.c.res.exec_errno, ENOENT);
		run_child_release(&h.c);
		hrun_init(&h, 23, "rn_exit", NULL);
		h.c.dir = "/nonexistent/wg-runner";
		ck_assert_int_eq(run_command(&h.c), -1);
		run_child_release(&h.c);
	}
	ck_assert_int_eq(count_fds(), before);
}
END_TEST

static volatile sig_atomic_t ticks;

static void tick(int sig)
{
	(void)sig;
	ticks++;
}

/* A grader with a busy signal handler installed without SA_RESTART: every
 * blocking call of the runner gets EINTR again and again. */
START_TEST(test_eintr_storm)
{
	struct itimerval it = { { 0, 500 }, { 0, 500 } }, off;
	struct sigaction sa;
	struct hrun h;
	char *in = pattern(4 * MIB);

	memset(&sa, 0, sizeof(sa));
	memset(&off, 0, sizeof(off));
	sa.sa_handler = tick;
	sigemptyset(&sa.sa_mask);
	ck_assert_int_eq(sigaction(SIGALRM, &sa, NULL), 0);
	ck_assert_int_eq(setitimer(ITIMER_REAL, &it, NULL), 0);
	hrun_init(&h, 24, "rn_echo", NULL);
	h.c.input = in;
	h.c.input_len = 4 * MIB;
	hrun(&h);
	ck_assert_uint_eq(h.c.res.out_len, 4 * MIB);
	ck_assert_int_eq(memcmp(h.c.res.out, in, 4 * MIB), 0);
	run_child_release(&h.c);
	hrun_init(&h, 24, "rn_sleep", "200", NULL);
	hrun(&h);
	ck_assert_int_eq(h.c.res.status, RUN_EXITED);
	ck_assert_int_eq(h.c.res.exit_code, 0);
	ck_assert_int_ge(h.c.res.wall_ms, 200);
	run_child_release(&h.c);
	setitimer(ITIMER_REAL, &off, NULL);
	ck_assert_int_gt(ticks, 10);
	free(in);
}
END_TEST

/* Input and output are bytes, NULs included. */
START_TEST(test_binary_io)
{
	static const char in[] = "a\0b\0\0c\n\377";
	struct hrun h;

	hrun_init(&h, 25, "rn_echo", NULL);
	h.c.input = in;
	h.c.input_len = sizeof(in) - 1;
	hrun(&h);
	ck_assert_uint_eq(h.c.res.out_len, sizeof(in) - 1);
	ck_assert_int_eq(memcmp(h.c.res.out, in, sizeof(in) - 1), 0);
	ck_assert_int_eq(h.c.res.out[h.c.res.out_len], '\0');
	run_child_release(&h.c);
}
END_TEST

/* ---- threads: each its own struct run_child, at once ---- */

struct worker {
	int slot;
	int ok;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	char in[64];
	int i;

	w->ok = 1;
	for (i = 0; i < 5; i++) {
		struct hrun h;
		int n = snprintf(in, sizeof(in), "worker %d run %d\n", w->slot, i);

		hrun_init(&h, w->slot, "rn_echo", NULL);
		h.c.input = in;
		h.c.input_len = (size_t)n;
		if (run_command(&h.c) != 0 || h.c.res.exit_code != 0 ||
		    strcmp(h.c.res.out, in) != 0)
			w->ok = 0;
		run_child_release(&h.c);
	}
	return NULL;
}

START_TEST(test_parallel_threads)
{
	pthread_t t[4];
	struct worker w[4];
	int i;

	for (i = 0; i < 4; i++) {
		w[i].slot = 30 + i;
		ck_assert_int_eq(pthread_create(&t[i], NULL, worker_main, &w[i]), 0);
	}
	for (i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		ck_assert_int_eq(w[i].ok, 1);
	}
}
END_TEST

static TCase *tc(Suite *s, const char *name, double timeout)
{
	TCase *t = tcase_create(name);

	tcase_set_timeout(t, timeout);
	suite_add_tcase(s, t);
	return t;
}

Suite *make_runner_suite(void)
{
	Suite *s = suite_create("runner");
	TCase *t;

	t = tc(s, "status", 20);
	tcase_add_loop_test(t, test_exit_code, 0,
			    (int)(sizeof(exit_codes) / sizeof(exit_codes[0])));
	tcase_add_loop_test(t, test_signal, 0,
			    (int)(sizeof(sig_cases) / sizeof(sig_cases[0])));
	tcase_add_test(t, test_signal_names);
	tcase_add_test(t, test_slot_uid);

	t = tc(s, "limits", 30);
	tcase_add_test(t, test_wall_sleep);
	tcase_add_test(t, test_stopped_child);
	tcase_add_test(t, test_ignore_sigterm);
	tcase_add_test(t, test_cpu_spin);
	tcase_add_test(t, test_xcpu_is_the_limit);
	tcase_add_test(t, test_cpu_spin_ignoring_xcpu);
	tcase_add_loop_test(t, test_cpu_kill_near_hard_limit, 0,
			    (int)(sizeof(cpukill_cases) / sizeof(cpukill_cases[0])));
	tcase_add_test(t, test_fork_bomb);
	tcase_add_test(t, test_memory_hog);
	tcase_add_test(t, test_release_unfinished);

	t = tc(s, "pipes", 30);
	tcase_add_test(t, test_small_io);
	tcase_add_test(t, test_binary_io);
	tcase_add_test(t, test_stdout_flood);
	tcase_add_loop_test(t, test_output_cap_edge, 0,
			    (int)(sizeof(cap_edges) / sizeof(cap_edges[0])));
	tcase_add_test(t, test_stderr_flood_tail);
	tcase_add_test(t, test_stderr_small_tail);
	tcase_add_test(t, test_stderr_flood_kill);
	tcase_add_test(t, test_total_flood_kill);
	tcase_add_test(t, test_stdin_never_read);
	tcase_add_test(t, test_large_echo);
	tcase_add_test(t, test_closes_stdout_early);
	tcase_add_test(t, test_input_file_echo);
	tcase_add_loop_test(t, test_input_file_writable_piped, 0,
			    sizeof(writable_modes) / sizeof(writable_modes[0]));
	tcase_add_test(t, test_input_file_never_read);
	tcase_add_test(t, test_input_file_copied);
	tcase_add_test(t, test_input_file_missing);
	tcase_add_test(t, test_grandchild_in_group);
	tcase_add_test(t, test_grandchild_in_group_same_uid);
	tcase_add_test(t, test_grandchild_detached);

	t = tc(s, "sandbox", 20);
	tcase_add_test(t, test_sandbox_probe);
	tcase_add_test(t, test_relative_path_with_dir);
	tcase_add_loop_test(t, test_exec_failure, 0,
			    (int)(sizeof(exec_cases) / sizeof(exec_cases[0])));
	tcase_add_test(t, test_setup_failure);
	tcase_add_test(t, test_no_program);
	tcase_add_test(t, test_parallel_threads);
	tcase_add_test(t, test_no_fd_leak);
	tcase_add_test(t, test_eintr_storm);
	return s;
}
