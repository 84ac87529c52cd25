// SPDX-License-Identifier: GPL-2.0-or-later
/* The taskstats family over libnl: messages, attributes, the socket. */
#include "tsnl.h"
#include "clock.h"

#include <errno.h>
#include <limits.h>
#include <linux/genetlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>

/* Older installed headers lack these socket options (Linux 4.2, 4.12). */
#ifndef NETLINK_CAP_ACK
#define NETLINK_CAP_ACK 10
#endif
#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif

int tsnl_walk(const void *buf, size_t len, tsnl_msg_fn fn, void *arg)
{
	const unsigned char *p = buf;
	size_t all = len;

	/* Each header whole, its length within what is left (libnl's
	 * nlmsg_ok, here inline: it runs for every record); the last message
	 * may lack its padding. */
	while (len >= NLMSG_HDRLEN) {
		const struct nlmsghdr *nh = (const void *)p;
		size_t step;

		if (nh->nlmsg_len < NLMSG_HDRLEN || nh->nlmsg_len > len)
			break;
		fn(arg, nh);
		step = NLMSG_ALIGN(nh->nlmsg_len);
		if (step >= len)
			return 0;
		p += step;
		len -= step;
	}
	/* What is left is no whole message: bytes after the last one, or no
	 * message at all. */
	return !len ? 0 : len < all ? (int)(len < INT32_MAX ? len : INT32_MAX) : -EBADMSG;
}

int tsnl_genl_msg(const void *msg, size_t len, uint8_t *cmd,
		  const struct nlattr **attrs, size_t *attrs_len)
{
	const size_t hdr = NLMSG_HDRLEN + GENL_HDRLEN;
	struct nlmsghdr nh;
	struct genlmsghdr gh;

	if (len < NLMSG_HDRLEN)
		return -EBADMSG;
	memcpy(&nh, msg, sizeof(nh));
	if (nh.nlmsg_len < NLMSG_HDRLEN || nh.nlmsg_len > len)
		return -EBADMSG;
	if (nh.nlmsg_type == NLMSG_ERROR || nh.nlmsg_type == NLMSG_DONE ||
	    nh.nlmsg_type == NLMSG_NOOP || nh.nlmsg_type == NLMSG_OVERRUN)
		return -ENOMSG;
	if (nh.nlmsg_len < hdr)
		return -EBADMSG;
	memcpy(&gh, (const unsigned char *)msg + NLMSG_HDRLEN, sizeof(gh));
	*cmd = gh.cmd;
	*attrs = (const void *)((const unsigned char *)msg + hdr);
	*attrs_len = nh.nlmsg_len - hdr;
	return 0;
}

/* What nla_parse lets pass: a repeated type (it keeps the last one) and
 * bytes after the last whole attribute. */
static int attrs_strict(struct nlattr *tb[], int maxtype,
			const unsigned char *p, size_t left)
{
	while (left >= NLA_HDRLEN) {
		const struct nlattr *a = (const void *)p;
		int type = a->nla_type & NLA_TYPE_MASK;
		size_t step = NLA_ALIGN(a->nla_len);

		if (a->nla_len < NLA_HDRLEN || a->nla_len > left)
			return -EBADMSG;
		if (type <= maxtype && tb[type] != a &&
		    type != TASKSTATS_TYPE_NULL)
			return -EBADMSG;
		if (step >= left)
			return 0;	/* the last one may lack padding */
		p += step;
		left -= step;
	}
	return left ? -EBADMSG : 0;
}

int tsnl_attrs(struct nlattr *tb[], int maxtype, const void *head,
	       size_t len, const struct nla_policy *policy)
{
	if (len > INT_MAX ||
	    nla_parse(tb, maxtype, (struct nlattr *)head, (int)len,
		      (struct nla_policy *)policy) < 0)
		return -EBADMSG;
	return attrs_strict(tb, maxtype, head, len);
}

/* --- the socket --- */

int tsnl_open(struct tsnl_conn *c)
{
	int one = 1, r;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->sk = nl_socket_alloc();
	if (!c->sk)
		return -ENOMEM;
	/* We read the socket ourselves (recvmmsg), so libnl must never
	 * consume records behind our back: acks are awaited by hand. */
	nl_socket_disable_auto_ack(c->sk);
	nl_socket_disable_seq_check(c->sk);
	r = genl_connect(c->sk);
	if (r < 0) {
		r = -EIO;
		goto fail;
	}
	c->fd = nl_socket_get_fd(c->sk);
	/* Short acks that carry the kernel's explanation of a failure (libnl
	 * 3.7 has no call for these two options). */
	setsockopt(c->fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	setsockopt(c->fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	c->family = genl_ctrl_resolve(c->sk, TASKSTATS_GENL_NAME);
	if (c->family < 0) {
		r = c->family == -NLE_OBJ_NOTFOUND ? -ENOENT : -EIO;
		goto fail;
	}
	return 0;
fail:
	nl_socket_free(c->sk);
	c->sk = NULL;
	c->fd = -1;
	return r;
}

void tsnl_close(struct tsnl_conn *c)
{
	if (c->sk)
		nl_socket_free(c->sk);
	c->sk = NULL;
	c->fd = -1;
}

static int send_cpumask(struct tsnl_conn *c, int attr, const char *cpulist,
			unsigned *seq)
{
	struct nl_msg *msg = nlmsg_alloc();
	int r = -ENOMEM;

	if (!msg)
		return r;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, c->family, 0,
			 NLM_F_ACK, TASKSTATS_CMD_GET, TASKSTATS_GENL_VERSION) ||
	    nla_put_string(msg, attr, cpulist) < 0)
		goto out;
	r = nl_send_auto(c->sk, msg);
	r = r < 0 ? -EIO : 0;
	*seq = nlmsg_hdr(msg)->nlmsg_seq;
out:
	nlmsg_free(msg);
	return r;
}

/* The extended-ack message attribute, if the kernel sent one: the TLVs
 * follow the nlmsgerr and, unless capped, the echoed request. */
static void ack_text(const struct nlmsghdr *nh, char *text, size_t size)
{
	const struct nlmsgerr *e = nlmsg_data(nh);
	size_t off = NLMSG_HDRLEN + sizeof(*e), end = nh->nlmsg_len, n;
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];

	if (!(nh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (!(nh->nlmsg_flags & NLM_F_CAPPED)) {
		if (e->msg.nlmsg_len < NLMSG_HDRLEN)
			return;
		off += NLMSG_ALIGN(e->msg.nlmsg_len) - NLMSG_HDRLEN;
	}
	if (off > end || nla_parse(tb, NLMSGERR_ATTR_MAX,
				   (struct nlattr *)((char *)nh + off),
				   (int)(end - off), NULL) < 0 ||
	    !tb[NLMSGERR_ATTR_MSG])
		return;
	n = strnlen(nla_data(tb[NLMSGERR_ATTR_MSG]),
		    (size_t)nla_len(tb[NLMSGERR_ATTR_MSG]));
	if (n >= size)
		n = size - 1;
	memcpy(text, nla_data(tb[NLMSGERR_ATTR_MSG]), n);
	text[n] = '\0';
}

int tsnl_ack(const struct nlmsghdr *nh, unsigned seq, int *err, char *text,
	     size_t size)
{
	if (nh->nlmsg_type != NLMSG_ERROR || nh->nlmsg_seq != seq ||
	    nh->nlmsg_len < NLMSG_HDRLEN + sizeof(struct nlmsgerr))
		return 0;
	*err = ((const struct nlmsgerr *)nlmsg_data(nh))->error;
	text[0] = '\0';
	if (*err)
		ack_text(nh, text, size);
	return 1;
}

/* The answer we wait for, looked for in each message of a datagram. */
struct ack_wait {
	struct tsnl_conn *c;
	unsigned seq;
	int err;
	int found;
};

static void find_ack(void *arg, const struct nlmsghdr *nh)
{
	struct ack_wait *w = arg;

	if (tsnl_ack(nh, w->seq, &w->err, w->c->ack_msg, sizeof(w->c->ack_msg)))
		w->found = 1;
}

/* One recv while waiting: 1 when it held our answer, 0 to go on. */
static int recv_one(struct ack_wait *w, char *buf, size_t size,
		    tsnl_datagram_fn fn, void *arg)
{
	ssize_t n = recv(w->c->fd, buf, size, MSG_DONTWAIT | MSG_TRUNC);

	if (n < 0) {
		if (errno == EAGAIN || errno == EINTR)
			return 0;
		if (errno == ENOBUFS) {	/* records lost: caller counts */
			fn(arg, NULL, 0, -ENOBUFS);
			return 0;
		}
		w->err = -errno;
		return 1;
	}
	if ((size_t)n > size) {
		fn(arg, buf, size, MSG_TRUNC);
		return 0;
	}
	tsnl_walk(buf, (size_t)n, find_ack, w);
	if (!w->found)
		fn(arg, buf, (size_t)n, 0);	/* a record, or noise to count */
	return w->found;
}

static int wait_ack(struct tsnl_conn *c, unsigned seq, int timeout_ms,
		    tsnl_datagram_fn fn, void *arg)
{
	static char buf[65536];
	double deadline = mono_s() + timeout_ms / 1000.0;
	struct ack_wait w = { c, seq, 0, 0 };

	for (;;) {
		struct pollfd p = { .fd = c->fd, .events = POLLIN };
		long left = (long)((deadline - mono_s()) * 1000);

		if (left <= 0)
			return -ETIMEDOUT;
		if (poll(&p, 1, (int)left) < 0 && errno != EINTR)
			return -errno;
		if (recv_one(&w, buf, sizeof(buf), fn, arg))
			return w.err;
	}
}

static int cpumask_request(struct tsnl_conn *c, int attr, const char *cpulist,
			   int timeout_ms, tsnl_datagram_fn fn, void *arg)
{
	unsigned seq = 0;
	int r;

	c->ack_msg[0] = '\0';
	r = send_cpumask(c, attr, cpulist, &seq);
	if (r < 0)
		return r;
	return wait_ack(c, seq, timeout_ms, fn, arg);
}

int tsnl_register(struct tsnl_conn *c, const char *cpulist, int timeout_ms,
		  tsnl_datagram_fn fn, void *arg)
{
	return cpumask_request(c, TASKSTATS_CMD_ATTR_REGISTER_CPUMASK, cpulist,
			       timeout_ms, fn, arg);
}

int tsnl_deregister(struct tsnl_conn *c, const char *cpulist, int timeout_ms,
		    tsnl_datagram_fn fn, void *arg)
{
	return cpumask_request(c, TASKSTATS_CMD_ATTR_DEREGISTER_CPUMASK,
			       cpulist, timeout_ms, fn, arg);
}
