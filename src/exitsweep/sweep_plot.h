/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --plot FILE.svg through gnuplot: overhead against exit rate (one panel
 * per comparison, 95% intervals as error bars) and loss against exit rate;
 * for reap the three ostest figures against background children; for
 * cohort each worker's exit time by rank. */
#ifndef EXITSWEEP_SWEEP_PLOT_H
#define EXITSWEEP_SWEEP_PLOT_H

#include <stdbool.h>
#include <stddef.h>

#include "sweep.h"
#include "sweep_analyze.h"

/* Path of gnuplot into buf: 0, or -ENOENT when it is not installed. */
int sweep_plot_find_gnuplot(char *buf, size_t len);
/* Write data and script into dir and run gnuplot.  0 or -errno with a
 * one-line reason in err. */
int sweep_plot_write(const char *out, const struct sweep_config *cfg,
	       const struct sweep_plan *plan, const struct analysis *a,
	       const char *dir, char *err, size_t errlen);

#define PLOT_MISSING_MSG \
	"--plot needs gnuplot, which is not installed (Debian: apt-get install " \
	"gnuplot-nox); leave out --plot or install it"

#endif
