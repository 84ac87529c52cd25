// SPDX-License-Identifier: GPL-2.0-or-later
/* The capture's staging: packets reach the file only when the stage is
 * written (full, or flushed), in order and whole; a packet larger than the
 * stage is written alone; a chunk the file cannot take whole (a short
 * write: RLIMIT_FSIZE stands in for a full disk) is cut back off the file
 * and every packet in it is counted lost, and the next chunk that fits is
 * written as if nothing had happened.  The reader gives each packet's
 * time.
 *
 * The reader: a record header whose length cannot be true (above the
 * snaplen, above the original length, past the end over whole packets,
 * over a whole packet inside what it claims) is damage that is passed
 * over to the next plausible packet, counted; a last packet cut short is
 * the end; bytes after a good message are no damage. */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "capture.h"

#define FILE_HDR 24	/* pcap file header */
#define REC_HDR 16	/* pcap record header */

static char dir[] = "/tmp/test_capture.XXXXXX";
static char path[300];
static const struct timespec ts = { 1700000000, 123456789 };

static off_t file_size(void)
{
	struct stat st;

	assert_int_equal(stat(path, &st), 0);
	return st.st_size;
}

/* A message of len bytes that says which one it is. */
static const unsigned char *msg(unsigned id, size_t len)
{
	static unsigned char buf[4096];

	assert_true(len <= sizeof(buf));
	memset(buf, (int)(0x40 + id), len);
	return buf;
}

/* The file holds exactly these packets (ids and lengths), in order. */
static void expect_packets(const unsigned *ids, const size_t *lens, unsigned n)
{
	struct capture_reader *rd;
	const void *m;
	size_t len;
	unsigned i;

	assert_int_equal(capture_read_open(path, &rd), 0);
	for (i = 0; i < n; i++) {
		assert_int_equal(capture_read_next(rd, &m, &len), 1);
		assert_int_equal(len, lens[i]);
		assert_memory_equal(m, msg(ids[i], lens[i]), len);
	}
	assert_int_equal(capture_read_next(rd, &m, &len), 0);
	capture_read_close(rd);
}

static void open_fresh(struct capture_writer **w, struct capture_stage *s,
		       size_t cap)
{
	unlink(path);
	assert_int_equal(capture_open(path, w), 0);
	assert_int_equal(capture_stage_init(s, cap), 0);
	assert_int_equal(file_size(), FILE_HDR);
}

static void stage(struct capture_writer *w, struct capture_stage *s,
		  unsigned id, size_t len, uint64_t lost)
{
	assert_int_equal(capture_stage(w, s, msg(id, len), len, &ts), lost);
}

static void test_staged_until_flushed(void **state)
{
	static const unsigned ids[] = { 1, 2, 3 };
	static const size_t lens[] = { 100, 60, 300 };
	struct capture_writer *w;
	struct capture_stage s;
	unsigned i;

	(void)state;
	open_fresh(&w, &s, 4096);
	for (i = 0; i < 3; i++)
		stage(w, &s, ids[i], lens[i], 0);
	assert_int_equal(file_size(), FILE_HDR);	/* nothing written yet */
	assert_int_equal(capture_flush(w, &s), 0);
	assert_int_equal(file_size(), FILE_HDR + 3 * REC_HDR + 460);
	assert_int_equal(capture_flush(w, &s), 0);	/* empty: nothing */
	assert_int_equal(file_size(), FILE_HDR + 3 * REC_HDR + 460);
	expect_packets(ids, lens, 3);
	capture_stage_free(&s);
	capture_close(w);
}

static void test_full_stage_is_written(void **state)
{
	static const unsigned ids[] = { 1, 2, 3 };
	static const size_t lens[] = { 100, 100, 100 };
	struct capture_writer *w;
	struct capture_stage s;

	(void)state;
	open_fresh(&w, &s, 256);	/* two 116-byte records fit */
	stage(w, &s, 1, 100, 0);
	stage(w, &s, 2, 100, 0);
	assert_int_equal(file_size(), FILE_HDR);
	stage(w, &s, 3, 100, 0);	/* does not fit: the two go first */
	assert_int_equal(file_size(), FILE_HDR + 2 * (REC_HDR + 100));
	assert_int_equal(capture_flush(w, &s), 0);
	expect_packets(ids, lens, 3);
	capture_stage_free(&s);
	capture_close(w);
}

static void test_large_packet_alone(void **state)
{
	static const unsigned ids[] = { 1, 2, 3 };
	static const size_t lens[] = { 20, 1000, 30 };
	struct capture_writer *w;
	struct capture_stage s;

	(void)state;
	open_fresh(&w, &s, 256);
	stage(w, &s, 1, 20, 0);
	stage(w, &s, 2, 1000, 0);	/* the staged one first, then it */
	assert_int_equal(file_size(), FILE_HDR + 2 * REC_HDR + 1020);
	stage(w, &s, 3, 30, 0);
	assert_int_equal(capture_flush(w, &s), 0);
	expect_packets(ids, lens, 3);
	capture_stage_free(&s);
	capture_close(w);
}

static void set_fsize(rlim_t soft)
{
	struct rlimit rl;

	assert_int_equal(getrlimit(RLIMIT_FSIZE, &rl), 0);
	rl.rlim_cur = soft;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &rl), 0);
}

static void test_short_write_cut_back(void **state)
{
	static const unsigned ids[] = { 6, 7 };
	static const size_t lens[] = { 100, 100 };
	struct capture_writer *w;
	struct capture_stage s;
	struct rlimit saved;
	unsigned i;

	(void)state;
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &saved), 0);
	signal(SIGXFSZ, SIG_IGN);	/* the write fails instead */
	open_fresh(&w, &s, 4096);
	/* Room for two and a half of five: a short write, cut back. */
	for (i = 1; i <= 5; i++)
		stage(w, &s, i, 100, 0);
	set_fsize(FILE_HDR + 5 * (REC_HDR + 100) / 2);
	assert_int_equal(capture_flush(w, &s), 5);
	assert_int_equal(file_size(), FILE_HDR);
	assert_int_not_equal(capture_error(w), 0);
	/* No room at all: the write fails whole, both counted. */
	set_fsize(FILE_HDR);
	stage(w, &s, 1, 100, 0);
	stage(w, &s, 2, 100, 0);
	assert_int_equal(capture_flush(w, &s), 2);
	assert_int_equal(file_size(), FILE_HDR);
	/* Room again: the next chunk is written, the error cleared. */
	set_fsize(saved.rlim_cur);
	stage(w, &s, 6, 100, 0);
	stage(w, &s, 7, 100, 0);
	assert_int_equal(capture_flush(w, &s), 0);
	assert_int_equal(capture_error(w), 0);
	expect_packets(ids, lens, 2);
	capture_stage_free(&s);
	capture_close(w);
	signal(SIGXFSZ, SIG_DFL);
}

/* A chunk lost while staging (the stage was full) is counted by the
 * capture_stage call that wrote it. */
static void test_loss_while_staging(void **state)
{
	struct capture_writer *w;
	struct capture_stage s;
	struct rlimit saved;

	(void)state;
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &saved), 0);
	signal(SIGXFSZ, SIG_IGN);
	open_fresh(&w, &s, 256);
	stage(w, &s, 1, 100, 0);
	stage(w, &s, 2, 100, 0);
	set_fsize(FILE_HDR + 50);
	stage(w, &s, 3, 100, 2);	/* the full stage's two are lost */
	stage(w, &s, 4, 1000, 2);	/* 3 flushed, 4 written alone: lost */
	set_fsize(saved.rlim_cur);
	assert_int_equal(file_size(), FILE_HDR);
	capture_stage_free(&s);
	capture_close(w);
	signal(SIGXFSZ, SIG_DFL);
}

/* A packet's timestamp as the reader gives it: what was written (to the
 * microsecond), or from a nanosecond pcap to the nanosecond; a fraction
 * out of range reads as 0. */
static void test_read_time(void **state)
{
	struct capture_writer *w;
	struct capture_stage s;
	struct capture_reader *rd;
	const void *m;
	size_t len;
	FILE *f;
	uint32_t v;

	(void)state;
	open_fresh(&w, &s, 4096);
	stage(w, &s, 1, 10, 0);
	stage(w, &s, 2, 10, 0);
	assert_int_equal(capture_flush(w, &s), 0);
	capture_stage_free(&s);
	capture_close(w);
	assert_int_equal(capture_read_open(path, &rd), 0);
	assert_int_equal(capture_read_time(rd)->tv_sec, 0);
	assert_int_equal(capture_read_next(rd, &m, &len), 1);
	assert_int_equal(capture_read_time(rd)->tv_sec, ts.tv_sec);
	assert_int_equal(capture_read_time(rd)->tv_nsec, ts.tv_nsec / 1000 * 1000);
	capture_read_close(rd);
	/* The same file as a nanosecond pcap: the first packet's fraction
	 * 987654321 ns, the second's out of range. */
	f = fopen(path, "r+b");
	assert_non_null(f);
	v = 0xa1b23c4du;
	assert_int_equal(fwrite(&v, 4, 1, f), 1);
	fseek(f, FILE_HDR + 4, SEEK_SET);
	v = 987654321u;
	assert_int_equal(fwrite(&v, 4, 1, f), 1);
	fseek(f, FILE_HDR + REC_HDR + 10 + 4, SEEK_SET);
	v = 1000000000u;
	assert_int_equal(fwrite(&v, 4, 1, f), 1);
	fclose(f);
	assert_int_equal(capture_read_open(path, &rd), 0);
	assert_int_equal(capture_read_next(rd, &m, &len), 1);
	assert_int_equal(capture_read_time(rd)->tv_nsec, 987654321);
	assert_int_equal(capture_read_next(rd, &m, &len), 1);
	assert_int_equal(capture_read_time(rd)->tv_sec, ts.tv_sec);
	assert_int_equal(capture_read_time(rd)->tv_nsec, 0);
	capture_read_close(rd);
}

/* ---- the reader over hand-made files ---------------------------------- */

/* A netlink message of len bytes (a generic netlink one: its length,
 * type 0x1c), the rest filled with id. */
static size_t nl_msg(unsigned char *p, unsigned id, uint32_t len)
{
	uint16_t type = 0x1c;

	memset(p, (int)id, len);
	memcpy(p, &len, 4);
	memcpy(p + 4, &type, 2);
	return len;
}

struct pcap_file {
	unsigned char b[64 * 1024];
	size_t n;
	uint32_t sec;
};

static void file_start(struct pcap_file *f, uint32_t snaplen)
{
	uint32_t h[6] = { 0xa1b2c3d4u, 2 | 4u << 16, 0, 0, snaplen, 253 };

	memcpy(f->b, h, sizeof(h));
	f->n = sizeof(h);
	f->sec = 1700000000;
}

/* A record of one message of len bytes; its header's lengths incl and
 * orig (0: len).  Its offset. */
static size_t put_rec(struct pcap_file *f, unsigned id, uint32_t len,
		      uint32_t incl, uint32_t orig)
{
	uint32_t h[4] = { f->sec++, 1000, incl ? incl : len, orig ? orig : len };
	size_t at = f->n;

	memcpy(f->b + f->n, h, sizeof(h));
	f->n += sizeof(h);
	f->n += nl_msg(f->b + f->n, id, len);
	return at;
}

static void put_bytes(struct pcap_file *f, const void *p, size_t n)
{
	memcpy(f->b + f->n, p, n);
	f->n += n;
}

/* The file read: the ids of the packets read, in ids[] (at most 16); the
 * last answer (0 or -EBADMSG); its damage in *d. */
static int read_ids(const struct pcap_file *f, unsigned *ids, unsigned *n,
		    struct capture_damage *d)
{
	struct capture_reader *rd;
	const void *m;
	size_t len;
	FILE *fp;
	int k;

	fp = fopen(path, "wb");
	assert_non_null(fp);
	assert_int_equal(fwrite(f->b, 1, f->n, fp), f->n);
	fclose(fp);
	assert_int_equal(capture_read_open(path, &rd), 0);
	*n = 0;
	while ((k = capture_read_next(rd, &m, &len)) != 0 && k != -EBADMSG) {
		assert_int_equal(k, 1);
		assert_true(*n < 16);
		ids[(*n)++] = ((const unsigned char *)m)[len - 1];
	}
	*d = *capture_read_damage(rd);
	capture_read_close(rd);
	return k;
}

/* One lying header among good packets: every other packet read, the
 * damage at its offset, its record's bytes passed over. */
static void one_lie(uint32_t incl, uint32_t orig, const char *why)
{
	static const unsigned want[] = { 1, 2, 4, 5 };
	struct pcap_file f;
	struct capture_damage d;
	unsigned ids[16], n;
	size_t at;

	file_start(&f, 65535);
	put_rec(&f, 1, 400, 0, 0);
	put_rec(&f, 2, 600, 0, 0);
	at = put_rec(&f, 3, 500, incl, orig);
	put_rec(&f, 4, 400, 0, 0);
	put_rec(&f, 5, 1200, 0, 0);
	assert_int_equal(read_ids(&f, ids, &n, &d), 0);
	assert_int_equal(n, 4);
	assert_memory_equal(ids, want, sizeof(want));
	assert_int_equal(d.spans, 1);
	assert_int_equal(d.first_at, at);
	assert_int_equal(d.bytes, 16 + 500);
	assert_string_equal(d.first_why, why);
}

static void test_lying_lengths(void **state)
{
	(void)state;
	one_lie(70000, 70000, "its length is above the file's snaplen");
	one_lie(508, 500, "its captured length is above the packet's original length");
	one_lie(30000, 30000, "its length runs past the end over the packets after it");
	one_lie(1000, 1000, "its length runs over the packets after it");
}

/* A lying first packet (no time to go by yet), garbage between packets,
 * and a run of zeros where a packet was. */
static void test_damage_anywhere(void **state)
{
	static const unsigned want1[] = { 2, 3 }, want2[] = { 1, 2, 3 };
	struct pcap_file f;
	struct capture_damage d;
	unsigned ids[16], n;
	unsigned char zeros[200] = { 0 };

	(void)state;
	file_start(&f, 65535);
	put_rec(&f, 1, 400, 70000, 70000);
	put_rec(&f, 2, 400, 0, 0);
	put_rec(&f, 3, 400, 0, 0);
	assert_int_equal(read_ids(&f, ids, &n, &d), 0);
	assert_int_equal(n, 2);
	assert_memory_equal(ids, want1, sizeof(want1));
	assert_int_equal(d.spans, 1);
	assert_int_equal(d.first_at, 24);

	file_start(&f, 65535);
	put_rec(&f, 1, 400, 0, 0);
	put_bytes(&f, "\x01garbage", 8);
	put_rec(&f, 2, 400, 0, 0);
	put_bytes(&f, zeros, sizeof(zeros));
	put_rec(&f, 3, 400, 0, 0);
	assert_int_equal(read_ids(&f, ids, &n, &d), 0);
	assert_int_equal(n, 3);
	assert_memory_equal(ids, want2, sizeof(want2));
	assert_int_equal(d.spans, 2);
	assert_int_equal(d.bytes, 8 + sizeof(zeros));
}

/* The last packet cut short is the end, not damage; bytes after a good
 * message inside a packet are the packet's (the parser counts them). */
static void test_cut_last_and_trailing(void **state)
{
	static const unsigned want[] = { 1, 2 };
	struct pcap_file f;
	struct capture_damage d;
	unsigned ids[16], n;
	uint32_t h[4] = { 1700000009, 5, 420, 420 };

	(void)state;
	file_start(&f, 65535);
	put_rec(&f, 1, 400, 0, 0);
	put_rec(&f, 2, 400, 0, 0);
	put_rec(&f, 3, 400, 0, 0);
	f.n -= 100;
	assert_int_equal(read_ids(&f, ids, &n, &d), -EBADMSG);
	assert_int_equal(n, 2);
	assert_memory_equal(ids, want, sizeof(want));
	assert_int_equal(d.spans, 0);

	file_start(&f, 65535);
	put_rec(&f, 1, 400, 0, 0);
	put_bytes(&f, h, sizeof(h));	/* a message of 400 and 20 bytes after */
	f.n += nl_msg(f.b + f.n, 9, 400);
	put_bytes(&f, "trailing bytes here\x02", 20);
	put_rec(&f, 3, 400, 0, 0);
	assert_int_equal(read_ids(&f, ids, &n, &d), 0);
	assert_int_equal(n, 3);
	assert_int_equal(ids[1], 2);	/* the packet's last byte */
	assert_int_equal(d.spans, 0);
}

/* A packet whose bytes after its good message form a plausible record
 * (planted): the packet is kept whole, its message read, the planted
 * record its trailing bytes; no damage.  A length that runs over the
 * packets after it is still damage (test_lying_lengths). */
static void test_planted_trailing_record(void **state)
{
	struct pcap_file f;
	struct capture_damage d;
	unsigned ids[16], n;
	uint32_t h[4] = { 1700000001, 5, 400 + 16 + 120, 400 + 16 + 120 };
	uint32_t planted[4] = { 1700000001, 6, 120, 120 };

	(void)state;
	file_start(&f, 65535);
	put_rec(&f, 1, 400, 0, 0);
	put_bytes(&f, h, sizeof(h));
	f.n += nl_msg(f.b + f.n, 2, 400);
	put_bytes(&f, planted, sizeof(planted));
	f.n += nl_msg(f.b + f.n, 7, 120);
	f.sec++;
	put_rec(&f, 3, 400, 0, 0);
	assert_int_equal(read_ids(&f, ids, &n, &d), 0);
	assert_int_equal(n, 3);
	assert_int_equal(d.spans, 0);
	assert_int_equal(d.bytes, 0);
	/* the planted record ends the packet: its last byte, the packet's */
	assert_int_equal(ids[1], 7);

	/* the same as the file's last packet */
	f.n -= 16 + 400;
	assert_int_equal(read_ids(&f, ids, &n, &d), 0);
	assert_int_equal(n, 2);
	assert_int_equal(d.spans, 0);
}

/* Two captures joined by cat: the second file header is a boundary, not
 * damage. */
static void test_joined_captures(void **state)
{
	static const unsigned want[] = { 1, 2, 3 };
	struct pcap_file f, g;
	struct capture_damage d;
	unsigned ids[16], n;

	(void)state;
	file_start(&f, 65535);
	put_rec(&f, 1, 400, 0, 0);
	put_rec(&f, 2, 400, 0, 0);
	file_start(&g, 65535);
	put_rec(&g, 3, 400, 0, 0);
	put_bytes(&f, g.b, g.n);
	assert_int_equal(read_ids(&f, ids, &n, &d), 0);
	assert_int_equal(n, 3);
	assert_memory_equal(ids, want, sizeof(want));
	assert_int_equal(d.spans, 0);
}

/* Each packet's time through damage and joined captures: the packet
 * after damage passed over has its own time, and a joined capture's
 * times are in its own file header's unit (a nanosecond pcap after a
 * microsecond one). */
static void test_read_time_joined(void **state)
{
	static const uint32_t ns_magic = 0xa1b23c4du;
	static const long want_nsec[] = { 1000000, 1000000, 1000 };
	struct pcap_file f, g;
	struct capture_reader *rd;
	const void *m;
	size_t len;
	unsigned n = 0;
	FILE *fp;
	int k;

	(void)state;
	file_start(&f, 65535);
	put_rec(&f, 1, 400, 0, 0);
	put_bytes(&f, "\x01garbage", 8);
	put_rec(&f, 2, 400, 0, 0);
	file_start(&g, 65535);
	memcpy(g.b, &ns_magic, 4);
	g.sec = 1700000100;
	put_rec(&g, 3, 400, 0, 0);
	put_bytes(&f, g.b, g.n);
	fp = fopen(path, "wb");
	assert_non_null(fp);
	assert_int_equal(fwrite(f.b, 1, f.n, fp), f.n);
	fclose(fp);
	assert_int_equal(capture_read_open(path, &rd), 0);
	while ((k = capture_read_next(rd, &m, &len)) == 1) {
		assert_true(n < 3);
		assert_int_equal(((const unsigned char *)m)[len - 1], n + 1);
		assert_int_equal(capture_read_time(rd)->tv_sec,
				 n < 2 ? 1700000000 + n : 1700000100);
		assert_int_equal(capture_read_time(rd)->tv_nsec, want_nsec[n]);
		n++;
	}
	assert_int_equal(k, 0);
	assert_int_equal(n, 3);
	assert_int_equal(capture_read_damage(rd)->spans, 1);
	capture_read_close(rd);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/c.pcap", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	return rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_staged_until_flushed),
		cmocka_unit_test(test_full_stage_is_written),
		cmocka_unit_test(test_large_packet_alone),
		cmocka_unit_test(test_short_write_cut_back),
		cmocka_unit_test(test_loss_while_staging),
		cmocka_unit_test(test_read_time),
		cmocka_unit_test(test_lying_lengths),
		cmocka_unit_test(test_damage_anywhere),
		cmocka_unit_test(test_cut_last_and_trailing),
		cmocka_unit_test(test_planted_trailing_record),
		cmocka_unit_test(test_joined_captures),
		cmocka_unit_test(test_read_time_joined),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
