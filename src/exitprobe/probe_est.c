// SPDX-License-Identifier: GPL-2.0-or-later
#include "probe_est.h"

#include <errno.h>
#include <math.h>

#include "stats.h"

#define Z975 1.959963984540054

/* P(X <= k) for X ~ Poisson(lambda); fine for the k <= EXACT_MAX used. */
static double poisson_cdf(uint64_t k, double lambda)
{
	double term = exp(-lambda), sum = term;

	for (uint64_t i = 1; i <= k; i++) {
		term *= lambda / (double)i;
		sum += term;
	}
	return sum;
}

/* The lambda in [lo, hi] where poisson_cdf(k, lambda) = target (the CDF
 * falls as lambda grows), by bisection. */
static double solve_cdf(uint64_t k, double target, double lo, double hi)
{
	for (int i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;

		if (poisson_cdf(k, mid) > target)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

#define EXACT_MAX 200

void probe_est_poisson_ci95(uint64_t k, double *lo, double *hi)
{
	double x = (double)k, x1 = x + 1;

	if (k <= EXACT_MAX) {
		/* Garwood: P(X >= k; lo) = 0.025 and P(X <= k; hi) = 0.025. */
		*lo = k == 0 ? 0 : solve_cdf(k - 1, 0.975, 0, x);
		*hi = solve_cdf(k, 0.025, x, x + 10 * sqrt(x1) + 10);
		return;
	}
	/* Byar's approximation: relative error below 1e-3 from here on. */
	*lo = x * pow(1 - 1 / (9 * x) - Z975 / (3 * sqrt(x)), 3);
	*hi = x1 * pow(1 - 1 / (9 * x1) + Z975 / (3 * sqrt(x1)), 3);
}

int probe_est_sampled(uint64_t k, double sum_ns, uint64_t n, double period_ns,
		      struct probe_est *e)
{
	double lo, hi, scale;

	if (n == 0 || !(period_ns > 0))
		return -EINVAL;
	/* ns per call that one sample stands for */
	scale = (k ? sum_ns / (double)k : period_ns) / (double)n;
	probe_est_poisson_ci95(k, &lo, &hi);
	e->ns = sum_ns / (double)n;
	e->lo = lo * scale;
	e->hi = hi * scale;
	return 0;
}

int probe_est_timed(uint64_t n, double sum, double sumsq, struct probe_est *e)
{
	double mean, var, half;

	if (n == 0)
		return -EINVAL;
	mean = sum / (double)n;
	e->ns = e->lo = e->hi = mean;
	if (n < 2)
		return 0;
	var = (sumsq - sum * mean) / (double)(n - 1);
	half = stats_t95((double)(n - 1)) * sqrt(var > 0 ? var : 0) /
	       sqrt((double)n);
	e->lo = mean - half;
	e->hi = mean + half;
	return 0;
}

double probe_est_half(const struct probe_est *e)
{
	return (e->hi - e->lo) / 2;
}

uint64_t probe_est_hist_low(unsigned b)
{
	unsigned msb = b / 4 + 1;

	if (b < 8)
		return b;
	return (1ull << msb) + ((uint64_t)(b % 4) << (msb - 2));
}

uint64_t probe_est_hist_total(const __u64 *hist, size_t nbuckets)
{
	uint64_t total = 0;

	for (size_t b = 0; b < nbuckets; b++)
		total += hist[b];
	return total;
}

int probe_est_mode(const __u64 *exact, size_t n, uint64_t timed,
		   struct probe_mode *m)
{
	uint64_t in = 0, below = 0;
	size_t best = 0;

	for (size_t i = 0; i < n; i++) {
		in += exact[i];
		if (exact[i] > exact[best])
			best = i;
	}
	if (in == 0 || in > timed)
		return -EINVAL;
	for (size_t i = 0; i < best; i++)
		below += exact[i];
	m->mode = best;
	m->at = exact[best];
	m->below = below;
	m->beyond = timed - in;
	m->above = timed - below - m->at;
	m->timed = timed;
	return 0;
}

double probe_est_hist_percentile(const __u64 *hist, size_t nbuckets, double p)
{
	uint64_t total = probe_est_hist_total(hist, nbuckets), seen = 0;
	double rank;

	if (total == 0)
		return -1;
	rank = ceil(p / 100 * (double)total);
	if (rank < 1)
		rank = 1;
	for (size_t b = 0; b < nbuckets; b++) {
		seen += hist[b];
		if ((double)seen >= rank)
			return (double)probe_est_hist_low((unsigned)b);
	}
	return (double)probe_est_hist_low((unsigned)(nbuckets - 1));
}
