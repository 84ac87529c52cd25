/* The run's shared context: the first reason to stop, the start line of
 * the batch spawners, and the origin of the clock. */
#include "spawn_ctx.h"
#include "clock.h"

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

void spawn_ctx_start_clock(struct spawn_ctx *ctx)
{
	getrusage(RUSAGE_SELF, &ctx->self0);
	getrusage(RUSAGE_CHILDREN, &ctx->children0);
	ctx->start_ns = mono_ns();
	pace_start(&ctx->pace, ctx->start_ns);
}
