// SPDX-License-Identifier: GPL-2.0-or-later
/* exitsweep: what taskstats costs the exiting workload, across exit rates,
 * tgid accounting, listeners and delay accounting -- exitmon and exitgen
 * driven as separate processes over a shuffled matrix of runs.  Here: the
 * programs found and proved, the checks before the runs, the runs in
 * order and the results written (options: sweep_opts.c). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "clock.h"
#include "emulation.h"
#include "safe.h"
#include "sweep.h"
#include "sweep_analyze.h"
#include "sweep_compare.h"
#include "sweep_csv.h"
#include "sweep_json.h"
#include "sweep_machine.h"
#include "sweep_metrics.h"
#include "sweep_opts.h"
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
			log_die(EXIT_USAGE, "--%s %s: %s", opt, *path, strerror(errno));
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
		log_die(EXIT_RUNTIME, "cannot find %s next to exitsweep, in %s or in PATH; "
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
		log_die(EXIT_OUTPUT, "--%s %s: it is a directory; give a file name",
		    opt, path);
	if (r == -SAFE_EUNSAFELINK || r == -SAFE_EFOREIGN)
		log_die(EXIT_OUTPUT, "--%s %s: %s; choose another path", opt, path,
		    safe_strerror(-r));
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	log_die(EXIT_OUTPUT, "--%s %s: cannot create a file in %s (%s); choose "
	    "another path", opt, path, dir, safe_strerror(-r));
}

/* --- scratch directory --- */

static const char *tmpdir;

static void make_tmpdir(void)
{
	const char *base = getenv("TMPDIR");

	tmpdir = sweep_tmpdir_make();
	if (!tmpdir)
		log_die(EXIT_RUNTIME, "cannot make a scratch directory in %s: %s; set "
		    "TMPDIR to a writable directory", base && *base ? base : "/tmp",
		    strerror(errno));
}

/* --- the sweep --- */

static void restore_or_warn(bool *failed)
{
	int r = sweep_sysctl_restore();

	if (r < 0) {
		log_warn("could not restore %s to %d: %s; set it by hand "
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
		log_die(EXIT_RUNTIME, "out of memory");
	sweep_report_print(stdout, cfg, plan, &a, m, wall, partial);
	if (cfg->csv && (r = sweep_csv_write(cfg->csv, cfg, plan, &a, m)) < 0) {
		log_warn("cannot write %s: %s", cfg->csv, safe_strerror(-r));
		status = EXIT_OUTPUT;
	}
	if (cfg->json && (r = sweep_json_write(cfg->json, cfg, plan, &a, m)) < 0) {
		log_warn("cannot write %s: %s", cfg->json, safe_strerror(-r));
		status = EXIT_OUTPUT;
	}
	if (cfg->plot && sweep_plot_write(cfg->plot, cfg, plan, &a, tmpdir, err,
				    sizeof(err)) < 0) {
		log_warn("%s", err);
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

	for (i = 0; i < plan->n_runs && !sweep_signal_interrupted; i++) {
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
	if (sweep_signal_interrupted) {
		log_warn("interrupted by signal %d after %zu of %zu runs%s",
			sweep_signal_interrupted, done, plan->n_runs,
			sweep_sysctl_saved() && changes_dacct(cfg) ?
			"; kernel.task_delayacct restored" : "");
	} else if (failed_at != SIZE_MAX) {
		sweep_analyze_cell_key(cfg, &plan->cells[plan->runs[failed_at].cell],
				 DIM_COUNT, key, sizeof(key));
		log_warn("run %zu of %zu (%s): %s", failed_at + 1, plan->n_runs, key, err);
		return EXIT_RUNTIME;
	} else if (!cfg->quiet) {
		fprintf(stderr, "%s: %zu runs in %.0f s%s\n", log_progname, done,
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
		log_die(EXIT_RUNTIME, "out of memory");
	if (!cfg->quiet)
		fprintf(stderr, "%s: %zu cells x %u runs = %zu runs, seed %llu\n",
			log_progname, plan.n_cells, cfg->runs, plan.n_runs,
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
		log_die(EXIT_RUNTIME, "--probe %s cannot run: %s", cfg->probe_method, err);
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
		fprintf(stderr, "%s: probe %s\n", log_progname, cfg->probe_note);
}

/* The probe's own cost, measured once before the runs; a failure leaves
 * it "not measured" with the reason (the report says so), never the
 * sweep. */
static void probe_cost(const struct run_env *env, struct sweep_config *cfg)
{
	struct sweep_probe_cost *pc = &cfg->probe_cost;
	char line[512];
	int r;

	if (!cfg->quiet)
		fprintf(stderr, "%s: probe cost: a flat-out thread exit loop alone and "
			"under the probe, %d ABBA blocks\n", log_progname, SWEEP_PROBE_BLOCKS);
	r = sweep_run_probe_cost(env, cfg, pc->why, sizeof(pc->why));
	if (r == -EINTR)
		die_of_signal();
	if (r < 0)
		pc->blocks = 0;
	sweep_probe_cost_describe(pc, line, sizeof(line));
	if (r < 0)
		log_warn("probe cost %s", line);
	else if (!cfg->quiet)
		fprintf(stderr, "%s: probe cost: %s\n", log_progname, line);
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
			log_usage_die("compare: unknown option '%s'", argv[i]);
	if (argc < 2)
		log_usage_die("%s", "compare needs result files (written by --json)");
	if (argc - 1 > SWEEP_COMPARE_MAX)	/* a usage error, exit 2 */
		log_usage_die("compare takes at most %d result files (columns A "
			      "to Z), not %d", SWEEP_COMPARE_MAX, argc - 1);
	if (sweep_compare_files(stdout, (const char *const *)argv + 1, (size_t)argc - 1,
			  err, sizeof(err)) < 0)
		log_die(EXIT_RUNTIME, "%s", err);
	return 0;
}

/* What must hold before an hour of measuring: outputs writable, gnuplot
 * there, the sysctl writable when a cell changes it. */
static void preflight(const struct sweep_config *cfg, const struct sweep_opts_raw *raw)
{
	char gp[PATH_MAX];
	int r, v;

	check_output("csv", cfg->csv);
	check_output("json", cfg->json);
	check_output("plot", cfg->plot);
	if (cfg->plot && sweep_plot_find_gnuplot(gp, sizeof(gp)) < 0)
		log_die(EXIT_RUNTIME, "%s", PLOT_MISSING_MSG);
	if (changes_dacct(cfg) && (r = sweep_sysctl_check_writable()) < 0)
		log_die(EXIT_RUNTIME, "--delayacct %s needs to write %s (%s); run as "
		    "root or use --delayacct keep", raw->delayacct, sweep_sysctl_path(),
		    strerror(-r));
	if (cfg->kind == KIND_COHORT && !changes_dacct(cfg) &&
	    sweep_sysctl_read(&v) == 0 && v == 0)
		log_warn("kernel.task_delayacct is 0: block-I/O delays will "
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
		log_die(EXIT_RUNTIME, "exitmon cannot listen: %s (listener runs need "
		    "root, CAP_NET_ADMIN; or use --listener none)", err);
}

int main(int argc, char **argv)
{
	struct sweep_config cfg = { .kind = KIND_OVERHEAD };
	struct sweep_opts_raw raw = { 0 };
	struct sweep_machine machine;
	struct run_env env = { &cfg, NULL, &machine, 30.0 };
	int status;

	log_init(argv[0]);
	if (argc > 1 && !strcmp(argv[1], "compare"))
		return compare_cmd(argc - 1, argv + 1);
	/* the clock is the process's: every figure and label follows it */
	sweep_metrics_set_clock(emulation_counts_instructions());
	sweep_opts_parse(argc, argv, &cfg, &raw);
	sweep_opts_configure(&cfg, &raw);
	sweep_opts_record_command(&cfg, argc, argv);
	locate_programs(&cfg);
	preflight(&cfg, &raw);
	collect_machine(&cfg, &machine);
	make_tmpdir();
	sweep_signal_install();
	if (sweep_sysctl_save() < 0 && changes_dacct(&cfg))
		log_die(EXIT_RUNTIME, "cannot read %s", sweep_sysctl_path());
	env.tmpdir = tmpdir;
	prove_collector(&env);
	if (cfg.kind == KIND_OVERHEAD)
		probe_setup(&env, &cfg);
	if (cfg.probe != PROBE_OFF)
		probe_cost(&env, &cfg);
	status = sweep(&cfg, &machine);
	if (sweep_signal_interrupted)
		die_of_signal();
	return status;
}
