// SPDX-License-Identifier: GPL-2.0-or-later
/* exitsweep's statistics, end to end from runs to table numbers, against
 * values worked out by hand: cell means and their 95% intervals, the
 * overhead formula (on - off) / off x 100 with Welch's interval, the
 * significance of a figure (its mark in a table: test_sweep_fmt.c), loss
 * sums, and the comparisons a matrix yields. */
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

#include "sweep_analyze.h"
#include "sweep_plan.h"
#include "sweepbuild.h"

#define near(a, b, tol) do { \
	double a_ = (a), b_ = (b); \
	if (!(fabs(a_ - b_) <= (tol))) \
		fail_msg("%s = %.9g, want %.9g", #a, a_, b_); \
} while (0)

/* One rate, tgid on,off, one listener; runs filled by hand. */
static void setup_cfg(struct sweep_config *cfg, unsigned runs, const char *listeners)
{
	sb_config(cfg, runs, 7, "1000", listeners);
	cfg->count = 1000;
}

static long cell_of(const struct sweep_config *cfg, const struct sweep_plan *plan,
		    int tgid_on, int listener)
{
	for (size_t c = 0; c < plan->n_cells; c++)
		if (cell_val(cfg, &plan->cells[c], DIM_TGID) == tgid_on &&
		    cell_val(cfg, &plan->cells[c], DIM_LISTENER) == listener)
			return (long)c;
	return -1;
}

/* Give the k-th run of cell c the value v of metric m. */
static void set_run(struct sweep_plan *plan, size_t c, unsigned k,
		    enum sweep_metric m, double v)
{
	for (size_t i = 0; i < plan->n_runs; i++)
		if (plan->runs[i].cell == c && plan->runs[i].rep == k) {
			plan->runs[i].v[m] = v;
			plan->runs[i].done = true;
			return;
		}
	fail_msg("no run %u of cell %zu", k, c);
}

static const struct figure *find_fig(const struct analysis *a, const char *section,
				     enum sweep_metric m)
{
	for (size_t i = 0; i < a->n_figs; i++)
		if (a->figs[i].metric == m &&
		    !strcmp(a->cmp[a->figs[i].comparison].section, section))
			return &a->figs[i];
	return NULL;
}

/* Sys, 4 runs each:
 *   on  = 12, 12.5, 13, 12.5   mean 12.5, sd sqrt(0.5/3) = 0.408248
 *   off = 10, 10.5, 9.5, 10    mean 10,   sd 0.408248
 * Welch: se^2 = 2 * (0.5/3)/4 = 1/12, se = 0.288675; df = (1/12)^2 /
 * (2 * (1/24)^2 / 3) = 6; t95(6) = 2.446912; half = 0.706365.
 * Overhead = 2.5/10 x 100 = 25%, interval 25 +- 7.06365 = [17.936, 32.064]:
 * significant.
 * Elapsed, 3 runs each:
 *   on = 11, 12, 13 (mean 12, sd 1), off = 10, 10, 10 (mean 10, sd 0)
 * se = 1/sqrt(3) = 0.577350, df = 2, t95(2) = 4.302653, half = 2.484138:
 * 20% +- 24.84138 = [-4.84138, 44.84138]: not significant. */
static void test_overhead_by_hand(void **state)
{
	struct sweep_config cfg;
	struct sweep_plan plan;
	struct analysis a;
	const struct figure *f;
	const double on[] = { 12, 12.5, 13, 12.5 }, off[] = { 10, 10.5, 9.5, 10 };
	const double eon[] = { 11, 12, 13 };
	long con, coff;

	(void)state;
	setup_cfg(&cfg, 4, "none");
	assert_int_equal(sweep_plan_build(&cfg, &plan), 0);
	assert_int_equal(plan.n_cells, 2);
	assert_int_equal(plan.n_runs, 8);
	con = cell_of(&cfg, &plan, 1, LISTEN_NONE);
	coff = cell_of(&cfg, &plan, 0, LISTEN_NONE);
	assert_true(con >= 0 && coff >= 0);
	for (unsigned k = 0; k < 4; k++) {
		set_run(&plan, (size_t)con, k, M_SYS, on[k]);
		set_run(&plan, (size_t)coff, k, M_SYS, off[k]);
		set_run(&plan, (size_t)con, k, M_USER, 2.0);
		set_run(&plan, (size_t)coff, k, M_USER, 2.0);
		if (k < 3) {
			set_run(&plan, (size_t)con, k, M_ELAPSED, eon[k]);
			set_run(&plan, (size_t)coff, k, M_ELAPSED, 10);
		}
	}
	assert_int_equal(sweep_analyze(&cfg, &plan, &a), 0);

	/* cell means and the interval of a mean: t95(3) = 3.182446,
	 * half = 3.182446 x 0.408248 / 2 = 0.649614 */
	near(a.cells[con].m[M_SYS].mean, 12.5, 1e-12);
	near(a.cells[con].m[M_SYS].sd, 0.40824829, 1e-8);
	assert_true(a.cells[con].m[M_SYS].has_ci);
	near(a.cells[con].m[M_SYS].ci.half, 0.64961, 1e-5);
	near(a.cells[con].m[M_SYS].ci.lo, 12.5 - 0.64961, 1e-5);
	assert_int_equal(a.cells[con].runs, 4);
	assert_int_equal(a.cells[con].m[M_ELAPSED].n, 3);

	/* one comparison: tgid; no listener or delay accounting pair */
	assert_int_equal(a.n_cmp, 1);
	assert_string_equal(a.cmp[0].section, "tgid");
	/* ts_ns, cpu_us, machine_cpu_us (no values: n/a), user, sys, elapsed */
	assert_int_equal(a.n_figs, 6);
	f = find_fig(&a, "tgid", M_TS_NS_PER_EXIT);
	assert_non_null(f);
	assert_false(f->ok);
	assert_false(f->diff_ok);

	f = find_fig(&a, "tgid", M_SYS);
	assert_non_null(f);
	assert_true(f->ok);
	assert_int_equal(f->cell_a, con);
	assert_int_equal(f->cell_b, coff);
	near(f->ci.est, 25.0, 1e-9);
	near(f->ci.df, 6.0, 1e-9);
	near(f->ci.half, 7.06365, 1e-4);
	near(f->ci.lo, 17.93635, 1e-4);
	near(f->ci.hi, 32.06365, 1e-4);
	assert_true(f->significant);
	/* the same interval in seconds: 2.5 ± 0.706365 */
	assert_true(f->diff_ok);
	near(f->diff.est, 2.5, 1e-9);
	near(f->diff.half, 0.706365, 1e-5);
	/* 4 x 14.5 s of user+sys at HZ=250 is plenty of ticks */
	assert_false(sweep_analyze_few_ticks(250, 58, 50.0 / 58, 12.5, 4,
					     48, 40.0 / 48, 10, 4));

	f = find_fig(&a, "tgid", M_ELAPSED);
	assert_non_null(f);
	assert_true(f->ok);
	near(f->ci.est, 20.0, 1e-9);
	near(f->ci.df, 2.0, 1e-9);
	near(f->ci.lo, -4.84138, 1e-4);
	near(f->ci.hi, 44.84138, 1e-4);
	assert_false(f->significant);

	/* equal runs: 0% with a zero-width interval, not significant */
	f = find_fig(&a, "tgid", M_USER);
	assert_non_null(f);
	assert_true(f->ok);
	near(f->ci.est, 0.0, 1e-12);
	assert_false(f->significant);

	sweep_analyze_free(&a);
	sweep_plan_free(&plan);
}

/* A cell whose runs are all equal (user 0 ± 0: no tick fell in it) is no
 * measurement: never significant, however far the other cell is. */
static void test_zero_variance(void **state)
{
	struct sweep_config cfg;
	struct sweep_plan plan;
	struct analysis a;
	const struct figure *f;
	const double off[] = { 0.010, 0.020, 0.015, 0.012 };
	const double zero[] = { 0, 0, 0 }, one[] = { 1, 1.5 };
	long con, coff;

	(void)state;
	setup_cfg(&cfg, 4, "none");
	assert_int_equal(sweep_plan_build(&cfg, &plan), 0);
	con = cell_of(&cfg, &plan, 1, LISTEN_NONE);
	coff = cell_of(&cfg, &plan, 0, LISTEN_NONE);
	for (unsigned k = 0; k < 4; k++) {
		set_run(&plan, (size_t)con, k, M_USER, 0);
		set_run(&plan, (size_t)coff, k, M_USER, off[k]);
	}
	assert_int_equal(sweep_analyze(&cfg, &plan, &a), 0);
	f = find_fig(&a, "tgid", M_USER);
	assert_non_null(f);
	assert_true(f->ok);
	near(f->ci.est, -100.0, 1e-9);
	assert_true(f->ci.hi < 0);	/* Welch alone would call it significant */
	assert_false(f->significant);
	/* and 0.057 s of user+sys is far fewer than 100 ticks */
	assert_true(f->few_ticks);
	sweep_analyze_free(&a);
	sweep_plan_free(&plan);

	assert_true(sweep_analyze_constant(zero, 3));
	assert_true(sweep_analyze_constant(zero, 0));
	assert_false(sweep_analyze_constant(one, 2));
}

/* Ticks: too few in a cell, or a difference inside the sampling error. */
static void test_few_ticks(void **state)
{
	(void)state;
	/* 0.3 s at 250 Hz = 75 ticks < 100 */
	assert_true(sweep_analyze_few_ticks(250, 0.3, 0.5, 0.15, 3, 10, 0.5, 5, 3));
	/* 100 s each, 25000 ticks, p = 0.5: se per cell = sqrt(6250)/250/10
	 * = 0.0316 s; combined 0.0447; twice that 0.0894 */
	assert_true(sweep_analyze_few_ticks(250, 100, 0.5, 5.0, 10, 100, 0.5, 5.08, 10));
	assert_false(sweep_analyze_few_ticks(250, 100, 0.5, 5.0, 10, 100, 0.5, 5.1, 10));
	assert_true(sweep_analyze_few_ticks(0, 100, 0.5, 5.0, 10, 100, 0.5, 9, 10));
	/* children of 70 us at 250 Hz hold 0.0175 ticks each; of 10 ms, 2.5 */
	assert_true(sweep_analyze_child_ticks_short(250, 70e-6));
	assert_false(sweep_analyze_child_ticks_short(250, 10e-3));
	assert_true(sweep_analyze_child_ticks_short(250, NAN));
}

/* One run per cell cannot give an interval: the figure is n/a, the mean
 * still is. An off mean of 0 cannot be divided by: n/a. */
static void test_too_few_runs(void **state)
{
	struct sweep_config cfg;
	struct sweep_plan plan;
	struct analysis a;
	const struct figure *f;
	long con, coff;

	(void)state;
	setup_cfg(&cfg, 2, "none");
	assert_int_equal(sweep_plan_build(&cfg, &plan), 0);
	con = cell_of(&cfg, &plan, 1, LISTEN_NONE);
	coff = cell_of(&cfg, &plan, 0, LISTEN_NONE);
	set_run(&plan, (size_t)con, 0, M_SYS, 3);
	set_run(&plan, (size_t)coff, 0, M_SYS, 2);
	set_run(&plan, (size_t)con, 0, M_USER, 1);
	set_run(&plan, (size_t)con, 1, M_USER, 2);
	set_run(&plan, (size_t)coff, 0, M_USER, 0);
	set_run(&plan, (size_t)coff, 1, M_USER, 0);
	assert_int_equal(sweep_analyze(&cfg, &plan, &a), 0);
	f = find_fig(&a, "tgid", M_SYS);
	assert_non_null(f);
	assert_false(f->ok);
	assert_false(f->significant);
	near(a.cells[con].m[M_SYS].mean, 3, 0);
	assert_false(a.cells[con].m[M_SYS].has_ci);
	f = find_fig(&a, "tgid", M_USER);
	assert_non_null(f);
	assert_false(f->ok);
	sweep_analyze_free(&a);
	sweep_plan_free(&plan);
}

/* Listener batch over none is a second comparison; the loss counters sum
 * over runs; runs without a listener have no loss numbers at all. */
static void test_listener_and_loss(void **state)
{
	struct sweep_config cfg;
	struct sweep_plan plan;
	struct analysis a;
	const struct figure *f;
	long cb, cn;

	(void)state;
	setup_cfg(&cfg, 3, "none,batch");
	assert_int_equal(sweep_plan_build(&cfg, &plan), 0);
	assert_int_equal(plan.n_cells, 4);
	cb = cell_of(&cfg, &plan, 1, LISTEN_BATCH);
	cn = cell_of(&cfg, &plan, 1, LISTEN_NONE);
	for (unsigned k = 0; k < 3; k++) {
		/* batch 1.1, 1.2, 1.3 over none 1.0, 1.0, 1.0: +20% */
		set_run(&plan, (size_t)cb, k, M_SYS, 1.1 + 0.1 * k);
		set_run(&plan, (size_t)cn, k, M_SYS, 1.0);
		set_run(&plan, (size_t)cb, k, M_EXITS, 1000);
		set_run(&plan, (size_t)cb, k, M_RECORDS, 1000 - 3 * k);
		set_run(&plan, (size_t)cb, k, M_LOST, 3 * k);
		set_run(&plan, (size_t)cb, k, M_DROPPED, 3 * k);
		set_run(&plan, (size_t)cb, k, M_ENOBUFS, k ? 1 : 0);
		set_run(&plan, (size_t)cn, k, M_EXITS, 1000);
	}
	assert_int_equal(sweep_analyze(&cfg, &plan, &a), 0);
	assert_int_equal(a.n_cmp, 2);
	assert_string_equal(a.cmp[1].section, "listener:batch");
	f = find_fig(&a, "listener:batch", M_SYS);
	assert_non_null(f);
	assert_int_equal(f->cell_a, cb);
	assert_int_equal(f->cell_b, cn);
	near(f->ci.est, 20.0, 1e-9);
	/* se = 0.1/sqrt(3), df 2: half = 4.302653 x 0.057735 / 1.0 x 100 */
	near(f->ci.half, 24.84138, 1e-4);
	near(a.cells[cb].m[M_LOST].sum, 9, 0);
	near(a.cells[cb].m[M_LOST].max, 6, 0);
	near(a.cells[cb].m[M_RECORDS].sum, 2991, 0);
	near(a.cells[cb].m[M_ENOBUFS].sum, 2, 0);
	assert_int_equal(a.cells[cn].m[M_LOST].n, 0);
	assert_true(isnan(a.cells[cn].m[M_LOST].mean));
	sweep_analyze_free(&a);
	sweep_plan_free(&plan);
}

/* A cell whose exits met another program's listener is tainted whether it
 * has a listener of ours or not: the listener cell's per-exit cost carries
 * the other listener's reply too.  Every comparison touching it is
 * excluded; the clean cells still compare. */
static void test_foreign_listener_taints(void **state)
{
	struct sweep_config cfg;
	struct sweep_plan plan;
	struct analysis a;
	const struct figure *f;
	long cbon, cboff, cnon, cnoff;

	(void)state;
	setup_cfg(&cfg, 2, "none,batch");
	assert_int_equal(sweep_plan_build(&cfg, &plan), 0);
	cbon = cell_of(&cfg, &plan, 1, LISTEN_BATCH);
	cboff = cell_of(&cfg, &plan, 0, LISTEN_BATCH);
	cnon = cell_of(&cfg, &plan, 1, LISTEN_NONE);
	cnoff = cell_of(&cfg, &plan, 0, LISTEN_NONE);
	for (unsigned k = 0; k < 2; k++) {
		set_run(&plan, (size_t)cbon, k, M_TS_NS_PER_EXIT, 5000 + k);
		set_run(&plan, (size_t)cboff, k, M_TS_NS_PER_EXIT, 2700 + k);
		set_run(&plan, (size_t)cnon, k, M_TS_NS_PER_EXIT, 260 + k);
		set_run(&plan, (size_t)cnoff, k, M_TS_NS_PER_EXIT, 30 + k);
		/* one run of the thread batch cell met a foreign listener */
		set_run(&plan, (size_t)cbon, k, M_FOREIGN_EXITS, k ? 17 : 0);
		set_run(&plan, (size_t)cboff, k, M_FOREIGN_EXITS, 0);
		set_run(&plan, (size_t)cnon, k, M_FOREIGN_EXITS, 0);
		set_run(&plan, (size_t)cnoff, k, M_FOREIGN_EXITS, 0);
	}
	assert_int_equal(sweep_analyze(&cfg, &plan, &a), 0);
	assert_true(a.cells[cbon].tainted);
	assert_false(a.cells[cboff].tainted);
	assert_false(a.cells[cnon].tainted);
	near(a.cells[cbon].m[M_FOREIGN_EXITS].sum, 17, 0);
	for (size_t i = 0; i < a.n_figs; i++) {
		f = &a.figs[i];
		if (f->metric != M_TS_NS_PER_EXIT)
			continue;
		if (f->cell_a == (size_t)cbon || f->cell_b == (size_t)cbon) {
			assert_true(f->excluded);
			assert_false(f->ok || f->diff_ok || f->significant);
		} else {
			assert_false(f->excluded);
			assert_true(f->diff_ok);
		}
	}
	sweep_analyze_free(&a);
	sweep_plan_free(&plan);
}

/* Delay accounting both: on over off; the row key names every dimension
 * but the compared one. */
static void test_dacct_comparison_key(void **state)
{
	struct sweep_config cfg;
	struct sweep_plan plan;
	struct analysis a;
	char key[256];

	(void)state;
	setup_cfg(&cfg, 2, "batch");
	assert_int_equal(sweep_plan_parse_dacct("both", &cfg.dim[DIM_DACCT]), 0);
	assert_int_equal(sweep_plan_build(&cfg, &plan), 0);
	assert_int_equal(plan.n_cells, 4);
	assert_int_equal(sweep_analyze(&cfg, &plan, &a), 0);
	assert_int_equal(a.n_cmp, 2);
	assert_string_equal(a.cmp[0].section, "tgid");
	assert_string_equal(a.cmp[1].section, "delayacct");
	assert_int_equal(cfg.dim[DIM_DACCT].val[a.cmp[1].a], DACCT_ON);
	assert_int_equal(cfg.dim[DIM_DACCT].val[a.cmp[1].b], DACCT_OFF);
	sweep_analyze_cell_key(&cfg, &plan.cells[0], DIM_DACCT, key, sizeof(key));
	assert_string_equal(key, "rate=1000 tgid=on listener=batch");
	sweep_analyze_cell_key(&cfg, &plan.cells[0], DIM_COUNT, key, sizeof(key));
	assert_string_equal(key, "rate=1000 tgid=on listener=batch delayacct=on");
	sweep_analyze_free(&a);
	sweep_plan_free(&plan);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_overhead_by_hand),
		cmocka_unit_test(test_zero_variance),
		cmocka_unit_test(test_few_ticks),
		cmocka_unit_test(test_too_few_runs),
		cmocka_unit_test(test_listener_and_loss),
		cmocka_unit_test(test_dacct_comparison_key),
		cmocka_unit_test(test_foreign_listener_taints),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
