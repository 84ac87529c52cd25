// SPDX-License-Identifier: GPL-2.0-or-later
/* The run's shared context: the first reason to stop, the start line of
 * the batch spawners, and the origin of the clock. */
#include "spawn_ctx.h"
#include "clock.h"

#include <time.h>

void spawn_ctx_stop(struct spawn_ctx *ctx, enum spawn_stop why, int err,
		    const char *what)
{
	int none = 0;

	if (atomic_compare_exchange_strong(&ctx->stop, &none, (int)why + 1)) {
		pthread_mutex_lock(&ctx->lock);
		ctx->error = err;
		ctx->error_what = what;
		pthread_mutex_unlock(&ctx->lock);
	}
}

void spawn_ctx_leave_line(struct spawn_ctx *ctx, unsigned n)
{
	if (n && atomic_fetch_sub(&ctx->line_left, n) == n) {
		spawn_ctx_start_clock(ctx);
		atomic_store(&ctx->line_go, 1);
		spawn_task_futex_wake_all(&ctx->line_go);
	}
}

static uint64_t tv_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000000u + (uint64_t)tv.tv_usec * 1000u;
}

/* Self: CLOCK_PROCESS_CPUTIME_ID is the kernel's thread_group_cputime()
 * sum_exec_runtime: signal->sum_sched_runtime, where __exit_signal() adds
 * each thread that has exited (the thread shape's tasks), plus every live
 * thread's runtime; in ns, not tick-sampled.
 * Children: wait_task_zombie() adds each reaped child's
 * thread_group_cputime_adjusted() to cutime and cstime, and
 * cputime_adjust() (kernel/sched/cputime.c) makes that utime + stime equal
 * the child's sum_exec_runtime: the split between them is scaled from tick
 * samples, but their sum is exact.  getrusage() gives each to the
 * microsecond, so the sum is exact to 2 us per reading. */
void spawn_ctx_cpu(uint64_t *self, uint64_t *children)
{
	struct timespec ts = { 0, 0 };
	struct rusage ru;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	*self = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	getrusage(RUSAGE_CHILDREN, &ru);
	*children = tv_ns(ru.ru_utime) + tv_ns(ru.ru_stime);
}

void spawn_ctx_start_clock(struct spawn_ctx *ctx)
{
	getrusage(RUSAGE_SELF, &ctx->self0);
	getrusage(RUSAGE_CHILDREN, &ctx->children0);
	spawn_ctx_cpu(&ctx->cpu0_self, &ctx->cpu0_children);
	ctx->start_ns = mono_ns();
	pace_start(&ctx->pace, ctx->start_ns);
}
