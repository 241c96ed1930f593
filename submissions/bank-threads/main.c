/* coalesce.c
 *
 * Assignment 3, memory coalescing.  Each input line is turned into a
 * "request": the command name plus its arguments already converted to
 * numbers (and a note of whether they all were numbers), then the request
 * is answered.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WARP_SIZE   32
#define NUM_BANKS   32
#define SECTOR      32
#define CACHE_LINE  128
#define MAGNITUDE   ((int64_t)1 << 48)

struct request
{
  char name[16];        /* command name, truncated; name_len is the real one */
  size_t name_len;
  const char *raw_name; /* for the "unknown command" message */
  size_t nargs;
  int64_t *arg;
  size_t arg_cap;
  int all_numbers;      /* every argument parsed */
};

static int warp_active = WARP_SIZE;

/* ------------------------------------------------------------------ */
/* reading lines of any length with fgets                              */

static char *
read_line (FILE *in, size_t *out_len)
{
  static char *buf;
  static size_t cap;
  size_t len = 0;

  if (cap == 0)
    {
      cap = 4096;
      buf = malloc (cap);
      if (buf == NULL)
        exit (1);
    }
  for (;;)
    {
      if (fgets (buf + len, (int) (cap - len), in) == NULL)
        break;
      len += strlen (buf + len);
      if (len > 0 && buf[len - 1] == '\n')
        {
          buf[--len] = '\0';
          *out_len = len;
          return buf;
        }
      if (cap - len < 2)
        {
          cap *= 2;
          buf = realloc (buf, cap);
          if (buf == NULL)
            exit (1);
        }
    }
  if (len == 0)
    return NULL;
  *out_len = len;
  return buf;
}

/* ------------------------------------------------------------------ */
/* tokens and numbers                                                  */

static const char SEPARATORS[] = " \t\r\v\f";

static int
hex_digit (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return 99;
}

/* text[0..len) as a number of the exercise; 0 on success */
static int
to_int64 (const char *text, size_t len, int64_t *value)
{
  size_t i = 0;
  int sign = 1, radix = 10;
  int64_t v = 0;

  if (i < len && text[i] == '-')
    {
      sign = -1;
      i++;
    }
  if (len - i >= 2 && text[i] == '0' && (text[i + 1] == 'x' || text[i + 1] == 'X'))
    {
      radix = 16;
      i += 2;
    }
  if (i == len)
    return -1;
  for (; i < len; i++)
    {
      int d = hex_digit (text[i]);
      if (d >= radix)
        return -1;
      v = v * radix + d;
      if (v >= MAGNITUDE)
        return -1;
    }
  *value = sign * v;
  return 0;
}

static void
add_arg (struct request *rq, int64_t v)
{
  if (rq->nargs == rq->arg_cap)
    {
      rq->arg_cap = rq->arg_cap ? 2 * rq->arg_cap : 8;
      rq->arg = realloc (rq->arg, rq->arg_cap * sizeof *rq->arg);
      if (rq->arg == NULL)
        exit (1);
    }
  rq->arg[rq->nargs++] = v;
}

/* Fills rq from the line; returns 0 for a line with nothing on it. */
static int
parse_request (struct request *rq, char *line, size_t len)
{
  char *hash = memchr (line, '#', len);
  char *p = line, *end;

  if (hash != NULL)
    *hash = '\0';
  end = line + strlen (line);
  rq->nargs = 0;
  rq->all_numbers = 1;
  p += strspn (p, SEPARATORS);
  if (p == end)
    return 0;
  rq->name_len = strcspn (p, SEPARATORS);
  rq->raw_name = p;
  memset (rq->name, 0, sizeof rq->name);
  memcpy (rq->name, p, rq->name_len < 15 ? rq->name_len : 15);
  p += rq->name_len;
  for (;;)
    {
      size_t n;
      int64_t v = 0;

      p += strspn (p, SEPARATORS);
      if (p == end)
        break;
      n = strcspn (p, SEPARATORS);
      if (to_int64 (p, n, &v) != 0)
        rq->all_numbers = 0;
      add_arg (rq, v);
      p += n;
    }
  return 1;
}

/* ------------------------------------------------------------------ */
/* the memory model                                                    */

struct interval
{
  uint64_t lo, hi;
};

/* distinct blocks of block_size bytes under the threads' byte ranges */
static uint64_t
count_blocks (const uint64_t *addr, uint64_t size, int threads,
              uint64_t block_size)
{
  struct interval iv[WARP_SIZE];
  uint64_t count = 0, next_free = 0;
  int i, j;

  for (i = 0; i < threads; i++)
    {
      struct interval x;
      x.lo = addr[i] / block_size;
      x.hi = (addr[i] + size - 1) / block_size;
      for (j = i; j > 0 && iv[j - 1].lo > x.lo; j--)
        iv[j] = iv[j - 1];
      iv[j] = x;
    }
  for (i = 0; i < threads; i++)
    {
      uint64_t from = iv[i].lo;
      if (i > 0 && from < next_free)
        from = next_free;
      if (iv[i].hi >= from)
        {
          count += iv[i].hi - from + 1;
          next_free = iv[i].hi + 1;
        }
    }
  return count;
}

static const char *
s_if_many (uint64_t n)
{
  return n == 1 ? "" : "s";
}

static void
print_global (const char *label, const uint64_t *addr, uint64_t size)
{
  uint64_t sectors = count_blocks (addr, size, warp_active, SECTOR);
  uint64_t lines = count_blocks (addr, size, warp_active, CACHE_LINE);
  uint64_t requested = (uint64_t) warp_active * size;
  uint64_t moved = sectors * SECTOR;
  /* requested < 2^53, so 1000 * requested still fits in 64 bits */
  uint64_t tenths = requested * 1000 / moved;
  uint64_t rest = requested * 1000 % moved;

  if (2 * rest >= moved)
    tenths++;
  printf ("%s: %d thread%s, %llu sector%s, %llu line%s, requested %llu B, "
          "moved %llu B, efficiency %llu.%u%%\n",
          label, warp_active, s_if_many ((uint64_t) warp_active),
          (unsigned long long) sectors, s_if_many (sectors),
          (unsigned long long) lines, s_if_many (lines),
          (unsigned long long) requested, (unsigned long long) moved,
          (unsigned long long) (tenths / 10), (unsigned) (tenths % 10));
}

static void
print_shared (const char *label, const uint64_t *word)
{
  int load[NUM_BANKS] = { 0 };
  int bank, worst = 0, t;

  /* a bank serves one access per pass */
  for (t = 0; t < warp_active; t++)
    load[word[t] % NUM_BANKS]++;
  for (bank = 1; bank < NUM_BANKS; bank++)
    if (load[bank] > load[worst])
      worst = bank;
  if (load[worst] == 1)
    printf ("%s: %d thread%s, 1 pass, no conflict\n", label, warp_active,
            s_if_many ((uint64_t) warp_active));
  else
    printf ("%s: %d thread%s, %d passes, %d-way conflict on bank %d\n",
            label, warp_active, s_if_many ((uint64_t) warp_active),
            load[worst], load[worst], worst);
}

/* ------------------------------------------------------------------ */
/* answering requests                                                  */

static int
in_range (const struct request *rq, size_t i, int64_t lo, int64_t hi)
{
  return rq->arg[i] >= lo && rq->arg[i] <= hi;
}

static void
answer (const struct request *rq)
{
  uint64_t a[WARP_SIZE];
  char label[160];
  int t;
  const int64_t *v = rq->arg;
  const int64_t ANY = MAGNITUDE;

  if (strcmp (rq->name, "active") == 0 && rq->name_len == 6)
    {
      if (rq->nargs != 1 || !rq->all_numbers || !in_range (rq, 0, 1, WARP_SIZE))
        puts ("error: active: 1-32");
      else
        warp_active = (int) v[0];
    }
  else if (strcmp (rq->name, "strided") == 0 && rq->name_len == 7)
    {
      int64_t size = rq->nargs == 3 ? v[2] : 4;
      if (rq->nargs < 2 || rq->nargs > 3 || !rq->all_numbers
          || !in_range (rq, 0, 0, ANY) || !in_range (rq, 1, 0, ANY)
          || size < 1 || size > 16)
        {
          puts ("error: strided: BASE STRIDE [SIZE 1-16]");
          return;
        }
      for (t = 0; t < warp_active; t++)
        a[t] = (uint64_t) v[0] + (uint64_t) t * (uint64_t) v[1] * (uint64_t) size;
      sprintf (label, "strided base=%lld stride=%lld size=%lld",
               (long long) v[0], (long long) v[1], (long long) size);
      print_global (label, a, (uint64_t) size);
    }
  else if (strcmp (rq->name, "aos") == 0 && rq->name_len == 3)
    {
      if (rq->nargs != 3 || !rq->all_numbers || !in_range (rq, 0, 1, ANY)
          || !in_range (rq, 1, 0, ANY) || !in_range (rq, 2, 1, ANY)
          || v[1] + v[2] > v[0])
        {
          puts ("error: aos: STRUCT_SIZE FIELD_OFFSET FIELD_SIZE "
                "(the field must fit in the struct)");
          return;
        }
      for (t = 0; t < warp_active; t++)
        a[t] = (uint64_t) t * (uint64_t) v[0] + (uint64_t) v[1];
      sprintf (label, "aos struct=%lld offset=%lld field=%lld",
               (long long) v[0], (long long) v[1], (long long) v[2]);
      print_global (label, a, (uint64_t) v[2]);
      for (t = 0; t < warp_active; t++)
        a[t] = (uint64_t) t * (uint64_t) v[2];
      sprintf (label, "soa field=%lld", (long long) v[2]);
      print_global (label, a, (uint64_t) v[2]);
    }
  else if (strcmp (rq->name, "gather") == 0 && rq->name_len == 6)
    {
      size_t i;
      if (rq->nargs < 1 || !rq->all_numbers || !in_range (rq, 0, 1, 16))
        puts ("error: gather: SIZE ADDR...");
      else if (rq->nargs - 1 != (size_t) warp_active)
        printf ("error: gather: need %d address%s\n", warp_active,
                warp_active == 1 ? "" : "es");
      else
        {
          for (i = 1; i < rq->nargs; i++)
            if (v[i] < 0)
              {
                puts ("error: gather: addresses must be >= 0");
                return;
              }
          for (t = 0; t < warp_active; t++)
            a[t] = (uint64_t) v[t + 1];
          sprintf (label, "gather size=%lld", (long long) v[0]);
          print_global (label, a, (uint64_t) v[0]);
        }
    }
  else if (strcmp (rq->name, "shared") == 0 && rq->name_len == 6)
    {
      if (rq->nargs != 2 || !rq->all_numbers || !in_range (rq, 0, 0, ANY)
          || !in_range (rq, 1, 0, ANY))
        {
          puts ("error: shared: BASE_WORD STRIDE_WORDS");
          return;
        }
      for (t = 0; t < warp_active; t++)
        a[t] = (uint64_t) v[0] + (uint64_t) t * (uint64_t) v[1];
      sprintf (label, "shared base=%lld stride=%lld", (long long) v[0],
               (long long) v[1]);
      print_shared (label, a);
    }
  else if (strcmp (rq->name, "transpose") == 0 && rq->name_len == 9)
    {
      if (rq->nargs != 2 || !rq->all_numbers || !in_range (rq, 0, 1, 64)
          || !in_range (rq, 1, 0, 8))
        {
          puts ("error: transpose: TILE PAD (TILE 1-64, PAD 0-8)");
          return;
        }
      for (t = 0; t < warp_active; t++)
        a[t] = (uint64_t) (t % v[0]) * (uint64_t) (v[0] + v[1])
               + (uint64_t) (t / v[0]);
      sprintf (label, "transpose tile=%lld pad=%lld", (long long) v[0],
               (long long) v[1]);
      print_shared (label, a);
    }
  else
    {
      fputs ("error: unknown command ", stdout);
      fwrite (rq->raw_name, 1, rq->name_len, stdout);
      putchar ('\n');
    }
}

int
main (void)
{
  struct request rq;
  char *line;
  size_t len;

  memset (&rq, 0, sizeof rq);
  while ((line = read_line (stdin, &len)) != NULL)
    if (parse_request (&rq, line, len))
      answer (&rq);
  free (rq.arg);
  return 0;
}
