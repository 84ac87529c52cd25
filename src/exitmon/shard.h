/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One listener socket and the thread that drains it, registered for a
 * group of CPUs.  --shards N splits the CPUs among N of them so that one
 * socket and one core never limit a machine with hundreds of CPUs. */
#ifndef EXITMON_SHARD_H
#define EXITMON_SHARD_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "collector.h"
#include "cpulist.h"
#include "tsnl.h"
#include "receiver.h"

struct mon_config;

struct shard {
	unsigned index;
	struct cpuset_bits cpus;
	char cpulist[1024];
	struct tsnl_conn ts;
	struct receiver rx;
	struct collector col;
	uint64_t rcvbuf;		/* what the kernel granted */
	pthread_t thread;
	bool running, registered;
	const struct mon_config *cfg;
	atomic_bool stop;		/* set by shard_stop() */
	/* Counters the thread publishes for the main thread to read. */
	pthread_mutex_t lock;
	struct mon_counters published;
	uint16_t published_version;
};

/* Socket, family, receiver, collector wired by w; 0 or -errno (-ENOENT:
 * no family). */
int shard_open(struct shard *s, const struct mon_config *cfg, unsigned index,
	       const struct collector_setup *w);
/* Capture every datagram to cap from now on; 0 or -ENOMEM. */
int shard_capture_to(struct shard *s, struct capture_writer *cap);
int shard_set_rcvbuf(struct shard *s);
int shard_register(struct shard *s);
/* Make a thread exit on one of our CPUs and wait for its record (giving
 * up early once *cancel is set).  1 heard, 0 not heard, -errno when no
 * thread could run there. */
int shard_self_check(struct shard *s, int timeout_ms,
		     const volatile sig_atomic_t *cancel);
int shard_start(struct shard *s);
/* Tell the receive thread to end (async-signal-safe). */
void shard_stop(struct shard *s);
/* Stop and join the receive thread. */
void shard_join(struct shard *s);
/* Join (if not yet), drain, deregister, drain, push. */
void shard_finish(struct shard *s);
void shard_close(struct shard *s);
/* Add this shard's published counters to *sum. */
void shard_read(struct shard *s, struct mon_counters *sum,
		uint16_t *version);
uint32_t shard_queue_bytes(struct shard *s, uint32_t *rcvbuf);

#endif
