/*
 * Runner test helper: try to read the file named by argv[1] and print
 * "read: <its first line>" or "denied: <errno>". Exits 0 either way.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	char line[256];
	FILE *f;

	if (argc < 2)
		return 2;
	f = fopen(argv[1], "r");
	if (!f) {
		printf("denied: %d\n", errno);
		return 0;
	}
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	line[strcspn(line, "\n")] = '\0';
	printf("read: %s\n", line);
	fclose(f);
	return 0;
}
