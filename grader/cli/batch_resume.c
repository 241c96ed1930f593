/*
 * batch_resume: a later run skips a student whose report records the same
 * sources, suite, options and grader version. The sources and the suite
 * are each one FNV-1a 64 hash over every file's relative path and
 * contents (a link: its target), in sorted path order. A file the build
 * would refuse for its size (over BUILD_MAX_SOURCE_BYTES: a 100 GiB sparse
 * file would take minutes to read) counts by its size and modification
 * time, and a FIFO, device or socket by its type: never opened (opening a
 * device can act on it).
 */
#include "grader/cli/batch_int.h"
#include "grader/cli/batch_keys.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grader/lib/usage.h"
#include "grader/run/build.h"
#include "grader/report/report_read.h"

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

static void fnv(uint64_t *h, const void *p, size_t n)
{
	const unsigned char *c = p;

	for (size_t i = 0; i < n; i++) {
		*h ^= c[i];
		*h *= FNV_PRIME;
	}
}


/* Every non-directory under root, as paths relative to it (recursive). */
static void list_files(const char *root, const char *rel, struct namelist *l)
{
	char *path = rel ? batch_path(root, rel) : xstrdup(root);
	DIR *d = opendir(path);
	struct dirent *e;

	if (!d) {
		free(path);
		return;
	}
	while ((e = readdir(d)) != NULL) {
		char *r, *full;
		struct stat sb;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		r = rel ? batch_path(rel, e->d_name) : xstrdup(e->d_name);
		full = batch_path(root, r);
		if (lstat(full, &sb) == 0 && S_ISDIR(sb.st_mode)) {
			list_files(root, r, l);
			free(r);
		} else {
			batch_names_add(l, r);
		}
		free(full);
	}
	closedir(d);
	free(path);
}

static void hash_file(uint64_t *h, const char *path)
{
	char buf[65536], link[PATH_MAX];
	struct stat sb;
	ssize_t n;
	int fd;

	if (lstat(path, &sb) < 0)
		return;
	if (S_ISLNK(sb.st_mode)) {
		n = readlink(path, link, sizeof link);
		if (n > 0)
			fnv(h, link, (size_t)n);
		return;
	}
	if (!S_ISREG(sb.st_mode)) {
		uint32_t type = (uint32_t)(sb.st_mode & S_IFMT);

		fnv(h, &type, sizeof(type));
		return;
	}
	if ((uint64_t)sb.st_size > BUILD_MAX_SOURCE_BYTES) {
		int64_t stamp[3] = { (int64_t)sb.st_size, (int64_t)sb.st_mtim.tv_sec,
				     (int64_t)sb.st_mtim.tv_nsec };

		fnv(h, stamp, sizeof(stamp));
		return;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
	if (fd < 0)
		return;
	while ((n = read(fd, buf, sizeof buf)) > 0 ||
	       (n < 0 && errno == EINTR))
		if (n > 0)
			fnv(h, buf, (size_t)n);
	close(fd);
}

/* FNV-1a 64 over each file's relative path, a NUL, and its contents, in
 * sorted path order; out gets 16 hex digits. */
void batch_hash_tree(const char *root, char out[17])
{
	struct namelist l = { NULL, 0, 0 };
	uint64_t h = FNV_OFFSET;

	list_files(root, NULL, &l);
	batch_names_sort(&l);
	for (size_t i = 0; i < l.n; i++) {
		char *full = batch_path(root, l.v[i]);

		fnv(&h, l.v[i], strlen(l.v[i]) + 1);
		hash_file(&h, full);
		fnv(&h, "", 1);
		free(full);
	}
	batch_names_free(&l);
	snprintf(out, 17, "%016llx", (unsigned long long)h);
}
static int key_matches(const json_t *r, const char *key, const char *want)
{
	const char *v = report_str(r, key);

	return v && strcmp(v, want) == 0;
}

/* Loads the report of an earlier run when it is still valid for the
 * student's current sources, suite, options and grader version. */
void batch_try_resume(struct batch *b, struct student *s)
{
	char *path = batch_out_path(b, "students", s->name, ".json");
	json_error_t err;
	json_t *r = json_load_file(path, 0, &err);

	free(path);
	if (!r)
		return;
	/* A report from another grader version is stale: a grader fix must
	 * reach every student on the next run. */
	if (!b->force && key_matches(r, BK_SOURCE_HASH, s->hash) &&
	    key_matches(r, RK_GRADER_VERSION, WG_VERSION) &&
	    key_matches(r, BK_SUITE_HASH, b->suite_hash) &&
	    key_matches(r, BK_GRADE_OPTIONS, b->options_key) &&
	    json_array_size(json_object_get(r, RK_SUBMISSIONS)) == 1) {
		/* Kept as a row, the report let go: a class of any size. */
		if (batch_row_keep(b, s, r) == 0) {
			s->state = ST_SKIPPED;
			batch_write_page(b, s, r);
		} else {
			batch_fail_student(b, s, "its report could not be kept "
					   "for the class's files (above)");
		}
	}
	json_decref(r);
}
