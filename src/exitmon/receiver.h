/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Receiving from the listener socket: batched non-blocking drains with
 * recvmmsg (the default), or one blocking receive per record (--wakeup, the
 * getdelays/exit_recv way), and the socket's own loss accounting. */
#ifndef EXITMON_RECEIVER_H
#define EXITMON_RECEIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <time.h>

#include "tsnl.h"

/* A PID+TGID message is ~1.3 KB on current kernels; leave room to grow. */
#define RECV_SLOT 8192
#define RECV_BATCH 64
/* Where each slot starts within its page.  The kernel copies a record out
 * of an skb head that kmalloc placed at a multiple of 1 KiB in its page;
 * a destination a few bytes past the source, modulo 4096 (malloc's
 * 16-byte header gave +16), makes nearly every load of that copy wait on
 * the store just issued (4K aliasing): the receive loop cost 1.2x a bare
 * drain.  An odd multiple of 512 is far from every such source; 1536
 * also leaves a whole record (~1.3 KB) inside one page. */
#define RECV_SLOT_SKEW 1536
_Static_assert(RECV_SLOT_SKEW < 4096, "the area has one spare page for the skew");

struct receiver {
	int fd;
	struct mmsghdr *msgs;
	struct iovec *iov;
	unsigned char *mem;	/* page-aligned allocation holding the slots */
	uint32_t drops_last;	/* SO_MEMINFO drop counter, 32 bits, wraps */
	uint64_t drops;		/* accumulated since receiver_init */
	/* stamp: note in `when` the time (CLOCK_REALTIME) of each receive
	 * call that returned datagrams, for the records' time_ns and the
	 * capture; one clock read per call, not per datagram (a read costs
	 * 5% of a capture's CPU). */
	bool stamp;
	struct timespec when;
};

struct queue_state {
	uint32_t rmem_alloc;	/* bytes queued */
	uint32_t rcvbuf;	/* the socket's limit */
};

/* The time of a receive: CLOCK_REALTIME to the microsecond, the
 * resolution a capture keeps, so that a record replayed from a capture
 * has the time_ns it was written with. */
void receiver_stamp(struct timespec *t);

int receiver_init(struct receiver *r, int fd);
void receiver_free(struct receiver *r);
/* Read everything queued without blocking; each datagram goes to fn.
 * Returns datagrams read, or -errno of a hard failure. */
int receiver_drain(struct receiver *r, tsnl_datagram_fn fn, void *arg);
/* Block until one datagram arrives (or a signal: -EINTR). */
int receiver_wait_one(struct receiver *r, tsnl_datagram_fn fn, void *arg);
/* Refresh r->drops from the kernel's exact per-socket drop counter. */
int receiver_update_drops(struct receiver *r);
int receiver_queue(const struct receiver *r, struct queue_state *q);

/* SO_RCVBUFFORCE (CAP_NET_ADMIN), else SO_RCVBUF capped by rmem_max.
 * *actual is what the kernel granted (it doubles the request). */
int receiver_set_rcvbuf(int fd, uint64_t bytes, uint64_t *actual);

#endif
