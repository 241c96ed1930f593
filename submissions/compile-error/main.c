/*
 * Coalescing assignment
 *
 * A small buffered reader hands out one line at a time; the line is
 * tokenized into a Tokens struct; the command is looked up in a table of
 * {name, argument counts, usage, handler}.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WARP_THREADS 32u
#define BANK_COUNT   32u
#define NUMBER_LIMIT 0x1000000000000ull

typedef struct
{
    char  *data;
    size_t start, end, cap;
    int    eof;
} Reader;

typedef struct
{
    const char **text;
    size_t      *len;
    size_t       count, cap;
} Tokens;

typedef struct
{
    unsigned active;
} State;

/* ======================================================== reader */

/* Returns the next line (without '\n') in *line / *len; 0 at the end. */
static int reader_next(Reader *r, const char **line, size_t *len)
{
    for (;;)
    {
        char *nl = r->end > r->start
                   ? memchr(r->data + r->start, '\n', r->end - r->start)
                   : NULL;
        if (nl != NULL)
        {
            *line = r->data + r->start;
            *len = (size_t)(nl - *line);
            r->start += *len + 1;
            return 1;
        }
        if (r->eof)
        {
            if (r->start == r->end)
                return 0;
            *line = r->data + r->start;
            *len = r->end - r->start;
            r->start = r->end;
            return 1;
        }
        /* keep the partial line, make room, read more */
        if (r->start > 0)
        {
            memmove(r->data, r->data + r->start, r->end - r->start);
            r->end -= r->start;
            r->start = 0;
        }
        if (r->end == r->cap)
        {
            r->cap = r->cap ? 2 * r->cap : 65536;
            r->data = realloc(r->data, r->cap);
            if (r->data == NULL)
                exit(1);
        }
        size_t got = fread(r->data + r->end, 1, r->cap - r->end, stdin);
        r->end += got;
        if (got == 0)
            r->eof = 1;
    }
}

/* ======================================================== tokens */

static int is_blank(char c)
{
    return strchr(" \t\r\v\f", c) != NULL && c != '\0';
}

static void tokenize(Tokens *t, const char *s, size_t n)
{
    size_t i = 0;

    t->count = 0;
    while (i < n && s[i] != '#')
    {
        size_t j = i;
        if (is_blank(s[i]))
        {
            i++;
            continue;
        }
        while (j < n && s[j] != '#' && !is_blank(s[j]))
            j++;
        if (t->count == t->cap)
        {
            t->cap = t->cap ? 2 * t->cap : 32;
            t->text = realloc(t->text, t->cap * sizeof *t->text);
            t->len = realloc(t->len, t->cap * sizeof *t->len);
            if (t->text == NULL || t->len == NULL)
                exit(1);
        }
        t->text[t->count] = s + i;
        t->len[t->count] = j - i;
        t->count++;
        i = j;
    }
}

static bool parse_number(const char *s, size_t n, int64_t *value)
{
    size_t i = 0;
    bool negative = false;
    unsigned base = 10;
    uint64_t v = 0;

    if (i < n && s[i] == '-')
    {
        negative = true;
        i++;
    }
    if (n - i >= 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X'))
    {
        base = 16;
        i += 2;
    }
    if (i == n)
        return false;
    while (i < n)
    {
        char c = s[i++];
        unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
                   : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                   : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
                   : 99u;
        if (d >= base)
            return false;
        v = v * base + d;
        if (v >= NUMBER_LIMIT)
            return false;
    }
    *value = negative ? -(int64_t)v : (int64_t)v;
    return true;
}

/* ======================================================== model */

typedef struct
{
    uint64_t first, last;
} Interval;

static int compare_intervals(const void *a, const void *b)
{
    const Interval *x = a, *y = b;
    return (x->first > y->first) - (x->first < y->first);
}

static uint64_t union_size(Interval *iv, unsigned n)
{
    uint64_t size = 0, covered_to = 0;
    bool any = false;

    qsort(iv, n, sizeof *iv, compare_intervals);
    for (unsigned i = 0; i < n; i++)
    {
        uint64_t from = iv[i].first;
        if (any && from <= covered_to)
            from = covered_to + 1;
        if (iv[i].last >= from)
            size += iv[i].last - from + 1;
        if (!any || iv[i].last > covered_to)
            covered_to = iv[i].last;
        any = true;
    }
    return size;
}

static uint64_t blocks(const uint64_t *addr, uint64_t bytes, unsigned n,
                       unsigned block_bits)
{
    Interval iv[WARP_THREADS];

    for (unsigned i = 0; i < n; i++)
    {
        iv[i].first = addr[i] >> block_bits;
        iv[i].last = (addr[i] + bytes - 1) >> block_bits;
    }
    return union_size(iv, n);
}

static const char *suffix(uint64_t n)
{
    return n == 1 ? "" : "s";
}

static void global_result(const State *st, const uint64_t *addr, uint64_t bytes)
{
    uint64_t sectors = blocks(addr, bytes, st->active, 5);
    uint64_t lines = blocks(addr, bytes, st->active, 7);
    uint64_t requested = st->active * bytes;
    uint64_t moved = sectors * 32;
    uint64_t whole = requested / moved, part = requested % moved;
    /* 1000 * part / moved rounded half up; part < moved, so no overflow */
    uint64_t tenths = whole * 1000 + (part * 2000 + moved) / (2 * moved);

    printf(": %u thread%s, %llu sector%s, %llu line%s, requested %llu B, "
           "moved %llu B, efficiency %llu.%llu%%\n",
           st->active, suffix(st->active),
           (unsigned long long)sectors, suffix(sectors),
           (unsigned long long)lines, suffix(lines),
           (unsigned long long)requested, (unsigned long long)moved,
           (unsigned long long)(tenths / 10), (unsigned long long)(tenths % 10));
}

static void bank_result(const State *st, const uint64_t *word)
{
    unsigned distinct[BANK_COUNT] = { 0 };
    unsigned worst = 0;

    for (unsigned t = 0; t < st->active; t++)
    {
        bool repeated = false;
        for (unsigned u = 0; u < t; u++)
            if (word[u] == word[t])
                repeated = true;
        if (!repeated)
            distinct[word[t] % BANK_COUNT]++;
    }
    for (unsigned b = 1; b < BANK_COUNT; b++)
        if (distinct[b] > distinct[worst])
            worst = b;
    printf(": %u thread%s, ", st->active, suffix(st->active));
    if (distinct[worst] == 1)
        printf("1 pass, no conflict\n");
    else
        printf("%u passes, %u-way conflict on bank %u\n", distinct[worst],
               distinct[worst], worst);
}

/* ======================================================== commands */

typedef bool Handler(State *st, const Tokens *t);

/* all arguments as numbers, argument i within [lo[i], hi[i]] */
static bool numbers(const Tokens *t, int64_t *v, const int64_t *lo,
                    const int64_t *hi)
{
    for (size_t i = 1; i < t->count; i++)
        if (!parse_number(t->text[i], t->len[i], &v[i - 1]) ||
            v[i - 1] < lo[i - 1] || v[i - 1] > hi[i - 1])
            return false;
    return true;
}

#define UNBOUNDED ((int64_t)NUMBER_LIMIT)

static bool run_active(State *st, const Tokens *t)
{
    static const int64_t lo[] = { 1 }, hi[] = { WARP_THREADS };
    int64_t v[1];

    if (!numbers(t, v, lo, hi))
        return false;
    st->active = (unsigned)v[0];
    return true;
}

static bool run_strided(State *st, const Tokens *t)
{
    static const int64_t lo[] = { 0, 0, 1 }, hi[] = { UNBOUNDED, UNBOUNDED, 16 };
    int64_t v[3] = { 0, 0, 4 };
    uint64_t addr[WARP_THREADS];

    if (!numbers(t, v, lo, hi))
        return false;
    for (unsigned i = 0; i < st->active; i++)
        addr[i] = (uint64_t)v[0] + i * (uint64_t)v[1] * (uint64_t)v[2];
    printf("strided base=%lld stride=%lld size=%lld", (long long)v[0],
           (long long)v[1], (long long)v[2]);
    global_result(st, addr, (uint64_t)v[2]);
    return true;
}

static bool run_aos(State *st, const Tokens *t)
{
    static const int64_t lo[] = { 1, 0, 1 }, hi[] = { UNBOUNDED, UNBOUNDED, UNBOUNDED };
    int64_t v[3];
    uint64_t addr[WARP_THREADS];

    if (!numbers(t, v, lo, hi) || v[1] + v[2] > v[0])
        return false;
    for (unsigned i = 0; i < st->active; i++)
        addr[i] = i * (uint64_t)v[0] + (uint64_t)v[1];
    printf("aos struct=%lld offset=%lld field=%lld", (long long)v[0],
           (long long)v[1], (long long)v[2]);
    global_result(st, addr, (uint64_t)v[2]);
    for (unsigned i = 0; i < st->active; i++)
        addr[i] = i * (uint64_t)v[2];
    printf("soa field=%lld", (long long)v[2]);
    global_result(st, addr, (uint64_t)v[2]);
    return true;
}

static bool run_gather(State *st, const Tokens *t)
{
    uint64_t addr[WARP_THREADS];
    int64_t size, a;
    bool negative = false;

    if (!parse_number(t->text[1], t->len[1], &size) || size < 1 || size > 16)
        return false;
    for (size_t i = 2; i < t->count; i++)
    {
        if (!parse_number(t->text[i], t->len[i], &a))
            return false;
        if (a < 0)
            negative = true;
        else if (i - 2 < WARP_THREADS)
            addr[i - 2] = (uint64_t)a;
    }
    if (t->count - 2 != st->active)
        printf("error: gather: need %u address%s\n", st->active,
               st->active == 1 ? "" : "es");
    else if (negative)
        printf("error: gather: addresses must be >= 0\n");
    else
    {
        printf("gather size=%lld", (long long)size);
        global_result(st, addr, (uint64_t)size);
    }
    return true;
}

static bool run_shared(State *st, const Tokens *t)
{
    static const int64_t lo[] = { 0, 0 }, hi[] = { UNBOUNDED, UNBOUNDED };
    int64_t v[2];
    uint64_t word[WARP_THREADS];

    if (!numbers(t, v, lo, hi))
        return false;
    for (unsigned i = 0; i < st->active; i++)
        word[i] = (uint64_t)v[0] + i * (uint64_t)v[1];
    printf("shared base=%lld stride=%lld", (long long)v[0], (long long)v[1]);
    bank_result(st, word);
    return true;
}

static bool run_transpose(State *st, const Tokens *t)
{
    static const int64_t lo[] = { 1, 0 }, hi[] = { 64, 8 };
    int64_t v[2];
    uint64_t word[WARP_THREADS];

    if (!numbers(t, v, lo, hi))
        return false;
    for (unsigned i = 0; i < st->active; i++)
        word[i] = (i % (uint64_t)v[0]) * (uint64_t)(v[0] + v[1]) + i / (uint64_t)v[0];
    printf("transpose tile=%lld pad=%lld", (long long)v[0], (long long)v[1]);
    bank_result(st, word);
    return true;
}

static const struct
{
    const char *name;
    size_t      min_args, max_args;
    const char *usage;
    Handler    *run;
} COMMANDS[] = {
    { "active",    1, 1,        "active: 1-32", run_active },
    { "strided",   2, 3,        "strided: BASE STRIDE [SIZE 1-16]", run_strided },
    { "aos",       3, 3,        "aos: STRUCT_SIZE FIELD_OFFSET FIELD_SIZE (the field must fit in the struct)", run_aos },
    { "gather",    1, SIZE_MAX, "gather: SIZE ADDR...", run_gather },
    { "shared",    2, 2,        "shared: BASE_WORD STRIDE_WORDS", run_shared },
    { "transpose", 2, 2,        "transpose: TILE PAD (TILE 1-64, PAD 0-8)", run_transpose },
};

static void dispatch(State *st, const Tokens *t)
{
    size_t nargs = t->count - 1;

    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
    {
        if (strlen(COMMANDS[i].name) != t->len[0] ||
            memcmp(COMMANDS[i].name, t->text[0], t->len[0]) != 0)
            continue;
        if (nargs < COMMANDS[i].min_args || nargs > COMMANDS[i].max_args ||
            !COMMANDS[i].run(st, t))
            printf("error: %s\n", COMMANDS[i].usage);
        return;
    }
    printf("error: unknown command %.*s\n", (int)t->len[0], t->text[0]);
}

int main(void)
{
    Reader in = { 0 };
    Tokens tok = { 0 };
    State st = { WARP_THREADS };
    const char *line;
    size_t len;

    while (reader_next(&in, &line, &len))
    {
        tokenize(&tok, line, len);
        if (tok.count > 0)
            dispatch(&st, &tok);
    }
    free(in.data);
    free(tok.text);
    free(tok.len);
    return 0;
}
