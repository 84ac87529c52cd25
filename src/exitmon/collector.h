/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The collector's pipeline: raw datagram -> capture -> parse -> filter ->
 * output, with every record and every loss counted. */
#ifndef EXITMON_COLLECTOR_H
#define EXITMON_COLLECTOR_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "acct.h"
#include "capture.h"
#include "filter.h"
#include "format.h"
#include "mon_counters.h"
#include "output.h"
#include "tsnl.h"

/* What a collector is wired to: built once (mon_state.c) for live shards
 * and replay alike. */
struct collector_setup {
	const struct filter *filter;
	struct output *out;		/* NULL: count only */
	struct capture_writer *cap;	/* NULL: no --capture */
	uint64_t limit;			/* stop after this many matched; 0: no limit */
	atomic_ullong *taken;		/* matched so far, shared by all shards */
	pid_t self_tgid;		/* our own process (live); 0: replay */
	const char *run;		/* the run id: REC_RUN_HEX hex digits */
	/* The last seq handed out, shared by all shards: every record given
	 * to the output takes the next one (see emit). */
	atomic_ullong *seq;
	/* --metrics: count the records for it (acct.h), with series for at
	 * most metrics_commands commands (--metrics-commands, may be 0). */
	bool metrics;
	unsigned metrics_commands;
	/* The counts are merged by another thread (a live shard's): take
	 * the acct's own lock around each record counted (no other shard
	 * takes it; the main thread only at a metrics write). */
	bool metrics_locked;
};

struct collector {
	struct collector_setup w;
	struct mon_counters n;		/* written, unwritten: the output's */
	char *stage;			/* formatted lines not yet given to out */
	size_t stage_len;
	uint64_t stage_lines;		/* ... and lines counted, not formatted */
	struct capture_stage cap_stage;	/* packets not yet given to w.cap */
	/* When the datagram in hand was received (its receiver's stamp, one
	 * clock read per receive call), or under --replay the packet's own
	 * time: the capture's timestamp and the records' time_ns; NULL:
	 * read the clock per datagram. */
	const struct timespec *recv_time;
	/* run, seq, time_ns of the record being written (the views point
	 * here); seq and time_ns change per record and per datagram. */
	struct rec_meta meta;
	struct acct *acct;		/* --metrics: the records' counts; or NULL */
	bool implausible;		/* the pid record in hand's (for acct) */
	pid_t watch_tid;		/* set by the shard's self-check: its thread */
	bool watch_seen;		/* ... whose exit record arrived */
	uint16_t last_version;		/* struct version of the last pid record */
	struct tsnl_family family;	/* of the exit records (a capture's: learnt) */
};

/* One datagram as received.  flags: MSG_TRUNC when the datagram did not
 * fit (len is what we got); -ENOBUFS (with msg NULL) for a loss episode. */
void collector_datagram(void *collector, const void *msg, size_t len,
			int flags);
bool collector_done(const struct collector *c);
/* Wire the collector and allocate its staging buffers; 0 or -ENOMEM. */
int collector_init(struct collector *c, const struct collector_setup *w);
/* Capture to cap from now on (opened after the collector); 0 or -ENOMEM. */
int collector_capture_to(struct collector *c, struct capture_writer *cap);
void collector_free(struct collector *c);
/* Give the staged packets to the capture and the staged lines to the
 * output (each as one uninterleaved chunk): at the end of every receive
 * batch, so both are on disk as promptly. */
void collector_push(struct collector *c);

#endif
