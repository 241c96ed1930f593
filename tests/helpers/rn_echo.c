/* Runner test helper: copy stdin to stdout (bounded by the input), exit 0. */
#include <unistd.h>

int main(void)
{
	static char buf[65536];
	ssize_t n;

	while ((n = read(0, buf, sizeof(buf))) > 0)
		for (ssize_t off = 0; off < n;) {
			ssize_t w = write(1, buf + off, (size_t)(n - off));

			if (w <= 0)
				return 1;
			off += w;
		}
	return n < 0;
}
