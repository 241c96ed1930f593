/*
 * coalescing.c
 *
 * Reads stdin one character at a time (getc/ungetc, no line buffer): blanks
 * are skipped, words are collected into a little arena of strings, a '#'
 * throws the rest of the line away, and at each newline the collected words
 * are run as one command.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WARP 32

typedef unsigned long long u64;

static int g_active = WARP;

/* ---- the words of the current line ---- */

static char *g_text;            /* "word\0word\0..." */
static size_t g_text_len, g_text_cap;
static size_t *g_word;          /* offsets into g_text */
static size_t g_nwords, g_word_cap;

static void *grow(void *p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return p;
    while (*cap < need)
        *cap = *cap ? *cap * 2 : 64;
    p = realloc(p, *cap * elem);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}

static void add_char(char c)
{
    g_text = grow(g_text, &g_text_cap, g_text_len + 1, 1);
    g_text[g_text_len++] = c;
}

static const char *word(size_t i)
{
    return g_text + g_word[i];
}

/* ---- the character reader ---- */

static void skip_blanks(FILE *in)
{
    int c;

    while ((c = getc(in)) == ' ' || c == '\t')
        ;
    ungetc(c, in);
}

static int ends_word(int c)
{
    return c == EOF || c == '\n' || c == '#' || c == ' ' || c == '\t' ||
           c == '\r' || c == '\v' || c == '\f';
}

/* reads one word into the arena; returns its length */
static size_t read_word(FILE *in)
{
    size_t start = g_text_len;
    int c;

    while (!ends_word(c = getc(in)))
        add_char((char)c);
    ungetc(c, in);
    if (g_text_len > start) {
        add_char('\0');
        g_word = grow(g_word, &g_word_cap, g_nwords + 1, sizeof *g_word);
        g_word[g_nwords++] = start;
    }
    return g_text_len - start;
}

/* ---- numbers ---- */

static int parse(const char *s, long long *out)
{
    static const char digits[] = "0123456789abcdef";
    int neg = *s == '-', base = 10;
    u64 v = 0;

    s += neg;
    if (!strncmp(s, "0x", 2) || !strncmp(s, "0X", 2))
        base = 16, s += 2;
    if (!*s)
        return 0;
    while (*s) {
        char c = *s++;
        const char *d;
        if (c >= 'A' && c <= 'F')
            c = (char)(c - 'A' + 'a');
        d = c ? strchr(digits, c) : NULL;
        if (!d || d - digits >= base)
            return 0;
        v = v * (u64)base + (u64)(d - digits);
        if (v >> 48)
            return 0;
    }
    *out = neg ? -(long long)v : (long long)v;
    return 1;
}

static int nums(long long *v, size_t n, const long long *lo, const long long *hi)
{
    for (size_t i = 0; i < n; i++)
        if (!parse(word(i + 1), &v[i]) || v[i] < lo[i] || v[i] > hi[i])
            return 0;
    return 1;
}

/* ---- global memory ---- */

static u64 union_count(const u64 *first, const u64 *last, int n)
{
    int order[WARP];
    u64 total = 0, cur_lo = 0, cur_hi = 0;

    for (int i = 0; i < n; i++) {
        int j = i;
        while (j > 0 && first[order[j - 1]] > first[i]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    for (int k = 0; k < n; k++) {
        int i = order[k];
        if (k == 0 || first[i] > cur_hi) {
            if (k > 0)
                total += cur_hi - cur_lo + 1;
            cur_lo = first[i];
            cur_hi = last[i];
        } else if (last[i] > cur_hi) {
            cur_hi = last[i];
        }
    }
    return total + cur_hi - cur_lo + 1;
}

static u64 touched(const u64 *start, u64 size, unsigned bytes)
{
    u64 first[WARP], last[WARP];

    for (int t = 0; t < g_active; t++) {
        first[t] = start[t] / bytes;
        last[t] = (start[t] + size - 1) / bytes;
    }
    return union_count(first, last, g_active);
}

static void print_efficiency(u64 req, u64 moved)
{
    u64 whole = 100 * req / moved, rest = 100 * req % moved;
    u64 tenth = rest * 10 / moved, left = rest * 10 % moved;

    if (2 * left >= moved && ++tenth == 10) {
        tenth = 0;
        whole++;
    }
    printf("efficiency %llu.%llu%%\n", whole, tenth);
}

static void global_line(const u64 *start, u64 size)
{
    u64 sectors = touched(start, size, 32), lines = touched(start, size, 128);
    u64 req = (u64)g_active * size;

    printf(": %d thread%s, %llu sector%s, %llu line%s, requested %llu B, "
           "moved %llu B, ", g_active, g_active == 1 ? "" : "s",
           sectors, sectors == 1 ? "" : "s", lines, lines == 1 ? "" : "s",
           req, sectors * 32);
    print_efficiency(req, sectors * 32);
}

/* ---- shared memory ---- */

static void bank_line(const u64 *w)
{
    int max = 0, max_bank = 0;

    for (int b = 0; b < 32; b++) {
        u64 mine[WARP];
        int k = 0;
        for (int t = 0; t < g_active; t++) {
            int i = 0;
            if (w[t] % 32 != (u64)b)
                continue;
            while (i < k && mine[i] != w[t])
                i++;
            if (i == k)
                mine[k++] = w[t];
        }
        if (k > max) {
            max = k;
            max_bank = b;
        }
    }
    printf(": %d thread%s, ", g_active, g_active == 1 ? "" : "s");
    if (max < 2)
        printf("1 pass, no conflict\n");
    else
        printf("%d passes, %d-way conflict on bank %d\n", max, max, max_bank);
}

/* ---- the commands ---- */

#define HUGE_OK 281474976710655LL

static void run_command(void)
{
    const char *cmd = word(0);
    size_t argc = g_nwords - 1;
    long long v[3] = { 0, 0, 4 };
    u64 a[WARP];

    if (!strcmp(cmd, "active")) {
        static const long long lo[] = { 1 }, hi[] = { 32 };
        if (argc != 1 || !nums(v, 1, lo, hi))
            printf("error: active: 1-32\n");
        else
            g_active = (int)v[0];
    } else if (!strcmp(cmd, "strided")) {
        static const long long lo[] = { 0, 0, 1 }, hi[] = { HUGE_OK, HUGE_OK, 16 };
        if (argc < 2 || argc > 3 || !nums(v, argc, lo, hi)) {
            printf("error: strided: BASE STRIDE [SIZE 1-16]\n");
            return;
        }
        for (int t = 0; t < g_active; t++)
            a[t] = (u64)v[0] + (u64)t * (u64)v[1] * (u64)v[2];
        printf("strided base=%lld stride=%lld size=%lld", v[0], v[1], v[2]);
        global_line(a, (u64)v[2]);
    } else if (!strcmp(cmd, "aos")) {
        static const long long lo[] = { 1, 0, 1 }, hi[] = { HUGE_OK, HUGE_OK, HUGE_OK };
        if (argc != 3 || !nums(v, 3, lo, hi) || v[1] + v[2] > v[0]) {
            printf("error: aos: STRUCT_SIZE FIELD_OFFSET FIELD_SIZE (the field must fit in the struct)\n");
            return;
        }
        u64 soa[WARP];
        for (int t = 0; t < g_active; t++) {
            a[t] = (u64)t * (u64)v[0] + (u64)v[1];
            soa[t] = (u64)t * (u64)v[2];
        }
        printf("aos struct=%lld offset=%lld field=%lld", v[0], v[1], v[2]);
        global_line(a, (u64)v[2]);
        printf("soa field=%lld", v[2]);
        global_line(soa, (u64)v[2]);
    } else if (!strcmp(cmd, "gather")) {
        long long size, x;
        int neg = 0;
        if (argc < 1 || !parse(word(1), &size) || size < 1 || size > 16) {
            printf("error: gather: SIZE ADDR...\n");
            return;
        }
        for (size_t i = 2; i < g_nwords; i++) {
            if (!parse(word(i), &x)) {
                printf("error: gather: SIZE ADDR...\n");
                return;
            }
            if (x < 0)
                neg = 1;
            else if (i - 2 < WARP)
                a[i - 2] = (u64)x;
        }
        if (argc - 1 != (size_t)g_active)
            printf("error: gather: need %d address%s\n", g_active, g_active == 1 ? "" : "es");
        else if (neg)
            printf("error: gather: addresses must be >= 0\n");
        else {
            printf("gather size=%lld", size);
            global_line(a, (u64)size);
        }
    } else if (!strcmp(cmd, "shared")) {
        static const long long lo[] = { 0, 0 }, hi[] = { HUGE_OK, HUGE_OK };
        if (argc != 2 || !nums(v, 2, lo, hi)) {
            printf("error: shared: BASE_WORD STRIDE_WORDS\n");
            return;
        }
        a[0] = (u64)v[0];
        for (int t = 1; t < g_active; t++)
            a[t] = a[t - 1] + (u64)v[1];
        printf("shared base=%lld stride=%lld", v[0], v[1]);
        bank_line(a);
    } else if (!strcmp(cmd, "transpose")) {
        static const long long lo[] = { 1, 0 }, hi[] = { 64, 8 };
        if (argc != 2 || !nums(v, 2, lo, hi)) {
            printf("error: transpose: TILE PAD (TILE 1-64, PAD 0-8)\n");
            return;
        }
        for (int t = 0; t < g_active; t++)
            a[t] = (u64)(t % v[0]) * (u64)(v[0] + v[1]) + (u64)(t / v[0]);
        printf("transpose tile=%lld pad=%lld", v[0], v[1]);
        bank_line(a);
    } else {
        printf("error: unknown command %s\n", cmd);
    }
}

int main(void)
{
    int c;

    for (;;) {
        skip_blanks(stdin);
        c = getc(stdin);
        if (c == '#') {
            while ((c = getc(stdin)) != '\n' && c != EOF)
                ;
        }
        if (c == '\n' || c == EOF) {
            if (g_nwords > 0)
                run_command();
            g_nwords = 0;
            g_text_len = 0;
            if (c == EOF)
                break;
            continue;
        }
        ungetc(c, stdin);
        read_word(stdin);
    }
    free(g_text);
    free(g_word);
    return 0;
}
