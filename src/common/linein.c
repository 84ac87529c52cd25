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

static int read_in(struct linein *l)
{
	ssize_t got;

	do
		got = read(l->fd, l->inb, LINEIN_IN);
	while (got < 0 && errno == EINTR);
	if (got < 0)
		return -errno;
	l->z.next_in = l->inb;
	l->z.avail_in = (uInt)got;
	l->in_eof = got == 0;
	return 0;
}

/* Whether the unread input begins a gzip member (its first two bytes;
 * the input is refilled while it holds fewer: a pipe may give one). */
static int gz_magic(struct linein *l, bool *yes)
{
	int r;

	while (l->z.avail_in < 2 && !l->in_eof) {
		unsigned char first = l->z.avail_in ? l->z.next_in[0] : 0;
		size_t had = l->z.avail_in;

		if ((r = read_in(l)) < 0)
			return r;
		if (had) {	/* one byte carried over: put it back in front */
			memmove(l->inb + 1, l->inb, l->z.avail_in);
			l->inb[0] = first;
			l->z.avail_in++;
		}
	}
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
	l->inb = malloc(LINEIN_IN + 1);	/* + a byte put back (gz_magic) */
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

/* After a member's end: another member, or the end of the file; other
 * bytes after it are damage, not silently dropped. */
static int next_member(struct linein *l)
{
	bool more;
	int r;

	if ((r = gz_magic(l, &more)) < 0)
		return r;
	if (more)
		return inflateReset(&l->z) == Z_OK ? 0 : -EBADMSG;
	if (l->z.avail_in == 0 && l->in_eof)
		return 1;
	return -EBADMSG;
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
 * before it in the same call is handed out first). */
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
			r = -EBADMSG;
		else if (z == Z_MEM_ERROR)
			r = -ENOMEM;
		else if (got == 0 && l->z.avail_in == 0 && l->in_eof)
			r = -ENODATA;	/* the stream stops inside a member */
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
