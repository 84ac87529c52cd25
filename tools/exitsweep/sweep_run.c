/* Running exitmon and exitgen for one cell of the matrix. */
#include "sweep_run.h"
#include "clock.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gen_summary.h"
#include "numparse.h"
#include "probe_summary.h"
#include "sweep_cohort.h"
#include "sweep_cpu.h"
#include "sweep_probe.h"
#include "kvfile.h"
#include "mon_counters.h"
#include "sweep_proc.h"
#include "sweep_signal.h"
#include "sweep_sysctl.h"

#define STOP_GRACE_S 10.0

/* --- argument vectors --- */

#define ARGV_MAX 48
struct argvb {
	char *a[ARGV_MAX + 1];
	char buf[ARGV_MAX][PATH_MAX];
	int n;
};

static void arg(struct argvb *b, const char *s)
{
	if (b->n < ARGV_MAX) {
		snprintf(b->buf[b->n], sizeof(b->buf[b->n]), "%s", s);
		b->a[b->n] = b->buf[b->n];
		b->a[++b->n] = NULL;
	}
}

/* An option and its value. */
static void arg2(struct argvb *b, const char *opt, const char *val)
{
	arg(b, opt);
	arg(b, val);
}

static void arg_num(struct argvb *b, const char *opt, long long val)
{
	char s[24];

	snprintf(s, sizeof(s), "%lld", val);
	arg2(b, opt, s);
}

/* --- files of one run --- */

struct run_files {
	char mon_sum[PATH_MAX], mon_pid[PATH_MAX], mon_err[PATH_MAX];
	char mon_out[PATH_MAX], gen_sum[PATH_MAX], gen_err[PATH_MAX];
	char kill_sum[PATH_MAX];	/* reap: the kill and reap invocation */
	char probe_sum[PATH_MAX];
};

static void files_init(struct run_files *f, const char *dir)
{
	snprintf(f->mon_sum, sizeof(f->mon_sum), "%s/exitmon.sum", dir);
	snprintf(f->mon_pid, sizeof(f->mon_pid), "%s/exitmon.pid", dir);
	snprintf(f->mon_err, sizeof(f->mon_err), "%s/exitmon.err", dir);
	snprintf(f->mon_out, sizeof(f->mon_out), "%s/exitmon.csv", dir);
	snprintf(f->gen_sum, sizeof(f->gen_sum), "%s/exitgen.sum", dir);
	snprintf(f->gen_err, sizeof(f->gen_err), "%s/exitgen.err", dir);
	snprintf(f->kill_sum, sizeof(f->kill_sum), "%s/exitgen-kill.sum", dir);
	snprintf(f->probe_sum, sizeof(f->probe_sum), "%s/exitprobe.sum", dir);
	unlink(f->probe_sum);
	unlink(f->mon_sum);
	unlink(f->mon_pid);
	unlink(f->mon_out);
	unlink(f->gen_sum);
	unlink(f->kill_sum);
}

/* "exitmon failed (exit status 3): exitmon: no CAP_NET_ADMIN ..." */
static void child_failed(char *err, size_t len, const char *what, int status,
			 const char *errfile)
{
	char how[96], last[512];

	sweep_proc_describe(status, how, sizeof(how));
	sweep_proc_last_line(errfile, last, sizeof(last));
	snprintf(err, len, "%s %s%s%s", what, how, last[0] ? ": " : "", last);
}

/* --- the collector --- */

struct mon {
	pid_t pid;
	bool running;
};

static void mon_args(const struct run_env *env, int listener, const char *tag,
		     bool keep_records, const struct run_files *f, struct argvb *b)
{
	arg(b, env->cfg->exitmon);
	arg2(b, "-f", "csv");
	arg2(b, "-o", keep_records ? f->mon_out : "/dev/null");
	if (tag)
		arg2(b, "--comm", tag);
	arg2(b, "--summary", f->mon_sum);
	arg2(b, "--pidfile", f->mon_pid);
	if (listener == LISTEN_WAKEUP)
		arg(b, "--wakeup");
}

/* The pid a pid file names, 0 for none (yet). */
static pid_t pidfile_pid(const char *path)
{
	char text[64];
	FILE *pf = fopen(path, "re");
	uint64_t pid = 0;

	if (!pf)
		return 0;
	if (fgets(text, sizeof(text), pf)) {
		text[strcspn(text, "\n")] = '\0';
		if (parse_u64(text, 1, INT_MAX, &pid) < 0)
			pid = 0;
	}
	fclose(pf);
	return (pid_t)pid;
}

static void mon_kill(struct mon *m)
{
	int status;

	sweep_proc_stop(m->pid, STOP_GRACE_S, &status);
	m->running = false;
}

/* Ready = the pid file names our child: exitmon writes it only once its
 * listener is registered and records were seen to arrive. */
static int mon_wait_ready(const struct run_env *env, const struct run_files *f,
			  struct mon *m, char *err, size_t errlen)
{
	double deadline = mono_s() + env->ready_timeout;
	int status;

	while (pidfile_pid(f->mon_pid) != m->pid) {
		if (sweep_proc_poll(m->pid, &status) == 1) {
			m->running = false;
			child_failed(err, errlen, "exitmon exited before it was ready,",
				     status, f->mon_err);
			return -ECHILD;
		}
		if (sweep_interrupted) {
			mon_kill(m);
			return -EINTR;
		}
		if (mono_s() > deadline) {
			mon_kill(m);
			snprintf(err, errlen, "exitmon was not ready after %.0f s "
			     "(no pid file %s)", env->ready_timeout, f->mon_pid);
			return -ETIMEDOUT;
		}
		sweep_proc_sleep(0.01);
	}
	return 0;
}

static int mon_start(const struct run_env *env, int listener, const char *tag,
		     bool keep_records, const struct run_files *f, struct mon *m,
		     char *err, size_t errlen)
{
	struct argvb b = { .n = 0 };

	mon_args(env, listener, tag, keep_records, f, &b);
	m->pid = sweep_proc_spawn(b.a, NULL, f->mon_err);
	if (m->pid < 0) {
		snprintf(err, errlen, "cannot start %s: %s", env->cfg->exitmon,
		     strerror(-m->pid));
		return m->pid;
	}
	m->running = true;
	return mon_wait_ready(env, f, m, err, errlen);
}

/* SIGTERM, wait, load its summary. */
static int mon_stop(struct mon *m, const struct run_files *f,
		    struct kvmap *kv, char *err, size_t errlen)
{
	int status = 0, r;

	if (!m->running)
		return 0;
	r = sweep_proc_stop(m->pid, STOP_GRACE_S, &status);
	m->running = false;
	if (r < 0) {
		snprintf(err, errlen, "cannot reap exitmon: %s", strerror(-r));
		return r;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		child_failed(err, errlen, "exitmon failed,", status, f->mon_err);
		return -ECHILD;
	}
	r = kv_map_load(f->mon_sum, kv);
	if (r < 0)
		snprintf(err, errlen, "cannot read exitmon's summary %s: %s",
		     f->mon_sum, strerror(-r));
	return r;
}

/* --- the generator --- */

static void gen_args_overhead(const struct sweep_config *cfg,
			      const struct sweep_cell *c, struct argvb *b)
{
	int64_t rate = cell_val(cfg, c, DIM_RATE);

	arg2(b, "--shape", cell_val(cfg, c, DIM_TGID) ? "thread" : "process");
	if (rate)
		arg_num(b, "--rate", rate);
	else
		arg2(b, "--rate", "max");
	arg_num(b, "--count", (long long)cfg->count);
	if (cfg->workers > 1)
		arg_num(b, "--workers", cfg->workers);
	if (cfg->batch)
		arg_num(b, "--batch", cfg->batch);
}

/* kill: the second invocation, a batch of waiting children killed and
 * reaped (the first is fork and reap among the background children). */
static void gen_args_reap(const struct sweep_config *cfg, const struct sweep_cell *c,
			  bool kill, struct argvb *b)
{
	int64_t bg = cell_val(cfg, c, DIM_BACKGROUND);
	int64_t mm = cell_val(cfg, c, DIM_MMAP);

	arg2(b, "--shape", "fork");
	if (kill) {
		arg_num(b, "--count", cfg->kill_batch);
		arg_num(b, "--batch", cfg->kill_batch);
		arg2(b, "--exit-by", "signal");
	} else {
		arg_num(b, "--count", (long long)cfg->count);
	}
	if (bg)
		arg_num(b, "--background", bg);
	if (mm)
		arg_num(b, "--mmap", mm);
}

/* exitgen's command line (for reap, kill selects the second invocation). */
static void gen_args(const struct run_env *env, const struct sweep_cell *c,
		     const char *tag, const char *summary, bool kill,
		     struct argvb *b)
{
	const struct sweep_config *cfg = env->cfg;

	arg(b, cfg->exitgen);
	switch (cfg->kind) {
	case KIND_OVERHEAD:
		gen_args_overhead(cfg, c, b);
		break;
	case KIND_REAP:
		gen_args_reap(cfg, c, kill, b);
		break;
	case KIND_COHORT:
		arg2(b, "--shape", "process");
		arg_num(b, "--cohort", cfg->cohort);
		arg2(b, "--work", cell_label(cfg, c, DIM_WORK));
		break;
	default:
		break;
	}
	arg2(b, "--tag", tag);
	arg2(b, "--summary", summary);
	arg(b, "--quiet");
}

/* The timeout of one run in seconds (cfg->run_timeout or a bound made
 * from the expected duration). */
static double run_timeout_of(const struct sweep_config *cfg,
			     const struct sweep_cell *c)
{
	if (cfg->run_timeout > 0)
		return cfg->run_timeout;
	if (cfg->kind == KIND_OVERHEAD) {
		int64_t rate = cell_val(cfg, c, DIM_RATE);

		return 120 + 10.0 * (double)cfg->count / (double)(rate ? rate : 2000);
	}
	return 1800;
}

static void set_alarm(double s)
{
	struct itimerval it = { { 0, 0 }, { (time_t)s, (suseconds_t)((s - floor(s)) * 1e6) } };

	sweep_alarm = 0;
	setitimer(ITIMER_REAL, &it, NULL);
}

static void clear_alarm(void)
{
	struct itimerval it = { { 0, 0 }, { 0, 0 } };

	setitimer(ITIMER_REAL, &it, NULL);
	sweep_alarm = 0;
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

static void gen_argv(const struct run_env *env, const struct sweep_cell *c,
		     const char *tag, const struct run_files *f,
		     const struct gen_call *g, struct argvb *b)
{
	const struct sweep_config *cfg = env->cfg;

	if (g->probe) {
		arg(b, cfg->exitprobe);
		arg2(b, "--summary", f->probe_sum);
		arg2(b, "--method", cfg->probe_method);
		if (g->listener > 0)
			arg_num(b, "--listener-pid", g->listener);
		arg(b, "--");
	}
	gen_args(env, c, tag, g->summary, g->kill, b);
}

/* Spawn, wait within the run's timeout, check the exit status. */
static int gen_wait(const struct run_env *env, const struct sweep_cell *c,
		    const struct run_files *f, struct argvb *b, struct gen_call *g,
		    char *err, size_t errlen)
{
	const struct sweep_config *cfg = env->cfg;
	struct sweep_cpu_sample c0, c1;
	bool have_cpu = sweep_cpu_read(&c0) == 0;
	double t0 = mono_s();
	int r, status;
	pid_t gen = sweep_proc_spawn(b->a, NULL, f->gen_err);

	if (gen < 0) {
		snprintf(err, errlen, "cannot start %s: %s", b->a[0], strerror(-gen));
		return gen;
	}
	set_alarm(run_timeout_of(cfg, c));
	r = sweep_proc_wait(gen, &status, NULL, true);
	clear_alarm();
	if (r == -EINTR) {
		sweep_proc_stop(gen, STOP_GRACE_S, &status);
		if (sweep_interrupted)
			return -EINTR;
		snprintf(err, errlen, "exitgen did not finish within %.0f s "
		     "(see --run-timeout)", run_timeout_of(cfg, c));
		return -ETIMEDOUT;
	}
	g->wall = mono_s() - t0;
	g->busy = have_cpu && sweep_cpu_read(&c1) == 0 ? sweep_cpu_busy_s(&c0, &c1) : NAN;
	if (r < 0) {
		snprintf(err, errlen, "cannot reap exitgen: %s", strerror(-r));
		return r;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		child_failed(err, errlen, g->probe ? "exitprobe running exitgen failed," :
			     "exitgen failed,", status, f->gen_err);
		return -ECHILD;
	}
	return 0;
}

/* Run exitgen to completion and load its summary into kv (and the
 * probe's into pkv). */
static int gen_run(const struct run_env *env, const struct sweep_cell *c,
		   const char *tag, const struct run_files *f, struct gen_call *g,
		   struct kvmap *kv, struct kvmap *pkv, char *err, size_t errlen)
{
	struct argvb b = { .n = 0 };
	int r;

	gen_argv(env, c, tag, f, g, &b);
	r = gen_wait(env, c, f, &b, g, err, errlen);
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

/* exitmon (if the cell has a listener) around exitgen (under the probe
 * when on), then the summaries into the run's metrics. */
static int run_both(const struct run_env *env, const struct sweep_cell *c,
		    struct sweep_run *run, const struct run_files *f, struct mon *m,
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
	if (g.probe && sweep_probe_apply(&pkv, run->v) < 0) {
		snprintf(err, errlen, "exitprobe's summary %s has no exit count",
			 f->probe_sum);
		r = -EBADMSG;
		goto out;
	}
	if (cfg->kind == KIND_REAP) {
		r = gen_run(env, c, run->tag, f, &k, &kkv, NULL, err, errlen);
		if (r < 0)
			goto out;
		from_exitgen_kill(&kkv, run->v);
	}
	if (m->running) {
		r = mon_stop(m, f, &mkv, err, errlen);
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

int sweep_run_one(const struct run_env *env, const struct sweep_cell *c,
	    struct sweep_run *run, char *err, size_t errlen)
{
	const struct sweep_config *cfg = env->cfg;
	int listener = (int)cell_val(cfg, c, DIM_LISTENER);
	int dacct = (int)cell_val(cfg, c, DIM_DACCT);
	bool keep = cfg->kind == KIND_COHORT;
	struct run_files f;
	struct mon m = { 0, false };
	int r, status, now;

	err[0] = '\0';
	files_init(&f, env->tmpdir);
	if (dacct != DACCT_KEEP && (r = sweep_sysctl_set(dacct)) < 0) {
		snprintf(err, errlen, "cannot set %s to %d: %s", sweep_sysctl_path(), dacct,
		     strerror(-r));
		return r;
	}
	if (sweep_sysctl_read(&now) == 0)
		run->v[M_DACCT_STATE] = now;
	if (listener != LISTEN_NONE) {
		r = mon_start(env, listener, run->tag, keep, &f, &m, err, errlen);
		if (r < 0)
			return r;
	}
	r = run_both(env, c, run, &f, &m, err, errlen);
	if (r == 0 && keep && (r = sweep_cohort_read_csv(f.mon_out, run->tag, run)) < 0)
		snprintf(err, errlen, "cannot read exitmon's records %s: %s",
		     f.mon_out, strerror(-r));
	run->done = r == 0;
	if (m.running)
		sweep_proc_stop(m.pid, STOP_GRACE_S, &status);
	return r < 0 && sweep_interrupted ? -EINTR : r;
}

int sweep_run_probe(const struct run_env *env, char *err, size_t errlen)
{
	struct run_files f;
	struct mon m = { 0, false };
	struct kvmap kv = { 0 };
	int r, status;
	pid_t pid;

	files_init(&f, env->tmpdir);
	r = mon_start(env, LISTEN_BATCH, NULL, false, &f, &m, err, errlen);
	if (r < 0)
		return r;
	/* One exit of our own, so the collector sees a record's version. */
	pid = fork();
	if (pid == 0)
		_exit(0);
	if (pid > 0)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	r = mon_stop(&m, &f, &kv, err, errlen);
	if (r == 0)
		note_version(env, &kv);
	kv_map_free(&kv);
	return sweep_interrupted ? -EINTR : r;
}

int sweep_run_probe_check(const struct run_env *env, struct sweep_config *cfg,
			  char *err, size_t errlen)
{
	struct run_files f;
	struct argvb b = { .n = 0 };
	struct gen_call g = { .probe = true };
	struct kvmap kv = { 0 };
	struct sweep_cell c = { { 0 } };
	int r;

	files_init(&f, env->tmpdir);
	g.summary = f.gen_sum;
	gen_argv(env, &c, "xsprobe", &f, &g, &b);
	/* a short thread run: enough exits to prove the probe sees them */
	for (int i = 0; i < b.n; i++)
		if (!strcmp(b.a[i], "--count") && i + 1 < b.n)
			snprintf(b.buf[i + 1], sizeof(b.buf[i + 1]), "20");
	r = gen_wait(env, &c, &f, &b, &g, err, errlen);
	if (r == 0 && (r = kv_map_load(f.probe_sum, &kv)) < 0)
		snprintf(err, errlen, "no summary %s: %s", f.probe_sum, strerror(-r));
	if (r == 0) {
		const char *m = kv_map_get(&kv, PROBE_KEY_METHOD);
		enum sweep_probe used;

		if (m && sweep_probe_parse_mode(m, &used) == 0 &&
		    (used == PROBE_FENTRY || used == PROBE_SAMPLE))
			snprintf(cfg->probe_method, sizeof(cfg->probe_method), "%s", m);
		sweep_probe_describe(&kv, cfg->probe_note, sizeof(cfg->probe_note));
	}
	kv_map_free(&kv);
	return sweep_interrupted ? -EINTR : r;
}
