/* Runner test helper: close stdin and stdout at once, say "closed" on
 * stderr, sleep 100 ms, exit 5. */
#include <time.h>
#include <unistd.h>

int main(void)
{
	struct timespec ts = { 0, 100000000L };

	close(0);
	close(1);
	(void)!write(2, "closed\n", 7);
	nanosleep(&ts, NULL);
	return 5;
}
