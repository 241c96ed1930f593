/*
 * Coalescing exercise -- my solution.
 *
 * The whole of stdin is read into memory first, then cut into lines with
 * memchr.  Each line is split into (pointer, length) words, so nothing has to
 * be NUL-terminated and a line can be as long as it likes.
 *
 * Sectors and lines: every thread's byte range becomes a range of sector
 * (or line) numbers; sort those ranges and add up the union.  Never walk
 * bytes, the ranges can be terabytes long.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WARP 32
#define LIMIT (1ULL << 48)

typedef unsigned long long u64;

struct word {
    const char *at;
    size_t len;
};

static struct word *words;
static size_t nwords, words_cap;
static int active = WARP;

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n);
    if (!p) {
        fputs("out of memory\n", stderr);
        exit(1);
    }
    return p;
}

/* ---------- input ---------- */

static char *slurp(size_t *len)
{
    size_t cap = 1 << 16, n = 0, got;
    char *buf = xrealloc(NULL, cap);

    while ((got = fread(buf + n, 1, cap - n, stdin)) > 0) {
        n += got;
        if (n == cap) {
            cap *= 2;
            buf = xrealloc(buf, cap);
        }
    }
    *len = n;
    return buf;
}

static int blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static void split(const char *s, size_t len)
{
    size_t i = 0;

    nwords = 0;
    for (;;) {
        while (i < len && blank(s[i]))
            i++;
        if (i == len || s[i] == '#')
            return;
        size_t start = i;
        while (i < len && !blank(s[i]) && s[i] != '#')
            i++;
        if (nwords == words_cap) {
            words_cap = words_cap ? words_cap * 2 : 64;
            words = xrealloc(words, words_cap * sizeof *words);
        }
        words[nwords].at = s + start;
        words[nwords].len = i - start;
        nwords++;
    }
}

static int is_word(const struct word *w, const char *name)
{
    return w->len == strlen(name) && memcmp(w->at, name, w->len) == 0;
}

/* Returns 1 and stores the value when w is a number of the exercise's
 * grammar: [-] (decimal digits | 0x hexdigits), magnitude below 2^48. */
static int number(const struct word *w, long long *out)
{
    static const char digit[] = "0123456789abcdef";
    size_t i = w->len > 0 && w->at[0] == '-';
    int radix = 10;
    u64 v = 0;

    if (w->len - i > 2 && w->at[i] == '0' &&
        tolower((unsigned char)w->at[i + 1]) == 'x') {
        radix = 16;
        i += 2;
    }
    if (i == w->len)
        return 0;
    while (i < w->len) {
        int c = tolower((unsigned char)w->at[i++]);
        const char *d = c ? memchr(digit, c, (size_t)radix) : NULL;
        if (!d)
            return 0;
        v = v * (u64)radix + (u64)(d - digit);
        if (v >= LIMIT)
            return 0;
    }
    *out = w->at[0] == '-' ? -(long long)v : (long long)v;
    return 1;
}

/* Parses words[1..nwords-1] into v[], each within [lo[i], hi[i]]. */
static int numbers_in_range(long long *v, const long long *lo, const long long *hi)
{
    for (size_t i = 1; i < nwords; i++)
        if (!number(&words[i], &v[i - 1]) || v[i - 1] < lo[i - 1] ||
            v[i - 1] > hi[i - 1])
            return 0;
    return 1;
}

/* ---------- the model ---------- */

struct span {
    u64 first, last;
};

static int by_first(const void *a, const void *b)
{
    const struct span *x = a, *y = b;
    return x->first < y->first ? -1 : x->first > y->first;
}

/* Number of distinct granules of 2^shift bytes touched by the n ranges
 * [start[t], start[t] + size). */
static u64 granules(const u64 *start, u64 size, int n, int shift)
{
    struct span s[WARP];
    u64 total = 0;

    for (int t = 0; t < n; t++) {
        s[t].first = start[t] >> shift;
        s[t].last = (start[t] + size - 1) >> shift;
    }
    qsort(s, (size_t)n, sizeof s[0], by_first);
    u64 lo = s[0].first, hi = s[0].last;
    for (int t = 1; t < n; t++) {
        if (s[t].first > hi) {
            total += hi - lo + 1;
            lo = s[t].first;
            hi = s[t].last;
        } else if (s[t].last > hi) {
            hi = s[t].last;
        }
    }
    return total + hi - lo + 1;
}

static const char *plural(u64 n)
{
    return n == 1 ? "" : "s";
}

/* The label has been printed already. */
static void global_load(const u64 *start, u64 size)
{
    u64 sectors = granules(start, size, active, 5);
    u64 lines = granules(start, size, active, 7);
    u64 requested = (u64)active * size, moved = sectors * 32;
    /* tenths of a percent, rounded half up: (2000 r + m) / 2m, in 128 bits
     * because 2000 r does not always fit in 64 */
    unsigned __int128 num = (unsigned __int128)requested * 2000 + moved;
    u64 tenths = (u64)(num / ((unsigned __int128)moved * 2));

    printf(": %d thread%s, %llu sector%s, %llu line%s, requested %llu B, "
           "moved %llu B, efficiency %llu.%llu%%\n",
           active, plural((u64)active), sectors, plural(sectors), lines,
           plural(lines), requested, moved, tenths / 10, tenths % 10);
}

static void bank_load(const u64 *word)
{
    char repeat[WARP] = {0};
    int count[WARP] = {0};
    int worst = 0;

    /* a word read by several threads is one access (a broadcast): only its
     * first reader counts */
    for (int t = 0; t < active; t++)
        for (int u = t + 1; u < active; u++)
            if (word[u] == word[t])
                repeat[u] = 1;
    for (int t = 0; t < active; t++)
        count[word[t] % WARP] += !repeat[t];
    for (int b = 1; b < WARP; b++)
        if (count[b] > count[worst])
            worst = b;
    printf(": %d thread%s, ", active, plural((u64)active));
    if (count[worst] == 1)
        printf("1 pass, no conflict\n");
    else
        printf("%d passes, %d-way conflict on bank %d\n", count[worst],
               count[worst], worst);
}

/* ---------- commands ---------- */

#define BIG ((long long)LIMIT)

static const char *do_active(void)
{
    static const long long lo[] = {1}, hi[] = {WARP};
    long long v[1];

    if (nwords != 2 || !numbers_in_range(v, lo, hi))
        return "active: 1-32";
    active = (int)v[0];
    return NULL;
}

static const char *do_strided(void)
{
    static const long long lo[] = {0, 0, 1}, hi[] = {BIG, BIG, 16};
    long long v[3] = {0, 0, 4};
    u64 start[WARP];

    if (nwords < 3 || nwords > 4 || !numbers_in_range(v, lo, hi))
        return "strided: BASE STRIDE [SIZE 1-16]";
    for (int t = 0; t < active; t++)
        start[t] = (u64)v[0] + (u64)t * (u64)v[1] * (u64)v[2];
    printf("strided base=%lld stride=%lld size=%lld", v[0], v[1], v[2]);
    global_load(start, (u64)v[2]);
    return NULL;
}

static const char *do_aos(void)
{
    static const long long lo[] = {1, 0, 1}, hi[] = {BIG, BIG, BIG};
    long long v[3];
    u64 start[WARP];

    if (nwords != 4 || !numbers_in_range(v, lo, hi) || v[1] + v[2] > v[0])
        return "aos: STRUCT_SIZE FIELD_OFFSET FIELD_SIZE "
               "(the field must fit in the struct)";
    for (int t = 0; t < active; t++)
        start[t] = (u64)t * (u64)v[0] + (u64)v[1];
    printf("aos struct=%lld offset=%lld field=%lld", v[0], v[1], v[2]);
    global_load(start, (u64)v[2]);
    for (int t = 0; t < active; t++)
        start[t] = (u64)t * (u64)v[2];
    printf("soa field=%lld", v[2]);
    global_load(start, (u64)v[2]);
    return NULL;
}

static const char *do_gather(void)
{
    static char need[64];
    long long size, a;
    u64 start[WARP];
    int negative = 0;

    if (nwords < 2 || !number(&words[1], &size) || size < 1 || size > 16)
        return "gather: SIZE ADDR...";
    for (size_t i = 2; i < nwords; i++) {
        if (!number(&words[i], &a))
            return "gather: SIZE ADDR...";
        if (a < 0)
            negative = 1;
        else if (i - 2 < WARP)
            start[i - 2] = (u64)a;
    }
    if (nwords - 2 != (size_t)active) {
        snprintf(need, sizeof need, "gather: need %d address%s", active,
                 active == 1 ? "" : "es");
        return need;
    }
    if (negative)
        return "gather: addresses must be >= 0";
    printf("gather size=%lld", size);
    global_load(start, (u64)size);
    return NULL;
}

static const char *do_shared(void)
{
    static const long long lo[] = {0, 0}, hi[] = {BIG, BIG};
    long long v[2];
    u64 w[WARP];

    if (nwords != 3 || !numbers_in_range(v, lo, hi))
        return "shared: BASE_WORD STRIDE_WORDS";
    for (int t = 0; t < active; t++)
        w[t] = (u64)v[0] + (u64)t * (u64)v[1];
    printf("shared base=%lld stride=%lld", v[0], v[1]);
    bank_load(w);
    return NULL;
}

static const char *do_transpose(void)
{
    static const long long lo[] = {1, 0}, hi[] = {64, 8};
    long long v[2];
    u64 w[WARP];

    if (nwords != 3 || !numbers_in_range(v, lo, hi))
        return "transpose: TILE PAD (TILE 1-64, PAD 0-8)";
    for (int t = 0; t < active; t++)
        w[t] = (u64)(t % v[0]) * (u64)(v[0] + v[1]) + (u64)(t / v[0]);
    printf("transpose tile=%lld pad=%lld", v[0], v[1]);
    bank_load(w);
    return NULL;
}

static const struct {
    const char *name;
    const char *(*run)(void);
} commands[] = {
    {"active", do_active},   {"strided", do_strided}, {"aos", do_aos},
    {"gather", do_gather},   {"shared", do_shared},   {"transpose", do_transpose},
};

static void run_line(const char *s, size_t len)
{
    split(s, len);
    if (nwords == 0)
        return;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (is_word(&words[0], commands[i].name)) {
            const char *err = commands[i].run();
            if (err)
                printf("error: %s\n", err);
            return;
        }
    }
    printf("error: unknown command %.*s\n", (int)words[0].len, words[0].at);
}

int main(void)
{
    size_t len;
    char *in = slurp(&len);
    const char *p = in, *end = in + len;

    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *stop = nl ? nl : end;
        run_line(p, (size_t)(stop - p));
        p = stop + 1;
    }
    free(in);
    free(words);
    return 0;
}
