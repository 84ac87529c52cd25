/* The collector's run: register, verify, receive until told to stop,
 * deregister, and report.  Used by exitmon's main(). */
#ifndef EXITMON_MONITOR_H
#define EXITMON_MONITOR_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "collect.h"
#include "cpulist.h"
#include "filter.h"
#include "format.h"

/* Default receive buffer: see exitmon(8), "Sizing". */
#define DEFAULT_RCVBUF (8u * 1024 * 1024)
#define DEFAULT_INTERVAL_MS 10
#define MAX_SHARDS 256

struct mon_config {
	enum out_format fmt;
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
	unsigned shards;	/* sockets and receive threads, >= 1 */
};

/* Metrics are refreshed every --stats interval, or this often. */
#define DEFAULT_METRICS_S 10.0

void mon_install_signals(void);
/* Run the live collector; returns an exit status (enum exit_status). */
int mon_run(const struct mon_config *cfg);
/* Parse a capture file through the same pipeline; exit status. */
int mon_replay(const struct mon_config *cfg);

#endif
