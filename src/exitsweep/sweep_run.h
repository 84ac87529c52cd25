/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One run: set delay accounting, start exitmon and wait until it is ready
 * (unless the cell has no listener), run exitgen to completion, stop
 * exitmon, and turn the two summaries into the run's metrics. */
#ifndef EXITSWEEP_SWEEP_RUN_H
#define EXITSWEEP_SWEEP_RUN_H

#include <stddef.h>

#include "sweep.h"
#include "sweep_exec.h"

/* 0, -EINTR when interrupted by a signal (children stopped and reaped),
 * or another -errno with a one-line reason in err. */
int sweep_run_one(const struct run_env *env, const struct sweep_cell *cell,
	    struct sweep_run *run, char *err, size_t errlen);

/* Start exitmon once, make one task exit, stop it: proves the collector
 * works before a long sweep and learns the taskstats struct version. */
int sweep_run_probe(const struct run_env *env, char *err, size_t errlen);

/* Run exitprobe once around a short exitgen run with cfg->probe_method
 * ("auto", "fentry" or "sample"): proves it can run here and sets
 * cfg->probe_method to the method it used and cfg->probe_note.  0, -EINTR,
 * or another -errno with a one-line reason in err. */
int sweep_run_probe_check(const struct run_env *env, struct sweep_config *cfg,
			  char *err, size_t errlen);

/* What the probe costs the workload: SWEEP_PROBE_BLOCKS ABBA blocks of a
 * flat-out thread exit loop (cfg->count exits, within 2000..20000) alone
 * and under exitprobe, into cfg->probe_cost.  0, -EINTR, or another
 * -errno with a one-line reason in err. */
int sweep_run_probe_cost(const struct run_env *env, struct sweep_config *cfg,
			 char *err, size_t errlen);

#endif
