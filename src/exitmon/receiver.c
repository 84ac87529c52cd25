// SPDX-License-Identifier: GPL-2.0-or-later
/* Batched and per-record receive loops and the socket's loss counters. */
#include "receiver.h"

#include <errno.h>
#include <linux/sock_diag.h>
#include <stdlib.h>
#include <string.h>

static int read_meminfo(int fd, uint32_t mi[SK_MEMINFO_VARS])
{
	socklen_t len = sizeof(uint32_t) * SK_MEMINFO_VARS;

	memset(mi, 0, len);
	return getsockopt(fd, SOL_SOCKET, SO_MEMINFO, mi, &len) < 0 ? -errno : 0;
}

int receiver_init(struct receiver *r, int fd)
{
	uint32_t mi[SK_MEMINFO_VARS];
	unsigned i;

	memset(r, 0, sizeof(*r));
	r->fd = fd;
	r->msgs = calloc(RECV_BATCH, sizeof(*r->msgs));
	r->iov = calloc(RECV_BATCH, sizeof(*r->iov));
	r->mem = aligned_alloc(4096, (size_t)RECV_BATCH * RECV_SLOT + 4096);
	if (!r->msgs || !r->iov || !r->mem) {
		receiver_free(r);
		return -ENOMEM;
	}
	for (i = 0; i < RECV_BATCH; i++) {
		r->iov[i].iov_base = r->mem + RECV_SLOT_SKEW + (size_t)i * RECV_SLOT;
		r->iov[i].iov_len = RECV_SLOT;
		r->msgs[i].msg_hdr.msg_iov = &r->iov[i];
		r->msgs[i].msg_hdr.msg_iovlen = 1;
	}
	/* Count only what is dropped from now on. */
	if (read_meminfo(fd, mi) == 0)
		r->drops_last = mi[SK_MEMINFO_DROPS];
	return 0;
}

void receiver_free(struct receiver *r)
{
	free(r->msgs);
	free(r->iov);
	free(r->mem);
	r->msgs = NULL;
	r->iov = NULL;
	r->mem = NULL;
}

void receiver_stamp(struct timespec *t)
{
	clock_gettime(CLOCK_REALTIME, t);
	t->tv_nsec -= t->tv_nsec % 1000;
}

static void deliver(struct receiver *r, unsigned i, tsnl_datagram_fn fn, void *arg)
{
	struct msghdr *h = &r->msgs[i].msg_hdr;
	size_t len = r->msgs[i].msg_len;
	int flags = h->msg_flags & MSG_TRUNC;

	if (len > RECV_SLOT)
		len = RECV_SLOT;
	fn(arg, r->iov[i].iov_base, len, flags);
}

/* The hot path reads the socket itself with recvmmsg (and counts drops
 * with SO_MEMINFO): libnl has no batched receive, one recv per record
 * would cost a wakeup each.  Requests and acks go through tsnl. */
int receiver_drain(struct receiver *r, tsnl_datagram_fn fn, void *arg)
{
	int total = 0;

	for (;;) {
		unsigned i;
		int n = recvmmsg(r->fd, r->msgs, RECV_BATCH, MSG_DONTWAIT, NULL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				return total;
			if (errno == ENOBUFS) {	/* an overflow episode */
				fn(arg, NULL, 0, -ENOBUFS);
				continue;
			}
			return -errno;
		}
		if (r->stamp)
			receiver_stamp(&r->when);
		for (i = 0; i < (unsigned)n; i++)
			deliver(r, i, fn, arg);
		total += n;
		if (n < RECV_BATCH)
			return total;
	}
}

int receiver_wait_one(struct receiver *r, tsnl_datagram_fn fn, void *arg)
{
	struct msghdr *h = &r->msgs[0].msg_hdr;
	ssize_t n;

	h->msg_flags = 0;
	n = recvmsg(r->fd, h, 0);
	if (n < 0) {
		if (errno == ENOBUFS) {
			fn(arg, NULL, 0, -ENOBUFS);
			return 0;
		}
		return -errno;
	}
	r->msgs[0].msg_len = (unsigned)n;
	if (r->stamp)
		receiver_stamp(&r->when);
	deliver(r, 0, fn, arg);
	return 1;
}

int receiver_update_drops(struct receiver *r)
{
	uint32_t mi[SK_MEMINFO_VARS];
	int e = read_meminfo(r->fd, mi);

	if (e < 0)
		return e;
	/* Unsigned difference survives the 32-bit counter wrapping. */
	r->drops += (uint32_t)(mi[SK_MEMINFO_DROPS] - r->drops_last);
	r->drops_last = mi[SK_MEMINFO_DROPS];
	return 0;
}

int receiver_queue(const struct receiver *r, struct queue_state *q)
{
	uint32_t mi[SK_MEMINFO_VARS];
	int e = read_meminfo(r->fd, mi);

	if (e < 0)
		return e;
	q->rmem_alloc = mi[SK_MEMINFO_RMEM_ALLOC];
	q->rcvbuf = mi[SK_MEMINFO_RCVBUF];
	return 0;
}

int receiver_set_rcvbuf(int fd, uint64_t bytes, uint64_t *actual)
{
	int v = bytes > (uint64_t)(INT32_MAX / 2) ? INT32_MAX / 2 : (int)bytes;
	socklen_t len = sizeof(v);

	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &v, sizeof(v)) < 0 &&
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v)) < 0)
		return -errno;
	if (getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, &len) < 0)
		return -errno;
	*actual = (uint64_t)v;
	return 0;
}
