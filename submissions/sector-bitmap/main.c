/*
 * sectors.c -- memory coalescing homework
 *
 * Input comes in with read(2) in 16 KiB blocks; every complete line is parsed
 * into a struct cmdline (the name and a copy of each argument), executed and
 * freed.
 *
 * Counting: mark every sector (and every line) a thread touches in a bitmap
 * that spans from the lowest to the highest one, then count the marks.
 * Overlaps and broadcasts come out right without any sorting.
 */
#define _DEFAULT_SOURCE

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NT 32
#define MAG_LIMIT ((int64_t)1 << 48)

struct cmdline {
    char *name;
    int argc;
    char **argv;
};

static int threads = NT;

/* ===== bitmap ===== */

static uint8_t *bitmap;      /* kept between commands, grown when needed */
static uint64_t bitmap_bytes;

static uint64_t count_marked(const uint64_t *start, uint64_t len, int shift)
{
    uint64_t lo = UINT64_MAX, hi = 0, total = 0, nbytes;
    int t;

    for (t = 0; t < threads; t++) {
        if (start[t] >> shift < lo)
            lo = start[t] >> shift;
        if ((start[t] + len - 1) >> shift > hi)
            hi = (start[t] + len - 1) >> shift;
    }
    nbytes = (hi - lo) / 8 + 1;
    if (nbytes > bitmap_bytes) {
        uint8_t *bigger = realloc(bitmap, nbytes);
        if (bigger == NULL) {
            fprintf(stderr, "sectors: out of memory (%llu bytes)\n",
                    (unsigned long long)nbytes);
            exit(1);
        }
        bitmap = bigger;
        bitmap_bytes = nbytes;
    }
    memset(bitmap, 0, nbytes);
    for (t = 0; t < threads; t++) {
        uint64_t g;
        for (g = start[t] >> shift; g <= (start[t] + len - 1) >> shift; g++)
            bitmap[(g - lo) / 8] |= (uint8_t)(1u << ((g - lo) % 8));
    }
    for (uint64_t i = 0; i < nbytes; i++)
        for (uint8_t b = bitmap[i]; b; b &= (uint8_t)(b - 1))
            total++;
    return total;
}

/* ===== numbers ===== */

static int digit(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return 16;
}

static int to_number(const char *s, int64_t *v)
{
    int64_t acc = 0;
    int radix = 10;
    int minus = (*s == '-');

    s += minus;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && s[2] != '\0') {
        radix = 16;
        s += 2;
    }
    if (*s == '\0')
        return -1;
    do {
        int d = digit(*s);
        if (d >= radix)
            return -1;
        acc = acc * radix + d;
        if (acc >= MAG_LIMIT)
            return -1;
    } while (*++s);
    *v = minus ? -acc : acc;
    return 0;
}

/* argv[i] as a number within [min, max] */
static int arg(const struct cmdline *c, int i, int64_t min, int64_t max,
               int64_t *v)
{
    return to_number(c->argv[i], v) == 0 && *v >= min && *v <= max;
}

/* ===== printing ===== */

static const char *many(uint64_t n) { return n == 1 ? "" : "s"; }

static void print_global(const uint64_t *start, uint64_t len)
{
    uint64_t sectors = count_marked(start, len, 5);
    uint64_t lines = count_marked(start, len, 7);
    uint64_t req = (uint64_t)threads * len, moved = 32 * sectors;
    /* moved is even, so adding half of it rounds half up exactly */
    uint64_t tenths = (req * 1000 + moved / 2) / moved;

    printf(": %d thread%s, %llu sector%s, %llu line%s, requested %llu B, "
           "moved %llu B, efficiency %llu.%d%%\n",
           threads, many((uint64_t)threads), (unsigned long long)sectors,
           many(sectors), (unsigned long long)lines, many(lines),
           (unsigned long long)req, (unsigned long long)moved,
           (unsigned long long)(tenths / 10), (int)(tenths % 10));
}

static void print_banks(const uint64_t *word)
{
    int distinct[32] = { 0 };
    int t, u, b, worst = 0;

    for (t = 0; t < threads; t++) {
        for (u = 0; u < t && word[u] != word[t]; u++)
            ;
        if (u == t)
            distinct[word[t] % 32]++;
    }
    for (b = 0; b < 32; b++)
        if (distinct[b] > distinct[worst])
            worst = b;
    if (distinct[worst] == 1)
        printf(": %d thread%s, 1 pass, no conflict\n", threads,
               many((uint64_t)threads));
    else
        printf(": %d thread%s, %d passes, %d-way conflict on bank %d\n",
               threads, many((uint64_t)threads), distinct[worst],
               distinct[worst], worst);
}

/* ===== commands ===== */

#define ANYTHING (MAG_LIMIT - 1)

static void execute(const struct cmdline *c)
{
    const char *n = c->name;
    uint64_t at[NT];
    int64_t a, b, s;
    int t;

    if (strcmp(n, "active") == 0) {
        if (c->argc == 1 && arg(c, 0, 1, NT, &a))
            threads = (int)a;
        else
            puts("error: active: 1-32");
    } else if (strcmp(n, "strided") == 0) {
        s = 4;
        if (c->argc < 2 || c->argc > 3 || !arg(c, 0, 0, ANYTHING, &a) ||
            !arg(c, 1, 0, ANYTHING, &b) ||
            (c->argc == 3 && !arg(c, 2, 1, 16, &s))) {
            puts("error: strided: BASE STRIDE [SIZE 1-16]");
            return;
        }
        for (t = 0; t < threads; t++)
            at[t] = (uint64_t)a + (uint64_t)t * (uint64_t)b * (uint64_t)s;
        printf("strided base=%lld stride=%lld size=%lld", (long long)a,
               (long long)b, (long long)s);
        print_global(at, (uint64_t)s);
    } else if (strcmp(n, "aos") == 0) {
        if (c->argc != 3 || !arg(c, 0, 1, ANYTHING, &s) ||
            !arg(c, 1, 0, ANYTHING, &a) || !arg(c, 2, 1, ANYTHING, &b) ||
            a + b > s) {
            puts("error: aos: STRUCT_SIZE FIELD_OFFSET FIELD_SIZE (the field "
                 "must fit in the struct)");
            return;
        }
        for (t = 0; t < threads; t++)
            at[t] = (uint64_t)t * (uint64_t)s + (uint64_t)a;
        printf("aos struct=%lld offset=%lld field=%lld", (long long)s,
               (long long)a, (long long)b);
        print_global(at, (uint64_t)b);
        for (t = 0; t < threads; t++)
            at[t] = (uint64_t)t * (uint64_t)b;
        printf("soa field=%lld", (long long)b);
        print_global(at, (uint64_t)b);
    } else if (strcmp(n, "gather") == 0) {
        int i, negative = 0;
        if (c->argc < 1 || !arg(c, 0, 1, 16, &s)) {
            puts("error: gather: SIZE ADDR...");
            return;
        }
        for (i = 1; i < c->argc; i++) {
            if (to_number(c->argv[i], &a) != 0) {
                puts("error: gather: SIZE ADDR...");
                return;
            }
            if (a < 0)
                negative = 1;
            else if (i <= NT)
                at[i - 1] = (uint64_t)a;
        }
        if (c->argc - 1 == threads && !negative) {
            printf("gather size=%lld", (long long)s);
            print_global(at, (uint64_t)s);
        } else if (c->argc - 1 == threads) {
            puts("error: gather: addresses must be >= 0");
        } else {
            printf("error: gather: need %d %s\n", threads,
                   threads == 1 ? "address" : "addresses");
        }
    } else if (strcmp(n, "shared") == 0) {
        if (c->argc != 2 || !arg(c, 0, 0, ANYTHING, &a) ||
            !arg(c, 1, 0, ANYTHING, &b)) {
            puts("error: shared: BASE_WORD STRIDE_WORDS");
            return;
        }
        for (t = 0; t < threads; t++)
            at[t] = (uint64_t)a + (uint64_t)t * (uint64_t)b;
        printf("shared base=%lld stride=%lld", (long long)a, (long long)b);
        print_banks(at);
    } else if (strcmp(n, "transpose") == 0) {
        if (c->argc != 2 || !arg(c, 0, 1, 64, &a) || !arg(c, 1, 0, 8, &b)) {
            puts("error: transpose: TILE PAD (TILE 1-64, PAD 0-8)");
            return;
        }
        for (t = 0; t < threads; t++)
            at[t] = (uint64_t)(t % a) * (uint64_t)(a + b) + (uint64_t)(t / a);
        printf("transpose tile=%lld pad=%lld", (long long)a, (long long)b);
        print_banks(at);
    } else {
        printf("error: unknown command %s\n", n);
    }
}

/* ===== lines ===== */

static char *copy(const char *p, size_t n)
{
    char *s = malloc(n + 1);
    if (s == NULL)
        exit(1);
    memcpy(s, p, n);
    s[n] = '\0';
    return s;
}

static int white(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' || ch == '\f';
}

/* parses text[0..n) into c; returns 0 for an empty line */
static int parse_line(const char *text, size_t n, struct cmdline *c)
{
    size_t i = 0, cap = 0;
    const char *hash = memchr(text, '#', n);

    if (hash != NULL)
        n = (size_t)(hash - text);
    c->name = NULL;
    c->argc = 0;
    c->argv = NULL;
    while (i < n) {
        size_t j;
        if (white(text[i])) {
            i++;
            continue;
        }
        for (j = i; j < n && !white(text[j]); j++)
            ;
        if (c->name == NULL) {
            c->name = copy(text + i, j - i);
        } else {
            if ((size_t)c->argc == cap) {
                cap = cap ? 2 * cap : 4;
                c->argv = realloc(c->argv, cap * sizeof(char *));
                if (c->argv == NULL)
                    exit(1);
            }
            c->argv[c->argc++] = copy(text + i, j - i);
        }
        i = j;
    }
    return c->name != NULL;
}

static void free_line(struct cmdline *c)
{
    for (int i = 0; i < c->argc; i++)
        free(c->argv[i]);
    free(c->argv);
    free(c->name);
}

static void one_line(const char *text, size_t n)
{
    struct cmdline c;

    if (parse_line(text, n, &c))
        execute(&c);
    free_line(&c);
}

/* appends p[0..n) to the part of a line carried over from earlier blocks */
static void keep(char **buf, size_t *len, size_t *cap, const char *p, size_t n)
{
    if (*len + n > *cap) {
        *cap = 2 * (*len + n);
        *buf = realloc(*buf, *cap);
        if (*buf == NULL)
            exit(1);
    }
    memcpy(*buf + *len, p, n);
    *len += n;
}

int main(void)
{
    char block[16384];
    char *pending = NULL;
    size_t plen = 0, pcap = 0;
    ssize_t got;

    while ((got = read(0, block, sizeof block)) > 0) {
        size_t from = 0;
        for (size_t i = 0; i < (size_t)got; i++) {
            if (block[i] != '\n')
                continue;
            if (plen > 0) {
                /* the line began in an earlier block */
                keep(&pending, &plen, &pcap, block + from, i - from);
                one_line(pending, plen);
                plen = 0;
            } else {
                one_line(block + from, i - from);
            }
            from = i + 1;
        }
        if (from < (size_t)got)
            keep(&pending, &plen, &pcap, block + from, (size_t)got - from);
    }
    if (plen > 0)
        one_line(pending, plen);
    free(pending);
    free(bitmap);
    return 0;
}
