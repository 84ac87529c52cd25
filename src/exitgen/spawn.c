// SPDX-License-Identifier: GPL-2.0-or-later
/* The run as a whole: set up, start the spawner threads, wait for them or
 * for a signal to stop, reap and kill everything, account.
 *
 * Every signal is blocked in every thread we make (and so in every task):
 * the main thread alone takes the signals that ask to stop (stopsig.h:
 * SIGINT, SIGTERM, SIGHUP, SIGUSR1, ...) and our own SIGUSR2 ("all
 * spawners are done") with sigwaitinfo, so no handler ever runs on a task's
 * borrowed stack, and no signal left pending ends us without a report. */
#include "spawn.h"
#include "clock.h"
#include "pace.h"
#include "safe.h"
#include "spawn_bg.h"
#include "spawn_cohort.h"
#include "spawn_ctx.h"
#include "spawn_task.h"
#include "spawn_tls.h"
#include "spawn_worker.h"
#include "stopsig.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define ZERO_BYTES (64u * 1024)

/* ---- option values ------------------------------------------------------ */

const char *spawn_stop_name(enum spawn_stop s)
{
	static const char *const names[] = {
		[STOP_COUNT] = "count", [STOP_DURATION] = "duration",
		[STOP_SIGNAL] = "signal", [STOP_LIMIT] = "limit",
		[STOP_ERROR] = "error",
	};

	return names[s];
}

/* ---- the plan ------------------------------------------------------------ */

static enum task_mode task_mode_of(const struct spawn_config *cfg)
{
	if (cfg->exit_by == EXIT_BY_SIGNAL)
		return TASK_WAIT_KILL;
	return cfg->batch ? TASK_WAIT_GO : TASK_EXIT;
}

/* Everything tasks read, fixed before the first one is made. */
static int plan_init(struct task_plan *pl, const struct spawn_config *cfg)
{
	bool created;

	memset(pl, 0, sizeof(*pl));
	memcpy(pl->tag, cfg->tag, sizeof(pl->tag));
	pl->work = cfg->work;
	pl->threads = cfg->shape == SHAPE_GROUP ? cfg->group_threads : 1;
	pl->mode = task_mode_of(cfg);
	pl->parent = getpid();
	pl->bare = cfg->baseline;
	pl->write_fd = -1;
	if (!cfg->work.write_bytes)
		return 0;
	/* The one safe open: a root run must not follow a planted link. */
	pl->write_fd = safe_open(cfg->work.write_path ? cfg->work.write_path :
				 "/dev/null", O_WRONLY | O_CREAT, 0644, &created);
	if (pl->write_fd < 0)
		return pl->write_fd;
	pl->zero = mmap(NULL, ZERO_BYTES, PROT_READ,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pl->zero == MAP_FAILED) {
		pl->zero = NULL;
		return -errno;
	}
	pl->zero_len = ZERO_BYTES;
	return 0;
}

static void plan_fini(struct task_plan *pl)
{
	if (pl->write_fd >= 0)
		close(pl->write_fd);
	if (pl->zero)
		munmap((void *)pl->zero, pl->zero_len);
}

/* ---- workers ------------------------------------------------------------- */

/* Tell the main thread when the last spawner is done. */
static void spawner_done(struct worker *w)
{
	struct spawn_ctx *ctx = w->ctx;

	if (atomic_fetch_add(&ctx->done, 1) + 1 == ctx->cfg->workers)
		pthread_kill(ctx->main_thread, SIGUSR2);
}

/* A spawner thread: the loop of the run's kind (spawn_worker.c, or
 * spawn_cohort.c for a cohort), then say it is done. */
static void *spawner_main(void *arg)
{
	struct worker *w = arg;
	const struct spawn_config *cfg = w->ctx->cfg;

	prctl(PR_SET_NAME, "exitgen-spawn", 0, 0, 0);
	if (cfg->baseline) {
		spawn_worker_baseline(w);
	} else {
		/* The default 50 us timer slack would show up as lateness. */
		prctl(PR_SET_TIMERSLACK, 1, 0, 0, 0);
		if (cfg->cohort)
			spawn_cohort_run(w);
		else
			spawn_worker_run(w);
	}
	spawner_done(w);
	return NULL;
}

/* Our own "a spawner is done" SIGUSR2, not one sent from outside (glibc
 * reports pthread_kill's SI_TKILL as SI_USER: the sender's pid tells). */
static bool from_spawner(const siginfo_t *si)
{
	return si->si_signo == SIGUSR2 && si->si_pid == getpid();
}

/* Wait for the spawners to finish; a first signal that asks to stop asks
 * them to stop (they then reap everything they made). */
static void wait_workers(struct spawn_ctx *ctx)
{
	sigset_t set;
	siginfo_t si;

	stopsig_fill(&set);
	sigaddset(&set, SIGUSR2);	/* ours, even if ignored on entry */
	while (atomic_load(&ctx->done) < ctx->cfg->workers) {
		if (sigwaitinfo(&set, &si) > 0 && !from_spawner(&si))
			spawn_ctx_stop(ctx, STOP_SIGNAL, 0, NULL);
	}
}

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static struct timeval s_tv(double s)
{
	struct timeval tv;

	if (s < 0)
		s = 0;
	tv.tv_sec = (time_t)s;
	tv.tv_usec = (suseconds_t)((s - (double)tv.tv_sec) * 1e6);
	return tv;
}

/* Only the run: later usage minus the usage at the start of the clock. */
static void rusage_since(int who, const struct rusage *before,
			 struct rusage *out)
{
	struct rusage now;

	getrusage(who, &now);
	memset(out, 0, sizeof(*out));
	out->ru_utime = s_tv(tv_s(now.ru_utime) - tv_s(before->ru_utime));
	out->ru_stime = s_tv(tv_s(now.ru_stime) - tv_s(before->ru_stime));
}

static void collect(struct spawn_ctx *ctx, struct worker *ws,
		    struct spawn_result *res)
{
	uint64_t end = 0;

	for (unsigned i = 0; ws && i < ctx->cfg->workers; i++) {
		struct worker *w = &ws[i];

		hist_merge(&res->late, &w->late);
		hist_merge(&res->reap, &w->reap);
		res->exits += w->exits;
		res->created += w->created;
		if (w->last_reap_ns > end)
			end = w->last_reap_ns;
		if (w->finish) {
			res->cohort_finish = w->finish;
			res->cohort_n = w->nfinish;
			w->finish = NULL;
		}
	}
	if (ctx->start_ns == 0)		/* stopped before the start line */
		spawn_ctx_start_clock(ctx);
	if (end < ctx->start_ns)
		end = mono_ns();
	res->elapsed = (double)(end - ctx->start_ns) / 1e9;
	rusage_since(RUSAGE_SELF, &ctx->self0, &res->self);
	rusage_since(RUSAGE_CHILDREN, &ctx->children0, &res->children);
	spawn_ctx_cpu(&res->cpu_self, &res->cpu_children);
	res->cpu_self -= ctx->cpu0_self;
	res->cpu_children -= ctx->cpu0_children;
}

static void set_outcome(struct spawn_ctx *ctx, struct spawn_result *res)
{
	int stop = atomic_load(&ctx->stop);

	if (stop) {
		res->stopped_by = (enum spawn_stop)(stop - 1);
		res->error = ctx->error;
		res->error_what = ctx->error_what;
	} else if (pace_ended_by_duration(&ctx->pace)) {
		res->stopped_by = STOP_DURATION;
	} else {
		res->stopped_by = STOP_COUNT;
	}
}

/* Children still there, zombie or alive: there must be none.  Children of
 * threads that ended were handed to this one, so its list is all of them. */
static long children_left(void)
{
	char path[64];
	long n = 0, pid;
	siginfo_t si;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%ld/children",
		 (long)gettid());
	f = fopen(path, "re");
	if (f) {
		while (fscanf(f, "%ld", &pid) == 1)
			n++;
		fclose(f);
		return n;
	}
	memset(&si, 0, sizeof(si));
	if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT | __WALL) == 0 &&
	    si.si_pid != 0)
		n = 1;
	return n;
}

static int run_workers(struct spawn_ctx *ctx, struct worker *ws)
{
	const struct spawn_config *cfg = ctx->cfg;
	unsigned started = 0;
	int r = 0;

	if (!cfg->batch && !cfg->cohort)
		spawn_ctx_start_clock(ctx);
	for (; started < cfg->workers; started++) {
		r = -pthread_create(&ws[started].thread, NULL, spawner_main,
				    &ws[started]);
		if (r < 0)
			break;
	}
	if (r < 0) {
		/* Those started finish on their own; the missing ones must
		 * not be waited for, at the start line or at the end. */
		spawn_ctx_stop(ctx, r == -EAGAIN ? STOP_LIMIT : STOP_ERROR, r,
			       "starting spawner threads");
		atomic_fetch_add(&ctx->done, cfg->workers - started);
		if (cfg->batch)
			spawn_ctx_leave_line(ctx, cfg->workers - started);
	}
	wait_workers(ctx);
	for (unsigned i = 0; i < started; i++)
		pthread_join(ws[i].thread, NULL);
	return r;
}

struct setup {
	struct spawn_ctx ctx;
	struct tls_donor donor;
	struct worker *ws;
	pid_t *bg;
	void *map;
	sigset_t oldmask;
};

static int setup_fail(struct spawn_result *res, const char *what, int r)
{
	res->error_what = what;
	return r;
}

static int setup_run(struct setup *s, const struct spawn_config *cfg,
		     struct spawn_result *res)
{
	sigset_t all;
	int r;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &s->oldmask);
	/* Our own threads never carry a tag, not even the default one, so a
	 * collector filtering on the tag counts exactly the tasks. */
	prctl(PR_SET_NAME, "exitgen-main", 0, 0, 0);
	s->ctx.cfg = cfg;
	s->ctx.main_thread = pthread_self();
	pthread_mutex_init(&s->ctx.lock, NULL);
	atomic_init(&s->ctx.line_left, cfg->workers);
	atomic_init(&s->ctx.line_go, 0);
	r = pace_init(&s->ctx.pace, cfg->rate, cfg->cohort ? 1 : cfg->count,
		      cfg->cohort ? 0 : cfg->duration);
	if (r < 0)
		return setup_fail(res, "setting up the schedule", r);
	r = plan_init(&s->ctx.plan, cfg);
	if (r < 0)
		return setup_fail(res, "opening the --work write file", r);
	if (cfg->mmap_bytes) {
		r = spawn_bg_map_touch(cfg->mmap_bytes, cfg->mmap_path, &s->map);
		if (r < 0)
			return setup_fail(res, "mapping the --mmap file", r);
	}
	r = spawn_bg_start(cfg->background, &s->bg, &res->background);
	if (r < 0)
		return setup_fail(res, "starting background children", r);
	if (cfg->shape == SHAPE_PROCESS || cfg->shape == SHAPE_GROUP) {
		r = spawn_tls_donor_start(&s->donor);
		if (r < 0)
			return setup_fail(res, "starting the TLS donor", r);
		s->ctx.plan.tls = (void *)atomic_load(&s->donor.tp);
	}
	s->ws = calloc(cfg->workers, sizeof(*s->ws));
	if (!s->ws)
		return setup_fail(res, "allocating workers", -ENOMEM);
	for (unsigned i = 0; i < cfg->workers; i++) {
		r = spawn_worker_init(&s->ws[i], &s->ctx, i);
		if (r < 0)
			return setup_fail(res, "allocating task slots", r);
	}
	if (cfg->cohort)
		s->ctx.plan.cohort_go = &s->ws[0].slots.ctl[cfg->cohort].go;
	return 0;
}

/* The last spawner's SIGUSR2 may still be pending (the main thread can see
 * the done count first): take it.  The signals that ask to stop stay
 * blocked, so a late one cannot cut the report short (it is dropped at
 * exit); the others (SIGTSTP, SIGCHLD, ...) get the caller's mask back. */
static void restore_signals(const sigset_t *old)
{
	const struct timespec zero = { 0, 0 };
	sigset_t usr2, stop, mask;

	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	while (sigtimedwait(&usr2, NULL, &zero) == SIGUSR2)
		;
	stopsig_fill(&stop);
	sigorset(&mask, old, &stop);
	pthread_sigmask(SIG_SETMASK, &mask, NULL);
}

static void teardown(struct setup *s, const struct spawn_config *cfg,
		     struct spawn_result *res)
{
	if (s->ws)
		for (unsigned i = 0; i < cfg->workers; i++)
			spawn_worker_fini(&s->ws[i]);
	free(s->ws);
	/* Every CLONE_VM child is reaped by now: the donor may go. */
	spawn_tls_donor_stop(&s->donor);
	if (s->bg)
		res->kill_background = spawn_bg_stop(s->bg, res->background);
	free(s->bg);
	spawn_bg_map_release(s->map, cfg->mmap_bytes);
	plan_fini(&s->ctx.plan);
	res->children_left = children_left();
	pthread_mutex_destroy(&s->ctx.lock);
	restore_signals(&s->oldmask);
}

int spawn_run(const struct spawn_config *cfg, struct spawn_result *res)
{
	struct setup *s = calloc(1, sizeof(*s));
	int r;

	memset(res, 0, sizeof(*res));
	hist_init(&res->late);
	hist_init(&res->reap);
	if (!s)
		return -ENOMEM;
	s->ctx.plan.write_fd = -1;
	r = setup_run(s, cfg, res);
	if (r == -EAGAIN && res->background < cfg->background) {
		/* The task limit hit while making background children: a
		 * clean stop with nothing run, not a setup failure. */
		spawn_ctx_stop(&s->ctx, STOP_LIMIT, r,
			       "starting background children");
		r = 0;
		atomic_store(&s->ctx.done, cfg->workers);
	}
	if (r < 0)
		goto out;
	if (!atomic_load(&s->ctx.stop))
		run_workers(&s->ctx, s->ws);	/* failures are in ctx */
	collect(&s->ctx, s->ws, res);
	set_outcome(&s->ctx, res);
out:
	teardown(s, cfg, res);
	free(s);
	return r;
}

void spawn_result_free(struct spawn_result *res)
{
	free(res->cohort_finish);
	res->cohort_finish = NULL;
}
