/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Progress on standard error while a sweep runs: run i of n, its cell,
 * time elapsed and an estimate of the time left (from the runs done so
 * far, per cell; before a cell has run, from its expected length). */
#ifndef EXITSWEEP_SWEEP_PROGRESS_H
#define EXITSWEEP_SWEEP_PROGRESS_H

#include <stdbool.h>
#include <stdio.h>

#include "sweep.h"

struct sweep_progress {
	double start;		/* monotonic seconds */
	double *cell_time;	/* seconds spent per cell */
	unsigned *cell_runs;
	double paced_extra;	/* total run time beyond count/rate */
	unsigned paced_n;
	bool tty;		/* rewrite one line instead of a line per run */
};

int sweep_progress_init(struct sweep_progress *p, size_t n_cells, bool tty);
void sweep_progress_free(struct sweep_progress *p);
/* Seconds the runs i..n-1 should still take; *known false when there is
 * nothing to go by yet. */
double sweep_progress_left(const struct sweep_config *cfg,
			   const struct sweep_plan *plan,
			   const struct sweep_progress *p, size_t i, bool *known);
/* The line for run i (about to start). */
void sweep_progress_show(FILE *f, const struct sweep_config *cfg,
			 const struct sweep_plan *plan,
			 const struct sweep_progress *p, size_t i);
/* Run of cell took seconds. */
void sweep_progress_note(const struct sweep_config *cfg,
			 const struct sweep_plan *plan, struct sweep_progress *p,
			 size_t cell, double took);
/* "1:05" or "1:02:03". */
void sweep_progress_clock_text(char *buf, size_t len, double seconds);

#endif
