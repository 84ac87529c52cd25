/* From runs to numbers worth printing: per-cell means and 95% intervals,
 * and the comparisons -- overhead in percent of one value of a dimension
 * over another (tgid on over off, a listener over none, delay accounting
 * on over off, an mmap over none), cell by cell, with Welch's interval
 * (all statistics from include/stats.h). */
#ifndef EXITSWEEP_ANALYZE_H
#define EXITSWEEP_ANALYZE_H

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
	bool significant;
};

struct analysis {
	struct cell_stats *cells;	/* plan->n_cells */
	struct comparison cmp[DIM_COUNT * SWEEP_MAX_VALUES];
	size_t n_cmp;
	struct figure *figs;
	size_t n_figs;
	size_t *order;			/* cells in report order */
};

int sweep_analyze(const struct sweep_config *cfg, const struct sweep_plan *plan,
	    struct analysis *a);
void sweep_analysis_free(struct analysis *a);

/* The values of metric m over the completed runs of cell c (NaNs left
 * out), into a malloc'd array.  Returns the count (0 with *out NULL). */
size_t sweep_cell_values(const struct sweep_plan *plan, size_t c,
		   enum sweep_metric m, double **out);
/* The metrics a kind compares, in table order; returns how many. */
size_t sweep_analyze_compared_metrics(enum sweep_kind k, enum sweep_metric *out,
				size_t max);
/* Does the kind or the config vary dimension d (more than one value)? */
bool sweep_analyze_dim_varies(const struct sweep_config *cfg, enum sweep_dim d);

/* "name=value" of each dimension in the bit mask dims (1 << dim). */
void sweep_cell_describe(const struct sweep_config *cfg, const struct sweep_cell *c,
			 unsigned dims, char *buf, size_t len);
/* "rate=1000 tgid=on listener=batch delayacct=keep": every dimension of
 * the kind except skip (DIM_COUNT: none) -- a key that lines up across
 * result files of different machines. */
void sweep_analyze_cell_key(const struct sweep_config *cfg, const struct sweep_cell *c,
		      enum sweep_dim skip, char *buf, size_t len);

#endif
