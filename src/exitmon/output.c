// SPDX-License-Identifier: GPL-2.0-or-later
/* Buffered, whole-line record output that never blocks the collector. */
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cutline.h"
#include "recread.h"
#include "safe.h"

#define OUTPUT_BUF (256 * 1024)
/* What a stalled reader may leave queued before records are counted lost. */
#define OUTPUT_MAX_PENDING (16 * 1024 * 1024)

static uint64_t count_char(const char *p, size_t n, char ch)
{
	uint64_t c = 0;
	const char *e = p + n;

	while (p < e && (p = memchr(p, ch, (size_t)(e - p)))) {
		c++;
		p++;
	}
	return c;
}

static uint64_t count_lines(const char *p, size_t n)
{
	return count_char(p, n, '\n');
}

/* Columns in the header of this output (CSV: commas + 1). */
static size_t header_cols(const struct output *o)
{
	char hdr[FORMAT_MAX_LINE];
	size_t n = format_header_cols(o->fmt, o->cols, hdr, sizeof(hdr));

	if (n >= sizeof(hdr))
		return 0;
	return 1 + (size_t)(n ? count_char(hdr, n, ',') : 0);
}

/* Queue bytes that end a line or head a file: they hold no record, so the
 * newlines among them are passed over when records are counted written. */
static void queue_lead(struct output *o, const char *p, size_t n)
{
	if (n == 0 || o->len + n > o->cap)
		return;
	memcpy(o->buf + o->len, p, n);
	o->len += n;
	o->lead += count_lines(p, n);
}

/* The columns to end a cut line to: the header's, or for a cut header
 * (its fields may outnumber this run's header's, written with other -F)
 * at least as many as it has, so that it ends in an empty field: the
 * damaged line every reader passes over to the header after it
 * (recread_csv_damaged_first). */
static size_t cut_cols(const struct output *o, const char *cut, size_t len,
		       bool header)
{
	size_t cols = header_cols(o), have = 1 + (size_t)count_char(cut, len, ',');

	if (header && have > cols)
		cols = have < FORMAT_MAX_LINE ? have : FORMAT_MAX_LINE;
	return cols;
}

/* Where the file's last record begins in its last k bytes, tail (from
 * its start when whole): k when the file ends a record.  CSV: past the
 * last newline outside a quoted field (cutline_record; a comm may hold a
 * newline), or, when no boundary is known, past the last newline; JSON
 * lines and text hold no raw newline inside a record.  *known: the start
 * found is a record's (not a place inside a long line). */
static size_t last_record(const struct output *o, const char *tail, size_t k,
			  bool whole, bool *known)
{
	const char *nl;
	size_t at;

	if (o->fmt == FMT_CSV) {
		at = cutline_record(tail, k, whole, known);
		if (*known)
			return at;
	}
	nl = memrchr(tail, '\n', k);
	*known = nl || whole;
	return nl ? (size_t)(nl - tail) + 1 : 0;
}

/* A run killed in the middle of a write can leave a cut last line.  The
 * file is never cut back (cutline.h says why): the line is ended so that
 * no reader takes it for a record, before anything is appended.  Whether
 * the cut line is the file's header (then a header is still due): its
 * first line, or the first after damaged ones (o->head_at). */
static bool end_cut_line(struct output *o, off_t size)
{
	char tail[2 * FORMAT_MAX_LINE], end[CUTLINE_MAX(FORMAT_MAX_LINE)];
	size_t k = size < (off_t)sizeof(tail) ? (size_t)size : sizeof(tail);
	const char *cut;
	char self[64];
	bool header, known;
	int rfd;
	ssize_t got;

	/* Ours is write-only: read the same file, not whatever the path
	 * names now. */
	snprintf(self, sizeof(self), "/proc/self/fd/%d", o->fd);
	if ((rfd = open(self, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	got = pread(rfd, tail, k, size - (off_t)k);
	close(rfd);
	if (got != (ssize_t)k)
		return false;
	cut = tail + last_record(o, tail, k, size <= (off_t)k, &known);
	if (cut == tail + k)
		return false;	/* it ends a record */
	o->cut_bytes = (uint64_t)(tail + k - cut);
	o->midline = true;
	header = known && size - (off_t)o->cut_bytes == o->head_at;
	queue_lead(o, end, cutline_end(o->fmt, cut, (size_t)o->cut_bytes,
				       cut_cols(o, cut, (size_t)o->cut_bytes,
						header),
				       end, sizeof(end)));
	return header;
}

/* Records hold every user's command names, uids and I/O: 0640 at most
 * (minus the umask); an existing file keeps its own mode. */
static int open_path(const struct output *o, bool *created)
{
	return safe_open(o->path, O_WRONLY | O_CREAT | O_APPEND,
			 SAFE_MODE_RECORDS, created);
}

/* Take fd as the output: end a line an earlier run left cut, make a pipe
 * non-blocking, queue the header for an empty file or a stream, or for an
 * older exitmon's file (check_header's OUTPUT_OLDER_APPEND: `older`). */
static int setup_fd(struct output *o, int fd, int older)
{
	bool headless = false;
	struct stat st;

	o->fd = fd;
	o->written_here = 0;
	if (fstat(o->fd, &st) < 0)
		return -errno;
	o->regular = S_ISREG(st.st_mode);
	/* Read by the collectors without the lock (a reopen may change it). */
	__atomic_store_n(&o->null_device, S_ISCHR(st.st_mode) &&
			 st.st_rdev == makedev(1, 3), __ATOMIC_RELAXED);
	o->dev = st.st_dev;
	o->ino = st.st_ino;
	/* A header is due after a cut one, or after damaged lines alone (a
	 * start that ended the cut header and stopped before its own). */
	if (o->regular && o->path && st.st_size > 0)
		headless = end_cut_line(o, st.st_size) ||
			   (o->head_at > 0 && st.st_size == o->head_at);
	/* A pipe whose reader stops must not stop the collector. */
	if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) {
		int fl = fcntl(o->fd, F_GETFL);

		if (fl >= 0 && !(fl & O_NONBLOCK) &&
		    fcntl(o->fd, F_SETFL, fl | O_NONBLOCK) == 0)
			o->nonblock_set = true;
	}
	o->older_header = older;
	if ((!o->regular || st.st_size == 0 || headless ||
	     older == OUTPUT_OLDER_APPEND) && !o->null_device) {
		char hdr[FORMAT_MAX_LINE];
		size_t n = format_header_cols(o->fmt, o->cols, hdr, sizeof(hdr));

		if (n < sizeof(hdr))
			queue_lead(o, hdr, n);
	}
	return 0;
}

/* The columns this exitmon writes first that an older one did not: a
 * file of an older exitmon has the header without them. */
#define NEW_LEAD "run,seq,time_ns,"
#define NEW_LEAD_LEN (sizeof(NEW_LEAD) - 1)

/* Whether the header hdr (n bytes) is in force at the end of the file
 * read through rfd (size bytes): its last whole record is that header or
 * a row under it, by the readers' rule: a row of as many fields as the
 * header has (an older row has three fewer), whatever its values say (a
 * comm may be 32 hex digits, as a run is; a comm may hold newlines, so
 * the record is found from the last boundary, cutline_record).  Its first
 * line is an older exitmon's header, so a new one was appended by an
 * earlier start. */
static bool new_header_last(const struct output *o, int rfd, off_t size,
			    const char *hdr, size_t n)
{
	char tail[2 * FORMAT_MAX_LINE + 2];
	size_t k = size < (off_t)sizeof(tail) ? (size_t)size : sizeof(tail);
	size_t end, start;
	bool known, quoted;

	if (pread(rfd, tail, k, size - (off_t)k) != (ssize_t)k)
		return false;
	/* The last whole record: a cut one after it is ended by
	 * end_cut_line. */
	end = last_record(o, tail, k, size <= (off_t)k, &known);
	if (!known || end == 0)
		return false;
	start = last_record(o, tail, end - 1, size <= (off_t)k, &known);
	if (!known || (start == 0 && size > (off_t)k))
		return false;	/* longer than any record of ours */
	if (end - start == n && memcmp(tail + start, hdr, n) == 0)
		return true;
	return cutline_fields(tail + start, end - 1 - start, &quoted) ==
	       header_cols(o) && !quoted;
}

/* Where the header of the CSV file read through rfd begins: past the
 * damaged lines before it, each a header cut short and ended by a later
 * start (recread_csv_damaged_first: the rule every reader follows). */
static off_t header_at(int rfd)
{
	char line[2 * FORMAT_MAX_LINE + 2];
	off_t at = 0;
	const char *nl;
	ssize_t k;

	while ((k = pread(rfd, line, sizeof(line), at)) > 0 &&
	       (nl = memchr(line, '\n', (size_t)k)) &&
	       recread_csv_damaged_first(line, (size_t)(nl - line)))
		at += nl - line + 1;
	return at;
}

/* Appending rows of other columns to a file would leave its header
 * describing only some of them: a non-empty file must begin with this
 * run's header (JSON lines: with a JSON object), 0.  A header line cut
 * short (no newline yet, however long) is left to end_cut_line.  One exception: a CSV
 * file an older exitmon wrote, whose header is this one without the
 * leading run,seq,time_ns, takes a new header row and the records after
 * it (readers take a header row after rows as the header in force from
 * there, as in files joined into one stream): OUTPUT_OLDER_APPEND, or
 * OUTPUT_OLDER_INFORCE when an earlier start appended it already.  The
 * header is the first line after damaged ones (header_at), in *head. */
static int check_header(const struct output *o, int fd, off_t *head)
{
	char hdr[FORMAT_MAX_LINE], got[FORMAT_MAX_LINE], self[64];
	size_t n = format_header_cols(o->fmt, o->cols, hdr, sizeof(hdr));
	struct stat st;
	bool older = false;
	ssize_t k;
	int rfd, r = 0;

	*head = 0;
	if (n >= sizeof(hdr) || fstat(fd, &st) < 0 ||
	    !S_ISREG(st.st_mode) || st.st_size == 0)
		return 0;
	if (n == 0) {	/* JSON lines: every record names its columns */
		hdr[0] = '{';
		n = 1;
	}
	/* Ours is write-only: read the same file through /proc. */
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	if ((rfd = open(self, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	if (o->fmt == FMT_CSV)
		*head = header_at(rfd);
	k = pread(rfd, got, sizeof(got), *head);
	if (k >= (ssize_t)n && memcmp(got, hdr, n) == 0)
		goto out;
	/* The header line runs to the file's end: cut short, whatever its
	 * length (an earlier start's -F may have had more columns). */
	if (k >= 0 && (size_t)k < sizeof(got) && !memchr(got, '\n', (size_t)k))
		goto out;
	older = n > NEW_LEAD_LEN && memcmp(hdr, NEW_LEAD, NEW_LEAD_LEN) == 0 &&
		k >= (ssize_t)(n - NEW_LEAD_LEN) &&
		memcmp(got, hdr + NEW_LEAD_LEN, n - NEW_LEAD_LEN) == 0;
	if (!older)
		r = -OUTPUT_EOTHERCOLS;
	else if (new_header_last(o, rfd, st.st_size, hdr, n))
		r = OUTPUT_OLDER_INFORCE;
	else
		r = OUTPUT_OLDER_APPEND;
out:
	close(rfd);
	return r;
}

static int open_fd(struct output *o)
{
	int fd = STDOUT_FILENO, r = 0;

	if (o->path && (fd = open_path(o, &o->created)) < 0)
		return fd;
	if (o->path && (r = check_header(o, fd, &o->head_at)) < 0) {
		close(fd);
		return r;
	}
	return setup_fd(o, fd, o->path ? r : 0);
}

const char *output_older_say(const struct output *o)
{
	if (o->older_header == OUTPUT_OLDER_APPEND)
		return "begins with an older exitmon's header (without run,seq,"
		       "time_ns): a new header row is appended and the records go "
		       "on under it (exitstat reads the rows under both); rotating "
		       "the file starts it clean";
	if (o->older_header == OUTPUT_OLDER_INFORCE)
		return "begins with an older exitmon's header (without run,seq,"
		       "time_ns): the records go on under the new header row an "
		       "earlier start appended (exitstat reads the rows under "
		       "both); rotating the file starts it clean";
	return NULL;
}

const char *output_strerror(int err)
{
	if (err == OUTPUT_EOTHERCOLS)
		return "it holds records of other columns (its first line is not "
		       "this run's header): append with the same -f and -F, or "
		       "write to a new file";
	return safe_strerror(err);
}

int output_open(struct output *o, const char *path, enum out_format fmt,
		const struct format_cols *cols)
{
	memset(o, 0, sizeof(*o));
	pthread_mutex_init(&o->lock, NULL);
	o->fd = -1;
	o->fmt = fmt;
	o->cols = cols;
	o->cap = OUTPUT_BUF;
	o->max_pending = OUTPUT_MAX_PENDING;
	o->buf = malloc(o->cap);
	if (!o->buf)
		return -ENOMEM;
	if (path && !(o->path = strdup(path)))
		return -ENOMEM;
	return open_fd(o);
}

static int flush_locked(struct output *o);

static int grow(struct output *o, size_t need)
{
	size_t cap = o->cap;
	char *b;

	while (cap < need)
		cap *= 2;
	if (cap > o->max_pending + FORMAT_MAX_LINE)
		return -ENOBUFS;
	b = realloc(o->buf, cap);
	if (!b)
		return -ENOMEM;
	o->buf = b;
	o->cap = cap;
	return 0;
}

static void queue(struct output *o, const char *buf, size_t len,
		  uint64_t lines)
{
	if (o->len + len > o->cap) {
		flush_locked(o);
		if (o->len + len > o->cap && grow(o, o->len + len) < 0) {
			o->unwritten += lines;	/* reader stalled too long */
			return;
		}
	}
	memcpy(o->buf + o->len, buf, len);
	o->len += len;
	o->lines += lines;
}

void output_lost(struct output *o, uint64_t lines)
{
	pthread_mutex_lock(&o->lock);
	o->unwritten += lines;
	pthread_mutex_unlock(&o->lock);
}

int output_error(struct output *o)
{
	int e;

	pthread_mutex_lock(&o->lock);
	e = o->last_err == -EAGAIN ? 0 : o->last_err;
	pthread_mutex_unlock(&o->lock);
	return e;
}

void output_counts(struct output *o, uint64_t *written, uint64_t *unwritten)
{
	pthread_mutex_lock(&o->lock);
	*written = o->written;
	*unwritten = o->unwritten;
	pthread_mutex_unlock(&o->lock);
}

/* A pipe takes a write of up to PIPE_BUF bytes whole or not at all: write
 * whole lines in such chunks, so a reader that stalls never holds half a
 * record. */
static size_t chunk(const struct output *o, const char *p, size_t n)
{
	const char *nl;

	if (o->regular || n <= PIPE_BUF)
		return n;
	nl = memrchr(p, '\n', PIPE_BUF);
	return nl ? (size_t)(nl - p) + 1 : n;
}

/* Write p[0..n); how much was written.  A failure is left in last_err
 * (and ever_err unless it is EAGAIN), success clears last_err. */
static size_t write_out(struct output *o, const char *p, size_t n)
{
	size_t done = 0;

	o->last_err = 0;
	while (done < n) {
		ssize_t w = write(o->fd, p + done, chunk(o, p + done, n - done));

		if (w > 0) {
			done += (size_t)w;
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		o->last_err = w < 0 ? -errno : -EIO;
		if (o->last_err != -EAGAIN)
			o->ever_err = o->last_err;
		break;
	}
	return done;
}

/* Count the records among `newlines` lines just written whole: the first
 * o->lead of them held none (a cut line's end, a header).  How many. */
static uint64_t count_written(struct output *o, uint64_t newlines)
{
	uint64_t lead = newlines < o->lead ? newlines : o->lead;

	o->lead -= lead;
	o->written += newlines - lead;
	o->written_here += newlines - lead;
	return newlines - lead;
}

static void consume(struct output *o, size_t n)
{
	o->lines -= count_written(o, count_lines(o->buf, n));
	memmove(o->buf, o->buf + n, o->len - n);
	o->len -= n;
}

/* The length of p[0..n) up to and with its k-th newline. */
static size_t through_line(const char *p, size_t n, uint64_t k)
{
	const char *q = p, *nl;

	while (k-- && (nl = memchr(q, '\n', n - (size_t)(q - p))))
		q = nl + 1;
	return (size_t)(q - p);
}

/* After a hard failure (disk full, reader gone) that wrote p[0..done) of
 * the n bytes holding `lines` records (and o->lead lines before them that
 * hold none): what was written whole stays and counts.  Lines holding no
 * record stay queued, and so does the rest of a record's line written in
 * part to a file: it is finished first when the output works again (the
 * file is never cut back, see cutline.h).  The records after it are lost,
 * and counted.  p may be o->buf. */
static void keep_failed(struct output *o, const char *p, size_t done,
			size_t n, uint64_t lines)
{
	bool started = done ? p[done - 1] != '\n' : o->midline;
	uint64_t recs = count_written(o, count_lines(p, done)), keep_recs = 0;
	uint64_t keep_lines = o->lead;
	size_t keep;

	if (started && o->regular && keep_lines == 0)
		keep_lines = keep_recs = 1;
	keep = through_line(p + done, n - done, keep_lines);
	o->midline = started && o->regular;
	o->unwritten += lines - recs - keep_recs;
	memmove(o->buf, p + done, keep);
	o->len = keep;
	o->lines = keep_recs;
}

static int flush_locked(struct output *o)
{
	size_t done = write_out(o, o->buf, o->len);

	if (done == o->len) {
		count_written(o, o->lines + o->lead);
		o->lines = 0;
		o->len = 0;
		o->midline = false;
		return 0;
	}
	if (o->last_err == -EAGAIN) {
		/* Slow reader: keep the rest queued (output_line bounds it);
		 * a line written in part is finished on the next flush. */
		consume(o, done);
		return o->last_err;
	}
	keep_failed(o, o->buf, done, o->len, o->lines);
	return o->last_err;
}

/* Nothing queued: write the caller's lines straight from its buffer (no
 * copy); only what a slow reader leaves is queued. */
static void put_direct(struct output *o, const char *buf, size_t len,
		       uint64_t lines)
{
	size_t done = write_out(o, buf, len);
	uint64_t whole;

	if (done == len) {
		count_written(o, lines);
		return;
	}
	if (o->last_err != -EAGAIN) {
		keep_failed(o, buf, done, len, lines);
		return;
	}
	whole = count_lines(buf, done);
	count_written(o, whole);
	queue(o, buf + done, len - done, lines - whole);
}

bool output_discards(const struct output *o)
{
	return __atomic_load_n(&o->null_device, __ATOMIC_RELAXED);
}

void output_put(struct output *o, const char *buf, size_t len, uint64_t lines)
{
	pthread_mutex_lock(&o->lock);
	if (o->null_device) {
		count_written(o, lines);	/* the null device takes them all */
	} else if (o->len == 0) {
		put_direct(o, buf, len, lines);
	} else {
		queue(o, buf, len, lines);
		flush_locked(o);
	}
	pthread_mutex_unlock(&o->lock);
}

/* Write what is queued.  0, or -errno of a failure (already counted). */
static int output_flush(struct output *o)
{
	int r;

	pthread_mutex_lock(&o->lock);
	r = flush_locked(o);
	pthread_mutex_unlock(&o->lock);
	return r;
}

/* Give up what is queued: its records are lost, and counted. */
static void forget(struct output *o)
{
	o->unwritten += o->lines;
	o->lines = 0;
	o->lead = 0;
	o->len = 0;
	o->midline = false;
}

void output_drain(struct output *o, int timeout_ms)
{
	int waited = 0;

	pthread_mutex_lock(&o->lock);
	while (flush_locked(o) == -EAGAIN && waited < timeout_ms) {
		struct pollfd p = { .fd = o->fd, .events = POLLOUT };

		pthread_mutex_unlock(&o->lock);
		poll(&p, 1, 100);
		waited += 100;
		pthread_mutex_lock(&o->lock);
	}
	/* Whatever a stalled reader or a full disk left: lost, and counted
	 * (a line written in part stays cut: the next start ends it). */
	forget(o);
	pthread_mutex_unlock(&o->lock);
}

/* Records written to a file that was deleted while open are lost: move
 * them from written to unwritten.  How many. */
static uint64_t account_deleted(struct output *o)
{
	struct stat st;
	uint64_t n = o->written_here;

	if (!o->regular || !o->path || fstat(o->fd, &st) < 0 || st.st_nlink > 0)
		return 0;
	o->written -= n;
	o->unwritten += n;
	o->deleted_lost += n;
	o->written_here = 0;
	return n;
}

uint64_t output_check_deleted(struct output *o)
{
	uint64_t n;

	pthread_mutex_lock(&o->lock);
	n = account_deleted(o);
	pthread_mutex_unlock(&o->lock);
	return n;
}

/* Open the path anew; only once that worked is the old file let go, so a
 * failed reopen keeps writing where it wrote before. */
int output_reopen(struct output *o, uint64_t *lost)
{
	bool created;
	off_t head = 0;
	int fd, r = 0;

	*lost = 0;
	pthread_mutex_lock(&o->lock);
	/* The rest of a line begun in the old file cannot go to the new. */
	if (flush_locked(o) < 0 && o->midline && o->path)
		forget(o);
	if (o->path) {
		fd = open_path(o, &created);
		if (fd >= 0 && (r = check_header(o, fd, &head)) < 0) {
			close(fd);
		} else if (fd < 0) {
			r = fd;
		} else {
			*lost = account_deleted(o);
			close(o->fd);
			o->created = created;
			o->head_at = head;
			r = setup_fd(o, fd, r);
		}
	}
	pthread_mutex_unlock(&o->lock);
	return r;
}

void output_discard(struct output *o)
{
	pthread_mutex_lock(&o->lock);
	o->len = 0;
	o->lines = 0;
	o->lead = 0;
	pthread_mutex_unlock(&o->lock);
}

void output_close(struct output *o)
{
	if (o->buf)
		output_flush(o);
	if (o->nonblock_set) {
		int fl = fcntl(o->fd, F_GETFL);

		if (fl >= 0)
			fcntl(o->fd, F_SETFL, fl & ~O_NONBLOCK);
	}
	if (o->path && o->fd >= 0)
		close(o->fd);
	free(o->buf);
	free(o->path);
	pthread_mutex_destroy(&o->lock);
	memset(o, 0, sizeof(*o));
	o->fd = -1;
}
