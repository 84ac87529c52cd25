/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The text report on standard output: machine and matrix, the 2006-style
 * overhead tables (one per comparison), the loss table and the per-cell
 * means. */
#ifndef EXITSWEEP_SWEEP_REPORT_H
#define EXITSWEEP_SWEEP_REPORT_H

#include <stdio.h>

#include "sweep.h"
#include "sweep_analyze.h"
#include "sweep_machine.h"

void sweep_report_print(FILE *f, const struct sweep_config *cfg,
		  const struct sweep_plan *plan, const struct analysis *a,
		  const struct sweep_machine *m, double wall_s, bool interrupted);

/* Under the report's header on the instruction clock. */
#define REPORT_INSTR_NOTE \
	"the clock counts instructions: every figure in instr is a count of " \
	"guest instructions, not a\ntime (taskstats_exit: exitprobe's mode " \
	"where it gives one, the common path's exact\ncount); rates and the " \
	"runs' seconds are of the guest's clock, whose second is 1e9\n" \
	"instructions"

#define REPORT_LEGEND \
	"~ = not significant: the 95% confidence interval includes 0.  " \
	"± = half width of that interval\n(Welch, from the runs of the two " \
	"cells).  %ovhd = (mean a - mean b) / mean b x 100."

#endif
