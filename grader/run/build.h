#ifndef WG_BUILD_H
#define WG_BUILD_H

/*
 * build: compile a submission directory, or a single .c file.
 *
 * Every *.c and *.h file of the directory (not its subdirectories; for a
 * single file, that file and the .h files beside it) is copied into a
 * fresh build directory, and there the compiler runs,
 * through the runner, under its own limits (CPU, wall clock, address space,
 * processes, file size, and its stdout and stderr together) and, as root,
 * under a slot uid, so that '#include "/etc/shadow"' cannot leak a file the
 * student could not read anyway into the messages:
 *
 *     cc -std=c11 -O2 -o prog ./a.c ./b.c ... -lm      ($CC when set)
 *
 * The .c files are passed in name order, each as "./NAME", so that no name
 * ("-wrapper.c", "-o.c") can be read as an option; a name starting with '@'
 * (gcc's response-file syntax) is refused outright. The program is taken
 * from the build folder only through build_take_program(), which never
 * follows a link.
 *
 * Submission limits (docs/grade.md, "Submission limits"). Whatever a submission
 * holds is its own doing, so a source the grader will not take is a CE with
 * the reason (r->reason, and the log), never an IE: more than
 * BUILD_MAX_SOURCES sources; sources of more than BUILD_MAX_SOURCE_BYTES
 * in all (a sparse file counts its size); a source (a *.c or *.h name)
 * that is not a regular file (a symbolic link, a FIFO, a device, a
 * socket, a folder) or cannot be read; a name with a control character or
 * starting with '@'. Files of other names are never read. BUILD_ERROR is
 * left for the grader's own failures (no compiler, a full scratch disk).
 * Every message that names a file is scrubbed (usage.h).
 *
 * Errors: build_submission cannot fail (the grader's own failure is
 * BUILD_ERROR, the reason in r->log); build_take_program: -1 with r's
 * status, reason and log; build_count_sources: -1 and errno;
 * build_find_compiler: -1 when there is none. Nothing prints or exits.
 */

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define BUILD_MAX_SOURCES 256
#define BUILD_MAX_SOURCE_BYTES ((uint64_t)4 << 20)  /* all sources together */

enum build_status {
	BUILD_OK,            /* dir/prog exists */
	BUILD_FAILED,        /* the compiler said no: CE */
	BUILD_ERROR          /* the grader could not run it: IE */
};

/* The compiler's own limits (DOMjudge caps a compile at 2 GiB too). The
 * address space binds each process (driver, cc1, as, collect2, ld); the
 * process count (RLIMIT_NPROC) only binds under a slot uid (root). */
struct build_limits {
	double cpu_sec, wall_sec;
	uint64_t mem_bytes;      /* RLIMIT_AS of every compiler process */
	long nproc;              /* RLIMIT_NPROC, as root (a slot uid) */
	uint64_t fsize_bytes;    /* RLIMIT_FSIZE: objects, temporaries, prog */
	size_t output_bytes;     /* stdout and stderr together; past it the
	                            compiler is killed at once */
	uint64_t tmp_bytes;      /* its scratch (/tmp, TMPDIR): a tmpfs of
	                            this size in the sandbox's build view */
	struct sandbox_slot *sbx; /* the slot's keeper (sandbox.h): the
	                            compiler runs in the programs' sandbox
	                            (masks, private /tmp, no network, the
	                            cgroup); NULL: spawned by this thread */
};

#define BUILD_DEFAULT_CPU_SECONDS  60.0
#define BUILD_DEFAULT_WALL_SECONDS 120.0
#define BUILD_DEFAULT_MEMORY_MIB   2048L
#define BUILD_DEFAULT_PROCESSES    32L
#define BUILD_DEFAULT_FILE_MIB     64L
#define BUILD_DEFAULT_OUTPUT_KIB   256L
#define BUILD_DEFAULT_TMP_MIB      256L
#define BUILD_STACK_BYTES          ((uint64_t)64 << 20)  /* cc1's recursion */

#define BUILD_LIMITS_INIT { .cpu_sec = BUILD_DEFAULT_CPU_SECONDS, \
	.wall_sec = BUILD_DEFAULT_WALL_SECONDS, \
	.mem_bytes = (uint64_t)BUILD_DEFAULT_MEMORY_MIB << 20, \
	.nproc = BUILD_DEFAULT_PROCESSES, \
	.fsize_bytes = (uint64_t)BUILD_DEFAULT_FILE_MIB << 20, \
	.output_bytes = (size_t)BUILD_DEFAULT_OUTPUT_KIB << 10, \
	.tmp_bytes = (uint64_t)BUILD_DEFAULT_TMP_MIB << 20 }

struct build_result {
	enum build_status status;
	char *log;           /* compiler messages, escaped (malloc'd; may be "") */
	char prog[4096];     /* the program built, when BUILD_OK */
	char reason[160];    /* BUILD_FAILED for a reason of its own (a limit,
	                        a refused name): one line, the CE detail; else "" */
};

/* Number of *.c files directly in src_dir, or -1 with errno set. */
int build_count_sources(const char *src_dir);

/* The bytes an ELF program maps when it loads: the sum of its PT_LOAD
 * segments' sizes in memory (code, data, and zero-filled static arrays).
 * 0 when prog is not a 64-bit ELF file (a script, say) or cannot be read. */
uint64_t build_image_size(const char *prog);

/* Builds src in build_dir (an empty directory writable by uid). src is a
 * directory (every .c file in it), or one .c file (that file alone, with
 * the .h files of its folder). Always fills *r; the caller frees r->log. */
void build_submission(const char *src, const char *build_dir, uid_t uid,
		      gid_t gid, const struct build_limits *lim,
		      struct build_result *r);

/* Takes the program a successful build left in build_dir: "prog" opened
 * with O_NOFOLLOW from the folder's descriptor, and only if it is a
 * regular file with one link, owned by uid (the compiler's; the grader's
 * own uid when uid is (uid_t)-1 or the grader is not root), which a link
 * swapped in after the link step, or a hard link to someone else's file,
 * are not. Copies it to dst (mode 0755, replaced). Returns 0; or -1 with
 * r->status, r->reason and r->log set: BUILD_FAILED when the build left no
 * such file, BUILD_ERROR when the grader could not read or copy it. */
/* The compiler's path: $CC when it holds a '/', else its name (default
 * "cc") searched in $PATH. 0, or -1 when there is none. */
int build_find_compiler(char *out, size_t outlen);

int build_take_program(const char *build_dir, uid_t uid, const char *dst,
		       struct build_result *r);

#endif
