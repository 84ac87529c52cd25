/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What each metric is called and measured in: the column and key names,
 * units and table headings of run->v[] (enum sweep_metric, sweep.h), on
 * the host's clock or on the instruction clock. */
#ifndef EXITSWEEP_SWEEP_METRICS_H
#define EXITSWEEP_SWEEP_METRICS_H

#include <stdbool.h>
#include <stddef.h>

#include "sweep.h"

/* The unit a result file's timed figures are in (its "unit"): ns (and
 * us, ms, s) on the host's clock, instr under tools/kernel-run --clock
 * instructions, where every guest clock advances one ns per instruction
 * (emulation.h).  A file without one is from before: ns. */
#define SWEEP_UNIT_NS		"ns"
#define SWEEP_UNIT_INSTR	"instr"

struct metric_desc {
	const char *name;	/* column / key name */
	const char *unit;	/* "s", "us", "ms", "ns", "1/s", "", or "instr" */
	const char *label;	/* short table heading */
	bool integer;		/* print without decimals */
	bool summed;		/* loss counters: sums are meaningful */
};

/* The table in force: the host's clock's, or after
 * sweep_metrics_set_clock(true) the instruction clock's, where every
 * timed metric is a plain count of instructions (unit "instr", the name's
 * unit word replaced: cpu_us_per_exit -> cpu_instr_per_exit).  One clock
 * per process, set before the first run: every output reads this table,
 * so none can label a count of instructions as a time. */
extern const struct metric_desc *sweep_metrics;

void sweep_metrics_set_clock(bool instructions);
bool sweep_metrics_instr(void);
/* The clock's unit for the result files: SWEEP_UNIT_NS or _INSTR. */
const char *sweep_metrics_unit(void);
/* Instructions per unit of metric m on the instruction clock (ns 1, us
 * 1000, ms 1e6, s 1e9), 0 for a metric that is no time (a rate, a
 * count, a share). */
double sweep_metrics_instr_scale(enum sweep_metric m);
/* name with its unit word (a word of its own between underscores, or
 * the last) replaced by "instr", into buf: 0, or -1 when it has none or
 * buf is short. */
int sweep_metrics_instr_name(const char *name, const char *unit, char *buf,
			     size_t len);
/* A run's values, measured in their own units, as counts of
 * instructions: only on the instruction clock. */
void sweep_metrics_to_instr(double *v);
/* Whether metric m's runs repeat exactly, so that runs that agree are
 * evidence rather than a tick that never fell: taskstats_exit's figure on
 * the instruction clock (exitprobe's mode).  User and sys stay
 * tick-sampled there, and a whole exit's CPU varies from run to run. */
bool sweep_metrics_exact(enum sweep_metric m);
/* The same for a metric named in a result file (its instr name). */
bool sweep_metrics_exact_name(const char *name);
/* Metric m's value v (as the table in force has it) in seconds of the
 * machine's clock, which the kernel tick divides: on the instruction
 * clock an instruction is one ns of it.  v itself for no time. */
double sweep_metrics_seconds(enum sweep_metric m, double v);

#endif
