// SPDX-License-Identifier: GPL-2.0-or-later
/* The netlink module's message side: datagram walk, strict attribute
 * tables, acks with extended-ack text.  Messages are built by hand. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tsbuild.h"
#include "tsnl.h"

struct walk_log {
	unsigned n;
	uint32_t seq[8];
};

static void log_msg(void *arg, const struct nlmsghdr *nh)
{
	struct walk_log *w = arg;

	if (w->n < 8)
		w->seq[w->n] = nh->nlmsg_seq;
	w->n++;
}

/* A message of `payload` bytes with sequence number seq, appended. */
static void put_msg(struct tsb_msg *m, uint32_t seq, size_t payload)
{
	struct nlmsghdr nh = { .nlmsg_len = (uint32_t)(NLMSG_HDRLEN + payload),
			       .nlmsg_type = 0x1c, .nlmsg_seq = seq };
	static const unsigned char zero[64];

	tsb_put(m, &nh, sizeof(nh));
	tsb_put(m, zero, NLMSG_ALIGN(payload));
}

static void test_walk(void **state)
{
	static struct tsb_msg m;
	struct walk_log w = { 0 };

	(void)state;
	m.len = 0;
	put_msg(&m, 1, 5);	/* padded to 8 */
	put_msg(&m, 2, 4);
	put_msg(&m, 3, 3);
	/* The last message may lack its padding. */
	assert_int_equal(tsnl_walk(m.b, m.len - 1, log_msg, &w), 0);
	assert_int_equal(w.n, 3);
	assert_int_equal(w.seq[0], 1);
	assert_int_equal(w.seq[2], 3);
	/* Bytes after the last whole message: the ones before still count,
	 * and the bytes after are said as such, not as a bad message
	 * (issue 34, item 21). */
	memset(&w, 0, sizeof(w));
	assert_int_equal(tsnl_walk(m.b, m.len + 4, log_msg, &w), 4);
	assert_int_equal(w.n, 3);
	/* The last header cut short, after two whole messages (24 and 20
	 * bytes). */
	memset(&w, 0, sizeof(w));
	assert_int_equal(tsnl_walk(m.b, m.len - 8, log_msg, &w), (int)(m.len - 8 - 24 - 20));
	assert_int_equal(w.n, 2);
	/* Nothing at all is fine; a header cut short, or one claiming more
	 * than there is, is no message at all. */
	assert_int_equal(tsnl_walk(m.b, 0, log_msg, &w), 0);
	assert_int_equal(tsnl_walk(m.b, NLMSG_HDRLEN - 1, log_msg, &w), -EBADMSG);
	memset(&w, 0, sizeof(w));
	assert_int_equal(tsnl_walk(m.b, NLMSG_HDRLEN + 2, log_msg, &w), -EBADMSG);
	assert_int_equal(w.n, 0);
}

static const struct nla_policy pol[TASKSTATS_TYPE_MAX + 1] = {
	[TASKSTATS_TYPE_PID] = { .type = NLA_U32, .minlen = 4, .maxlen = 4 },
};

static int attrs(const struct tsb_msg *m, struct nlattr *tb[])
{
	return tsnl_attrs(tb, TASKSTATS_TYPE_MAX, m->b, m->len, pol);
}

/* A capture's family is the type of its last exit message: another
 * type is then another family's message, a control message is not; a
 * capture across boots (another id) follows the exit messages. */
static void test_family(void **state)
{
	struct tsnl_family f = { 0 };
	struct nlmsghdr ts = { .nlmsg_type = 0x1c }, other = { .nlmsg_type = 0x22 },
			done = { .nlmsg_type = NLMSG_DONE };

	(void)state;
	assert_false(tsnl_family_other(&f, &other));	/* nothing learnt yet */
	tsnl_family_learn(&f, &ts);
	assert_false(tsnl_family_other(&f, &ts));
	assert_true(tsnl_family_other(&f, &other));
	assert_false(tsnl_family_other(&f, &done));
	tsnl_family_learn(&f, &other);			/* after a reboot */
	assert_true(tsnl_family_other(&f, &ts));
}

static void test_attrs(void **state)
{
	static struct tsb_msg m;
	struct nlattr *tb[TASKSTATS_TYPE_MAX + 1];
	uint64_t big = 7;

	(void)state;
	m.len = 0;
	tsb_attr(&m, TASKSTATS_TYPE_NULL, NULL, 0);
	tsb_u32(&m, TASKSTATS_TYPE_PID, 42);
	tsb_attr(&m, TASKSTATS_TYPE_NULL, "xy", 2);	/* padding may repeat */
	tsb_attr(&m, 40, "new", 3);			/* newer types skipped */
	assert_int_equal(attrs(&m, tb), 0);
	assert_non_null(tb[TASKSTATS_TYPE_PID]);
	assert_int_equal(tsnl_u32(tb[TASKSTATS_TYPE_PID]), 42);
	assert_null(tb[TASKSTATS_TYPE_STATS]);
	/* A repeated type is malformed (nla_parse would keep the last). */
	tsb_u32(&m, TASKSTATS_TYPE_PID, 43);
	assert_int_equal(attrs(&m, tb), -EBADMSG);
	/* The policy's lengths: a u32 of 8 bytes. */
	m.len = 0;
	tsb_attr(&m, TASKSTATS_TYPE_PID, &big, sizeof(big));
	assert_int_equal(attrs(&m, tb), -EBADMSG);
	/* Bytes left over after the last attribute. */
	m.len = 0;
	tsb_u32(&m, TASKSTATS_TYPE_PID, 1);
	assert_int_equal(tsnl_attrs(tb, TASKSTATS_TYPE_MAX, m.b, m.len + 2, pol),
			 -EBADMSG);
	/* An attribute longer than what is left. */
	assert_int_equal(tsnl_attrs(tb, TASKSTATS_TYPE_MAX, m.b, m.len - 1, pol),
			 -EBADMSG);
}

/* An ack of request seq with error err; with `text` as extended-ack
 * message, capped or with the request (`echo` bytes of it) echoed. */
static void put_ack(struct tsb_msg *m, uint32_t seq, int err, const char *text,
		    size_t echo)
{
	struct nlmsghdr nh = { .nlmsg_type = NLMSG_ERROR, .nlmsg_seq = seq };
	struct nlmsgerr e = { .error = err };
	static const unsigned char req[64];

	if (text)
		nh.nlmsg_flags = NLM_F_ACK_TLVS | (echo ? 0 : NLM_F_CAPPED);
	e.msg.nlmsg_len = (uint32_t)(NLMSG_HDRLEN + echo);
	m->len = 0;
	tsb_put(m, &nh, sizeof(nh));
	tsb_put(m, &e, sizeof(e));
	tsb_put(m, req, NLMSG_ALIGN(echo));
	if (text)
		tsb_attr(m, NLMSGERR_ATTR_MSG, text, strlen(text) + 1);
	tsb_end(m);
}

static void test_ack(void **state)
{
	static struct tsb_msg m;
	const struct nlmsghdr *nh = (const void *)m.b;
	char text[16];
	int err = 1;

	(void)state;
	put_ack(&m, 7, 0, NULL, 0);
	assert_int_equal(tsnl_ack(nh, 7, &err, text, sizeof(text)), 1);
	assert_int_equal(err, 0);
	assert_string_equal(text, "");
	/* Not ours: another sequence number. */
	assert_int_equal(tsnl_ack(nh, 8, &err, text, sizeof(text)), 0);
	/* The kernel's explanation, capped, cut to the buffer. */
	put_ack(&m, 7, -ERANGE, "cpumask too large", 0);
	assert_int_equal(tsnl_ack(nh, 7, &err, text, sizeof(text)), 1);
	assert_int_equal(err, -ERANGE);
	assert_string_equal(text, "cpumask too lar");
	/* ... and after an echoed request of 13 bytes (padded to 16). */
	put_ack(&m, 7, -EINVAL, "bad", 13);
	assert_int_equal(tsnl_ack(nh, 7, &err, text, sizeof(text)), 1);
	assert_string_equal(text, "bad");
	/* An echo longer than the message: no text, still the error. */
	put_ack(&m, 7, -EINVAL, "bad", 13);
	((struct nlmsgerr *)(m.b + NLMSG_HDRLEN))->msg.nlmsg_len = 4000;
	assert_int_equal(tsnl_ack(nh, 7, &err, text, sizeof(text)), 1);
	assert_int_equal(err, -EINVAL);
	assert_string_equal(text, "");
}

static void test_genl_msg(void **state)
{
	static struct tsb_msg m;
	const struct nlattr *a;
	size_t alen;
	uint8_t cmd;

	(void)state;
	tsb_begin(&m, 0x1c, TASKSTATS_CMD_NEW);
	tsb_u32(&m, TASKSTATS_TYPE_PID, 5);
	tsb_end(&m);
	assert_int_equal(tsnl_genl_msg(m.b, m.len, &cmd, &a, &alen), 0);
	assert_int_equal(cmd, TASKSTATS_CMD_NEW);
	assert_int_equal(alen, NLA_HDRLEN + 4);
	assert_int_equal(a->nla_type, TASKSTATS_TYPE_PID);
	assert_int_equal(tsnl_genl_msg(m.b, m.len - 1, &cmd, &a, &alen), -EBADMSG);
	put_ack(&m, 1, 0, NULL, 0);
	assert_int_equal(tsnl_genl_msg(m.b, m.len, &cmd, &a, &alen), -ENOMSG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_walk),
		cmocka_unit_test(test_family),
		cmocka_unit_test(test_attrs),
		cmocka_unit_test(test_ack),
		cmocka_unit_test(test_genl_msg),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
