/* From counts to nanoseconds per exit, with 95% intervals.
 *
 * Sample method: a cpu-clock sampler that fires every `period` ns of CPU
 * time lands inside taskstats_exit() k times over n calls; k * period / n
 * estimates the mean CPU time per call.  k is treated as a Poisson count:
 * the interval is Byar's approximation of the exact (Garwood) Poisson
 * interval for k, scaled by period / n.  It is conservative for a
 * periodic sampler (whose count varies less than a Poisson count) as long
 * as the sampler does not lock in phase with the workload.
 *
 * fentry method: n exact times; mean +- t95(n-1) * sd / sqrt(n). */
#ifndef EXITPROBE_ESTIMATE_H
#define EXITPROBE_ESTIMATE_H

#include <stddef.h>
#include <linux/types.h>
#include <stdint.h>

struct probe_est {
	double ns;		/* mean ns per call */
	double lo, hi;		/* 95% interval */
};

/* 95% interval of a Poisson mean given one count k (lo = 0 for k = 0). */
void probe_poisson_ci95(uint64_t k, double *lo, double *hi);

/* k samples over n calls at period_ns: 0, or -EINVAL when n = 0 or the
 * period is not positive. */
int probe_est_sampled(uint64_t k, uint64_t n, double period_ns,
		      struct probe_est *e);

/* n timed calls with sum and sum of squares of their ns: 0, or -EINVAL
 * when n = 0.  With n = 1 the interval is the point. */
int probe_est_timed(uint64_t n, double sum, double sumsq, struct probe_est *e);

/* Half the width of the interval: what "+-" shows. */
double probe_est_half(const struct probe_est *e);

/* Percentile p (0..100) of a probe_hist_bucket() histogram, as the lower
 * bound of the bucket holding it; -1 when the histogram is empty. */
double probe_hist_percentile(const __u64 *hist, size_t nbuckets, double p);

/* Lowest ns that falls in bucket b. */
uint64_t probe_hist_low(unsigned b);

#endif
