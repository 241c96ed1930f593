/* sim_source: see sim_source.h. */
#include "grader/similarity/sim_source.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "grader/lib/strbuf.h"
#include "grader/lib/util.h"
#include "grader/lib/escape.h"

#define REPLACEMENT "\xEF\xBF\xBD"

/* text made valid UTF-8 into out. 0, or -1 when out of memory. */
static int to_utf8(struct strbuf *out, const char *text, size_t len)
{
	const unsigned char *p = (const unsigned char *)text;

	for (size_t i = 0; i < len;) {
		size_t n = p[i] < 0x80 ? 1 : escape_utf8_len(p + i, len - i);

		/* escape_utf8_len refuses U+FFFE/U+FFFF too: for a source text
		 * they are as good as any other byte to replace. */
		if (n)
			strbuf_add(out, p + i, n);
		else
			strbuf_addstr(out, REPLACEMENT);
		i += n ? n : 1;
	}
	return strbuf_failed(out) ? -1 : 0;
}

int sim_source_add(struct sim_source *s, const char *name, const char *text,
		   size_t len, struct strbuf *err)
{
	struct strbuf t = STRBUF_INIT;
	struct sim_file *v;

	if (s->n >= SIM_SOURCE_FILES) {
		strbuf_addf(err, "more than %d source files", SIM_SOURCE_FILES);
		return -1;
	}
	v = realloc(s->files, (s->n + 1) * sizeof *v);
	if (!v || to_utf8(&t, text, len) < 0) {
		if (v)
			s->files = v;
		strbuf_release(&t);
		strbuf_addstr(err, "out of memory");
		return -1;
	}
	s->files = v;
	v[s->n].text = strbuf_detach(&t, &v[s->n].len);
	/* The name too: it goes into JSON (a Latin-1 or C1 byte in a file
	 * name made jansson refuse the record, taken for out of memory). */
	v[s->n].name = to_utf8(&t, name, strlen(name)) < 0 ? NULL
		       : strbuf_detach(&t, NULL);
	if (!v[s->n].name || !v[s->n].text) {
		strbuf_release(&t);
		free(v[s->n].name);
		free(v[s->n].text);
		strbuf_addstr(err, "out of memory");
		return -1;
	}
	s->n++;
	return 0;
}

int sim_source_load_file(struct sim_source *s, const char *path,
			 const char *name, struct strbuf *err)
{
	struct strbuf t = STRBUF_INIT;
	int rc;

	if (strbuf_read_file(&t, path, SIM_SOURCE_MAX) < 0) {
		strbuf_addf(err, "cannot read '%s': %s", path,
			    errno == EFBIG ? "larger than 4 MiB" : strerror(errno));
		strbuf_release(&t);
		return -1;
	}
	rc = sim_source_add(s, name, t.buf ? t.buf : "", t.len, err);
	strbuf_release(&t);
	return rc;
}

static int source_name(const char *n)
{
	size_t len = strlen(n);

	return n[0] != '.' && len > 2 && n[len - 2] == '.' &&
	       (n[len - 1] == 'c' || n[len - 1] == 'h');
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int sim_source_load_dir(struct sim_source *s, const char *dir, struct strbuf *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0;
	int rc = 0;

	if (!d) {
		strbuf_addf(err, "cannot open '%s': %s", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d)) != NULL && n <= SIM_SOURCE_FILES) {
		char **v;

		if (!source_name(e->d_name))
			continue;
		if (!(v = realloc(names, (n + 1) * sizeof *v)) ||
		    !(v[n] = strdup(e->d_name))) {
			names = v ? v : names;
			rc = -1;
			strbuf_addstr(err, "out of memory");
			break;
		}
		names = v;
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof *names, cmp_name);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		struct strbuf path = STRBUF_INIT;
		struct stat st;

		wg_path_join(&path, dir, names[i]);
		/* Links are not followed: a submission is its own files. */
		if (strbuf_failed(&path))
			rc = -1, strbuf_addstr(err, "out of memory");
		else if (lstat(path.buf, &st) == 0 && S_ISREG(st.st_mode))
			rc = sim_source_load_file(s, path.buf, names[i], err);
		strbuf_release(&path);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

void sim_source_release(struct sim_source *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->files[i].name);
		free(s->files[i].text);
	}
	free(s->files);
	s->files = NULL;
	s->n = 0;
}
