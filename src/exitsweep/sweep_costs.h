/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The main table of an overhead sweep: what exit accounting costs, in the
 * units the question is asked in -- ns per exit inside the kernel for tgid
 * accumulation and for a listener (and what share of a whole exit that
 * is), and the collector's own CPU per record.  Only exact totals and
 * in-kernel measurements; the tick-sampled user/sys tables come after. */
#ifndef EXITSWEEP_SWEEP_COSTS_H
#define EXITSWEEP_SWEEP_COSTS_H

#include <stdio.h>

#include "sweep.h"
#include "sweep_analyze.h"

#define COSTS_LEGEND \
	"Cost = mean a - mean b, ± half width of Welch's 95% interval; ~ = " \
	"not significant (the interval\nincludes 0, or a cell's runs are all " \
	"equal).  % of an exit = cost / CPU/exit of cell a (the whole\n" \
	"exit's CPU time, exact).  excluded* = a cell whose exits met another " \
	"program's listener."
/* The same on the instruction clock, where runs that agree exactly are
 * the point, not a tick that never fell. */
#define COSTS_LEGEND_INSTR \
	"Cost = mean a - mean b, ± half width of Welch's 95% interval; ~ = " \
	"not significant (the interval\nincludes 0; ±0: every run gave the " \
	"same count).  % of an exit = cost / CPU/exit of cell a\n(the whole " \
	"exit's instructions).  excluded* = a cell whose exits met another " \
	"program's listener."

void sweep_costs_print(FILE *f, const struct sweep_config *cfg,
		       const struct sweep_plan *plan, const struct analysis *a);

#endif
