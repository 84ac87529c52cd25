/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The collector's state, shared by the files of its life: mon_run.c (the
 * loop and shutdown), mon_start.c (start-up), mon_sinks.c (its files) and
 * mon_replay.c (--replay). */
#ifndef EXITMON_MON_STATE_H
#define EXITMON_MON_STATE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "acct.h"
#include "collector.h"
#include "mon_config.h"
#include "mon_counters.h"
#include "output.h"
#include "pidfile.h"

struct shard;

/* How long the end of a run waits for a slow reader of the output. */
#define OUTPUT_DRAIN_MS 2000

struct mon {
	const struct mon_config *cfg;
	struct output out;
	struct capture_writer *cap;
	struct shard *shards;
	unsigned n_opened;
	atomic_ullong taken;
	char run[REC_RUN_HEX + 1];	/* the run id (mon_state_run_id) */
	atomic_ullong seq;		/* the last seq handed out */
	struct mon_counters total;	/* summed from the shards */
	struct acct_sum acct;		/* --metrics: the records' counts */
	bool acct_ready;		/* ... set up (mon_state_acct) */
	bool acct_said_saturated;	/* ... its saturated sums said on stderr */
	uint16_t version;
	double t0, start_unix, last_stats, last_metrics;
	uint64_t records_at_stats, records_at_metrics;
	struct pidfile pidfile;
	bool out_open;			/* m->out holds an open output */
	int out_err;			/* output error last reported */
	int cap_err;			/* capture error last reported */
};

/* The collector's wiring, for live shards and replay alike. */
void mon_state_wiring(struct mon *m, bool live, struct collector_setup *w);
/* The run id into m->run (runid.h: --run-id, else for a live run
 * systemd's invocation id, else random); 0 or an exit status. */
int mon_state_run_id(struct mon *m, bool live);
/* --metrics: drain the collectors' counts of the records into m->acct
 * (set up at the first call); promote: let commands into the shown set.
 * 0, or -ENOMEM (the counts stay in the collectors). */
int mon_state_acct(struct mon *m, struct collector *const *c, unsigned n,
		   bool locked, bool promote);

#endif
