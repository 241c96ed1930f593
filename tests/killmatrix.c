/*
 * killmatrix: which cases of a suite fail which wrong solutions.
 *
 *   killmatrix [-j N] [-k MIN] [-a] [-v] SUITE_DIR BIN...
 *   killmatrix -w REF [-j N] BIN...
 *
 * Theory of operation. A wrong solution is "killed" by a case when, run on
 * NAME.in under the suite's limits (suite.json, read by the grader's own
 * suite_load: CPU, address space, output, and a wall clock of 3 x CPU but
 * at least 4 s), it exits non-zero, dies of a signal, or prints something
 * the grader's default comparison (grader/judge/compare.c: trailing blanks
 * ignored) does not accept against NAME.out. That is what `grade` would
 * count as a lost case, without the sandbox's per-case overhead, so a
 * whole mutation set is judged in seconds. The cases run smallest input
 * first, so that the cheap kills come first and a solution that two small
 * cases kill never reads the suite's 24 MiB inputs.
 * Up to N programs run at once; each writes into its own memfd, read back
 * when it is reaped. The limits are set between fork and exec; the wall
 * clock is an ITIMER_REAL, which survives exec and kills with SIGALRM.
 *
 * Without -a, a solution stops being run once MIN cases (default 2) killed
 * it: the check `make test` needs. With -a every pair is run and the whole
 * matrix is summarised (fewest kills, cases that kill nothing).
 * Exit: 0 every solution killed by at least MIN cases, 1 not, 2 usage or
 * setup error.
 *
 * -w REF: witness mode. For each BIN, BIN.witness is its distinguishing
 * input; BIN and REF must disagree on it (same rule, the default limits
 * below but 64 MiB of output: a witness may be long). Exit 1 when some do
 * not.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "grader/judge/compare.h"
#include "grader/judge/suite.h"

#define WITNESS_OUTPUT_BYTES (64UL << 20)
#define MIN_WALL_SECONDS 4

/* What a program runs under (the suite's, or witness mode's). */
struct klimits {
	long cpu_seconds, wall_seconds;
	unsigned long memory_bytes, output_bytes;
};

static struct klimits lim = {
	(long)SUITE_DEFAULT_CPU_SECONDS, MIN_WALL_SECONDS,
	(unsigned long)SUITE_DEFAULT_MEMORY_MIB << 20, WITNESS_OUTPUT_BYTES,
};

struct kcase {
	char *name, *in;
	char *exp;      /* expected output (witness mode: REF's, filled later) */
	size_t elen;
	off_t size;     /* of the input: the order of the runs */
};

struct job {
	pid_t pid;
	int fd;         /* memfd with the program's stdout */
	size_t bin, kc;
};

static const char *prog = "killmatrix";

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static void *xmalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);
	if (!p)
		die("out of memory");
	return p;
}

static char *xstrdup(const char *s)
{
	char *p = strdup(s);
	if (!p)
		die("out of memory");
	return p;
}

/* Reads a whole descriptor from offset 0. The caller frees *buf. */
static int slurp_fd(int fd, char **buf, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *b = xmalloc(cap);
	ssize_t r;

	if (lseek(fd, 0, SEEK_SET) < 0) {
		free(b);
		return -1;
	}
	for (;;) {
		if (n == cap) {
			char *nb = realloc(b, cap *= 2);
			if (!nb)
				die("out of memory");
			b = nb;
		}
		r = read(fd, b + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(b);
			return -1;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	*buf = b;
	*len = n;
	return 0;
}

static void slurp_path(const char *path, char **buf, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || slurp_fd(fd, buf, len) < 0)
		die("cannot read '%s': %s", path, strerror(errno));
	close(fd);
}

/* Smallest input first, then by name: the cheap kills first. */
static int by_size(const void *a, const void *b)
{
	const struct kcase *x = a, *y = b;

	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Whole seconds for RLIMIT_CPU and the wall clock: a fraction rounds up. */
static long whole_seconds(double s)
{
	long w = (long)s;

	return w < s ? w + 1 : w;
}

/* The cases of DIR/suite.json with their expected outputs, in by_size
 * order; lim becomes the suite's limits. */
static struct kcase *load_suite(const char *dir, size_t *n)
{
	struct suite s;
	struct strbuf err = STRBUF_INIT;
	struct kcase *v;

	if (suite_load(&s, dir, &err) < 0)
		die("%s", strbuf_str(&err));
	lim.cpu_seconds = whole_seconds(s.cpu_seconds);
	lim.wall_seconds = whole_seconds(s.wall_seconds > 0 ? s.wall_seconds :
					 3 * s.cpu_seconds);
	if (lim.wall_seconds < MIN_WALL_SECONDS)
		lim.wall_seconds = MIN_WALL_SECONDS;
	lim.memory_bytes = (unsigned long)s.memory_mib << 20;
	lim.output_bytes = (unsigned long)s.output_kib << 10;
	v = xmalloc(s.ncases * sizeof(*v));
	for (size_t i = 0; i < s.ncases; i++) {
		struct stat st;

		v[i].name = xstrdup(s.cases[i].name);
		v[i].in = xstrdup(s.cases[i].in_path);
		if (stat(v[i].in, &st) < 0)
			die("cannot read '%s': %s", v[i].in, strerror(errno));
		v[i].size = st.st_size;
		slurp_path(s.cases[i].out_path, &v[i].exp, &v[i].elen);
	}
	*n = s.ncases;
	suite_free(&s);
	qsort(v, *n, sizeof(*v), by_size);
	return v;
}

/*
 * Between fork and exec: only async-signal-safe calls, then _exit. The
 * reference (trusted) runs without the address-space limit, so that a
 * sanitizer build of it (`make sanitize`) can start.
 */
static void child(const char *bin, const char *in, int out, int trusted)
{
	struct rlimit cpu = { (rlim_t)lim.cpu_seconds, (rlim_t)lim.cpu_seconds + 1 };
	struct rlimit as = { lim.memory_bytes, lim.memory_bytes };
	struct rlimit fsz = { lim.output_bytes, lim.output_bytes };
	struct itimerval wall = { { 0, 0 }, { lim.wall_seconds, 0 } };
	int fd = open(in, O_RDONLY), null = open("/dev/null", O_WRONLY);
	char *argv[] = { (char *)bin, NULL };

	if (fd < 0 || null < 0 || dup2(fd, 0) < 0 || dup2(out, 1) < 0 ||
	    dup2(null, 2) < 0)
		_exit(126);
	setrlimit(RLIMIT_CPU, &cpu);
	if (!trusted)
		setrlimit(RLIMIT_AS, &as);
	setrlimit(RLIMIT_FSIZE, &fsz);
	setrlimit(RLIMIT_CORE, &(struct rlimit){ 0, 0 });
	setitimer(ITIMER_REAL, &wall, NULL);
	execv(bin, argv);
	_exit(127);
}

static struct job start(const char *bin, const char *in, size_t b, size_t k,
			int trusted)
{
	struct job j = { -1, -1, b, k };

	j.fd = memfd_create("killmatrix-out", MFD_CLOEXEC);
	if (j.fd < 0)
		die("memfd_create: %s", strerror(errno));
	j.pid = fork();
	if (j.pid < 0)
		die("fork: %s", strerror(errno));
	if (j.pid == 0)
		child(bin, in, j.fd, trusted);
	return j;
}

/*
 * Reaps one of the running jobs; returns its index in run[], with *killed
 * set when the program failed the case (its output in *out when wanted).
 */
static size_t reap(struct job *run, size_t nrun, const struct kcase *kc,
		   int *killed, char **out, size_t *olen)
{
	int st;
	pid_t pid;

	while ((pid = waitpid(-1, &st, 0)) < 0 && errno == EINTR)
		;
	if (pid < 0)
		die("waitpid: %s", strerror(errno));
	for (size_t i = 0; i < nrun; i++) {
		if (run[i].pid != pid)
			continue;
		char *buf;
		size_t len;
		if (slurp_fd(run[i].fd, &buf, &len) < 0)
			die("cannot read back an output: %s", strerror(errno));
		close(run[i].fd);
		*killed = !WIFEXITED(st) || WEXITSTATUS(st) != 0 ||
			  (kc && !cmp_equal(kc[run[i].kc].exp, kc[run[i].kc].elen,
					    buf, len, 0));
		if (out) {
			*out = buf;
			*olen = len;
		} else {
			free(buf);
		}
		return i;
	}
	die("reaped an unknown child %ld", (long)pid);
}

static void free_cases(struct kcase *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].in);
		free(v[i].exp);
	}
	free(v);
}

static const char *base(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* Witness mode: REF and each BIN must disagree on BIN.witness. */
static int witness(const char *ref, char **bins, size_t nb, size_t jobs)
{
	struct kcase *w = xmalloc(nb * sizeof(*w));
	struct job *run = xmalloc(jobs * sizeof(*run));
	size_t nrun = 0, next = 0, bad = 0;
	int killed;

	for (size_t b = 0; b < nb; b++) {
		w[b].in = xmalloc(strlen(bins[b]) + 16);
		sprintf(w[b].in, "%s.witness", bins[b]);
		if (access(w[b].in, R_OK) < 0)
			die("cannot read '%s': %s", w[b].in, strerror(errno));
	}
	/* First the reference's outputs (the expected side), then the bins. */
	for (int pass = 0; pass < 2; pass++) {
		next = 0;
		while (next < nb || nrun) {
			while (nrun < jobs && next < nb) {
				run[nrun++] = start(pass ? bins[next] : ref,
						    w[next].in, next, next, !pass);
				next++;
			}
			char *out;
			size_t olen;
			size_t i = reap(run, nrun, pass ? w : NULL, &killed,
					&out, &olen);
			size_t b = run[i].bin;
			run[i] = run[--nrun];
			if (!pass) {
				if (killed)
					die("the reference failed on '%s'", w[b].in);
				w[b].exp = out;
				w[b].elen = olen;
				continue;
			}
			free(out);
			if (!killed) {
				printf("FAIL %s: agrees with the reference on its "
				       "witness\n", base(bins[b]));
				bad++;
			}
		}
	}
	printf("%zu wrong solutions, %zu differ from the reference on their "
	       "witness\n", nb, nb - bad);
	free_cases(w, nb);
	free(run);
	return bad ? 1 : 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: %s [-j N] [-k MIN] [-a] [-v] SUITE_DIR BIN...\n"
		"       %s -w REF [-j N] BIN...\n", prog, prog);
	exit(2);
}

static long number_arg(const char *opt, const char *s, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		die("option %s: '%s' is not a number in %ld-%ld", opt, s, lo, hi);
	return v;
}

int main(int argc, char **argv)
{
	size_t jobs = 2, need = 2;
	int all = 0, verbose = 0, opt;
	const char *ref = NULL;

	while ((opt = getopt(argc, argv, "j:k:avw:")) != -1) {
		switch (opt) {
		case 'j': jobs = (size_t)number_arg("-j", optarg, 1, 256); break;
		case 'k': need = (size_t)number_arg("-k", optarg, 1, 1000); break;
		case 'a': all = 1; break;
		case 'v': verbose = 1; break;
		case 'w': ref = optarg; break;
		default: usage();
		}
	}
	if (ref) {
		if (optind >= argc)
			usage();
		return witness(ref, argv + optind, (size_t)(argc - optind), jobs);
	}
	if (argc - optind < 2)
		usage();

	size_t nk, nb = (size_t)(argc - optind - 1);
	struct kcase *kc = load_suite(argv[optind], &nk);
	char **bins = argv + optind + 1;
	unsigned char *hit = xmalloc(nb * nk);
	size_t *kills = xmalloc(nb * sizeof(*kills));
	struct job *run = xmalloc(jobs * sizeof(*run));
	size_t nrun = 0, next = 0, total = nb * nk;
	int killed;

	/* Jobs in solution-major order; a solution with enough kills is
	 * skipped from then on (unless -a). */
	while (next < total || nrun) {
		while (nrun < jobs && next < total) {
			size_t b = next / nk, k = next % nk;
			next++;
			if (!all && kills[b] >= need)
				continue;
			run[nrun++] = start(bins[b], kc[k].in, b, k, 0);
		}
		if (!nrun)
			continue;
		size_t i = reap(run, nrun, kc, &killed, NULL, NULL);
		if (killed) {
			hit[run[i].bin * nk + run[i].kc] = 1;
			kills[run[i].bin]++;
		}
		run[i] = run[--nrun];
	}

	size_t weak = 0, fewest = SIZE_MAX, idle = 0;
	for (size_t b = 0; b < nb; b++) {
		if (kills[b] < fewest)
			fewest = kills[b];
		if (kills[b] < need) {
			printf("FAIL %s: killed by %zu case%s, need %zu:", base(bins[b]),
			       kills[b], kills[b] == 1 ? "" : "s", need);
			weak++;
		} else if (verbose || all) {
			printf("%s: killed by %zu:", base(bins[b]), kills[b]);
		} else {
			continue;
		}
		for (size_t k = 0; k < nk; k++)
			if (hit[b * nk + k])
				printf(" %s", kc[k].name);
		printf("\n");
	}
	printf("%zu wrong solutions, %zu cases: %zu killed by at least %zu cases",
	       nb, nk, nb - weak, need);
	if (all) {
		printf("; fewest kills %zu; cases that kill nothing:", fewest);
		for (size_t k = 0; k < nk; k++) {
			size_t b = 0;
			while (b < nb && !hit[b * nk + k])
				b++;
			if (b == nb) {
				printf(" %s", kc[k].name);
				idle++;
			}
		}
		printf(" (%zu)", idle);
	}
	printf("\n");
	free_cases(kc, nk);
	free(hit);
	free(kills);
	free(run);
	return weak ? 1 : 0;
}
