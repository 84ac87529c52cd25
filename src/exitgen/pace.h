/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Open-loop pacing: task i is due at an absolute deadline fixed when the
 * run starts, start + (i + 1) / rate, whatever happened to task i - 1, so
 * lateness never accumulates into drift.  Spawner threads share one
 * schedule by reserving indexes from an atomic counter and sleep with
 * clock_nanosleep(TIMER_ABSTIME) on CLOCK_MONOTONIC. */
#ifndef EXITGEN_PACE_H
#define EXITGEN_PACE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "clock.h"
#include "hist.h"

/* How long a sleeper may go without looking at the stop flag. */
#define PACE_SLICE_NS 50000000ull

enum pace_result {
	PACE_GO = 0,		/* the deadline has come: issue the task */
	PACE_STOP = 1,		/* the stop flag was raised */
	PACE_END = 2,		/* the duration is over */
};

struct pace {
	double period_ns;	/* 0: flat out, every task is due "now" */
	uint64_t count;		/* tasks in the schedule (UINT64_MAX: none) */
	bool count_from_duration; /* the duration, not --count, set count */
	double duration_ns;	/* 0: no duration */
	uint64_t start_ns;	/* CLOCK_MONOTONIC origin of the schedule */
	uint64_t cutoff_ns;	/* no task is issued after this (UINT64_MAX):
				 * the duration plus a little grace */
	atomic_bool ended;	/* some spawner hit the cutoff */
	atomic_uint_fast64_t next; /* next index to hand out */
};

/* rate 0 is flat out; count UINT64_MAX and duration_s 0 mean unbounded
 * (one of them must be bounded).  With a rate and a duration the count is
 * the number of deadlines inside the duration.  Returns 0 or -EINVAL. */
int pace_init(struct pace *p, double rate, uint64_t count, double duration_s);
/* Fix the origin; deadlines are relative to it. */
void pace_start(struct pace *p, uint64_t now_ns);
/* Reserve up to n consecutive indexes from *first; returns how many were
 * reserved, 0 once the schedule is used up. */
uint64_t pace_reserve(struct pace *p, uint64_t n, uint64_t *first);
/* Absolute deadline of task i; 0 when flat out (due at once). */
uint64_t pace_deadline(const struct pace *p, uint64_t i);
/* Sleep until the deadline, waking every PACE_SLICE_NS to look at *stop.
 * *now is the clock when it returns (the moment the task is issued). */
enum pace_result pace_wait(struct pace *p, uint64_t deadline,
			   const atomic_int *stop, uint64_t *now);
/* Record how late a task was issued against its deadline. */
void pace_note_late(struct hist *late, uint64_t deadline, uint64_t now);
/* True when the schedule ended on time (count reached through the
 * duration, or the cutoff was hit). */
bool pace_ended_by_duration(struct pace *p);

#endif
