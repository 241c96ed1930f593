#ifndef WG_BUILD_H
#define WG_BUILD_H

/*
 * build: compile a submission directory, or a single .c file.
 *
 * Every regular *.c and *.h file of the directory (not its subdirectories;
 * for a single file, that file and the .h files beside it) is copied
 * into a fresh build directory, and there the compiler runs,
 * through the runner, under its own limits (CPU, wall clock, output) and,
 * as root, under a slot uid, so that '#include "/etc/shadow"' cannot leak
 * a file the student could not read anyway into the messages:
 *
 *     cc -std=c11 -O2 -o prog a.c b.c ... -lm      ($CC when set)
 *
 * The .c files are passed in name order.
 */

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum build_status {
	BUILD_OK,            /* dir/prog exists */
	BUILD_FAILED,        /* the compiler said no: CE */
	BUILD_ERROR          /* the grader could not run it: IE */
};

struct build_limits {
	double cpu_sec, wall_sec;
	size_t output_bytes;
	int mnt_ns;              /* run_mask_ns(), or -1 (runner.h) */
};

#define BUILD_LIMITS_INIT { .cpu_sec = 60, .wall_sec = 120, \
	.output_bytes = 256 * 1024, .mnt_ns = -1 }

struct build_result {
	enum build_status status;
	char *log;           /* compiler messages, escaped (malloc'd; may be "") */
	char prog[4096];     /* the program built, when BUILD_OK */
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

#endif
