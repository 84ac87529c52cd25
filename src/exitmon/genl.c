/* Family resolution and listener (de)registration over libnl-genl. */
#include "genl.h"
#include "clock.h"

#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "record.h"

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif
#ifndef NETLINK_CAP_ACK
#define NETLINK_CAP_ACK 10
#endif

int ts_open(struct ts_conn *c)
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
	/* Short acks that carry the kernel's explanation of a failure. */
	setsockopt(c->fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	setsockopt(c->fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	c->family = genl_ctrl_resolve(c->sk, "TASKSTATS");
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

void ts_close(struct ts_conn *c)
{
	if (c->sk)
		nl_socket_free(c->sk);
	c->sk = NULL;
	c->fd = -1;
}

static int send_cpumask(struct ts_conn *c, int attr, const char *cpulist,
			unsigned *seq)
{
	struct nl_msg *msg = nlmsg_alloc();
	int r = -ENOMEM;

	if (!msg)
		return r;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, c->family, 0,
			 NLM_F_ACK, TS_CMD_GET, 1) ||
	    nla_put_string(msg, attr, cpulist) < 0)
		goto out;
	r = nl_send_auto(c->sk, msg);
	r = r < 0 ? -EIO : 0;
	*seq = nlmsg_hdr(msg)->nlmsg_seq;
out:
	nlmsg_free(msg);
	return r;
}

/* The extended-ack message attribute, if the kernel sent one. */
static void read_ack_msg(struct ts_conn *c, const struct nlmsghdr *nh)
{
	const struct nlmsgerr *e = NLMSG_DATA(nh);
	size_t off = NLMSG_HDRLEN + sizeof(*e), end = nh->nlmsg_len;

	c->ack_msg[0] = '\0';
	if (!(nh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (!(nh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	while (off + NLA_HDRLEN <= end) {
		const struct nlattr *a = (const void *)((const char *)nh + off);

		if (a->nla_len < NLA_HDRLEN || off + a->nla_len > end)
			return;
		if (a->nla_type == NLMSGERR_ATTR_MSG) {
			size_t n = a->nla_len - NLA_HDRLEN;

			if (n >= sizeof(c->ack_msg))
				n = sizeof(c->ack_msg) - 1;
			memcpy(c->ack_msg, (const char *)a + NLA_HDRLEN, n);
			c->ack_msg[n] = '\0';
			return;
		}
		off += NLA_ALIGN(a->nla_len);
	}
}

/* One datagram: returns 1 and sets *err if it held our answer, else 0. */
static int scan_datagram(struct ts_conn *c, unsigned seq, const char *buf,
			 size_t len, int flags, int *err, ts_msg_fn fn, void *arg)
{
	const struct nlmsghdr *nh = (const void *)buf;
	size_t left = len;
	int found = 0;

	if (len < NLMSG_HDRLEN || nh->nlmsg_type != NLMSG_ERROR ||
	    nh->nlmsg_seq != seq) {
		fn(arg, buf, len, flags);	/* a record, or noise to count */
		return 0;
	}
	for (; NLMSG_OK(nh, left); nh = NLMSG_NEXT(nh, left)) {
		if (nh->nlmsg_type == NLMSG_ERROR && nh->nlmsg_seq == seq &&
		    nh->nlmsg_len >= NLMSG_HDRLEN + sizeof(struct nlmsgerr)) {
			*err = ((const struct nlmsgerr *)NLMSG_DATA(nh))->error;
			if (*err)
				read_ack_msg(c, nh);
			found = 1;
		}
	}
	return found;
}

static int wait_ack(struct ts_conn *c, unsigned seq, int timeout_ms,
		    ts_msg_fn fn, void *arg)
{
	static char buf[65536];
	double deadline = mono_s() + timeout_ms / 1000.0;
	int err = 0;

	for (;;) {
		struct pollfd p = { .fd = c->fd, .events = POLLIN };
		long left = (long)((deadline - mono_s()) * 1000);
		ssize_t n;

		if (left <= 0)
			return -ETIMEDOUT;
		if (poll(&p, 1, (int)left) < 0 && errno != EINTR)
			return -errno;
		n = recv(c->fd, buf, sizeof(buf), MSG_DONTWAIT | MSG_TRUNC);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			if (errno == ENOBUFS) {	/* records lost: caller counts */
				fn(arg, NULL, 0, -ENOBUFS);
				continue;
			}
			return -errno;
		}
		if ((size_t)n > sizeof(buf)) {
			fn(arg, buf, sizeof(buf), MSG_TRUNC);
			continue;
		}
		if (scan_datagram(c, seq, buf, (size_t)n, 0, &err, fn, arg))
			return err;
	}
}

static int cpumask_request(struct ts_conn *c, int attr, const char *cpulist,
			   int timeout_ms, ts_msg_fn fn, void *arg)
{
	unsigned seq = 0;
	int r;

	c->ack_msg[0] = '\0';
	r = send_cpumask(c, attr, cpulist, &seq);
	if (r < 0)
		return r;
	return wait_ack(c, seq, timeout_ms, fn, arg);
}

int ts_register(struct ts_conn *c, const char *cpulist, int timeout_ms,
		ts_msg_fn fn, void *arg)
{
	return cpumask_request(c, TS_CMD_ATTR_REGISTER_CPUMASK, cpulist,
			       timeout_ms, fn, arg);
}

int ts_deregister(struct ts_conn *c, const char *cpulist, int timeout_ms,
		  ts_msg_fn fn, void *arg)
{
	return cpumask_request(c, TS_CMD_ATTR_DEREGISTER_CPUMASK, cpulist,
			       timeout_ms, fn, arg);
}
