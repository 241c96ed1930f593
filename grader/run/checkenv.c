/*
 * checkenv: grade --check-env [SUITE_DIR], isolate's check-environment for
 * warpgrade. It builds one slot's sandbox exactly as grade would (a keeper,
 * its namespaces, its cgroup) and prints what it got, what the kernel
 * allows and which slot uids are free. Exit status: 0 when the programs
 * would be masked from the suite (or the suite has no hidden case), 1 when
 * a hidden suite would be graded without mount masking, 2 on a usage or
 * suite error, 3 when the sandbox could not be started at all.
 */
#include "grader/run/checkenv.h"

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

static int suite_hidden(const char *dir, int *hidden)
{
	struct suite s = { 0 };
	struct strbuf sb = STRBUF_INIT;

	*hidden = 1;            /* no suite named: assume the worst */
	if (!dir)
		return 0;

	if (suite_load(&s, dir, &sb) < 0) {
		fprintf(stderr, "grade: %s\n", strbuf_str(&sb));
		strbuf_release(&sb);
		return -1;
	}
	strbuf_release(&sb);
	*hidden = 0;
	for (size_t i = 0; i < s.ncases; i++)
		*hidden |= s.cases[i].hidden;
	suite_free(&s);
	return 0;
}

int checkenv_main(const char *suite_dir)
{
	struct scratch sc;
	struct sandbox_slot *slot;
	struct sandbox_layers l;
	struct strbuf table = STRBUF_INIT, err = STRBUF_INIT;
	char *real = NULL;
	const char *hide[2] = { NULL, NULL };
	int hidden, rc, oom;

	if (suite_hidden(suite_dir, &hidden) < 0)
		return 2;
	if (suite_dir && (real = realpath(suite_dir, NULL)))
		hide[0] = real;
	print_kernel();
	print_uids();
	if (scratch_init(&sc, 1, &err) < 0) {
		fprintf(stderr, "grade: %s\n", strbuf_str(&err));
		strbuf_release(&err);
		free(real);
		return 3;
	}
	struct sandbox_config cfg = { .hide = hide, .scratch = sc.base,
				      .tmp_bytes = (uint64_t)SUITE_DEFAULT_TMP_MIB << 20,
				      .no_namespaces = sandbox_namespaces_disabled() };
	scratch_slot_ids(&sc, 0, &cfg.uid, &cfg.gid);
	if (sandbox_open(&slot, &cfg, &l, &err) < 0) {
		fprintf(stderr, "grade: %s\n", strbuf_str(&err));
		strbuf_release(&err);
		scratch_cleanup(&sc);
		free(real);
		return 3;
	}
	printf("sandbox layers:\n");
	oom = sandbox_format_layers(&table, &l) < 0;
	fputs(strbuf_str(&table), stdout);
	strbuf_release(&table);
	sandbox_close(slot);
	scratch_cleanup(&sc);
	free(real);
	if (oom) {
		fprintf(stderr, "grade: out of memory\n");
		return 3;
	}
	rc = hidden && !l.mount_ns;
	if (rc)
		printf("NOT SAFE for hidden tests: the programs could read the "
		       "expected outputs (no mount namespace)\n");
	else
		printf("ok: %s\n", hidden ? "hidden tests stay hidden"
					  : "the suite has no hidden case");
	return rc;
}
