/*
 * readprobe: a program of the slot that tries to read the grader's
 * secrets (see readprobe.h).
 */
#include "grader/run/readprobe.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grader/lib/strbuf.h"
#include "grader/lib/util.h"
#include "grader/run/runner.h"
#include "grader/run/scratch.h"

/* ---- the probe (a program of the slot) ---- */

/* 1 when one byte of the file at dfd/name can be read. */
static int readable_at(int dfd, const char *name)
{
	char c;
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	int ok = fd >= 0 && read(fd, &c, 1) >= 0;

	if (fd >= 0)
		close(fd);
	return ok;
}

/* Depth first below the folder open at fd (path: its name, for the
 * answer); *tries counts down. 1 with found set at the first readable
 * file. Closes fd. */
static int walk(int fd, const char *path, int *tries, struct strbuf *found)
{
	DIR *d = fdopendir(fd);
	struct dirent *e;
	int hit = 0;

	if (!d) {
		close(fd);
		return 0;
	}
	while (!hit && *tries > 0 && (e = readdir(d))) {
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		--*tries;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (S_ISREG(st.st_mode) && readable_at(dirfd(d), e->d_name)) {
			strbuf_addf(found, "%s/%s", path, e->d_name);
			hit = 1;
		} else if (S_ISDIR(st.st_mode)) {
			int sub = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY |
					 O_NOFOLLOW | O_CLOEXEC);
			struct strbuf p = STRBUF_INIT;

			strbuf_addf(&p, "%s/%s", path, e->d_name);
			if (sub >= 0)
				hit = walk(sub, strbuf_str(&p), tries, found);
			strbuf_release(&p);
		}
	}
	closedir(d);
	return hit;
}

static void probe_one(const char *path)
{
	struct strbuf found = STRBUF_INIT;
	int tries = READPROBE_TRIES;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;

	if (fd < 0 || fstat(fd, &st) < 0) {
		if (fd >= 0)
			close(fd);
		return;
	}
	if (S_ISDIR(st.st_mode)) {
		walk(fd, path, &tries, &found);
	} else {
		char c;
		if (read(fd, &c, 1) >= 0)
			strbuf_addstr(&found, path);
		close(fd);
	}
	if (found.len)
		printf("%s\t%s\n", path, strbuf_str(&found));
	strbuf_release(&found);
}

int readprobe_main(void)
{
	char line[PATH_MAX + 2];

	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '/')
			probe_one(line);
	}
	fflush(stdout);
	return 0;
}

/* ---- grade's side ---- */

int readprobe_run(struct sandbox_slot *slot, const char *scratch, const char *dir,
		  uid_t uid, gid_t gid, const char *const *paths,
		  struct strbuf *out, struct strbuf *err)
{
	struct strbuf prog = STRBUF_INIT, in = STRBUF_INIT;
	struct run_child c = RUN_CHILD_INIT;
	const char *argv[3] = { NULL, "--probe-read", NULL };
	int rc = -1;

	for (size_t i = 0; paths[i]; i++)
		strbuf_addf(&in, "%s\n", paths[i]);
	wg_path_join(&prog, scratch, "bin/probe");
	if (strbuf_failed(&prog) || strbuf_failed(&in)) {
		strbuf_addstr(err, "out of memory");
		goto out;
	}
	if (scratch_copy_file("/proc/self/exe", prog.buf, 0755, 0) < 0) {
		strbuf_addf(err, "cannot copy the read probe to '%s': %s", prog.buf,
			    strerror(errno));
		goto out;
	}
	argv[0] = prog.buf;
	c.argv = argv;
	c.dir = dir;
	c.input = in.buf;
	c.input_len = in.len;
	c.uid = uid;
	c.gid = gid;
	c.sbx = slot;
	c.lim = (struct run_limits){ .cpu_sec = 5, .wall_sec = 10,
				     .mem_bytes = (uint64_t)512 << 20,
				     .stack_bytes = (uint64_t)8 << 20,
				     .output_bytes = (uint64_t)1 << 20, .nproc = 1 };
	if (run_command(&c) < 0) {
		strbuf_addf(err, "cannot run the read probe: %s", c.res.error);
	} else if (c.res.status != RUN_EXITED || c.res.exit_code != 0) {
		strbuf_addf(err, "the read probe failed (%s %d): %.200s",
			    c.res.status == RUN_EXITED ? "exit" : "signal",
			    c.res.status == RUN_EXITED ? c.res.exit_code : c.res.term_signal,
			    c.res.err ? c.res.err : "");
	} else {
		strbuf_add(out, c.res.out, c.res.out_len);
		rc = 0;
	}
	run_child_release(&c);
	unlink(prog.buf);
out:
	strbuf_release(&prog);
	strbuf_release(&in);
	return rc;
}

