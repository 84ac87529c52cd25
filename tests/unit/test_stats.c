// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of src/stats.c against values worked out by hand (and checked
 * with an arbitrary-precision t distribution where noted). */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "stats.h"

#define near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

/* Mean 5, squared deviations sum to 32, so sd = sqrt(32/7). */
static const double x8[] = { 9, 4, 2, 5, 4, 7, 4, 5 };

static void test_mean_sd(void **state)
{
	(void)state;
	near(stats_mean(x8, 8), 5.0, 1e-12);
	near(stats_sd(x8, 8), 2.138089935299395, 1e-12);
	assert_true(isnan(stats_mean(x8, 0)));
	assert_true(isnan(stats_sd(x8, 1)));
	/* Large offsets must not cancel: same spread around 1e9. */
	{
		double y[8];

		for (int i = 0; i < 8; i++)
			y[i] = 1e9 + x8[i];
		near(stats_sd(y, 8), 2.138089935299395, 1e-6);
	}
}

/* Sorted x8 is 2 4 4 4 5 5 7 9; h = 7p/100. */
static void test_percentile(void **state)
{
	double v;

	(void)state;
	assert_int_equal(stats_median(x8, 8, &v), 0);
	near(v, 4.5, 1e-12);			/* h=3.5: 4 + .5 (5-4) */
	assert_int_equal(stats_percentile(x8, 8, 25, &v), 0);
	near(v, 4.0, 1e-12);			/* h=1.75 between 4 and 4 */
	assert_int_equal(stats_percentile(x8, 8, 90, &v), 0);
	near(v, 7.6, 1e-12);			/* h=6.3: 7 + .3 (9-7) */
	assert_int_equal(stats_percentile(x8, 8, 0, &v), 0);
	near(v, 2.0, 1e-12);
	assert_int_equal(stats_percentile(x8, 8, 100, &v), 0);
	near(v, 9.0, 1e-12);
	assert_int_equal(stats_percentile(x8, 1, 37, &v), 0);
	near(v, 9.0, 1e-12);
	assert_int_equal(stats_percentile(x8, 0, 50, &v), -EINVAL);
	assert_int_equal(stats_percentile(x8, 8, 101, &v), -EINVAL);
	assert_int_equal(stats_percentile(x8, 8, NAN, &v), -EINVAL);
	/* Odd count: the median is the middle element. */
	assert_int_equal(stats_median((const double[]){ 3, 1, 2 }, 3, &v), 0);
	near(v, 2.0, 1e-12);
}

static void test_t95_table(void **state)
{
	(void)state;
	near(stats_t95(1), 12.706, 5e-4);
	near(stats_t95(9), 2.262, 5e-4);
	near(stats_t95(30), 2.042, 5e-4);
	near(stats_t95(2), 4.302653, 1e-6);
	near(stats_t95(1e9), 1.960, 5e-4);
	/* Large df: the expansion against exact quantiles. */
	near(stats_t95(31), 2.039513446, 1e-6);
	near(stats_t95(50), 2.008559112, 1e-7);
	near(stats_t95(100), 1.983971519, 1e-8);
	near(stats_t95(1000), 1.962339081, 1e-8);
	/* Fractional df (Welch): exact quantiles. */
	near(stats_t95(1.5), 6.016663104, 1e-6);
	near(stats_t95(6.97226), 2.36653275, 1e-6);
	assert_true(isnan(stats_t95(0.5)));
	assert_true(isnan(stats_t95(NAN)));
}

/* The table and the exact solver agree, and the quantile falls with df. */
static void test_t95_consistent(void **state)
{
	(void)state;
	for (int df = 1; df <= 30; df++) {
		double t = stats_t95(df);

		near(stats_t_pvalue(t, df), 0.05, 2e-6);
		assert_true(stats_t95(df + 0.5) < t);
		assert_true(stats_t95(df + 0.5) > stats_t95(df + 1));
	}
	for (double df = 30.5; df < 2000; df *= 1.7)
		near(stats_t_pvalue(stats_t95(df), df), 0.05, 1e-6);
}

static void test_ci_mean(void **state)
{
	struct stats_ci ci;

	(void)state;
	assert_int_equal(stats_ci95_mean(x8, 8, &ci), 0);
	near(ci.est, 5.0, 1e-12);
	near(ci.df, 7.0, 0);
	/* t(7) = 2.364624 times sqrt(32/7)/sqrt(8). */
	near(ci.half, 1.787487918, 2e-6);
	near(ci.lo, 5.0 - 1.787487918, 2e-6);
	near(ci.hi, 5.0 + 1.787487918, 2e-6);
	assert_true(stats_significant(&ci));
	assert_int_equal(stats_ci95_mean(x8, 1, &ci), -EINVAL);
}

/* a: mean 3, var 2.5; b: mean 7, var 14.  qa = 0.5, qb = 14/6,
 * se = sqrt(17/6) = 1.683251, df = (17/6)^2 / (0.25/4 + (7/3)^2/5)
 * = 6.972256, t = -4/se = -2.376354. */
static const double a5[] = { 1, 2, 3, 4, 5 };
static const double b6[] = { 2, 4, 6, 8, 10, 12 };

static void test_welch(void **state)
{
	struct stats_welch w;

	(void)state;
	assert_int_equal(stats_welch(a5, 5, b6, 6, &w), 0);
	near(w.diff, -4.0, 1e-12);
	near(w.se, 1.683250823, 1e-8);
	near(w.df, 6.972255730, 1e-8);
	near(w.t, -2.376354103, 1e-8);
	near(w.ci.half, 3.983468696, 1e-5);
	near(w.ci.lo, -7.983468696, 1e-5);
	near(w.ci.hi, -0.016531304, 1e-5);
	assert_true(stats_significant(&w.ci));
	/* The two-sided p of that t is just under 0.05. */
	near(stats_t_pvalue(w.t, w.df), 0.04928434, 1e-6);
	assert_int_equal(stats_welch(a5, 1, b6, 6, &w), -EINVAL);
}

static void test_welch_no_spread(void **state)
{
	static const double c[] = { 4, 4, 4 }, d[] = { 4, 4 };
	struct stats_welch w;

	(void)state;
	assert_int_equal(stats_welch(c, 3, d, 2, &w), 0);
	near(w.diff, 0, 0);
	near(w.t, 0, 0);
	near(w.ci.lo, 0, 0);
	near(w.ci.hi, 0, 0);
	assert_false(stats_significant(&w.ci));
}

/* on = b6 (mean 7), off = a5 (mean 3): 133.33%, interval
 * (4 -+ 3.983469) / 3 * 100 = [0.551043, 266.115623]. */
static void test_overhead(void **state)
{
	struct stats_ci ci;

	(void)state;
	assert_int_equal(stats_overhead_pct(b6, 6, a5, 5, &ci), 0);
	near(ci.est, 133.333333333, 1e-6);
	near(ci.lo, 0.551043479, 2e-4);
	near(ci.hi, 266.115623188, 2e-4);
	assert_true(stats_significant(&ci));
	/* Swapped: -57.14%, and still significant: the interval of the
	 * difference excludes 0 whichever sample is the base. */
	assert_int_equal(stats_overhead_pct(a5, 5, b6, 6, &ci), 0);
	near(ci.est, -4.0 / 7.0 * 100, 1e-9);
	near(ci.lo, -7.983468696 / 7 * 100, 2e-4);
	near(ci.hi, -0.016531304 / 7 * 100, 2e-4);
	assert_true(stats_significant(&ci));
	/* Overlapping samples: not significant. */
	assert_int_equal(stats_overhead_pct(a5, 5, (const double[]){ 2, 3, 4 },
					    3, &ci), 0);
	near(ci.est, 0, 1e-12);
	assert_false(stats_significant(&ci));
	/* Zero base is refused. */
	assert_int_equal(stats_overhead_pct(a5, 5, (const double[]){ -1, 1 },
					    2, &ci), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mean_sd),
		cmocka_unit_test(test_percentile),
		cmocka_unit_test(test_t95_table),
		cmocka_unit_test(test_t95_consistent),
		cmocka_unit_test(test_ci_mean),
		cmocka_unit_test(test_welch),
		cmocka_unit_test(test_welch_no_spread),
		cmocka_unit_test(test_overhead),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
