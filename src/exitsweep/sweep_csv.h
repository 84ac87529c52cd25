/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --csv FILE: one row per run and one per cell (column "row" says
 * which), every row carrying the machine it ran on, so files from several
 * machines can simply be concatenated. */
#ifndef EXITSWEEP_SWEEP_CSV_H
#define EXITSWEEP_SWEEP_CSV_H

#include <stdio.h>

#include "sweep.h"
#include "sweep_analyze.h"
#include "sweep_machine.h"

/* csv_print into path, replaced atomically.  0 or -errno. */
int sweep_csv_write(const char *path, const struct sweep_config *cfg,
	      const struct sweep_plan *plan, const struct analysis *a,
	      const struct sweep_machine *m);

#endif
