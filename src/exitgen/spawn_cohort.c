// SPDX-License-Identifier: GPL-2.0-or-later
/* A cohort: N identical tasks, all made first and held at one start line,
 * released together; each notes when its work ended.  The spread of those
 * times shows how fairly the scheduler shared the machine among them. */
#include "spawn_cohort.h"
#include "clock.h"

#include <errno.h>
#include <stdlib.h>

#include "stats.h"

static uint64_t make_cohort(struct worker *w, uint64_t n)
{
	enum spawn_shape shape = w->ctx->cfg->shape;
	uint64_t made;

	for (made = 0; made < n; made++) {
		struct task_ctl *c = &w->slots.ctl[made];
		int r;

		if (atomic_load(&w->ctx->stop))
			break;
		c->index = made;
		r = spawn_shape_create(shape, c);
		if (r < 0) {
			spawn_ctx_stop(w->ctx, r == -EAGAIN ? STOP_LIMIT :
				       STOP_ERROR, r, "creating a task");
			break;
		}
		w->created++;
	}
	for (uint64_t i = 0; i < made; i++) {
		int r = spawn_shape_wait_ready(shape, &w->slots.ctl[i]);

		if (r < 0)
			spawn_ctx_stop(w->ctx, r == -EAGAIN ? STOP_LIMIT :
				       STOP_ERROR, r, "starting the cohort");
	}
	return made;
}

static void reap_cohort(struct worker *w, uint64_t made)
{
	enum spawn_shape shape = w->ctx->cfg->shape;

	for (uint64_t i = 0; i < made; i++) {
		struct task_ctl *c = &w->slots.ctl[i];
		int r = spawn_shape_reap(shape, c);

		if (r < 0) {
			spawn_ctx_stop(w->ctx, STOP_ERROR, r, "reaping a task");
			continue;
		}
		w->exits++;
		w->last_reap_ns = mono_ns();
		hist_add(&w->reap, w->last_reap_ns - c->t0);
	}
}

/* The start line is the go word of the extra slot past the cohort. */
int spawn_cohort_run(struct worker *w)
{
	uint64_t n = w->ctx->cfg->cohort, made;
	atomic_uint *go = w->ctx->plan.cohort_go;
	uint64_t t0;

	made = make_cohort(w, n);
	spawn_ctx_start_clock(w->ctx);
	t0 = w->ctx->start_ns;
	for (uint64_t i = 0; i < made; i++)
		w->slots.ctl[i].t0 = t0;
	atomic_store(go, 1);
	spawn_task_futex_wake_all(go);
	reap_cohort(w, made);
	w->finish = calloc(made ? made : 1, sizeof(*w->finish));
	if (!w->finish)
		return -ENOMEM;
	for (uint64_t i = 0; i < made; i++) {
		uint64_t end = atomic_load(&w->slots.ctl[i].end_ns);

		w->finish[i] = end > t0 ? (double)(end - t0) / 1e9 : 0;
	}
	stats_sort(w->finish, made);
	w->nfinish = made;
	return 0;
}
