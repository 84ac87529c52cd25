/* Reading inputs (see stat_input.h).  The text formats through the one
 * buffered line reader over zlib (linein.c); pcap goes to capture.c's
 * reader through a stdio stream over the same zlib handle, and each
 * message to record.c's parser, exactly as exitmon --replay does. */
#include "stat_input.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "capture.h"
#include "linein.h"
#include "log.h"

/* ---- pcap through capture.c, over the same zlib stream ------------------ */

/* The pcap reader takes over the stream after the bytes already peeked. */
static ssize_t cookie_read(void *l, char *buf, size_t size)
{
	return linein_read(l, buf, size);
}

/* Messages that are not exit records (acks, errors) are passed over, as
 * --replay does; malformed ones and a cut-short last packet are counted and
 * named. */
static void pcap_notes(const char *path, uint64_t malformed, bool cut)
{
	if (malformed)
		warnmsg("%s: %llu malformed messages skipped", path,
			(unsigned long long)malformed);
	if (cut)
		warnmsg("%s: the capture ends inside a packet (cut short), the rest "
			"not read", path);
}

static int read_pcap(struct linein *l, const char *path, in_record_fn fn,
		     void *arg, struct in_counts *n)
{
	cookie_io_functions_t io = { .read = cookie_read };
	struct capture_reader *cr;
	uint64_t malformed = 0;
	const void *msg;
	size_t len;
	FILE *f;
	int r;

	f = fopencookie(l, "r", io);
	if (!f)
		return -errno;
	if ((r = capture_read_stream(f, &cr)) < 0) {
		warnmsg("%s: a pcap file, but not of netlink messages (link type 253): "
			"not an exitmon --capture", path);
		return r == -EINVAL ? -EPROTO : r;
	}
	while ((r = capture_read_next(cr, &msg, &len)) > 0) {
		struct exit_msg m;

		int p = record_parse_nlmsg(msg, len, &m);

		malformed += p == -EBADMSG;
		for (unsigned i = 0; p == 0 && i < m.n; i++) {
			n->records++;
			fn(arg, &m.rec[i], &m.rec[0]);
		}
	}
	pcap_notes(path, malformed, r < 0);
	n->malformed += malformed;
	n->truncated += r < 0;
	capture_read_close(cr);
	return 0;
}

/* ---- text formats -------------------------------------------------------------- */

struct text_state {
	struct recread rr;
	struct exit_record last_pid;
	bool have_pid;
	uint64_t malformed, truncated;
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

static int text_line(struct text_state *s, bool json, const char *p, size_t len,
		     struct exit_record *r)
{
	if (json)
		return recread_json(&s->rr, p, len, r);
	/* A header again: files concatenated into one stream. */
	if (len > 5 && memcmp(p, "type,", 5) == 0)
		return recread_csv_header(&s->rr, p, len) < 0 ? -EBADMSG : 1;
	return recread_csv(&s->rr, p, len, r);
}

static void text_notes(const char *path, const struct text_state *s, bool json)
{
	if (s->rr.unknown)
		warnmsg("%s: %u %s%s this exitstat does not know (first: %s), "
			"ignored: written by a newer exitmon?", path, s->rr.unknown,
			json ? "key" : "column", s->rr.unknown == 1 ? "" : "s",
			s->rr.first_unknown);
	if (s->truncated)
		warnmsg("%s: the last line is cut short (no newline), not counted: "
			"the writer was stopped mid-line", path);
	if (s->malformed)
		warnmsg("%s: %llu malformed lines skipped", path,
			(unsigned long long)s->malformed);
}

static int read_text(struct linein *l, const char *path, bool json,
		     const struct recread *proto, in_record_fn fn, void *arg,
		     struct in_counts *n)
{
	struct text_state s;
	struct exit_record r;
	const char *p;
	size_t len;
	int k;

	memset(&s, 0, sizeof(s));
	s.rr = *proto;
	if (!json) {
		if ((k = linein_next(l, false, &p, &len)) <= 0 ||
		    recread_csv_header(&s.rr, p, len) < 0) {
			warnmsg("%s: not exitmon's CSV or JSON lines (no header row with "
				"type and pid columns): give exitstat what exitmon -f csv, "
				"-f jsonl or --capture wrote", path);
			return k < 0 ? k : -EPROTO;
		}
	}
	while ((k = linein_next(l, !json, &p, &len)) > 0) {
		int ret;

		if (k == 2) {
			s.truncated++;
			break;
		}
		ret = text_line(&s, json, p, len, &r);
		if (ret < 0)
			s.malformed++;
		else if (ret == 0)
			text_record(&s, &r, fn, arg, n);
	}
	text_notes(path, &s, json);
	n->malformed += s.malformed;
	n->truncated += s.truncated;
	n->unknown_cols += s.rr.unknown;
	return k < 0 ? k : 0;
}

static bool is_pcap(const struct linein *l)
{
	static const unsigned char le[4] = { 0xd4, 0xc3, 0xb2, 0xa1 };
	static const unsigned char be[4] = { 0xa1, 0xb2, 0xc3, 0xd4 };

	return l->end >= 4 && (!memcmp(l->buf, le, 4) || !memcmp(l->buf, be, 4));
}

int stat_input_read(const char *path, const struct recread *proto, in_record_fn fn,
	       void *arg, struct in_counts *n)
{
	struct linein l;
	int r = linein_open(&l, path);

	if (r < 0)
		return r;
	if ((r = linein_fill(&l)) < 0)
		goto out;
	if (is_pcap(&l))
		r = read_pcap(&l, path, fn, arg, n);
	else
		r = read_text(&l, path, l.end > 0 && l.buf[0] == '{', proto, fn, arg, n);
out:
	linein_close(&l);
	return r;
}
