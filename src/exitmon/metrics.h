/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Prometheus text exposition for node_exporter's textfile collector. */
#ifndef EXITMON_METRICS_H
#define EXITMON_METRICS_H

#include <stddef.h>

#include "acct.h"
#include "report.h"

struct metrics_gauges {
	double record_rate;		/* records/s over the last interval */
	double queue_bytes, rcvbuf_bytes;
	double cpu_user, cpu_sys;	/* collector's own CPU seconds */
	double start_time;		/* Unix time the collector started */
	const char *run;		/* the run id, REC_RUN_HEX digits */
	uint64_t last_seq;		/* the last seq handed out so far */
};

/* Replace `path` atomically with the current metrics, and the records'
 * own (a: NULL for none); 0 or -errno. */
int metrics_write(const char *path, const struct mon_counters *n,
		  const struct metrics_gauges *g, const struct acct_sum *a);
/* A command name as a label value of the text format: its bytes as text
 * output shows them (valid UTF-8; other bytes, controls and backslashes
 * as escapes, so two names never share a value; a task named "other"
 * as \x6fther, apart from the rest), then backslash and quote
 * escaped.  Like snprintf: the length it needs; at most 8 x 32 x 2. */
size_t metrics_label(const char *comm, size_t len, char *buf, size_t cap);

#endif
