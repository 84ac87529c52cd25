/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Raw netlink captures (--capture, --replay) in pcap format with link type
 * LINKTYPE_NETLINK (253): each packet is one netlink message as the kernel
 * sent it, so tcpdump/wireshark can read the same file. */
#ifndef COMMON_CAPTURE_H
#define COMMON_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <stdio.h>
#include <time.h>

#define CAPTURE_LINKTYPE_NETLINK 253
#define CAPTURE_SNAPLEN 65535

struct capture_writer;
struct capture_reader;

/* Open for appending (symlink-safe, mode 0640 minus the umask); writes the
 * pcap header when the file is new or empty.  0, -EINVAL when an existing
 * file is not a netlink pcap, or -errno. */
int capture_open(const char *path, struct capture_writer **out);
/* The file written (same-file checks); true if this run created it. */
bool capture_identity(const struct capture_writer *w, dev_t *dev, ino_t *ino);

/* Whole pcap records (header and message) staged by one writer thread (a
 * collector owns one) and appended in one write per chunk: one syscall
 * and one lock per chunk instead of per packet.  A chunk is all or
 * nothing: a short write (disk full) is cut back off the file, and every
 * packet in it is lost. */
struct capture_stage {
	unsigned char *buf;
	size_t len, cap;
	uint64_t packets;	/* whole packets in buf */
};

/* A stage of cap bytes; 0 or -ENOMEM. */
int capture_stage_init(struct capture_stage *s, size_t cap);
void capture_stage_free(struct capture_stage *s);
/* Stage one message stamped ts (cut to CAPTURE_SNAPLEN), writing what is
 * staged first when it would not fit; a message larger than the whole
 * stage is written alone.  The number of packets lost on the way. */
uint64_t capture_stage(struct capture_writer *w, struct capture_stage *s,
		       const void *msg, size_t len, const struct timespec *ts);
/* Append what is staged in one write and empty the stage; the number of
 * packets lost (all of the chunk's, or 0). */
uint64_t capture_flush(struct capture_writer *w, struct capture_stage *s);
/* -errno of the last failed write, 0 once a write works again. */
int capture_error(const struct capture_writer *w);
void capture_close(struct capture_writer *w);

/* Whether the first n bytes of a file are a capture: NULL when they are
 * not a pcap at all; "" (in buf) when this reader reads it (a pcap of
 * netlink messages in this machine's byte order, microsecond or
 * nanosecond timestamps); else what it is, in words, for a message
 * (pcapng, the other byte order, a cut-short header, another link type). */
const char *capture_sniff(const void *head, size_t n, char *buf, size_t cap);

/* Read path ("-": standard input): 0 ok; -EINVAL not a pcap of link type
 * 253; -errno.  exitmon --replay and exitstat read captures through this
 * one reader, so both count and pass over damage alike. */
int capture_read_open(const char *path, struct capture_reader **out);
/* The same over an open stream (a pipe, a decompressor); the reader owns
 * f and closes it, also on failure. */
int capture_read_stream(FILE *f, struct capture_reader **out);
/* 1 with msg and len set (valid until the next call), 0 at the end,
 * -EMSGSIZE for a packet larger than CAPTURE_SNAPLEN (within the file's
 * snaplen) that was skipped (reading goes on; count it truncated),
 * -ENOMSG for an empty packet (reading goes on; count it malformed),
 * -EBADMSG for a last packet cut short (the end).
 *
 * A record header that cannot be true is damage, not the end: a length
 * above the file's snaplen or above the packet's original length, one
 * that runs past the end of the stream over whole packets, or over a
 * plausible packet inside what it claims.  The reader passes over it to
 * the next plausible record header (sane lengths and time fraction, a
 * payload of netlink messages that fills it, a time near the last good
 * record's or a sane header after it), counts what it skipped
 * (capture_read_damage) and goes on. */
int capture_read_next(struct capture_reader *r, const void **msg, size_t *len);
/* The timestamp of the packet capture_read_next returned last (the same
 * place for the reader's life, updated by each call that reaches a
 * packet, not by damage passed over): to the microsecond, or from a
 * nanosecond pcap to the nanosecond, each capture joined by cat in its
 * own file header's unit; a sub-second part out of range reads as 0. */
const struct timespec *capture_read_time(const struct capture_reader *r);

/* Damage passed over so far. */
struct capture_damage {
	uint64_t spans;		/* damaged stretches */
	uint64_t bytes;		/* bytes passed over in them */
	uint64_t first_at;	/* the first one's byte offset in the stream */
	const char *first_why;	/* what its record header got wrong */
};
const struct capture_damage *capture_read_damage(const struct capture_reader *r);
/* The damage in one line for a note (after "FILE: "), into buf. */
const char *capture_damage_say(const struct capture_damage *d, char *buf,
			       size_t cap);
void capture_read_close(struct capture_reader *r);

#endif
