// SPDX-License-Identifier: GPL-2.0-or-later
/* What exitsweep makes of exitprobe: its summary (include/probe_summary.h)
 * into a run's metrics, the probe's cost from ABBA blocks, and the
 * --probe modes. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "kv.h"
#include "sweep.h"
#include "sweep_probe.h"

static void nan_all(double *v)
{
	for (int i = 0; i < M_COUNT; i++)
		v[i] = NAN;
}

static void test_probe_summary(void **state)
{
	struct kvmap kv = { 0 };
	double v[M_COUNT];
	char d[128];

	(void)state;
	nan_all(v);
	assert_int_equal(kv_map_parse("method=sample\nperiod_us=100\nexits=4000\n"
		"exits_tgid_on=3990\nexits_listener=4000\nexits_foreign_listener=12\n"
		"ns_per_exit=2712.5\nns_per_exit_ci95=140\n"
		"ns_per_exit_tgid_on_listener=2715\n", &kv), 0);
	assert_int_equal(sweep_probe_apply(&kv, "ns", v), 0);
	assert_true(fabs(v[M_TS_NS_PER_EXIT] - 2712.5) < 1e-9);
	assert_true(fabs(v[M_TGID_ON_SHARE] - 0.9975) < 1e-12);
	assert_true(fabs(v[M_LISTENER_SHARE] - 1.0) < 1e-12);
	assert_true(fabs(v[M_FOREIGN_EXITS] - 12) < 1e-12);
	sweep_probe_describe(&kv, d, sizeof(d));
	assert_string_equal(d, "sample, period 100 us");
	/* no probe_bpf_ns or samples: its own cost stays n/a */
	assert_true(isnan(v[M_PROBE_BPF_NS_PER_EXIT]) &&
		    isnan(v[M_PROBE_SAMPLES_PER_EXIT]));
	kv_map_free(&kv);

	/* the probe's own cost in the run, per exit */
	nan_all(v);
	assert_int_equal(kv_map_parse("method=sample\nexits=4000\n"
		"samples=80000\nprobe_bpf_runs=120000\nprobe_bpf_ns=61000000\n",
		&kv), 0);
	assert_int_equal(sweep_probe_apply(&kv, "ns", v), 0);
	assert_true(fabs(v[M_PROBE_BPF_NS_PER_EXIT] - 15250) < 1e-9);
	assert_true(fabs(v[M_PROBE_SAMPLES_PER_EXIT] - 20) < 1e-12);
	kv_map_free(&kv);

	/* counts beyond the exits, or negative, are not shares: left out */
	nan_all(v);
	assert_int_equal(kv_map_parse("method=fentry\nexits=10\nexits_tgid_on=11\n"
		"exits_listener=-1\nns_per_exit=300\n", &kv), 0);
	assert_int_equal(sweep_probe_apply(&kv, "ns", v), 0);
	assert_true(isnan(v[M_TGID_ON_SHARE]) && isnan(v[M_LISTENER_SHARE]));
	assert_true(fabs(v[M_TS_NS_PER_EXIT] - 300) < 1e-9);
	kv_map_free(&kv);

	/* no exit count: refused */
	assert_int_equal(kv_map_parse("method=sample\nns_per_exit=1\n", &kv), 0);
	assert_int_equal(sweep_probe_apply(&kv, "ns", v), -EBADMSG);
	kv_map_free(&kv);
}

/* ABBA blocks of achieved rates into the probe's cost: per block the
 * probed rates' sum over the alone rates' sum; the median of the blocks,
 * their least and most, and the median rates. */
static void test_probe_cost(void **state)
{
	/* block 0: (24000 + 26000) / (32000 + 32000) = 0.78125
	 * block 1: (20000 + 20000) / (30000 + 34000) = 0.625
	 * block 2: (30000 + 30000) / (33000 + 33000) = 0.909090... */
	const double alone[] = { 32000, 32000, 30000, 34000, 33000, 33000 };
	const double probed[] = { 24000, 26000, 20000, 20000, 30000, 30000 };
	double bad[] = { 32000, 0, 30000, 34000, 33000, 33000 };
	struct sweep_probe_cost pc = { .count = 5000 };
	char d[256];

	(void)state;
	assert_int_equal(sweep_probe_cost_from(alone, probed, 3, &pc), 0);
	assert_int_equal(pc.blocks, 3);
	assert_true(fabs(pc.block[0] - 0.78125) < 1e-12);
	assert_true(fabs(pc.block[1] - 0.625) < 1e-12);
	assert_true(fabs(pc.ratio - 0.78125) < 1e-12);
	assert_true(fabs(pc.lo - 0.625) < 1e-12);
	assert_true(fabs(pc.hi - 60000.0 / 66000) < 1e-12);
	/* alone sorted: 30000 32000 32000 33000 33000 34000 -> 32500;
	 * probed: 20000 20000 24000 26000 30000 30000 -> 25000 */
	assert_true(fabs(pc.alone_rate - 32500) < 1e-9);
	assert_true(fabs(pc.probed_rate - 25000) < 1e-9);
	sweep_probe_cost_describe(&pc, d, sizeof(d));
	assert_string_equal(d, "a flat-out thread exit loop ran at 0.78 of its speed "
			    "under the probe (3 ABBA blocks of 5000 exits: 0.62 to "
			    "0.91; 32500 exits/s alone, 25000 probed)");

	/* a rate that is no positive number, or no blocks: refused */
	assert_int_equal(sweep_probe_cost_from(bad, probed, 3, &pc), -EINVAL);
	bad[1] = NAN;
	assert_int_equal(sweep_probe_cost_from(bad, probed, 3, &pc), -EINVAL);
	assert_int_equal(sweep_probe_cost_from(alone, probed, 0, &pc), -EINVAL);

	/* not measured: says why */
	memset(&pc, 0, sizeof(pc));
	snprintf(pc.why, sizeof(pc.why), "exitgen failed");
	sweep_probe_cost_describe(&pc, d, sizeof(d));
	assert_string_equal(d, "not measured: exitgen failed");
}

/* The unit: a summary without one is an older exitprobe's, ns; one on
 * another clock than the sweep's is refused, whichever way round. */
static void test_probe_unit(void **state)
{
	struct kvmap kv = { 0 };
	double v[M_COUNT];
	char d[128];

	(void)state;
	nan_all(v);
	assert_int_equal(kv_map_parse("method=fentry\nexits=10\nns_per_exit=300\n",
				      &kv), 0);
	assert_string_equal(sweep_probe_unit(&kv), "ns");
	assert_int_equal(sweep_probe_apply(&kv, "instr", v), -EPROTO);
	assert_true(isnan(v[M_TS_NS_PER_EXIT]));
	assert_int_equal(sweep_probe_apply(&kv, "ns", v), 0);
	kv_map_free(&kv);

	nan_all(v);
	assert_int_equal(kv_map_parse("method=fentry\nunit=instr\nexits=10\n"
				      "ns_per_exit=300\n", &kv), 0);
	assert_string_equal(sweep_probe_unit(&kv), "instr");
	assert_int_equal(sweep_probe_apply(&kv, "ns", v), -EPROTO);
	assert_true(isnan(v[M_TS_NS_PER_EXIT]));
	assert_int_equal(sweep_probe_apply(&kv, "instr", v), 0);
	assert_true(fabs(v[M_TS_NS_PER_EXIT] - 300) < 1e-9);
	kv_map_free(&kv);

	/* the sampling period, in thousands of the unit: instructions */
	assert_int_equal(kv_map_parse("method=sample\nunit=instr\nperiod_us=100\n"
				      "method_reason=requested\n", &kv), 0);
	sweep_probe_describe(&kv, d, sizeof(d));
	assert_string_equal(d, "sample, period 100000 instr: requested");
	kv_map_free(&kv);
}

/* Under the instruction clock (headline=mode) the per-exit figure is the
 * mode of the class most exits were in, not the mean that a few long
 * calls skew; without a mode there, or with headline=mean, the mean. */
static void test_probe_mode_headline(void **state)
{
	static const char thread_run[] = "method=fentry\nunit=instr\n"
		"headline=mode\nexits=302\nexits_tgid_on=301\n"
		"ns_per_exit=482.25\n"
		"exits_tgid_on_nolistener=301\nmode_tgid_on_nolistener=479\n"
		"exits_tgid_off_nolistener=1\nmode_tgid_off_nolistener=2900\n";
	struct kvmap kv = { 0 };
	double v[M_COUNT];

	(void)state;
	nan_all(v);
	assert_int_equal(kv_map_parse(thread_run, &kv), 0);
	assert_int_equal(sweep_probe_apply(&kv, "instr", v), 0);
	assert_true(v[M_TS_NS_PER_EXIT] == 479);
	kv_map_free(&kv);

	/* a process run with a listener: its class is tgid_off_listener */
	nan_all(v);
	assert_int_equal(kv_map_parse("unit=instr\nheadline=mode\nexits=301\n"
		"ns_per_exit=4848.5\nexits_tgid_off_listener=300\n"
		"mode_tgid_off_listener=3402\nexits_tgid_on_listener=1\n"
		"mode_tgid_on_listener=3708\n", &kv), 0);
	assert_int_equal(sweep_probe_apply(&kv, "instr", v), 0);
	assert_true(v[M_TS_NS_PER_EXIT] == 3402);
	kv_map_free(&kv);

	/* the main class has no mode (beyond the exact window): the mean */
	nan_all(v);
	assert_int_equal(kv_map_parse("unit=instr\nheadline=mode\nexits=300\n"
		"ns_per_exit=9480.5\nexits_tgid_on_listener=300\n"
		"exits_beyond_window_tgid_on_listener=300\n", &kv), 0);
	assert_int_equal(sweep_probe_apply(&kv, "instr", v), 0);
	assert_true(v[M_TS_NS_PER_EXIT] == 9480.5);
	kv_map_free(&kv);

	/* headline=mean (sample, or the host's clock): the mean */
	nan_all(v);
	assert_int_equal(kv_map_parse("unit=ns\nheadline=mean\nexits=300\n"
		"ns_per_exit=612.5\nexits_tgid_on_nolistener=300\n"
		"mode_tgid_on_nolistener=600\n", &kv), 0);
	assert_int_equal(sweep_probe_apply(&kv, "ns", v), 0);
	assert_true(v[M_TS_NS_PER_EXIT] == 612.5);
	kv_map_free(&kv);
}

static void test_probe_modes(void **state)
{
	enum sweep_probe m;

	(void)state;
	assert_int_equal(sweep_probe_parse_mode("sample", &m), 0);
	assert_int_equal(m, PROBE_SAMPLE);
	assert_int_equal(sweep_probe_parse_mode("off", &m), 0);
	assert_int_equal(m, PROBE_OFF);
	assert_string_equal(sweep_probe_method_arg(PROBE_AUTO), "auto");
	assert_int_equal(sweep_probe_parse_mode("Sample", &m), -EINVAL);
	assert_int_equal(sweep_probe_parse_mode("", &m), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe_summary),
		cmocka_unit_test(test_probe_cost),
		cmocka_unit_test(test_probe_unit),
		cmocka_unit_test(test_probe_mode_headline),
		cmocka_unit_test(test_probe_modes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
