/* sim_winnow: see sim_winnow.h. */
#include "grader/similarity/sim_winnow.h"

#include <stdlib.h>
#include <string.h>

#include "grader/lib/strbuf.h"

uint64_t sim_kgram_hash(const struct sim_token *t, unsigned k)
{
	uint64_t h = 0;

	for (unsigned i = 0; i < k; i++)
		h = h * 0x100000001b3ULL + t[i].kind + 1;
	/* Spread over all 64 bits, so that the minimum of a window is as
	 * good as a random pick (winnowing's density, 2 / (w + 1), assumes
	 * it). */
	return sim_mix64(h);
}

static int push(struct sim_fps *f, uint64_t hash, uint32_t pos,
		struct strbuf *err)
{
	if (f->n == f->alloc) {
		size_t na = f->alloc ? 2 * f->alloc : 128;
		struct sim_fp *v = realloc(f->v, na * sizeof *v);

		if (!v) {
			strbuf_addstr(err, "out of memory");
			return -1;
		}
		f->v = v;
		f->alloc = na;
	}
	/* Padding too: the details spool writes the array whole. */
	memset(&f->v[f->n], 0, sizeof *f->v);
	f->v[f->n].hash = hash;
	f->v[f->n++].pos = pos;
	return 0;
}

int sim_all_kgrams(const struct sim_token *t, size_t n, unsigned k,
		   uint32_t first, struct sim_fps *out, struct strbuf *err)
{
	for (size_t i = 0; k && i + k <= n; i++)
		if (push(out, sim_kgram_hash(t + i, k), first + (uint32_t)i, err) < 0)
			return -1;
	return 0;
}

int sim_winnow(const struct sim_token *t, size_t n, unsigned k, unsigned w,
	       uint32_t first, struct sim_fps *out, struct strbuf *err)
{
	size_t nk = k && n >= k ? n - k + 1 : 0, last = SIZE_MAX, win;
	uint64_t *h;
	int rc = 0;

	if (!nk)
		return 0;
	if (!(h = malloc(nk * sizeof *h))) {
		strbuf_addstr(err, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < nk; i++)
		h[i] = sim_kgram_hash(t + i, k);
	win = w && w < nk ? w : nk;
	for (size_t j = 0; rc == 0 && j + win <= nk; j++) {
		size_t m = j;

		/* The rightmost minimum: a window that slides on keeps its
		 * pick while the pick stays inside it. */
		for (size_t i = j + 1; i < j + win; i++)
			if (h[i] <= h[m])
				m = i;
		if (m != last) {
			rc = push(out, h[m], first + (uint32_t)m, err);
			last = m;
		}
	}
	free(h);
	return rc;
}

void sim_fps_release(struct sim_fps *f)
{
	free(f->v);
	*f = (struct sim_fps)SIM_FPS_INIT;
}
