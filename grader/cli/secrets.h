#ifndef WG_SECRETS_H
#define WG_SECRETS_H
/*
 * secrets: the paths grade and grade --check-env give the read probe
 * (readprobe.h) to try: what no program may read.
 *
 * Errors: secrets_list returns NULL when out of memory.
 */
struct suite;

/* The paths no program may read: every hidden case's input and expected
 * output of s (when s is not NULL), the NULL-terminated extra (the suite,
 * the submissions, --hide folders; may be NULL) and where the reference
 * may be besides the tree grade was built in (the running grade's folder:
 * build/bin/reference; an installed PREFIX/libexec/warpgrade). A
 * NULL-terminated malloc'd array of malloc'd absolute paths, or NULL when
 * out of memory; secrets_free frees it. */
char **secrets_list(const struct suite *s, const char *const *extra);
void secrets_free(char **list);

#endif
