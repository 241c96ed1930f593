/*
 * build: compile a submission directory through the runner (see build.h).
 */
#include "grader/run/build.h"
#include "grader/lib/escape.h"
#include "grader/lib/strbuf.h"
#include "grader/lib/usage.h"
#include "grader/run/sandbox.h"

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grader/run/runner.h"
#include "grader/run/scratch.h"

#define MAX_SOURCES BUILD_MAX_SOURCES

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n > k && !strcmp(s + n - k, suffix);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Set by list_sources when a folder holds more than MAX_SOURCES sources
 * (per thread: builds run in parallel). */
static _Thread_local int too_many_sources;

/* The sorted names of dir ending in .c (and .h when headers), whatever
 * their type: vet_sources refuses what is not a regular file. MAX_SOURCES
 * at most (past that too_many_sources is set, and the build refuses the
 * submission); malloc'd array of malloc'd names, count in *n. */
static char **list_sources(const char *dir, int headers, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL;

	*n = 0;
	too_many_sources = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' ||
		    !(ends_with(e->d_name, ".c") || (headers && ends_with(e->d_name, ".h"))))
			continue;
		if (*n == MAX_SOURCES) {
			too_many_sources = 1;
			break;
		}
		char **nv = realloc(v, (*n + 1) * sizeof(*v));
		if (!nv || !(nv[*n] = strdup(e->d_name))) {
			v = nv ? nv : v;
			break;
		}
		v = nv;
		(*n)++;
	}
	closedir(d);
	if (v)
		qsort(v, *n, sizeof(*v), name_cmp);
	return v;
}

static void free_list(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

int build_count_sources(const char *src_dir)
{
	DIR *d = opendir(src_dir);
	size_t n = 0;
	char **names;

	if (!d)
		return -1;
	closedir(d);
	names = list_sources(src_dir, 0, &n);
	free_list(names, n);
	return (int)n;
}

/* The compiler: $CC when it is one plain word, else "cc"; resolved in PATH
 * because the runner does no PATH search. */
int build_find_compiler(char *out, size_t outlen)
{
	const char *cc = getenv("CC");
	const char *path = getenv("PATH");

	if (!cc || !*cc || strpbrk(cc, " \t"))
		cc = "cc";
	if (strchr(cc, '/')) {
		snprintf(out, outlen, "%s", cc);
		return access(out, X_OK);
	}
	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t len = strcspn(p, ":");
		snprintf(out, outlen, "%.*s/%s", (int)len, p, cc);
		if (len && access(out, X_OK) == 0)
			return 0;
		p += len + (p[len] == ':');
	}
	return -1;
}

/* The log is fmt's message, scrubbed: a name in it is the submission's
 * (usage.h). */
__attribute__((format(printf, 2, 0)))
static void set_logv(struct build_result *r, const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_vaddf(&sb, fmt, ap);
	free(r->log);
	r->log = strbuf_detach(&sb, NULL);
	if (r->log)
		escape_scrub(r->log, strlen(r->log), 1);
}

__attribute__((format(printf, 2, 3)))
static void set_log(struct build_result *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_logv(r, fmt, ap);
	va_end(ap);
}

/* The submission's fault, said as a CE: fmt's message in the log, detail
 * (one line) as the CE's reason. Returns -1. */
__attribute__((format(printf, 3, 4)))
static int refuse(struct build_result *r, const char *detail, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_logv(r, fmt, ap);
	va_end(ap);
	r->status = BUILD_FAILED;
	snprintf(r->reason, sizeof(r->reason), "%s", detail);
	return -1;
}

static const char *type_name(mode_t m)
{
	static const struct { mode_t type; const char *name; } types[] = {
		{ S_IFLNK, "a symbolic link" }, { S_IFIFO, "a FIFO" },
		{ S_IFCHR, "a character device" }, { S_IFBLK, "a block device" },
		{ S_IFSOCK, "a socket" }, { S_IFDIR, "a folder" },
	};

	for (size_t i = 0; i < sizeof(types) / sizeof(*types); i++)
		if ((m & S_IFMT) == types[i].type)
			return types[i].name;
	return "not a regular file";
}

/* The submission limits (build.h): every source a regular file named
 * without control characters, BUILD_MAX_SOURCE_BYTES in all. lstat: a
 * symbolic link (to the suite's answers, to /etc/shadow) is refused,
 * never followed. 0, or -1 with r set to the CE and its reason. */
static int vet_sources(const char *dir, char **names, size_t n,
		       struct build_result *r)
{
	char path[4096 + 256];
	uint64_t total = 0;
	struct stat st;

	for (size_t i = 0; i < n; i++) {
		for (const char *p = names[i]; *p; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				return refuse(r, "a source name holds a control character",
					      "source name '%s' refused: it holds a control "
					      "character; rename it", names[i]);
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (lstat(path, &st) < 0)
			return refuse(r, "a source cannot be read", "cannot read "
				      "the source '%s': %s", names[i], strerror(errno));
		if (!S_ISREG(st.st_mode))
			return refuse(r, "a source is not a regular file",
				      "source '%s' refused: it is %s, and a source must "
				      "be a regular file", names[i], type_name(st.st_mode));
		total += (uint64_t)st.st_size;
		if (total > BUILD_MAX_SOURCE_BYTES)
			return refuse(r, "sources over 4 MiB", "sources refused: "
				      "they hold more than %llu MiB in all ('%s' is "
				      "%lld bytes)", (unsigned long long)
				      (BUILD_MAX_SOURCE_BYTES >> 20), names[i],
				      (long long)st.st_size);
	}
	return 0;
}

/* The compiler's messages: its stdout, then the kept tail of its stderr. */
static char *messages(const struct run_result *res)
{
	size_t n = res->out_len + res->err_len;
	char *all = malloc(n + 1), *esc;

	if (!all)
		return NULL;
	if (res->out_len)
		memcpy(all, res->out, res->out_len);
	if (res->err_len)
		memcpy(all + res->out_len, res->err, res->err_len);
	esc = escape_visible(all, n, 1);
	free(all);
	return esc;
}

/* Opens a vetted source again for the copy, never through a link nor
 * blocking on a FIFO: NULL with *fd open, or why it is refused now (it
 * changed since vet_sources) with *fd -1. */
static const char *open_source(const char *path, int *fd)
{
	struct stat st;
	const char *why = NULL;

	*fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (*fd < 0)
		return strerror(errno);
	if (fstat(*fd, &st) < 0)
		why = strerror(errno);
	else if (!S_ISREG(st.st_mode))
		why = "not a regular file";
	else if ((uint64_t)st.st_size > BUILD_MAX_SOURCE_BYTES)
		why = "over 4 MiB";
	if (why) {
		close(*fd);
		*fd = -1;
	}
	return why;
}

/* Copies the vetted sources. What the source side refuses is still the
 * submission's (a CE); only a failure to write the copy is the grader's
 * (BUILD_ERROR). 0, or -1 with r set. */
static int copy_sources(const char *src_dir, const char *build_dir,
			char **names, size_t n, struct build_result *r)
{
	char from[4096 + 256], to[4096 + 256];
	const char *why;
	int in;

	for (size_t i = 0; i < n; i++) {
		snprintf(from, sizeof(from), "%s/%s", src_dir, names[i]);
		snprintf(to, sizeof(to), "%s/%s", build_dir, names[i]);
		if ((why = open_source(from, &in)) != NULL)
			return refuse(r, "a source cannot be read", "cannot read "
				      "the source '%s': %s", names[i], why);
		if (scratch_copy_fd(in, to, 0644) < 0) {
			set_log(r, "cannot copy '%s': %s", from, strerror(errno));
			r->status = BUILD_ERROR;
			close(in);
			return -1;
		}
		close(in);
	}
	return 0;
}

/* Appends "\n(compilation stopped: WHY)\n" to the log and keeps WHY as the
 * CE detail. */
static void stop_note(struct build_result *r, const char *why)
{
	struct strbuf sb = STRBUF_INIT;

	snprintf(r->reason, sizeof(r->reason), "%s", why);
	strbuf_addf(&sb, "%s\n(compilation stopped: %s)\n", r->log ? r->log : "", why);
	if (!strbuf_failed(&sb)) {
		free(r->log);
		r->log = strbuf_detach(&sb, NULL);
	}
	strbuf_release(&sb);
}

/* Why a failed compile failed, when a limit did it: "" otherwise. */
static void limit_reason(const struct run_result *res,
			 const struct build_limits *lim, char *why, size_t n)
{
	why[0] = '\0';
	if (res->total_exceeded || res->output_exceeded || res->stderr_exceeded)
		snprintf(why, n, "compiler output over %zu KiB",
			 lim->output_bytes >> 10);
	else if (res->cpu_exceeded ||
		 (res->err && strstr(res->err, "CPU time limit exceeded")))
		/* The limit binds each process: cc1's SIGXCPU reaches us only
		 * through the driver's message. */
		snprintf(why, n, "compiler over its CPU limit of %g s", lim->cpu_sec);
	else if (lim->sbx && sandbox_layers_of(lim->sbx)->build_view && res->err &&
		 (strstr(res->err, "No space left on device") ||
		  strstr(res->err, "Disk quota exceeded")))
		/* In the build view only its own tmpfs can be full: the
		 * build folder's files are bound by the file-size limit. */
		snprintf(why, n, "compiler's scratch over its limit of %llu MiB",
			 (unsigned long long)(lim->tmp_bytes >> 20));
	else if (res->timed_out_wall)
		snprintf(why, n, "compiler over its wall limit of %g s", lim->wall_sec);
	else if (lim->mem_bytes && res->err &&
		 (strstr(res->err, "out of memory") ||
		  strstr(res->err, "memory exhausted") ||
		  strstr(res->err, "Cannot allocate memory")))
		snprintf(why, n, "compiler out of memory (limit %llu MiB)",
			 (unsigned long long)(lim->mem_bytes >> 20));
}

static void run_compiler(const char *build_dir, char **names, size_t n,
			 uid_t uid, gid_t gid, const struct build_limits *lim,
			 struct build_result *r)
{
	char cc[4096], env_tmp[4200], env_home[4200], why[160];
	const char **argv = calloc(2 * n + 8, sizeof(*argv));
	char **dotted = calloc(n + 1, sizeof(*dotted));
	size_t k = 0;

	if (!argv || !dotted || build_find_compiler(cc, sizeof(cc)) < 0) {
		r->status = BUILD_ERROR;
		set_log(r, "cannot find the C compiler '%s'", getenv("CC") ? getenv("CC") : "cc");
		free(argv);
		free(dotted);
		return;
	}
	snprintf(r->prog, sizeof(r->prog), "%s/prog", build_dir);
	argv[k++] = cc;
	argv[k++] = "-std=c11";
	argv[k++] = "-O2";
	argv[k++] = "-o";
	argv[k++] = "prog";
	/* "./NAME": a name is a file, never an option ("-wrapper.c"). */
	for (size_t i = 0; i < n; i++) {
		if (!ends_with(names[i], ".c"))
			continue;
		if (asprintf(&dotted[i], "./%s", names[i]) < 0) {
			dotted[i] = NULL;   /* undefined after a failure */
			r->status = BUILD_ERROR;
			set_log(r, "out of memory");
			goto out;
		}
		argv[k++] = dotted[i];
	}
	argv[k++] = "-lm";
	/* The build view's /tmp is the build's own tmpfs (tmp_bytes, 4096
	 * inodes): the objects never reach the host's scratch folder, which
	 * classmates share. Elsewhere, the build folder. */
	snprintf(env_tmp, sizeof(env_tmp), "TMPDIR=%s",
		 lim->sbx && sandbox_layers_of(lim->sbx)->build_view ? "/tmp" : build_dir);
	snprintf(env_home, sizeof(env_home), "HOME=%s", build_dir);
	const char *env[] = { "PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C",
			      "LC_ALL=C", env_tmp, env_home, NULL };
	struct run_child c = RUN_CHILD_INIT;
	c.argv = argv;
	c.env = env;
	c.dir = build_dir;
	c.lim.cpu_sec = lim->cpu_sec;
	c.lim.wall_sec = lim->wall_sec;
	c.lim.mem_bytes = lim->mem_bytes;
	c.lim.as_bytes = lim->mem_bytes;   /* each compiler process, too */
	c.lim.fsize_bytes = lim->fsize_bytes;
	/* RLIMIT_NPROC counts the whole uid: the user's session when the
	 * grader is not root and has no user namespace (the compiler then runs
	 * as that user, and no limit can be set). */
	c.lim.nproc = geteuid() == 0 ||
		      (lim->sbx && sandbox_layers_of(lim->sbx)->user_ns) ? lim->nproc : 0;
	c.lim.stack_bytes = BUILD_STACK_BYTES;
	/* Messages on both streams count against one cap, and past it the
	 * compiler is killed at once (a flood must not run to the time limit). */
	c.lim.output_bytes = lim->output_bytes;
	c.lim.stderr_bytes = lim->output_bytes;
	c.lim.total_kill_bytes = lim->output_bytes;
	c.lim.nofile = 256;
	c.sbx = lim->sbx;
	c.bind_dir = 1;
	c.uid = uid;
	c.gid = gid;

	int rc = run_command(&c);
	struct stat st;
	if (rc < 0 || c.res.exec_errno) {
		r->status = BUILD_ERROR;
		set_log(r, "cannot run the compiler: %s%s", rc < 0 ? c.res.error
			: strerror(c.res.exec_errno),
			lim->sbx && c.res.exec_errno == ENOENT ?
			" (it runs in the sandbox, where /tmp, /var/tmp, /dev/shm "
			"and the masked folders are not the host's: put $CC elsewhere)"
			: "");
	} else if (c.res.status == RUN_EXITED && c.res.exit_code == 0 &&
		   !c.res.total_exceeded && lstat(r->prog, &st) == 0) {
		r->status = BUILD_OK;
		r->log = messages(&c.res);
	} else {
		r->status = BUILD_FAILED;
		r->log = messages(&c.res);
		limit_reason(&c.res, lim, why, sizeof(why));
		if (why[0])
			stop_note(r, why);
	}
	run_child_release(&c);
out:
	for (size_t i = 0; i < n; i++)
		free(dotted[i]);
	free(dotted);
	free(argv);
}

/* One .c file: it alone, with the headers of its folder (it may include
 * them). *dir gets the folder (malloc'd). */
static char **list_single(const char *file, char **dir, size_t *n)
{
	const char *slash = strrchr(file, '/');
	char **v, **nv;

	*dir = slash ? strndup(file, slash == file ? 1 : (size_t)(slash - file))
		     : strdup(".");
	*n = 0;
	if (!*dir)
		return NULL;
	v = list_sources(*dir, 1, n);
	/* Keep the headers only, then add the file itself. */
	size_t k = 0;
	for (size_t i = 0; i < *n; i++) {
		if (ends_with(v[i], ".c"))
			free(v[i]);
		else
			v[k++] = v[i];
	}
	*n = k;
	nv = realloc(v, (k + 1) * sizeof(*v));
	if (!nv || !(nv[k] = strdup(slash ? slash + 1 : file)))
		return nv ? nv : v;
	(*n)++;
	return nv;
}

/* A single file that did not build, with other .c files beside it: most
 * likely they belong together, so say how to build them all. */
static void suggest_folder(const char *dir, struct build_result *r)
{
	int others = build_count_sources(dir) - 1;
	char *log = NULL;

	if (others <= 0)
		return;
	const char *prev = r->log ? r->log : "";
	size_t len = strlen(prev);

	if (asprintf(&log, "%s%s(only one file was built; its folder '%s' holds "
		     "%d other .c file%s: give the folder to build them all)\n",
		     prev, len && prev[len - 1] != '\n' ? "\n" : "", dir, others,
		     others == 1 ? "" : "s") < 0)
		return;
	free(r->log);
	r->log = log;
}

/* The first .c name that starts with '@', which gcc (and clang) would read
 * as a response file: a list of options such as "-wrapper prog". */
static const char *response_file_name(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (names[i][0] == '@' && ends_with(names[i], ".c"))
			return names[i];
	return NULL;
}

void build_submission(const char *src, const char *build_dir, uid_t uid,
		      gid_t gid, const struct build_limits *lim,
		      struct build_result *r)
{
	size_t n = 0, nc = 0;
	struct stat st;
	char *dir = NULL;
	int single = stat(src, &st) == 0 && S_ISREG(st.st_mode);
	char **names = single ? list_single(src, &dir, &n) : list_sources(src, 1, &n);
	const char *src_dir = single ? (dir ? dir : ".") : src;

	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i < n; i++)
		nc += ends_with(names[i], ".c");
	if (too_many_sources) {
		r->status = BUILD_FAILED;
		set_log(r, "more than %d source files in '%s': refused", MAX_SOURCES, src_dir);
		snprintf(r->reason, sizeof(r->reason), "more than %d source files",
			 MAX_SOURCES);
	} else if (nc == 0) {
		r->status = BUILD_FAILED;
		set_log(r, "no .c files in '%s'", src_dir);
	} else if (vet_sources(src_dir, names, n, r) < 0) {
		/* r holds the CE */
	} else if (response_file_name(names, n)) {
		r->status = BUILD_FAILED;
		set_log(r, "source name '%s' refused: a name starting with '@' is "
			"read by the compiler as a file of options; rename it",
			response_file_name(names, n));
		snprintf(r->reason, sizeof(r->reason), "source name starting "
			 "with '@' refused");
	} else if (copy_sources(src_dir, build_dir, names, n, r) < 0) {
		/* r holds the CE or the IE */
	} else {
		run_compiler(build_dir, names, n, uid, gid, lim, r);
	}
	free_list(names, n);
	if (single && r->status == BUILD_FAILED)
		suggest_folder(src_dir, r);
	free(dir);
	if (!r->log)
		r->log = strdup("");
}

static int refuse_program(struct build_result *r, const char *why)
{
	return refuse(r, "the build left no program of its own", "the build's "
		      "output 'prog' %s; the program was not taken", why);
}

int build_take_program(const char *build_dir, uid_t uid, const char *dst,
		       struct build_result *r)
{
	uid_t owner = geteuid() == 0 && uid != (uid_t)-1 ? uid : geteuid();
	int dfd = open(build_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int fd = -1, rc = -1;
	struct stat st;

	if (dfd < 0)
		goto error;
	/* O_NONBLOCK: a FIFO planted as "prog" must not hang the grader. */
	fd = openat(dfd, "prog", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && (errno == ELOOP || errno == ENOENT || errno == ENXIO)) {
		rc = refuse_program(r, errno == ELOOP ? "is a symbolic link"
				    : "is missing");
		goto out;
	}
	if (fd < 0 || fstat(fd, &st) < 0)
		goto error;
	if (!S_ISREG(st.st_mode))
		rc = refuse_program(r, "is not a regular file");
	else if (st.st_uid != owner)
		rc = refuse_program(r, "is not the compiler's (another owner)");
	else if (st.st_nlink != 1)
		rc = refuse_program(r, "has other links");
	else if (scratch_copy_fd(fd, dst, SCRATCH_PROGRAM_MODE) < 0)
		goto error;
	else
		rc = 0;
	goto out;
error:
	r->status = BUILD_ERROR;
	{
		char what[4200];
		snprintf(what, sizeof(what), "%s/prog", build_dir);
		set_log(r, "cannot take the program '%s': %s", what, strerror(errno));
	}
out:
	if (fd >= 0)
		close(fd);
	if (dfd >= 0)
		close(dfd);
	return rc;
}

uint64_t build_image_size(const char *prog)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	uint64_t total = 0;
	int fd = open(prog, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(ph) || eh.e_phnum > 4096) {
		close(fd);
		return 0;
	}
	for (unsigned i = 0; i < eh.e_phnum; i++) {
		off_t at = (off_t)(eh.e_phoff + (uint64_t)i * sizeof(ph));
		if (pread(fd, &ph, sizeof(ph), at) != (ssize_t)sizeof(ph))
			break;
		/* Saturate: a forged header must not wrap the sum. */
		if (ph.p_type == PT_LOAD)
			total = ph.p_memsz > UINT64_MAX - total ? UINT64_MAX
								: total + ph.p_memsz;
	}
	close(fd);
	return total;
}
