#ifndef WG_SIM_INT_H
#define WG_SIM_INT_H
/*
 * sim_int: what sim_index.c (a submission added, its details, regions)
 * and sim_compare.c (the class compared) share, and nothing outside them
 * sees. Each function has the prefix sim_int_.
 */
#include <stddef.h>
#include <stdint.h>

struct strbuf;

/* "out of memory" into err: -1. */
int sim_int_oom(struct strbuf *err);
/* qsort's order of two uint64_t. */
int sim_int_cmp_u64(const void *a, const void *b);
/* Whether the sorted set (n values) holds h. */
int sim_int_has(const uint64_t *set, size_t n, uint64_t h);

#endif
