// SPDX-License-Identifier: GPL-2.0-or-later
/* Buffered line input over zlib (see linein.h). */
#include "linein.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


#define LINEIN_IN (64u * 1024)	/* compressed (or plain) bytes per read(2) */
/* Input read before the unread bytes is kept, up to this much: the next
 * member after a cut one was taken for its data, and is looked for
 * there.  The buffer: what is kept, a read, and a few unread bytes. */
#define LINEIN_KEEP LINEIN_IN
#define LINEIN_INB (LINEIN_KEEP + LINEIN_IN + 64)
#define GZ_HDR 10	/* a gzip member's fixed header */

/* More input after the unread bytes (a few at most), keeping up to
 * LINEIN_KEEP bytes read before them in front. */
static int read_in(struct linein *l)
{
	size_t unread = l->z.avail_in;
	size_t used = l->z.next_in ? (size_t)(l->z.next_in - l->inb) : 0;
	size_t keep = used < LINEIN_KEEP ? used : LINEIN_KEEP;
	ssize_t got;

	memmove(l->inb, l->inb + used - keep, keep + unread);
	l->in_off += used - keep;
	do
		got = read(l->fd, l->inb + keep + unread, LINEIN_IN);
	while (got < 0 && errno == EINTR);
	l->z.next_in = l->inb + keep;
	l->z.avail_in = (uInt)unread;
	if (got < 0)
		return -errno;
	l->z.avail_in += (uInt)got;
	l->in_eof = got == 0;
	return 0;
}

/* Where p (in the input buffer) is in the file. */
static uint64_t in_at(const struct linein *l, const unsigned char *p)
{
	return l->in_off + (uint64_t)(p - l->inb);
}

/* Whether the unread input begins a gzip member (its first two bytes;
 * the input is refilled while it holds fewer: a pipe may give one). */
static int gz_magic(struct linein *l, bool *yes)
{
	int r;

	while (l->z.avail_in < 2 && !l->in_eof)
		if ((r = read_in(l)) < 0)
			return r;
	*yes = l->z.avail_in >= 2 && l->z.next_in[0] == 0x1f && l->z.next_in[1] == 0x8b;
	return 0;
}

int linein_open(struct linein *l, const char *path)
{
	bool in = strcmp(path, "-") == 0;
	int fd = in ? fcntl(0, F_DUPFD_CLOEXEC, 0) : open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	int r;

	memset(l, 0, sizeof(*l));
	l->fd = -1;
	if (fd < 0)
		return -errno;
	/* read(2) on a directory fails only later, as a vague read error. */
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return -EISDIR;
	}
	l->fd = fd;
	l->inb = malloc(LINEIN_INB);
	l->cap = LINEIN_BUF0;
	l->buf = malloc(l->cap);
	if (!l->inb || !l->buf) {
		linein_close(l);
		return -ENOMEM;
	}
	r = gz_magic(l, &l->gz);
	if (r == 0 && l->gz && inflateInit2(&l->z, 15 + 16) != Z_OK)
		r = -ENOMEM;	/* and nothing to end */
	if (r < 0) {
		l->gz = false;
		linein_close(l);
	}
	return r;
}

void linein_close(struct linein *l)
{
	if (l->gz)
		inflateEnd(&l->z);
	if (l->fd >= 0)
		close(l->fd);
	free(l->inb);
	free(l->buf);
	memset(l, 0, sizeof(*l));
	l->fd = -1;
}

/* Whether a gzip member plausibly begins at p (n bytes there): its magic,
 * deflate, and a flags byte without its reserved bits. */
static bool member_at(const unsigned char *p, size_t n)
{
	return n >= 4 && p[0] == 0x1f && p[1] == 0x8b && p[2] == 8 && !(p[3] & 0xe0);
}

/* The next member from `from` (in the input buffer, not past its unread
 * bytes) on, read on as far as it takes: 0 with the input at it, 1 at
 * the end of the file without one, or a read's -errno. */
static int find_member(struct linein *l, unsigned char *from)
{
	for (;;) {
		unsigned char *end = l->z.next_in + l->z.avail_in;
		int r;

		while (end - from >= 4 && !member_at(from, (size_t)(end - from)))
			from++;
		l->z.next_in = from;
		l->z.avail_in = (uInt)(end - from);
		if (end - from >= 4)
			return 0;
		if (l->in_eof) {
			l->z.next_in = end;
			l->z.avail_in = 0;
			return 1;
		}
		if ((r = read_in(l)) < 0)
			return r;
		from = l->z.next_in;
	}
}

/* Damage from file offset `at` passed over to the member now at the
 * input: counted, the first one's place and kind kept; inflate starts
 * anew there. */
static int passed_over(struct linein *l, uint64_t at, int why)
{
	uint64_t to = in_at(l, l->z.next_in);

	if (l->gz_damaged++ == 0) {
		l->gz_damage_at = at;
		l->gz_damage_err = why;
	}
	l->gz_skipped += to - at;
	l->mstart = to;
	return inflateReset(&l->z) == Z_OK ? 0 : -EBADMSG;
}

/* The member being inflated is damaged (why: -EBADMSG) or stops at the
 * end of the file (-ENODATA).  The next member is looked for from just
 * after its start, in the input kept before the unread bytes too: after
 * a member cut short, inflate took the next one for its data.  2 when
 * one was found (reading goes on there), or why when none follows. */
static int member_damaged(struct linein *l, int why)
{
	unsigned char *from = l->inb;
	int r;

	if (l->mstart >= l->in_off)
		from = l->inb + (l->mstart - l->in_off) + 1;
	if (from > l->z.next_in + l->z.avail_in)	/* inflate took nothing */
		from = l->z.next_in + l->z.avail_in;
	if ((r = find_member(l, from)) != 0)
		return r < 0 ? r : why;
	r = passed_over(l, l->mstart, why);
	return r < 0 ? r : 2;
}

/* After a member's end: another member, or the end of the file; zeros
 * to the end are padding (gzip -t takes them); other bytes are damage,
 * passed over to the next member when there is one. */
static int next_member(struct linein *l)
{
	uint64_t at;
	bool more;
	int r;

	if ((r = gz_magic(l, &more)) < 0)
		return r;
	at = in_at(l, l->z.next_in);
	if (more) {
		l->mstart = at;
		return inflateReset(&l->z) == Z_OK ? 0 : -EBADMSG;
	}
	for (;;) {
		while (l->z.avail_in && l->z.next_in[0] == 0)
			l->z.next_in++, l->z.avail_in--;
		if (l->z.avail_in)
			break;
		if (l->in_eof)
			return 1;
		if ((r = read_in(l)) < 0)
			return r;
	}
	if ((r = find_member(l, l->z.next_in)) != 0)
		return r < 0 ? r : -EBADMSG;
	return passed_over(l, at, -EILSEQ);
}

/* A plain file: the bytes peeked at first, then straight from read(2). */
static ssize_t plain_read(struct linein *l, unsigned char *dst, size_t cap)
{
	ssize_t got;

	if (l->z.avail_in) {
		got = (ssize_t)(l->z.avail_in < cap ? l->z.avail_in : cap);
		memcpy(dst, l->z.next_in, (size_t)got);
		l->z.next_in += got, l->z.avail_in -= (uInt)got;
		return got;
	}
	do
		got = read(l->fd, dst, cap);
	while (got < 0 && errno == EINTR);
	if (got <= 0) {
		l->eof = true;
		l->err = got < 0 ? -errno : 0;
		return got < 0 ? l->err : 0;
	}
	return got;
}

/* Up to cap bytes of the file's content into dst: how many, 0 at the
 * end, or the early end's -errno (recorded in l->err; what was read
 * before it in the same call is handed out first).  Damage with a member
 * after it is passed over (linein.h); where it cut the data, a newline
 * ends the line it cut (unless the stream is read raw). */
static ssize_t raw_read(struct linein *l, unsigned char *dst, size_t cap)
{
	size_t got = 0;
	int r = 0, z;

	if (l->eof)
		return l->err;
	if (!l->gz)
		return plain_read(l, dst, cap);
	while (got == 0 && r == 0) {
		if (l->z.avail_in == 0 && !l->in_eof && (r = read_in(l)) < 0)
			break;
		l->z.next_out = dst;
		l->z.avail_out = (uInt)(cap > UINT32_MAX ? UINT32_MAX : cap);
		z = inflate(&l->z, Z_NO_FLUSH);
		got = cap - l->z.avail_out;
		if (z == Z_STREAM_END)
			r = next_member(l);
		else if (z == Z_DATA_ERROR || z == Z_NEED_DICT)
			r = member_damaged(l, -EBADMSG);
		else if (z == Z_MEM_ERROR)
			r = -ENOMEM;
		else if (got == 0 && l->z.avail_in == 0 && l->in_eof)
			r = member_damaged(l, -ENODATA);	/* it stops inside a member */
		if (r == 2) {
			if (!l->raw && got < cap)
				dst[got++] = '\n';
			r = 0;
		}
	}
	if (r != 0) {
		l->eof = true;
		l->err = r < 0 ? r : 0;
	}
	return got ? (ssize_t)got : r < 0 ? r : 0;
}

int linein_fill(struct linein *l)
{
	ssize_t got;

	if (l->start > 0) {
		memmove(l->buf, l->buf + l->start, l->end - l->start);
		l->end -= l->start;
		l->start = 0;
	}
	if (l->end == l->cap) {
		size_t cap = l->cap * 2 < LINEIN_BUF ? l->cap * 2 : LINEIN_BUF;
		char *b;

		if (l->cap == LINEIN_BUF)
			return -E2BIG;
		if (!(b = realloc(l->buf, cap)))
			return -ENOMEM;
		l->buf = b;
		l->cap = cap;
	}
	got = raw_read(l, (unsigned char *)l->buf + l->end, l->cap - l->end);
	if (got < 0)
		return (int)got;
	l->end += (size_t)got;
	return 0;
}

/* Hand out the first len unread bytes as a line, and pass over them and
 * the newline after them (if any). */
static int take(struct linein *l, size_t len, int ret, const char **p, size_t *n)
{
	*p = l->buf + l->start;
	*n = len;
	l->start += len < l->end - l->start ? len + 1 : len;
	return ret;
}

/* Past a line too long for the buffer, to the next newline: -E2BIG, or
 * the stream's error. */
static int skip_long(struct linein *l)
{
	if (l->on_long)
		l->on_long(l->on_long_arg);
	for (;;) {
		char *nl = memchr(l->buf + l->start, '\n', l->end - l->start);
		int r;

		if (nl) {
			l->start = (size_t)(nl - l->buf) + 1;
			return -E2BIG;
		}
		l->start = l->end;
		if (l->eof)
			return -E2BIG;
		if ((r = linein_fill(l)) < 0)
			return r;
	}
}

size_t linein_csv_open_quote(const char *line, size_t len)
{
	size_t i, open = 0;

	for (i = 0; i < len; i++) {
		if (line[i] != '"')
			continue;
		if (!open) {
			/* A quoted field begins only where a field does. */
			if (i == 0 || line[i - 1] == ',')
				open = i + 1;
		} else if (i + 1 < len && line[i + 1] == '"') {
			i++;			/* "" inside it */
		} else if (i + 1 == len || line[i + 1] == ',' || line[i + 1] == '\r') {
			open = 0;		/* it ends */
		} else {
			return LINEIN_QUOTE_BAD;	/* a lone quote inside it */
		}
	}
	return open;
}

/* With csv, a newline inside quotes does not end the row, but only while
 * the quoted field is no longer than exitmon writes one: a stray quote
 * must not swallow the rest of the file.  Past that bound, or at a lone
 * quote inside the field, the row ends at the first newline inside the
 * field (the caller refuses it) and the next row begins after it. */
int linein_next(struct linein *l, bool csv, const char **p, size_t *n)
{
	size_t from = 0;	/* searched, from l->start */
	size_t cut = 0;		/* the first newline inside an open quote, + 1 */
	size_t open = 0;	/* where that quoted field began */

	for (;;) {
		const char *b = l->buf + l->start;
		size_t have = l->end - l->start, at, q;
		const char *nl = memchr(b + from, '\n', have - from);
		int r;

		if (nl) {
			at = (size_t)(nl - b);
			q = csv && memchr(b, '"', at) ? linein_csv_open_quote(b, at) : 0;
			if (!q)
				return take(l, at, 1, p, n);
			if (q == LINEIN_QUOTE_BAD)
				return take(l, cut ? cut - 1 : at, 1, p, n);
			if (!cut)
				cut = at + 1, open = q - 1;
			if (at - open >= LINEIN_CSV_MAX_QUOTED)
				return take(l, cut - 1, 1, p, n);
			from = at + 1;
			continue;
		}
		if (cut && have - open >= LINEIN_CSV_MAX_QUOTED)
			return take(l, cut - 1, 1, p, n);
		if (l->eof) {
			/* A quote still open at the end of a file whose last
			 * line is whole: it never closes, so that row ends at its
			 * first newline (the CSV reader refuses it) and the rows
			 * after it are read, not taken as one cut-short line.
			 * Without a last newline the writer stopped inside the
			 * quoted field: the row is cut short, as below. */
			if (cut && have && b[have - 1] == '\n')
				return take(l, cut - 1, 1, p, n);
			if (l->err) {
				l->start = l->end;	/* a row cut by the damage */
				return l->err;
			}
			return take(l, have, have ? 2 : 0, p, n);
		}
		r = linein_fill(l);
		if (r == -E2BIG)
			return skip_long(l);
		if (r < 0 && !l->eof)
			return r;
	}
}

ssize_t linein_read(struct linein *l, void *buf, size_t size)
{
	size_t have = l->end - l->start;
	ssize_t got;

	if (have) {
		if (have > size)
			have = size;
		memcpy(buf, l->buf + l->start, have);
		l->start += have;
		return (ssize_t)have;
	}
	got = raw_read(l, buf, size);
	return got < 0 ? -1 : got;
}
