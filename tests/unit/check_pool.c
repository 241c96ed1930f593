/*
 * pool: every job runs exactly once, on a slot below nslots, never two at
 * once on one slot; one slot (or one job) runs in the calling thread, in
 * index order; several slots really run at once.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "grader/run/pool.h"
#include "tests/unit/wg_check.h"

#define MAX_JOBS  200
#define MAX_SLOTS 8

struct record {
	int nslots;
	atomic_int runs[MAX_JOBS];
	atomic_int busy[MAX_SLOTS];   /* jobs of each slot running now */
	atomic_int running, peak;     /* jobs running now, the most at once */
	atomic_int bad_slot, overlap, other_thread;
	pthread_t caller;
	size_t order[MAX_JOBS];       /* one slot: jobs in the order they ran */
	atomic_int n;
};

static void sleep_us(long us)
{
	struct timespec ts = { 0, us * 1000 };

	nanosleep(&ts, NULL);
}

static void job(void *ctx, size_t j, int slot)
{
	struct record *r = ctx;
	int now;

	if (slot < 0 || slot >= r->nslots || slot >= MAX_SLOTS) {
		r->bad_slot = 1;
		return;
	}
	if (atomic_fetch_add(&r->busy[slot], 1) != 0)
		r->overlap = 1;
	now = atomic_fetch_add(&r->running, 1) + 1;
	for (int p = r->peak; now > p && !atomic_compare_exchange_weak(&r->peak, &p, now);)
		;
	if (!pthread_equal(pthread_self(), r->caller))
		r->other_thread = 1;
	r->order[atomic_fetch_add(&r->n, 1)] = j;
	atomic_fetch_add(&r->runs[j], 1);
	sleep_us(500);
	atomic_fetch_sub(&r->running, 1);
	atomic_fetch_sub(&r->busy[slot], 1);
}

/* Runs njobs on nslots; checks what holds for every pool. Caller frees. */
static struct record *run(size_t njobs, int nslots)
{
	struct record *r = calloc(1, sizeof(*r));

	ck_assert_ptr_nonnull(r);
	r->nslots = nslots < 1 ? 1 : nslots;
	r->caller = pthread_self();
	pool_run(njobs, nslots, job, r);
	ck_assert_int_eq(r->n, (int)njobs);
	for (size_t j = 0; j < njobs; j++)
		ck_assert_msg(r->runs[j] == 1, "job %zu ran %d times", j,
			      (int)r->runs[j]);
	ck_assert_int_eq(r->bad_slot, 0);
	ck_assert_int_eq(r->overlap, 0);
	return r;
}

START_TEST(test_no_jobs)
{
	free(run(0, 4));
}
END_TEST

START_TEST(test_one_slot_in_order)
{
	struct record *r = run(50, 1);

	ck_assert_int_eq(r->other_thread, 0);
	ck_assert_int_eq(r->peak, 1);
	for (size_t j = 0; j < 50; j++)
		ck_assert_uint_eq(r->order[j], j);
	free(r);
	/* One job needs no thread either, whatever the slots. */
	r = run(1, 4);
	ck_assert_int_eq(r->other_thread, 0);
	free(r);
}
END_TEST

START_TEST(test_many_slots)
{
	struct record *r = run(MAX_JOBS, 4);

	ck_assert_int_eq(r->other_thread, 1);
	/* 200 jobs of 0.5 ms on four threads: some overlap, never more than
	 * four at once. */
	ck_assert_int_gt(r->peak, 1);
	ck_assert_int_le(r->peak, 4);
	free(r);
}
END_TEST

/* More slots than jobs: each job still runs once, on a real slot. */
START_TEST(test_more_slots_than_jobs)
{
	free(run(3, MAX_SLOTS));
}
END_TEST

Suite *make_pool_suite(void)
{
	Suite *s = suite_create("pool");
	TCase *tc = tcase_create("pool");

	tcase_add_test(tc, test_no_jobs);
	tcase_add_test(tc, test_one_slot_in_order);
	tcase_add_test(tc, test_many_slots);
	tcase_add_test(tc, test_more_slots_than_jobs);
	suite_add_tcase(s, tc);
	return s;
}
