/* Raw datagrams in, counted records out. */
#include "collect.h"

#include <errno.h>
#include <linux/netlink.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "capture.h"

bool collector_done(const struct collector *c)
{
	return c->limit && c->n.matched >= c->limit;
}

static void emit(struct collector *c, const struct exit_record *r)
{
	size_t n;

	if (!filter_match(c->filter, r)) {
		c->n.filtered++;
		return;
	}
	if (collector_done(c))
		return;		/* --count reached: counted, not written */
	c->n.matched++;
	if (!c->out)
		return;
	n = format_record(c->out->fmt, r, c->line, sizeof(c->line));
	if (n < sizeof(c->line))
		output_line(c->out, c->line, n);
	else
		c->out->unwritten++;	/* cannot happen: lines are bounded */
}

static void handle_msg(struct collector *c, const void *msg, size_t len)
{
	struct exit_msg m;
	unsigned i;
	int r = record_parse_nlmsg(msg, len, &m);

	if (r == -ENOMSG) {
		c->n.other++;
		return;
	}
	if (r < 0) {
		c->n.malformed++;
		return;
	}
	if (c->watch_tid && m.rec[0].id == (uint32_t)c->watch_tid) {
		c->watch_seen = true;	/* our own self-check thread */
		return;
	}
	c->last_version = m.rec[0].version;
	for (i = 0; i < m.n; i++) {
		c->n.records++;
		if (m.rec[i].type == REC_PID)
			c->n.records_pid++;
		else
			c->n.records_tgid++;
		emit(c, &m.rec[i]);
	}
}

static void capture(struct collector *c, const void *msg, size_t len)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	if (capture_write(c->cap, msg, len, &ts) < 0)
		c->n.capture_errors++;
}

void collector_datagram(void *arg, const void *msg, size_t len, int flags)
{
	struct collector *c = arg;
	const unsigned char *p = msg;

	if (flags == -ENOBUFS) {
		c->n.enobufs++;
		return;
	}
	if (c->cap)
		capture(c, msg, len);
	if (flags & MSG_TRUNC) {
		c->n.truncated++;
		return;
	}
	/* A datagram may hold several netlink messages. */
	while (len >= NLMSG_HDRLEN) {
		struct nlmsghdr nh;

		memcpy(&nh, p, sizeof(nh));
		if (nh.nlmsg_len < NLMSG_HDRLEN || nh.nlmsg_len > len) {
			c->n.malformed++;
			return;
		}
		handle_msg(c, p, nh.nlmsg_len);
		if (NLMSG_ALIGN(nh.nlmsg_len) >= len)
			return;
		p += NLMSG_ALIGN(nh.nlmsg_len);
		len -= NLMSG_ALIGN(nh.nlmsg_len);
	}
	if (len)
		c->n.malformed++;
}
