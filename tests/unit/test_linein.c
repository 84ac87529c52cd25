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
		cmocka_unit_test(test_missing_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
