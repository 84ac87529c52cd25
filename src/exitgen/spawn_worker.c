// SPDX-License-Identifier: GPL-2.0-or-later
/* A spawner thread's state and loops (spawn.c starts the thread, and runs
 * a cohort through spawn_cohort.c instead): take the next deadline from
 * the shared schedule, sleep until it, make (or release) one task, reap.
 *
 * Reaping is immediate (create, then wait for that task) when the task ends
 * at once: that is the classic create+reap measurement and the fastest
 * loop.  Tasks with work are reaped lazily instead, up to LAZY_DEPTH in
 * flight, so a slow task never holds up the next deadline. */
#include "spawn_worker.h"
#include "clock.h"
#include "pace.h"

#include <errno.h>
#include <stdlib.h>

#define LAZY_DEPTH 64u		/* tasks a worker keeps in flight with work */

/* ---- the worker's slots ------------------------------------------------- */

static unsigned slots_needed(const struct spawn_config *cfg)
{
	if (cfg->cohort)
		return cfg->cohort + 1;	/* + the start line */
	if (cfg->batch)
		return cfg->batch;
	return LAZY_DEPTH;
}

int spawn_worker_init(struct worker *w, struct spawn_ctx *ctx, unsigned id)
{
	unsigned n = slots_needed(ctx->cfg);
	int r;

	w->ctx = ctx;
	w->id = id;
	hist_init(&w->late);
	hist_init(&w->reap);
	r = spawn_shape_slots_init(&w->slots, n, ctx->cfg->shape, &ctx->plan);
	if (r < 0)
		return r;
	w->free_slots = calloc(n, sizeof(*w->free_slots));
	w->busy = calloc(n, sizeof(*w->busy));
	if (!w->free_slots || !w->busy)
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++)
		w->free_slots[w->nfree++] = n - 1 - i;
	return 0;
}

void spawn_worker_fini(struct worker *w)
{
	spawn_shape_slots_fini(&w->slots);
	free(w->free_slots);
	free(w->busy);
	free(w->finish);
}

static struct task_ctl *slot_ctl(struct worker *w, unsigned slot)
{
	return &w->slots.ctl[slot];
}

static bool stopping(const struct worker *w)
{
	return atomic_load_explicit(&w->ctx->stop, memory_order_relaxed) != 0;
}

static enum spawn_shape shape_of(const struct worker *w)
{
	return w->ctx->cfg->shape;
}

static void note_reaped(struct worker *w, struct task_ctl *c, bool timed)
{
	uint64_t now = mono_ns();

	w->exits++;
	w->last_reap_ns = now;
	if (timed)
		hist_add(&w->reap, now - c->t0);
}

/* A failure while making a task stops the whole run; EAGAIN is the kernel
 * saying no more tasks (RLIMIT_NPROC, threads-max, pid_max). */
static void creation_failed(struct worker *w, int err)
{
	spawn_ctx_stop(w->ctx, err == -EAGAIN ? STOP_LIMIT : STOP_ERROR, err,
		       "creating a task");
}

static int reap_now(struct worker *w, struct task_ctl *c, bool timed)
{
	int r = spawn_shape_reap(shape_of(w), c);

	if (r < 0) {
		spawn_ctx_stop(w->ctx, STOP_ERROR, r, "reaping a task");
		return r;
	}
	note_reaped(w, c, timed);
	return 0;
}

/* ---- lazy reaping: tasks in flight are in busy[0..nbusy) ---------------- */

static void busy_remove(struct worker *w, unsigned at)
{
	w->free_slots[w->nfree++] = w->busy[at];
	w->busy[at] = w->busy[--w->nbusy];
}

static int busy_find_pid(struct worker *w, pid_t pid)
{
	for (unsigned i = 0; i < w->nbusy; i++)
		if (slot_ctl(w, w->busy[i])->pid == pid)
			return (int)i;
	return -1;
}

/* Reap whatever has ended; with block, wait for at least one. */
static int harvest(struct worker *w, bool block)
{
	if (shape_of(w) == SHAPE_THREAD) {
		for (unsigned i = 0; i < w->nbusy;) {
			struct task_ctl *c = slot_ctl(w, w->busy[i]);

			if (spawn_shape_try_join(c) == 0) {
				note_reaped(w, c, true);
				busy_remove(w, i);
				block = false;
			} else {
				i++;
			}
		}
		if (block && w->nbusy) {
			int r = reap_now(w, slot_ctl(w, w->busy[0]), true);

			if (r == 0)
				busy_remove(w, 0);
			return r;
		}
		return 0;
	}
	/* Only while some are busy: with none, waitid says ECHILD. */
	while (w->nbusy) {
		pid_t pid = spawn_shape_reap_any(block);
		int at;

		if (pid < 0) {
			spawn_ctx_stop(w->ctx, STOP_ERROR, pid,
				       "reaping a task");
			return pid;
		}
		if (pid == 0)
			return 0;
		at = busy_find_pid(w, pid);
		if (at >= 0) {
			note_reaped(w, slot_ctl(w, w->busy[at]), true);
			busy_remove(w, (unsigned)at);
		}
		block = false;
	}
	return 0;
}

static int reap_all_busy(struct worker *w)
{
	while (w->nbusy)
		if (harvest(w, true) < 0)
			return -1;
	return 0;
}

/* ---- one task on its deadline ------------------------------------------ */

static int issue_one(struct worker *w, uint64_t idx, uint64_t now, bool lazy)
{
	enum spawn_shape shape = shape_of(w);
	unsigned slot = w->free_slots[--w->nfree];
	struct task_ctl *c = slot_ctl(w, slot);
	int r;

	c->index = idx;
	c->t0 = now;
	r = spawn_shape_create(shape, c);
	if (r < 0) {
		w->free_slots[w->nfree++] = slot;
		creation_failed(w, r);
		return r;
	}
	w->created++;
	if (w->ctx->cfg->exit_by == EXIT_BY_SIGNAL) {
		r = spawn_shape_wait_ready(shape, c);
		if (r == -EAGAIN)
			creation_failed(w, r);
		spawn_shape_release(shape, EXIT_BY_SIGNAL, c);
	}
	if (lazy) {
		w->busy[w->nbusy++] = slot;
		return harvest(w, false);
	}
	r = reap_now(w, c, true);
	w->free_slots[w->nfree++] = slot;
	return r;
}

static void run_paced(struct worker *w, bool lazy)
{
	struct pace *p = &w->ctx->pace;
	uint64_t idx, now;

	while (!stopping(w) && pace_reserve(p, 1, &idx)) {
		uint64_t d = pace_deadline(p, idx);

		if (w->nfree == 0 && harvest(w, true) < 0)
			break;
		if (pace_wait(p, d, &w->ctx->stop, &now) != PACE_GO)
			break;
		pace_note_late(&w->late, d, now);
		if (issue_one(w, idx, now, lazy) < 0)
			break;
	}
	reap_all_busy(w);
}

/* ---- batches: make B tasks that wait, release them on the schedule ------ */

static uint64_t prepare_batch(struct worker *w, uint64_t first, uint64_t n)
{
	enum spawn_shape shape = shape_of(w);
	uint64_t made, ready = 0;

	for (made = 0; made < n && !stopping(w); made++) {
		struct task_ctl *c = slot_ctl(w, (unsigned)made);
		int r;

		c->index = first + made;
		r = spawn_shape_create(shape, c);
		if (r < 0) {
			creation_failed(w, r);
			break;
		}
		w->created++;
	}
	for (; ready < made; ready++) {
		int r = spawn_shape_wait_ready(shape, slot_ctl(w, (unsigned)ready));

		if (r == -EAGAIN)
			creation_failed(w, r);
		else if (r < 0)
			spawn_ctx_stop(w->ctx, STOP_ERROR, r,
				       "a task died early");
	}
	return made;
}

/* Every worker passes here once; the last to arrive starts the clock, so
 * the schedule begins only when every first batch is waiting. */
static void batch_start_line(struct worker *w)
{
	struct spawn_ctx *ctx = w->ctx;

	spawn_ctx_leave_line(ctx, 1);
	while (!atomic_load(&ctx->line_go))
		spawn_task_futex_wait_ns(&ctx->line_go, 0, 0);
}

static void release_and_reap(struct worker *w, struct task_ctl *c, bool timed)
{
	spawn_shape_release(shape_of(w), w->ctx->cfg->exit_by, c);
	reap_now(w, c, timed);
}

static void run_batches(struct worker *w)
{
	struct pace *p = &w->ctx->pace;
	bool started = false;

	for (;;) {
		uint64_t first = 0, k = 0, now;
		uint64_t n = stopping(w) ? 0 :
			     pace_reserve(p, w->ctx->cfg->batch, &first);
		uint64_t made = prepare_batch(w, first, n);

		if (!started) {
			batch_start_line(w);
			started = true;
		}
		for (; k < made; k++) {
			uint64_t d = pace_deadline(p, first + k);
			struct task_ctl *c = slot_ctl(w, (unsigned)k);

			if (pace_wait(p, d, &w->ctx->stop, &now) != PACE_GO)
				break;
			pace_note_late(&w->late, d, now);
			c->t0 = now;
			release_and_reap(w, c, true);
		}
		/* Off the schedule (stopped, or out of time): they still go. */
		for (; k < made; k++)
			release_and_reap(w, slot_ctl(w, (unsigned)k), false);
		if (n == 0 || made < n)
			break;
	}
}

static bool lazy_reaping(const struct spawn_config *cfg)
{
	const struct spawn_work *wk = &cfg->work;

	return cfg->exit_by == EXIT_BY_EXIT &&
	       (wk->cpu_ns || wk->touch_bytes || wk->write_bytes);
}

void spawn_worker_run(struct worker *w)
{
	const struct spawn_config *cfg = w->ctx->cfg;

	if (cfg->batch)
		run_batches(w);
	else
		run_paced(w, lazy_reaping(cfg));
}

/* The reference for --rate max: create, wait, nothing else. */
void spawn_worker_baseline(struct worker *w)
{
	struct pace *p = &w->ctx->pace;
	struct task_ctl *c = slot_ctl(w, 0);
	uint64_t idx, now;

	while (pace_reserve(p, 1, &idx) &&
	       pace_wait(p, 0, &w->ctx->stop, &now) == PACE_GO) {
		int r;

		c->t0 = now;
		r = spawn_shape_create(shape_of(w), c);
		if (r < 0) {
			creation_failed(w, r);
			break;
		}
		w->created++;
		if (reap_now(w, c, true) < 0)
			break;
	}
}
