/*
 * build: compile a submission directory through the runner (see build.h).
 */
#include "grader/build.h"

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grader/diff.h"
#include "grader/runner.h"
#include "grader/scratch.h"

/* Past this many source files the submission is refused (CE). */
#define MAX_SOURCES 256

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n > k && !strcmp(s + n - k, suffix);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted names of the regular files of dir ending in .c (and .h when
 * headers); malloc'd array of malloc'd names, count in *n. */
static char **list_sources(const char *dir, int headers, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL, path[4096];
	struct stat st;

	*n = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d)) && *n < MAX_SOURCES) {
		if (e->d_name[0] == '.' ||
		    !(ends_with(e->d_name, ".c") || (headers && ends_with(e->d_name, ".h"))))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		/* lstat: a symbolic link (to the suite's answers, to
		 * /etc/shadow) is not a source; the copy, made as root
		 * outside the masking namespace, must never follow one. */
		if (lstat(path, &st) < 0 || !S_ISREG(st.st_mode))
			continue;
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
static int find_compiler(char *out, size_t outlen)
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

static void set_log(struct build_result *r, const char *fmt, const char *a,
		    const char *b)
{
	char tmp[4096 + 512];
	snprintf(tmp, sizeof(tmp), fmt, a, b);
	r->log = strdup(tmp);
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
	esc = diff_escape(all, n, 1);
	free(all);
	return esc;
}

static int copy_sources(const char *src_dir, const char *build_dir,
			char **names, size_t n, struct build_result *r)
{
	char from[4096 + 256], to[4096 + 256];

	for (size_t i = 0; i < n; i++) {
		snprintf(from, sizeof(from), "%s/%s", src_dir, names[i]);
		snprintf(to, sizeof(to), "%s/%s", build_dir, names[i]);
		if (scratch_copy_file(from, to, 0644, SCRATCH_COPY_SOURCE) < 0) {
			set_log(r, "cannot copy '%s': %s", from, strerror(errno));
			return -1;
		}
	}
	return 0;
}

static void run_compiler(const char *build_dir, char **names, size_t n,
			 uid_t uid, gid_t gid, const struct build_limits *lim,
			 struct build_result *r)
{
	char cc[4096], env_tmp[4200], env_home[4200];
	const char **argv = calloc(n + 8, sizeof(*argv));
	size_t k = 0;

	if (!argv || find_compiler(cc, sizeof(cc)) < 0) {
		r->status = BUILD_ERROR;
		set_log(r, "cannot find the C compiler '%s'%s", getenv("CC") ? getenv("CC") : "cc", "");
		free(argv);
		return;
	}
	snprintf(r->prog, sizeof(r->prog), "%s/prog", build_dir);
	argv[k++] = cc;
	argv[k++] = "-std=c11";
	argv[k++] = "-O2";
	argv[k++] = "-o";
	argv[k++] = "prog";
	for (size_t i = 0; i < n; i++)
		if (ends_with(names[i], ".c"))
			argv[k++] = names[i];
	argv[k++] = "-lm";
	snprintf(env_tmp, sizeof(env_tmp), "TMPDIR=%s", build_dir);
	snprintf(env_home, sizeof(env_home), "HOME=%s", build_dir);
	const char *env[] = { "PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C",
			      "LC_ALL=C", env_tmp, env_home, NULL };
	struct run_child c = RUN_CHILD_INIT;
	c.argv = argv;
	c.env = env;
	c.dir = build_dir;
	c.lim.cpu_sec = lim->cpu_sec;
	c.lim.wall_sec = lim->wall_sec;
	c.lim.output_bytes = lim->output_bytes;
	c.lim.stderr_bytes = lim->output_bytes;
	c.lim.nofile = 256;
	c.mnt_ns = lim->mnt_ns;
	c.uid = uid;
	c.gid = gid;

	int rc = run_command(&c);
	if (rc < 0 || c.res.exec_errno) {
		r->status = BUILD_ERROR;
		set_log(r, "cannot run the compiler: %s%s", rc < 0 ? c.res.error
			: strerror(c.res.exec_errno), "");
	} else if (c.res.status == RUN_EXITED && c.res.exit_code == 0 &&
		   access(r->prog, F_OK) == 0) {
		r->status = BUILD_OK;
		r->log = messages(&c.res);
	} else {
		r->status = BUILD_FAILED;
		r->log = messages(&c.res);
		char note[200] = "";
		if (c.res.cpu_exceeded || c.res.timed_out_wall)
			snprintf(note, sizeof(note), "\n(compilation stopped: over its "
				 "time limit of %.0f s)\n", lim->cpu_sec);
		else if (c.res.output_exceeded)
			snprintf(note, sizeof(note), "\n(compilation stopped: too "
				 "many messages)\n");
		if (note[0] && r->log) {
			char *l = realloc(r->log, strlen(r->log) + strlen(note) + 1);
			if (l)
				strcat(l, note), r->log = l;
		}
	}
	run_child_release(&c);
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
	if (nc == 0) {
		r->status = BUILD_FAILED;
		set_log(r, "no .c files in '%s'%s", src_dir, "");
	} else if (copy_sources(src_dir, build_dir, names, n, r) < 0) {
		r->status = BUILD_ERROR;
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
