/* SPDX-License-Identifier: GPL-2.0-or-later */
/* From runs to numbers worth printing: per-cell means and 95% intervals,
 * and the comparisons -- overhead in percent of one value of a dimension
 * over another (tgid on over off, a listener over none, delay accounting
 * on over off, an mmap over none), cell by cell, with Welch's interval
 * (all statistics from include/stats.h). */
#ifndef EXITSWEEP_SWEEP_ANALYZE_H
#define EXITSWEEP_SWEEP_ANALYZE_H

#include <stdbool.h>

#include "stats.h"
#include "sweep.h"

struct metric_stats {
	size_t n;		/* runs with a value */
	double mean, sd, sum, max;
	bool has_ci;		/* n >= 2 */
	struct stats_ci ci;	/* of the mean */
};

struct cell_stats {
	size_t runs;		/* completed runs */
	struct metric_stats m[M_COUNT];
	/* a cell whose exits met another program's listener (exitprobe saw
	 * it): not a "no listener" cell, or one whose per-exit costs carry
	 * that listener's work too */
	bool tainted;
};

/* One way to compare: cells with dim == a against the same cells with
 * dim == b. */
struct comparison {
	enum sweep_dim dim;
	int a, b;		/* value indexes in cfg->dim[dim] */
	char section[64];	/* "tgid", "listener:batch", ... (a stable key) */
	char title[128];	/* "%ovhd of tgid on over off" */
};

struct figure {
	size_t comparison;	/* index into analysis->cmp */
	size_t cell_a, cell_b;
	enum sweep_metric metric;
	bool ok;		/* enough runs for an interval */
	struct stats_ci ci;	/* percent */
	struct stats_ci diff;	/* mean a - mean b in the metric's unit */
	bool diff_ok;
	/* never when either cell's runs are all equal (0 ± 0 is no
	 * measurement) or a cell is tainted */
	bool significant;
	bool excluded;		/* a cell is tainted: left out */
	/* user/sys: the cells' runs held too few kernel ticks to resolve the
	 * difference (sweep_analyze_few_ticks) */
	bool few_ticks;
};

struct analysis {
	struct cell_stats *cells;	/* plan->n_cells */
	struct comparison cmp[DIM_COUNT * SWEEP_MAX_VALUES];
	size_t n_cmp;
	struct figure *figs;
	size_t n_figs;
	size_t *order;			/* cells in report order */
	long hz;			/* the kernel tick the split is sampled at */
	char hz_how[96];		/* where hz came from */
};

int sweep_analyze(const struct sweep_config *cfg, const struct sweep_plan *plan,
	    struct analysis *a);
void sweep_analyze_free(struct analysis *a);

/* The metrics a kind compares, in table order; returns how many. */
size_t sweep_analyze_compared_metrics(enum sweep_kind k, enum sweep_metric *out,
				size_t max);
/* Are all n values equal (no spread at all)?  n == 0 counts as equal. */
bool sweep_analyze_constant(const double *x, size_t n);
/* Can ticks of hz per second resolve the difference of two cells' mean
 * user (or sys) time?  ta, tb: the cells' summed user+sys seconds over
 * their runs; pa, pb: the metric's share of user+sys; ma, mb: the metric's
 * means; na, nb: runs.  "Too few" when either cell's runs held fewer than
 * SWEEP_MIN_TICKS ticks, or the difference is within twice the binomial
 * sampling error of the ticks (a lower bound: a task shorter than a tick
 * is charged as user whatever it did). */
bool sweep_analyze_few_ticks(long hz, double ta, double pa, double ma, size_t na,
			     double tb, double pb, double mb, size_t nb);
#define SWEEP_MIN_TICKS 100
/* A reaped child's user/sys is its own run time split by its own ticks;
 * one that held none is charged all as user (the kernel's
 * cputime_adjust).  True when children of cpu_s_per_exit seconds each
 * hold less than one tick on average at hz. */
bool sweep_analyze_child_ticks_short(long hz, double cpu_s_per_exit);

/* "name=value" of each dimension in the bit mask dims (1 << dim). */
void sweep_analyze_cell_describe(const struct sweep_config *cfg,
				 const struct sweep_cell *c,
				 unsigned dims, char *buf, size_t len);
/* "rate=1000 tgid=on listener=batch delayacct=keep": every dimension of
 * the kind except skip (DIM_COUNT: none) -- a key that lines up across
 * result files of different machines. */
void sweep_analyze_cell_key(const struct sweep_config *cfg, const struct sweep_cell *c,
		      enum sweep_dim skip, char *buf, size_t len);

#endif
