// SPDX-License-Identifier: GPL-2.0-or-later
/* The metrics on either clock: on the instruction clock every timed
 * metric is named and labelled in instr and its values scaled to plain
 * counts; nothing else changes, and the host's clock's table is the one
 * native outputs have always had. */
#include <math.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "sweep.h"
#include "sweep_metrics.h"

static void test_instr_name(void **state)
{
	char b[48];

	(void)state;
	assert_int_equal(sweep_metrics_instr_name("ts_ns_per_exit", "ns", b, sizeof(b)), 0);
	assert_string_equal(b, "ts_instr_per_exit");
	assert_int_equal(sweep_metrics_instr_name("user_s", "s", b, sizeof(b)), 0);
	assert_string_equal(b, "user_instr");
	/* the unit as a word: "s" of "sys_s" is the last one, not the first */
	assert_int_equal(sweep_metrics_instr_name("sys_s", "s", b, sizeof(b)), 0);
	assert_string_equal(b, "sys_instr");
	assert_int_equal(sweep_metrics_instr_name("late_p99_us", "us", b, sizeof(b)), 0);
	assert_string_equal(b, "late_p99_instr");
	/* no such word, or no room: refused */
	assert_int_equal(sweep_metrics_instr_name("achieved_rate", "s", b, sizeof(b)), -1);
	assert_int_equal(sweep_metrics_instr_name("ts_ns_per_exit", "ns", b, 10), -1);
}

/* Whether a name still has a time unit as a word of its own. */
static bool has_time_word(const char *name)
{
	char b[64], *save = NULL;

	snprintf(b, sizeof(b), "%s", name);
	for (char *w = strtok_r(b, "_", &save); w; w = strtok_r(NULL, "_", &save))
		if (!strcmp(w, "ns") || !strcmp(w, "us") || !strcmp(w, "ms") ||
		    !strcmp(w, "s"))
			return true;
	return false;
}

/* Every timed metric has an instr name with no unit word left, every
 * other metric keeps its name and unit. */
static void test_tables(void **state)
{
	const char *ns_name[M_COUNT], *ns_unit[M_COUNT];

	(void)state;
	sweep_metrics_set_clock(false);
	assert_false(sweep_metrics_instr());
	assert_string_equal(sweep_metrics_unit(), "ns");
	assert_string_equal(sweep_metrics[M_TS_NS_PER_EXIT].name, "ts_ns_per_exit");
	for (int m = 0; m < M_COUNT; m++) {
		ns_name[m] = sweep_metrics[m].name;
		ns_unit[m] = sweep_metrics[m].unit;
	}
	sweep_metrics_set_clock(true);
	assert_true(sweep_metrics_instr());
	assert_string_equal(sweep_metrics_unit(), "instr");
	for (int m = 0; m < M_COUNT; m++) {
		bool timed = sweep_metrics_instr_scale((enum sweep_metric)m) > 0;

		if (!timed) {
			assert_string_equal(sweep_metrics[m].name, ns_name[m]);
			assert_string_equal(sweep_metrics[m].unit, ns_unit[m]);
			continue;
		}
		assert_string_equal(sweep_metrics[m].unit, "instr");
		assert_non_null(strstr(sweep_metrics[m].name, "instr"));
		assert_false(has_time_word(sweep_metrics[m].name));
	}
	assert_string_equal(sweep_metrics[M_CPU_US_PER_EXIT].name, "cpu_instr_per_exit");
	assert_string_equal(sweep_metrics[M_ACHIEVED].unit, "1/s");
	sweep_metrics_set_clock(false);
	assert_string_equal(sweep_metrics[M_CPU_US_PER_EXIT].name, "cpu_us_per_exit");
}

/* A run's values: counts of instructions on the instruction clock (a ns
 * of its clock is one), untouched on the host's; seconds back for the
 * tick's arithmetic on both. */
static void test_scale(void **state)
{
	double v[M_COUNT];

	(void)state;
	for (int m = 0; m < M_COUNT; m++)
		v[m] = 2;
	sweep_metrics_set_clock(false);
	sweep_metrics_to_instr(v);
	assert_true(v[M_USER] == 2 && v[M_CPU_US_PER_EXIT] == 2);
	assert_true(sweep_metrics_seconds(M_USER, 0.25) == 0.25);
	assert_true(fabs(sweep_metrics_seconds(M_CPU_US_PER_EXIT, 250) - 250e-6) < 1e-18);
	sweep_metrics_set_clock(true);
	sweep_metrics_to_instr(v);
	assert_true(v[M_TS_NS_PER_EXIT] == 2);
	assert_true(v[M_CPU_US_PER_EXIT] == 2000);
	assert_true(v[M_CPU_DELAY_MEAN] == 2e6);
	assert_true(v[M_USER] == 2e9);
	assert_true(v[M_ACHIEVED] == 2 && v[M_TGID_ON_SHARE] == 2 && v[M_EXITS] == 2);
	assert_true(sweep_metrics_seconds(M_USER, 2e9) == 2);
	assert_true(sweep_metrics_seconds(M_TGID_ON_SHARE, 0.5) == 0.5);
	sweep_metrics_set_clock(false);
}

/* Only taskstats_exit's figure on the instruction clock repeats exactly
 * (exitprobe's mode): user and sys stay tick-sampled there. */
static void test_exact(void **state)
{
	(void)state;
	sweep_metrics_set_clock(false);
	assert_false(sweep_metrics_exact(M_TS_NS_PER_EXIT));
	sweep_metrics_set_clock(true);
	assert_true(sweep_metrics_exact(M_TS_NS_PER_EXIT));
	assert_false(sweep_metrics_exact(M_USER));
	assert_false(sweep_metrics_exact(M_CPU_US_PER_EXIT));
	sweep_metrics_set_clock(false);
	/* a file's metric, whatever this process's clock */
	assert_true(sweep_metrics_exact_name("ts_instr_per_exit"));
	assert_false(sweep_metrics_exact_name("ts_ns_per_exit"));
	assert_false(sweep_metrics_exact_name("user_instr"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_instr_name),
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_scale),
		cmocka_unit_test(test_exact),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
