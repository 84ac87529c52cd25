/* --csv FILE: one row per run and one per cell (column "row" says
 * which), every row carrying the machine it ran on, so files from several
 * machines can simply be concatenated. */
#ifndef EXITSWEEP_CSV_H
#define EXITSWEEP_CSV_H

#include <stdio.h>

#include "sweep.h"
#include "sweep_analyze.h"
#include "sweep_machine.h"

/* Write the whole table to f. */
void sweep_csv_print(FILE *f, const struct sweep_config *cfg,
	       const struct sweep_plan *plan, const struct analysis *a,
	       const struct sweep_machine *m);
/* csv_print into path, replaced atomically.  0 or -errno. */
int sweep_csv_write(const char *path, const struct sweep_config *cfg,
	      const struct sweep_plan *plan, const struct analysis *a,
	      const struct sweep_machine *m);
/* One field, quoted as RFC 4180 wants when it holds , " or a newline. */
void sweep_csv_field(FILE *f, const char *s);

#endif
