// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading inputs (see stat_input.h).  The text formats through the one
 * buffered line reader over zlib (linein.c); pcap goes to capture.c's
 * reader through a stdio stream over the same stream, and each packet
 * through the netlink walk and record.c's parser, exactly as exitmon
 * --replay does. */
#include "stat_input.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "capture.h"
#include "linein.h"
#include "log.h"
#include "tsnl.h"

/* A stream that ended early: where, and that the rest is not read. */
static void stream_note(const char *path, int err, uint64_t records)
{
	unsigned long long k = (unsigned long long)records;

	if (err == -EBADMSG)
		log_warn("%s: damaged gzip data after %llu records: the rest of the "
			"file is not read", path, k);
	else if (err == -ENODATA)
		log_warn("%s: the gzip data ends early after %llu records (the file "
			"is cut short): the rest is missing", path, k);
	else
		log_warn("%s: read error after %llu records: %s: the rest of the file "
			"is not read", path, k, strerror(-err));
}

/* Gzip damage passed over to the next member (linein.c): where the first
 * was, how much was skipped; the file counts as incomplete (status 3). */
static void gz_damage_note(const char *path, const struct linein *l,
			   struct in_counts *n)
{
	unsigned long long k = (unsigned long long)l->gz_damaged;

	if (!k)
		return;
	log_warn("%s: %s at byte %llu of the file%s: %llu bytes passed over in "
		"%llu place%s to the next gzip member, the members after read "
		"(lines cut by the damage are counted malformed)", path,
		l->gz_damage_err == -EILSEQ ? "bytes that are no gzip member" :
		l->gz_damage_err == -ENODATA ? "a gzip member cut short" :
		"a damaged gzip member",
		(unsigned long long)l->gz_damage_at, k > 1 ? ", and more" : "",
		(unsigned long long)l->gz_skipped, k, k == 1 ? "" : "s");
	n->incomplete++;
}

/* ---- pcap through capture.c, over the same stream ------------------------ */

/* The pcap reader takes over the stream after the bytes already peeked. */
static ssize_t cookie_read(void *l, char *buf, size_t size)
{
	return linein_read(l, buf, size);
}

struct pcap_state {
	in_record_fn fn;
	void *arg;
	struct in_counts *n;
	uint64_t malformed, oversized;
	uint64_t other;		/* messages that are no exit records */
	uint64_t trailing;	/* packets with bytes after their last message */
	struct tsnl_family family;
	/* run, seq, time_ns as exitmon --replay gives them: a run of the
	 * capture's own, the records numbered in order, each packet's time. */
	struct rec_meta meta;
	const struct capture_reader *cr;
};

/* A record of the capture takes the next seq of the capture's run (none
 * when no run could be made) and its packet's time, as under exitmon
 * --replay (exitmon(8), "Run, seq and time"). */
static void pcap_meta(struct pcap_state *s, struct exit_record *r)
{
	const struct timespec *ts = capture_read_time(s->cr);

	s->meta.time_ns = (uint64_t)ts->tv_sec * 1000000000u +
			  (uint64_t)ts->tv_nsec;
	s->meta.seq++;
	r->meta = s->meta;
}

/* One netlink message of a packet, as exitmon's collector takes it:
 * another command's or family's messages, acks and errors are not
 * records and are counted apart; malformed ones are counted. */
static void pcap_msg(void *arg, const struct nlmsghdr *nh)
{
	struct pcap_state *s = arg;
	struct exit_msg m;
	int p;

	p = record_parse_nlmsg(nh, nh->nlmsg_len, &m);
	if (p == -ENOMSG || (p < 0 && tsnl_family_other(&s->family, nh))) {
		s->other++;
		return;
	}
	if (p < 0) {
		s->malformed++;
		return;
	}
	tsnl_family_learn(&s->family, nh);
	s->malformed += m.tgid_malformed;	/* its pid record is kept */
	for (unsigned i = 0; i < m.n; i++) {
		s->n->records++;
		pcap_meta(s, &m.rec[i]);
		s->fn(s->arg, &m.rec[i], &m.rec[0]);
	}
}

static void pcap_notes(const char *path, const struct pcap_state *s)
{
	if (s->malformed)
		log_warn("%s: %llu malformed messages skipped", path,
			(unsigned long long)s->malformed);
	if (s->oversized)
		log_warn("%s: %llu packets larger than %d bytes skipped (counted as "
			"truncated)", path, (unsigned long long)s->oversized,
			CAPTURE_SNAPLEN);
	if (s->other)
		log_warn("%s: %llu messages that are not exit records (another "
			"generic netlink command or family, or a netlink control "
			"message) passed over", path, (unsigned long long)s->other);
	if (s->trailing)
		log_warn("%s: %llu packets with bytes after their last whole "
			"message: those bytes passed over, the messages before them "
			"read", path, (unsigned long long)s->trailing);
}

static int read_pcap(struct linein *l, const char *path, in_record_fn fn,
		     void *arg, struct in_counts *n)
{
	cookie_io_functions_t io = { .read = cookie_read };
	struct pcap_state s = { .fn = fn, .arg = arg, .n = n };
	uint64_t before = n->records;
	struct capture_reader *cr;
	const void *msg;
	size_t len;
	FILE *f;
	int r, w;

	l->raw = true;	/* a pcap resynchronises itself past a gap */
	f = fopencookie(l, "r", io);
	if (!f)
		return -errno;
	if ((r = capture_read_stream(f, &cr)) < 0)
		return r;
	s.cr = cr;
	s.meta.has = REC_META_SEQ | REC_META_TIME;
	if (record_run_random(s.meta.run) == 0)
		s.meta.has |= REC_META_RUN;
	/* The same packets as exitmon --replay, counted the same way. */
	while ((r = capture_read_next(cr, &msg, &len)) != 0 && r != -EBADMSG) {
		if (r == -EMSGSIZE)
			s.oversized++;
		else if (r == -ENOMSG)
			s.malformed++;
		else if ((w = tsnl_walk(msg, len, pcap_msg, &s)) < 0)
			s.malformed++;	/* no whole message in it */
		else if (w > 0)
			s.trailing++;
	}
	pcap_notes(path, &s);
	if (capture_read_damage(cr)->spans) {
		char say[256];

		log_warn("%s: %s", path, capture_damage_say(capture_read_damage(cr),
							    say, sizeof(say)));
		n->incomplete++;	/* exit status 3: the answer is short */
	}
	gz_damage_note(path, l, n);
	if (l->err) {
		stream_note(path, l->err, n->records - before);
		n->incomplete++;
	} else if (r == -EBADMSG) {
		log_warn("%s: the capture ends inside a packet (cut short): that "
			"packet is not read", path);
		n->truncated++;
	}
	n->malformed += s.malformed;
	n->truncated += s.oversized;
	capture_read_close(cr);
	return 0;
}

/* ---- text formats -------------------------------------------------------------- */

struct text_state {
	const char *path;
	uint64_t records;	/* read so far, for the note of a long line */
	bool said_long;
	struct recread rr;
	struct exit_record last_pid;
	bool have_pid;
	bool bad_header;	/* rows after a refused header: not read */
	uint64_t malformed, truncated;
	uint64_t unidentified;	/* JSON lines without type or pid */
};

static void text_record(struct text_state *s, const struct exit_record *r,
			in_record_fn fn, void *arg, struct in_counts *n)
{
	n->records++;
	if (r->type == REC_PID) {
		s->last_pid = *r;
		s->have_pid = true;
		fn(arg, r, r);
	} else {
		/* The pid row of the same message is the one just before. */
		fn(arg, r, s->have_pid ? &s->last_pid : r);
	}
}

/* Whether a CSV line could be a header: every field a column name (a
 * record always has a number in it: its pid). */
static bool header_like(const char *p, size_t len)
{
	bool start = true;	/* at a field's first byte */
	size_t i;

	if (len && p[len - 1] == '\r')
		len--;
	for (i = 0; i < len; i++) {
		char c = p[i];

		if (c == ',') {
			if (start)
				return false;	/* an empty field */
			start = true;
		} else if (c == '_' || (c >= 'a' && c <= 'z') ||
			   (!start && c >= '0' && c <= '9')) {
			start = false;
		} else {
			return false;	/* a number, or not a name */
		}
	}
	return len > 0 && !start;
}

/* 0 with a record; 1 for a header or a blank line; -EBADMSG for a line
 * not read.  A line that reads as a row under the header in force is a
 * row, whatever it begins with (a task may be named "type"); only one that does not, and
 * names columns only, is a new header (files concatenated into one
 * stream).  The rows after a refused header are not read by the header
 * before it. */
/* A line of JSON's white space only: blank, as an empty one is. */
static bool json_blank(const char *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
			return false;
	return true;
}

static int text_line(struct text_state *s, bool json, const char *p, size_t len,
		     struct exit_record *r)
{
	if (len == 0 || (len == 1 && p[0] == '\r') || (json && json_blank(p, len)))
		return 1;	/* a blank line: nothing, not a bad record */
	if (json)
		return recread_json(&s->rr, p, len, r);
	if (!s->bad_header && recread_csv(&s->rr, p, len, r) == 0)
		return 0;
	if (header_like(p, len)) {
		s->bad_header = recread_csv_header(&s->rr, p, len) < 0;
		return s->bad_header ? -EBADMSG : 1;
	}
	return -EBADMSG;
}

static void text_notes(const char *path, const struct text_state *s, bool json)
{
	if (s->rr.unknown)
		log_warn("%s: %u %s%s this exitstat does not know (first: %s), "
			"ignored: written by a newer exitmon?", path, s->rr.unknown,
			json ? "key" : "column", s->rr.unknown == 1 ? "" : "s",
			s->rr.first_unknown);
	if (s->truncated)
		log_warn("%s: the last line is cut short (no newline), not counted: "
			"the writer was stopped mid-line", path);
	if (s->unidentified)
		log_warn("%s: %llu records without type or pid (exitmon -F "
			"without them) skipped: they cannot be told apart; "
			"collect with -F including type,pid", path,
			(unsigned long long)s->unidentified);
	if (s->malformed > s->unidentified)
		log_warn("%s: %llu malformed lines skipped", path,
			(unsigned long long)(s->malformed - s->unidentified));
}

/* A file with some columns only (exitmon -F): say which of those the
 * figures need are not there, and that they count as 0. */
static void missing_note(const char *path, const struct recread *rr)
{
	char names[512];
	unsigned n = recread_csv_missing(rr, names, sizeof(names));

	if (n)
		log_warn("%s: %u column%s the figures need %s missing (%s%s): "
			"counted as 0; collect with -F all for them", path, n,
			n == 1 ? "" : "s", n == 1 ? "is" : "are", names,
			strlen(names) + 1 >= sizeof(names) ? "..." : "");
}

/* The header row, whole within the buffer (a longer first line, such as
 * /dev/zero's, is no header): 0; -EPROTO with a note; or the stream's
 * early end (damaged or cut gzip, a read error), said. */
/* A header row as another program may have saved it: each name in
 * plain double quotes ("type","pid") without them, into buf (cap bytes).
 * The row itself when none is quoted or it does not fit. */
static const char *unquoted_header(const char *p, size_t *len, char *buf,
				   size_t cap)
{
	size_t i, n = 0;

	if (!memchr(p, '"', *len) || *len >= cap)
		return p;
	for (i = 0; i < *len; i++)
		if (p[i] != '"')
			buf[n++] = p[i];
	*len = n;
	return buf;
}

/* Blank lines before the header are passed over, and so are damaged
 * ones (headers cut short, ended by a later exitmon), counted in
 * *damaged.  The header line as linein_next gives it. */
static int header_line(struct linein *l, const char **p, size_t *len,
		       uint64_t *damaged)
{
	int k;

	while ((k = linein_next(l, false, p, len)) == 1 &&
	       (*len == 0 || (*len == 1 && (*p)[0] == '\r') ||
		(recread_csv_damaged_first(*p, *len) && ++*damaged)))
		;
	return k;
}

static int read_header(struct linein *l, const char *path, struct recread *rr,
		       uint64_t *damaged)
{
	char plain[4096];
	const char *p;
	size_t len;
	int k = 0, h;

	while (!memchr(l->buf + l->start, '\n', l->end - l->start) && !l->eof &&
	       (k = linein_fill(l)) == 0)
		;
	if (k != -E2BIG && (k = header_line(l, &p, &len, damaged)) > 0)
		p = unquoted_header(p, &len, plain, sizeof(plain));
	if (k == -E2BIG || k <= 0 ||
	    (h = recread_csv_header(rr, p, len)) == -EPROTO || h == -E2BIG) {
		if (k < 0 && k != -E2BIG) {
			stream_note(path, k, 0);
			return k;
		}
		if (k > 0 && header_like(p, len))
			log_warn("%s: its header has no type or no pid column "
				"(exitmon -F without them): its records cannot be "
				"told apart; collect with -F including type,pid", path);
		else
			log_warn("%s: not exitmon's CSV or JSON lines (no header row "
				"with type and pid columns): give exitstat what "
				"exitmon -f csv, -f jsonl or --capture wrote", path);
		return -EPROTO;
	}
	if (h == -EEXIST) {
		log_warn("%s: the header names column %s twice: not exitmon's "
			"(refused: which one is meant?)", path, rr->duplicate);
		return -EPROTO;
	}
	missing_note(path, rr);
	return 0;
}

/* A line past the reader's buffer begins (linein's on_long): said once
 * per file, at once, since it may never end. */
static void long_line(void *arg)
{
	struct text_state *s = arg;

	if (s->said_long)
		return;
	s->said_long = true;
	log_warn("%s: a line of %u MiB or more after %llu records: not "
		"exitmon's; passed over to its end (if it has one), then read on",
		s->path, LINEIN_BUF >> 20, (unsigned long long)s->records);
}

static int read_text(struct linein *l, const char *path, bool json,
		     const struct recread *proto, in_record_fn fn, void *arg,
		     struct in_counts *n)
{
	uint64_t before = n->records;
	struct text_state s;
	struct exit_record r;
	const char *p;
	size_t len;
	int k;

	memset(&s, 0, sizeof(s));
	s.rr = *proto;
	s.path = path;
	l->on_long = long_line;
	l->on_long_arg = &s;
	if (!json && (k = read_header(l, path, &s.rr, &s.malformed)) < 0) {
		if (k == -EPROTO)
			return k;
		n->incomplete++;	/* it ended early, before any row */
		return 0;
	}
	while ((k = linein_next(l, !json, &p, &len)) != 0) {
		int ret;

		if (k == -E2BIG) {	/* a line of 1 MiB or more, passed over */
			s.malformed++;
			continue;
		}
		if (k < 0)
			break;
		if (k == 2) {
			s.truncated++;
			break;
		}
		ret = text_line(&s, json, p, len, &r);
		if (ret == -ENOKEY)
			s.unidentified++;
		if (ret < 0)
			s.malformed++;
		else if (ret == 0)
			text_record(&s, &r, fn, arg, n);
		s.records = n->records - before;
	}
	l->on_long = NULL;
	text_notes(path, &s, json);
	gz_damage_note(path, l, n);
	if (k < 0) {
		stream_note(path, k, n->records - before);
		n->incomplete++;
	}
	n->malformed += s.malformed;
	n->truncated += s.truncated;
	n->unknown_cols += s.rr.unknown;
	/* Nothing but rows without type or pid: the file cannot be read,
	 * as a CSV file whose header lacks them cannot. */
	if (s.unidentified && s.records == 0)
		return -EPROTO;
	return 0;
}

/* The compressor of a rotation logrotate may be told to use, by its
 * magic (gzip is read): its name, or NULL. */
static const char *compressed_with(const struct linein *l)
{
	static const struct { const char *magic; size_t len; const char *name; } z[] = {
		{ "\xfd" "7zXZ\0", 6, "xz" },
		{ "\x28\xb5\x2f\xfd", 4, "zstd" },
		{ "BZh", 3, "bzip2" },
		{ "\x04\x22\x4d\x18", 4, "lz4" },
	};

	for (size_t i = 0; !l->gz && i < sizeof(z) / sizeof(z[0]); i++)
		if (l->end >= z[i].len && !memcmp(l->buf, z[i].magic, z[i].len))
			return z[i].name;
	return NULL;
}

/* JSON lines: the first byte past blank lines and JSON's white space is
 * a '{' (what is buffered: a line of JSON is far shorter).  A CSV header
 * begins with a column name, never with white space, so a line that
 * begins with a space (a file an editor or a shipper indented) is still
 * JSON's. */
static bool json_first(const struct linein *l)
{
	size_t i = l->start;

	while (i < l->end && (l->buf[i] == '\n' || l->buf[i] == '\r' ||
			      l->buf[i] == ' ' || l->buf[i] == '\t'))
		i++;
	return i < l->end && l->buf[i] == '{';
}

int stat_input_read(const char *path, const struct recread *proto, in_record_fn fn,
	       void *arg, struct in_counts *n)
{
	char what[160];
	const char *pcap, *zip;
	struct linein l;
	int r = linein_open(&l, path), f = 0;

	if (r < 0)
		return r;
	/* Enough to tell a pcap's file header (a pipe may give less). */
	while (l.end < 24 && !l.eof && (f = linein_fill(&l)) == 0)
		;
	pcap = capture_sniff(l.buf, l.end, what, sizeof(what));
	if (l.end == 0 && l.eof && f == 0) {
		r = 0;	/* empty (exitmon -f jsonl when nothing matched): 0 records */
	} else if ((zip = compressed_with(&l))) {
		log_warn("%s: compressed with %s, which exitstat does not read "
			 "(it reads gzip): %s -dc %s | exitstat -", path, zip, zip, path);
		r = -EPROTO;
	} else if (pcap && *pcap) {
		log_warn("%s: %s: not an exitmon --capture", path, pcap);
		r = -EPROTO;
	} else if (pcap) {
		r = read_pcap(&l, path, fn, arg, n);
	} else {
		/* A UTF-8 byte-order mark (a spreadsheet's or an editor's
		 * save) is no part of the text. */
		if (l.end >= 3 && !memcmp(l.buf, "\xef\xbb\xbf", 3))
			l.start = 3;
		r = read_text(&l, path, json_first(&l), proto, fn, arg, n);
	}
	linein_close(&l);
	return r;
}
