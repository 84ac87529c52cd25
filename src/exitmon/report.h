/* What the collector tells people and scripts: the periodic stats line, the
 * final summary line, and the key=value --summary file. */
#ifndef EXITMON_REPORT_H
#define EXITMON_REPORT_H

#include "collect.h"

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
};

/* Counters of a live or replayed run, with the output's figures. */
struct run_counts {
	const struct loss_counters *n;
	uint64_t written, unwritten;
};

void report_stats_line(const struct run_counts *rc, double seconds,
		       double rate);
void report_final(const struct run_counts *rc, const struct run_info *ri);
int report_summary(const char *path, const struct run_counts *rc,
		   const struct run_info *ri);
void run_info_fill_usage(struct run_info *ri);

#endif
