/*
 * secrets: the paths no program may read (secrets.h).
 */
#include "grader/cli/secrets.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "grader/judge/suite.h"
#include "grader/lib/strbuf.h"
#include "grader/lib/util.h"

/* Appends path, made absolute, when it exists. */
static void add_real(char **list, size_t *n, const char *path)
{
	char *real = realpath(path, NULL);

	if (real)
		list[(*n)++] = real;
}

char **secrets_list(const struct suite *s, const char *const *extra)
{
	static const char *const rel[] = { "reference", "../libexec/warpgrade" };
	size_t cap = 3, n = 0;
	char **list, *exe, *slash;

	for (size_t i = 0; extra && extra[i]; i++)
		cap++;
	for (size_t i = 0; s && i < s->ncases; i++)
		cap += 2;
	if (!(list = calloc(cap, sizeof(*list))))
		return NULL;
	for (size_t i = 0; s && i < s->ncases; i++)
		if (s->cases[i].hidden) {
			add_real(list, &n, s->cases[i].in_path);
			add_real(list, &n, s->cases[i].out_path);
		}
	for (size_t i = 0; extra && extra[i]; i++)
		add_real(list, &n, extra[i]);
	if ((exe = realpath("/proc/self/exe", NULL)) && (slash = strrchr(exe, '/'))) {
		*slash = '\0';
		for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
			struct strbuf p = STRBUF_INIT;

			wg_path_join(&p, exe, rel[i]);
			if (!strbuf_failed(&p))
				add_real(list, &n, p.buf);
			strbuf_release(&p);
		}
	}
	free(exe);
	return list;
}

void secrets_free(char **list)
{
	for (size_t i = 0; list && list[i]; i++)
		free(list[i]);
	free(list);
}
