/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A cohort (spawn_cohort.c): N tasks released together. */
#ifndef EXITGEN_SPAWN_COHORT_H
#define EXITGEN_SPAWN_COHORT_H

#include "spawn_worker.h"

/* Make the cohort on w's slots, release it, reap it; w->finish then holds
 * each task's end of work in seconds after the release, sorted.  0, or
 * -ENOMEM for the finish times. */
int spawn_cohort_run(struct worker *w);

#endif
