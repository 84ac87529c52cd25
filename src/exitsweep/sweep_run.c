// SPDX-License-Identifier: GPL-2.0-or-later
/* One cell's run: what exitgen is asked to do for each kind, exitmon (if
 * the cell listens) around it, exitprobe around it (overhead), and the
 * summaries into the run's metrics.  The processes themselves are
 * sweep_exec.c's. */
#include "sweep_run.h"
#include "clock.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gen_summary.h"
#include "kv.h"
#include "mon_counters.h"
#include "probe_summary.h"
#include "sweep_argv.h"
#include "sweep_cohort.h"
#include "sweep_cpu.h"
#include "sweep_exec.h"
#include "sweep_metrics.h"
#include "sweep_probe.h"
#include "sweep_proc.h"
#include "sweep_signal.h"
#include "sweep_sysctl.h"

/* --- the generator --- */

static void gen_args_overhead(const struct sweep_config *cfg,
			      const struct sweep_cell *c, struct sweep_argv *b)
{
	int64_t rate = cell_val(cfg, c, DIM_RATE);

	sweep_argv_opt(b, "--shape", cell_val(cfg, c, DIM_TGID) ? "thread" : "process");
	if (rate)
		sweep_argv_num(b, "--rate", rate);
	else
		sweep_argv_opt(b, "--rate", "max");
	sweep_argv_num(b, "--count", (long long)cfg->count);
	if (cfg->workers > 1)
		sweep_argv_num(b, "--workers", cfg->workers);
	if (cfg->batch)
		sweep_argv_num(b, "--batch", cfg->batch);
}

/* kill: the second invocation, a batch of waiting children killed and
 * reaped (the first is fork and reap among the background children). */
static void gen_args_reap(const struct sweep_config *cfg, const struct sweep_cell *c,
			  bool kill, struct sweep_argv *b)
{
	int64_t bg = cell_val(cfg, c, DIM_BACKGROUND);
	int64_t mm = cell_val(cfg, c, DIM_MMAP);

	sweep_argv_opt(b, "--shape", "fork");
	if (kill) {
		sweep_argv_num(b, "--count", cfg->kill_batch);
		sweep_argv_num(b, "--batch", cfg->kill_batch);
		sweep_argv_opt(b, "--exit-by", "signal");
	} else {
		sweep_argv_num(b, "--count", (long long)cfg->count);
	}
	if (bg)
		sweep_argv_num(b, "--background", bg);
	if (mm)
		sweep_argv_num(b, "--mmap", mm);
}

/* exitgen's command line (for reap, kill selects the second invocation). */
static void gen_args(const struct run_env *env, const struct sweep_cell *c,
		     const char *tag, const char *summary, bool kill,
		     struct sweep_argv *b)
{
	const struct sweep_config *cfg = env->cfg;

	sweep_argv_add(b, cfg->exitgen);
	switch (cfg->kind) {
	case KIND_OVERHEAD:
		gen_args_overhead(cfg, c, b);
		break;
	case KIND_REAP:
		gen_args_reap(cfg, c, kill, b);
		break;
	case KIND_COHORT:
		sweep_argv_opt(b, "--shape", "process");
		sweep_argv_num(b, "--cohort", cfg->cohort);
		sweep_argv_opt(b, "--work", cell_label(cfg, c, DIM_WORK));
		break;
	default:
		break;
	}
	sweep_argv_opt(b, "--tag", tag);
	sweep_argv_opt(b, "--summary", summary);
	sweep_argv_add(b, "--quiet");
}

/* A run's timeout in seconds: cfg->run_timeout, or a bound made from the
 * expected duration of count exits at rate (0: flat out). */
static double timeout_for(const struct sweep_config *cfg, int64_t rate,
			  uint64_t count)
{
	if (cfg->run_timeout > 0)
		return cfg->run_timeout;
	if (cfg->kind == KIND_OVERHEAD)
		return 120 + 10.0 * (double)count / (double)(rate ? rate : 2000);
	return 1800;
}

static double run_timeout_of(const struct sweep_config *cfg,
			     const struct sweep_cell *c)
{
	return timeout_for(cfg, cfg->kind == KIND_OVERHEAD ?
			   cell_val(cfg, c, DIM_RATE) : 0, cfg->count);
}

/* --- metrics from the summaries --- */

static void put(double *v, enum sweep_metric m, const struct kvmap *kv,
		const char *key)
{
	double x;

	if (kv_map_double(kv, key, &x) == 0)
		v[m] = x;
}

static void from_exitgen(const struct sweep_config *cfg,
			 const struct kvmap *g, struct sweep_run *run)
{
	double *v = run->v;
	const char *s;

	put(v, M_USER, g, GEN_KEY_USER);
	put(v, M_SYS, g, GEN_KEY_SYS);
	put(v, M_ELAPSED, g, GEN_KEY_ELAPSED);
	put(v, M_EXITS, g, GEN_KEY_EXITS);
	if (cfg->kind == KIND_OVERHEAD) {
		put(v, M_ACHIEVED, g, GEN_KEY_ACHIEVED_RATE);
		put(v, M_LATE_P99, g, GEN_KEY_LATE_P99);
		put(v, M_SATURATED, g, GEN_KEY_SATURATED);
	} else if (cfg->kind == KIND_REAP) {
		put(v, M_FORK_REAP_P50, g, GEN_KEY_REAP_P50);
		put(v, M_FORK_REAP_P99, g, GEN_KEY_REAP_P99);
		put(v, M_KILL_BG, g, GEN_KEY_KILL_BACKGROUND);
	} else if (cfg->kind == KIND_COHORT) {
		put(v, M_FIRST, g, GEN_KEY_COHORT_FIRST);
		put(v, M_LAST, g, GEN_KEY_COHORT_LAST);
		put(v, M_SPREAD, g, GEN_KEY_COHORT_SPREAD);
		if ((s = kv_map_get(g, GEN_KEY_COHORT_GROUPS)))
			sweep_cohort_set_groups(run, s);
		put(v, M_GROUPS, g, GEN_KEY_COHORT_NGROUPS);
		if ((s = kv_map_get(g, GEN_KEY_COHORT_FINISH)))
			sweep_cohort_set_times(run, s);
	}
}

/* The second reap invocation adds the kill and reap time and its exits. */
static void from_exitgen_kill(const struct kvmap *g, double *v)
{
	double x;

	put(v, M_KILL_REAP, g, GEN_KEY_KILL_REAP);
	if (kv_map_double(g, GEN_KEY_EXITS, &x) == 0 && !isnan(v[M_EXITS]))
		v[M_EXITS] += x;
	if (isnan(v[M_KILL_BG]))
		put(v, M_KILL_BG, g, GEN_KEY_KILL_BACKGROUND);
}

static void from_exitmon(const struct kvmap *m, double *v)
{
	put(v, M_RECORDS, m, MON_KEY(matched));
	put(v, M_DROPPED, m, MON_KEY(dropped));
	put(v, M_ENOBUFS, m, MON_KEY(enobufs));
	put(v, M_MON_USER, m, MON_KEY_CPU_USER);
	put(v, M_MON_SYS, m, MON_KEY_CPU_SYS);
	put(v, M_IMPLAUSIBLE, m, MON_KEY(implausible));
	if (!isnan(v[M_EXITS]) && !isnan(v[M_RECORDS]))
		v[M_LOST] = v[M_EXITS] - v[M_RECORDS];
}

static void note_version(const struct run_env *env, const struct kvmap *m)
{
	double sv;

	if (kv_map_double(m, MON_KEY_STRUCT_VERSION, &sv) == 0 && sv > 0)
		env->machine->struct_version = (int)sv;
}

/* --- one run --- */

/* One exitgen invocation: for reap, kill selects the second one; probe
 * (overhead, --probe on) runs it under exitprobe, told which listener is
 * ours; wall and busy (machine CPU seconds) are measured around it. */
struct gen_call {
	bool kill, probe;
	const char *summary;
	pid_t listener;		/* exitmon's pid, 0 none */
	double wall, busy;	/* out */
};

/* exitprobe's part of the command line, when the call is probed. */
static void probe_argv(const struct sweep_config *cfg, const struct sweep_run_files *f,
		       const struct gen_call *g, struct sweep_argv *b)
{
	if (!g->probe)
		return;
	sweep_argv_add(b, cfg->exitprobe);
	sweep_argv_opt(b, "--summary", f->probe_sum);
	sweep_argv_opt(b, "--method", cfg->probe_method);
	if (g->listener > 0)
		sweep_argv_num(b, "--listener-pid", g->listener);
	sweep_argv_add(b, "--");
}

static void gen_argv(const struct run_env *env, const struct sweep_cell *c,
		     const char *tag, const struct sweep_run_files *f,
		     const struct gen_call *g, struct sweep_argv *b)
{
	probe_argv(env->cfg, f, g, b);
	gen_args(env, c, tag, g->summary, g->kill, b);
}

/* Spawn, wait within timeout seconds, check the exit status. */
static int gen_wait(double timeout, const struct sweep_run_files *f,
		    struct sweep_argv *b, struct gen_call *g, char *err, size_t errlen)
{
	struct sweep_cpu_sample c0, c1;
	bool have_cpu = sweep_cpu_read(&c0) == 0;
	double t0 = mono_s();
	int r, status;
	pid_t gen = sweep_proc_spawn(b->a, NULL, f->gen_err);

	if (gen < 0) {
		snprintf(err, errlen, "cannot start %s: %s", b->a[0], strerror(-gen));
		return gen;
	}
	sweep_exec_alarm_set(timeout);
	r = sweep_proc_wait(gen, &status, NULL, true);
	sweep_exec_alarm_clear();
	if (r == -EINTR) {
		sweep_proc_stop(gen, SWEEP_STOP_GRACE_S, &status);
		if (sweep_signal_interrupted)
			return -EINTR;
		snprintf(err, errlen, "exitgen did not finish within %.0f s "
		     "(see --run-timeout)", timeout);
		return -ETIMEDOUT;
	}
	g->wall = mono_s() - t0;
	g->busy = have_cpu && sweep_cpu_read(&c1) == 0 ? sweep_cpu_busy_s(&c0, &c1) : NAN;
	if (r < 0) {
		snprintf(err, errlen, "cannot reap exitgen: %s", strerror(-r));
		return r;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		sweep_exec_child_failed(err, errlen, g->probe ?
					"exitprobe running exitgen failed," :
					"exitgen failed,", status, f->gen_err);
		return -ECHILD;
	}
	return 0;
}

/* Run exitgen to completion and load its summary into kv (and the
 * probe's into pkv). */
static int gen_run(const struct run_env *env, const struct sweep_cell *c,
		   const char *tag, const struct sweep_run_files *f, struct gen_call *g,
		   struct kvmap *kv, struct kvmap *pkv, char *err, size_t errlen)
{
	struct sweep_argv b = { .n = 0 };
	int r;

	gen_argv(env, c, tag, f, g, &b);
	r = gen_wait(run_timeout_of(env->cfg, c), f, &b, g, err, errlen);
	if (r < 0)
		return r;
	r = kv_map_load(g->summary, kv);
	if (r < 0) {
		snprintf(err, errlen, "cannot read exitgen's summary %s: %s",
		     g->summary, strerror(-r));
		return r;
	}
	if (g->probe && (r = kv_map_load(f->probe_sum, pkv)) < 0)
		snprintf(err, errlen, "cannot read exitprobe's summary %s: %s",
		     f->probe_sum, strerror(-r));
	return r;
}

/* Per-exit and per-record figures from the exact totals. */
static void derive(struct sweep_run *run, double busy)
{
	double *v = run->v;

	if (v[M_EXITS] > 0) {
		v[M_CPU_US_PER_EXIT] = (v[M_USER] + v[M_SYS]) / v[M_EXITS] * 1e6;
		v[M_MACHINE_CPU_US_PER_EXIT] = busy / v[M_EXITS] * 1e6;
	}
	if (v[M_RECORDS] > 0)
		v[M_MON_US_PER_RECORD] = (v[M_MON_USER] + v[M_MON_SYS]) /
					 v[M_RECORDS] * 1e6;
}

/* Why a probe summary's unit is not the sweep's, into err. */
static void unit_mismatch(const char *probe_unit, char *err, size_t errlen)
{
	if (sweep_metrics_instr())
		snprintf(err, errlen, "exitprobe gives its figures in %s, but the clock "
			 "counts instructions (EXITMON_CLOCK=instructions): give exitprobe "
			 "the same environment, and use the one built with this "
			 "exitsweep", probe_unit);
	else
		snprintf(err, errlen, "exitprobe gives its figures in %s, but exitsweep "
			 "runs on the ordinary clock (no EXITMON_CLOCK=instructions): run "
			 "both with the same environment", probe_unit);
}

/* The probe's summary into v, or why not in err. */
static int probe_apply(const struct kvmap *pkv, const char *path, double *v,
		       char *err, size_t errlen)
{
	int r = sweep_probe_apply(pkv, sweep_metrics_unit(), v);

	if (r == -EPROTO)
		unit_mismatch(sweep_probe_unit(pkv), err, errlen);
	else if (r < 0)
		snprintf(err, errlen, "exitprobe's summary %s has no exit count", path);
	return r;
}

/* exitmon (if the cell has a listener) around exitgen (under the probe
 * when on), then the summaries into the run's metrics. */
static int run_both(const struct run_env *env, const struct sweep_cell *c,
		    struct sweep_run *run, const struct sweep_run_files *f, struct sweep_mon *m,
		    char *err, size_t errlen)
{
	const struct sweep_config *cfg = env->cfg;
	struct gen_call g = { .summary = f->gen_sum, .listener = m->running ? m->pid : 0,
			      .probe = cfg->exitprobe && cfg->kind == KIND_OVERHEAD };
	struct gen_call k = { .kill = true, .summary = f->kill_sum };
	struct kvmap gkv = { 0 }, kkv = { 0 }, mkv = { 0 }, pkv = { 0 };
	int r;

	r = gen_run(env, c, run->tag, f, &g, &gkv, &pkv, err, errlen);
	if (r < 0)
		goto out;
	run->v[M_WALL] = g.wall;
	from_exitgen(cfg, &gkv, run);
	if (g.probe && (r = probe_apply(&pkv, f->probe_sum, run->v, err, errlen)) < 0)
		goto out;
	if (cfg->kind == KIND_REAP) {
		r = gen_run(env, c, run->tag, f, &k, &kkv, NULL, err, errlen);
		if (r < 0)
			goto out;
		from_exitgen_kill(&kkv, run->v);
	}
	if (m->running) {
		r = sweep_exec_mon_stop(m, f, &mkv, err, errlen);
		if (r < 0)
			goto out;
		from_exitmon(&mkv, run->v);
		note_version(env, &mkv);
	}
	derive(run, g.busy);
out:
	kv_map_free(&gkv);
	kv_map_free(&kkv);
	kv_map_free(&mkv);
	kv_map_free(&pkv);
	return r;
}

/* On the instruction clock a run's timed figures, measured in their own
 * units (s, ms, us, ns of a clock that advances one ns per instruction),
 * become plain counts of instructions, once, before any statistic. */
static void to_instr(struct sweep_run *run)
{
	if (!sweep_metrics_instr())
		return;
	sweep_metrics_to_instr(run->v);
	for (size_t i = 0; i < run->n_exit_times; i++)
		run->exit_times[i] *= 1e9;	/* seconds */
}

int sweep_run_one(const struct run_env *env, const struct sweep_cell *c,
	    struct sweep_run *run, char *err, size_t errlen)
{
	const struct sweep_config *cfg = env->cfg;
	int listener = (int)cell_val(cfg, c, DIM_LISTENER);
	int dacct = (int)cell_val(cfg, c, DIM_DACCT);
	bool keep = cfg->kind == KIND_COHORT;
	struct sweep_run_files f;
	struct sweep_mon m = { 0, false };
	int r, status, now;

	err[0] = '\0';
	sweep_exec_files_init(&f, env->tmpdir);
	if (dacct != DACCT_KEEP && (r = sweep_sysctl_set(dacct)) < 0) {
		snprintf(err, errlen, "cannot set %s to %d: %s", sweep_sysctl_path(), dacct,
		     strerror(-r));
		return r;
	}
	if (sweep_sysctl_read(&now) == 0)
		run->v[M_DACCT_STATE] = now;
	if (listener != LISTEN_NONE) {
		r = sweep_exec_mon_start(env, listener, run->tag, keep, &f, &m, err, errlen);
		if (r < 0)
			return r;
	}
	r = run_both(env, c, run, &f, &m, err, errlen);
	if (r == 0 && keep && (r = sweep_cohort_read_csv(f.mon_out, run->tag, run)) < 0)
		snprintf(err, errlen, "cannot read exitmon's records %s: %s",
		     f.mon_out, strerror(-r));
	if (r == 0)
		to_instr(run);
	run->done = r == 0;
	if (m.running)
		sweep_proc_stop(m.pid, SWEEP_STOP_GRACE_S, &status);
	return r < 0 && sweep_signal_interrupted ? -EINTR : r;
}

int sweep_run_probe(const struct run_env *env, char *err, size_t errlen)
{
	struct sweep_run_files f;
	struct sweep_mon m = { 0, false };
	struct kvmap kv = { 0 };
	int r, status;
	pid_t pid;

	sweep_exec_files_init(&f, env->tmpdir);
	r = sweep_exec_mon_start(env, LISTEN_BATCH, NULL, false, &f, &m, err, errlen);
	if (r < 0)
		return r;
	/* One exit of our own, so the collector sees a record's version. */
	pid = fork();
	if (pid == 0)
		_exit(0);
	if (pid > 0)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	r = sweep_exec_mon_stop(&m, &f, &kv, err, errlen);
	if (r == 0)
		note_version(env, &kv);
	kv_map_free(&kv);
	return sweep_signal_interrupted ? -EINTR : r;
}

int sweep_run_probe_check(const struct run_env *env, struct sweep_config *cfg,
			  char *err, size_t errlen)
{
	struct sweep_run_files f;
	struct sweep_argv b = { .n = 0 };
	struct gen_call g = { .probe = true };
	struct kvmap kv = { 0 };
	struct sweep_cell c = { { 0 } };
	int r;

	sweep_exec_files_init(&f, env->tmpdir);
	g.summary = f.gen_sum;
	gen_argv(env, &c, "xsprobe", &f, &g, &b);
	/* a short thread run: enough exits to prove the probe sees them */
	for (int i = 0; i < b.n; i++)
		if (!strcmp(b.a[i], "--count") && i + 1 < b.n)
			snprintf(b.buf[i + 1], sizeof(b.buf[i + 1]), "20");
	r = gen_wait(run_timeout_of(env->cfg, &c), &f, &b, &g, err, errlen);
	if (r == 0 && (r = kv_map_load(f.probe_sum, &kv)) < 0)
		snprintf(err, errlen, "no summary %s: %s", f.probe_sum, strerror(-r));
	if (r == 0) {
		const char *m = kv_map_get(&kv, PROBE_KEY_METHOD);
		enum sweep_probe used;

		if (strcmp(sweep_probe_unit(&kv), sweep_metrics_unit())) {
			unit_mismatch(sweep_probe_unit(&kv), err, errlen);
			r = -EPROTO;
		} else if (m && sweep_probe_parse_mode(m, &used) == 0 &&
		    (used == PROBE_FENTRY || used == PROBE_SAMPLE))
			snprintf(cfg->probe_method, sizeof(cfg->probe_method), "%s", m);
		sweep_probe_describe(&kv, cfg->probe_note, sizeof(cfg->probe_note));
	}
	kv_map_free(&kv);
	return sweep_signal_interrupted ? -EINTR : r;
}

/* One flat-out thread run of count exits, under the probe or not: its
 * achieved rate into *rate. */
static int flat_out(const struct run_env *env, bool probe, uint64_t count,
		    double *rate, char *err, size_t errlen)
{
	const struct sweep_config *cfg = env->cfg;
	struct sweep_run_files f;
	struct sweep_argv b = { .n = 0 };
	struct gen_call g = { .probe = probe };
	struct kvmap kv = { 0 };
	int r;

	sweep_exec_files_init(&f, env->tmpdir);
	g.summary = f.gen_sum;
	probe_argv(cfg, &f, &g, &b);
	sweep_argv_add(&b, cfg->exitgen);
	sweep_argv_opt(&b, "--shape", "thread");
	sweep_argv_opt(&b, "--rate", "max");
	sweep_argv_num(&b, "--count", (long long)count);
	sweep_argv_opt(&b, "--tag", "xsprobecost");
	sweep_argv_opt(&b, "--summary", f.gen_sum);
	sweep_argv_add(&b, "--quiet");
	r = gen_wait(timeout_for(cfg, 0, count), &f, &b, &g, err, errlen);
	if (r == 0 && (r = kv_map_load(f.gen_sum, &kv)) < 0)
		snprintf(err, errlen, "cannot read exitgen's summary %s: %s",
			 f.gen_sum, strerror(-r));
	if (r == 0 && (kv_map_double(&kv, GEN_KEY_ACHIEVED_RATE, rate) < 0 ||
		       !(*rate > 0))) {
		snprintf(err, errlen, "exitgen's summary %s has no achieved rate",
			 f.gen_sum);
		r = -EBADMSG;
	}
	kv_map_free(&kv);
	return r;
}

int sweep_run_probe_cost(const struct run_env *env, struct sweep_config *cfg,
			 char *err, size_t errlen)
{
	struct sweep_probe_cost *pc = &cfg->probe_cost;
	double alone[2 * SWEEP_PROBE_BLOCKS], probed[2 * SWEEP_PROBE_BLOCKS];
	int r = 0;

	pc->count = cfg->count < 2000 ? 2000 : cfg->count > 20000 ? 20000 : cfg->count;
	/* ABBA: alone, probed, probed, alone -- a drift in the machine's
	 * speed during a block weighs on both sides alike */
	for (unsigned i = 0; i < 4 * SWEEP_PROBE_BLOCKS && r == 0; i++) {
		unsigned k = i % 4, slot = i / 4 * 2 + (k >= 2);
		bool probe = k == 1 || k == 2;

		r = flat_out(env, probe, pc->count, probe ? &probed[slot] : &alone[slot],
			     err, errlen);
		if (sweep_signal_interrupted)
			return -EINTR;
	}
	if (r == 0 && (r = sweep_probe_cost_from(alone, probed, SWEEP_PROBE_BLOCKS,
						   pc)) < 0)
		snprintf(err, errlen, "the rates measured are not usable");
	return r;
}
