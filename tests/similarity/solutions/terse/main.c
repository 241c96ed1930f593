#include <stdio.h>
#include <string.h>
typedef long long L;
typedef unsigned long long U;
static int N = 32, argc_;
static char *av[1024];
static L x[1024];
#define S(n) ((n) == 1 ? "" : "s")

static int num(char *s, L *o) {
  int m = *s == '-', h;
  U v = 0;
  s += m;
  h = s[0] == '0' && (s[1] | 32) == 'x';
  s += 2 * h;
  if (!*s) return 0;
  do {
    int c = *s, d = c >= '0' && c <= '9' ? c - '0' : h && (c | 32) >= 'a' && (c | 32) <= 'f' ? (c | 32) - 'a' + 10 : -1;
    if (d < 0) return 0;
    v = v * (h ? 16 : 10) + d;
    if (v >> 48) return 0;
  } while (*++s);
  *o = m ? -(L)v : (L)v;
  return 1;
}

/* union of [a[i], a[i]+z) in units of g: mark units in a small list */
static U uni(U *a, U z, U g) {
  U lo[32], hi[32], c = 0;
  int i, j;
  for (i = 0; i < N; i++) lo[i] = a[i] / g, hi[i] = (a[i] + z - 1) / g;
  for (i = 1; i < N; i++)
    for (j = i; j > 0 && lo[j - 1] > lo[j]; j--) {
      U t = lo[j]; lo[j] = lo[j - 1]; lo[j - 1] = t;
      t = hi[j]; hi[j] = hi[j - 1]; hi[j - 1] = t;
    }
  U e = lo[0];
  for (i = 0; i < N; i++) {
    U s = lo[i] > e ? lo[i] : e;
    if (hi[i] + 1 > s) c += hi[i] + 1 - s, e = hi[i] + 1;
  }
  return c;
}

static void glob(char *lab, U *a, U z) {
  U s = uni(a, z, 32), l = uni(a, z, 128), r = N * z, m = s * 32, e = (r * 2000 / m + 1) / 2;
  printf("%s: %d thread%s, %llu sector%s, %llu line%s, requested %llu B, moved %llu B, efficiency %llu.%llu%%\n",
         lab, N, S(N), s, S(s), l, S(l), r, m, e / 10, e % 10);
}

static void bank(char *lab, U *w) {
  int c[32] = {0}, i, j, b = 0;
  for (i = 0; i < N; i++) {
    for (j = 0; j < i && w[j] != w[i]; j++);
    c[w[i] & 31] += j == i;
  }
  for (i = 0; i < 32; i++) if (c[i] > c[b]) b = i;
  if (c[b] < 2) printf("%s: %d thread%s, 1 pass, no conflict\n", lab, N, S(N));
  else printf("%s: %d thread%s, %d passes, %d-way conflict on bank %d\n", lab, N, S(N), c[b], c[b], b);
}

static int nums(int from) {
  for (int i = from; i < argc_; i++) if (!num(av[i], &x[i])) return 0;
  return 1;
}

static void line(char *p) {
  char lab[128], *q;
  U a[32];
  int t;
  argc_ = 0;
  if ((q = strchr(p, '#'))) *q = 0;
  for (q = strtok(p, " \t\r\n\v\f"); q && argc_ < 1024; q = strtok(0, " \t\r\n\v\f")) av[argc_++] = q;
  if (!argc_) return;
  char *c = av[0];
  int ok = nums(1);
  if (!strcmp(c, "active")) {
    if (argc_ != 2 || !ok || x[1] < 1 || x[1] > 32) puts("error: active: 1-32");
    else N = x[1];
  } else if (!strcmp(c, "strided")) {
    x[3] = 4;
    if (argc_ < 3 || argc_ > 4 || !ok || x[1] < 0 || x[2] < 0 || x[3] < 1 || x[3] > 16) { puts("error: strided: BASE STRIDE [SIZE 1-16]"); return; }
    for (t = 0; t < N; t++) a[t] = x[1] + (U)t * x[2] * x[3];
    sprintf(lab, "strided base=%lld stride=%lld size=%lld", x[1], x[2], x[3]);
    glob(lab, a, x[3]);
  } else if (!strcmp(c, "aos")) {
    if (argc_ != 4 || !ok || x[1] < 1 || x[2] < 0 || x[3] < 1 || x[2] + x[3] > x[1]) { puts("error: aos: STRUCT_SIZE FIELD_OFFSET FIELD_SIZE (the field must fit in the struct)"); return; }
    for (t = 0; t < N; t++) a[t] = (U)t * x[1] + x[2];
    sprintf(lab, "aos struct=%lld offset=%lld field=%lld", x[1], x[2], x[3]);
    glob(lab, a, x[3]);
    for (t = 0; t < N; t++) a[t] = (U)t * x[3];
    sprintf(lab, "soa field=%lld", x[3]);
    glob(lab, a, x[3]);
  } else if (!strcmp(c, "gather")) {
    if (argc_ < 2 || !ok || x[1] < 1 || x[1] > 16) { puts("error: gather: SIZE ADDR..."); return; }
    if (argc_ - 2 != N) { printf("error: gather: need %d address%s\n", N, N == 1 ? "" : "es"); return; }
    for (t = 0; t < N; t++) { if (x[t + 2] < 0) { puts("error: gather: addresses must be >= 0"); return; } a[t] = x[t + 2]; }
    sprintf(lab, "gather size=%lld", x[1]);
    glob(lab, a, x[1]);
  } else if (!strcmp(c, "shared")) {
    if (argc_ != 3 || !ok || x[1] < 0 || x[2] < 0) { puts("error: shared: BASE_WORD STRIDE_WORDS"); return; }
    /*@split shared_words: U *a, int t*/
    for (t = 0; t < N; t++) a[t] = x[1] + (U)t * x[2];
    /*@end*/
    sprintf(lab, "shared base=%lld stride=%lld", x[1], x[2]);
    bank(lab, a);
  } else if (!strcmp(c, "transpose")) {
    if (argc_ != 3 || !ok || x[1] < 1 || x[1] > 64 || x[2] < 0 || x[2] > 8) { puts("error: transpose: TILE PAD (TILE 1-64, PAD 0-8)"); return; }
    for (t = 0; t < N; t++) a[t] = (U)(t % x[1]) * (x[1] + x[2]) + t / x[1];
    sprintf(lab, "transpose tile=%lld pad=%lld", x[1], x[2]);
    bank(lab, a);
  } else printf("error: unknown command %s\n", c);
}

int main(void) {
  static char b[1 << 16];
  while (fgets(b, sizeof b, stdin)) line(b);
  return 0;
}
