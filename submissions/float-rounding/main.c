// hw3: memory coalescing calculator
// reads commands from stdin, one per line, prints the stats for each one.

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned long long ull;

#define NTHREADS 32
#define MAXVAL 281474976710656ULL   // 2^48

int activeThreads = NTHREADS;

// ---- reading ----

char *lineBuf = NULL;
size_t lineCap = 0;

// reads one line (without the '\n') into lineBuf. returns -1 at end of input.
long readLine(void)
{
    size_t len = 0;
    int ch;
    while ((ch = getchar()) != EOF && ch != '\n') {
        if (len + 1 >= lineCap) {
            lineCap = lineCap ? lineCap * 2 : 256;
            lineBuf = realloc(lineBuf, lineCap);
            if (!lineBuf) exit(1);
        }
        lineBuf[len++] = (char)ch;
    }
    if (ch == EOF && len == 0) return -1;
    if (!lineBuf) {
        lineCap = 256;
        lineBuf = malloc(lineCap);
        if (!lineBuf) exit(1);
    }
    lineBuf[len] = '\0';
    return (long)len;
}

char **argList = NULL;
int argCap = 0;

int isSeparator(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

// cuts lineBuf into words in place, like argv. returns how many.
int splitWords(long len)
{
    int count = 0;
    long i = 0;
    char *hash = memchr(lineBuf, '#', (size_t)len);
    if (hash) {
        *hash = '\0';
        len = hash - lineBuf;
    }
    while (i < len) {
        if (isSeparator(lineBuf[i])) {
            lineBuf[i++] = '\0';
            continue;
        }
        if (count == argCap) {
            argCap = argCap ? argCap * 2 : 32;
            argList = realloc(argList, (size_t)argCap * sizeof(char *));
            if (!argList) exit(1);
        }
        argList[count++] = lineBuf + i;
        while (i < len && !isSeparator(lineBuf[i])) i++;
    }
    return count;
}

// a number is [-]digits or [-]0x hexdigits, less than 2^48 either way.
// returns 1 if ok.
int parseNumber(const char *s, long long *result)
{
    int negative = 0, base = 10;
    const char *digits;
    if (*s == '-') {
        negative = 1;
        s++;
    }
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    digits = base == 16 ? "0123456789abcdefABCDEF" : "0123456789";
    if (*s == '\0' || strspn(s, digits) != strlen(s)) return 0;
    while (s[0] == '0' && s[1] != '\0') s++;   // 010 is ten, 0000...1 is one
    if (strlen(s) > 16) return 0;   // 2^48 has 15 digits, 13 in hex
    ull v = strtoull(s, NULL, base);
    if (v >= MAXVAL) return 0;
    *result = negative ? -(long long)v : (long long)v;
    return 1;
}

// ---- global memory ----

typedef struct {
    ull from, to;   // inclusive byte range
} Range;

// how many 'granule'-byte blocks the ranges touch. ranges get sorted.
ull countBlocks(Range *r, int n, ull granule)
{
    // selection sort, n is at most 32
    for (int i = 0; i < n; i++) {
        int best = i;
        for (int j = i + 1; j < n; j++)
            if (r[j].from < r[best].from) best = j;
        Range tmp = r[i];
        r[i] = r[best];
        r[best] = tmp;
    }
    // merge into runs of bytes, then count the blocks of each run; a run can
    // start in the block where the previous one ended, don't count it twice
    ull total = 0, prevLastBlock = 0;
    int haveRun = 0;
    int i = 0;
    while (i < n) {
        ull from = r[i].from, to = r[i].to;
        i++;
        while (i < n && r[i].from <= to + 1) {
            if (r[i].to > to) to = r[i].to;
            i++;
        }
        ull firstBlock = from / granule, lastBlock = to / granule;
        total += lastBlock - firstBlock + 1;
        if (haveRun && firstBlock == prevLastBlock) total--;
        prevLastBlock = lastBlock;
        haveRun = 1;
    }
    return total;
}

const char *pl(ull n)
{
    return n == 1 ? "" : "s";
}

void printGlobal(Range *r, ull size)
{
    ull sectors = countBlocks(r, activeThreads, 32);
    ull lines = countBlocks(r, activeThreads, 128);
    ull requested = (ull)activeThreads * size;
    ull moved = sectors * 32;
    double efficiency = 100.0 * (double)requested / (double)moved;
    printf(": %d thread%s, %llu sector%s, %llu line%s, requested %llu B, moved %llu B, efficiency %.1f%%\n",
           activeThreads, pl((ull)activeThreads), sectors, pl(sectors), lines, pl(lines),
           requested, moved, efficiency);
}

// ---- shared memory ----

void printBanks(ull *word)
{
    int perBank[32] = {0};
    for (int t = 0; t < activeThreads; t++) {
        int dup = 0;
        for (int u = 0; u < t; u++)
            if (word[u] == word[t]) dup = 1;
        if (!dup) perBank[word[t] % 32]++;
    }
    int worst = 0;
    for (int b = 0; b < 32; b++)
        if (perBank[b] > perBank[worst]) worst = b;
    printf(": %d thread%s, ", activeThreads, pl((ull)activeThreads));
    if (perBank[worst] <= 1)
        printf("1 pass, no conflict\n");
    else
        printf("%d passes, %d-way conflict on bank %d\n", perBank[worst], perBank[worst], worst);
}

// ---- commands ----

// every arg a number and lo <= arg <= hi
int getArgs(char **args, int n, long long *out, const long long *lo, const long long *hi)
{
    for (int i = 0; i < n; i++)
        if (!parseNumber(args[i], &out[i]) || out[i] < lo[i] || out[i] > hi[i]) return 0;
    return 1;
}

#define ANY 281474976710655LL

void cmdActive(char **args, int n)
{
    long long lo[] = {1}, hi[] = {32}, v[1];
    if (n != 1 || !getArgs(args, n, v, lo, hi)) {
        printf("error: active: 1-32\n");
        return;
    }
    activeThreads = (int)v[0];
}

void cmdStrided(char **args, int n)
{
    long long lo[] = {0, 0, 1}, hi[] = {ANY, ANY, 16}, v[3] = {0, 0, 4};
    Range r[NTHREADS];
    if (n < 2 || n > 3 || !getArgs(args, n, v, lo, hi)) {
        printf("error: strided: BASE STRIDE [SIZE 1-16]\n");
        return;
    }
    for (int t = 0; t < activeThreads; t++) {
        r[t].from = (ull)v[0] + (ull)t * (ull)v[1] * (ull)v[2];
        r[t].to = r[t].from + (ull)v[2] - 1;
    }
    printf("strided base=%lld stride=%lld size=%lld", v[0], v[1], v[2]);
    printGlobal(r, (ull)v[2]);
}

void cmdAos(char **args, int n)
{
    long long lo[] = {1, 0, 1}, hi[] = {ANY, ANY, ANY}, v[3];
    Range r[NTHREADS];
    if (n != 3 || !getArgs(args, n, v, lo, hi) || v[1] + v[2] > v[0]) {
        printf("error: aos: STRUCT_SIZE FIELD_OFFSET FIELD_SIZE (the field must fit in the struct)\n");
        return;
    }
    for (int t = 0; t < activeThreads; t++) {
        r[t].from = (ull)t * (ull)v[0] + (ull)v[1];
        r[t].to = r[t].from + (ull)v[2] - 1;
    }
    printf("aos struct=%lld offset=%lld field=%lld", v[0], v[1], v[2]);
    printGlobal(r, (ull)v[2]);
    for (int t = 0; t < activeThreads; t++) {
        r[t].from = (ull)t * (ull)v[2];
        r[t].to = r[t].from + (ull)v[2] - 1;
    }
    printf("soa field=%lld", v[2]);
    printGlobal(r, (ull)v[2]);
}

void cmdGather(char **args, int n)
{
    long long size, addr;
    int hasNegative = 0;
    Range r[NTHREADS];
    if (n < 1 || !parseNumber(args[0], &size) || size < 1 || size > 16) {
        printf("error: gather: SIZE ADDR...\n");
        return;
    }
    for (int i = 1; i < n; i++) {
        if (!parseNumber(args[i], &addr)) {
            printf("error: gather: SIZE ADDR...\n");
            return;
        }
        if (addr < 0) hasNegative = 1;
        else if (i <= NTHREADS) {
            r[i - 1].from = (ull)addr;
            r[i - 1].to = (ull)addr + (ull)size - 1;
        }
    }
    if (n - 1 != activeThreads) {
        printf("error: gather: need %d address%s\n", activeThreads, activeThreads == 1 ? "" : "es");
        return;
    }
    if (hasNegative) {
        printf("error: gather: addresses must be >= 0\n");
        return;
    }
    printf("gather size=%lld", size);
    printGlobal(r, (ull)size);
}

void cmdShared(char **args, int n)
{
    long long lo[] = {0, 0}, hi[] = {ANY, ANY}, v[2];
    ull w[NTHREADS];
    if (n != 2 || !getArgs(args, n, v, lo, hi)) {
        printf("error: shared: BASE_WORD STRIDE_WORDS\n");
        return;
    }
    for (int t = 0; t < activeThreads; t++)
        w[t] = (ull)v[0] + (ull)t * (ull)v[1];
    printf("shared base=%lld stride=%lld", v[0], v[1]);
    printBanks(w);
}

void cmdTranspose(char **args, int n)
{
    long long lo[] = {1, 0}, hi[] = {64, 8}, v[2];
    ull w[NTHREADS];
    if (n != 2 || !getArgs(args, n, v, lo, hi)) {
        printf("error: transpose: TILE PAD (TILE 1-64, PAD 0-8)\n");
        return;
    }
    long long tile = v[0], width = v[0] + v[1];
    for (int t = 0; t < activeThreads; t++)
        w[t] = (ull)((t % tile) * width + t / tile);
    printf("transpose tile=%lld pad=%lld", v[0], v[1]);
    printBanks(w);
}

int main(void)
{
    long len;
    while ((len = readLine()) >= 0) {
        int n = splitWords(len);
        if (n == 0) continue;
        char *cmd = argList[0];
        char **args = argList + 1;
        if (strcmp(cmd, "active") == 0) cmdActive(args, n - 1);
        else if (strcmp(cmd, "strided") == 0) cmdStrided(args, n - 1);
        else if (strcmp(cmd, "aos") == 0) cmdAos(args, n - 1);
        else if (strcmp(cmd, "gather") == 0) cmdGather(args, n - 1);
        else if (strcmp(cmd, "shared") == 0) cmdShared(args, n - 1);
        else if (strcmp(cmd, "transpose") == 0) cmdTranspose(args, n - 1);
        else printf("error: unknown command %s\n", cmd);
    }
    free(lineBuf);
    free(argList);
    return 0;
}
