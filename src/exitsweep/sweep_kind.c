// SPDX-License-Identifier: GPL-2.0-or-later
/* What each kind of sweep varies and measures: names and membership
 * tables, nothing else. */
#include "sweep.h"

#include <errno.h>
#include <string.h>

static const char *const kind_names[KIND_COUNT] = {
	[KIND_OVERHEAD] = "overhead", [KIND_REAP] = "reap",
	[KIND_COHORT] = "cohort",
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
