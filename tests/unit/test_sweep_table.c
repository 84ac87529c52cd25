// SPDX-License-Identifier: GPL-2.0-or-later
/* Text tables: columns as wide as their widest cell (counted in
 * characters, not bytes), some aligned right, a rule under the heading. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "sweep_table.h"

static void test_table(void **state)
{
	struct sweep_table *t = sweep_table_new(3);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	sweep_table_right(t, 1);
	sweep_table_row(t);
	sweep_table_cell(t, "Rate");
	sweep_table_cell(t, "Sys");
	sweep_table_cell(t, "Note");
	sweep_table_row(t);
	sweep_table_cell(t, "max");
	sweep_table_cell(t, "+3.28 ±2.91~");
	sweep_table_cell(t, "x");
	sweep_table_print(t, f, "  ");
	fclose(f);
	assert_string_equal(buf,
		"  Rate           Sys  Note\n"
		"  ------------------------\n"
		"  max   +3.28 ±2.91~  x\n");
	assert_int_equal(sweep_table_text_width("±~"), 2);
	free(buf);
	sweep_table_free(t);
}

/* What another machine's file says reaches the terminal as text only. */
static void test_control_bytes(void **state)
{
	struct sweep_table *t = sweep_table_new(1);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	sweep_table_row(t);
	sweep_table_cell(t, "%s", "host\033[2J\nx\177");
	sweep_table_print(t, f, "");
	fclose(f);
	assert_string_equal(buf, "host?[2J?x?\n-----------\n");
	free(buf);
	sweep_table_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_control_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
