// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of how a line an earlier run left cut is ended
 * (src/exitmon/cutline.c): never taken for a record afterwards. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cutline.h"

static const char *end_of(enum out_format f, const char *cut, size_t ncols)
{
	static char out[64];
	size_t n = cutline_end(f, cut, strlen(cut), ncols, out, sizeof(out) - 1);

	out[n] = '\0';
	return out;
}

static void test_jsonl_and_text(void **state)
{
	(void)state;
	/* a cut object lacks its brace: a newline makes it one bad line */
	assert_string_equal(end_of(FMT_JSONL, "{\"run\":\"ab\",\"seq\":4", 5), "\n");
	/* whole but for its newline: a record whole */
	assert_string_equal(end_of(FMT_JSONL, "{\"seq\":4}", 5), "\n");
	assert_string_equal(end_of(FMT_TEXT, "  123 sleep", 5), "\n");
}

static void test_csv_pads_past_the_header(void **state)
{
	(void)state;
	/* 4 columns: a row cut in its last number would parse; one field
	 * more than the header makes every reader refuse it */
	assert_string_equal(end_of(FMT_CSV, "pid,1,2,34", 4), ",\n");
	assert_string_equal(end_of(FMT_CSV, "pid,1,", 4), ",,\n");
	assert_string_equal(end_of(FMT_CSV, "p", 4), ",,,,\n");
	assert_string_equal(end_of(FMT_CSV, "", 4), ",,,,\n");
	/* already more fields than the header: only the newline */
	assert_string_equal(end_of(FMT_CSV, "a,b,c,d,e,f", 4), "\n");
}

static void test_csv_closes_a_quote(void **state)
{
	(void)state;
	/* cut inside a quoted comm: the quote is closed, or the newline
	 * would belong to the field and swallow the next row */
	assert_string_equal(end_of(FMT_CSV, "pid,\"a,b", 4), "\",,,\n");
	/* a doubled quote inside stays inside */
	assert_string_equal(end_of(FMT_CSV, "pid,\"a\"\"b", 4), "\",,,\n");
	/* a closed quoted field is no open quote */
	assert_string_equal(end_of(FMT_CSV, "pid,\"a,b\",7", 4), ",,\n");
}

/* Where the last record begins: a newline inside a quoted comm is no
 * boundary; from the file's start the state is known, else from a run of
 * bytes no quoted field can hold. */
static void test_last_record(void **state)
{
	static const char f[] = "type,pid,comm\npid,1,\"a\nb\"\npid,2,\"x\"\",\n\"\"y";
	char tail[200];
	bool found;
	size_t n = strlen(f);

	(void)state;
	/* the last record begins at "pid,2": the newline after x", is
	 * inside its quoted comm (x",<newline>"y cut short) */
	assert_int_equal(cutline_record(f, n, true, &found),
			 (size_t)(strstr(f, "pid,2") - f));
	assert_true(found);
	/* a file cut right after a newline inside a comm ends no record */
	assert_int_equal(cutline_record(f, 24, true, &found), 14);
	/* one that ends a record: its length */
	assert_int_equal(cutline_record(f, 26, true, &found), 26);
	/* a tail from inside a comm: no boundary known without a run... */
	assert_int_equal(cutline_record(f + 20, n - 20, false, &found), 0);
	assert_false(found);
	/* ...and with one (70 quote-free bytes) the state is known */
	memset(tail, '1', 70);
	memcpy(tail + 70, "\npid,2,\"x\n", 10);
	assert_int_equal(cutline_record(tail, 80, false, &found), 71);
	assert_true(found);
	/* the fields of a record over two lines, and its open quote */
	assert_int_equal(cutline_fields(f + 26, n - 26, &found), 3);
	assert_true(found);
}

static void test_room(void **state)
{
	char out[4];

	(void)state;
	/* CUTLINE_MAX(4) = 7 bytes: less room is refused whole */
	assert_int_equal(cutline_end(FMT_CSV, "p", 1, 4, out, sizeof(out)), 0);
	assert_int_equal(cutline_end(FMT_JSONL, "{", 1, 0, out, 1), 1);
	assert_int_equal(cutline_end(FMT_JSONL, "{", 1, 0, out, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jsonl_and_text),
		cmocka_unit_test(test_csv_pads_past_the_header),
		cmocka_unit_test(test_csv_closes_a_quote),
		cmocka_unit_test(test_last_record),
		cmocka_unit_test(test_room),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
