/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the collector tells people and scripts: the periodic stats line, the
 * final summary line, and the key=value --summary file. */
#ifndef EXITMON_REPORT_H
#define EXITMON_REPORT_H

#include "mon_counters.h"

struct run_info {
	double seconds;
	double cpu_user, cpu_sys;	/* the collector's own CPU time */
	long max_rss_kb;
	uint64_t rcvbuf;
	unsigned interval_ms;
	int wakeup;
	unsigned struct_version;	/* of the last record seen, 0 if none */
	const char *cpulist;
	unsigned shards;
	const char *run;		/* the run id (the records' run column) */
	uint64_t last_seq;		/* the last seq handed out, 0 if none */
};

/* n: the counters of a live or replayed run, the output's included. */
void report_stats_line(const struct mon_counters *n, double seconds,
		       double rate);
void report_final(const struct mon_counters *n, const struct run_info *ri);
int report_summary(const char *path, const struct mon_counters *n,
		   const struct run_info *ri);
void report_fill_usage(struct run_info *ri);

#endif
