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

struct capture_reader {
	FILE *f;
	bool nsec;		/* the file's timestamps are in nanoseconds */
	struct timespec when;	/* the last packet's timestamp */
	unsigned char buf[CAPTURE_SNAPLEN];
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

int capture_read_stream(FILE *f, struct capture_reader **out)
{
	struct pcap_file_hdr h;
	struct capture_reader *r = malloc(sizeof(*r));

	if (!r) {
		fclose(f);
		return -ENOMEM;
	}
	r->f = f;
	r->when = (struct timespec){ 0, 0 };
	if (fread(&h, sizeof(h), 1, r->f) != 1 ||
	    (h.magic != PCAP_MAGIC && h.magic != PCAP_MAGIC_NS) ||
	    h.linktype != CAPTURE_LINKTYPE_NETLINK) {
		capture_read_close(r);
		return -EINVAL;
	}
	r->nsec = h.magic == PCAP_MAGIC_NS;
	*out = r;
	return 0;
}

/* Read past an oversized packet (a pipe cannot seek). */
static int skip(struct capture_reader *r, uint32_t n)
{
	while (n) {
		size_t want = n < sizeof(r->buf) ? n : sizeof(r->buf);

		if (fread(r->buf, 1, want, r->f) != want)
			return -EBADMSG;
		n -= (uint32_t)want;
	}
	return -EMSGSIZE;
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

int capture_read_next(struct capture_reader *r, const void **msg, size_t *len)
{
	struct pcap_rec_hdr h;
	size_t got = fread(&h, 1, sizeof(h), r->f);

	if (got == 0 && feof(r->f))
		return 0;
	if (got != sizeof(h))
		return -EBADMSG;
	if (h.incl_len > sizeof(r->buf))	/* skip it whole, go on */
		return skip(r, h.incl_len);
	if (fread(r->buf, 1, h.incl_len, r->f) != h.incl_len)
		return -EBADMSG;
	/* A fraction out of range (no writer of ours makes one) is 0. */
	r->when.tv_sec = h.ts_sec;
	r->when.tv_nsec = r->nsec ? (long)h.ts_usec : (long)h.ts_usec * 1000;
	if (__builtin_expect(r->when.tv_nsec >= 1000000000, 0))
		r->when.tv_nsec = 0;
	if (h.incl_len == 0)
		return -ENOMSG;		/* no message at all: malformed */
	*msg = r->buf;
	*len = h.incl_len;
	return 1;
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
	free(r);
}
