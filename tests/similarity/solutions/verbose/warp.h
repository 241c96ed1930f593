#ifndef WARP_H
#define WARP_H

#define WARP_SIZE 32
#define SECTOR_BYTES 32
#define LINE_BYTES 128
#define BANK_COUNT 32

typedef struct {
	unsigned long long begin_byte;
	unsigned long long end_byte;
} ByteInterval;

unsigned long long count_touched_units(const ByteInterval *intervals,
				       int interval_count,
				       unsigned long long unit_bytes);
void print_global_load(const char *label, const ByteInterval *intervals,
		       int thread_count, unsigned long long bytes_per_thread);
void print_shared_load(const char *label, const unsigned long long *words,
		       int thread_count);

#endif
