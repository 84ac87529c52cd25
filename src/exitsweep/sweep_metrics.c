// SPDX-License-Identifier: GPL-2.0-or-later
/* The names, units and headings of the metrics, on either clock. */
#include "sweep_metrics.h"

#include <stdio.h>
#include <string.h>

/* The host's clock: the metrics in their own units. */
static const struct metric_desc time_metrics[M_COUNT] = {
	[M_USER] = { "user_s", "s", "User", false, false },
	[M_SYS] = { "sys_s", "s", "Sys", false, false },
	[M_ELAPSED] = { "elapsed_s", "s", "Elapsed", false, false },
	[M_WALL] = { "wall_s", "s", "Wall", false, false },
	[M_ACHIEVED] = { "achieved_rate", "1/s", "Achieved", false, false },
	[M_EXITS] = { "exits", "", "Expected", true, true },
	[M_RECORDS] = { "records", "", "Received", true, true },
	[M_LOST] = { "lost", "", "Lost", true, true },
	[M_DROPPED] = { "dropped", "", "Dropped", true, true },
	[M_ENOBUFS] = { "enobufs", "", "ENOBUFS", true, true },
	[M_MON_USER] = { "monitor_user_s", "s", "Mon user", false, false },
	[M_MON_SYS] = { "monitor_sys_s", "s", "Mon sys", false, false },
	[M_LATE_P99] = { "late_p99_us", "us", "Late p99", false, false },
	[M_SATURATED] = { "saturated", "", "Saturated", true, false },
	[M_DACCT_STATE] = { "delayacct_state", "", "Delayacct", true, false },
	[M_CPU_US_PER_EXIT] = { "cpu_us_per_exit", "us", "CPU/exit", false, false },
	[M_MACHINE_CPU_US_PER_EXIT] = { "machine_cpu_us_per_exit", "us", "Machine CPU/exit",
					false, false },
	[M_TS_NS_PER_EXIT] = { "ts_ns_per_exit", "ns", "taskstats_exit", false, false },
	[M_TGID_ON_SHARE] = { "tgid_on_share", "", "Tgid on", false, false },
	[M_LISTENER_SHARE] = { "listener_share", "", "Listener", false, false },
	[M_FOREIGN_EXITS] = { "foreign_listener_exits", "", "Foreign", true, true },
	[M_MON_US_PER_RECORD] = { "monitor_us_per_record", "us", "Mon CPU/record",
				  false, false },
	[M_PROBE_BPF_NS_PER_EXIT] = { "probe_bpf_ns_per_exit", "ns", "Probe BPF",
				      false, false },
	[M_PROBE_SAMPLES_PER_EXIT] = { "probe_samples_per_exit", "", "Probe samples",
				       false, false },
	[M_FORK_REAP_P50] = { "fork_reap_p50_us", "us", "Fork+reap p50", false, false },
	[M_FORK_REAP_P99] = { "fork_reap_p99_us", "us", "Fork+reap p99", false, false },
	[M_KILL_REAP] = { "kill_reap_s", "s", "Kill+reap batch", false, false },
	[M_KILL_BG] = { "kill_background_s", "s", "Kill background", false, false },
	[M_FIRST] = { "first_exit_s", "s", "First exit", false, false },
	[M_LAST] = { "last_exit_s", "s", "Last exit", false, false },
	[M_SPREAD] = { "spread_s", "s", "Spread", false, false },
	[M_GROUPS] = { "groups", "", "Groups", false, false },
	[M_BIGGEST_GROUP] = { "biggest_group", "", "Biggest", false, false },
	[M_CPU_DELAY_MEAN] = { "cpu_delay_mean_ms", "ms", "CPU delay", false, false },
	[M_CPU_DELAY_MAX] = { "cpu_delay_max_ms", "ms", "CPU delay max", false, false },
	[M_BLKIO_DELAY_MEAN] = { "blkio_delay_mean_ms", "ms", "I/O delay", false, false },
	[M_BLKIO_DELAY_MAX] = { "blkio_delay_max_ms", "ms", "I/O delay max", false, false },
	[M_RUN_REAL_MEAN] = { "cpu_run_mean_ms", "ms", "CPU run", false, false },
	[M_IMPLAUSIBLE] = { "implausible", "", "Implausible", true, true },
	[M_EXCLUDED] = { "excluded_records", "", "Excluded", true, true },
};

/* The instruction clock's table: time_metrics with every time unit made
 * "instr" and the unit's word in the name replaced ("ts_ns_per_exit" ->
 * "ts_instr_per_exit"); built once, on the first switch. */
static struct metric_desc instr_metrics[M_COUNT];
static char instr_names[M_COUNT][48];

const struct metric_desc *sweep_metrics = time_metrics;

double sweep_metrics_instr_scale(enum sweep_metric m)
{
	static const struct { const char *unit; double per; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(time_metrics[m].unit, units[i].unit))
			return units[i].per;
	return 0;
}

int sweep_metrics_instr_name(const char *name, const char *unit, char *buf,
			     size_t len)
{
	size_t n = strlen(name), u = strlen(unit);
	const char *at;
	int w;

	/* the unit as a word of its own: "_us_" inside, or "_s" at the end */
	for (at = strstr(name, unit); at; at = strstr(at + 1, unit))
		if (at > name && at[-1] == '_' && (at[u] == '_' || at[u] == '\0'))
			break;
	if (!at || n + sizeof("instr") > len)
		return -1;
	w = snprintf(buf, len, "%.*sinstr%s", (int)(at - name), name, at + u);
	return w < 0 || (size_t)w >= len ? -1 : 0;
}

static void build_instr_table(void)
{
	for (int m = 0; m < M_COUNT; m++) {
		instr_metrics[m] = time_metrics[m];
		if (sweep_metrics_instr_scale((enum sweep_metric)m) == 0 ||
		    sweep_metrics_instr_name(time_metrics[m].name, time_metrics[m].unit,
					     instr_names[m], sizeof(instr_names[m])) < 0)
			continue;
		instr_metrics[m].name = instr_names[m];
		instr_metrics[m].unit = SWEEP_UNIT_INSTR;
	}
}

void sweep_metrics_set_clock(bool instructions)
{
	if (instructions && !instr_metrics[0].name)
		build_instr_table();
	sweep_metrics = instructions ? instr_metrics : time_metrics;
}

bool sweep_metrics_instr(void)
{
	return sweep_metrics == instr_metrics;
}

const char *sweep_metrics_unit(void)
{
	return sweep_metrics_instr() ? SWEEP_UNIT_INSTR : SWEEP_UNIT_NS;
}

void sweep_metrics_to_instr(double *v)
{
	if (!sweep_metrics_instr())
		return;
	for (int m = 0; m < M_COUNT; m++) {
		double per = sweep_metrics_instr_scale((enum sweep_metric)m);

		if (per > 0)
			v[m] *= per;
	}
}

bool sweep_metrics_exact(enum sweep_metric m)
{
	return sweep_metrics_instr() && m == M_TS_NS_PER_EXIT;
}

bool sweep_metrics_exact_name(const char *name)
{
	const struct metric_desc *ts = &time_metrics[M_TS_NS_PER_EXIT];
	char b[48];

	return sweep_metrics_instr_name(ts->name, ts->unit, b, sizeof(b)) == 0 &&
	       !strcmp(name, b);
}

double sweep_metrics_seconds(enum sweep_metric m, double v)
{
	double per = sweep_metrics_instr_scale(m);

	if (per == 0)
		return v;
	/* an instruction is a ns of the guest's clock */
	return sweep_metrics_instr() ? v / 1e9 : v * (per / 1e9);
}
