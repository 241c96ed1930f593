/* Starter code for the coalescing exercise: reads commands line by line
 * and splits them into tokens. Fill in the commands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TOKENS 64

/* Splits line into at most max tokens; '#' starts a comment. */
static int split_line(char *line, char **tok, int max)
{
	char *hash = strchr(line, '#');
	int n = 0;

	if (hash)
		*hash = '\0';
	for (char *p = strtok(line, " \t\r\v\f\n"); p && n < max;
	     p = strtok(NULL, " \t\r\v\f\n"))
		tok[n++] = p;
	return n;
}

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

int main(void)
{
	char line[65536];
	char *tok[MAX_TOKENS];

	while (fgets(line, sizeof line, stdin)) {
		int n = split_line(line, tok, MAX_TOKENS);

		if (n == 0)
			continue;
		/* the student's part: the commands */
		printf("error: unknown command %s\n", tok[0]);
	}
	return 0;
}
