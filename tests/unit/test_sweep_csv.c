// SPDX-License-Identifier: GPL-2.0-or-later
/* The result CSV: one row per run and one per cell, every dimension and
 * metric a column, the machine's fields quoted where they must be. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "scratch.h"
#include "sweep_csv.h"
#include "sweepbuild.h"

static void test_csv(void **state)
{
	char pc[256], line[4096];
	size_t rows = 0;
	FILE *f;

	(void)state;
	/* CSV: header, 4 run rows, 2 cell rows; quoted machine fields */
	scratch_path(pc, sizeof(pc), "r.csv");
	sb_write_result(sweep_csv_write, pc, 1.5, NULL);
	f = fopen(pc, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	assert_non_null(strstr(line, "row,kind,cell,run,order,tag,rate,tgid,listener,"
			       "delayacct,n,user_s,sys_s"));
	while (fgets(line, sizeof(line), f)) {
		rows++;
		assert_non_null(strstr(line, ",\"box, \"\"one\"\"\",6.18.0,"));
		assert_non_null(strstr(line, ",\"Some CPU, 2 cores\",16,"));
	}
	fclose(f);
	assert_int_equal(rows, 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csv),
	};

	return cmocka_run_group_tests(tests, scratch_setup, scratch_teardown);
}
