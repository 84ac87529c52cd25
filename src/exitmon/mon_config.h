/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What exitmon was asked to do: the options, parsed and checked. */
#ifndef EXITMON_MON_CONFIG_H
#define EXITMON_MON_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

#include "cpulist.h"
#include "filter.h"
#include "format.h"

/* Default receive buffer: see exitmon(8), "Sizing". */
#define DEFAULT_RCVBUF (8u * 1024 * 1024)
#define DEFAULT_INTERVAL_MS 10
#define MAX_SHARDS 256

struct mon_config {
	enum out_format fmt;
	const struct format_cols *cols;	/* --fields; NULL: every column */
	struct format_cols fields;
	const char *output;	/* NULL: stdout */
	struct cpuset_bits cpus;
	char cpulist[1024];
	unsigned interval_ms;
	bool wakeup;
	uint64_t rcvbuf;
	double stats_s;		/* 0: no periodic stats line */
	struct filter filter;
	const char *summary, *pidfile, *capture, *replay;
	double duration_s;	/* 0: until signalled */
	uint64_t count;		/* 0: no limit */
	bool self_check;
	const char *user;	/* --user: drop to this user after setup */
	const char *metrics;	/* --metrics: Prometheus text file */
	unsigned metrics_commands;	/* --metrics-commands: comm series */
	unsigned shards;	/* sockets and receive threads, >= 1 */
	const char *run_id;	/* --run-id, checked; NULL: made at start */
	bool json_schema;	/* --json-schema: print it, do nothing else */
};

#endif
