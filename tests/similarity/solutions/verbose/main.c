/* The command interpreter of the coalescing exercise. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warp.h"

static int active_thread_count = WARP_SIZE;

/* Parses a number of the exercise: an optional '-', then decimal digits
 * or 0x and hex digits, below 2^48. Returns 0 on success. */
static int parse_number(const char *s, long long *out)
{
	int neg = 0, base = 10;
	unsigned long long v = 0;

	if (*s == '-') {
		neg = 1;
		s++;
	}
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return -1;
	for (; *s; s++) {
		int d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			return -1;
		v = v * (unsigned)base + (unsigned)d;
		if (v >= (1ULL << 48))
			return -1;
	}
	*out = neg ? -(long long)v : (long long)v;
	return 0;
}

static int parse_all_arguments(char **arguments, int argument_count, long long *values)
{
	int argument_index;

	for (argument_index = 0; argument_index < argument_count; argument_index++) {
		if (parse_number(arguments[argument_index], &values[argument_index]) != 0)
			return 0;
	}
	return 1;
}

static void handle_strided(char **arguments, int argument_count)
{
	long long values[3] = { 0, 0, 4 };
	ByteInterval intervals[WARP_SIZE];
	char label[160];
	int thread_index;

	if (argument_count < 2 || argument_count > 3 ||
	    !parse_all_arguments(arguments, argument_count, values) ||
	    values[0] < 0 || values[1] < 0 || values[2] < 1 || values[2] > 16) {
		printf("error: strided: BASE STRIDE [SIZE 1-16]\n");
		return;
	}
	for (thread_index = 0; thread_index < active_thread_count; thread_index++) {
		intervals[thread_index].begin_byte = values[0] + (unsigned long long)thread_index * values[1] * values[2];
		intervals[thread_index].end_byte = intervals[thread_index].begin_byte + values[2];
	}
	snprintf(label, sizeof label, "strided base=%lld stride=%lld size=%lld",
		 values[0], values[1], values[2]);
	print_global_load(label, intervals, active_thread_count, values[2]);
}

static void handle_array_of_structs(char **arguments, int argument_count)
{
	long long values[3];
	ByteInterval intervals[WARP_SIZE];
	char label[160];
	int thread_index;

	if (argument_count != 3 || !parse_all_arguments(arguments, 3, values) ||
	    values[0] < 1 || values[1] < 0 || values[2] < 1 || values[1] + values[2] > values[0]) {
		printf("error: aos: STRUCT_SIZE FIELD_OFFSET FIELD_SIZE (the field must fit in the struct)\n");
		return;
	}
	for (thread_index = 0; thread_index < active_thread_count; thread_index++) {
		intervals[thread_index].begin_byte = (unsigned long long)thread_index * values[0] + values[1];
		intervals[thread_index].end_byte = intervals[thread_index].begin_byte + values[2];
	}
	snprintf(label, sizeof label, "aos struct=%lld offset=%lld field=%lld", values[0], values[1], values[2]);
	print_global_load(label, intervals, active_thread_count, values[2]);
	/*@split soa_intervals: ByteInterval *intervals, long long *values, int thread_index*/
	for (thread_index = 0; thread_index < active_thread_count; thread_index++) {
		intervals[thread_index].begin_byte = (unsigned long long)thread_index * values[2];
		intervals[thread_index].end_byte = intervals[thread_index].begin_byte + values[2];
	}
	/*@end*/
	snprintf(label, sizeof label, "soa field=%lld", values[2]);
	print_global_load(label, intervals, active_thread_count, values[2]);
}

static void handle_gather(char **arguments, int argument_count)
{
	long long values[1024];
	ByteInterval intervals[WARP_SIZE];
	char label[64];
	int thread_index;

	if (argument_count < 1 || argument_count > 1024 ||
	    !parse_all_arguments(arguments, argument_count, values) ||
	    values[0] < 1 || values[0] > 16) {
		printf("error: gather: SIZE ADDR...\n");
		return;
	}
	if (argument_count - 1 != active_thread_count) {
		printf("error: gather: need %d %s\n", active_thread_count,
		       active_thread_count == 1 ? "address" : "addresses");
		return;
	}
	for (thread_index = 0; thread_index < active_thread_count; thread_index++) {
		if (values[thread_index + 1] < 0) {
			printf("error: gather: addresses must be >= 0\n");
			return;
		}
		intervals[thread_index].begin_byte = values[thread_index + 1];
		intervals[thread_index].end_byte = values[thread_index + 1] + values[0];
	}
	snprintf(label, sizeof label, "gather size=%lld", values[0]);
	print_global_load(label, intervals, active_thread_count, values[0]);
}

static void handle_shared_or_transpose(const char *command, char **arguments, int argument_count)
{
	long long values[2];
	unsigned long long words[WARP_SIZE];
	char label[96];
	int is_transpose = strcmp(command, "transpose") == 0;
	int thread_index;

	if (argument_count != 2 || !parse_all_arguments(arguments, 2, values) ||
	    values[0] < 0 || values[1] < 0 ||
	    (is_transpose && (values[0] < 1 || values[0] > 64 || values[1] > 8))) {
		if (is_transpose)
			printf("error: transpose: TILE PAD (TILE 1-64, PAD 0-8)\n");
		else
			printf("error: shared: BASE_WORD STRIDE_WORDS\n");
		return;
	}
	for (thread_index = 0; thread_index < active_thread_count; thread_index++) {
		if (is_transpose)
			words[thread_index] = (thread_index % values[0]) * (values[0] + values[1]) + thread_index / values[0];
		else
			words[thread_index] = values[0] + (unsigned long long)thread_index * values[1];
	}
	if (is_transpose)
		snprintf(label, sizeof label, "transpose tile=%lld pad=%lld", values[0], values[1]);
	else
		snprintf(label, sizeof label, "shared base=%lld stride=%lld", values[0], values[1]);
	print_shared_load(label, words, active_thread_count);
}

/*@inline*/
static void handle_active(char **arguments, int argument_count)
{
	long long requested_threads;

	if (argument_count != 1 || parse_number(arguments[0], &requested_threads) != 0 ||
	    requested_threads < 1 || requested_threads > WARP_SIZE)
		printf("error: active: 1-32\n");
	else
		active_thread_count = (int)requested_threads;
}

int main(void)
{
	static char input_line[1 << 16];
	char *tokens[1025];

	while (fgets(input_line, sizeof input_line, stdin) != NULL) {
		char *comment_start = strchr(input_line, '#');
		int token_count = 0;
		char *token;

		if (comment_start != NULL)
			*comment_start = '\0';
		token = strtok(input_line, " \t\r\n\v\f");
		while (token != NULL && token_count < 1025) {
			tokens[token_count] = token;
			token_count = token_count + 1;
			token = strtok(NULL, " \t\r\n\v\f");
		}
		if (token_count == 0)
			continue;
		if (strcmp(tokens[0], "active") == 0)
			handle_active(tokens + 1, token_count - 1);
		else if (strcmp(tokens[0], "strided") == 0)
			handle_strided(tokens + 1, token_count - 1);
		else if (strcmp(tokens[0], "aos") == 0)
			handle_array_of_structs(tokens + 1, token_count - 1);
		else if (strcmp(tokens[0], "gather") == 0)
			handle_gather(tokens + 1, token_count - 1);
		else if (strcmp(tokens[0], "shared") == 0 || strcmp(tokens[0], "transpose") == 0)
			handle_shared_or_transpose(tokens[0], tokens + 1, token_count - 1);
		else
			printf("error: unknown command %s\n", tokens[0]);
	}
	return 0;
}
