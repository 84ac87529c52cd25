/* The capture's staging: packets reach the file only when the stage is
 * written (full, or flushed), in order and whole; a packet larger than the
 * stage is written alone; a chunk the file cannot take whole (a short
 * write: RLIMIT_FSIZE stands in for a full disk) is cut back off the file
 * and every packet in it is counted lost, and the next chunk that fits is
 * written as if nothing had happened.  The reader gives each packet's
 * time. */
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
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
