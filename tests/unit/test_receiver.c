// SPDX-License-Identifier: GPL-2.0-or-later
/* The receive loop: where its slots sit in memory (the page offset that
 * keeps the kernel's copy out of 4K aliasing) and that a drain hands
 * over every queued datagram, across more than one recvmmsg batch.  A
 * datagram socketpair stands in for the netlink socket. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "receiver.h"

struct seen {
	int n;
	size_t len[2 * RECV_BATCH];
	int flags[2 * RECV_BATCH];
	unsigned char first[2 * RECV_BATCH], last[2 * RECV_BATCH];
};

static void note(void *arg, const void *msg, size_t len, int flags)
{
	struct seen *s = arg;

	assert_true(s->n < 2 * RECV_BATCH && len > 0);
	s->len[s->n] = len;
	s->flags[s->n] = flags;
	s->first[s->n] = *(const unsigned char *)msg;
	s->last[s->n] = ((const unsigned char *)msg)[len - 1];
	s->n++;
}

static void test_slots_sit_at_the_skew(void **state)
{
	struct receiver r;
	unsigned i;

	(void)state;
	assert_int_equal(receiver_init(&r, -1), 0);
	for (i = 0; i < RECV_BATCH; i++) {
		uintptr_t a = (uintptr_t)r.iov[i].iov_base;

		assert_int_equal(a % 4096, RECV_SLOT_SKEW);
		assert_int_equal(r.iov[i].iov_len, RECV_SLOT);
		if (i)
			assert_true(a >= (uintptr_t)r.iov[i - 1].iov_base + RECV_SLOT);
		/* Every byte of every slot is ours (ASan in make sanitize
		 * catches an area allocated too small). */
		memset(r.iov[i].iov_base, 0xa5, RECV_SLOT);
	}
	receiver_free(&r);
	assert_null(r.mem);
}

static void test_drain_hands_over_everything(void **state)
{
	unsigned char buf[1500];
	struct receiver r;
	struct seen s = { 0 };
	int sv[2], i, sndbuf = 4 << 20;

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv), 0);
	setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	setsockopt(sv[1], SOL_SOCKET, SO_RCVBUF, &sndbuf, sizeof(sndbuf));
	assert_int_equal(receiver_init(&r, sv[1]), 0);
	/* More than one batch, each datagram with its own length and mark. */
	for (i = 0; i < RECV_BATCH + 6; i++) {
		memset(buf, i, sizeof(buf));
		assert_int_equal(send(sv[0], buf, 100 + (size_t)i, 0), 100 + i);
	}
	assert_int_equal(receiver_drain(&r, note, &s), RECV_BATCH + 6);
	assert_int_equal(s.n, RECV_BATCH + 6);
	for (i = 0; i < s.n; i++) {
		assert_int_equal(s.len[i], 100 + (size_t)i);
		assert_int_equal(s.flags[i], 0);
		assert_int_equal(s.first[i], (unsigned char)i);
		assert_int_equal(s.last[i], (unsigned char)i);
	}
	/* A datagram that fills a slot exactly, and one longer than a slot:
	 * cut to the slot and flagged MSG_TRUNC. */
	{
		static unsigned char big[RECV_SLOT + 100];

		memset(big, 7, sizeof(big));
		big[RECV_SLOT - 1] = 9;
		s.n = 0;
		assert_int_equal(send(sv[0], big, RECV_SLOT, 0), RECV_SLOT);
		assert_int_equal(send(sv[0], big, sizeof(big), 0), (ssize_t)sizeof(big));
		assert_int_equal(receiver_drain(&r, note, &s), 2);
		assert_int_equal(s.len[0], RECV_SLOT);
		assert_int_equal(s.flags[0], 0);
		assert_int_equal(s.last[0], 9);
		assert_int_equal(s.len[1], RECV_SLOT);
		assert_int_equal(s.flags[1], MSG_TRUNC);
	}
	/* Nothing queued: a drain returns at once with 0. */
	assert_int_equal(receiver_drain(&r, note, &s), 0);
	receiver_free(&r);
	close(sv[0]);
	close(sv[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slots_sit_at_the_skew),
		cmocka_unit_test(test_drain_hands_over_everything),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
