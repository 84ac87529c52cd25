// SPDX-License-Identifier: GPL-2.0-or-later
/* Log-linear histogram: see hist.h. */
#include "hist.h"

#include <math.h>
#include <string.h>

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

/* Values below 2*SUB map to themselves; above, e = msb - SUB_BITS and the
 * bucket is (e + 1) * SUB + the next SUB_BITS bits below the msb. */
static unsigned bucket_of(uint64_t v)
{
	unsigned e;

	if (v < 2 * HIST_SUB)
		return (unsigned)v;
	e = 63u - (unsigned)__builtin_clzll(v) - HIST_SUB_BITS;
	return (e + 1) * HIST_SUB + (unsigned)((v >> e) - HIST_SUB);
}

static uint64_t bucket_mid(unsigned b)
{
	unsigned e;
	uint64_t low;

	if (b < 2 * HIST_SUB)
		return b;
	e = b / HIST_SUB - 1;
	low = (uint64_t)(b % HIST_SUB + HIST_SUB) << e;
	return low + ((1ull << e) >> 1);
}

void hist_add(struct hist *h, uint64_t v)
{
	h->bucket[bucket_of(v)]++;
	h->count++;
	h->sum += (double)v;
	if (v > h->max)
		h->max = v;
	if (v < h->min)
		h->min = v;
}

void hist_merge(struct hist *into, const struct hist *from)
{
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		into->bucket[i] += from->bucket[i];
	into->count += from->count;
	into->sum += from->sum;
	if (from->max > into->max)
		into->max = from->max;
	if (from->min < into->min)
		into->min = from->min;
}

uint64_t hist_percentile(const struct hist *h, double p)
{
	uint64_t rank, seen = 0;

	if (h->count == 0)
		return 0;
	if (p <= 0)
		return h->min;
	if (p >= 100)
		return h->max;
	rank = (uint64_t)ceil(p / 100.0 * (double)h->count);
	if (rank == 0)
		rank = 1;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank) {
			uint64_t mid = bucket_mid(i);

			if (mid > h->max)
				mid = h->max;
			if (mid < h->min)
				mid = h->min;
			return mid;
		}
	}
	return h->max;
}
