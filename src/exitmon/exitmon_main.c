// SPDX-License-Identifier: GPL-2.0-or-later
/* exitmon: the taskstats exit-record collector. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acct.h"
#include "cpulist.h"
#include "format_schema.h"
#include "log.h"
#include "mon_exit.h"
#include "mon_replay.h"
#include "mon_run.h"
#include "mon_signal.h"
#include "opts.h"
#include "privs.h"
#include "runid.h"

enum {
	OPT_CPUS = 256, OPT_INTERVAL, OPT_WAKEUP, OPT_RCVBUF, OPT_STATS,
	OPT_COMM, OPT_TGID, OPT_UID, OPT_SUMMARY, OPT_NO_SELF_CHECK,
	OPT_PIDFILE, OPT_DURATION, OPT_COUNT, OPT_CAPTURE, OPT_REPLAY,
	OPT_USER, OPT_METRICS, OPT_SHARDS, OPT_RUN_ID, OPT_JSON_SCHEMA,
	OPT_METRICS_COMMANDS,
};

#define STR_(x) #x
#define STR(x) STR_(x)

static const struct opt_desc options[] = {
	{ "format", 'f', "FMT", "text (default: 12 of the columns, for people), csv or jsonl (every column)" },
	{ "fields", 'F', "LIST", "csv and jsonl: only these columns, in this order (default all)" },
	{ "output", 'o', "FILE", "write records to FILE (default standard output)" },
	{ "cpus", OPT_CPUS, "LIST", "register for these CPUs (default: all possible)" },
	{ "interval", OPT_INTERVAL, "MS", "drain the socket every MS milliseconds (default 10)" },
	{ "wakeup", OPT_WAKEUP, NULL, "wake for every record (the classic getdelays way)" },
	{ "rcvbuf", OPT_RCVBUF, "BYTES", "socket receive buffer, K/M/G suffixes (default 8M)" },
	{ "stats", OPT_STATS, "SECONDS", "print a stats line to stderr every SECONDS" },
	{ "comm", OPT_COMM, "GLOB", "write only records whose command matches GLOB" },
	{ "tgid", OPT_TGID, "N", "write only records of thread group N" },
	{ "uid", OPT_UID, "N", "write only records of user id N" },
	{ "summary", OPT_SUMMARY, "FILE", "write key=value totals to FILE at exit" },
	{ "no-self-check", OPT_NO_SELF_CHECK, NULL, "do not verify that records arrive" },
	{ "pidfile", OPT_PIDFILE, "FILE", "write our pid to FILE once records flow" },
	{ "duration", OPT_DURATION, "SECONDS", "stop after SECONDS" },
	{ "count", OPT_COUNT, "N", "stop after N matching records" },
	{ "capture", OPT_CAPTURE, "FILE", "append raw netlink messages to FILE (pcap)" },
	{ "replay", OPT_REPLAY, "FILE", "parse a capture instead of listening (no privileges)" },
	{ "shards", OPT_SHARDS, "N", "receive on N sockets/threads, each for a share of the CPUs" },
	{ "user", OPT_USER, "USER", "after setup, run as USER keeping only CAP_NET_ADMIN" },
	{ "metrics", OPT_METRICS, "FILE", "keep Prometheus metrics in FILE (textfile collector)" },
	{ "metrics-commands", OPT_METRICS_COMMANDS, "N", "--metrics: series for N commands by CPU, the rest as other (default " STR(ACCT_COMMANDS_DEFAULT) ", 0 to " STR(ACCT_COMMANDS_MAX) ")" },
	{ "run-id", OPT_RUN_ID, "HEX", "the records' run id, 32 hex digits (default: new per start)" },
	{ "json-schema", OPT_JSON_SCHEMA, NULL, "print the JSON Schema of the jsonl records (of -F's columns) and exit" },
	{ "help", 'h', NULL, "show this help and exit" },
	{ "version", 'V', NULL, "show the version and exit" },
};
#define N_OPTIONS (sizeof(options) / sizeof(options[0]))

/* Ids for --tgid and --uid; (uint32_t)-1 is nobody's id. */
static uint32_t id_arg(const char *name, const char *arg)
{
	return opts_u32(name, arg, 0, UINT32_MAX - 1, "a number");
}

/* --fields: names from the column table; "all" is every column. */
static void set_fields(struct mon_config *cfg, const char *arg)
{
	char bad[64], names[2048];
	int r = format_cols_parse(arg, &cfg->fields, bad, sizeof(bad));

	if (r == -EEXIST)
		log_usage_die("--fields names '%s' twice", bad);
	if (r < 0 && strcmp(bad, "all") == 0)
		log_usage_die("--fields: 'all' stands alone (every column, in "
			      "table order); give -F all, or name the columns");
	if (r < 0) {
		/* Longer than log_usage_die's line: every name, so one reading
		 * of the error is enough to fix the command. */
		format_cols_names(names, sizeof(names));
		fprintf(stderr, "%s: --fields: %s%s%s; the columns are: all, %s; "
			"see '%s --help'\n", log_progname,
			*bad ? "no column named '" : "an empty name in the list",
			bad, *bad ? "'" : "", names, log_progname);
		exit(EXIT_USAGE);
	}
	cfg->cols = strcmp(arg, "all") == 0 ? NULL : &cfg->fields;
}

/* Whether a choice of columns keeps what tells records apart. */
static bool fields_readable(const struct format_cols *c)
{
	bool type = false, pid = false;

	for (unsigned i = 0; i < c->n; i++) {
		type |= !strcmp(format_cols_table[c->col[i]].name, "type");
		pid |= !strcmp(format_cols_table[c->col[i]].name, "pid");
	}
	return type && pid;
}

static void set_cpus(struct mon_config *cfg, const char *arg)
{
	struct cpuset_bits possible;
	int r = cpulist_read_file("/sys/devices/system/cpu/possible", &possible);

	if (r < 0)
		log_die(EXIT_RUNTIME, "cannot read /sys/devices/system/cpu/possible: %s",
		    strerror(-r));
	r = arg ? cpulist_parse(arg, &cfg->cpus) : 0;
	if (!arg) {
		cfg->cpus = possible;
	} else if (r == -EINVAL) {
		opts_bad_value("cpus", arg, "a list such as 0-3,8");
	} else if (r < 0 || !cpulist_subset(&cfg->cpus, &possible)) {
		char p[256];

		cpulist_format(&possible, p, sizeof(p));
		log_die(EXIT_CPUMASK, "cpu list '%s' names CPUs that do not exist; "
		    "possible CPUs are %s", arg, p);
	}
	if (cpulist_format(&cfg->cpus, cfg->cpulist, sizeof(cfg->cpulist)) >=
	    sizeof(cfg->cpulist))
		log_die(EXIT_USAGE, "cpu list too long");
}

/* The receive loop's numbers: true when key was one of them. */
static bool parse_tuning(struct mon_config *cfg, int key, const char *arg)
{
	switch (key) {
	case OPT_INTERVAL:
		cfg->interval_ms = (unsigned)opts_u64("interval", arg, 1, 60000,
						      "1 to 60000 ms");
		return true;
	case OPT_RCVBUF:
		cfg->rcvbuf = opts_size("rcvbuf", arg, 4096, 1ull << 30,
					"4K to 1G");
		return true;
	case OPT_STATS:	/* 0 turns the periodic line off */
		cfg->stats_s = opts_double("stats", arg, 0, 1e9,
					   "a number of seconds");
		if (cfg->stats_s > 0 && cfg->stats_s < 0.01)
			opts_bad_value("stats", arg, "0 for none, or at least "
				       "0.01 seconds");
		return true;
	case OPT_COUNT:
		cfg->count = opts_u64("count", arg, 1, UINT64_MAX,
				      "a positive number");
		return true;
	case OPT_SHARDS:
		cfg->shards = opts_u32("shards", arg, 1, MAX_SHARDS,
				       "1 to " STR(MAX_SHARDS));
		return true;
	case OPT_METRICS_COMMANDS:
		cfg->metrics_commands = opts_u32("metrics-commands", arg, 0,
						 ACCT_COMMANDS_MAX, "0 to "
						 STR(ACCT_COMMANDS_MAX));
		return true;
	default:
		return false;
	}
}

static void parse_option(struct mon_config *cfg, int key, const char *arg,
			 const char **cpus_arg)
{
	if (parse_tuning(cfg, key, arg))
		return;
	switch (key) {
	case 'f':
		if (format_from_name(arg, &cfg->fmt) < 0)
			opts_bad_value("format", arg, "text, csv or jsonl");
		break;
	case 'F': set_fields(cfg, arg); break;
	case 'o': cfg->output = arg; break;
	case OPT_CPUS: *cpus_arg = arg; break;
	case OPT_WAKEUP: cfg->wakeup = true; break;
	case OPT_COMM: cfg->filter.comm_glob = filter_comm_opt(arg); break;
	case OPT_TGID:
		cfg->filter.by_tgid = true;
		cfg->filter.tgid = id_arg("tgid", arg);
		break;
	case OPT_UID:
		cfg->filter.by_uid = true;
		cfg->filter.uid = id_arg("uid", arg);
		break;
	case OPT_SUMMARY: cfg->summary = arg; break;
	case OPT_NO_SELF_CHECK: cfg->self_check = false; break;
	case OPT_PIDFILE: cfg->pidfile = arg; break;
	case OPT_DURATION:
		cfg->duration_s = opts_double("duration", arg, 0.001, 1e9,
					      "a number of seconds");
		break;
	case OPT_CAPTURE: cfg->capture = arg; break;
	case OPT_REPLAY: cfg->replay = arg; break;
	case OPT_USER:
		if (privs_check_user(arg) < 0)
			opts_bad_value("user", arg, "no such user");
		cfg->user = arg;
		break;
	case OPT_METRICS: cfg->metrics = arg; break;
	case OPT_RUN_ID:
		if (!runid_parse(arg, strlen(arg), NULL))
			opts_bad_value("run-id", arg, "32 hex digits");
		cfg->run_id = arg;
		break;
	case OPT_JSON_SCHEMA: cfg->json_schema = true; break;
	case 'h':
		opts_help(stdout, "Usage: exitmon [OPTION]...\n"
			  "Collect the kernel's taskstats exit records and count "
			  "every one lost.", options, N_OPTIONS);
		printf("\nSee exitmon(8) for the columns, loss accounting, privileges "
		       "and exit statuses.\n");
		exit(0);
	case 'V': printf("exitmon %s\n", EXITMON_VERSION); exit(0);
	default: break;
	}
}

static const char *option_name(int key)
{
	size_t i;

	for (i = 0; i < N_OPTIONS; i++)
		if (options[i].key == key)
			return options[i].name;
	return "?";
}

/* Options that only mean something for a live collector (--capture is
 * not one: a replay writes the packets it reads, a copy or with --count
 * a capture cut short, and make instr-gate measures that path; nor is
 * --metrics: a replay writes it once, at the end). */
static bool live_only(int key)
{
	switch (key) {
	case OPT_CPUS: case OPT_WAKEUP: case OPT_PIDFILE:
	case OPT_USER: case OPT_SHARDS: case OPT_RCVBUF:
	case OPT_INTERVAL: case OPT_DURATION: case OPT_NO_SELF_CHECK:
		return true;
	default:
		return false;
	}
}

static void parse_args(int argc, char **argv, struct mon_config *cfg)
{
	const char *cpus_arg = NULL;
	struct opts o;
	int key, live = 0;
	bool commands_set = false;

	opts_init(&o, options, N_OPTIONS);
	while ((key = opts_next(&o, argc, argv)) != -1) {
		if (live_only(key) && !live)
			live = key;
		commands_set |= key == OPT_METRICS_COMMANDS;
		parse_option(cfg, key, optarg, &cpus_arg);
	}
	opts_no_operands(argc, argv);
	if (commands_set && !cfg->metrics)
		log_usage_die("--metrics-commands sets what --metrics writes: "
			  "add --metrics FILE");
	if (cfg->fields.n && cfg->fmt == FMT_TEXT && !cfg->json_schema)
		log_usage_die("--fields chooses the columns of csv and jsonl; the "
			  "text format has its own: add -f csv or -f jsonl");
	if (cfg->cols && !fields_readable(cfg->cols) && !cfg->json_schema)
		log_warn("--fields leaves out type or pid, which tell the records "
			 "apart (a pid's from its group's): exitstat will not read "
			 "them; add type,pid to keep them readable");
	if (cfg->replay && live)
		log_usage_die("--replay reads a file: --%s applies only to a live "
			  "collector", option_name(live));
	if (!cfg->replay)
		set_cpus(cfg, cpus_arg);
	if (!cfg->replay && cfg->shards > cpulist_count(&cfg->cpus))
		log_usage_die("--shards %u is more than the %u registered CPUs",
			    cfg->shards, cpulist_count(&cfg->cpus));
}

/* Standard input, output and error must be open before any file is:
 * otherwise the first output file becomes fd 2 and gets the diagnostics. */
static void open_std_fds(void)
{
	int fd;

	for (fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF &&
		    open("/dev/null", fd ? O_WRONLY : O_RDONLY) != fd)
			_exit(EXIT_RUNTIME);
}

/* --json-schema: what a shipper validates the JSON lines against. */
static int print_schema(const struct mon_config *cfg)
{
	size_t len;
	char *s = format_schema(cfg->cols, EXITMON_VERSION, &len);

	if (!s)
		log_die(EXIT_RUNTIME, "out of memory");
	if (fwrite(s, 1, len, stdout) != len || putchar('\n') == EOF ||
	    fflush(stdout) == EOF)
		log_die(EXIT_RUNTIME, "cannot write the schema: %s",
			strerror(errno));
	free(s);
	return 0;
}

int main(int argc, char **argv)
{
	struct mon_config cfg = {
		.fmt = FMT_TEXT,
		.interval_ms = DEFAULT_INTERVAL_MS,
		.rcvbuf = DEFAULT_RCVBUF,
		.self_check = true,
		.shards = 1,
		.metrics_commands = ACCT_COMMANDS_DEFAULT,
	};

	open_std_fds();
	log_init(argv[0]);
	parse_args(argc, argv, &cfg);
	if (cfg.json_schema)
		return print_schema(&cfg);
	mon_signal_install();
	return cfg.replay ? mon_replay(&cfg) : mon_run(&cfg);
}
