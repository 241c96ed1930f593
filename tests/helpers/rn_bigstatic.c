/*
 * Test helper: a program whose image holds a 64 MiB zero-filled static
 * array (as a student's `static char grid[1 << 26]`). Touches one byte and
 * exits 0; under a smaller address-space limit it cannot even load.
 */
/* volatile: every compiler keeps it (clang drops an array it can see
 * through). */
static volatile char big[64 << 20];

int main(void)
{
	big[12345] = 1;
	return big[54321];
}
