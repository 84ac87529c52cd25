// SPDX-License-Identifier: GPL-2.0-or-later
/* The one line reader of exitmon's text records: rows spanning lines
 * inside quotes (CSV only), a last line cut short, gzip'd input read like
 * plain, and a line longer than the buffer refused. */
#include <setjmp.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "linein.h"

static char path[] = "/tmp/exitmon-test-linein.XXXXXX";

static void write_file(const char *s, size_t n, bool gz)
{
	int fd;

	strcpy(path, "/tmp/exitmon-test-linein.XXXXXX");
	fd = mkstemp(path);

	assert_true(fd >= 0);
	if (gz) {
		gzFile g = gzdopen(fd, "wb");

		assert_non_null(g);
		assert_int_equal(gzwrite(g, s, (unsigned)n), (int)n);
		assert_int_equal(gzclose(g), Z_OK);
	} else {
		assert_int_equal(write(fd, s, n), (ssize_t)n);
		close(fd);
	}
}

static void expect(struct linein *l, bool csv, int k, const char *want)
{
	const char *p;
	size_t n;

	assert_int_equal(linein_next(l, csv, &p, &n), k);
	if (want) {
		assert_int_equal(n, strlen(want));
		assert_memory_equal(p, want, n);
	}
}

static void rows(bool gz)
{
	static const char text[] =
		"type,comm\npid,\"two\nlines\"\npid,\"a \"\"q\"\"\"\npid,cut";
	struct linein l;

	write_file(text, sizeof(text) - 1, gz);
	assert_int_equal(linein_open(&l, path), 0);
	expect(&l, true, 1, "type,comm");
	expect(&l, true, 1, "pid,\"two\nlines\"");
	expect(&l, true, 1, "pid,\"a \"\"q\"\"\"");
	expect(&l, true, 2, "pid,cut");
	expect(&l, true, 0, NULL);
	linein_close(&l);
	/* Not CSV: every newline ends a line. */
	assert_int_equal(linein_open(&l, path), 0);
	expect(&l, false, 1, "type,comm");
	expect(&l, false, 1, "pid,\"two");
	linein_close(&l);
	unlink(path);
}

/* After a line, raw reads take the rest: the buffered bytes, then the
 * stream, then 0 at the end. */
static void test_raw_read_after_a_line(void **state)
{
	static const char text[] = "head\nrest of it";
	char buf[64];
	struct linein l;
	ssize_t n, got = 0;

	(void)state;
	write_file(text, sizeof(text) - 1, true);
	assert_int_equal(linein_open(&l, path), 0);
	expect(&l, false, 1, "head");
	while ((n = linein_read(&l, buf + got, 3)) > 0)
		got += n;
	assert_int_equal(n, 0);
	assert_int_equal(got, strlen("rest of it"));
	assert_memory_equal(buf, "rest of it", (size_t)got);
	linein_close(&l);
	unlink(path);
}

static void test_plain(void **state)
{
	(void)state;
	rows(false);
}

static void test_gzip(void **state)
{
	(void)state;
	rows(true);
}

/* A line of the buffer's size or more is passed over, not the end: the
 * lines after it are read (CSV quotes in it do not matter). */
static void test_too_long(void **state)
{
	size_t len = 2 * LINEIN_BUF + 100;
	char *big = malloc(len + 16);
	struct linein l;

	(void)state;
	assert_non_null(big);
	memset(big, 'x', len);
	big[0] = '"';	/* an open quote, if it were a row */
	memcpy(big + len, "\nok\nlast\n", 9);
	write_file(big, len + 9, false);
	free(big);
	assert_int_equal(linein_open(&l, path), 0);
	expect(&l, true, -E2BIG, NULL);
	expect(&l, true, 1, "ok");
	expect(&l, true, 1, "last");
	expect(&l, true, 0, NULL);
	linein_close(&l);
	unlink(path);
}

/* An unclosed quote swallows no more than exitmon's longest quoted field:
 * the row ends at its first newline, the next rows are read as rows. */
static void test_stray_quote(void **state)
{
	static const char text[] =
		"type,comm\npid,1,\"evil,0,0\npid,2,0,0\npid,3,\"x\ny\",0\n"
		"pid,4,0123456789012345678901234567890123456789012345678901234567890123456789\n"
		"pid,5,\"open\nend";
	struct linein l;

	(void)state;
	write_file(text, sizeof(text) - 1, false);
	assert_int_equal(linein_open(&l, path), 0);
	expect(&l, true, 1, "type,comm");
	expect(&l, true, 1, "pid,1,\"evil,0,0");
	expect(&l, true, 1, "pid,2,0,0");
	expect(&l, true, 1, "pid,3,\"x\ny\",0");	/* a comm with a newline */
	expect(&l, true, 1, "pid,4,0123456789012345678901234567890123456789012345678901234567890123456789");
	expect(&l, true, 2, "pid,5,\"open\nend");	/* cut short inside a comm */
	expect(&l, true, 0, NULL);
	linein_close(&l);
	unlink(path);
}

/* A quote that never closes, near the end of a file of short rows whose
 * last line is whole: that row ends at its newline, the rest are rows. */
static void test_unclosed_quote_at_end(void **state)
{
	static const char text[] = "type,pid,comm\npid,1,a\npid,2,\"evil\npid,3,b\npid,4,c\n";
	struct linein l;

	(void)state;
	write_file(text, sizeof(text) - 1, false);
	assert_int_equal(linein_open(&l, path), 0);
	expect(&l, true, 1, "type,pid,comm");
	expect(&l, true, 1, "pid,1,a");
	expect(&l, true, 1, "pid,2,\"evil");
	expect(&l, true, 1, "pid,3,b");
	expect(&l, true, 1, "pid,4,c");
	expect(&l, true, 0, NULL);
	linein_close(&l);
	unlink(path);
}

/* Rows that straddle the refills of a 1 MiB buffer, one of them a quoted
 * row spanning lines; an unclosed quote at the end is a row cut short. */
static void test_refill(void **state)
{
	static const char row[] = "pid,\"a\nb\",0123456789012345678901234567890123456789";
	size_t n = 3 * LINEIN_BUF / (sizeof(row) - 1 + 1) + 1, i;
	size_t len = n * sizeof(row) + 8;
	char *text = malloc(len), *q = text;
	struct linein l;

	(void)state;
	assert_non_null(text);
	for (i = 0; i < n; i++) {
		memcpy(q, row, sizeof(row) - 1);
		q += sizeof(row) - 1;
		*q++ = '\n';
	}
	q += sprintf(q, "x,\"open");
	write_file(text, (size_t)(q - text), false);
	free(text);
	assert_int_equal(linein_open(&l, path), 0);
	for (i = 0; i < n; i++)
		expect(&l, true, 1, row);
	expect(&l, true, 2, "x,\"open");
	expect(&l, true, 0, NULL);
	linein_close(&l);
	unlink(path);
}

/* "-" reads standard input (gzip'd here). */
static void test_stdin(void **state)
{
	static const char text[] = "a\nb\n";
	int saved = dup(0), fd;
	struct linein l;

	(void)state;
	write_file(text, sizeof(text) - 1, true);
	fd = open(path, O_RDONLY);
	assert_true(saved >= 0 && fd >= 0);
	assert_int_equal(dup2(fd, 0), 0);
	close(fd);
	assert_int_equal(linein_open(&l, "-"), 0);
	expect(&l, false, 1, "a");
	expect(&l, false, 1, "b");
	expect(&l, false, 0, NULL);
	linein_close(&l);
	dup2(saved, 0);
	close(saved);
	unlink(path);
}

/* A gzip stream broken in the middle: the lines before it, then
 * -EBADMSG, not a silent end. */
static void test_corrupt_gzip(void **state)
{
	char big[256 * 1024];
	struct linein l;
	uint32_t x = 2463534242u;
	FILE *f;
	long size;
	size_t i, lines = 0;

	(void)state;
	for (i = 0; i < sizeof(big); i++) {
		x ^= x << 13, x ^= x >> 17, x ^= x << 5;	/* little to compress */
		big[i] = (char)(i % 61 == 60 ? '\n' : 'a' + x % 26);
	}
	write_file(big, sizeof(big), true);
	f = fopen(path, "r+b");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	size = ftell(f);
	assert_true(size > 4096);
	assert_int_equal(fseek(f, size / 2, SEEK_SET), 0);
	assert_int_equal(fwrite("\xff\xff\xff\xff\xff\xff\xff\xff", 1, 8, f), 8);
	fclose(f);
	assert_int_equal(linein_open(&l, path), 0);
	{
		const char *p;
		size_t len;
		int k;

		while ((k = linein_next(&l, false, &p, &len)) == 1)
			lines++;
		assert_int_equal(k, -EBADMSG);
		assert_int_equal(linein_next(&l, false, &p, &len), -EBADMSG);
	}
	assert_true(lines > 1000);
	linein_close(&l);
	unlink(path);
}

/* A gzip file cut short (in half; without the last 4 bytes of its
 * trailer): the whole lines before the cut, then -ENODATA. */
static void cut_gzip(bool half)
{
	char big[64 * 1024];
	struct linein l;
	const char *p;
	size_t i, len, lines = 0;
	struct stat st;
	int k;

	for (i = 0; i < sizeof(big); i++)
		big[i] = (char)(i % 64 == 63 ? '\n' : 'a' + (i * 7919) % 26);
	write_file(big, sizeof(big), true);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(truncate(path, half ? st.st_size / 2 : st.st_size - 4), 0);
	assert_int_equal(linein_open(&l, path), 0);
	while ((k = linein_next(&l, false, &p, &len)) == 1)
		lines++;
	assert_int_equal(k, -ENODATA);
	if (half)
		assert_true(lines > 0 && lines < sizeof(big) / 64);
	else
		assert_int_equal(lines, sizeof(big) / 64);
	linein_close(&l);
	unlink(path);
}

static void test_cut_gzip(void **state)
{
	(void)state;
	cut_gzip(true);
	cut_gzip(false);
}

/* Three gzip members of 1000 numbered lines each ("m<member>-<line>"),
 * with `between` bytes after the first one and the second one's bytes
 * changed by how (0: none; 1: damaged in its middle; 2: cut in half);
 * then `pad` zeros at the end. */
static void members(int how, const char *between, size_t pad)
{
	static unsigned char buf[3][64 * 1024];
	size_t n[3];
	FILE *f;

	for (int m = 0; m < 3; m++) {
		char text[16 * 1024];
		size_t len = 0;
		z_stream z;

		for (int i = 0; i < 1000; i++)
			len += (size_t)snprintf(text + len, sizeof(text) - len,
						"m%d-%d\n", m, i);
		memset(&z, 0, sizeof(z));
		assert_int_equal(deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 8,
					      Z_DEFAULT_STRATEGY), Z_OK);
		z.next_in = (unsigned char *)text;
		z.avail_in = (uInt)len;
		z.next_out = buf[m];
		z.avail_out = sizeof(buf[m]);
		assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
		n[m] = sizeof(buf[m]) - z.avail_out;
		deflateEnd(&z);
	}
	if (how == 1)
		for (size_t i = n[1] / 2; i < n[1] / 2 + 8; i++)
			buf[1][i] ^= 0xff;
	if (how == 2)
		n[1] /= 2;
	strcpy(path, "/tmp/exitmon-test-linein.XXXXXX");
	assert_true(mkstemp(path) >= 0);
	f = fopen(path, "wb");
	assert_non_null(f);
	fwrite(buf[0], 1, n[0], f);
	fputs(between, f);
	fwrite(buf[1], 1, n[1], f);
	fwrite(buf[2], 1, n[2], f);
	for (size_t i = 0; i < pad; i++)
		fputc(0, f);
	fclose(f);
}

/* Lines read per member (a line "m<k>-<i>" counts for member k), and the
 * last answer. */
static int count_members(struct linein *l, unsigned per[3])
{
	const char *p;
	size_t len;
	int k;

	per[0] = per[1] = per[2] = 0;
	while ((k = linein_next(l, false, &p, &len)) == 1 || k == 2)
		if (len >= 4 && p[0] == 'm' && p[1] >= '0' && p[1] <= '2' && p[2] == '-')
			per[p[1] - '0']++;
	return k;
}

/* Damage in the middle member, the middle member cut in half, or bytes
 * between two members: every line of the first and the last member is
 * read, the damage counted once (issue 34, item 3). */
static void test_gzip_member_damage(void **state)
{
	static const struct { int how; const char *between; int why; } c[] = {
		{ 1, "", -EBADMSG }, { 2, "", -EBADMSG }, { 0, "junk\n", -EILSEQ },
	};
	struct linein l;
	unsigned per[3];

	(void)state;
	for (unsigned i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		members(c[i].how, c[i].between, 0);
		assert_int_equal(linein_open(&l, path), 0);
		assert_int_equal(count_members(&l, per), 0);
		assert_int_equal(per[0], 1000);
		assert_int_equal(per[2], 1000);
		if (c[i].how == 0)
			assert_int_equal(per[1], 1000);
		assert_int_equal(l.gz_damaged, 1);
		assert_int_equal(l.gz_damage_err, c[i].why);
		assert_true(l.gz_skipped > 0);
		assert_int_equal(l.err, 0);
		linein_close(&l);
		unlink(path);
	}
}

/* Zeros after the last member (gzip -t takes them) are no damage; zeros
 * then garbage are. */
static void test_gzip_zero_padding(void **state)
{
	struct linein l;
	unsigned per[3];

	(void)state;
	members(0, "", 100000);
	assert_int_equal(linein_open(&l, path), 0);
	assert_int_equal(count_members(&l, per), 0);
	assert_int_equal(per[0] + per[1] + per[2], 3000);
	assert_int_equal(l.gz_damaged, 0);
	assert_int_equal(l.err, 0);
	linein_close(&l);
	unlink(path);
}

static void test_directory(void **state)
{
	struct linein l;

	(void)state;
	assert_int_equal(linein_open(&l, "/tmp"), -EISDIR);
	assert_null(l.buf);
}

static void test_missing_file(void **state)
{
	struct linein l;

	(void)state;
	assert_int_equal(linein_open(&l, "/nonexistent/exitmon-linein"), -ENOENT);
	assert_null(l.buf);
}

static void test_open_quote(void **state)
{
	(void)state;
	assert_false(linein_csv_open_quote("pid,1,\"a\"\"b\",2", 15));
	assert_int_equal(linein_csv_open_quote("pid,1,\"two", 10), 7);
	assert_int_equal(linein_csv_open_quote("pid,\"\"\"a\"", 9), 0);	/* "\"a" */
	/* a quote that does not begin a field opens none */
	assert_int_equal(linein_csv_open_quote("pid,1x\"two", 10), 0);
	/* a lone quote inside a quoted field: broken */
	assert_int_equal(linein_csv_open_quote("pid,\"evil,0\npid,\"x", 18), LINEIN_QUOTE_BAD);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_gzip),
		cmocka_unit_test(test_too_long),
		cmocka_unit_test(test_raw_read_after_a_line),
		cmocka_unit_test(test_refill),
		cmocka_unit_test(test_stdin),
		cmocka_unit_test(test_corrupt_gzip),
		cmocka_unit_test(test_cut_gzip),
		cmocka_unit_test(test_gzip_member_damage),
		cmocka_unit_test(test_gzip_zero_padding),
		cmocka_unit_test(test_directory),
		cmocka_unit_test(test_stray_quote),
		cmocka_unit_test(test_unclosed_quote_at_end),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_open_quote),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
