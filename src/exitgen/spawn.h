/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exitgen's engine: create tasks of one shape that exit on a schedule,
 * reap them, and account for what happened.  main() parses options into a
 * spawn_config (spawn_config.h), calls spawn_run() and prints the
 * spawn_result. */
#ifndef EXITGEN_SPAWN_H
#define EXITGEN_SPAWN_H

#include <stdint.h>
#include <sys/resource.h>

#include "hist.h"
#include "spawn_config.h"

struct spawn_result {
	uint64_t exits;		/* tasks reaped */
	uint64_t created;	/* tasks created */
	double elapsed;		/* seconds, schedule start to last reap */
	struct rusage self;	/* over the run only (setup excluded) */
	struct rusage children;
	uint64_t cpu_self;	/* exact CPU over the run, ns (spawn_ctx_cpu) */
	uint64_t cpu_children;	/* the reaped children's, ns, to the us */
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
