/* exitgen's engine: create tasks of one shape that exit on a schedule,
 * reap them, and account for what happened.  main() parses options into a
 * spawn_config, calls spawn_run() and prints the spawn_result. */
#ifndef EXITGEN_SPAWN_H
#define EXITGEN_SPAWN_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>

#include "hist.h"
#include "workload.h"

enum spawn_exit_by { EXIT_BY_EXIT, EXIT_BY_SIGNAL };

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

struct spawn_result {
	uint64_t exits;		/* tasks reaped */
	uint64_t created;	/* tasks created */
	double elapsed;		/* seconds, schedule start to last reap */
	struct rusage self;	/* over the run only (setup excluded) */
	struct rusage children;
	struct hist late;	/* issue time minus deadline, ns */
	struct hist reap;	/* create (or release) to reap, ns */
	enum spawn_stop stopped_by;
	int error;		/* -errno of the failure that stopped us */
	const char *error_what;	/* what failed, for the message */
	uint64_t background;	/* background children made */
	double kill_background;	/* seconds to kill and reap them */
	double cohort_release;	/* cohort: monotonic seconds of the release */
	double *cohort_finish;	/* cohort: seconds after release, sorted */
	uint64_t cohort_n;
	long children_left;	/* children still there at the end: must be 0 */
};

/* Run the whole thing.  Returns 0 when the run could start (the result
 * then says how it ended), or -errno when setup failed (with error_what).
 * Returns with SIGINT and SIGTERM blocked: a late one must not cut the
 * report short. */
int spawn_run(const struct spawn_config *cfg, struct spawn_result *res);
void spawn_result_free(struct spawn_result *res);

const char *spawn_stop_name(enum spawn_stop s);

#endif
