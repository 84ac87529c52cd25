// SPDX-License-Identifier: GPL-2.0-or-later
/* exitsweep's plan: the option lists, the matrix, and the run order --
 * every cell once per round, each round a seeded shuffle that is the same
 * on every machine. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sweep_plan.h"
#include "sweepbuild.h"

static void test_rates(void **state)
{
	struct sweep_dimvals dv;

	(void)state;
	assert_int_equal(sweep_plan_parse_rates("500,1000,max", &dv), 0);
	assert_int_equal(dv.n, 3);
	assert_int_equal(dv.val[0], 500);
	assert_int_equal(dv.val[2], 0);
	assert_string_equal(dv.label[2], "max");
	assert_int_equal(sweep_plan_parse_rates("", &dv), -EINVAL);
	assert_int_equal(sweep_plan_parse_rates("500,", &dv), -EINVAL);
	assert_int_equal(sweep_plan_parse_rates(",500", &dv), -EINVAL);
	assert_int_equal(sweep_plan_parse_rates("500,,600", &dv), -EINVAL);
	assert_int_equal(sweep_plan_parse_rates("fast", &dv), -EINVAL);
	assert_int_equal(sweep_plan_parse_rates("-5", &dv), -EINVAL);
	assert_int_equal(sweep_plan_parse_rates("0", &dv), -ERANGE);
	assert_int_equal(sweep_plan_parse_rates("10x", &dv), -EINVAL);
	assert_int_equal(sweep_plan_parse_rates("500,max,500", &dv), -EEXIST);
	assert_int_equal(sweep_plan_parse_rates("max,max", &dv), -EEXIST);
	assert_int_equal(sweep_plan_parse_rates(
		"1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,"
		"25,26,27,28,29,30,31,32,33", &dv), -E2BIG);
}

static void test_words(void **state)
{
	struct sweep_dimvals dv;

	(void)state;
	assert_int_equal(sweep_plan_parse_onoff("on,off", &dv), 0);
	assert_int_equal(dv.n, 2);
	assert_int_equal(dv.val[0], 1);
	assert_int_equal(dv.val[1], 0);
	assert_int_equal(sweep_plan_parse_onoff("off", &dv), 0);
	assert_int_equal(sweep_plan_parse_onoff("yes", &dv), -EINVAL);
	assert_int_equal(sweep_plan_parse_onoff("on,on", &dv), -EEXIST);

	assert_int_equal(sweep_plan_parse_listeners("none,batch,wakeup", &dv), 0);
	assert_int_equal(dv.val[0], LISTEN_NONE);
	assert_int_equal(dv.val[2], LISTEN_WAKEUP);
	assert_int_equal(sweep_plan_parse_listeners("batch,recv", &dv), -EINVAL);

	assert_int_equal(sweep_plan_parse_dacct("keep", &dv), 0);
	assert_int_equal(dv.n, 1);
	assert_int_equal(dv.val[0], DACCT_KEEP);
	assert_int_equal(sweep_plan_parse_dacct("both", &dv), 0);
	assert_int_equal(dv.n, 2);
	assert_int_equal(dv.val[0], DACCT_ON);
	assert_int_equal(dv.val[1], DACCT_OFF);
	assert_int_equal(sweep_plan_parse_dacct("on,off", &dv), -EINVAL);
}

static void test_sizes_counts_work(void **state)
{
	struct sweep_dimvals dv;

	(void)state;
	assert_int_equal(sweep_plan_parse_sizes("none,100M", &dv), 0);
	assert_int_equal(dv.val[0], 0);
	assert_int_equal(dv.val[1], 100ll << 20);
	assert_string_equal(dv.label[1], "100M");
	assert_int_equal(sweep_plan_parse_sizes("0,4K", &dv), 0);
	assert_string_equal(dv.label[0], "none");
	assert_int_equal(sweep_plan_parse_sizes("100M,102400K", &dv), -EEXIST);
	assert_int_equal(sweep_plan_parse_sizes("12", &dv), -ERANGE);
	assert_int_equal(sweep_plan_parse_counts("0,2000,10000", &dv), 0);
	assert_int_equal(dv.val[2], 10000);
	assert_int_equal(sweep_plan_parse_counts("2000000", &dv), -ERANGE);

	assert_int_equal(sweep_plan_parse_work("cpu:300000,write:1M:/tmp/x,touch:64K", &dv), 0);
	assert_int_equal(dv.n, 3);
	assert_string_equal(dv.label[1], "write:1M:/tmp/x");
	assert_int_equal(sweep_plan_parse_work("cpu:10,cpu:10", &dv), -EEXIST);
	assert_int_equal(sweep_plan_parse_work("cpu", &dv), -EINVAL);
	assert_int_equal(sweep_plan_parse_work("cpu:x", &dv), -EINVAL);
	assert_int_equal(sweep_plan_parse_work("cpu:10:extra", &dv), -EINVAL);
	assert_int_equal(sweep_plan_parse_work("write:1M:", &dv), -EINVAL);
	assert_int_equal(sweep_plan_parse_work("sleep:10", &dv), -EINVAL);
}

/* splitmix64 from state 0: the published first outputs. */
static void test_rng(void **state)
{
	uint64_t s = 0;
	size_t hist[5] = { 0 };

	(void)state;
	assert_true(sweep_plan_rng_next(&s) == 0xe220a8397b1dcdafull);
	assert_true(sweep_plan_rng_next(&s) == 0x6e789e6aa1b965f4ull);
	assert_true(sweep_plan_rng_next(&s) == 0x06c45d188009454full);
	s = 42;
	for (int i = 0; i < 50000; i++)
		hist[sweep_plan_rng_below(&s, 5)]++;
	for (int i = 0; i < 5; i++)
		assert_true(hist[i] > 9500 && hist[i] < 10500);
	assert_int_equal(sweep_plan_rng_below(&s, 1), 0);
}

static void config(struct sweep_config *cfg, unsigned runs, uint64_t seed)
{
	sb_config(cfg, runs, seed, "500,1000,max", "none,batch");
}

static void test_matrix_and_order(void **state)
{
	struct sweep_config cfg;
	struct sweep_plan p1, p2, p3;
	size_t moved = 0;

	(void)state;
	config(&cfg, 4, 1234);
	assert_int_equal(sweep_plan_build(&cfg, &p1), 0);
	assert_int_equal(p1.n_cells, 12);	/* 3 rates x 2 tgid x 2 listeners */
	assert_int_equal(p1.n_runs, 48);
	/* every cell is distinct */
	for (size_t a = 0; a < p1.n_cells; a++)
		for (size_t b = a + 1; b < p1.n_cells; b++)
			assert_true(memcmp(&p1.cells[a], &p1.cells[b], sizeof(p1.cells[a])));
	/* interleaved: round r holds each cell exactly once, as its rep r */
	for (unsigned r = 0; r < 4; r++) {
		int seen[12] = { 0 };

		for (size_t i = 0; i < 12; i++) {
			const struct sweep_run *run = &p1.runs[r * 12 + i];

			assert_int_equal(run->rep, r);
			assert_int_equal(run->order, r * 12 + i);
			seen[run->cell]++;
		}
		for (int c = 0; c < 12; c++)
			assert_int_equal(seen[c], 1);
	}
	/* shuffled: not the matrix order, and rounds differ */
	for (size_t i = 0; i < 12; i++)
		moved += p1.runs[i].cell != i;
	assert_true(moved > 0);
	moved = 0;
	for (size_t i = 0; i < 12; i++)
		moved += p1.runs[i].cell != p1.runs[12 + i].cell;
	assert_true(moved > 0);
	/* seeded: same seed, same order; another seed, another order */
	assert_int_equal(sweep_plan_build(&cfg, &p2), 0);
	for (size_t i = 0; i < p1.n_runs; i++)
		assert_int_equal(p1.runs[i].cell, p2.runs[i].cell);
	cfg.seed = 1235;
	assert_int_equal(sweep_plan_build(&cfg, &p3), 0);
	moved = 0;
	for (size_t i = 0; i < p1.n_runs; i++)
		moved += p1.runs[i].cell != p3.runs[i].cell;
	assert_true(moved > 0);
	sweep_plan_free(&p1);
	sweep_plan_free(&p2);
	sweep_plan_free(&p3);
}

static void test_find_cell(void **state)
{
	struct sweep_config cfg;
	struct sweep_plan p;

	(void)state;
	config(&cfg, 2, 1);
	assert_int_equal(sweep_plan_build(&cfg, &p), 0);
	for (size_t c = 0; c < p.n_cells; c++) {
		long o = sweep_plan_find_cell(&p, &p.cells[c], DIM_TGID,
					      1 - p.cells[c].v[DIM_TGID]);

		assert_true(o >= 0 && (size_t)o != c);
		assert_int_equal(p.cells[o].v[DIM_RATE], p.cells[c].v[DIM_RATE]);
		assert_int_equal(p.cells[o].v[DIM_LISTENER], p.cells[c].v[DIM_LISTENER]);
		assert_int_not_equal(p.cells[o].v[DIM_TGID], p.cells[c].v[DIM_TGID]);
	}
	assert_int_equal(sweep_plan_find_cell(&p, &p.cells[0], DIM_RATE, 7), -1);
	sweep_plan_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rates),
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_sizes_counts_work),
		cmocka_unit_test(test_rng),
		cmocka_unit_test(test_matrix_and_order),
		cmocka_unit_test(test_find_cell),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
