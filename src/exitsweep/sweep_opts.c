// SPDX-License-Identifier: GPL-2.0-or-later
/* exitsweep's options: the one table behind getopt_long and --help, the
 * raw values kept until the kind is known, then each kind's defaults,
 * --quick's and what the user gave, checked, into the sweep's config. */
#include "sweep_opts.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "opts.h"
#include "sweep_plan.h"
#include "sweep_probe.h"

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

static void list_or_die(int r, const char *opt, const char *arg, const char *what)
{
	if (r == -EEXIST)
		log_usage_die("--%s '%s' names a value twice", opt, arg);
	if (r == -E2BIG)
		log_usage_die("--%s '%s' has more than %d values", opt, arg,
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
#define RAW(field) STR_OFF(struct sweep_opts_raw, field)
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
	struct sweep_opts_raw *raw;
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

void sweep_opts_parse(int argc, char **argv, struct sweep_config *cfg,
		      struct sweep_opts_raw *o)
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

static const char *raw_value(const struct sweep_opts_raw *o, size_t off)
{
	return *(const char *const *)((const char *)o + off);
}

static void check_kind_options(const struct sweep_config *cfg,
			       const struct sweep_opts_raw *o)
{
	for (size_t i = 0; i < N_KIND_OPTS; i++)
		if (raw_value(o, kind_opts[i].off) && cfg->kind != kind_opts[i].kind)
			log_usage_die("--%s applies to --kind %s only", kind_opts[i].name,
				  sweep_kind_name(kind_opts[i].kind));
}

/* The kind's dimensions from its lists; the others hold one value. */
static void configure_dims(struct sweep_config *cfg, const struct sweep_opts_raw *o)
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

static void configure_numbers(struct sweep_config *cfg, const struct sweep_opts_raw *o)
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

static void configure_listener(struct sweep_config *cfg, const struct sweep_opts_raw *o)
{
	const char *s = o->listener ? o->listener : cfg->kind == KIND_OVERHEAD ?
			"none,batch" : cfg->kind == KIND_COHORT ? "batch" : "none";

	list_or_die(sweep_plan_parse_listeners(s, &cfg->dim[DIM_LISTENER]), "listener", s,
		    "none, batch, wakeup, comma separated");
	if (cfg->kind == KIND_COHORT &&
	    sweep_plan_dim_has(cfg, DIM_LISTENER, LISTEN_NONE))
		log_usage_die("--kind cohort needs a listener (its delays "
			    "come from exitmon's records): use batch or wakeup");
}

static void configure_probe(struct sweep_config *cfg, const struct sweep_opts_raw *o)
{
	if (o->probe && sweep_probe_parse_mode(o->probe, &cfg->probe) < 0)
		opts_bad_value("probe", o->probe, "auto, fentry, sample or off");
	if (!o->probe)
		cfg->probe = cfg->kind == KIND_OVERHEAD ? PROBE_AUTO : PROBE_OFF;
}

static void configure_runs(struct sweep_config *cfg, const struct sweep_opts_raw *o)
{
	const char *s = o->delayacct ? o->delayacct : "keep";

	list_or_die(sweep_plan_parse_dacct(s, &cfg->dim[DIM_DACCT]), "delayacct", s,
		    "keep, on, off or both");
	cfg->runs = opts_u32("runs", given_or(o->runs, cfg->quick, "5", "10"),
			     2, 100000, "a number from 2 to 100000");
	if (o->count && cfg->kind == KIND_COHORT)
		log_usage_die("%s", "--count does not apply to --kind cohort "
			    "(--cohort N sets the workers)");
	if (o->seed)
		cfg->seed = opts_u64("seed", o->seed, 0, UINT64_MAX,
				     "a number from 0 to 18446744073709551615");
	else
		cfg->seed = ((uint64_t)time(NULL) * 2654435761u ^ (uint64_t)getpid()) % 1000000;
}

void sweep_opts_configure(struct sweep_config *cfg, const struct sweep_opts_raw *o)
{
	if (o->kind && sweep_kind_from_name(o->kind, &cfg->kind) < 0)
		log_usage_die("unknown kind '%s' (use overhead, reap or cohort)", o->kind);
	check_kind_options(cfg, o);
	configure_probe(cfg, o);
	configure_dims(cfg, o);
	configure_numbers(cfg, o);
	configure_listener(cfg, o);
	configure_runs(cfg, o);
}

void sweep_opts_record_command(struct sweep_config *cfg, int argc, char **argv)
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

