/*
 * Runner test helper: write argv[2] bytes (at most 64 MiB) to stdout
 * ("out") or stderr ("err"), then exit 0. The bytes are lines of
 * "0123456789abcdef...\n" (64 bytes each); the last 4 bytes are "END\n".
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static char buf[65536];
	int fd = argc > 1 && !strcmp(argv[1], "err") ? 2 : 1;
	long total = argc > 2 ? atol(argv[2]) : 1 << 20, done = 0;

	if (total > 64L << 20)
		total = 64L << 20;
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = i % 64 == 63 ? '\n' : "0123456789abcdef"[i % 16];
	while (done < total) {
		long n = total - done;
		ssize_t w;

		if (n > (long)sizeof(buf))
			n = sizeof(buf);
		if (done + n == total && n >= 4)
			memcpy(buf + n - 4, "END\n", 4);
		w = write(fd, buf, (size_t)n);
		if (w <= 0)
			return 1;
		done += w;
	}
	return 0;
}
