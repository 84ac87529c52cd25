/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The taskstats generic netlink family, in one vocabulary over libnl:
 * resolving the family, registering and deregistering a listener, waiting
 * for the kernel's ack (with its extended-ack text), walking the netlink
 * messages of a datagram and parsing attributes into a table indexed by
 * type.  Constants are the kernel's own (<linux/taskstats.h>).
 *
 * Nothing from the kernel is trusted: every length is checked, and a bad
 * one makes the call return -EBADMSG for the caller to count. */
#ifndef COMMON_TSNL_H
#define COMMON_TSNL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>
#include <netlink/attr.h>

/* --- messages (no socket needed) --- */

/* Called with each whole netlink message of a datagram. */
typedef void (*tsnl_msg_fn)(void *arg, const struct nlmsghdr *nh);

/* Call fn for every netlink message in buf[0..len).  Returns 0; the
 * number of bytes after the last whole message that are none (a header
 * cut short or claiming more than is left: the messages before were
 * delivered, the rest is no message to count malformed); or -EBADMSG
 * when buf holds no whole message at all. */
int tsnl_walk(const void *buf, size_t len, tsnl_msg_fn fn, void *arg);

/* The generic netlink family of a stream's exit records: a capture does
 * not say which id the kernel gave taskstats (and one appended to across
 * boots has several), so it is the type of the last message that parsed
 * as exit records; 0 before any.  A message that does not parse, of
 * another type (not a netlink control message), is another family's,
 * not a malformed exit record. */
struct tsnl_family {
	uint16_t type;
};

static inline bool tsnl_family_other(const struct tsnl_family *f,
				     const struct nlmsghdr *nh)
{
	return f->type && nh->nlmsg_type != f->type &&
	       nh->nlmsg_type >= NLMSG_MIN_TYPE;
}

/* nh parsed as exit records. */
static inline void tsnl_family_learn(struct tsnl_family *f,
				     const struct nlmsghdr *nh)
{
	f->type = nh->nlmsg_type;
}

/* One generic netlink message in msg[0..len): 0 with its command and
 * attributes, -EBADMSG when a header is cut short or lies about its
 * length, -ENOMSG for a control message (error, done, noop, overrun). */
int tsnl_genl_msg(const void *msg, size_t len, uint8_t *cmd,
		  const struct nlattr **attrs, size_t *attrs_len);

/* Parse the attributes in head[0..len) into tb[0..maxtype] (nla_parse
 * with policy: types above maxtype are skipped, later kernels may add
 * them).  Stricter than nla_parse: an attribute that fails the policy,
 * one cut short, bytes left over and a repeated type (padding,
 * TASKSTATS_TYPE_NULL, aside) are -EBADMSG.  Returns 0 or -EBADMSG. */
int tsnl_attrs(struct nlattr *tb[], int maxtype, const void *head,
	       size_t len, const struct nla_policy *policy);

/* Attribute a's payload and its length (inline: nla_data and nla_len
 * are calls into libnl, and this is the per-record path). */
static inline const void *tsnl_data(const struct nlattr *a)
{
	return (const unsigned char *)a + NLA_HDRLEN;
}

static inline size_t tsnl_len(const struct nlattr *a)
{
	return (size_t)a->nla_len - NLA_HDRLEN;
}

/* If nh is the ack (NLMSG_ERROR) of request `seq`: 1, with the kernel's
 * -errno (0: success) in *err and its extended-ack text, if any, in text
 * (NUL-terminated, cut to size); else 0. */
int tsnl_ack(const struct nlmsghdr *nh, unsigned seq, int *err, char *text,
	     size_t size);

/* The payload of attribute a, read whatever its alignment. */
static inline uint32_t tsnl_u32(const struct nlattr *a)
{
	uint32_t v;

	__builtin_memcpy(&v, (const unsigned char *)a + NLA_HDRLEN, sizeof(v));
	return v;
}

/* --- the listener socket --- */

struct nl_sock;

/* Called for every datagram that is not the answer being waited for.
 * flags: MSG_TRUNC when it did not fit (len is what we got); -ENOBUFS
 * (msg NULL) for a loss episode. */
typedef void (*tsnl_datagram_fn)(void *arg, const void *msg, size_t len,
				 int flags);

struct tsnl_conn {
	struct nl_sock *sk;
	int fd;
	int family;
	char ack_msg[256];	/* kernel's extended-ack text of the last error */
};

/* 0, -ENOENT (no TASKSTATS family: CONFIG_TASKSTATS off), -errno. */
int tsnl_open(struct tsnl_conn *c);
void tsnl_close(struct tsnl_conn *c);

/* Register (or deregister) the socket as listener for `cpulist`.  Waits at
 * most timeout_ms for the kernel's ack; records arriving meanwhile go to
 * fn, never dropped.  Returns 0 or the kernel's -errno (ack_msg then holds
 * its extended-ack message, if any). */
int tsnl_register(struct tsnl_conn *c, const char *cpulist, int timeout_ms,
		  tsnl_datagram_fn fn, void *arg);
int tsnl_deregister(struct tsnl_conn *c, const char *cpulist, int timeout_ms,
		    tsnl_datagram_fn fn, void *arg);

#endif
