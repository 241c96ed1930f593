/* guard: see guard.h. */
#include "grader/cli/guard.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grader/lib/usage.h"
#include "grader/lib/util.h"

/* Appends path's real path to list (*n entries, room for one more). */
static int add_hidden(char **list, size_t *n, const char *path, int want_dir,
		      const char *scratch)
{
	char *real = realpath(path, NULL), *slash;
	struct stat st;
	int rc = -1;

	if (!real || stat(real, &st) < 0) {
		error("cannot hide '%s': %s", path, strerror(errno));
		goto out;
	}
	if (want_dir && !S_ISDIR(st.st_mode)) {
		error("cannot hide '%s': not a folder", path);
		goto out;
	}
	if (!want_dir && (slash = strrchr(real, '/')))
		slash[slash == real] = '\0';   /* the program's folder */
	/* A folder holding the scratch tree cannot be hidden: the programs run
	 * from there. For a program's own folder that only costs hiding it;
	 * for the suite or a --hide it would unmask what must stay hidden. */
	if (wg_path_within(scratch, real) && want_dir) {
		error("cannot hide '%s': it holds the scratch folder '%s' (set "
		      "TMPDIR to a folder outside it)", path, scratch);
		goto out;
	}
	rc = 0;
	/* Once only, and not inside a folder already hidden. */
	if (!strcmp(real, "/") || wg_path_within(scratch, real))
		goto out;
	for (size_t i = 0; i < *n; i++)
		if (wg_path_within(real, list[i]))
			goto out;
	/* Nor a folder inside it: masked first, it would hide the mount point
	 * of the later mask. */
	for (size_t i = 0; i < *n; )
		if (wg_path_within(list[i], real)) {
			free(list[i]);
			list[i] = list[--*n];
			list[*n] = NULL;
		} else {
			i++;
		}
	list[(*n)++] = real;
	real = NULL;
out:
	free(real);
	return rc;
}

/* The folders of an installed warpgrade, as the Makefile lays them out
 * (PREFIX/bin/grade, PREFIX/libexec/warpgrade, PREFIX/share/warpgrade),
 * found from where this grade runs: the reference is installed there, a
 * free solution for any compiler or program that can read it. */
static const char *const installed[] = { "libexec/warpgrade", "share/warpgrade" };

/* The same secrets in the checkout grade was built from: the reference's
 * sources, the hidden suite, the sample submissions and the build tree
 * (whose bin/ holds the reference beside grade). Where the checkout sits
 * in a folder the compiler sees (/usr/local/src, /etc, /usr/src), a
 * build could include them or .incbin the built reference and exec it.
 * Found twice: from the paths make compiled in (WG_SRCDIR, WG_BUILDDIR;
 * an installed grade whose checkout is still there) and from where this
 * grade runs (a build tree: PREFIX/bin/reference beside PREFIX/bin/grade,
 * the checkout above it, wherever it was moved). */
#ifndef WG_SRCDIR
#define WG_SRCDIR ""
#endif
#ifndef WG_BUILDDIR
#define WG_BUILDDIR ""
#endif
static const char *const checkout[] = { "reference", "hidden-tests", "submissions" };

/* Appends the real path of dir/sub when it is a folder that neither holds
 * nor lies in the scratch tree (a checkout that holds the scratch keeps
 * the secrets visible: TMPDIR elsewhere, as for --hide). */
static int add_if_dir(char **list, size_t *n, const char *dir, const char *sub,
		      const char *scratch)
{
	char *path = NULL, *real;
	struct stat st;
	int rc = 0;

	if (!*dir)
		return 0;
	if (asprintf(&path, "%s/%s", dir, sub) < 0)
		die("out of memory");
	real = realpath(path, NULL);
	if (real && stat(real, &st) == 0 && S_ISDIR(st.st_mode) &&
	    !wg_path_within(scratch, real) && !wg_path_within(real, scratch))
		rc = add_hidden(list, n, real, 1, scratch);
	free(real);
	free(path);
	return rc;
}

static int add_checkout(char **list, size_t *n, const char *src,
			const char *build, const char *scratch)
{
	int rc = add_if_dir(list, n, build, ".", scratch);

	for (size_t i = 0; !rc && *src && i < sizeof(checkout) / sizeof(*checkout); i++)
		rc = add_if_dir(list, n, src, checkout[i], scratch);
	return rc;
}

static int add_installed(char **list, size_t *n, const char *scratch)
{
	char *exe = realpath("/proc/self/exe", NULL), *slash, *ref = NULL;
	int rc = 0;

	/* PREFIX/bin/grade: PREFIX is two levels up. */
	for (int up = 0; exe && up < 2; up++)
		if ((slash = strrchr(exe, '/')))
			*slash = '\0';
	for (size_t i = 0; exe && *exe && !rc && i < sizeof(installed) / sizeof(*installed); i++)
		rc = add_if_dir(list, n, exe, installed[i], scratch);
	if (!rc)
		rc = add_checkout(list, n, WG_SRCDIR, WG_BUILDDIR, scratch);
	/* A build tree: the reference lies beside grade, the checkout above. */
	if (!rc && exe && *exe && asprintf(&ref, "%s/bin/reference", exe) < 0)
		die("out of memory");
	if (!rc && ref && access(ref, F_OK) == 0) {
		char *top = xstrdup(exe);

		if ((slash = strrchr(top, '/')))
			slash[slash == top] = '\0';
		rc = add_checkout(list, n, top, exe, scratch);
		free(top);
	}
	free(ref);
	free(exe);
	return rc;
}

char **guard_hide_list(const char *suite_dir, const struct report_sub *subs,
		       size_t nsubs, const char *const *extra, size_t nextra,
		       const char *scratch)
{
	/* The suite, the submissions, --hide, the installed folders, and a
	 * checkout's build tree and folders found twice; and the NULL. */
	size_t room = 1 + nsubs + nextra + sizeof(installed) / sizeof(*installed) +
		      2 * (1 + sizeof(checkout) / sizeof(*checkout)) + 1;
	char **list = xcalloc(room, sizeof(*list));
	size_t n = 0;
	int rc = add_hidden(list, &n, suite_dir, 1, scratch);

	for (size_t i = 0; i < nsubs && !rc; i++)
		rc = add_hidden(list, &n, subs[i].path, subs[i].is_dir == 1, scratch);
	for (size_t i = 0; i < nextra && !rc; i++)
		rc = add_hidden(list, &n, extra[i], 1, scratch);
	if (!rc)
		rc = add_installed(list, &n, scratch);
	if (rc) {
		guard_free_list(list);
		return NULL;
	}
	return list;
}

void guard_free_list(char **list)
{
	for (size_t i = 0; list && list[i]; i++)
		free(list[i]);
	free(list);
}

int guard_check_suid_dumpable(void)
{
	FILE *f;
	int dumpable;

	if (geteuid() != 0)
		return 0;
	/* The runner switches uid in a vfork child that shares the grader's
	 * memory: with suid_dumpable 1 that child stays traceable by the
	 * slot uid's other processes meanwhile. 0 and 2 are safe. */
	f = fopen("/proc/sys/fs/suid_dumpable", "r");
	dumpable = f ? fgetc(f) : EOF;
	if (f)
		fclose(f);
	if (dumpable == '1')
		return error("fs.suid_dumpable is 1, so a sandboxed program "
			     "could trace the grader; set it to 0 or 2 (sysctl "
			     "fs.suid_dumpable=0)");
	return 0;
}
