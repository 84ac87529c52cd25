// SPDX-License-Identifier: GPL-2.0-or-later
/* Small-sample statistics: see stats.h for the definitions used. */
#include "stats.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

double stats_mean(const double *x, size_t n)
{
	double sum = 0;

	if (n == 0)
		return NAN;
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	return sum / (double)n;
}

/* Two passes (mean, then squared deviations): no catastrophic
 * cancellation for samples far from zero, such as elapsed times. */
double stats_sd(const double *x, size_t n)
{
	double m, ss = 0;

	if (n < 2)
		return NAN;
	m = stats_mean(x, n);
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	return sqrt(ss / (double)(n - 1));
}

static double percentile_sorted(const double *sorted, size_t n, double p)
{
	double h, frac;
	size_t lo;

	if (n == 0 || !(p >= 0 && p <= 100))
		return NAN;
	h = (double)(n - 1) * p / 100.0;
	lo = (size_t)floor(h);
	if (lo >= n - 1)
		return sorted[n - 1];
	frac = h - (double)lo;
	return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void stats_sort(double *x, size_t n)
{
	qsort(x, n, sizeof(*x), cmp_double);
}

int stats_percentile(const double *x, size_t n, double p, double *out)
{
	double *copy;

	if (n == 0 || !(p >= 0 && p <= 100))
		return -EINVAL;
	copy = malloc(n * sizeof(*copy));
	if (!copy)
		return -ENOMEM;
	memcpy(copy, x, n * sizeof(*copy));
	stats_sort(copy, n);
	*out = percentile_sorted(copy, n, p);
	free(copy);
	return 0;
}

int stats_median(const double *x, size_t n, double *out)
{
	return stats_percentile(x, n, 50.0, out);
}

/* Term k >= 1 of the continued fraction of the regularised incomplete
 * beta function, I = front / (1 + d1 / (1 + d2 / (1 + ...))):
 *   d(2m+1) = -(a+m)(a+b+m) x / ((a+2m)(a+2m+1))
 *   d(2m)   =  m (b-m) x / ((a+2m-1)(a+2m)) */
static double beta_term(double a, double b, double x, int k)
{
	int m = k / 2;

	if (k % 2)
		return -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
	return m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
}

/* 1 / (1 + d1 / (1 + d2 / ...)) by the modified Lentz method, written as
 * b0 + a1 / (b1 + a2 / (b2 + ...)) with b0 = 0, a1 = 1, a(j) = d(j-1) and
 * every b(j) = 1. */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double f = tiny, c = tiny, d = 0;

	for (int j = 1; j <= 500; j++) {
		double num = j == 1 ? 1.0 : beta_term(a, b, x, j - 1);
		double delta;

		d = 1.0 + num * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1.0 + num / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1.0 / d;
		delta = c * d;
		f *= delta;
		if (fabs(delta - 1.0) < 1e-15)
			break;
	}
	return f;
}

/* I_x(a, b), the regularised incomplete beta function. */
static double inc_beta(double a, double b, double x)
{
	double lfront;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	/* The fraction converges fast only below the mean; use symmetry. */
	if (x > (a + 1) / (a + b + 2))
		return 1.0 - inc_beta(b, a, 1.0 - x);
	lfront = lgamma(a + b) - lgamma(a) - lgamma(b) +
		 a * log(x) + b * log1p(-x);
	return exp(lfront) / a * beta_cf(a, b, x);
}

double stats_t_pvalue(double t, double df)
{
	if (!(df > 0) || isnan(t))
		return NAN;
	return inc_beta(df / 2.0, 0.5, df / (df + t * t));
}

/* Exact quantile by bisection on the distribution function. */
static double t95_solve(double df)
{
	double lo = 0, hi = 16;

	while (stats_t_pvalue(hi, df) > 0.05)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (stats_t_pvalue(mid, df) > 0.05)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* Cornish-Fisher expansion of the t quantile in powers of 1/df around the
 * normal quantile; better than 1e-6 for df > 30. */
static double t95_large(double df)
{
	const double z = 1.959963984540054;	/* normal 0.975 quantile */
	double z2 = z * z, z3 = z2 * z, z5 = z3 * z2, z7 = z5 * z2;
	double z9 = z7 * z2;
	double g1 = (z3 + z) / 4;
	double g2 = (5 * z5 + 16 * z3 + 3 * z) / 96;
	double g3 = (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / 384;
	double g4 = (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) /
		    92160;

	return z + g1 / df + g2 / (df * df) + g3 / (df * df * df) +
	       g4 / (df * df * df * df);
}

/* Two-sided 95% values for whole df 1..30 (standard tables, 6 places). */
static const double t95_table[31] = {
	NAN,
	12.706205, 4.302653, 3.182446, 2.776445, 2.570582,
	2.446912, 2.364624, 2.306004, 2.262157, 2.228139,
	2.200985, 2.178813, 2.160369, 2.144787, 2.131450,
	2.119905, 2.109816, 2.100922, 2.093024, 2.085963,
	2.079614, 2.073873, 2.068658, 2.063899, 2.059539,
	2.055529, 2.051831, 2.048407, 2.045230, 2.042272,
};

double stats_t95(double df)
{
	if (isnan(df) || df < 1)
		return NAN;
	if (df > 30)
		return t95_large(df);
	if (df == floor(df))
		return t95_table[(int)df];
	return t95_solve(df);	/* Welch df are rarely whole */
}

int stats_ci95_mean(const double *x, size_t n, struct stats_ci *ci)
{
	double m, se;

	if (n < 2)
		return -EINVAL;
	m = stats_mean(x, n);
	se = stats_sd(x, n) / sqrt((double)n);
	ci->est = m;
	ci->df = (double)(n - 1);
	ci->half = stats_t95(ci->df) * se;
	ci->lo = m - ci->half;
	ci->hi = m + ci->half;
	return 0;
}

int stats_welch(const double *a, size_t na, const double *b, size_t nb,
		struct stats_welch *w)
{
	double va, vb, qa, qb;

	if (na < 2 || nb < 2)
		return -EINVAL;
	va = stats_sd(a, na);
	vb = stats_sd(b, nb);
	qa = va * va / (double)na;
	qb = vb * vb / (double)nb;
	w->diff = stats_mean(a, na) - stats_mean(b, nb);
	w->se = sqrt(qa + qb);
	if (w->se > 0)
		w->df = (qa + qb) * (qa + qb) /
			(qa * qa / (double)(na - 1) + qb * qb / (double)(nb - 1));
	else
		w->df = (double)(na + nb - 2);	/* no spread: any df will do */
	if (w->df < 1)
		w->df = 1;
	if (w->se > 0)
		w->t = w->diff / w->se;
	else
		w->t = w->diff == 0 ? 0 : copysign(INFINITY, w->diff);
	w->ci.est = w->diff;
	w->ci.df = w->df;
	w->ci.half = stats_t95(w->df) * w->se;
	w->ci.lo = w->diff - w->ci.half;
	w->ci.hi = w->diff + w->ci.half;
	return 0;
}

int stats_overhead_pct(const double *on, size_t non,
		       const double *off, size_t noff, struct stats_ci *ci)
{
	struct stats_welch w;
	double base;
	int r = stats_welch(on, non, off, noff, &w);

	if (r < 0)
		return r;
	base = stats_mean(off, noff);
	if (base == 0)
		return -EINVAL;
	/* Dividing by a negative base would swap the bounds. */
	ci->est = w.diff / base * 100;
	ci->lo = fmin(w.ci.lo, w.ci.hi) / fabs(base) * 100;
	ci->hi = fmax(w.ci.lo, w.ci.hi) / fabs(base) * 100;
	if (base < 0) {
		double lo = -ci->hi;

		ci->hi = -ci->lo;
		ci->lo = lo;
	}
	ci->half = (ci->hi - ci->lo) / 2;
	ci->df = w.df;
	return 0;
}

bool stats_significant(const struct stats_ci *ci)
{
	return ci->lo > 0 || ci->hi < 0;
}
