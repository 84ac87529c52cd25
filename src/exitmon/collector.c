// SPDX-License-Identifier: GPL-2.0-or-later
/* Raw datagrams in, counted records out. */
#include "collector.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "capture.h"
#include "log.h"
#include "receiver.h"
#include "tsnl.h"

/* Staged output is pushed in chunks of about this size. */
#define STAGE_PUSH (128 * 1024)
#define STAGE_CAP (STAGE_PUSH + FORMAT_MAX_LINE)
/* Captured packets are written in chunks of at most this size (a packet
 * is at most CAPTURE_SNAPLEN, so one always fits an empty stage). */
#define CAPTURE_STAGE_CAP (128 * 1024)

int collector_capture_to(struct collector *c, struct capture_writer *cap)
{
	c->w.cap = cap;
	if (!cap || c->cap_stage.buf)
		return 0;
	return capture_stage_init(&c->cap_stage, CAPTURE_STAGE_CAP);
}

int collector_init(struct collector *c, const struct collector_setup *w)
{
	memset(c, 0, sizeof(*c));
	c->w = *w;
	if (w->run) {
		memcpy(c->meta.run, w->run, REC_RUN_HEX);
		c->meta.has = REC_META_RUN | REC_META_SEQ | REC_META_TIME;
	}
	if (w->metrics) {
		c->acct = malloc(sizeof(*c->acct));
		if (!c->acct || acct_init(c->acct, w->metrics_commands) < 0) {
			free(c->acct);
			c->acct = NULL;
			return -ENOMEM;
		}
	}
	c->stage = malloc(STAGE_CAP);
	c->stage_len = 0;
	c->stage_lines = 0;
	if (!c->stage)
		return -ENOMEM;
	return collector_capture_to(c, w->cap);
}

void collector_free(struct collector *c)
{
	free(c->stage);
	c->stage = NULL;
	if (c->acct)
		acct_free(c->acct);
	free(c->acct);
	c->acct = NULL;
	capture_stage_free(&c->cap_stage);
}

void collector_push(struct collector *c)
{
	if (c->w.cap)
		c->n.capture_errors += capture_flush(c->w.cap, &c->cap_stage);
	if (c->w.out && c->stage_lines)
		output_put(c->w.out, c->stage, c->stage_len, c->stage_lines);
	c->stage_len = 0;
	c->stage_lines = 0;
}

bool collector_done(const struct collector *c)
{
	return c->w.limit && atomic_load(c->w.taken) >= c->w.limit;
}

/* --metrics: a pid record that passed the filters, counted (acct.h). */
static void account(struct collector *c, const struct exit_view *r)
{
	bool bad = c->implausible;

	if (!c->w.metrics_locked) {
		acct_add(c->acct, r, bad);
		return;
	}
	pthread_mutex_lock(&c->acct->lock);
	acct_add(c->acct, r, bad);
	pthread_mutex_unlock(&c->acct->lock);
}

/* who: the pid record of r's message, whose identity a tgid record has. */
static void emit(struct collector *c, const struct exit_view *r,
		 const struct exit_view *who)
{
	size_t n;

	if (!filter_match_view(c->w.filter, r, who)) {
		c->n.filtered++;
		return;
	}
	/* --count: exactly `limit` records are written, across all shards;
	 * those that come while the shards stop are counted apart. */
	if (c->w.limit && atomic_fetch_add(c->w.taken, 1) >= c->w.limit) {
		c->n.after_count++;
		return;
	}
	c->n.matched++;
	if (c->acct && r->type == REC_PID)
		account(c, r);
	if (!c->w.out)
		return;
	/* seq: every record given to the output takes the next number of the
	 * run, so that the numbers 1 .. last are exactly the records counted
	 * written or unwritten, and a number missing from the output is a
	 * record counted unwritten (a gap), never a number used twice.  One
	 * relaxed atomic add on a counter the shards share; each shard's
	 * lines reach the output in its numbers' order (see exitmon(8)). */
	c->meta.seq = atomic_fetch_add_explicit(c->w.seq, 1,
						memory_order_relaxed) + 1;
	/* The null device: counted as written, not formatted (the output
	 * writes nothing for these lines). */
	if (output_discards(c->w.out)) {
		c->stage_lines++;
		return;
	}
	/* Format from the kernel's bytes straight into the stage: no
	 * normalised record, no copy per record. */
	n = format_view_cols(c->w.out->fmt, c->w.out->cols, r,
			     c->stage + c->stage_len, STAGE_CAP - c->stage_len);
	if (n >= STAGE_CAP - c->stage_len) {
		output_lost(c->w.out, 1);	/* cannot happen: lines are bounded */
		return;
	}
	c->stage_len += n;
	c->stage_lines++;
	if (c->stage_len >= STAGE_PUSH)
		collector_push(c);
}

/* A thread of exitmon itself (a receive thread at shutdown, the
 * self-check's thread): not a workload's exit. */
static bool is_own_exit(const struct collector *c, const struct exit_view *pid)
{
	uint32_t tgid;

	if (c->watch_tid && pid->id == (uint32_t)c->watch_tid)
		return true;
	return c->w.self_tgid && view_tgid(pid, &tgid) &&
	       tgid == (uint32_t)c->w.self_tgid;
}

/* Said once per process, whichever shard meets it first: the summary's
 * newer_struct counts every such record. */
static void note_unknown_fields(const struct exit_view *r)
{
	static atomic_flag said = ATOMIC_FLAG_INIT;

	if (atomic_flag_test_and_set(&said))
		return;
	log_warn("the kernel sends struct taskstats version %u of %u bytes; this "
		"exitmon knows the fields of versions up to %u (%zu bytes) and "
		"does not write the rest (counted as newer_struct); a newer "
		"exitmon may know them", r->version, r->stats_len,
		TS_KNOWN_VERSION, record_struct_size(TS_KNOWN_VERSION));
}

static void handle_msg(void *arg, const struct nlmsghdr *nh)
{
	struct collector *c = arg;
	struct exit_views m;
	unsigned i;
	int r;

	r = record_view_nlmsg(nh, nh->nlmsg_len, &m);
	/* Another command's, or (one that is no exit record, of another
	 * type than the last one's) another family's message: counted
	 * apart, not as a bad exit record. */
	if (r == -ENOMSG || (r < 0 && tsnl_family_other(&c->family, nh))) {
		c->n.other++;
		return;
	}
	if (r < 0) {
		c->n.malformed++;
		return;
	}
	tsnl_family_learn(&c->family, nh);
	c->n.malformed += m.tgid_malformed;	/* its pid record is kept */
	if (is_own_exit(c, &m.rec[0])) {
		c->n.self_exits++;	/* counted, kept out of the records */
		if (c->watch_tid && m.rec[0].id == (uint32_t)c->watch_tid)
			c->watch_seen = true;	/* the self-check's thread */
		return;
	}
	c->last_version = m.rec[0].version;
	for (i = 0; i < m.n; i++) {
		m.rec[i].meta = &c->meta;
		c->n.records++;
		if (m.rec[i].type == REC_PID) {
			c->n.records_pid++;
			c->implausible = record_view_implausible(&m.rec[i]);
			c->n.implausible += c->implausible;
		} else
			c->n.records_tgid++;
		if (record_view_unknown_fields(&m.rec[i])) {
			c->n.newer_struct++;
			note_unknown_fields(&m.rec[i]);
		}
		emit(c, &m.rec[i], &m.rec[0]);
	}
}

static void capture(struct collector *c, const void *msg, size_t len,
		    const struct timespec *ts)
{
	c->n.capture_errors += capture_stage(c->w.cap, &c->cap_stage, msg,
					     len, ts);
}

void collector_datagram(void *arg, const void *msg, size_t len, int flags)
{
	struct collector *c = arg;
	struct timespec now;
	const struct timespec *ts = c->recv_time;
	int r;

	if (flags == -ENOBUFS) {
		c->n.enobufs++;
		return;
	}
	if (!ts) {
		receiver_stamp(&now);
		ts = &now;
	}
	/* time_ns of the datagram's records (the clock and a pcap give no
	 * time before the epoch). */
	c->meta.time_ns = (uint64_t)ts->tv_sec * 1000000000u + (uint64_t)ts->tv_nsec;
	if (c->w.cap)
		capture(c, msg, len, ts);
	if (flags & MSG_TRUNC) {
		c->n.truncated++;
		return;
	}
	/* A datagram may hold several netlink messages; bytes after the last
	 * whole one are not a message (the ones before were read). */
	r = tsnl_walk(msg, len, handle_msg, c);
	if (r < 0)
		c->n.malformed++;
	else if (r > 0)
		c->n.trailing++;
}
