/*
 * sandbox_root: the keeper's two views of the file system (sandbox.h,
 * "mount ns"), made once per slot, and what each needs per use.
 *
 *   build view  the namespace sandbox_setup.c masked (a read-only host
 *               without the suite, the submissions, the --hide folders,
 *               the installed grader and the top level's other folders),
 *               with the minimal /dev, an empty /proc and, per build, a
 *               fresh size- and inode-limited tmpfs at /tmp.
 *   run view    a tmpfs of its own made the root (pivot_root, as
 *               isolate's box): the minimal /dev, the slot's /proc, the
 *               private areas and, copied in on demand, the loader and the
 *               libraries each program links. The keeper lives here.
 *
 * The keeper goes into the build view (setns) only to prepare a build and
 * fork the compiler, and comes straight back: every other process of the
 * slot (the PID namespace's init, the spawner, the programs) is made in
 * the run view.
 */
#include "grader/run/sandbox_int.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "grader/lib/util.h"

#define BUILD_TMP_DEFAULT ((uint64_t)256 << 20)
#define ROOT_OPTS "size=128m,nr_inodes=1024,mode=0755"

/* ---- the minimal /dev ---- */

static const char *const dev_nodes[] = { "null", "zero", "full", "random", "urandom" };
static const struct { const char *name, *to; } dev_links[] = {
	{ "fd", "/proc/self/fd" }, { "stdin", "/proc/self/fd/0" },
	{ "stdout", "/proc/self/fd/1" }, { "stderr", "/proc/self/fd/2" },
};

/* A tmpfs holding the five harmless devices (bound from the host's: no
 * mknod in a user namespace), the /proc links and the mount point of
 * /dev/shm, made at stage (an existing folder) and moved onto /dev.
 * Read-only: under the caller's own uid a program owns its folders. No
 * terminal, no ptmx: nothing there can block a reader. */
static int minimal_dev(const char *stage)
{
	char p[PATH_MAX];
	int fd;

	if (mount("tmpfs", stage, "tmpfs", MS_NOSUID | MS_NOEXEC,
		  "size=16k,nr_inodes=32,mode=0755") < 0)
		return -1;
	for (size_t i = 0; i < sizeof(dev_nodes) / sizeof(*dev_nodes); i++) {
		char host[32];

		snprintf(p, sizeof(p), "%s/%s", stage, dev_nodes[i]);
		snprintf(host, sizeof(host), "/dev/%s", dev_nodes[i]);
		if ((fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666)) < 0)
			goto fail;
		close(fd);
		if (mount(host, p, NULL, MS_BIND, NULL) < 0)
			goto fail;
	}
	for (size_t i = 0; i < sizeof(dev_links) / sizeof(*dev_links); i++) {
		snprintf(p, sizeof(p), "%s/%s", stage, dev_links[i].name);
		if (symlink(dev_links[i].to, p) < 0)
			goto fail;
	}
	snprintf(p, sizeof(p), "%s/shm", stage);
	if (mkdir(p, 01777) < 0 ||
	    mount(NULL, stage, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID |
		  MS_NOEXEC, NULL) < 0 ||
	    mount(stage, "/dev", NULL, MS_MOVE, NULL) < 0)
		goto fail;
	return 0;
fail:
	umount2(stage, MNT_DETACH);
	return -1;
}

/* An empty, read-only tmpfs over path (where it exists). */
static int cover(const char *path, const char *mode)
{
	char opts[64];
	struct stat st;

	if (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode))
		return 0;
	snprintf(opts, sizeof(opts), "size=4k,nr_inodes=8,mode=%s", mode);
	return mount("tmpfs", path, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
		     opts);
}

static int ns_fd(void)
{
	return sbx_proc_open("self/ns/mnt", O_RDONLY | O_CLOEXEC);
}

/* ---- the run view ---- */

static int mkdir_in(const char *root, const char *rel, mode_t mode)
{
	char p[PATH_MAX];

	if ((size_t)snprintf(p, sizeof(p), "%s%s", root, rel) >= sizeof(p)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return sbx_mkdir_p(p, mode);
}

/* The minimal root, built at stage (an existing folder) in a new mount
 * namespace and made the root: /dev and /proc bound from this namespace's
 * (the slot's /proc is mounted over the host's later: in a user namespace
 * a new proc needs a visible one), mount points for the private areas and
 * the scratch folder. The old root goes whole (MNT_DETACH). */
static int minimal_root(struct keeper *k, const char *stage)
{
	char p[PATH_MAX];

	if (mount("tmpfs", stage, "tmpfs", MS_NOSUID | MS_NODEV, ROOT_OPTS) < 0)
		return -1;
	if (mkdir_in(stage, "/dev", 0755) < 0 || mkdir_in(stage, "/proc", 0555) < 0 ||
	    mkdir_in(stage, "/tmp", 01777) < 0 || mkdir_in(stage, "/var/tmp", 01777) < 0 ||
	    mkdir_in(stage, "/.old", 0700) < 0 ||
	    mkdir_in(stage, k->cfg->scratch, 0711) < 0)
		return -1;
	snprintf(p, sizeof(p), "%s/dev", stage);
	if (mount("/dev", p, NULL, MS_BIND | MS_REC, NULL) < 0)
		return -1;
	snprintf(p, sizeof(p), "%s/proc", stage);
	if (mount("/proc", p, NULL, MS_BIND | MS_REC, NULL) < 0)
		return -1;
	if (chdir(stage) < 0 || syscall(SYS_pivot_root, ".", ".old") < 0 ||
	    chdir("/") < 0 || umount2("/.old", MNT_DETACH) < 0 || rmdir("/.old") < 0)
		return -1;
	return mount(NULL, "/", NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID |
		     MS_NODEV, NULL);
}

/* The build view's last cover: no /proc (the compiler needs none, and the
 * host's lists every process); /tmp and /var/tmp get their tmpfs per
 * build. */
static int finish_build_view(struct keeper *k)
{
	if (cover("/proc", "0555") < 0) {
		sbx_note(&k->L, "no build view: cannot cover /proc (%s)", strerror(errno));
		return -1;
	}
	return 0;
}

int sbx_build_views(struct keeper *k)
{
	const char *stage = k->cfg->scratch;   /* covered later in both views */
	int e;

	if ((k->host_root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0 ||
	    minimal_dev(stage) < 0) {
		sbx_note(&k->L, "no minimal /dev (%s)", strerror(errno));
		return -1;
	}
	if ((k->build_ns = ns_fd()) < 0 || unshare(CLONE_NEWNS) < 0 ||
	    (k->run_ns = ns_fd()) < 0) {
		sbx_note(&k->L, "no separate build view (%s)", strerror(errno));
		goto single;
	}
	if (!k->cfg->host_view) {
		if (minimal_root(k, stage) < 0) {
			/* Half made: the namespace is dropped, the build view
			 * (whole) serves both. */
			e = errno;
			sbx_note(&k->L, "no minimal root (%s): programs see the "
				 "read-only host", strerror(e));
			goto back;
		}
		close(k->run_ns);
		if ((k->run_ns = ns_fd()) < 0)
			goto back;
		k->L.minimal_root = 1;
	} else {
		sbx_note(&k->L, "no minimal root: a program is not an ELF "
			 "executable (a script needs the host's /bin)");
	}
	if (setns(k->build_ns, CLONE_NEWNS) < 0)
		_exit(1);   /* in neither view: no run may start */
	if (finish_build_view(k) == 0)
		k->L.build_view = 1;
	if (setns(k->run_ns, CLONE_NEWNS) < 0)
		_exit(1);
	if (!k->L.build_view) {
		close(k->build_ns);
		k->build_ns = -1;
	}
	return 0;
back:
	if (setns(k->build_ns, CLONE_NEWNS) < 0)
		_exit(1);
single:
	if (k->run_ns >= 0)
		close(k->run_ns);
	if (k->build_ns >= 0)
		close(k->build_ns);
	k->run_ns = k->build_ns = -1;
	return -1;
}

/* ---- copies ---- */

int sbx_copy_fd(int in, const char *path)
{
	struct stat st;
	off_t off = 0;
	int out;

	if (fstat(in, &st) < 0)
		return -1;
	unlink(path);
	if ((out = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			0755)) < 0)
		return -1;
	while (off < st.st_size) {
		ssize_t n = sendfile(out, in, &off, (size_t)(st.st_size - off));

		if (n <= 0) {
			int e = n < 0 ? errno : EIO;

			close(out);
			unlink(path);
			errno = e;
			return -1;
		}
	}
	if (fchmod(out, 0755) < 0 || close(out) < 0)
		return -1;
	return 0;
}

/* ---- the libraries a program links ---- */

/* The loader's own folders (ld.so --help, "system search path"), in its
 * order: without /etc/ld.so.cache (not in the root) it looks there. */
static const char *const lib_dirs[] = {
	"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64",
	"/lib", "/usr/lib",
};

struct elf_deps {
	char interp[LIB_PATH];
	char needed[16][LIB_PATH];
	int n;
	char runpath[1024];
};

/* The file offset of virtual address va: the PT_LOAD holding it. */
static int va_to_off(const Elf64_Phdr *ph, int n, uint64_t va, uint64_t *off)
{
	for (int i = 0; i < n; i++)
		if (ph[i].p_type == PT_LOAD && va >= ph[i].p_vaddr &&
		    va - ph[i].p_vaddr < ph[i].p_filesz) {
			*off = ph[i].p_offset + (va - ph[i].p_vaddr);
			return 0;
		}
	return -1;
}

static void read_str(int fd, uint64_t off, char *out, size_t len)
{
	ssize_t n = pread(fd, out, len - 1, (off_t)off);

	out[n > 0 ? n : 0] = '\0';
	out[strnlen(out, len - 1)] = '\0';
}

/* PT_INTERP, DT_NEEDED and DT_RUNPATH (or DT_RPATH) of a 64-bit ELF file.
 * 0 (a static program: none), or -1 (not such a file: nothing to add). */
static int elf_deps(int fd, struct elf_deps *d)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph[64];
	Elf64_Dyn dyn[256];
	uint64_t strtab = 0, stroff, names[16], rp = 0;
	int np, nd = 0, nn = 0, has_rp = 0;
	ssize_t r;

	memset(d, 0, sizeof(*d));
	if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(Elf64_Phdr))
		return -1;
	np = eh.e_phnum < 64 ? eh.e_phnum : 64;
	if (pread(fd, ph, np * sizeof(*ph), (off_t)eh.e_phoff) != (ssize_t)(np * sizeof(*ph)))
		return -1;
	for (int i = 0; i < np; i++) {
		if (ph[i].p_type == PT_INTERP)
			read_str(fd, ph[i].p_offset, d->interp, sizeof(d->interp));
		if (ph[i].p_type == PT_DYNAMIC) {
			size_t sz = ph[i].p_filesz < sizeof(dyn) ? ph[i].p_filesz : sizeof(dyn);

			r = pread(fd, dyn, sz, (off_t)ph[i].p_offset);
			nd = r > 0 ? (int)(r / sizeof(*dyn)) : 0;
		}
	}
	for (int i = 0; i < nd && dyn[i].d_tag != DT_NULL; i++) {
		if (dyn[i].d_tag == DT_STRTAB)
			strtab = dyn[i].d_un.d_ptr;
		else if (dyn[i].d_tag == DT_NEEDED && nn < 16)
			names[nn++] = dyn[i].d_un.d_val;
		else if (dyn[i].d_tag == DT_RUNPATH || (dyn[i].d_tag == DT_RPATH && !has_rp)) {
			rp = dyn[i].d_un.d_val;
			has_rp = 1;
		}
	}
	if (!nn)
		return 0;
	if (va_to_off(ph, np, strtab, &stroff) < 0)
		return -1;
	for (int i = 0; i < nn; i++)
		read_str(fd, stroff + names[i], d->needed[d->n++], LIB_PATH);
	if (has_rp)
		read_str(fd, stroff + rp, d->runpath, sizeof(d->runpath));
	return 0;
}

/* Opens path in the build view's tree, absolute links resolved there, not
 * in the minimal root: openat2's RESOLVE_IN_ROOT; before Linux 5.6, a
 * final absolute link (/lib64/ld-linux-x86-64.so.2) is followed by hand
 * (an absolute link within the path fails: nothing is found, never
 * anything outside). */
static int host_open(const struct keeper *k, const char *path)
{
	struct open_how how = { .flags = O_RDONLY | O_CLOEXEC, .resolve = RESOLVE_IN_ROOT };
	char cur[LIB_PATH], link[LIB_PATH];
	int fd = (int)syscall(SYS_openat2, k->host_root, path, &how, sizeof(how));

	if (fd >= 0 || errno != ENOSYS)
		return fd;
	snprintf(cur, sizeof(cur), "%s", path);
	for (int hops = 0; hops < 8; hops++) {
		ssize_t n;

		fd = openat(k->host_root, cur + (cur[0] == '/'),
			    O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		if (fd >= 0 || errno != ELOOP)
			return fd;
		n = readlinkat(k->host_root, cur + (cur[0] == '/'), link, sizeof(link) - 1);
		if (n <= 0)
			return -1;
		link[n] = '\0';
		if (link[0] == '/') {
			snprintf(cur, sizeof(cur), "%s", link);
		} else {
			char *slash = strrchr(cur, '/');

			if (!slash || (size_t)(slash - cur) + 1 + (size_t)n >= sizeof(cur))
				return -1;
			memcpy(slash + 1, link, (size_t)n + 1);
		}
	}
	errno = ELOOP;
	return -1;
}

static int have_lib(const struct keeper *k, const char *path)
{
	for (int i = 0; i < k->nlibs; i++)
		if (!strcmp(k->libs[i], path))
			return 1;
	return 0;
}

static int add_lib(struct keeper *k, const char *path, int depth);

/* The minimal root is writable only while libraries are copied in: made
 * so by the first copy of a program's, read-only again once all are in
 * (one window per program, not one per library: two remounts less each). */
static int root_writable(struct keeper *k)
{
	if (k->root_rw)
		return 0;
	if (mount(NULL, "/", NULL, MS_REMOUNT | MS_BIND | MS_NOSUID | MS_NODEV, NULL) < 0)
		return -1;
	k->root_rw = 1;
	return 0;
}

static int root_read_only(struct keeper *k)
{
	if (!k->root_rw)
		return 0;
	if (mount(NULL, "/", NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV,
		  NULL) < 0)
		return -1;
	k->root_rw = 0;
	return 0;
}

/* Copies path of the host (open at fd) to the same path in the root, then
 * what it links. */
static int copy_lib(struct keeper *k, const char *path, int fd, int depth)
{
	struct elf_deps d;
	char dir[LIB_PATH], *slash;
	int rc;

	if (k->nlibs == MAX_LIBS) {
		errno = E2BIG;
		return -1;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	if (!(slash = strrchr(dir, '/')))
		return -1;
	*slash = '\0';
	if (root_writable(k) < 0)
		return -1;
	rc = (dir[0] ? sbx_mkdir_p(dir, 0755) : 0) < 0 ? -1 : sbx_copy_fd(fd, path);
	if (rc < 0)
		return -1;
	snprintf(k->libs[k->nlibs++], LIB_PATH, "%s", path);
	if (elf_deps(fd, &d) < 0)
		return 0;
	for (int i = 0; i < d.n; i++)
		if (add_lib(k, d.needed[i], depth + 1) < 0)
			return -1;
	return 0;
}

/* Finds name as the loader would (a path; else the RUNPATH's absolute
 * folders, then the system folders) and copies it in. */
static int add_lib(struct keeper *k, const char *name, int depth)
{
	char path[LIB_PATH];
	int fd = -1;

	if (depth > 16) {
		errno = ELOOP;
		return -1;
	}
	/* libc needs the loader by its name: the loader, already there at
	 * its PT_INTERP path, answers to it itself. */
	if (k->nlibs && !strchr(name, '/')) {
		const char *base = strrchr(k->libs[0], '/');

		if (base && !strcmp(base + 1, name))
			return 0;
	}
	if (strchr(name, '/')) {
		snprintf(path, sizeof(path), "%s", name);
		if (have_lib(k, path))
			return 0;
		fd = host_open(k, path);
	}
	for (size_t i = 0; fd < 0 && !strchr(name, '/') &&
	     i < sizeof(lib_dirs) / sizeof(*lib_dirs); i++) {
		snprintf(path, sizeof(path), "%s/%s", lib_dirs[i], name);
		if (have_lib(k, path))
			return 0;
		fd = host_open(k, path);
	}
	if (fd < 0) {
		errno = ENOENT;
		return -1;
	}
	int rc = copy_lib(k, path, fd, depth);
	int e = errno;

	close(fd);
	errno = e;
	return rc;
}

static int root_libraries(struct keeper *k, int fd);

int sbx_root_libraries(struct keeper *k, int fd)
{
	int rc = root_libraries(k, fd);
	int e = errno;

	/* Read-only again on every way out: a run never finds it writable. */
	if (root_read_only(k) < 0)
		return -1;
	errno = e;
	return rc;
}

static int root_libraries(struct keeper *k, int fd)
{
	struct elf_deps d;

	if (!k->L.minimal_root || elf_deps(fd, &d) < 0)
		return 0;
	if (d.interp[0] && add_lib(k, d.interp, 0) < 0)
		return -1;
	/* RUNPATH folders first, as the loader looks (absolute ones only). */
	for (int i = 0; i < d.n; i++) {
		char *save = NULL, rp[sizeof(d.runpath)];
		int done = 0;

		snprintf(rp, sizeof(rp), "%s", d.runpath);
		for (char *dir = strtok_r(rp, ":", &save); dir && !done;
		     dir = strtok_r(NULL, ":", &save)) {
			char path[LIB_PATH];
			int lfd;

			if (dir[0] != '/' || strchr(d.needed[i], '/'))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, d.needed[i]);
			if (have_lib(k, path)) {
				done = 1;
				continue;
			}
			if ((lfd = host_open(k, path)) >= 0) {
				int rc = copy_lib(k, path, lfd, 1);

				close(lfd);
				if (rc < 0)
					return -1;
				done = 1;
			}
		}
		if (!done && add_lib(k, d.needed[i], 1) < 0)
			return -1;
	}
	return 0;
}

/* ---- a build ---- */

/* The compiler where it lies in the scratch tree (a $CC grade copied
 * there), alone and read-only. */
static int bind_compiler(struct keeper *k, const char *path)
{
	const char *scratch = k->cfg->scratch;
	char dir[PATH_MAX], *slash;
	int fd;

	if (!wg_path_within(path, scratch) || !strcmp(path, scratch))
		return 0;
	snprintf(dir, sizeof(dir), "%s", path);
	if (!(slash = strrchr(dir, '/')))
		return 0;
	*slash = '\0';
	if (sbx_mkdir_p(dir, 0711) < 0 ||
	    (fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0755)) < 0)
		return -1;
	close(fd);
	return sbx_bind_from_base(k, path + strlen(scratch) + 1, path) < 0 ||
	       mount(NULL, path, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID |
		     MS_NODEV, NULL) < 0 ? -1 : 0;
}

/* A fresh /tmp, also bound at /var/tmp (one size limit for both; the old
 * ones and all below them, the last build's folder included, detached),
 * the scratch folder an empty read-only tmpfs in it or in its place, the
 * build folder bound read-write. */
static int build_mounts(struct keeper *k, const char *path, const char *dir)
{
	const char *scratch = k->cfg->scratch;
	uint64_t size = k->cfg->build_tmp_bytes ? k->cfg->build_tmp_bytes
						 : BUILD_TMP_DEFAULT;
	char opts[128];

	struct stat st;

	if (k->build_tmp) {
		umount2(scratch, MNT_DETACH);
		if (k->build_tmp > 1)
			umount2("/var/tmp", MNT_DETACH);
		umount2("/tmp", MNT_DETACH);
		k->build_tmp = 0;
	}
	snprintf(opts, sizeof(opts), "size=%llu,nr_inodes=%d,mode=1777",
		 (unsigned long long)size, TMP_INODES);
	if (mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOATIME, opts) < 0)
		return -1;
	k->build_tmp = 1;
	if (lstat("/var/tmp", &st) == 0 && S_ISDIR(st.st_mode)) {
		if (mount("/tmp", "/var/tmp", NULL, MS_BIND, NULL) < 0)
			return -1;
		k->build_tmp = 2;
	}
	if (sbx_mkdir_p(scratch, 0711) < 0 ||
	    mount("tmpfs", scratch, "tmpfs", MS_NOSUID | MS_NODEV,
		  "size=64k,nr_inodes=64,mode=0711") < 0)
		return -1;
	if (!wg_path_within(dir, scratch) || !strcmp(dir, scratch)) {
		errno = EINVAL;
		return -1;
	}
	if (sbx_mkdir_p(dir, 0700) < 0 ||
	    sbx_bind_from_base(k, dir + strlen(scratch) + 1, dir) < 0 ||
	    mount(NULL, dir, NULL, MS_REMOUNT | MS_BIND | MS_NOSUID | MS_NODEV, NULL) < 0 ||
	    bind_compiler(k, path) < 0)
		return -1;
	return mount(NULL, scratch, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID |
		     MS_NODEV, NULL);
}

int sbx_enter_build(struct keeper *k, const char *path, const char *dir)
{
	int e;

	if (setns(k->build_ns, CLONE_NEWNS) < 0)
		return -1;
	if (build_mounts(k, path, dir) == 0)
		return 0;
	e = errno;
	if (sbx_leave_build(k) < 0)
		_exit(1);
	errno = e;
	return -1;
}

int sbx_leave_build(struct keeper *k)
{
	return setns(k->run_ns, CLONE_NEWNS);
}
