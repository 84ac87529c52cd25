/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Small-sample statistics for benchmark results: location, spread,
 * Student-t confidence intervals, Welch's test, and overhead percentages.
 *
 * Conventions: functions that return a double return NAN when the input
 * cannot give an answer (too few samples); functions that return int
 * return 0 or -EINVAL / -ENOMEM.  Inputs are never modified. */
#ifndef COMMON_STATS_H
#define COMMON_STATS_H

#include <stdbool.h>
#include <stddef.h>

/* An estimate with its two-sided 95% confidence interval. */
struct stats_ci {
	double est;		/* point estimate */
	double lo, hi;		/* interval bounds */
	double half;		/* half width (hi - est) */
	double df;		/* degrees of freedom of the t used */
};

/* Welch's unequal-variance comparison of two means, a - b. */
struct stats_welch {
	double diff;		/* mean(a) - mean(b) */
	double se;		/* standard error of the difference */
	double df;		/* Welch-Satterthwaite degrees of freedom */
	double t;		/* diff / se (0 when se == 0 and diff == 0) */
	struct stats_ci ci;	/* 95% interval of diff */
};

double stats_mean(const double *x, size_t n);		/* n >= 1 */
double stats_sd(const double *x, size_t n);		/* sample (n-1), n >= 2 */

/* Sort ascending (NaN-free input). */
void stats_sort(double *x, size_t n);
/* Percentile p in [0, 100] with linear interpolation between order
 * statistics: h = (n-1) * p/100, result = x[floor h] + (h - floor h) *
 * (x[floor h + 1] - x[floor h]) on the sorted data.  This is Hyndman and
 * Fan's definition 7, the default of R and of numpy.  The median is p=50. */
int stats_percentile(const double *x, size_t n, double p, double *out);
int stats_median(const double *x, size_t n, double *out);

/* Two-sided 95% critical value of Student's t with df degrees of freedom
 * (df >= 1, need not be whole): the t with P(|T| > t) = 0.05. */
double stats_t95(double df);

/* Two-sided P(|T| > |t|) for Student's t with df degrees of freedom. */
double stats_t_pvalue(double t, double df);

/* 95% interval of the mean: mean +- t95(n-1) * sd / sqrt(n); n >= 2. */
int stats_ci95_mean(const double *x, size_t n, struct stats_ci *ci);

/* Welch's t for mean(a) - mean(b); na, nb >= 2. */
int stats_welch(const double *a, size_t na, const double *b, size_t nb,
		struct stats_welch *w);

/* Overhead of "on" over "off" in percent, (mean(on) - mean(off)) /
 * mean(off) * 100, with a 95% interval made from Welch's interval of the
 * difference divided by mean(off) (mean(off) is treated as exact: the
 * interval is a little too narrow when off is noisy relative to its mean).
 * mean(off) must not be 0. */
int stats_overhead_pct(const double *on, size_t non,
		       const double *off, size_t noff, struct stats_ci *ci);

/* True when the 95% interval excludes 0. */
bool stats_significant(const struct stats_ci *ci);

#endif
