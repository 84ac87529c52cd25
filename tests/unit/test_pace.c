// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of the pacer (src/pace.c) and the lateness histogram
 * (src/hist.c): schedule arithmetic, reservations shared by threads,
 * absolute sleeps, stop and cutoff handling, percentiles. */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hist.h"
#include "pace.h"

static void test_init_rejects(void **state)
{
	struct pace p;

	(void)state;
	assert_int_equal(pace_init(&p, -1, 10, 0), -EINVAL);
	assert_int_equal(pace_init(&p, 100, 0, 0), -EINVAL);
	assert_int_equal(pace_init(&p, 100, UINT64_MAX, 0), -EINVAL);
	/* A duration shorter than one period holds no deadline. */
	assert_int_equal(pace_init(&p, 10, UINT64_MAX, 0.05), -EINVAL);
	assert_int_equal(pace_init(&p, 0, UINT64_MAX, 0.05), 0);
}

static void test_deadlines(void **state)
{
	struct pace p;

	(void)state;
	assert_int_equal(pace_init(&p, 1000, 1000, 0), 0);
	pace_start(&p, 1000000000ull);
	/* Task i is due (i + 1) periods after the origin. */
	assert_int_equal(pace_deadline(&p, 0), 1001000000ull);
	assert_int_equal(pace_deadline(&p, 999), 2000000000ull);
	/* No drift from summing periods: 3/s is 333333333.33 ns. */
	assert_int_equal(pace_init(&p, 3, 3000000, 0), 0);
	pace_start(&p, 0);
	assert_int_equal(pace_deadline(&p, 2999999), 1000000000000000ull);
	/* Flat out: every task is due at once. */
	assert_int_equal(pace_init(&p, 0, 10, 0), 0);
	pace_start(&p, 5);
	assert_int_equal(pace_deadline(&p, 7), 0);
}

static void test_duration_sets_count(void **state)
{
	struct pace p;

	(void)state;
	assert_int_equal(pace_init(&p, 1000, UINT64_MAX, 2.0), 0);
	assert_int_equal(p.count, 2000);
	assert_true(p.count_from_duration);
	assert_int_equal(pace_init(&p, 1000, 500, 2.0), 0);
	assert_int_equal(p.count, 500);
	assert_false(p.count_from_duration);
	/* 0.3 s at 10/s must give 3 despite 0.3 * 10 = 2.9999999999999996. */
	assert_int_equal(pace_init(&p, 10, UINT64_MAX, 0.3), 0);
	assert_int_equal(p.count, 3);
}

static void test_reserve(void **state)
{
	struct pace p;
	uint64_t first = 99;

	(void)state;
	assert_int_equal(pace_init(&p, 0, 10, 0), 0);
	assert_int_equal(pace_reserve(&p, 4, &first), 4);
	assert_int_equal(first, 0);
	assert_int_equal(pace_reserve(&p, 4, &first), 4);
	assert_int_equal(first, 4);
	assert_int_equal(pace_reserve(&p, 4, &first), 2);
	assert_int_equal(first, 8);
	assert_int_equal(pace_reserve(&p, 1, &first), 0);
	assert_int_equal(pace_reserve(&p, 1, &first), 0);
}

#define SHARED_COUNT 100000
static struct pace shared;
static unsigned char taken[SHARED_COUNT];

static void *reserver(void *arg)
{
	uint64_t first, n;
	uint64_t got = 0;

	(void)arg;
	while ((n = pace_reserve(&shared, 3, &first)) > 0) {
		for (uint64_t i = first; i < first + n; i++)
			__atomic_fetch_add(&taken[i], 1, __ATOMIC_RELAXED);
		got += n;
	}
	return (void *)(uintptr_t)got;
}

/* Four threads share one schedule: every index is handed out once. */
static void test_reserve_threads(void **state)
{
	pthread_t t[4];
	uint64_t total = 0;

	(void)state;
	memset(taken, 0, sizeof(taken));
	assert_int_equal(pace_init(&shared, 0, SHARED_COUNT, 0), 0);
	for (int i = 0; i < 4; i++)
		assert_int_equal(pthread_create(&t[i], NULL, reserver, NULL), 0);
	for (int i = 0; i < 4; i++) {
		void *r;

		pthread_join(t[i], &r);
		total += (uintptr_t)r;
	}
	assert_int_equal(total, SHARED_COUNT);
	for (int i = 0; i < SHARED_COUNT; i++)
		assert_int_equal(taken[i], 1);
}

/* How late a wakeup may be on a loaded CI machine. */
#define WAKE_SLACK_NS 100000000ull

static void test_wait_until_deadline(void **state)
{
	struct pace p;
	atomic_int stop = 0;
	uint64_t now, t0;

	(void)state;
	assert_int_equal(pace_init(&p, 500, 10, 0), 0);	/* 2 ms period */
	t0 = mono_ns();
	pace_start(&p, t0);
	for (uint64_t i = 0; i < 3; i++) {
		uint64_t d = pace_deadline(&p, i);

		assert_int_equal(pace_wait(&p, d, &stop, &now), PACE_GO);
		assert_true(now >= d);
		/* Woken at the deadline, not long after (slack for a loaded
		 * machine: a missed wakeup would be a whole scheduler tick or
		 * more, a sleep past the deadline unbounded). */
		assert_true(now - d < WAKE_SLACK_NS);
	}
	/* The three sleeps end on the schedule, not 3 x (period + work). */
	assert_true(now - t0 >= 6000000ull);
	assert_true(now - t0 < 6000000ull + WAKE_SLACK_NS);
	/* A past deadline does not sleep. */
	assert_int_equal(pace_wait(&p, pace_deadline(&p, 0), &stop, &now), PACE_GO);
}

static void test_wait_stop(void **state)
{
	struct pace p;
	atomic_int stop = 1;
	uint64_t now, t0 = mono_ns();

	(void)state;
	assert_int_equal(pace_init(&p, 1, 10, 0), 0);	/* 1 s away */
	pace_start(&p, t0);
	assert_int_equal(pace_wait(&p, pace_deadline(&p, 0), &stop, &now),
			 PACE_STOP);
	assert_true(now - t0 < 100000000ull);
}

static atomic_int late_stop;

static void *raise_stop(void *arg)
{
	struct timespec ts = { 0, 20000000 };

	(void)arg;
	nanosleep(&ts, NULL);
	atomic_store(&late_stop, 1);
	return NULL;
}

/* A stop raised while sleeping is seen within one slice. */
static void test_wait_stop_while_sleeping(void **state)
{
	struct pace p;
	pthread_t t;
	uint64_t now, t0 = mono_ns();

	(void)state;
	atomic_store(&late_stop, 0);
	assert_int_equal(pace_init(&p, 0.2, 10, 0), 0);	/* 5 s away */
	pace_start(&p, t0);
	assert_int_equal(pthread_create(&t, NULL, raise_stop, NULL), 0);
	assert_int_equal(pace_wait(&p, pace_deadline(&p, 0), &late_stop, &now),
			 PACE_STOP);
	pthread_join(t, NULL);
	assert_true(now - t0 < 20000000ull + 2 * PACE_SLICE_NS);
}

static void test_cutoff(void **state)
{
	struct pace p;
	atomic_int stop = 0;
	uint64_t now;
	struct timespec ts = { 0, 30000000 };

	(void)state;
	assert_int_equal(pace_init(&p, 0, UINT64_MAX, 0.01), 0);
	pace_start(&p, mono_ns());
	assert_int_equal(pace_wait(&p, 0, &stop, &now), PACE_GO);
	assert_false(pace_ended_by_duration(&p));
	nanosleep(&ts, NULL);
	assert_int_equal(pace_wait(&p, 0, &stop, &now), PACE_END);
	assert_true(pace_ended_by_duration(&p));
}

/* The cutoff: the duration plus a tenth of it, at most 100 ms, at least a
 * period. */
static void test_cutoff_grace(void **state)
{
	struct pace p;

	(void)state;
	assert_int_equal(pace_init(&p, 1000, UINT64_MAX, 2.0), 0);
	pace_start(&p, 1000);
	assert_int_equal(p.cutoff_ns, 1000 + 2100000000ull);
	assert_int_equal(pace_init(&p, 1000, UINT64_MAX, 0.5), 0);
	pace_start(&p, 0);
	assert_int_equal(p.cutoff_ns, 550000000ull);
	assert_int_equal(pace_init(&p, 2, UINT64_MAX, 1.0), 0);	/* 0.5 s */
	pace_start(&p, 0);
	assert_int_equal(p.cutoff_ns, 1500000000ull);
	assert_int_equal(pace_init(&p, 2, 10, 0), 0);
	pace_start(&p, 0);
	assert_int_equal(p.cutoff_ns, UINT64_MAX);
}

static void test_late_hist(void **state)
{
	static struct hist h;

	(void)state;
	hist_init(&h);
	pace_note_late(&h, 1000, 900);		/* early counts as 0 */
	pace_note_late(&h, 1000, 1010);		/* 10 ns */
	pace_note_late(&h, 0, 123456);		/* flat out: never late */
	pace_note_late(&h, 1000, 1001000);	/* 1 ms */
	assert_int_equal(h.count, 4);
	assert_int_equal(hist_percentile(&h, 50), 0);
	assert_int_equal(hist_percentile(&h, 75), 10);
	assert_int_equal(hist_percentile(&h, 100), 1000000);
	assert_int_equal(hist_percentile(&h, 99), 1000000);
}

static void test_hist_accuracy(void **state)
{
	static struct hist a, b;

	(void)state;
	hist_init(&a);
	hist_init(&b);
	for (uint64_t v = 0; v < 128; v++)
		hist_add(&a, v);
	/* Exact below 128: the 50th percentile of 0..127 by rank is 63. */
	assert_int_equal(hist_percentile(&a, 50), 63);
	assert_int_equal(hist_percentile(&a, 0), 0);
	/* Relative error stays under 1/64 for any magnitude. */
	for (uint64_t v = 200; v < (1ull << 62); v = v * 3 + 7) {
		hist_init(&b);
		hist_add(&b, v);
		hist_add(&b, v + 1);	/* a max above v keeps the clamp away */
		hist_add(&b, UINT64_MAX / 2);
		{
			uint64_t got = hist_percentile(&b, 1);
			double err = ((double)got - (double)v) / (double)v;

			assert_true(err < 1.0 / 64 && err > -1.0 / 64);
		}
	}
	hist_init(&b);
	hist_add(&b, 5000);
	hist_merge(&a, &b);
	assert_int_equal(a.count, 129);
	assert_int_equal(a.max, 5000);
	assert_int_equal(a.min, 0);
	assert_int_equal(hist_percentile(&a, 100), 5000);
	/* Empty histogram. */
	hist_init(&b);
	assert_int_equal(hist_percentile(&b, 50), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_rejects),
		cmocka_unit_test(test_deadlines),
		cmocka_unit_test(test_duration_sets_count),
		cmocka_unit_test(test_reserve),
		cmocka_unit_test(test_reserve_threads),
		cmocka_unit_test(test_wait_until_deadline),
		cmocka_unit_test(test_wait_stop),
		cmocka_unit_test(test_wait_stop_while_sleeping),
		cmocka_unit_test(test_cutoff),
		cmocka_unit_test(test_cutoff_grace),
		cmocka_unit_test(test_late_hist),
		cmocka_unit_test(test_hist_accuracy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
