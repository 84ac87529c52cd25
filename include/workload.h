/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The workload vocabulary shared by exitgen (which runs it) and exitsweep
 * (which checks its own --work and --shape values with the same parser). */
#ifndef COMMON_WORKLOAD_H
#define COMMON_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>

enum spawn_shape {
	SHAPE_THREAD,	/* pthreads of our own process: tgid accounting on */
	SHAPE_PROCESS,	/* clone(CLONE_VM) processes: tgid accounting off */
	SHAPE_FORK,	/* fork() + _exit(): full address-space copy */
	SHAPE_GROUP,	/* processes of K threads: one tgid record each */
};

/* Work every task (every thread of a group) does before it exits. */
struct spawn_work {
	uint64_t cpu_ns;	/* burn this much CPU time */
	uint64_t touch_bytes;	/* map and touch this much fresh memory */
	uint64_t write_bytes;	/* write this many bytes ... */
	const char *write_path;	/* ... to this file (NULL: /dev/null) */
	bool write_sync;	/* ... and wait for it to reach the disk */
};

/* "thread", "process", "fork", "group:K". */
int workload_parse_shape(const char *s, enum spawn_shape *shape, unsigned *k);
const char *workload_shape_name(enum spawn_shape shape);
/* "cpu:USEC", "touch:BYTES", "write:BYTES[:PATH]", "sync:...", added to *w. */
int workload_parse_work(const char *s, struct spawn_work *w);

#endif
