/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The cohort kind: N identical workers released together.  exitgen says
 * when they finished and how the finish times group (the 2005 "they finish
 * in pairs" case); exitmon's records add each worker's CPU and block-I/O
 * delays. */
#ifndef EXITSWEEP_SWEEP_COHORT_H
#define EXITSWEEP_SWEEP_COHORT_H

#include <stddef.h>

#include "sweep.h"

/* Read exitmon's CSV (through recread, by column name): the pid records
 * whose comm is tag give the run's delay metrics; when the run has no
 * finish times from exitgen, the records' lifetimes (start to
 * exit, so including the wait at the start line) stand in for the plot.
 * 0, -errno, or -EBADMSG (no header / missing columns). */
int sweep_cohort_read_csv(const char *path, const char *tag, struct sweep_run *run);

/* Fill the group metrics from exitgen's cohort_groups ("2,2,2"): the
 * count, the biggest group and run->groups as "2+2+2". */
void sweep_cohort_set_groups(struct sweep_run *run, const char *groups);
/* Parse a comma-separated list of seconds (exitgen's finish times) into
 * run->exit_times, sorted.  0, -EINVAL or -ENOMEM. */
int sweep_cohort_set_times(struct sweep_run *run, const char *list);

#endif
