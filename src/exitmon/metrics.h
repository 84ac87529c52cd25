/* Prometheus text exposition for node_exporter's textfile collector. */
#ifndef EXITMON_METRICS_H
#define EXITMON_METRICS_H

#include "report.h"

struct metrics_gauges {
	double record_rate;		/* records/s over the last interval */
	double queue_bytes, rcvbuf_bytes;
	double cpu_user, cpu_sys;	/* collector's own CPU seconds */
	double start_time;		/* Unix time the collector started */
	const char *run;		/* the run id, REC_RUN_HEX digits */
	uint64_t last_seq;		/* the last seq handed out so far */
};

/* Replace `path` atomically with the current metrics; 0 or -errno. */
int metrics_write(const char *path, const struct mon_counters *n,
		  const struct metrics_gauges *g);

#endif
