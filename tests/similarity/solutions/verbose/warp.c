/* Counting what a warp's loads touch. */
#include "warp.h"

#include <stdio.h>
#include <stdlib.h>

static int compare_unit_intervals(const void *left, const void *right)
{
	const ByteInterval *first_interval = left;
	const ByteInterval *second_interval = right;

	if (first_interval->begin_byte < second_interval->begin_byte)
		return -1;
	if (first_interval->begin_byte > second_interval->begin_byte)
		return 1;
	return 0;
}

unsigned long long count_touched_units(const ByteInterval *intervals,
				       int interval_count,
				       unsigned long long unit_bytes)
{
	ByteInterval units[WARP_SIZE];
	unsigned long long touched_units = 0;
	unsigned long long covered_until = 0;
	int index;

	for (index = 0; index < interval_count; index++) {
		units[index].begin_byte = intervals[index].begin_byte / unit_bytes;
		units[index].end_byte = (intervals[index].end_byte - 1) / unit_bytes + 1;
	}
	qsort(units, (size_t)interval_count, sizeof(ByteInterval), compare_unit_intervals);
	index = 0;
	while (index < interval_count) {
		unsigned long long start_unit = units[index].begin_byte;

		if (start_unit < covered_until)
			start_unit = covered_until;
		if (units[index].end_byte > start_unit) {
			touched_units += units[index].end_byte - start_unit;
			covered_until = units[index].end_byte;
		}
		index++;
	}
	return touched_units;
}

static const char *choose_word(unsigned long long amount, const char *singular,
			       const char *plural)
{
	if (amount == 1)
		return singular;
	return plural;
}

void print_global_load(const char *label, const ByteInterval *intervals,
		       int thread_count, unsigned long long bytes_per_thread)
{
	unsigned long long sector_count = count_touched_units(intervals, thread_count, SECTOR_BYTES);
	unsigned long long line_count = count_touched_units(intervals, thread_count, LINE_BYTES);
	unsigned long long requested_bytes = (unsigned long long)thread_count * bytes_per_thread;
	unsigned long long moved_bytes = sector_count * SECTOR_BYTES;
	unsigned long long efficiency_tenths = requested_bytes * 1000 / moved_bytes;
	unsigned long long remainder = requested_bytes * 1000 % moved_bytes;

	if (remainder * 2 >= moved_bytes)
		efficiency_tenths = efficiency_tenths + 1;
	printf("%s: %d %s, ", label, thread_count, choose_word(thread_count, "thread", "threads"));
	printf("%llu %s, ", sector_count, choose_word(sector_count, "sector", "sectors"));
	printf("%llu %s, ", line_count, choose_word(line_count, "line", "lines"));
	printf("requested %llu B, moved %llu B, ", requested_bytes, moved_bytes);
	printf("efficiency %llu.%llu%%\n", efficiency_tenths / 10, efficiency_tenths % 10);
}

void print_shared_load(const char *label, const unsigned long long *words,
		       int thread_count)
{
	int words_in_bank[BANK_COUNT] = { 0 };
	int worst_bank = 0;
	int thread_index;
	int bank_index;

	for (thread_index = 0; thread_index < thread_count; thread_index++) {
		int earlier_index;
		int already_counted = 0;

		for (earlier_index = 0; earlier_index < thread_index; earlier_index++) {
			if (words[earlier_index] == words[thread_index]) {
				already_counted = 1;
				break;
			}
		}
		if (!already_counted)
			words_in_bank[words[thread_index] % BANK_COUNT] += 1;
	}
	for (bank_index = 1; bank_index < BANK_COUNT; bank_index++) {
		if (words_in_bank[bank_index] > words_in_bank[worst_bank])
			worst_bank = bank_index;
	}
	printf("%s: %d %s, ", label, thread_count, choose_word(thread_count, "thread", "threads"));
	if (words_in_bank[worst_bank] <= 1) {
		printf("1 pass, no conflict\n");
	} else {
		printf("%d passes, %d-way conflict on bank %d\n", words_in_bank[worst_bank],
		       words_in_bank[worst_bank], worst_bank);
	}
}
