/* What each kind of sweep varies and measures: names and membership
 * tables, nothing else. */
#include "sweep.h"

#include <errno.h>
#include <string.h>

const struct metric_desc sweep_metrics[M_COUNT] = {
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

static const char *const kind_names[KIND_COUNT] = {
	[KIND_OVERHEAD] = "overhead", [KIND_REAP] = "reap",
	[KIND_COHORT] = "cohort",
};

static const char *const dim_names[DIM_COUNT] = {
	[DIM_RATE] = "rate", [DIM_TGID] = "tgid",
	[DIM_BACKGROUND] = "background", [DIM_MMAP] = "mmap",
	[DIM_WORK] = "work", [DIM_LISTENER] = "listener",
	[DIM_DACCT] = "delayacct",
};

const char *sweep_kind_name(enum sweep_kind k)
{
	return k < KIND_COUNT ? kind_names[k] : "?";
}

int sweep_kind_from_name(const char *s, enum sweep_kind *k)
{
	for (int i = 0; i < KIND_COUNT; i++)
		if (!strcmp(s, kind_names[i])) {
			*k = (enum sweep_kind)i;
			return 0;
		}
	return -EINVAL;
}

const char *sweep_dim_name(enum sweep_dim d)
{
	return d < DIM_COUNT ? dim_names[d] : "?";
}

bool sweep_kind_has_dim(enum sweep_kind k, enum sweep_dim d)
{
	switch (d) {
	case DIM_RATE:
	case DIM_TGID: return k == KIND_OVERHEAD;
	case DIM_BACKGROUND:
	case DIM_MMAP: return k == KIND_REAP;
	case DIM_WORK: return k == KIND_COHORT;
	case DIM_LISTENER:
	case DIM_DACCT: return true;
	default: return false;
	}
}

enum sweep_dim sweep_kind_row_dim(enum sweep_kind k)
{
	switch (k) {
	case KIND_REAP: return DIM_BACKGROUND;
	case KIND_COHORT: return DIM_WORK;
	default: return DIM_RATE;
	}
}

bool sweep_kind_has_metric(enum sweep_kind k, enum sweep_metric m)
{
	switch (m) {
	case M_USER: case M_SYS: case M_ELAPSED: case M_WALL: case M_EXITS:
	case M_RECORDS: case M_LOST: case M_DROPPED: case M_ENOBUFS:
	case M_MON_USER: case M_MON_SYS: case M_DACCT_STATE:
		return true;
	case M_ACHIEVED: case M_LATE_P99: case M_SATURATED:
	case M_CPU_US_PER_EXIT: case M_MACHINE_CPU_US_PER_EXIT:
	case M_TS_NS_PER_EXIT: case M_TGID_ON_SHARE: case M_LISTENER_SHARE:
	case M_FOREIGN_EXITS: case M_MON_US_PER_RECORD:
	case M_PROBE_BPF_NS_PER_EXIT: case M_PROBE_SAMPLES_PER_EXIT:
		return k == KIND_OVERHEAD;
	case M_FORK_REAP_P50: case M_FORK_REAP_P99: case M_KILL_REAP:
	case M_KILL_BG:
		return k == KIND_REAP;
	case M_FIRST: case M_LAST: case M_SPREAD: case M_GROUPS:
	case M_BIGGEST_GROUP: case M_CPU_DELAY_MEAN: case M_CPU_DELAY_MAX:
	case M_BLKIO_DELAY_MEAN: case M_BLKIO_DELAY_MAX: case M_RUN_REAL_MEAN:
	case M_IMPLAUSIBLE: case M_EXCLUDED:
		return k == KIND_COHORT;
	default:
		return false;
	}
}
