/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The clocks every program reads: monotonic for intervals and deadlines,
 * real time for stamps people read.  Inline: the exitgen task code that
 * runs on a borrowed stack may call them (they are only clock_gettime). */
#ifndef COMMON_CLOCK_H
#define COMMON_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline double mono_s(void)
{
	return (double)mono_ns() / 1e9;
}

static inline double real_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#endif
