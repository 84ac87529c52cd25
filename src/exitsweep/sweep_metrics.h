/* What each metric is called and measured in: the column and key names,
 * units and table headings of run->v[] (enum sweep_metric, sweep.h). */
#ifndef EXITSWEEP_SWEEP_METRICS_H
#define EXITSWEEP_SWEEP_METRICS_H

#include <stdbool.h>

#include "sweep.h"

struct metric_desc {
	const char *name;	/* column / key name */
	const char *unit;	/* "s", "us", "ms", "1/s", "" */
	const char *label;	/* short table heading */
	bool integer;		/* print without decimals */
	bool summed;		/* loss counters: sums are meaningful */
};

extern const struct metric_desc sweep_metrics[M_COUNT];

#endif
