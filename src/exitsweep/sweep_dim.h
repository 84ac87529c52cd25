/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The dimensions of the matrix by name: their names in files and keys
 * ("rate"), their table headings ("Rate"), whether a sweep varies one, and
 * which of them tell a table's rows apart. */
#ifndef EXITSWEEP_SWEEP_DIM_H
#define EXITSWEEP_SWEEP_DIM_H

#include <stdbool.h>
#include <stddef.h>

#include "sweep.h"

/* "rate", "tgid", ...: column names and keys of the result files */
const char *sweep_dim_name(enum sweep_dim d);
/* "Rate", "Tgid", ...: table headings */
const char *sweep_dim_heading(enum sweep_dim d);
/* Does the kind or the config vary dimension d (more than one value)? */
bool sweep_dim_varies(const struct sweep_config *cfg, enum sweep_dim d);
/* The varying dimensions other than the row dimension and skip, in order:
 * the columns that tell a table's rows apart.  Returns how many. */
size_t sweep_dim_groups(const struct sweep_config *cfg, enum sweep_dim skip,
			enum sweep_dim *out);

#endif
