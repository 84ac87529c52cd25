/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A spawner thread's own state and its loops (spawn_worker.c). */
#ifndef EXITGEN_SPAWN_WORKER_H
#define EXITGEN_SPAWN_WORKER_H

#include <pthread.h>
#include <stdint.h>

#include "hist.h"
#include "spawn_ctx.h"
#include "spawn_shape.h"

struct worker {
	struct spawn_ctx *ctx;
	unsigned id;
	pthread_t thread;
	struct slots slots;
	unsigned *free_slots;	/* stack of free slot numbers */
	unsigned nfree;
	unsigned *busy;		/* slots of tasks in flight (lazy), unordered */
	unsigned nbusy;
	struct hist late, reap;
	uint64_t exits, created, last_reap_ns;
	double *finish;		/* cohort */
	uint64_t nfinish;
	double release;
};

/* The slots the run's kind needs, all free.  0 or -errno; fini either way. */
int spawn_worker_init(struct worker *w, struct spawn_ctx *ctx, unsigned id);
void spawn_worker_fini(struct worker *w);
/* Tasks on the schedule, one at a time or in batches, all reaped. */
void spawn_worker_run(struct worker *w);
/* The reference for --rate max: create, wait, nothing else. */
void spawn_worker_baseline(struct worker *w);

#endif
