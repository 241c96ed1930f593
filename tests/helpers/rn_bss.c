/*
 * Test helper: a program whose image holds a 14 MiB zero-filled static
 * array, untouched but for one byte. Under a 16 MiB address-space limit
 * the kernel maps it, and then the loader cannot map libc ("failed to map
 * segment", exit 127): MLE, though the image is under 90% of the limit.
 * Where a memory cgroup counts memory in use, it runs (and exits 0).
 */
static volatile char big[14 << 20];

int main(void)
{
	big[12345] = 1;
	return big[54321];
}
