/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Log-linear histogram of nanosecond durations: exact below 128 ns, then 64
 * buckets per power of two (under 1.6% relative error), any u64 value, no
 * allocation.  One per thread; merge at the end (no locking). */
#ifndef EXITGEN_HIST_H
#define EXITGEN_HIST_H

#include <stdint.h>

#define HIST_SUB_BITS 6
#define HIST_SUB (1u << HIST_SUB_BITS)
#define HIST_BUCKETS ((64 - HIST_SUB_BITS + 1) * HIST_SUB)

struct hist {
	uint64_t count;
	uint64_t max;
	uint64_t min;
	double sum;
	uint64_t bucket[HIST_BUCKETS];
};

void hist_init(struct hist *h);
void hist_add(struct hist *h, uint64_t v);
void hist_merge(struct hist *into, const struct hist *from);
/* Nearest-rank percentile (p in [0, 100]): the smallest recorded value
 * range holding at least p% of the samples, reported as the middle of its
 * bucket and never above the true maximum.  0 when empty. */
uint64_t hist_percentile(const struct hist *h, double p);

#endif
