/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a run is asked to do and why it stops: the vocabulary the public
 * spawn.h and every spawn_*.c below it share.  main() fills a spawn_config
 * from the options; the spawners read it while the run lasts. */
#ifndef EXITGEN_SPAWN_CONFIG_H
#define EXITGEN_SPAWN_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

#include "workload.h"

enum spawn_exit_by { EXIT_BY_EXIT, EXIT_BY_SIGNAL };

/* Why the run stopped (spawn_result.stopped_by). */
enum spawn_stop {
	STOP_COUNT, STOP_DURATION, STOP_SIGNAL, STOP_LIMIT, STOP_ERROR,
};

#define SPAWN_TAG_MAX 15	/* TASK_COMM_LEN - 1 */

struct spawn_config {
	enum spawn_shape shape;
	unsigned group_threads;	/* K of group:K */
	double rate;		/* exits per second; 0 = flat out */
	uint64_t count;		/* UINT64_MAX: bounded by duration only */
	double duration;	/* seconds; 0: bounded by count only */
	unsigned workers;	/* spawner threads */
	unsigned batch;		/* pre-create this many per worker; 0: off */
	unsigned cohort;	/* start this many together; 0: off */
	uint64_t background;	/* idle children kept alive for the run */
	uint64_t mmap_bytes;	/* shared file mapping touched first; 0: off */
	const char *mmap_path;	/* NULL: an unlinked temporary file */
	struct spawn_work work;
	char tag[SPAWN_TAG_MAX + 1];
	enum spawn_exit_by exit_by;
	bool baseline;		/* bare create-and-join loop, flat out */
};

#endif
