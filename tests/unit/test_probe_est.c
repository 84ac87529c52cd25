// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of exitprobe's estimator (src/exitprobe/probe_est.c):
 * the Poisson interval against published exact (Garwood) limits, the
 * sampled and the timed estimates, the fentry histogram, and the mode of
 * the exact histogram with the calls at, below and above it. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <linux/types.h>

#include "probe_abi.h"
#include "probe_est.h"

#define near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))
#define rel_near(a, b, r) assert_true(fabs((a) - (b)) <= (r) * fabs(b))

/* Exact 95% limits for a Poisson count k (Garwood 1936; the usual
 * table, e.g. Ulm 1990, to 3 or 4 decimals). */
static const struct { uint64_t k; double lo, hi; } garwood[] = {
	{ 0, 0, 3.689 },     { 1, 0.0253, 5.572 },   { 2, 0.2422, 7.225 },
	{ 5, 1.6235, 11.668 }, { 10, 4.7954, 18.390 }, { 20, 12.217, 30.889 },
	{ 50, 37.111, 65.919 }, { 100, 81.364, 121.627 },
};

static void test_poisson_exact(void **state)
{
	double lo, hi;

	(void)state;
	for (size_t i = 0; i < sizeof(garwood) / sizeof(*garwood); i++) {
		probe_est_poisson_ci95(garwood[i].k, &lo, &hi);
		near(lo, garwood[i].lo, 0.002);
		near(hi, garwood[i].hi, 0.002);
	}
}

/* Above 200 the approximation takes over: no jump at the seam, and for
 * large k the interval approaches k +- 1.96 sqrt(k). */
static void test_poisson_large(void **state)
{
	double lo200, hi200, lo201, hi201, lo, hi;

	(void)state;
	probe_est_poisson_ci95(200, &lo200, &hi200);
	probe_est_poisson_ci95(201, &lo201, &hi201);
	assert_true(lo201 > lo200 && hi201 > hi200);
	assert_true(lo201 - lo200 < 1.1 && hi201 - hi200 < 1.1);
	probe_est_poisson_ci95(1000000, &lo, &hi);
	rel_near(lo, 1e6 - 1.96 * 1000, 1e-5);
	rel_near(hi, 1e6 + 1.96 * 1000, 1e-5);
}

/* 189 samples of 100 us each over 4002 calls: 4722.6 ns per call. */
static void test_sampled(void **state)
{
	struct probe_est e;
	double lo, hi;

	(void)state;
	assert_int_equal(probe_est_sampled(189, 189 * 100000.0, 4002, 100000, &e), 0);
	near(e.ns, 189 * 100000.0 / 4002, 1e-9);
	probe_est_poisson_ci95(189, &lo, &hi);
	near(e.lo, lo * 100000.0 / 4002, 1e-9);
	near(e.hi, hi * 100000.0 / 4002, 1e-9);
	assert_true(e.lo < e.ns && e.ns < e.hi);
	near(probe_est_half(&e), (e.hi - e.lo) / 2, 1e-12);
	/* No sample: 0 with an upper bound of 3.689 nominal periods per n. */
	assert_int_equal(probe_est_sampled(0, 0, 1000, 100000, &e), 0);
	near(e.ns, 0, 0);
	near(e.hi, 3.689 * 100, 0.2);
	assert_int_equal(probe_est_sampled(5, 5e5, 0, 100000, &e), -EINVAL);
	assert_int_equal(probe_est_sampled(5, 5e5, 10, 0, &e), -EINVAL);
}

/* Varied periods: each sample stands for its own.  Samples of 75, 100
 * and 125 us over 3 calls: 100 us per call; the interval is that of 3
 * Poisson counts at the mean period. */
static void test_sampled_varied(void **state)
{
	struct probe_est e;
	double lo, hi;

	(void)state;
	assert_int_equal(probe_est_sampled(3, 300000, 3, 100000, &e), 0);
	near(e.ns, 100000, 1e-9);
	probe_est_poisson_ci95(3, &lo, &hi);
	near(e.lo, lo * 100000 / 3, 1e-6);
	near(e.hi, hi * 100000 / 3, 1e-6);
	/* Short periods: the same count stands for less time. */
	assert_int_equal(probe_est_sampled(3, 150000, 3, 100000, &e), 0);
	near(e.ns, 50000, 1e-9);
	near(e.hi, hi * 50000 / 3, 1e-6);
}

/* Times 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sd sqrt(32/7), t95(7) = 2.3646. */
static void test_timed(void **state)
{
	struct probe_est e;
	double half = 2.364624251592785 * sqrt(32.0 / 7) / sqrt(8);

	(void)state;
	assert_int_equal(probe_est_timed(8, 40, 232, &e), 0);
	near(e.ns, 5, 1e-12);
	near(e.lo, 5 - half, 1e-6);
	near(e.hi, 5 + half, 1e-6);
	assert_int_equal(probe_est_timed(1, 7, 49, &e), 0);
	near(e.lo, 7, 0);
	near(e.hi, 7, 0);
	assert_int_equal(probe_est_timed(0, 0, 0, &e), -EINVAL);
}

/* Every value falls in the bucket whose low bound is the largest one not
 * above it; buckets are increasing. */
static void test_hist_bucket(void **state)
{
	(void)state;
	for (uint64_t ns = 0; ns < 200000; ns += ns < 64 ? 1 : 37) {
		unsigned b = probe_hist_bucket(ns);

		assert_true(b < PROBE_HIST_BUCKETS);
		assert_true(probe_est_hist_low(b) <= ns);
		if (b + 1 < PROBE_HIST_BUCKETS)
			assert_true(ns < probe_est_hist_low(b + 1));
	}
	assert_int_equal(probe_hist_bucket(7), 7);
	assert_int_equal(probe_hist_bucket(8), 8);
	assert_int_equal(probe_est_hist_low(8), 8);
	assert_int_equal(probe_est_hist_low(12), 16);
	assert_int_equal(probe_hist_bucket(UINT64_MAX), PROBE_HIST_BUCKETS - 1);
}

static void test_hist_percentile(void **state)
{
	__u64 h[PROBE_HIST_BUCKETS] = { 0 };

	(void)state;
	near(probe_est_hist_percentile(h, PROBE_HIST_BUCKETS, 50), -1, 0);
	h[probe_hist_bucket(300)] = 98;		/* 98 calls near 300 ns */
	h[probe_hist_bucket(5000)] = 2;		/* 2 slow ones */
	near(probe_est_hist_percentile(h, PROBE_HIST_BUCKETS, 50),
	     (double)probe_est_hist_low(probe_hist_bucket(300)), 0);
	near(probe_est_hist_percentile(h, PROBE_HIST_BUCKETS, 98),
	     (double)probe_est_hist_low(probe_hist_bucket(300)), 0);
	near(probe_est_hist_percentile(h, PROBE_HIST_BUCKETS, 99),
	     (double)probe_est_hist_low(probe_hist_bucket(5000)), 0);
}

/* What a run under the instruction clock looks like (6.19, thread
 * exits): nearly every call on one exact count, one shorter path, a few
 * interrupted calls above it and some beyond the window. */
static void test_mode(void **state)
{
	static __u64 x[PROBE_EXACT_N];
	struct probe_mode m;

	(void)state;
	x[479] = 2990;
	x[470] = 3;		/* a shorter path: below */
	x[480] = 4;		/* one instruction more: above */
	x[6000] = 1;		/* an interrupt: above */
	/* 2990 + 3 + 4 + 1 in the window, 2 beyond it: 3000 timed */
	assert_int_equal(probe_est_mode(x, PROBE_EXACT_N, 3000, &m), 0);
	assert_int_equal(m.mode, 479);
	assert_int_equal(m.at, 2990);
	assert_int_equal(m.below, 3);
	assert_int_equal(m.above, 7);
	assert_int_equal(m.beyond, 2);
	assert_int_equal(m.timed, 3000);
	assert_int_equal(m.at + m.below + m.above, m.timed);
}

/* A tie goes to the lower count; the window's ends are counts too. */
static void test_mode_edges(void **state)
{
	__u64 x[8] = { 0 };
	struct probe_mode m;

	(void)state;
	x[2] = 5;
	x[6] = 5;
	assert_int_equal(probe_est_mode(x, 8, 10, &m), 0);
	assert_int_equal(m.mode, 2);
	assert_int_equal(m.at, 5);
	assert_int_equal(m.below, 0);
	assert_int_equal(m.above, 5);
	assert_int_equal(m.beyond, 0);
	x[0] = 1;	/* a zero count never is a timed call, but is counted */
	x[7] = 9;
	assert_int_equal(probe_est_mode(x, 8, 30, &m), 0);
	assert_int_equal(m.mode, 7);
	assert_int_equal(m.at, 9);
	assert_int_equal(m.below, 11);
	assert_int_equal(m.above, 10);
	assert_int_equal(m.beyond, 10);
}

/* No mode without a call in the window; the window cannot hold more
 * calls than were timed. */
static void test_mode_none(void **state)
{
	__u64 x[8] = { 0 };
	struct probe_mode m;

	(void)state;
	assert_int_equal(probe_est_mode(x, 8, 0, &m), -EINVAL);
	assert_int_equal(probe_est_mode(x, 8, 12, &m), -EINVAL);
	x[3] = 4;
	assert_int_equal(probe_est_mode(x, 8, 3, &m), -EINVAL);
	assert_int_equal(probe_est_mode(x, 8, 4, &m), 0);
	assert_int_equal(m.above + m.below + m.beyond, 0);
}

/* The log histogram's total gives the timed calls beyond the window. */
static void test_hist_total(void **state)
{
	__u64 h[PROBE_HIST_BUCKETS] = { 0 };

	(void)state;
	assert_int_equal(probe_est_hist_total(h, PROBE_HIST_BUCKETS), 0);
	h[probe_hist_bucket(479)] += 7;
	h[probe_hist_bucket(PROBE_EXACT_N)] += 2;
	h[PROBE_HIST_BUCKETS - 1] += 1;
	assert_int_equal(probe_est_hist_total(h, PROBE_HIST_BUCKETS), 10);
	/* the window ends on a power of two, so on a bucket's edge */
	assert_int_equal(probe_est_hist_low(probe_hist_bucket(PROBE_EXACT_N)),
			 PROBE_EXACT_N);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_poisson_exact),
		cmocka_unit_test(test_poisson_large),
		cmocka_unit_test(test_sampled),
		cmocka_unit_test(test_sampled_varied),
		cmocka_unit_test(test_timed),
		cmocka_unit_test(test_hist_bucket),
		cmocka_unit_test(test_hist_percentile),
		cmocka_unit_test(test_mode),
		cmocka_unit_test(test_mode_edges),
		cmocka_unit_test(test_mode_none),
		cmocka_unit_test(test_hist_total),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
