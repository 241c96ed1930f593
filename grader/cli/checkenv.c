/*
 * checkenv: grade --check-env [SUITE_DIR], isolate's check-environment for
 * warpgrade. It builds one slot's sandbox exactly as grade would (a keeper,
 * its namespaces, its cgroup) and prints what it got, what the kernel
 * allows and which slot uids are free. Exit status: 0 when the programs
 * would be masked from the suite (or the suite has no hidden case), 1 when
 * a hidden suite would be graded without mount masking, 2 on a usage or
 * suite error, 3 when the sandbox could not be started at all.
 */
#include "grader/cli/checkenv.h"
#include "grader/cli/secrets.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "grader/lib/strbuf.h"
#include "grader/lib/util.h"
#include "grader/run/readprobe.h"
#include "grader/run/runner.h"
#include "grader/run/sandbox.h"
#include "grader/run/scratch.h"
#include "grader/judge/suite.h"

/* The first line of a /proc/sys file, or "absent". */
static const char *sysctl_value(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	if (!f || !fgets(buf, (int)len, f))
		snprintf(buf, len, "absent");
	buf[strcspn(buf, "\n")] = '\0';
	if (f)
		fclose(f);
	return buf;
}

static int has_cap(int cap)
{
	struct { uint32_t version; int pid; } hdr = { 0x20080522, 0 };
	struct { uint32_t eff, prm, inh; } data[2];

	if (syscall(SYS_capget, &hdr, data) < 0)
		return 0;
	return (data[cap / 32].eff >> (cap % 32)) & 1;
}

static void print_kernel(void)
{
	static const struct { const char *name, *path; } knobs[] = {
		{ "user.max_user_namespaces", "/proc/sys/user/max_user_namespaces" },
		{ "kernel.unprivileged_userns_clone",
		  "/proc/sys/kernel/unprivileged_userns_clone" },
		{ "kernel.apparmor_restrict_unprivileged_userns",
		  "/proc/sys/kernel/apparmor_restrict_unprivileged_userns" },
		{ "fs.suid_dumpable", "/proc/sys/fs/suid_dumpable" },
		/* 1: a grade's first cgroup migration needs no RCU grace
		 * period (cgroup.c; docs/performance.md). */
		{ "/sys/kernel/rcu_expedited", "/sys/kernel/rcu_expedited" },
	};
	struct utsname u;
	char buf[64];

	uname(&u);
	printf("kernel %s; uid %u, CAP_SYS_ADMIN %s, CAP_SYS_RESOURCE %s\n",
	       u.release, (unsigned)geteuid(), has_cap(21) ? "yes" : "no",
	       has_cap(24) ? "yes" : "no");
	for (size_t i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++)
		printf("  %-45s %s\n", knobs[i].name,
		       sysctl_value(knobs[i].path, buf, sizeof(buf)));
}

/* As root: which slot uids another grader holds (scratch.h's locks). */
static void print_uids(void)
{
	const char *dir = scratch_lock_dir();
	int held = 0, shown = 0;

	if (geteuid() != 0) {
		printf("slot uids: none (not root: the programs run as you)\n");
		return;
	}
	printf("free slot uids (locks in %s):", dir ? dir : SCRATCH_LOCK_DIR_ROOT);
	for (int k = 0; k < SCRATCH_UID_RANGE && shown < 8; k++) {
		if (scratch_uid_held(run_slot_uid(k))) {
			held++;
		} else {
			printf(" %u", (unsigned)run_slot_uid(k));
			shown++;
		}
	}
	printf(" ... (%d held by running graders)\n", held);
}

/* The suite (when named) into s; *hidden: whether it has a hidden case
 * (none named: assume so). 0, or -1 reported. */
static int load_suite(const char *dir, struct suite *s, int *hidden)
{
	struct strbuf sb = STRBUF_INIT;

	*hidden = 1;
	if (!dir)
		return 0;
	if (suite_load(s, dir, &sb) < 0) {
		fprintf(stderr, "grade: %s\n", strbuf_str(&sb));
		strbuf_release(&sb);
		return -1;
	}
	strbuf_release(&sb);
	*hidden = suite_hidden_cases(s) > 0;
	return 0;
}

/* Appends p's real path to list unless it is inside one there (or one
 * there is inside it: the keeper masks each path once). */
static void add_mask(char **list, size_t *k, const char *p)
{
	char *real = p ? realpath(p, NULL) : NULL;

	for (size_t j = 0; real && j < *k; j++)
		if (wg_path_within(real, list[j]) || wg_path_within(list[j], real)) {
			free(real);
			return;
		}
	if (real)
		list[(*k)++] = real;
}

/* What grade masks: the suite, the submissions and each --hide, as real
 * paths. NULL when out of memory. */
static char **mask_list(const struct checkenv_opts *o)
{
	const char *const *srcs[] = { o->hide, o->subs };
	size_t n = 2, k = 0;
	char **list;

	for (size_t s = 0; s < 2; s++)
		for (size_t i = 0; srcs[s] && srcs[s][i]; i++)
			n++;
	if (!(list = calloc(n, sizeof(*list))))
		return NULL;
	add_mask(list, &k, o->suite_dir);
	for (size_t s = 0; s < 2; s++)
		for (size_t i = 0; srcs[s] && srcs[s][i]; i++)
			add_mask(list, &k, srcs[s][i]);
	return list;
}

static size_t count_lines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* The read probe, as a program of the slot: its findings, or NULL (said on
 * stdout) when it could not run. */
static char *probe(struct sandbox_slot *slot, struct scratch *sc,
		   const struct suite *s, char **masks)
{
	char **secrets = secrets_list(s, (const char *const *)masks);
	struct strbuf dir = STRBUF_INIT, out = STRBUF_INIT, err = STRBUF_INIT;
	uid_t uid;
	gid_t gid;
	size_t n = 0;
	char *found = NULL;

	scratch_slot_ids(sc, 0, &uid, &gid);
	if (sandbox_private_dirs(slot))
		wg_path_join(&dir, sc->base, "slot-0");
	else
		scratch_fresh_dir(sc, "slot-0", 0, &dir, &err);
	if (secrets && !err.len &&
	    readprobe_run(slot, sc->base, dir.buf, uid, gid,
			  (const char *const *)secrets, &out, &err) == 0)
		found = strbuf_detach(&out, NULL);
	for (size_t i = 0; secrets && secrets[i]; i++)
		n++;
	if (!found)
		printf("read probe: could not run (%s)\n",
		       err.len ? strbuf_str(&err) : "out of memory");
	else
		printf("read probe: a program of the slot could read %zu of the %zu "
		       "paths it tried (hidden cases, suite, submissions, --hide, "
		       "reference)\n", count_lines(found), n);
	secrets_free(secrets);
	strbuf_release(&dir);
	strbuf_release(&out);
	strbuf_release(&err);
	return found;
}

/* The verdict: 0 when no hidden test can leak (or there is none), 1 with
 * each way it may. */
static int verdict(const struct sandbox_layers *l, const char *found, int hidden)
{
	struct strbuf why = STRBUF_INIT;
	int n = sandbox_leaks(l, found, &why), rc;

	if (n < 0) {
		fprintf(stderr, "grade: out of memory\n");
		return 3;
	}
	if (n && hidden)
		printf("hidden tests may leak here:\n");
	else if (n)
		printf("ok: the suite has no hidden case (were there one, it could "
		       "leak:)\n");
	for (const char *p = why.buf; n && p && *p;) {
		size_t len = strcspn(p, "\n");
		printf("  - %.*s\n", (int)len, p);
		p += len + (p[len] == '\n');
	}
	if (!n)
		printf("ok: %s\n", hidden ? "hidden tests stay hidden"
					  : "the suite has no hidden case");
	rc = n && hidden;
	strbuf_release(&why);
	return rc;
}

int checkenv_main(const struct checkenv_opts *o)
{
	struct scratch sc;
	struct suite s = { 0 };
	struct sandbox_slot *slot;
	struct sandbox_layers l;
	struct strbuf table = STRBUF_INIT, err = STRBUF_INIT;
	char **masks = NULL, *found;
	int hidden, rc = 3;

	if (load_suite(o->suite_dir, &s, &hidden) < 0)
		return 2;
	if (!(masks = mask_list(o))) {
		fprintf(stderr, "grade: out of memory\n");
		goto out_suite;
	}
	print_kernel();
	print_uids();
	if (scratch_init(&sc, 1, &err) < 0) {
		fprintf(stderr, "grade: %s\n", strbuf_str(&err));
		goto out_suite;
	}
	struct sandbox_config cfg = { .hide = (const char *const *)masks, .scratch = sc.base,
				      .tmp_bytes = (uint64_t)SUITE_DEFAULT_TMP_MIB << 20,
				      .no_namespaces = sandbox_namespaces_disabled() };
	scratch_slot_ids(&sc, 0, &cfg.uid, &cfg.gid);
	if (sandbox_open(&slot, &cfg, &l, &err) < 0) {
		fprintf(stderr, "grade: %s\n", strbuf_str(&err));
		goto out_scratch;
	}
	printf("sandbox layers:\n");
	if (sandbox_format_layers(&table, &l) < 0) {
		fprintf(stderr, "grade: out of memory\n");
		sandbox_close(slot);
		goto out_scratch;
	}
	fputs(strbuf_str(&table), stdout);
	found = probe(slot, &sc, o->suite_dir ? &s : NULL, masks);
	sandbox_close(slot);
	rc = verdict(&l, found, hidden);
	free(found);
out_scratch:
	scratch_cleanup(&sc);
out_suite:
	secrets_free(masks);
	strbuf_release(&table);
	strbuf_release(&err);
	if (o->suite_dir)
		suite_free(&s);
	return rc;
}
