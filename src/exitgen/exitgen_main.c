// SPDX-License-Identifier: GPL-2.0-or-later
/* exitgen: make tasks exit at a controlled rate, in a chosen shape, so that
 * the cost of exit accounting can be measured against the exit rate. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "genreport.h"
#include "log.h"
#include "parse.h"
#include "opts.h"
#include "safe.h"
#include "spawn.h"

enum {
	OPT_BACKGROUND = 256, OPT_MMAP, OPT_COHORT, OPT_BASELINE, OPT_SUMMARY,
};

/* The one table: getopt_long's arrays and --help are made from it. */
static const struct opt_desc opts[] = {
	{ "shape", 's', "SHAPE", "thread, process, fork or group:K (default thread)" },
	{ "rate", 'r', "R", "exits per second, or max (default max)" },
	{ "count", 'n', "N", "number of exits (default 1000 without --duration)" },
	{ "duration", 'd', "SECONDS", "stop after SECONDS (with --count: first wins)" },
	{ "workers", 'w', "W", "spawner threads sharing the schedule (default 1)" },
	{ "batch", 'b', "B", "each spawner makes B waiting tasks, released on the schedule" },
	{ "work", 'W', "KIND:ARG", "before exit: cpu:USEC, touch:BYTES, write:BYTES[:PATH], sync:BYTES[:PATH]" },
	{ "tag", 't', "NAME", "comm of every exiting task (default exitgen, 15 bytes max)" },
	{ "exit-by", 'e', "HOW", "exit (default), or signal: SIGKILLed and reaped" },
	{ "background", OPT_BACKGROUND, "N", "keep N idle children alive during the run" },
	{ "mmap", OPT_MMAP, "SIZE[:PATH]", "map and touch a shared file of SIZE first" },
	{ "cohort", OPT_COHORT, "N", "start N identical tasks together, report their ends" },
	{ "baseline", OPT_BASELINE, NULL, "bare create-and-join loop, flat out (the reference)" },
	{ "json", 'j', NULL, "print the report as one JSON object" },
	{ "summary", OPT_SUMMARY, "FILE", "write the report as key=value lines to FILE" },
	{ "quiet", 'q', NULL, "print no report (errors still go to stderr)" },
	{ "help", 'h', NULL, "show this help and exit" },
	{ "version", 'V', NULL, "show the version and exit" },
};
#define NOPTS (sizeof(opts) / sizeof(opts[0]))

static const char *const reserved_tags[] = {
	"exitgen-main", "exitgen-spawn", "exitgen-tls", "exitgen-bg",
};

struct cli {
	struct spawn_config cfg;
	bool json, quiet, rate_set, count_set;
	const char *summary;
};

static void usage(FILE *out)
{
	opts_help(out, "Usage: exitgen [OPTION]...\n"
		  "Make tasks exit at a controlled rate, in a chosen shape.",
		  opts, NOPTS);
	fprintf(out, "\nSee exitgen(1) for the shapes, the report keys and "
		"examples.\n");
}

static void set_tag(struct spawn_config *cfg, const char *v)
{
	if (!*v)
		opts_bad_value("tag", v, "the tag must not be empty");
	for (const unsigned char *p = (const unsigned char *)v; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			opts_bad_value("tag", v, "control characters are not allowed");
	for (size_t i = 0; i < sizeof(reserved_tags) / sizeof(*reserved_tags); i++)
		if (!strncmp(v, reserved_tags[i], SPAWN_TAG_MAX))
			opts_bad_value("tag", v, "reserved for exitgen's own threads");
	if (strlen(v) > SPAWN_TAG_MAX)
		log_warn("--tag '%s' is longer than the kernel keeps; tasks are "
			"named '%.*s'", v, SPAWN_TAG_MAX, v);
	snprintf(cfg->tag, sizeof(cfg->tag), "%.*s", SPAWN_TAG_MAX, v);
}

static void set_mmap(struct spawn_config *cfg, const char *v)
{
	char num[32];
	const char *colon = strchr(v, ':');
	size_t len = colon ? (size_t)(colon - v) : strlen(v);

	if (len >= sizeof(num) || (colon && !colon[1]))
		opts_bad_value("mmap", v, "expected SIZE or SIZE:PATH");
	memcpy(num, v, len);
	num[len] = '\0';
	if (parse_size(num, 4096, 1ull << 40, &cfg->mmap_bytes) < 0)
		opts_bad_value("mmap", v, "SIZE must be 4K to 1T, e.g. 100M");
	cfg->mmap_path = colon ? colon + 1 : NULL;
}

static void set_rate(struct cli *c, const char *v)
{
	c->rate_set = true;
	if (!strcmp(v, "max")) {
		c->cfg.rate = 0;
		return;
	}
	c->cfg.rate = opts_double("rate", v, 0.001, 1e7,
				  "expected exits per second (up to 1e7) or max");
}

/* The options that take a number; false for any other. */
static bool take_number(struct cli *c, int val, const char *v)
{
	struct spawn_config *cfg = &c->cfg;

	switch (val) {
	case 'n':
		cfg->count = opts_u64("count", v, 1, 1000000000000ull,
				      "expected a whole number from 1");
		c->count_set = true;
		return true;
	case 'd':
		cfg->duration = opts_double("duration", v, 0.001, 31 * 86400.0,
					    "expected seconds, 0.001 to 2678400");
		return true;
	case 'w':
		cfg->workers = opts_u32("workers", v, 1, 256, "expected 1 to 256");
		return true;
	case 'b':
		cfg->batch = opts_u32("batch", v, 1, 100000,
				      "expected 1 to 100000");
		return true;
	case OPT_BACKGROUND:
		cfg->background = opts_u64("background", v, 0, 1000000,
					   "expected 0 to 1000000");
		return true;
	case OPT_COHORT:
		cfg->cohort = opts_u32("cohort", v, 1, 10000,
				       "expected 1 to 10000");
		return true;
	}
	return false;
}

static void set_exit_by(struct spawn_config *cfg, const char *v)
{
	if (!strcmp(v, "exit"))
		cfg->exit_by = EXIT_BY_EXIT;
	else if (!strcmp(v, "signal"))
		cfg->exit_by = EXIT_BY_SIGNAL;
	else
		opts_bad_value("exit-by", v, "expected exit or signal");
}

static void take_option(struct cli *c, int val, const char *v)
{
	struct spawn_config *cfg = &c->cfg;

	if (take_number(c, val, v))
		return;
	switch (val) {
	case 's':
		if (workload_parse_shape(v, &cfg->shape, &cfg->group_threads) < 0)
			opts_bad_value("shape", v, "expected thread, process, fork or "
			    "group:K with K from 2 to 1024");
		break;
	case 'r': set_rate(c, v); break;
	case 'W':
		if (workload_parse_work(v, &cfg->work) < 0)
			opts_bad_value("work", v, "expected cpu:USEC, touch:BYTES, "
			    "write:BYTES[:PATH] or sync:BYTES[:PATH]");
		break;
	case 't': set_tag(cfg, v); break;
	case 'e': set_exit_by(cfg, v); break;
	case OPT_MMAP: set_mmap(cfg, v); break;
	case OPT_BASELINE: cfg->baseline = true; break;
	case 'j': c->json = true; break;
	case OPT_SUMMARY: c->summary = v; break;
	case 'q': c->quiet = true; break;
	}
}

static _Noreturn void conflict(const char *a, const char *b)
{
	log_usage_die("%s cannot be combined with %s", a, b);
}

static void check_combinations(struct cli *c)
{
	struct spawn_config *cfg = &c->cfg;
	const struct spawn_work *w = &cfg->work;
	bool work = w->cpu_ns || w->touch_bytes || w->write_bytes;

	if (cfg->exit_by == EXIT_BY_SIGNAL && cfg->shape == SHAPE_THREAD)
		log_usage_die("--exit-by signal needs --shape process, fork or "
			  "group:K (a signal kills a whole thread group)");
	if (cfg->cohort) {
		if (c->rate_set || c->count_set || cfg->duration > 0)
			conflict("--cohort", "--rate, --count or --duration");
		if (cfg->batch || cfg->workers > 1 || cfg->baseline ||
		    cfg->exit_by == EXIT_BY_SIGNAL)
			conflict("--cohort", "--batch, --workers, --baseline "
				 "or --exit-by signal");
	}
	if (cfg->baseline && ((c->rate_set && cfg->rate > 0) || cfg->batch ||
			      work || cfg->exit_by == EXIT_BY_SIGNAL))
		conflict("--baseline", "--rate R, --batch, --work or --exit-by");
	if (!c->count_set && cfg->duration == 0)
		cfg->count = 1000;
	else if (!c->count_set)
		cfg->count = UINT64_MAX;
	if (cfg->rate > 0 && cfg->duration > 0 && cfg->duration * cfg->rate < 1)
		log_usage_die("--duration %g at --rate %g holds no exit; make one "
			  "of them larger", cfg->duration, cfg->rate);
}

static void parse_args(struct cli *c, int argc, char **argv)
{
	struct opts o;
	int val;

	opts_init(&o, opts, NOPTS);
	while ((val = opts_next(&o, argc, argv)) != -1) {
		if (val == 'h') {
			usage(stdout);
			exit(EXIT_OK);
		}
		if (val == 'V') {
			printf("exitgen %s\n", EXITMON_VERSION);
			exit(EXIT_OK);
		}
		take_option(c, val, optarg);
	}
	opts_no_operands(argc, argv);
	check_combinations(c);
}

/* Before any task: a summary that cannot be written must not cost a run. */
static void check_outputs(const struct cli *c)
{
	int r;

	if (c->summary && (r = safe_check_replace(c->summary)) < 0)
		log_die(EXIT_RUNTIME, "cannot write the summary %s: %s; choose a "
		    "directory you can write", c->summary, safe_strerror(-r));
}

static int exit_status(const struct spawn_result *res)
{
	if (res->stopped_by == STOP_ERROR || res->stopped_by == STOP_LIMIT ||
	    res->children_left)
		return EXIT_RUNTIME;
	return EXIT_OK;
}

static void explain_stop(const struct spawn_result *res)
{
	if (res->stopped_by == STOP_LIMIT)
		log_warn("stopped: the kernel refused more tasks (RLIMIT_NPROC, "
			"threads-max or pid_max) while %s after %llu tasks; "
			"raise the limit or lower --batch/--background",
			res->error_what ? res->error_what : "creating a task",
			(unsigned long long)res->created);
	else if (res->stopped_by == STOP_ERROR)
		log_warn("stopped: %s failed: %s", res->error_what ?
			res->error_what : "the run", strerror(-res->error));
	if (res->children_left)
		log_warn("%ld children were left behind (a bug: please report)",
			res->children_left);
}

int main(int argc, char **argv)
{
	struct cli c = { .cfg = { .shape = SHAPE_THREAD, .group_threads = 1,
				  .workers = 1, .count = 1000,
				  .tag = "exitgen" } };
	struct spawn_result res;
	struct replist kv;
	char *groups = NULL;
	int r, status;

	log_init(argv[0]);
	parse_args(&c, argc, argv);
	check_outputs(&c);
	r = spawn_run(&c.cfg, &res);
	if (r < 0)
		log_die(EXIT_RUNTIME, "%s: %s", res.error_what ? res.error_what :
		    "setting up", safe_strerror(-r));
	if (genreport_build(&kv, &c.cfg, &res, &groups) < 0)
		log_die(EXIT_RUNTIME, "building the report: out of memory");
	status = exit_status(&res);
	/* The summary first: a reader of stdout that goes away must not
	 * cost a script its results. */
	if (c.summary && (r = genreport_summary(&kv, c.summary)) < 0) {
		log_warn("cannot write the summary %s: %s", c.summary,
			safe_strerror(-r));
		status = EXIT_RUNTIME;
	}
	if (c.json && !c.quiet && genreport_json(&kv, stdout) < 0) {
		log_warn("cannot build the JSON report: out of memory");
		status = EXIT_RUNTIME;
	} else if (!c.json && !c.quiet) {
		genreport_text(&kv, &c.cfg, &res, stdout);
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		log_warn("cannot write the report: %s", strerror(errno));
		status = EXIT_RUNTIME;
	}
	explain_stop(&res);
	free(groups);
	spawn_result_free(&res);
	return status;
}
