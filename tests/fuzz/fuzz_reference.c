/*
 * libFuzzer target for the reference's line processor: the input is split
 * at '\n' exactly as the program does and every line goes through
 * cmd_line(). ASan and UBSan (built in by `make fuzz`) turn any overflow,
 * out-of-bounds access or undefined arithmetic into a crash.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "reference/cmd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cmd_state st;
	const char *p = (const char *)data, *end = p + size;

	cmd_init(&st);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		if (cmd_line(&st, p, len) < 0)
			__builtin_trap();
		st.out.len = 0;   /* the output is not checked, only produced */
		p += len + (nl != NULL);
	}
	cmd_free(&st);
	return 0;
}
