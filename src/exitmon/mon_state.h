/* The collector's state, shared by the files of its life: monitor.c (the
 * loop and shutdown), mon_start.c (start-up) and mon_replay.c (--replay). */
#ifndef EXITMON_MON_STATE_H
#define EXITMON_MON_STATE_H

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "collect.h"
#include "mon_config.h"
#include "mon_counters.h"
#include "output.h"
#include "pidfile.h"

struct shard;

/* How long the end of a run waits for a slow reader of the output. */
#define OUTPUT_DRAIN_MS 2000

/* Set by SIGINT/SIGTERM (and by the loop at --duration or --count);
 * start-up's self-check and the replay stop early on it too. */
extern volatile sig_atomic_t mon_stop;

struct mon {
	const struct mon_config *cfg;
	struct output out;
	struct capture_writer *cap;
	struct shard *shards;
	unsigned n_opened;
	atomic_ullong taken;
	struct mon_counters total;	/* summed from the shards */
	uint16_t version;
	double t0, start_unix, last_stats, last_metrics;
	uint64_t records_at_stats, records_at_metrics;
	struct pidfile pidfile;
	bool out_open;			/* m->out holds an open output */
	int out_err;			/* output error last reported */
	int cap_err;			/* capture error last reported */
};

/* The collector's wiring, for live shards and replay alike. */
void mon_collector_wiring(struct mon *m, bool live, struct collector_setup *w);

/* Open the shards, drop privileges, open the sinks, register, self-check,
 * start the receive threads, write the pid file: 0, or the exit status of
 * the first failure (already reported in one line). */
int mon_start(struct mon *m);
/* Every file, checked and opened (also replay's); 0 or an exit status. */
int mon_open_sinks(struct mon *m);
/* A start that failed leaves no file it created behind. */
void mon_remove_created(struct mon *m);

#endif
