#ifndef WG_SIM_SOURCE_H
#define WG_SIM_SOURCE_H
/*
 * sim_source: a submission's source files as similarity reads them.
 *
 * A submission is the .c and .h files directly in one folder (the folder
 * batch grades: batch_find_sources), in byte order of their names; a
 * base file is one file. Each text is made valid UTF-8 as it is read
 * (every byte that is not part of a valid sequence becomes U+FFFD), so
 * the text stored for a merge (sim_report.h) tokenizes exactly as the
 * file did and can go into JSON and the page as it is.
 *
 * Lifecycle: sim_source_load_dir / sim_source_load_file fill a zeroed
 * struct sim_source (or append one file); sim_source_release frees it.
 * Errors: -1 with the reason in err ('cannot read 'PATH': ...', a file
 * past SIM_SOURCE_MAX, out of memory); what was loaded stays, to release.
 */
#include <stddef.h>

struct strbuf;

#define SIM_SOURCE_MAX (4u << 20)   /* bytes of one file */
#define SIM_SOURCE_FILES 256        /* files of one submission */

struct sim_file {
	char *name;          /* the file's name (no folder), valid UTF-8 */
	char *text;          /* valid UTF-8, NUL-terminated */
	size_t len;
};

struct sim_source {
	struct sim_file *files;
	size_t n;
};

int sim_source_load_dir(struct sim_source *s, const char *dir, struct strbuf *err);
/* Appends the file at path, named name. */
int sim_source_load_file(struct sim_source *s, const char *path,
			 const char *name, struct strbuf *err);
/* Appends a file from memory (a merge's stored text: made valid UTF-8
 * again, it may have been edited). */
int sim_source_add(struct sim_source *s, const char *name, const char *text,
		   size_t len, struct strbuf *err);
void sim_source_release(struct sim_source *s);

#endif
