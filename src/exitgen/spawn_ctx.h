/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The state every spawner thread shares with the main thread for one run
 * (spawn_ctx.c): the configuration and plan, the schedule, why the run
 * stops, the start line and the clock. */
#ifndef EXITGEN_SPAWN_CTX_H
#define EXITGEN_SPAWN_CTX_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/resource.h>

#include "pace.h"
#include "spawn_config.h"
#include "spawn_task.h"

struct spawn_ctx {
	const struct spawn_config *cfg;
	struct task_plan plan;
	struct pace pace;
	atomic_int stop;	/* 0, or enum spawn_stop + 1 of the first reason */
	int error;
	const char *error_what;
	pthread_mutex_t lock;	/* error, error_what */
	atomic_uint line_left;	/* batch: spawners yet to reach the start line */
	atomic_uint line_go;	/* batch: the schedule has started (futex) */
	uint64_t start_ns;
	struct rusage self0, children0;
	uint64_t cpu0_self, cpu0_children;	/* spawn_ctx_cpu() at the start */
	atomic_uint done;	/* workers finished */
	pthread_t main_thread;
};

/* Record why we stop; the first reason wins.  err/what may be 0/NULL. */
void spawn_ctx_stop(struct spawn_ctx *ctx, enum spawn_stop why, int err,
		    const char *what);
/* Take the time and resource origin of the run. */
void spawn_ctx_start_clock(struct spawn_ctx *ctx);
/* Exact CPU so far, in ns (instructions under the instruction clock):
 * this process with its exited threads, and its reaped children (the sum
 * of user and sys, to the microsecond).  See spawn_ctx.c for why each is
 * exact. */
void spawn_ctx_cpu(uint64_t *self, uint64_t *children);
/* n spawners will not come to the start line (any more): the last one
 * there starts the clock and lets everyone go. */
void spawn_ctx_leave_line(struct spawn_ctx *ctx, unsigned n);

#endif
