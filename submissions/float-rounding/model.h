#ifndef MODEL_H
#define MODEL_H

/*
 * model: the exercise's access model, free of any I/O.
 *
 * Global memory moves 32-byte sectors grouped in 128-byte lines; shared
 * memory has 32 banks of 4-byte words. Everything here is exact unsigned
 * 64-bit integer arithmetic. The callers keep every byte address below 2^60
 * (inputs are below 2^48, thread indices below 32, sizes below 2^48), so
 * ends of ranges never wrap.
 */

#include <stddef.h>
#include <stdint.h>

#define MODEL_WARP 32
#define MODEL_SECTOR 32
#define MODEL_LINE 128
#define MODEL_SECTOR_SHIFT 5     /* log2(MODEL_SECTOR) */
#define MODEL_LINE_SHIFT 7       /* log2(MODEL_LINE) */
#define MODEL_BANKS 32

/* A byte range [start, start + len), len >= 1. */
struct model_range {
	uint64_t start, len;
};

struct model_coverage {
	uint64_t sectors, lines;
};

/*
 * The number of distinct sectors (byte / 32) and lines (byte / 128) covered
 * by the union of the n ranges, counted by merging intervals, never by
 * walking bytes. Sorts r by start (in place). n <= MODEL_WARP.
 */
struct model_coverage model_cover(struct model_range *r, size_t n);

/*
 * Efficiency 100 * requested / moved in tenths of a percent, rounded half
 * up, by long division so no intermediate passes 2^64 (1000 * requested
 * can). 0 < moved < 2^60; requested / moved < 2^50.
 */
uint64_t model_efficiency_tenths(uint64_t requested, uint64_t moved);

struct model_banks {
	unsigned passes;   /* the largest count of distinct words in a bank */
	unsigned bank;     /* the lowest-numbered bank with that count */
};

/* Bank conflicts for n word indices (n <= MODEL_WARP). */
struct model_banks model_bank_conflicts(const uint64_t *words, size_t n);

#endif
