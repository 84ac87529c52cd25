// SPDX-License-Identifier: GPL-2.0-or-later
/* pcap files of raw netlink messages (LINKTYPE_NETLINK). */
#include "capture.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "safe.h"

#define PCAP_MAGIC 0xa1b2c3d4u	/* microsecond timestamps, native order */
#define PCAP_MAGIC_NS 0xa1b23c4du	/* nanosecond timestamps (editcap, tcpdump) */
#define PCAPNG_MAGIC 0x0a0d0d0au

struct pcap_file_hdr {
	uint32_t magic;
	uint16_t major, minor;
	int32_t thiszone;
	uint32_t sigfigs, snaplen, linktype;
};

struct pcap_rec_hdr {
	uint32_t ts_sec, ts_usec, incl_len, orig_len;
};

struct capture_writer {
	int fd;
	pthread_mutex_t lock;	/* one chunk at a time (write_whole) */
	int last_err;		/* -errno of the last write, 0 if it worked */
	bool created;		/* this run created the file */
	dev_t dev;
	ino_t ino;
};

static int write_all(int fd, const void *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p = (const char *)p + w;
		n -= (size_t)w;
	}
	return 0;
}

/* Appending to a file is only safe when it is one of ours: a netlink pcap
 * in this byte order. */
static int check_existing(int fd)
{
	struct pcap_file_hdr h;

	if (pread(fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h) ||
	    h.magic != PCAP_MAGIC || h.linktype != CAPTURE_LINKTYPE_NETLINK)
		return -EINVAL;
	return 0;
}

int capture_open(const char *path, struct capture_writer **out)
{
	struct pcap_file_hdr h = { PCAP_MAGIC, 2, 4, 0, 0, CAPTURE_SNAPLEN,
				   CAPTURE_LINKTYPE_NETLINK };
	struct capture_writer *w;
	struct stat st;
	int r;

	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	pthread_mutex_init(&w->lock, NULL);
	/* Read as well as append: an existing file's header is checked. */
	w->fd = safe_open(path, O_RDWR | O_CREAT | O_APPEND, SAFE_MODE_RECORDS,
			  &w->created);
	if (w->fd < 0) {
		r = w->fd;
		goto fail;
	}
	if (fstat(w->fd, &st) < 0) {
		r = -errno;
		goto fail;
	}
	w->dev = st.st_dev;
	w->ino = st.st_ino;
	if (st.st_size == 0)
		r = write_all(w->fd, &h, sizeof(h));
	else
		r = S_ISREG(st.st_mode) ? check_existing(w->fd) : 0;
	if (r < 0)
		goto fail;
	*out = w;
	return 0;
fail:
	if (w->fd >= 0)
		close(w->fd);
	free(w);
	return r;
}

bool capture_identity(const struct capture_writer *w, dev_t *dev, ino_t *ino)
{
	*dev = w->dev;
	*ino = w->ino;
	return w->created;
}

/* Shards write from their own threads; the main thread reports. */
static int set_error(struct capture_writer *w, int err)
{
	__atomic_store_n(&w->last_err, err, __ATOMIC_RELAXED);
	return err;
}

/* A pcap record header for len bytes of message stamped ts. */
static struct pcap_rec_hdr rec_hdr(size_t len, const struct timespec *ts)
{
	struct pcap_rec_hdr h;

	h.ts_sec = (uint32_t)ts->tv_sec;
	h.ts_usec = (uint32_t)(ts->tv_nsec / 1000);
	h.incl_len = h.orig_len = (uint32_t)len;
	return h;
}

/* One writev of whole packets with O_APPEND: a SIGKILL leaves whole
 * packets; a short write (disk full) is cut back to where it began, so
 * none of them is in the file.  0 when all `want` bytes were written. */
static int write_whole(struct capture_writer *w, const struct iovec *iov,
		       int iovcnt, size_t want)
{
	ssize_t n;
	off_t before;
	int r;

	/* Shards write from their own threads: the end-of-file offset and
	 * the cut-back must not interleave with another shard's chunk. */
	pthread_mutex_lock(&w->lock);
	before = lseek(w->fd, 0, SEEK_END);
	n = writev(w->fd, iov, iovcnt);
	if (n == (ssize_t)want)
		r = 0;
	else if (n >= 0 && before >= 0 && ftruncate(w->fd, before) < 0)
		r = -errno;
	else
		r = n < 0 ? -errno : -ENOSPC;
	pthread_mutex_unlock(&w->lock);
	return set_error(w, r);
}

/* A packet that does not fit an empty stage, written alone. */
static int write_alone(struct capture_writer *w, const void *msg, size_t len,
		       const struct timespec *ts)
{
	struct pcap_rec_hdr h = rec_hdr(len, ts);
	struct iovec iov[2] = { { &h, sizeof(h) }, { (void *)msg, len } };

	return write_whole(w, iov, 2, sizeof(h) + len);
}

int capture_stage_init(struct capture_stage *s, size_t cap)
{
	s->len = 0;
	s->packets = 0;
	s->cap = cap;
	s->buf = malloc(cap);
	return s->buf ? 0 : -ENOMEM;
}

void capture_stage_free(struct capture_stage *s)
{
	free(s->buf);
	s->buf = NULL;
	s->cap = s->len = 0;
	s->packets = 0;
}

uint64_t capture_flush(struct capture_writer *w, struct capture_stage *s)
{
	struct iovec iov = { s->buf, s->len };
	uint64_t lost = 0;

	if (s->len && write_whole(w, &iov, 1, s->len) < 0)
		lost = s->packets;	/* the whole chunk was cut back */
	s->len = 0;
	s->packets = 0;
	return lost;
}

uint64_t capture_stage(struct capture_writer *w, struct capture_stage *s,
		       const void *msg, size_t len, const struct timespec *ts)
{
	struct pcap_rec_hdr h;
	uint64_t lost = 0;

	if (len > CAPTURE_SNAPLEN)
		len = CAPTURE_SNAPLEN;
	if (s->len + sizeof(h) + len > s->cap)
		lost = capture_flush(w, s);
	if (sizeof(h) + len > s->cap)
		return lost + (write_alone(w, msg, len, ts) < 0);
	h = rec_hdr(len, ts);
	memcpy(s->buf + s->len, &h, sizeof(h));
	memcpy(s->buf + s->len + sizeof(h), msg, len);
	s->len += sizeof(h) + len;
	s->packets++;
	return lost;
}

int capture_error(const struct capture_writer *w)
{
	return __atomic_load_n(&w->last_err, __ATOMIC_RELAXED);
}

void capture_close(struct capture_writer *w)
{
	if (!w)
		return;
	close(w->fd);
	pthread_mutex_destroy(&w->lock);
	free(w);
}

/* ---- reading: one record after another, resynchronising past damage ---- */

/* The largest snaplen a reader believes (libpcap's for netlink): a file
 * header that gives 0 or more is read as this. */
#define SNAPLEN_MAX (256u * 1024)
#define REC_HDR ((size_t)sizeof(struct pcap_rec_hdr))
/* The window holds a record of SNAPLEN_MAX and the header after it from
 * any place a search has reached (up to SEARCH_SLIDE bytes on): a record
 * is judged by what follows it. */
#define SEARCH_SLIDE (SNAPLEN_MAX + 64)
#define WIN_CAP (SEARCH_SLIDE + SNAPLEN_MAX + 4 * REC_HDR + 8)
/* Read at least this much at a time: fread waits for all of it or the
 * end, so a pipe's packets come in steps of this size. */
#define READ_CHUNK (64u * 1024)
/* A record found by resynchronising is timed within a day before the
 * last good one or a year after it (a capture appended to later); else
 * the header after it must be sane too. */
#define TS_BEFORE (24u * 3600)
#define TS_AFTER (366u * 24 * 3600)
/* A datagram of the kernel holds a few messages: a longer walk is not
 * one (and it bounds the work per byte searched). */
#define WALK_MAX 64

struct capture_reader {
	FILE *f;
	unsigned char *win;	/* WIN_CAP bytes, unread ones at [pos, end) */
	size_t pos, end;
	uint64_t base;		/* the stream offset of win[0] */
	bool eof;
	uint32_t snaplen;	/* the file header's, made sensible */
	uint32_t frac_max;	/* 1e6 (microseconds) or 1e9 (nanoseconds) */
	bool have_ts;
	uint32_t last_sec;	/* of the last record read with a sane time */
	struct timespec when;	/* the last packet's (capture_read_time) */
	struct capture_damage dmg;
	/* A packet not 4-byte aligned in the window (after a length that is
	 * not a multiple of 4, or damage) is handed out from here: netlink
	 * headers are read in place. */
	unsigned char pkt[CAPTURE_SNAPLEN];
};

/* Make n bytes from pos available if the stream has them (n is at most
 * what the window holds from pos once slid): how many are. */
static size_t have(struct capture_reader *r, size_t n)
{
	if (r->end - r->pos >= n || r->eof)
		return r->end - r->pos;
	if (r->pos + n > WIN_CAP) {
		/* Slide the unread bytes to the front, as aligned as they
		 * were: a packet is handed out where it lies when aligned. */
		size_t to = r->pos & 7;

		memmove(r->win + to, r->win + r->pos, r->end - r->pos);
		r->base += r->pos - to;
		r->end -= r->pos - to;
		r->pos = to;
	}
	while (r->end - r->pos < n && r->end < WIN_CAP && !r->eof) {
		size_t want = r->pos + n - r->end, got;

		if (want < READ_CHUNK)
			want = READ_CHUNK;
		if (want > WIN_CAP - r->end)
			want = WIN_CAP - r->end;
		got = fread(r->win + r->end, 1, want, r->f);
		r->end += got;
		if (got < want)
			r->eof = true;	/* the end, or a read error: both end it */
	}
	return r->end - r->pos;
}

static struct pcap_rec_hdr hdr_at(const struct capture_reader *r, size_t at)
{
	struct pcap_rec_hdr h;

	memcpy(&h, r->win + r->pos + at, sizeof(h));
	return h;
}

/* What is impossible in a header's lengths: more than the file's
 * snaplen, or more than the packet was; NULL when neither. */
static const char *lengths_lie(const struct capture_reader *r,
			       const struct pcap_rec_hdr *h)
{
	if (h->incl_len > r->snaplen)
		return "its length is above the file's snaplen";
	if (h->incl_len > h->orig_len)
		return "its captured length is above the packet's original length";
	return NULL;
}

/* Whether the netlink messages in p[0..n) fill a packet of `whole`
 * bytes (n < whole: it was cut to the snaplen), each length within it,
 * the last one's padding optional. */
static bool nl_fills(const unsigned char *p, size_t n, size_t whole)
{
	size_t off = 0;
	unsigned k = 0;

	while (off + NLMSG_HDRLEN <= n) {
		uint32_t len;

		memcpy(&len, p + off, sizeof(len));
		if (len < NLMSG_HDRLEN || len > whole - off || ++k > WALK_MAX)
			return false;
		off += NLMSG_ALIGN(len);
	}
	return off >= n;
}

/* Whether sec is near the time t: a day before it at most, a year after
 * it at most. */
static bool near(uint32_t t, uint32_t sec)
{
	return (uint64_t)sec + TS_BEFORE >= t && (uint64_t)sec <= (uint64_t)t + TS_AFTER;
}

/* Whether a whole packet starts `at` bytes past pos, by what it holds:
 * a sane time fraction, the same captured and original length (as
 * exitmon writes; a packet cut to the snaplen is too weak a sign), and
 * a payload of netlink messages, the first a generic netlink one, that
 * fills it.  Its header in *h. */
static bool packet_at(struct capture_reader *r, size_t at, struct pcap_rec_hdr *h)
{
	const unsigned char *p;
	struct nlmsghdr nh;
	size_t n;

	if (have(r, at + REC_HDR) < at + REC_HDR)
		return false;
	*h = hdr_at(r, at);
	if (h->ts_usec >= r->frac_max || h->incl_len != h->orig_len ||
	    h->incl_len > r->snaplen || h->incl_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return false;
	n = at + REC_HDR + h->incl_len;
	if (have(r, n) < n)
		return false;	/* a candidate is whole */
	p = r->win + r->pos + at + REC_HDR;
	memcpy(&nh, p, sizeof(nh));
	return nh.nlmsg_len >= NLMSG_HDRLEN + GENL_HDRLEN &&
	       nh.nlmsg_type >= NLMSG_MIN_TYPE && nl_fills(p, h->incl_len, h->incl_len);
}

/* Whether a plausible packet starts `at` bytes past pos: one by what it
 * holds (packet_at), timed near the last good record; or else followed
 * by another such packet timed near it, or by the end.  Damage rarely
 * passes all of these; a good packet that fails them is passed over
 * with the damage, in the count of bytes skipped. */
static bool plausible_at(struct capture_reader *r, size_t at)
{
	struct pcap_rec_hdr h, next;
	size_t n;

	if (!packet_at(r, at, &h))
		return false;
	if (r->have_ts && near(r->last_sec, h.ts_sec))
		return true;
	n = at + REC_HDR + h.incl_len;
	if (have(r, n + 1) == n)
		return true;	/* it ends the stream */
	return packet_at(r, n, &next) && near(h.ts_sec, next.ts_sec);
}

/* Damage at pos: on from `from` bytes past it to the next plausible
 * record, or to the end; counted, the first one's place and cause kept
 * for the note. */
static void resync(struct capture_reader *r, size_t from, const char *why)
{
	uint64_t at = r->base + r->pos;
	size_t skip = from;

	for (;;) {
		if (have(r, skip + REC_HDR) < skip + REC_HDR) {
			skip = r->end - r->pos;	/* no whole packet after it */
			break;
		}
		if (plausible_at(r, skip))
			break;
		if (++skip > SEARCH_SLIDE) {	/* what is searched goes */
			r->pos += skip;
			r->dmg.bytes += skip;
			skip = 0;
		}
	}
	r->pos += skip;
	r->dmg.bytes += skip;
	if (r->dmg.spans++ == 0) {
		r->dmg.first_at = at;
		r->dmg.first_why = why;
	}
}

int capture_read_stream(FILE *f, struct capture_reader **out)
{
	struct pcap_file_hdr h;
	struct capture_reader *r = calloc(1, sizeof(*r));

	if (!r || !(r->win = malloc(WIN_CAP))) {
		free(r);
		fclose(f);
		return -ENOMEM;
	}
	r->f = f;
	if (fread(&h, sizeof(h), 1, r->f) != 1 ||
	    (h.magic != PCAP_MAGIC && h.magic != PCAP_MAGIC_NS) ||
	    h.linktype != CAPTURE_LINKTYPE_NETLINK) {
		capture_read_close(r);
		return -EINVAL;
	}
	r->base = sizeof(h);
	r->snaplen = h.snaplen && h.snaplen <= SNAPLEN_MAX ? h.snaplen : SNAPLEN_MAX;
	r->frac_max = h.magic == PCAP_MAGIC_NS ? 1000000000u : 1000000u;
	*out = r;
	return 0;
}

int capture_read_open(const char *path, struct capture_reader **out)
{
	FILE *f;

	if (strcmp(path, "-") == 0) {	/* standard input, as exitstat reads it */
		int fd = fcntl(0, F_DUPFD_CLOEXEC, 0);

		f = fd < 0 ? NULL : fdopen(fd, "rb");
		if (!f && fd >= 0)
			close(fd);
	} else {
		f = fopen(path, "rbe");
	}
	if (!f)
		return -errno;
	return capture_read_stream(f, out);
}

/* Whether a plausible packet starts inside the `len` bytes a header at
 * pos claims: then that length lies (it runs over the packets after
 * it), whatever is in them. */
static bool claims_others(struct capture_reader *r, size_t len)
{
	for (size_t at = 1; at < REC_HDR + len; at++)
		if (plausible_at(r, at))
			return true;
	return false;
}

/* Whether the record at pos begins with a generic netlink message that
 * fills its own length within the packet, and a plausible packet (or the
 * end) follows the packet: then its length is the packet's, whatever
 * bytes come after that message (a planted record among them is the
 * packet's trailing bytes, for the parser to count).  A length that runs
 * over the packets after it ends inside one, not at one. */
static bool leads_whole(struct capture_reader *r, const struct pcap_rec_hdr *h)
{
	const unsigned char *p = r->win + r->pos + REC_HDR;
	size_t whole = REC_HDR + (size_t)h->incl_len;
	struct nlmsghdr nh;

	if (h->incl_len < NLMSG_HDRLEN + GENL_HDRLEN || h->incl_len != h->orig_len)
		return false;
	memcpy(&nh, p, sizeof(nh));
	if (nh.nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN ||
	    nh.nlmsg_len > h->incl_len || nh.nlmsg_type < NLMSG_MIN_TYPE)
		return false;
	return have(r, whole + 1) == whole || plausible_at(r, whole);
}

/* Whether the whole record at pos is one: a payload that is not netlink
 * messages filling it is a good packet with bytes after its message (or
 * a malformed one, for the parser to count), unless a plausible packet
 * starts inside it and its first message does not lead a packet that
 * ends where one begins (leads_whole). */
static bool record_frames(struct capture_reader *r, const struct pcap_rec_hdr *h)
{
	const unsigned char *p = r->win + r->pos + REC_HDR;
	uint32_t first;

	if (h->incl_len >= NLMSG_HDRLEN) {
		/* One message filling the packet, as the kernel sends them:
		 * the common case costs a compare. */
		memcpy(&first, p, sizeof(first));
		if (first == h->incl_len)
			return true;
	}
	return nl_fills(p, h->incl_len, h->orig_len) || leads_whole(r, h) ||
	       !claims_others(r, h->incl_len);
}

/* An empty packet is one when a plausible packet (or the end) follows
 * it: a run of zeros, or a netlink header read as a record header, is
 * not. */
static bool empty_frames(struct capture_reader *r, const struct pcap_rec_hdr *h)
{
	if (h->ts_usec >= r->frac_max)
		return false;
	return have(r, REC_HDR + 1) == REC_HDR || plausible_at(r, REC_HDR);
}

/* Another pcap's file header where a record begins (captures joined by
 * cat): its settings from here on; true when it was one. */
static bool file_header(struct capture_reader *r)
{
	struct pcap_file_hdr h;

	if (have(r, sizeof(h)) < sizeof(h))
		return false;
	memcpy(&h, r->win + r->pos, sizeof(h));
	if ((h.magic != PCAP_MAGIC && h.magic != PCAP_MAGIC_NS) ||
	    h.linktype != CAPTURE_LINKTYPE_NETLINK)
		return false;
	r->snaplen = h.snaplen && h.snaplen <= SNAPLEN_MAX ? h.snaplen : SNAPLEN_MAX;
	r->frac_max = h.magic == PCAP_MAGIC_NS ? 1000000000u : 1000000u;
	r->pos += sizeof(h);
	return true;
}

int capture_read_next(struct capture_reader *r, const void **msg, size_t *len)
{
	for (;;) {
		struct pcap_rec_hdr h;
		size_t got = have(r, REC_HDR), whole;
		const char *lie;

		if (got == 0)
			return 0;
		if (got < REC_HDR) {
			r->pos = r->end;
			return -EBADMSG;	/* cut short inside its header */
		}
		h = hdr_at(r, 0);
		/* A record's time is never a pcap's magic (it is in 2055). */
		if ((h.ts_sec == PCAP_MAGIC || h.ts_sec == PCAP_MAGIC_NS) &&
		    file_header(r))
			continue;
		if ((lie = lengths_lie(r, &h))) {
			resync(r, 1, lie);
			continue;
		}
		whole = REC_HDR + (size_t)h.incl_len;
		if (have(r, whole) < whole) {
			/* The last packet, cut short; or a length that runs
			 * past the end, over whole packets. */
			if (!claims_others(r, h.incl_len)) {
				r->pos = r->end;
				return -EBADMSG;
			}
			resync(r, 1, "its length runs past the end over the packets after it");
			continue;
		}
		if (h.incl_len ? !record_frames(r, &h) : !empty_frames(r, &h)) {
			resync(r, 1, h.incl_len ? "its length runs over the packets after it" :
			       "an empty packet that no packet follows");
			continue;
		}
		/* Its time (a fraction out of range, which no writer of ours
		 * makes, is 0). */
		r->when.tv_sec = h.ts_sec;
		if (h.ts_usec < r->frac_max) {
			r->last_sec = h.ts_sec;
			r->have_ts = true;
			r->when.tv_nsec = r->frac_max == 1000000u ?
					  (long)h.ts_usec * 1000 : (long)h.ts_usec;
		} else {
			r->when.tv_nsec = 0;
		}
		*msg = r->win + r->pos + REC_HDR;
		*len = h.incl_len;
		if (((uintptr_t)*msg & 3) && h.incl_len <= CAPTURE_SNAPLEN)
			*msg = memcpy(r->pkt, *msg, h.incl_len);
		r->pos += whole;
		if (h.incl_len == 0)
			return -ENOMSG;		/* no message at all: malformed */
		return h.incl_len > CAPTURE_SNAPLEN ? -EMSGSIZE : 1;
	}
}

const struct capture_damage *capture_read_damage(const struct capture_reader *r)
{
	return &r->dmg;
}

const char *capture_damage_say(const struct capture_damage *d, char *buf,
			       size_t cap)
{
	unsigned long long k = (unsigned long long)d->spans;

	snprintf(buf, cap, "damaged: the record header at byte %llu does not "
		 "hold (%s); %llu bytes passed over in %llu place%s to the next "
		 "whole packet, the packets after %s read",
		 (unsigned long long)d->first_at, d->first_why,
		 (unsigned long long)d->bytes, k, k == 1 ? "" : "s",
		 k == 1 ? "it" : "each");
	return buf;
}

const struct timespec *capture_read_time(const struct capture_reader *r)
{
	return &r->when;
}

/* The byte order this machine's pcap would not be in. */
static const char *other_order(void)
{
	return __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? "big-endian" : "little-endian";
}

const char *capture_sniff(const void *head, size_t n, char *buf, size_t cap)
{
	struct pcap_file_hdr h;

	if (n < sizeof(h.magic))
		return NULL;
	memcpy(&h, head, n < sizeof(h) ? n : sizeof(h));
	if (h.magic == PCAPNG_MAGIC) {
		snprintf(buf, cap, "a pcapng file (exitmon writes pcap; "
			 "editcap -F pcap converts it)");
	} else if (h.magic == __builtin_bswap32(PCAP_MAGIC) ||
		   h.magic == __builtin_bswap32(PCAP_MAGIC_NS)) {
		snprintf(buf, cap, "a %s pcap (another machine's byte order: "
			 "its netlink messages are in that order too)", other_order());
	} else if (h.magic != PCAP_MAGIC && h.magic != PCAP_MAGIC_NS) {
		return NULL;
	} else if (n < sizeof(h)) {
		snprintf(buf, cap, "a pcap cut short inside its %zu-byte file "
			 "header (%zu bytes)", sizeof(h), n);
	} else if (h.linktype != CAPTURE_LINKTYPE_NETLINK) {
		snprintf(buf, cap, "a pcap of link type %u, not of netlink messages "
			 "(%d)", h.linktype, CAPTURE_LINKTYPE_NETLINK);
	} else {
		buf[0] = '\0';	/* ours */
	}
	return buf;
}

void capture_read_close(struct capture_reader *r)
{
	if (!r)
		return;
	fclose(r->f);
	free(r->win);
	free(r);
}
