// SPDX-License-Identifier: GPL-2.0-or-later
/* Open-loop pacing against absolute deadlines: see pace.h. */
#include "pace.h"
#include "clock.h"

#include <errno.h>
#include <math.h>
#include <time.h>

#define NS_PER_S 1000000000.0

int pace_init(struct pace *p, double rate, uint64_t count, double duration_s)
{
	if (!(rate >= 0) || !(duration_s >= 0) || count == 0 ||
	    (count == UINT64_MAX && duration_s == 0))
		return -EINVAL;
	p->period_ns = rate > 0 ? NS_PER_S / rate : 0;
	p->duration_ns = duration_s * NS_PER_S;
	p->count = count;
	p->count_from_duration = false;
	if (rate > 0 && duration_s > 0) {
		/* Deadlines (i + 1) / rate <= duration; the epsilon keeps
		 * 2 s at 1000/s at 2000 tasks despite rounding. */
		double fit = floor(duration_s * rate + 1e-9);

		if (fit < 1)
			return -EINVAL;
		if (fit < (double)count) {
			p->count = (uint64_t)fit;
			p->count_from_duration = true;
		}
	}
	p->start_ns = 0;
	p->cutoff_ns = UINT64_MAX;
	atomic_init(&p->ended, false);
	atomic_init(&p->next, 0);
	return 0;
}

void pace_start(struct pace *p, uint64_t now_ns)
{
	p->start_ns = now_ns;
	/* A saturated run still ends with its duration.  The grace lets an
	 * on-time run keep its last tasks through a hiccup at the very end:
	 * a tenth of the duration, at most 100 ms, at least one period. */
	if (p->duration_ns > 0) {
		double grace = fmax(p->period_ns,
				    fmin(p->duration_ns / 10, 100e6));

		p->cutoff_ns = now_ns + (uint64_t)(p->duration_ns + grace);
	}
}

uint64_t pace_reserve(struct pace *p, uint64_t n, uint64_t *first)
{
	uint64_t i = atomic_load_explicit(&p->next, memory_order_relaxed);

	/* Compare-and-swap rather than fetch-add so the counter never runs
	 * past count and a batch is never reserved half outside it. */
	do {
		if (i >= p->count)
			return 0;
		if (n > p->count - i)
			n = p->count - i;
	} while (!atomic_compare_exchange_weak_explicit(&p->next, &i, i + n,
			memory_order_relaxed, memory_order_relaxed));
	*first = i;
	return n;
}

uint64_t pace_deadline(const struct pace *p, uint64_t i)
{
	if (p->period_ns == 0)
		return 0;
	return p->start_ns + (uint64_t)llround((double)(i + 1) * p->period_ns);
}

static void to_timespec(uint64_t ns, struct timespec *ts)
{
	ts->tv_sec = (time_t)(ns / 1000000000ull);
	ts->tv_nsec = (long)(ns % 1000000000ull);
}

enum pace_result pace_wait(struct pace *p, uint64_t deadline,
			   const atomic_int *stop, uint64_t *now)
{
	uint64_t t = mono_ns();

	while (t < deadline) {
		struct timespec ts;
		uint64_t until = deadline;

		if (atomic_load_explicit(stop, memory_order_relaxed))
			break;
		if (until - t > PACE_SLICE_NS)
			until = t + PACE_SLICE_NS;
		to_timespec(until, &ts);
		/* EINTR only shortens one slice; the loop re-checks. */
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		t = mono_ns();
	}
	*now = t;
	if (atomic_load_explicit(stop, memory_order_relaxed))
		return PACE_STOP;
	if (t > p->cutoff_ns) {
		atomic_store(&p->ended, true);
		return PACE_END;
	}
	return PACE_GO;
}

void pace_note_late(struct hist *late, uint64_t deadline, uint64_t now)
{
	hist_add(late, deadline && now > deadline ? now - deadline : 0);
}

bool pace_ended_by_duration(struct pace *p)
{
	if (atomic_load(&p->ended))
		return true;
	return p->count_from_duration &&
	       atomic_load(&p->next) >= p->count;
}
