/*
 * Test helper: reserves 4 GiB of address space (as Go's runtime, ASan or
 * a thread's stack do), touches only 16 MiB of it, prints "reserved" and
 * exits 0. Under an address-space limit the reservation fails ("mmap
 * failed", exit 3); where a memory cgroup counts memory in use, it runs.
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

int main(void)
{
	size_t size = (size_t)4 << 30;
	char *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (p == MAP_FAILED) {
		printf("mmap failed\n");
		return 3;
	}
	memset(p, 1, 16 << 20);
	printf("reserved\n");
	return 0;
}
