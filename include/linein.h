/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Buffered line input over zlib, for the readers of exitmon's text
 * records (exitstat, exitsweep's cohort): plain and gzip'd files read
 * alike (gzip members one after another, as logrotate and cat leave
 * them), from a path or standard input ("-").  A CSV row may span lines,
 * since a quoted field can hold a newline (a comm can).
 *
 * Damage in one gzip member costs no later one: a damaged member, one
 * cut short with another after it, or bytes between members that are
 * none, is passed over to the next member header (1f 8b 08 and flags
 * without reserved bits; looked for from just after the damaged member's
 * start, in the input kept before the damage too), counted in gz_damaged
 * and gz_skipped, and reading goes on.  Zeros after the last member are
 * padding, not damage.  A stream that ends early, with no member after
 * the damage, says why: -EBADMSG for damaged gzip data, -ENODATA for a
 * gzip stream cut short, -errno for a read error.  What came before is
 * handed out first. */
#ifndef COMMON_LINEIN_H
#define COMMON_LINEIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <zlib.h>

/* TS_COMM_LEN: the longest command name a quoted field holds. */
#include <linux/taskstats.h>

#define LINEIN_BUF (1u << 20)	/* a line or row, with its newline, fits */
#define LINEIN_BUF0 (64u * 1024)	/* the buffer at first; it grows to LINEIN_BUF */

struct linein {
	int fd;
	bool gz;		/* inflating: the stream began with gzip's magic */
	bool in_eof;		/* the file is read to its end */
	z_stream z;		/* input: z.next_in/avail_in over inb */
	unsigned char *inb;
	char *buf;
	size_t cap;		/* buf's size */
	size_t start, end;	/* unread bytes: buf[start..end) */
	uint64_t in_off;	/* the file offset of inb[0] */
	uint64_t mstart;	/* the file offset of the member being inflated */
	bool eof;
	int err;		/* why the stream ended early, 0 */
	/* Damage passed over, reading going on at the next member: how many
	 * places, the compressed bytes from each to the next member, the
	 * first one's file offset and kind (-EBADMSG a damaged member,
	 * -ENODATA one cut short at the end, -EILSEQ bytes between members
	 * that are none). */
	uint64_t gz_damaged, gz_skipped, gz_damage_at;
	int gz_damage_err;
	/* Set by a reader that takes the stream raw (a pcap's): no newline
	 * is put where damage cut the data (for lines, it ends the line cut,
	 * which is then refused, not joined to the next member's first). */
	bool raw;
	/* Called as a line too long for the buffer starts to be passed over
	 * (it may never end: /dev/zero after a header), so that a reader can
	 * say so at once rather than read on without a word; NULL: nothing.
	 * Set after linein_open(). */
	void (*on_long)(void *arg);
	void *on_long_arg;
};

/* 0, or -errno (-EISDIR for a directory, -ENOMEM) with nothing left
 * open. */
int linein_open(struct linein *l, const char *path);
void linein_close(struct linein *l);

/* Read more after what is unread (moved to the front; the buffer grows
 * when it is full): 0, -E2BIG when it is full at LINEIN_BUF, -ENOMEM, or
 * the stream's early end (above; also in err). */
int linein_fill(struct linein *l);

/* The longest quoted field exitmon writes, quotes included: a comm of
 * TS_COMM_LEN bytes, every one a doubled quote.  A field still open past
 * this is not exitmon's (a row goes on over a newline only within it). */
#define LINEIN_CSV_MAX_QUOTED (2 * TS_COMM_LEN + 2)

/* Whether a CSV line so far ends inside a quoted field (the row goes on
 * on the next line): the offset of that field's opening quote plus one;
 * 0 when it does not; LINEIN_QUOTE_BAD when a quoted field has a lone
 * quote inside (a broken row, which ends here). */
#define LINEIN_QUOTE_BAD ((size_t)-1)
size_t linein_csv_open_quote(const char *line, size_t len);

/* The next line without its newline, pointing into the buffer until the
 * next call: 1; 0 at the end; 2 for a last line without a newline (a
 * writer stopped mid-line); -E2BIG for a line of LINEIN_BUF bytes or more,
 * which was passed over (reading may go on); or the stream's early end
 * (above; a partial line before it is dropped).  With csv, a newline
 * inside quotes does not end the row while the quoted field is within
 * LINEIN_CSV_MAX_QUOTED: past that, the row ends at its first newline
 * (a row the CSV reader refuses) and reading resyncs after it. */
int linein_next(struct linein *l, bool csv, const char **p, size_t *n);

/* Up to size raw bytes: what is buffered and unread first, then straight
 * from the stream (for a reader that takes over, such as a pcap's).
 * Bytes read, 0 at the end, -1 on an early end (why: in err; read(2)-like,
 * for fopencookie). */
ssize_t linein_read(struct linein *l, void *buf, size_t size);

#endif
