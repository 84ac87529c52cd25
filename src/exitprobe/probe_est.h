/* SPDX-License-Identifier: GPL-2.0-or-later */
/* From counts to nanoseconds per exit, with 95% intervals.
 *
 * Sample method: a cpu-clock sampler fires after every period of CPU
 * time; k of its samples land inside taskstats_exit() over n calls.  Each
 * sample stands for the period that ended with it (the period is varied
 * at random around its nominal value, so that the sampler cannot run in
 * step with a paced workload: a fixed 100 us period against 4,000 exits/s
 * sees the exits at only two phases, and one run's estimate can be 3x
 * another's).  The estimate is the sum of those periods over n.  Its
 * interval treats k as a Poisson count: the exact (Garwood) interval for
 * k (Byar's close approximation above 200 samples), times the mean period
 * of the k samples, over n.  A sampler that is not in step with the
 * workload varies less than a Poisson count, so the interval is on the
 * safe side.
 *
 * fentry method: n exact times; mean +- t95(n-1) * sd / sqrt(n).  Under
 * the instruction clock also the mode of their exact histogram, with the
 * calls at, below and above it (struct probe_mode). */
#ifndef EXITPROBE_PROBE_EST_H
#define EXITPROBE_PROBE_EST_H

#include <stddef.h>
#include <linux/types.h>
#include <stdint.h>

struct probe_est {
	double ns;		/* mean ns per call */
	double lo, hi;		/* 95% interval */
};

/* 95% interval of a Poisson mean given one count k (lo = 0 for k = 0). */
void probe_est_poisson_ci95(uint64_t k, double *lo, double *hi);

/* k samples whose periods add up to sum_ns, over n calls; period_ns, the
 * nominal period, scales the bound when k = 0.  0, or -EINVAL when n = 0
 * or the period is not positive. */
int probe_est_sampled(uint64_t k, double sum_ns, uint64_t n, double period_ns,
		      struct probe_est *e);

/* n timed calls with sum and sum of squares of their ns: 0, or -EINVAL
 * when n = 0.  With n = 1 the interval is the point. */
int probe_est_timed(uint64_t n, double sum, double sumsq, struct probe_est *e);

/* Half the width of the interval: what "+-" shows. */
double probe_est_half(const struct probe_est *e);

/* The exact histogram (one bucket per ns, or per instruction under the
 * instruction clock) read as the call's own work and its exceptions.
 * Under the instruction clock a call that runs its common path without
 * interruption executes the same instructions every time: those calls
 * pile up on one exact count, the mode.  An interrupt taken inside the
 * call, a contended lock or a slow path (an allocation refilled, a cache
 * miss handled in code) only adds instructions, so those calls lie above
 * it; below it are calls that took a shorter path.  The mode therefore
 * is the common path's exact count, and a few disturbed calls cannot
 * move it, where they move the mean. */
struct probe_mode {
	uint64_t mode;		/* the most frequent exact count (lowest on a tie) */
	uint64_t at;		/* timed calls at the mode */
	uint64_t below;		/* timed calls below it */
	uint64_t above;		/* timed calls above it, beyond included */
	uint64_t beyond;	/* timed calls beyond the exact window */
	uint64_t timed;		/* every timed call */
};

/* exact[i]: calls that took i (0 <= i < n); timed: every timed call,
 * those at n or more included (the log histogram's total).  0, or -EINVAL
 * when no call fell inside the window (the mode is then unknown) or the
 * window holds more calls than timed. */
int probe_est_mode(const __u64 *exact, size_t n, uint64_t timed,
		   struct probe_mode *m);

/* Calls in a probe_hist_bucket() histogram. */
uint64_t probe_est_hist_total(const __u64 *hist, size_t nbuckets);

/* Percentile p (0..100) of a probe_hist_bucket() histogram, as the lower
 * bound of the bucket holding it; -1 when the histogram is empty. */
double probe_est_hist_percentile(const __u64 *hist, size_t nbuckets, double p);

/* Lowest ns that falls in bucket b. */
uint64_t probe_est_hist_low(unsigned b);

#endif
