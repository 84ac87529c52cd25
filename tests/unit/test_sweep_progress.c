// SPDX-License-Identifier: GPL-2.0-or-later
/* The time a sweep has left, from the runs' counts and rates before they
 * ran and from what they took after, and that time as a clock. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#include <cmocka.h>

#include "sweep_plan.h"
#include "sweep_progress.h"
#include "sweepbuild.h"

/* Time left: paced cells from count/rate before they ran, then from what
 * they took; a max cell is unknown until some run took place. */
static void test_progress(void **state)
{
	struct sweep_config cfg;
	struct sweep_plan p;
	struct sweep_progress pr;
	char buf[32];
	bool known;
	double left;

	(void)state;
	sb_config(&cfg, 2, 9, "1000", "none,batch");
	cfg.count = 1000;
	assert_int_equal(sweep_plan_build(&cfg, &p), 0);
	assert_int_equal(sweep_progress_init(&pr, p.n_cells, false), 0);
	left = sweep_progress_left(&cfg, &p, &pr, 0, &known);
	assert_true(known);
	assert_true(fabs(left - 8 * 1.3) < 1e-9);	/* 8 runs of 1 s + 0.3 */
	sweep_progress_note(&cfg, &p, &pr, p.runs[0].cell, 1.5);
	left = sweep_progress_left(&cfg, &p, &pr, 1, &known);
	/* that cell's second run: 1.5; the 6 others: 1 s + 0.5 extra */
	assert_true(fabs(left - 7 * 1.5) < 1e-9);
	sweep_progress_free(&pr);
	sweep_plan_free(&p);

	assert_int_equal(sweep_plan_parse_rates("max", &cfg.dim[DIM_RATE]), 0);
	assert_int_equal(sweep_plan_build(&cfg, &p), 0);
	assert_int_equal(sweep_progress_init(&pr, p.n_cells, false), 0);
	sweep_progress_left(&cfg, &p, &pr, 0, &known);
	assert_false(known);
	sweep_progress_note(&cfg, &p, &pr, p.runs[0].cell, 0.2);
	left = sweep_progress_left(&cfg, &p, &pr, 1, &known);
	assert_true(known);
	assert_true(fabs(left - 7 * 0.2) < 1e-9);
	sweep_progress_free(&pr);
	sweep_plan_free(&p);

	sweep_progress_clock_text(buf, sizeof(buf), 65.4);
	assert_string_equal(buf, "1:05");
	sweep_progress_clock_text(buf, sizeof(buf), 3723);
	assert_string_equal(buf, "1:02:03");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_progress),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
