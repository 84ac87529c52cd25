/* exitsweep: what taskstats costs the exiting workload, across exit rates,
 * tgid accounting, listeners and delay accounting -- exitmon and exitgen
 * driven as separate processes over a shuffled matrix of runs. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "clock.h"
#include "opts.h"
#include "safeopen.h"
#include "sweep.h"
#include "sweep_analyze.h"
#include "sweep_compare.h"
#include "sweep_csv.h"
#include "sweep_json.h"
#include "sweep_machine.h"
#include "sweep_plan.h"
#include "sweep_plot.h"
#include "sweep_progress.h"
#include "sweep_probe.h"
#include "sweep_proc.h"
#include "sweep_report.h"
#include "sweep_run.h"
#include "sweep_signal.h"
#include "sweep_sysctl.h"
#include "sweep_tmpdir.h"

enum {
	OPT_TGID = 256, OPT_BACKGROUND, OPT_MMAP, OPT_KILL_BATCH, OPT_COHORT,
	OPT_CSV, OPT_JSON, OPT_PLOT, OPT_EXITMON, OPT_EXITGEN, OPT_RUN_TIMEOUT,
	OPT_SEED, OPT_WORKERS, OPT_BATCH, OPT_PROBE, OPT_EXITPROBE,
	/* long-only: exitgen gives -d, -n, -q other meanings (its --count is -n) */
	OPT_DELAYACCT, OPT_RUNS, OPT_COUNT, OPT_QUICK,
};

static const struct opt_desc options[] = {
	{ "kind", 'k', "KIND", "overhead (default), reap or cohort" },
	{ "rates", 'r', "LIST", "overhead: exit rates per second, max = flat out "
	  "(default 500,1000,2000,4000,max)" },
	{ "tgid", OPT_TGID, "LIST", "overhead: on (thread exits), off (process "
	  "exits) (default on,off)" },
	{ "listener", 'l', "LIST", "none, batch (exitmon), wakeup (exitmon "
	  "--wakeup) (default none,batch)" },
	{ "delayacct", OPT_DELAYACCT, "MODE", "kernel.task_delayacct: keep (default), on, "
	  "off or both; always restored" },
	{ "runs", OPT_RUNS, "N", "runs per cell, at least 2 (default 10)" },
	{ "count", OPT_COUNT, "N", "exits per run (overhead, default 5000) or fork+reap "
	  "cycles (reap, default 1000)" },
	{ "seed", OPT_SEED, "N", "seed of the shuffled run order (default: from "
	  "the clock; printed)" },
	{ "workers", OPT_WORKERS, "W", "overhead: exitgen spawner threads "
	  "(default 1)" },
	{ "batch", OPT_BATCH, "B", "overhead: exitgen pre-creates B tasks per "
	  "spawner (the 2006 method; default off)" },
	{ "background", OPT_BACKGROUND, "LIST", "reap: live background children "
	  "(default 0,1000,2000,4000)" },
	{ "mmap", OPT_MMAP, "LIST", "reap: shared mmap sizes, none or e.g. 100M "
	  "(default none,100M)" },
	{ "kill-batch", OPT_KILL_BATCH, "N", "reap: children killed and reaped "
	  "per batch (default 200)" },
	{ "cohort", OPT_COHORT, "N", "cohort: identical workers started together "
	  "(default 6)" },
	{ "work", 'W', "LIST", "cohort: worker loads cpu:USEC, touch:BYTES, "
	  "write:BYTES[:PATH], sync:BYTES[:PATH] (default cpu:300000)" },
	{ "quick", OPT_QUICK, NULL, "a short sweep (about a minute on 2 CPUs)" },
	{ "csv", OPT_CSV, "FILE", "write one row per run and per cell to FILE" },
	{ "json", OPT_JSON, "FILE", "write all results to FILE (for compare)" },
	{ "plot", OPT_PLOT, "FILE.svg", "plot the results through gnuplot (a .png "
	  "name: PNG)" },
	{ "exitmon", OPT_EXITMON, "PATH", "the collector (default: next to "
	  "exitsweep, in the sbin directory, else PATH)" },
	{ "exitgen", OPT_EXITGEN, "PATH", "the generator (default: next to "
	  "exitsweep, else PATH)" },
	{ "probe", OPT_PROBE, "MODE", "overhead: time taskstats_exit() with "
	  "exitprobe: auto (default), fentry, sample, off" },
	{ "exitprobe", OPT_EXITPROBE, "PATH", "the probe (default: next to "
	  "exitsweep, in the sbin directory, else PATH)" },
	{ "run-timeout", OPT_RUN_TIMEOUT, "SECONDS", "give up on a run after "
	  "SECONDS (default: from its expected length)" },
	{ "quiet", 'q', NULL, "no progress on standard error" },
	{ "help", 'h', NULL, "show this help and exit" },
	{ "version", 'V', NULL, "show the version and exit" },
};
#define N_OPTIONS (sizeof(options) / sizeof(options[0]))

#define USAGE \
	"Usage: exitsweep [OPTION]...\n" \
	"       exitsweep compare RESULT.json...\n" \
	"Measure what taskstats costs exiting tasks -- tgid accounting on vs off,\n" \
	"a listener vs none, delay accounting on vs off -- across exit rates,\n" \
	"driving exitmon and exitgen; or compare result files of several machines."

/* Raw option values; lists are parsed once the kind is known. */
struct raw_opts {
	const char *kind, *rates, *tgid, *listener, *delayacct, *runs, *count,
		   *seed, *background, *mmap, *kill_batch, *cohort, *work,
		   *workers, *batch, *probe;
};

static void list_or_die(int r, const char *opt, const char *arg, const char *what)
{
	if (r == -EEXIST)
		usage_die("--%s '%s' names a value twice", opt, arg);
	if (r == -E2BIG)
		usage_die("--%s '%s' has more than %d values", opt, arg,
			    SWEEP_MAX_VALUES);
	if (r < 0)
		opts_bad_value(opt, arg, what);
}

/* The value given, else the default of a --quick or a full sweep. */
static const char *given_or(const char *given, bool quick, const char *quick_dflt,
			    const char *dflt)
{
	return given ? given : quick ? quick_dflt : dflt;
}

/* --- parsing: options whose value is kept as given --- */

/* The offset of a `const char *` field; any other type fails to compile
 * (a negative array size), so the tables below keep the type checking a
 * plain offsetof would lose. */
#define STR_OFF(type, field) \
	(offsetof(type, field) + 0 * sizeof(char[__builtin_types_compatible_p( \
		__typeof__(((type *)0)->field), const char *) ? 1 : -1]))
#define RAW(field) STR_OFF(struct raw_opts, field)
#define CFG(field) STR_OFF(struct sweep_config, field)

/* Lists and numbers wait in raw_opts until the kind is known; paths go
 * to the config as they are. */
static const struct kept_opt {
	int key;
	bool to_cfg;
	size_t off;
} kept_opts[] = {
	{ 'k', false, RAW(kind) }, { 'r', false, RAW(rates) },
	{ OPT_TGID, false, RAW(tgid) }, { 'l', false, RAW(listener) },
	{ OPT_DELAYACCT, false, RAW(delayacct) }, { OPT_RUNS, false, RAW(runs) },
	{ OPT_COUNT, false, RAW(count) }, { OPT_SEED, false, RAW(seed) },
	{ OPT_WORKERS, false, RAW(workers) }, { OPT_BATCH, false, RAW(batch) },
	{ OPT_BACKGROUND, false, RAW(background) }, { OPT_MMAP, false, RAW(mmap) },
	{ OPT_KILL_BATCH, false, RAW(kill_batch) }, { OPT_COHORT, false, RAW(cohort) },
	{ 'W', false, RAW(work) }, { OPT_PROBE, false, RAW(probe) },
	{ OPT_CSV, true, CFG(csv) }, { OPT_JSON, true, CFG(json) },
	{ OPT_PLOT, true, CFG(plot) }, { OPT_EXITMON, true, CFG(exitmon) },
	{ OPT_EXITGEN, true, CFG(exitgen) }, { OPT_EXITPROBE, true, CFG(exitprobe) },
};

struct parse_ctx {
	struct sweep_config *cfg;
	struct raw_opts *raw;
};

static bool keep_value(struct parse_ctx *c, int key, const char *arg)
{
	for (size_t i = 0; i < sizeof(kept_opts) / sizeof(kept_opts[0]); i++) {
		const struct kept_opt *k = &kept_opts[i];
		char *base = k->to_cfg ? (char *)c->cfg : (char *)c->raw;

		if (k->key == key) {
			*(const char **)(base + k->off) = arg;
			return true;
		}
	}
	return false;
}

static void on_option(void *ctx, int key, const char *arg)
{
	struct parse_ctx *c = ctx;

	if (keep_value(c, key, arg))
		return;
	switch (key) {
	case OPT_QUICK: c->cfg->quick = true; break;
	case 'q': c->cfg->quiet = true; break;
	case OPT_RUN_TIMEOUT:
		c->cfg->run_timeout = opts_double("run-timeout", arg, 0.1, 1e7,
						  "seconds, 0.1 or more");
		break;
	case 'h':
		opts_help(stdout, USAGE, options, N_OPTIONS);
		printf("\nSee exitsweep(1) for the kinds, the report and examples.\n");
		exit(0);
	case 'V':
		printf("exitsweep %s\n", EXITMON_VERSION);
		exit(0);
	default: break;
	}
}

static void parse_args(int argc, char **argv, struct sweep_config *cfg,
		       struct raw_opts *o)
{
	struct parse_ctx c = { cfg, o };

	opts_parse(argc, argv, options, N_OPTIONS, on_option, &c);
	opts_no_operands(argc, argv);
}

/* --- configuring: defaults, then --quick's, then what the user gave --- */

/* Options of one kind, in the order they are checked; the lists among
 * them fill a dimension of the matrix (parse set), the rest are read by
 * configure_numbers() and configure_probe(). */
static const struct kind_opt {
	const char *name;
	size_t off;		/* in raw_opts */
	enum sweep_kind kind;
	enum sweep_dim dim;
	int (*parse)(const char *list, struct sweep_dimvals *dv);
	const char *quick_dflt, *dflt, *what;
} kind_opts[] = {
	{ "rates", RAW(rates), KIND_OVERHEAD, DIM_RATE, sweep_plan_parse_rates,
	  "1000,4000,max", "500,1000,2000,4000,max", "a list such as 500,1000,max" },
	{ "tgid", RAW(tgid), KIND_OVERHEAD, DIM_TGID, sweep_plan_parse_onoff,
	  "on,off", "on,off", "on, off or on,off" },
	{ "workers", RAW(workers), KIND_OVERHEAD, DIM_COUNT, NULL, NULL, NULL, NULL },
	{ "batch", RAW(batch), KIND_OVERHEAD, DIM_COUNT, NULL, NULL, NULL, NULL },
	{ "background", RAW(background), KIND_REAP, DIM_BACKGROUND,
	  sweep_plan_parse_counts, "0,500", "0,1000,2000,4000",
	  "a list of child counts such as 0,2000" },
	{ "mmap", RAW(mmap), KIND_REAP, DIM_MMAP, sweep_plan_parse_sizes,
	  "none,100M", "none,100M", "a list of sizes such as none,100M" },
	{ "kill-batch", RAW(kill_batch), KIND_REAP, DIM_COUNT, NULL, NULL, NULL, NULL },
	{ "cohort", RAW(cohort), KIND_COHORT, DIM_COUNT, NULL, NULL, NULL, NULL },
	{ "work", RAW(work), KIND_COHORT, DIM_WORK, sweep_plan_parse_work,
	  "cpu:200000", "cpu:300000", "cpu:USEC, touch:BYTES, write:BYTES[:PATH] "
	  "or sync:BYTES[:PATH], comma separated" },
	{ "probe", RAW(probe), KIND_OVERHEAD, DIM_COUNT, NULL, NULL, NULL, NULL },
};
#define N_KIND_OPTS (sizeof(kind_opts) / sizeof(kind_opts[0]))

static const char *raw_value(const struct raw_opts *o, size_t off)
{
	return *(const char *const *)((const char *)o + off);
}

static void check_kind_options(const struct sweep_config *cfg,
			       const struct raw_opts *o)
{
	for (size_t i = 0; i < N_KIND_OPTS; i++)
		if (raw_value(o, kind_opts[i].off) && cfg->kind != kind_opts[i].kind)
			usage_die("--%s applies to --kind %s only", kind_opts[i].name,
				  sweep_kind_name(kind_opts[i].kind));
}

/* The kind's dimensions from its lists; the others hold one value. */
static void configure_dims(struct sweep_config *cfg, const struct raw_opts *o)
{
	for (int d = 0; d < DIM_COUNT; d++)
		sweep_plan_single(&cfg->dim[d], 0, "-");
	sweep_plan_single(&cfg->dim[DIM_TGID], 1, "on");
	for (size_t i = 0; i < N_KIND_OPTS; i++) {
		const struct kind_opt *k = &kind_opts[i];
		const char *s = given_or(raw_value(o, k->off), cfg->quick,
					 k->quick_dflt, k->dflt);

		if (k->parse && k->kind == cfg->kind)
			list_or_die(k->parse(s, &cfg->dim[k->dim]), k->name, s, k->what);
	}
}

static void configure_numbers(struct sweep_config *cfg, const struct raw_opts *o)
{
	bool q = cfg->quick;

	switch (cfg->kind) {
	case KIND_OVERHEAD:
		cfg->count = opts_u64("count", given_or(o->count, q, "2000", "5000"),
				      1, 100000000, "a number from 1 to 100000000");
		cfg->workers = opts_u32("workers", o->workers ? o->workers : "1",
					1, 1024, "a number from 1 to 1024");
		if (o->batch)
			cfg->batch = opts_u32("batch", o->batch, 1, 1000000,
					      "a number from 1 to 1000000");
		break;
	case KIND_REAP:
		cfg->count = opts_u64("count", given_or(o->count, q, "200", "1000"),
				      1, 100000000, "a number from 1 to 100000000");
		cfg->kill_batch = opts_u32("kill-batch",
					   given_or(o->kill_batch, q, "100", "200"),
					   1, 1000000, "a number from 1 to 1000000");
		break;
	case KIND_COHORT:
		cfg->cohort = opts_u32("cohort", o->cohort ? o->cohort : "6",
				       1, 100000, "a number from 1 to 100000");
		cfg->count = cfg->cohort;
		break;
	default:
		break;
	}
}

static void configure_listener(struct sweep_config *cfg, const struct raw_opts *o)
{
	const char *s = o->listener ? o->listener : cfg->kind == KIND_OVERHEAD ?
			"none,batch" : cfg->kind == KIND_COHORT ? "batch" : "none";

	list_or_die(sweep_plan_parse_listeners(s, &cfg->dim[DIM_LISTENER]), "listener", s,
		    "none, batch, wakeup, comma separated");
	if (cfg->kind == KIND_COHORT &&
	    sweep_plan_dim_has(cfg, DIM_LISTENER, LISTEN_NONE))
		usage_die("--kind cohort needs a listener (its delays "
			    "come from exitmon's records): use batch or wakeup");
}

static void configure_probe(struct sweep_config *cfg, const struct raw_opts *o)
{
	if (o->probe && sweep_probe_parse_mode(o->probe, &cfg->probe) < 0)
		opts_bad_value("probe", o->probe, "auto, fentry, sample or off");
	if (!o->probe)
		cfg->probe = cfg->kind == KIND_OVERHEAD ? PROBE_AUTO : PROBE_OFF;
}

static void configure_runs(struct sweep_config *cfg, const struct raw_opts *o)
{
	const char *s = o->delayacct ? o->delayacct : "keep";

	list_or_die(sweep_plan_parse_dacct(s, &cfg->dim[DIM_DACCT]), "delayacct", s,
		    "keep, on, off or both");
	cfg->runs = opts_u32("runs", given_or(o->runs, cfg->quick, "5", "10"),
			     2, 100000, "a number from 2 to 100000");
	if (o->count && cfg->kind == KIND_COHORT)
		usage_die("%s", "--count does not apply to --kind cohort "
			    "(--cohort N sets the workers)");
	if (o->seed)
		cfg->seed = opts_u64("seed", o->seed, 0, UINT64_MAX,
				     "a number from 0 to 18446744073709551615");
	else
		cfg->seed = ((uint64_t)time(NULL) * 2654435761u ^ (uint64_t)getpid()) % 1000000;
}

static void configure(struct sweep_config *cfg, const struct raw_opts *o)
{
	if (o->kind && sweep_kind_from_name(o->kind, &cfg->kind) < 0)
		usage_die("unknown kind '%s' (use overhead, reap or cohort)", o->kind);
	check_kind_options(cfg, o);
	configure_probe(cfg, o);
	configure_dims(cfg, o);
	configure_numbers(cfg, o);
	configure_listener(cfg, o);
	configure_runs(cfg, o);
}

static void record_command(struct sweep_config *cfg, int argc, char **argv)
{
	size_t used = 0;

	cfg->command[0] = '\0';
	for (int i = 0; i < argc && used < sizeof(cfg->command); i++) {
		int w = snprintf(cfg->command + used, sizeof(cfg->command) - used,
				 "%s%s", i ? " " : "", argv[i]);

		if (w < 0)
			break;
		used += (size_t)w;
	}
}

static bool needs_listener(const struct sweep_config *cfg)
{
	return sweep_plan_dim_has_other(cfg, DIM_LISTENER, LISTEN_NONE);
}

static bool changes_dacct(const struct sweep_config *cfg)
{
	return sweep_plan_dim_has_other(cfg, DIM_DACCT, DACCT_KEEP);
}

static char exitmon_buf[PATH_MAX], exitgen_buf[PATH_MAX], exitprobe_buf[PATH_MAX];

/* A program given by --opt (it must run), else next to exitsweep, in the
 * sbin directory or in PATH: 0, or -ENOENT. */
static int find_prog(const char **path, const char *name, char *buf, size_t len,
		     const char *opt)
{
	if (*path) {
		if (access(*path, X_OK) < 0)
			die(EXIT_USAGE, "--%s %s: %s", opt, *path, strerror(errno));
		return 0;
	}
	if (sweep_proc_locate(name, buf, len) < 0)
		return -ENOENT;
	*path = buf;
	return 0;
}

static void locate(const char **path, const char *name, char *buf, size_t len,
		   const char *opt)
{
	if (find_prog(path, name, buf, len, opt) < 0)
		die(EXIT_RUNTIME, "cannot find %s next to exitsweep, in %s or in PATH; "
		    "build it (make %s) or give --%s PATH", name, sweep_proc_sbindir,
		    name, opt);
}

/* exitgen always; exitmon when a cell listens, else if it is at hand (to
 * learn the taskstats version). */
static void locate_programs(struct sweep_config *cfg)
{
	locate(&cfg->exitgen, "exitgen", exitgen_buf, sizeof(exitgen_buf), "exitgen");
	if (needs_listener(cfg))
		locate(&cfg->exitmon, "exitmon", exitmon_buf, sizeof(exitmon_buf), "exitmon");
	else if (!cfg->exitmon)
		find_prog(&cfg->exitmon, "exitmon", exitmon_buf, sizeof(exitmon_buf),
			  "exitmon");
}

/* An output file must be creatable, by the one safe open, before an hour
 * of measuring: the same check for every output (gnuplot's too). */
static void check_output(const char *opt, const char *path)
{
	char dir[PATH_MAX];
	char *slash;
	int r;

	if (!path || (r = safe_check_create(path)) == 0)
		return;
	if (r == -EISDIR)
		die(EXIT_OUTPUT, "--%s %s: it is a directory; give a file name",
		    opt, path);
	if (r == -SAFE_EUNSAFELINK || r == -SAFE_EFOREIGN)
		die(EXIT_OUTPUT, "--%s %s: %s; choose another path", opt, path,
		    safe_strerror(-r));
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	die(EXIT_OUTPUT, "--%s %s: cannot create a file in %s (%s); choose "
	    "another path", opt, path, dir, safe_strerror(-r));
}

/* --- scratch directory --- */

static const char *tmpdir;

static void make_tmpdir(void)
{
	const char *base = getenv("TMPDIR");

	tmpdir = sweep_tmpdir_make();
	if (!tmpdir)
		die(EXIT_RUNTIME, "cannot make a scratch directory in %s: %s; set "
		    "TMPDIR to a writable directory", base && *base ? base : "/tmp",
		    strerror(errno));
}

/* --- the sweep --- */

static void restore_or_warn(bool *failed)
{
	int r = sweep_sysctl_restore();

	if (r < 0) {
		warnmsg("could not restore %s to %d: %s; set it by hand "
			"(sysctl kernel.task_delayacct=%d)", sweep_sysctl_path(),
			sweep_sysctl_original(), strerror(-r), sweep_sysctl_original());
		*failed = true;
	}
}

static int write_outputs(const struct sweep_config *cfg,
			 const struct sweep_plan *plan,
			 const struct sweep_machine *m, double wall, bool partial)
{
	struct analysis a;
	char err[1024];
	int status = 0, r;

	if (sweep_analyze(cfg, plan, &a) < 0)
		die(EXIT_RUNTIME, "out of memory");
	sweep_report_print(stdout, cfg, plan, &a, m, wall, partial);
	if (cfg->csv && (r = sweep_csv_write(cfg->csv, cfg, plan, &a, m)) < 0) {
		warnmsg("cannot write %s: %s", cfg->csv, safe_strerror(-r));
		status = EXIT_OUTPUT;
	}
	if (cfg->json && (r = sweep_json_write(cfg->json, cfg, plan, &a, m)) < 0) {
		warnmsg("cannot write %s: %s", cfg->json, safe_strerror(-r));
		status = EXIT_OUTPUT;
	}
	if (cfg->plot && sweep_plot_write(cfg->plot, cfg, plan, &a, tmpdir, err,
				    sizeof(err)) < 0) {
		warnmsg("%s", err);
		status = EXIT_OUTPUT;
	}
	sweep_analyze_free(&a);
	return status;
}

/* The runs in their order until the last, a failure or a signal: how many
 * finished; *failed_at is the one that failed (SIZE_MAX: none), err why. */
static size_t run_all(const struct run_env *env, struct sweep_plan *plan,
		      struct sweep_progress *p, size_t *failed_at, char *err,
		      size_t errlen)
{
	const struct sweep_config *cfg = env->cfg;
	size_t i;

	for (i = 0; i < plan->n_runs && !sweep_interrupted; i++) {
		struct sweep_run *run = &plan->runs[i];
		double t0 = mono_s();

		snprintf(run->tag, sizeof(run->tag), "xs%05ur%u",
			 (unsigned)(getpid() % 100000), (unsigned)(i % 10000000));
		if (!cfg->quiet)
			sweep_progress_show(stderr, cfg, plan, p, i);
		if (sweep_run_one(env, &plan->cells[run->cell], run, err, errlen) < 0) {
			*failed_at = i;
			break;
		}
		sweep_progress_note(cfg, plan, p, run->cell, mono_s() - t0);
	}
	return i;
}

/* How the runs ended, on standard error: EXIT_RUNTIME for a failed run. */
static int say_end(const struct sweep_config *cfg, const struct sweep_plan *plan,
		   const struct sweep_progress *p, size_t done, size_t failed_at,
		   const char *err)
{
	char key[256];

	if (!cfg->quiet && p->tty)
		fputc('\n', stderr);
	if (sweep_interrupted) {
		warnmsg("interrupted by signal %d after %zu of %zu runs%s",
			sweep_interrupted, done, plan->n_runs,
			sweep_sysctl_saved() && changes_dacct(cfg) ?
			"; kernel.task_delayacct restored" : "");
	} else if (failed_at != SIZE_MAX) {
		sweep_analyze_cell_key(cfg, &plan->cells[plan->runs[failed_at].cell],
				 DIM_COUNT, key, sizeof(key));
		warnmsg("run %zu of %zu (%s): %s", failed_at + 1, plan->n_runs, key, err);
		return EXIT_RUNTIME;
	} else if (!cfg->quiet) {
		fprintf(stderr, "%s: %zu runs in %.0f s%s\n", progname, done,
			mono_s() - p->start, changes_dacct(cfg) ?
			"; kernel.task_delayacct restored" : "");
	}
	return 0;
}

static int sweep(struct sweep_config *cfg, struct sweep_machine *m)
{
	struct sweep_plan plan;
	struct run_env env = { cfg, tmpdir, m, 30.0 };
	struct sweep_progress p;
	char err[1024];
	size_t done, failed_at = SIZE_MAX;
	bool restore_failed = false;
	int status, r;

	if (sweep_plan_build(cfg, &plan) < 0 ||
	    sweep_progress_init(&p, plan.n_cells, isatty(2)) < 0)
		die(EXIT_RUNTIME, "out of memory");
	if (!cfg->quiet)
		fprintf(stderr, "%s: %zu cells x %u runs = %zu runs, seed %llu\n",
			progname, plan.n_cells, cfg->runs, plan.n_runs,
			(unsigned long long)cfg->seed);
	done = run_all(&env, &plan, &p, &failed_at, err, sizeof(err));
	restore_or_warn(&restore_failed);
	status = say_end(cfg, &plan, &p, done, failed_at, err);
	if (done) {
		r = write_outputs(cfg, &plan, m, mono_s() - p.start,
				  done < plan.n_runs);
		if (!status)
			status = r;
	}
	sweep_progress_free(&p);
	sweep_plan_free(&plan);
	if (restore_failed && !status)
		status = EXIT_RUNTIME;
	return status;
}

/* Interrupted before or after the runs: clean up, die of the signal. */
static _Noreturn void die_of_signal(void)
{
	sweep_tmpdir_remove();
	sweep_signal_reraise();
}

/* --probe: find exitprobe and prove it runs here.  auto falls back to off
 * with the reason (said once, at the top of the report); an explicit
 * method that cannot run is an error. */
static void probe_setup(struct run_env *env, struct sweep_config *cfg)
{
	char err[1024];
	bool asked = cfg->probe == PROBE_FENTRY || cfg->probe == PROBE_SAMPLE;
	int r = 0;

	snprintf(cfg->probe_method, sizeof(cfg->probe_method), "%s",
		 sweep_probe_method_arg(cfg->probe));
	if (cfg->probe == PROBE_OFF)
		snprintf(err, sizeof(err), "--probe off");
	else if (find_prog(&cfg->exitprobe, "exitprobe", exitprobe_buf,
			   sizeof(exitprobe_buf), "exitprobe") < 0)
		snprintf(err, sizeof(err), "exitprobe not found next to exitsweep, "
			 "in %s or in PATH (build it, or give --exitprobe PATH)",
			 sweep_proc_sbindir);
	else
		r = sweep_run_probe_check(env, cfg, err, sizeof(err));
	if (r == -EINTR)
		die_of_signal();
	if (asked && (r < 0 || !cfg->exitprobe))
		die(EXIT_RUNTIME, "--probe %s cannot run: %s", cfg->probe_method, err);
	if (r < 0 || !cfg->exitprobe) {
		snprintf(cfg->probe_note, sizeof(cfg->probe_note), cfg->probe == PROBE_OFF ?
			 "off (%.200s)" : "off: %.200s", err);
		cfg->probe = PROBE_OFF;
		cfg->exitprobe = NULL;
	} else {
		sweep_machine_prog_version(cfg->exitprobe, env->machine->exitprobe_version,
				     sizeof(env->machine->exitprobe_version));
	}
	if (!cfg->quiet)
		fprintf(stderr, "%s: probe %s\n", progname, cfg->probe_note);
}

static int compare_cmd(int argc, char **argv)
{
	char err[1024];

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("Usage: exitsweep compare RESULT.json...\n"
		       "Put result files of several machines or kernels (written "
		       "by exitsweep --json)\nside by side: one column per file.\n");
		return 0;
	}
	for (int i = 1; i < argc; i++)
		if (argv[i][0] == '-' && argv[i][1])
			usage_die("compare: unknown option '%s'", argv[i]);
	if (argc < 2)
		usage_die("%s", "compare needs result files (written by --json)");
	if (sweep_compare_files(stdout, (const char *const *)argv + 1, (size_t)argc - 1,
			  err, sizeof(err)) < 0)
		die(EXIT_RUNTIME, "%s", err);
	return 0;
}

/* What must hold before an hour of measuring: outputs writable, gnuplot
 * there, the sysctl writable when a cell changes it. */
static void preflight(const struct sweep_config *cfg, const struct raw_opts *raw)
{
	char gp[PATH_MAX];
	int r, v;

	check_output("csv", cfg->csv);
	check_output("json", cfg->json);
	check_output("plot", cfg->plot);
	if (cfg->plot && sweep_plot_find_gnuplot(gp, sizeof(gp)) < 0)
		die(EXIT_RUNTIME, "%s", PLOT_MISSING_MSG);
	if (changes_dacct(cfg) && (r = sweep_sysctl_check_writable()) < 0)
		die(EXIT_RUNTIME, "--delayacct %s needs to write %s (%s); run as "
		    "root or use --delayacct keep", raw->delayacct, sweep_sysctl_path(),
		    strerror(-r));
	if (cfg->kind == KIND_COHORT && !changes_dacct(cfg) &&
	    sweep_sysctl_read(&v) == 0 && v == 0)
		warnmsg("kernel.task_delayacct is 0: block-I/O delays will "
			"read 0 (use --delayacct on to see them)");
}

static void collect_machine(const struct sweep_config *cfg, struct sweep_machine *m)
{
	sweep_machine_collect(m);
	sweep_machine_prog_version(cfg->exitgen, m->exitgen_version,
			     sizeof(m->exitgen_version));
	if (cfg->exitmon)
		sweep_machine_prog_version(cfg->exitmon, m->exitmon_version,
				     sizeof(m->exitmon_version));
}

/* Prove the collector works before a long sweep; learn the taskstats
 * version on the way (optional when no run needs a listener). */
static void prove_collector(const struct run_env *env)
{
	char err[1024];
	int r;

	if (!env->cfg->exitmon)
		return;
	r = sweep_run_probe(env, err, sizeof(err));
	if (r == -EINTR)
		die_of_signal();
	if (r < 0 && needs_listener(env->cfg))
		die(EXIT_RUNTIME, "exitmon cannot listen: %s (listener runs need "
		    "root, CAP_NET_ADMIN; or use --listener none)", err);
}

int main(int argc, char **argv)
{
	struct sweep_config cfg = { .kind = KIND_OVERHEAD };
	struct raw_opts raw = { 0 };
	struct sweep_machine machine;
	struct run_env env = { &cfg, NULL, &machine, 30.0 };
	int status;

	log_init(argv[0]);
	if (argc > 1 && !strcmp(argv[1], "compare"))
		return compare_cmd(argc - 1, argv + 1);
	parse_args(argc, argv, &cfg, &raw);
	configure(&cfg, &raw);
	record_command(&cfg, argc, argv);
	locate_programs(&cfg);
	preflight(&cfg, &raw);
	collect_machine(&cfg, &machine);
	make_tmpdir();
	sweep_signal_install();
	if (sweep_sysctl_save() < 0 && changes_dacct(&cfg))
		die(EXIT_RUNTIME, "cannot read %s", sweep_sysctl_path());
	env.tmpdir = tmpdir;
	prove_collector(&env);
	if (cfg.kind == KIND_OVERHEAD)
		probe_setup(&env, &cfg);
	status = sweep(&cfg, &machine);
	if (sweep_interrupted)
		die_of_signal();
	return status;
}
