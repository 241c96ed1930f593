/*
 *  warp.c  --  coalescing / bank conflict calculator
 *
 *  Input is read in 8 KiB chunks and assembled into lines; a line is cut
 *  into NUL-terminated words; the first word picks a command from an enum.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned long long uint64;
typedef long long int64;

#define THREADS_PER_WARP 32
#define TOO_BIG 0x1000000000000LL   /* 2^48 */

enum command { C_NONE, C_ACTIVE, C_STRIDED, C_AOS, C_GATHER, C_SHARED,
               C_TRANSPOSE, C_UNKNOWN };

struct ctx {
    int threads;            /* active threads */
    char **word;            /* the words of the current line */
    int nword;
};

/*--------------------------------------------------------------------------*/
/* words                                                                    */

static char **wordv;
static int wordcap;

static int is_space(int c)
{
    switch (c) {
    case ' ': case '\t': case '\r': case '\v': case '\f':
        return 1;
    default:
        return 0;
    }
}

/* cuts the line (NUL-terminated, writable) into words; returns the count */
static int cut(char *line)
{
    int n = 0;
    char *p = line;

    for (;;) {
        while (is_space(*p))
            p++;
        if (*p == '\0' || *p == '#')
            break;
        if (n == wordcap) {
            wordcap = wordcap ? 2 * wordcap : 16;
            wordv = realloc(wordv, (size_t)wordcap * sizeof *wordv);
            if (wordv == NULL)
                exit(1);
        }
        wordv[n++] = p;
        while (*p != '\0' && *p != '#' && !is_space(*p))
            p++;
        if (*p == '#') {
            *p = '\0';
            break;
        }
        if (*p != '\0')
            *p++ = '\0';
    }
    return n;
}

/* number := '-'? ( [0-9]+ | '0' [xX] [0-9a-fA-F]+ ), |value| < 2^48 */
static int read_number(const char *w, int64 *out)
{
    enum { SIGN, FIRST, DEC, HEX_START, HEX } state = SIGN;
    int64 v = 0;
    int negative = 0;

    for (;; w++) {
        int c = (unsigned char)*w;
        int d = isdigit(c) ? c - '0' : isxdigit(c) ? tolower(c) - 'a' + 10 : -1;

        switch (state) {
        case SIGN:
            if (c == '-') {
                negative = 1;
                state = FIRST;
                continue;
            }
            /* fall through */
        case FIRST:
            if (c == '0' && (w[1] == 'x' || w[1] == 'X')) {
                w++;
                state = HEX_START;
                continue;
            }
            if (d < 0 || d > 9)
                return 0;
            v = d;
            state = DEC;
            continue;
        case DEC:
            if (c == '\0')
                goto done;
            if (d < 0 || d > 9)
                return 0;
            v = v * 10 + d;
            break;
        case HEX_START:
        case HEX:
            if (c == '\0' && state == HEX)
                goto done;
            if (d < 0)
                return 0;
            v = v * 16 + d;
            state = HEX;
            break;
        }
        if (v >= TOO_BIG)
            return 0;
    }
done:
    *out = negative ? -v : v;
    return 1;
}

static int args_ok(const struct ctx *cx, int64 *v, const int64 *lo,
                   const int64 *hi)
{
    int i;

    for (i = 1; i < cx->nword; i++)
        if (!read_number(cx->word[i], &v[i - 1]) || v[i - 1] < lo[i - 1] ||
            v[i - 1] > hi[i - 1])
            return 0;
    return 1;
}

/*--------------------------------------------------------------------------*/
/* model                                                                    */

struct block_range {
    uint64 first, last;
};

/* distinct blocks of 2^shift bytes under [start[i], start[i] + size) */
static uint64 distinct_blocks(const uint64 *start, uint64 size, int n,
                              int shift)
{
    struct block_range b[THREADS_PER_WARP], tmp;
    uint64 count = 0, end;
    int i, swapped;

    for (i = 0; i < n; i++) {
        b[i].first = start[i] >> shift;
        b[i].last = (start[i] + size - 1) >> shift;
    }
    do {                                    /* bubble sort by first */
        swapped = 0;
        for (i = 1; i < n; i++)
            if (b[i - 1].first > b[i].first) {
                tmp = b[i - 1];
                b[i - 1] = b[i];
                b[i] = tmp;
                swapped = 1;
            }
    } while (swapped);
    end = b[0].first;                       /* first block not yet counted */
    for (i = 0; i < n; i++) {
        uint64 from = b[i].first > end ? b[i].first : end;
        if (b[i].last + 1 > from) {
            count += b[i].last + 1 - from;
            end = b[i].last + 1;
        }
    }
    return count;
}

static void global(const struct ctx *cx, const uint64 *start, uint64 size)
{
    uint64 sec = distinct_blocks(start, size, cx->threads, 5);
    uint64 lin = distinct_blocks(start, size, cx->threads, 7);
    uint64 req = (uint64)cx->threads * size, mov = sec * 32;
    /* 1000 * req / mov, half up: whole part first so nothing overflows */
    uint64 q = req / mov, rem = req % mov;
    uint64 tenths = q * 1000 + (2000 * rem + mov) / (2 * mov);

    printf(": %d %s, %llu %s, %llu %s, requested %llu B, moved %llu B, "
           "efficiency %llu.%llu%%\n",
           cx->threads, cx->threads == 1 ? "thread" : "threads",
           sec, sec == 1 ? "sector" : "sectors",
           lin, lin == 1 ? "line" : "lines",
           req, mov, tenths / 10, tenths % 10);
}

static void banks(const struct ctx *cx, const uint64 *word)
{
    /* a tiny hash set of the distinct words, then one count per bank */
    uint64 slot[64];
    char used[64] = { 0 };
    int per_bank[32] = { 0 };
    int t, b, top = 0;

    for (t = 0; t < cx->threads; t++) {
        unsigned h = (unsigned)(word[t] * 0x9E3779B97F4A7C15ULL >> 58);
        while (used[h] && slot[h] != word[t])
            h = (h + 1) & 63;
        if (!used[h]) {
            used[h] = 1;
            slot[h] = word[t];
            per_bank[word[t] & 31]++;
        }
    }
    for (b = 0; b < 32; b++)
        if (per_bank[b] > per_bank[top])
            top = b;
    printf(": %d %s, ", cx->threads, cx->threads == 1 ? "thread" : "threads");
    if (per_bank[top] > 1)
        printf("%d passes, %d-way conflict on bank %d\n", per_bank[top],
               per_bank[top], top);
    else
        printf("1 pass, no conflict\n");
}

/*--------------------------------------------------------------------------*/
/* commands                                                                 */

static const int64 NO_MAX = TOO_BIG;

static void active(struct ctx *cx)
{
    const int64 lo[] = { 1 }, hi[] = { THREADS_PER_WARP };
    int64 v[1];

    if (cx->nword != 2 || !args_ok(cx, v, lo, hi)) {
        printf("error: active: 1-32\n");
        return;
    }
    cx->threads = (int)v[0];
}

static void strided(struct ctx *cx)
{
    const int64 lo[] = { 0, 0, 1 }, hi[] = { NO_MAX, NO_MAX, 16 };
    int64 v[3] = { 0, 0, 4 };
    uint64 at[THREADS_PER_WARP];
    int t;

    if (cx->nword < 3 || cx->nword > 4 || !args_ok(cx, v, lo, hi)) {
        printf("error: strided: BASE STRIDE [SIZE 1-16]\n");
        return;
    }
    for (t = 0; t < cx->threads; t++)
        at[t] = (uint64)v[0] + (uint64)t * (uint64)v[1] * (uint64)v[2];
    printf("strided base=%lld stride=%lld size=%lld", v[0], v[1], v[2]);
    global(cx, at, (uint64)v[2]);
}

static void aos(struct ctx *cx)
{
    const int64 lo[] = { 1, 0, 1 }, hi[] = { NO_MAX, NO_MAX, NO_MAX };
    int64 v[3];
    uint64 at[THREADS_PER_WARP];
    int t;

    if (cx->nword != 4 || !args_ok(cx, v, lo, hi) || v[1] + v[2] > v[0]) {
        printf("error: aos: STRUCT_SIZE FIELD_OFFSET FIELD_SIZE "
               "(the field must fit in the struct)\n");
        return;
    }
    for (t = 0; t < cx->threads; t++)
        at[t] = (uint64)t * (uint64)v[0] + (uint64)v[1];
    printf("aos struct=%lld offset=%lld field=%lld", v[0], v[1], v[2]);
    global(cx, at, (uint64)v[2]);
    for (t = 0; t < cx->threads; t++)
        at[t] = (uint64)t * (uint64)v[2];
    printf("soa field=%lld", v[2]);
    global(cx, at, (uint64)v[2]);
}

static void gather(struct ctx *cx)
{
    uint64 at[THREADS_PER_WARP];
    int64 size, a;
    int i, neg = 0;

    if (cx->nword < 2 || !read_number(cx->word[1], &size) || size < 1 ||
        size > 16) {
        printf("error: gather: SIZE ADDR...\n");
        return;
    }
    for (i = 2; i < cx->nword; i++) {
        if (!read_number(cx->word[i], &a)) {
            printf("error: gather: SIZE ADDR...\n");
            return;
        }
        neg += a < 0;
        if (i < THREADS_PER_WARP + 2)
            at[i - 2] = (uint64)a;
    }
    if (cx->nword - 2 != cx->threads) {
        printf("error: gather: need %d %s\n", cx->threads,
               cx->threads == 1 ? "address" : "addresses");
        return;
    }
    if (neg) {
        printf("error: gather: addresses must be >= 0\n");
        return;
    }
    printf("gather size=%lld", size);
    global(cx, at, (uint64)size);
}

static void shared(struct ctx *cx)
{
    const int64 lo[] = { 0, 0 }, hi[] = { NO_MAX, NO_MAX };
    int64 v[2];
    uint64 w[THREADS_PER_WARP];
    int t;

    if (cx->nword != 3 || !args_ok(cx, v, lo, hi)) {
        printf("error: shared: BASE_WORD STRIDE_WORDS\n");
        return;
    }
    for (t = 0; t < cx->threads; t++)
        w[t] = (uint64)v[0] + (uint64)t * (uint64)v[1];
    printf("shared base=%lld stride=%lld", v[0], v[1]);
    banks(cx, w);
}

static void transpose(struct ctx *cx)
{
    const int64 lo[] = { 1, 0 }, hi[] = { 64, 8 };
    uint64 w[THREADS_PER_WARP];
    int64 v[2];
    int t, ok = cx->nword == 3 && args_ok(cx, v, lo, hi);

    if (!ok) {
        printf("error: transpose: TILE PAD (TILE 1-64, PAD 0-8)\n");
        return;
    }
    for (t = 0; t < cx->threads; t++) {
        int64 x = t % v[0], y = t / v[0];
        w[t] = (uint64)(x * (v[0] + v[1]) + y);
    }
    printf("transpose tile=%lld pad=%lld", v[0], v[1]);
    banks(cx, w);
}

static enum command classify(const struct ctx *cx)
{
    static const char *const names[] = { "active", "strided", "aos", "gather",
                                         "shared", "transpose" };
    int i;

    if (cx->nword == 0)
        return C_NONE;
    for (i = 0; i < 6; i++)
        if (strcmp(cx->word[0], names[i]) == 0)
            return (enum command)(C_ACTIVE + i);
    return C_UNKNOWN;
}

static void handle(char *line)
{
    struct ctx cx = { THREADS_PER_WARP, NULL, 0 };

    cx.nword = cut(line);
    cx.word = wordv;
    switch (classify(&cx)) {
    case C_NONE:      break;
    case C_ACTIVE:    active(&cx); break;
    case C_STRIDED:   strided(&cx); break;
    case C_AOS:       aos(&cx); break;
    case C_GATHER:    gather(&cx); break;
    case C_SHARED:    shared(&cx); break;
    case C_TRANSPOSE: transpose(&cx); break;
    case C_UNKNOWN:
        printf("error: unknown command %s\n", cx.word[0]);
        break;
    }
}

int main(void)
{
    static char chunk[8192];
    char *line = NULL;
    size_t len = 0, cap = 0, got, i;

    while ((got = fread(chunk, 1, sizeof chunk, stdin)) > 0) {
        for (i = 0; i < got; i++) {
            if (len + 1 >= cap) {
                cap = cap ? 2 * cap : 1024;
                line = realloc(line, cap);
                if (line == NULL)
                    return 1;
            }
            if (chunk[i] == '\n') {
                line[len] = '\0';
                handle(line);
                len = 0;
            } else {
                line[len++] = chunk[i];
            }
        }
    }
    if (len > 0) {
        line[len] = '\0';
        handle(line);
    }
    free(line);
    free(wordv);
    return 0;
}
