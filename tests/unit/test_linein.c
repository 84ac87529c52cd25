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

static void test_too_long(void **state)
{
	char *big = malloc(LINEIN_BUF + 10);
	struct linein l;

	(void)state;
	assert_non_null(big);
	memset(big, 'x', LINEIN_BUF + 10);
	big[LINEIN_BUF + 9] = '\n';
	write_file(big, LINEIN_BUF + 10, false);
	free(big);
	assert_int_equal(linein_open(&l, path), 0);
	expect(&l, true, -E2BIG, NULL);
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

/* A gzip stream broken in the middle: -EIO, not a silent end. */
static void test_corrupt_gzip(void **state)
{
	char buf[4096], big[64 * 1024];
	struct linein l;
	FILE *f;
	size_t n, i;

	(void)state;
	for (i = 0; i < sizeof(big); i++)
		big[i] = (char)(i % 61 == 60 ? '\n' : 'a' + (i * 7919) % 26);
	write_file(big, sizeof(big), true);
	f = fopen(path, "r+b");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf), f);
	assert_true(n > 100);
	for (i = 40; i < 80; i++)
		buf[i] = (char)~buf[i];
	rewind(f);
	assert_int_equal(fwrite(buf, 1, n, f), n);
	fclose(f);
	assert_int_equal(linein_open(&l, path), 0);
	{
		const char *p;
		size_t len;
		int k;

		while ((k = linein_next(&l, false, &p, &len)) == 1)
			;
		assert_int_equal(k, -EIO);
	}
	linein_close(&l);
	unlink(path);
}

static void test_missing_file(void **state)
{
	struct linein l;

	(void)state;
	assert_int_equal(linein_open(&l, "/nonexistent/exitmon-linein"), -ENOENT);
	assert_null(l.buf);
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
		cmocka_unit_test(test_missing_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
