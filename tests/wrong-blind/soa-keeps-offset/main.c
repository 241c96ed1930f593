#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

/* Reads all of stdin at once, then goes line by line. */

#define WARP 32
#define LIMIT ((uint64_t)1 << 48)

struct tok {
	const char *p;
	size_t n;
};

struct ival {
	uint64_t lo, hi;
};

static int nact = WARP;
static char outbuf[1 << 16];
static size_t outlen;

static void flush_out(void)
{
	fwrite(outbuf, 1, outlen, stdout);
	outlen = 0;
}

static void emit(const char *s, size_t n)
{
	while (n > 0) {
		size_t room = sizeof(outbuf) - outlen;
		size_t k = n < room ? n : room;
		memcpy(outbuf + outlen, s, k);
		outlen += k;
		s += k;
		n -= k;
		if (outlen == sizeof(outbuf))
			flush_out();
	}
}

static void emits(const char *s)
{
	emit(s, strlen(s));
}

static void emitu(uint64_t v)
{
	char b[32];
	int k = snprintf(b, sizeof b, "%llu", (unsigned long long)v);
	emit(b, (size_t)k);
}

static int sep(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* 0 ok, -1 bad. *neg set for negative numbers, *mag magnitude */
static int number(struct tok t, int *neg, uint64_t *mag)
{
	size_t i = 0;
	unsigned base = 10;
	uint64_t v = 0;
	*neg = 0;
	if (i < t.n && t.p[i] == '-') {
		*neg = 1;
		i++;
	}
	if (t.n - i >= 2 && t.p[i] == '0' && (t.p[i + 1] == 'x' || t.p[i + 1] == 'X')) {
		base = 16;
		i += 2;
	}
	if (i == t.n)
		return -1;
	for (; i < t.n; i++) {
		int d = hexval(t.p[i]);
		if (d < 0 || (unsigned)d >= base)
			return -1;
		v = v * base + (unsigned)d;
		if (v >= LIMIT)
			return -1;
	}
	*mag = v;
	return 0;
}

/* a non-negative number in [lo, hi] */
static int unum(struct tok t, uint64_t lo, uint64_t hi, uint64_t *out)
{
	int neg;
	uint64_t m;
	if (number(t, &neg, &m) < 0)
		return -1;
	if (neg && m != 0)
		return -1;
	if (m < lo || m > hi)
		return -1;
	*out = m;
	return 0;
}

static void sort_ivals(struct ival *v, int n)
{
	for (int i = 1; i < n; i++) {
		struct ival x = v[i];
		int j = i - 1;
		while (j >= 0 && v[j].lo > x.lo) {
			v[j + 1] = v[j];
			j--;
		}
		v[j + 1] = x;
	}
}

static uint64_t union_len(struct ival *v, int n)
{
	uint64_t sum = 0, clo, chi;
	sort_ivals(v, n);
	clo = v[0].lo;
	chi = v[0].hi;
	for (int i = 1; i < n; i++) {
		if (v[i].lo > chi) {
			sum += chi - clo + 1;
			clo = v[i].lo;
			chi = v[i].hi;
		} else if (v[i].hi > chi) {
			chi = v[i].hi;
		}
	}
	return sum + chi - clo + 1;
}

static void global_result(const uint64_t *start, uint64_t size)
{
	struct ival s[WARP], l[WARP];
	for (int t = 0; t < nact; t++) {
		uint64_t end = start[t] + size - 1;
		s[t].lo = start[t] / 32;
		s[t].hi = end / 32;
		l[t].lo = start[t] / 128;
		l[t].hi = end / 128;
	}
	uint64_t sectors = union_len(s, nact), lines = union_len(l, nact);
	uint64_t req = (uint64_t)nact * size, moved = sectors * 32;
	/* tenths of a percent, half up: floor((1000 req + moved/2) / moved)
	 * without overflow: split req = q*moved + r */
	uint64_t q = req / moved, r = req % moved;
	uint64_t tenths = q * 1000;
	uint64_t r1000 = r * 1000; /* r < moved <= 2^54, so keep going by parts */
	if (moved < ((uint64_t)1 << 53)) {
		tenths += (r1000 + moved / 2) / moved;
	} else {
		uint64_t acc = r;
		uint64_t t2 = 0;
		for (int k = 0; k < 3; k++) {
			acc *= 10;
			t2 = t2 * 10 + acc / moved;
			acc %= moved;
		}
		if (acc * 2 >= moved)
			t2++;
		tenths += t2;
	}
	emits(": ");
	emitu((uint64_t)nact);
	emits(nact == 1 ? " thread, " : " threads, ");
	emitu(sectors);
	emits(sectors == 1 ? " sector, " : " sectors, ");
	emitu(lines);
	emits(lines == 1 ? " line, " : " lines, ");
	emits("requested ");
	emitu(req);
	emits(" B, moved ");
	emitu(moved);
	emits(" B, efficiency ");
	emitu(tenths / 10);
	emits(".");
	emitu(tenths % 10);
	emits("%\n");
}

static void bank_result(const uint64_t *word)
{
	int passes = 0, worst = 0;
	for (int b = 0; b < 32; b++) {
		int distinct = 0;
		for (int t = 0; t < nact; t++) {
			if (word[t] % 32 != (uint64_t)b)
				continue;
			int dup = 0;
			for (int u = 0; u < t; u++)
				if (word[u] == word[t])
					dup = 1;
			if (!dup)
				distinct++;
		}
		if (distinct > passes) {
			passes = distinct;
			worst = b;
		}
	}
	emits(": ");
	emitu((uint64_t)nact);
	emits(nact == 1 ? " thread, " : " threads, ");
	if (passes == 1) {
		emits("1 pass, no conflict\n");
		return;
	}
	emitu((uint64_t)passes);
	emits(" passes, ");
	emitu((uint64_t)passes);
	emits("-way conflict on bank ");
	emitu((uint64_t)worst);
	emits("\n");
}

static void usage(const char *u)
{
	emits("error: ");
	emits(u);
	emits("\n");
}

static const char U_ACTIVE[] = "active: 1-32";
static const char U_STRIDED[] = "strided: BASE STRIDE [SIZE 1-16]";
static const char U_AOS[] = "aos: STRUCT_SIZE FIELD_OFFSET FIELD_SIZE (the field must fit in the struct)";
static const char U_GATHER[] = "gather: SIZE ADDR...";
static const char U_SHARED[] = "shared: BASE_WORD STRIDE_WORDS";
static const char U_TRANSPOSE[] = "transpose: TILE PAD (TILE 1-64, PAD 0-8)";

static void c_active(struct tok *a, size_t n)
{
	uint64_t v;
	if (n != 1 || unum(a[0], 1, 32, &v) < 0)
		return usage(U_ACTIVE);
	nact = (int)v;
}

static void c_strided(struct tok *a, size_t n)
{
	uint64_t base, stride, size = 4, st[WARP];
	if (n < 2 || n > 3 || unum(a[0], 0, LIMIT, &base) < 0 ||
	    unum(a[1], 0, LIMIT, &stride) < 0 ||
	    (n == 3 && unum(a[2], 1, 16, &size) < 0))
		return usage(U_STRIDED);
	for (int t = 0; t < nact; t++)
		st[t] = base + (uint64_t)t * stride * size;
	emits("strided base=");
	emitu(base);
	emits(" stride=");
	emitu(stride);
	emits(" size=");
	emitu(size);
	global_result(st, size);
}

static void c_aos(struct tok *a, size_t n)
{
	uint64_t ss, off, fs, st[WARP];
	if (n != 3 || unum(a[0], 1, LIMIT, &ss) < 0 || unum(a[1], 0, LIMIT, &off) < 0 ||
	    unum(a[2], 1, LIMIT, &fs) < 0 || off + fs > ss)
		return usage(U_AOS);
	for (int t = 0; t < nact; t++)
		st[t] = (uint64_t)t * ss + off;
	emits("aos struct=");
	emitu(ss);
	emits(" offset=");
	emitu(off);
	emits(" field=");
	emitu(fs);
	global_result(st, fs);
	for (int t = 0; t < nact; t++)
		st[t] = (uint64_t)t * fs + off;
	emits("soa field=");
	emitu(fs);
	global_result(st, fs);
}

static void c_gather(struct tok *a, size_t n)
{
	uint64_t size, st[WARP];
	int anyneg = 0;
	if (n < 1 || unum(a[0], 1, 16, &size) < 0)
		return usage(U_GATHER);
	for (size_t i = 1; i < n; i++) {
		int neg;
		uint64_t m;
		if (number(a[i], &neg, &m) < 0)
			return usage(U_GATHER);
		if (neg && m)
			anyneg = 1;
		else if (i - 1 < WARP)
			st[i - 1] = m;
	}
	if (n - 1 != (size_t)nact) {
		emits("error: gather: need ");
		emitu((uint64_t)nact);
		emits(nact == 1 ? " address\n" : " addresses\n");
		return;
	}
	if (anyneg)
		return usage("gather: addresses must be >= 0");
	emits("gather size=");
	emitu(size);
	global_result(st, size);
}

static void c_shared(struct tok *a, size_t n)
{
	uint64_t base, stride, w[WARP];
	if (n != 2 || unum(a[0], 0, LIMIT, &base) < 0 || unum(a[1], 0, LIMIT, &stride) < 0)
		return usage(U_SHARED);
	for (int t = 0; t < nact; t++)
		w[t] = base + (uint64_t)t * stride;
	emits("shared base=");
	emitu(base);
	emits(" stride=");
	emitu(stride);
	bank_result(w);
}

static void c_transpose(struct tok *a, size_t n)
{
	uint64_t tile, pad, w[WARP];
	if (n != 2 || unum(a[0], 1, 64, &tile) < 0 || unum(a[1], 0, 8, &pad) < 0)
		return usage(U_TRANSPOSE);
	for (int t = 0; t < nact; t++)
		w[t] = ((uint64_t)t % tile) * (tile + pad) + (uint64_t)t / tile;
	emits("transpose tile=");
	emitu(tile);
	emits(" pad=");
	emitu(pad);
	bank_result(w);
}

static const struct {
	const char *name;
	void (*fn)(struct tok *, size_t);
} table[] = {
	{ "active", c_active },   { "strided", c_strided }, { "aos", c_aos },
	{ "gather", c_gather },   { "shared", c_shared },   { "transpose", c_transpose },
};

static struct tok *toks;
static size_t ntoks, captoks;

static void run_line(const char *p, size_t len)
{
	size_t i = 0;
	ntoks = 0;
	for (;;) {
		while (i < len && sep(p[i]))
			i++;
		if (i >= len || p[i] == '#')
			break;
		size_t s = i;
		while (i < len && !sep(p[i]) && p[i] != '#')
			i++;
		if (ntoks == captoks) {
			captoks = captoks ? 2 * captoks : 8;
			toks = realloc(toks, captoks * sizeof *toks);
			if (!toks)
				exit(1);
		}
		toks[ntoks].p = p + s;
		toks[ntoks].n = i - s;
		ntoks++;
	}
	if (ntoks == 0)
		return;
	for (size_t k = 0; k < sizeof table / sizeof table[0]; k++) {
		if (strlen(table[k].name) == toks[0].n &&
		    memcmp(table[k].name, toks[0].p, toks[0].n) == 0) {
			table[k].fn(toks + 1, ntoks - 1);
			return;
		}
	}
	emits("error: unknown command ");
	emit(toks[0].p, toks[0].n);
	emits("\n");
}

static char *slurp(size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	size_t got;
	if (!buf)
		exit(1);
	while ((got = fread(buf + n, 1, cap - n, stdin)) > 0) {
		n += got;
		if (n == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			if (!buf)
				exit(1);
		}
	}
	*len = n;
	return buf;
}

int main(void)
{
	size_t len, pos = 0;
	char *in = slurp(&len);
	while (pos < len) {
		const char *nl = memchr(in + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - in) : len;
		run_line(in + pos, end - pos);
		pos = end + 1;
	}
	flush_out();
	free(in);
	free(toks);
	return 0;
}
