/*
 * batch_students: who the students are (the subdirectories of
 * SUBMISSIONS_DIR) and where each one's sources are (the one folder at any
 * depth that holds .c files).
 */
#include "grader/cli/batch_int.h"
#include "grader/cli/batch_keys.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "grader/lib/strbuf.h"
#include "grader/lib/usage.h"
#include "grader/lib/escape.h"

void batch_names_add(struct namelist *l, char *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->v = xrealloc(l->v, l->cap * sizeof *l->v);
	}
	l->v[l->n++] = s;
}

void batch_names_free(struct namelist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void batch_names_sort(struct namelist *l)
{
	if (l->n > 1)
		qsort(l->v, l->n, sizeof *l->v, cmp_str);
}

static int cmp_student(const void *a, const void *b)
{
	return strcmp(((const struct student *)a)->name,
		      ((const struct student *)b)->name);
}

int batch_same_dir(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* A folder name is the student's name everywhere batch writes it: a file
 * name (DIR/students/NAME.json, DIR/logs/NAME.log), a JSON string, a CSV
 * field, a line of summary.txt and of the terminal. A folder name may be
 * none of these safely: bytes that are not UTF-8 (an archive unpacked
 * with another code page), control characters (a newline that forges a
 * line of the summary, an escape that clears the terminal), or 250 bytes
 * (NAME.json past NAME_MAX). So the name is the folder's own where it is
 * safe, else a key made from it: every byte that is not printable UTF-8,
 * and the backslash itself, as \xNN (so no safe name equals another's
 * key), cut to KEY_MAX bytes at a character boundary with "~" and the
 * folder name's FNV-1a 64 in hex. The student's folder stays s->dir. */
#define KEY_MAX 160

/* The length of the character at p that a key keeps as it is (printable
 * UTF-8, not '/' nor '\\'), or 0: a byte the key writes as \\xNN. The
 * one rule of batch_student_key and batch_student_key_valid. */
static size_t kept_len(const unsigned char *p, size_t left)
{
	if (p[0] < 0x20 || p[0] == 0x7f || p[0] == '\\' || p[0] == '/')
		return 0;
	return p[0] >= 0x80 ? escape_utf8_len(p, left) : 1;
}

void batch_student_key(struct strbuf *out, const char *folder)
{
	const unsigned char *p = (const unsigned char *)folder;
	size_t n = strlen(folder), i = 0, start = out->len;

	while (i < n) {
		size_t len = kept_len(p + i, n - i);

		/* An escape counts its four bytes against the cut too. */
		if (out->len - start + (len ? len : 4) > KEY_MAX) {
			strbuf_addf(out, "~%016llx", (unsigned long long)shard_hash(folder));
			return;
		}
		if (len)
			strbuf_add(out, p + i, len);
		else
			strbuf_addf(out, "\\x%02x", p[i]);
		i += len ? len : 1;
	}
}

int batch_student_key_valid(const char *name)
{
	const unsigned char *p = (const unsigned char *)name;
	size_t n = strlen(name), i = 0;

	if (!n || name[0] == '.' || n > KEY_MAX + 17)
		return 0;
	while (i < n) {
		size_t len = kept_len(p + i, n - i);

		if (!len && !(p[i] == '\\' && p[i + 1] == 'x' && isxdigit(p[i + 2]) &&
			      isxdigit(p[i + 3])))
			return 0;
		i += len ? len : 4;
	}
	return 1;
}

/* Every subdirectory of SUBMISSIONS_DIR but dot-names and DIR itself. */
int batch_find_students(struct batch *b)
{
	DIR *d = opendir(b->subs_dir);
	struct dirent *e;
	struct strbuf key = STRBUF_INIT;
	size_t cap = 0;

	if (!d) {
		error("cannot open '%s': %s", b->subs_dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		char *dir;
		struct stat sb;

		if (e->d_name[0] == '.')
			continue;
		dir = batch_path(b->subs_dir, e->d_name);
		if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode) ||
		    batch_same_dir(dir, b->out)) {
			free(dir);
			continue;
		}
		if (b->n == cap) {
			cap = cap ? 2 * cap : 32;
			b->st = xrealloc(b->st, cap * sizeof *b->st);
		}
		memset(&b->st[b->n], 0, sizeof b->st[b->n]);
		batch_student_key(&key, e->d_name);
		if (strbuf_failed(&key))
			die("out of memory");
		b->st[b->n].name = strbuf_detach(&key, NULL);
		b->st[b->n].dir = dir;
		b->st[b->n].pid = -1;
		b->n++;
	}
	closedir(d);
	if (b->n)
		qsort(b->st, b->n, sizeof *b->st, cmp_student);
	return 0;
}

#define MAX_SOURCE_DEPTH 16

/* 1 when dir directly holds a regular file named *.c. */
static int holds_sources(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0;

	while (d && !found && (e = readdir(d)) != NULL) {
		size_t n = strlen(e->d_name);
		struct stat sb;
		char *p;

		if (e->d_name[0] == '.' || n < 3 || strcmp(e->d_name + n - 2, ".c"))
			continue;
		p = batch_path(dir, e->d_name);
		found = lstat(p, &sb) == 0 && S_ISREG(sb.st_mode);
		free(p);
	}
	if (d)
		closedir(d);
	return found;
}

/* Every folder at or under dir (links not followed; __MACOSX and dot
 * names skipped, as the Gradescope script does) that holds .c files. */
static void source_dirs(const char *dir, int depth, struct namelist *l)
{
	DIR *d;
	struct dirent *e;

	if (holds_sources(dir))
		batch_names_add(l, xstrdup(dir));
	if (depth >= MAX_SOURCE_DEPTH || !(d = opendir(dir)))
		return;
	while ((e = readdir(d)) != NULL) {
		struct stat sb;
		char *p;

		if (e->d_name[0] == '.' || strcmp(e->d_name, "__MACOSX") == 0)
			continue;
		p = batch_path(dir, e->d_name);
		if (lstat(p, &sb) == 0 && S_ISDIR(sb.st_mode))
			source_dirs(p, depth + 1, l);
		free(p);
	}
	closedir(d);
}

/* The student's source folder: s->src, or NO_SUBMISSION: no folder holds
 * a C source, or two or more do (s->error names two: which one is the
 * submission is the student's to say, and never the grader's failure). */
void batch_find_sources(struct student *s)
{
	struct namelist l = { NULL, 0, 0 };
	size_t root = strlen(s->dir);

	source_dirs(s->dir, 0, &l);
	batch_names_sort(&l);
	if (l.n == 0) {
		s->state = ST_NO_SUBMISSION;
	} else if (l.n == 1) {
		s->src = l.v[0];
		l.v[0] = NULL;
	} else {
		struct strbuf why = STRBUF_INIT;

		strbuf_addf(&why, "C sources in %zu folders, '%s' and '%s'%s; a "
			    "submission is one folder", l.n,
			    l.v[0][root] ? l.v[0] + root + 1 : ".",
			    l.v[1][root] ? l.v[1] + root + 1 : ".",
			    l.n > 2 ? " (and more)" : "");
		s->state = ST_NO_SUBMISSION;
		s->error = xstrdup(strbuf_str(&why));
		strbuf_release(&why);
	}
	batch_names_free(&l);
}

void batch_student_free(struct student *s)
{
	free(s->name);
	free(s->dir);
	free(s->src);
	free(s->error);
	batch_row_free(&s->row);
}

json_t *batch_shard_json(const struct shard *s)
{
	return json_pack("{s:I, s:I}", BK_INDEX, (json_int_t)s->index,
			 BK_COUNT, (json_int_t)s->count);
}

/* Before any student is looked at: a student of another shard is never
 * hashed, graded nor counted. */
void batch_keep_shard(struct batch *b)
{
	size_t k = 0;

	b->class_students = json_array();
	if (!b->class_students)
		die("out of memory");
	for (size_t i = 0; i < b->n; i++) {
		/* A key is UTF-8 (batch_student_key). */
		if (json_array_append_new(b->class_students, json_string(b->st[i].name)))
			die("out of memory");
		if (shard_holds(&b->shard, b->st[i].name))
			b->st[k++] = b->st[i];
		else
			batch_student_free(&b->st[i]);
	}
	b->n = k;
}
