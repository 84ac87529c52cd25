// SPDX-License-Identifier: GPL-2.0-or-later
/* The dimensions of the matrix: names, headings, which vary. */
#include "sweep_dim.h"

static const char *const dim_names[DIM_COUNT] = {
	[DIM_RATE] = "rate", [DIM_TGID] = "tgid",
	[DIM_BACKGROUND] = "background", [DIM_MMAP] = "mmap",
	[DIM_WORK] = "work", [DIM_LISTENER] = "listener",
	[DIM_DACCT] = "delayacct",
};

const char *sweep_dim_name(enum sweep_dim d)
{
	return d < DIM_COUNT ? dim_names[d] : "?";
}

const char *sweep_dim_heading(enum sweep_dim d)
{
	switch (d) {
	case DIM_RATE: return "Rate";
	case DIM_TGID: return "Tgid";
	case DIM_BACKGROUND: return "Background";
	case DIM_MMAP: return "Mmap";
	case DIM_WORK: return "Work";
	case DIM_LISTENER: return "Listener";
	case DIM_DACCT: return "Delayacct";
	default: return "?";
	}
}

bool sweep_dim_varies(const struct sweep_config *cfg, enum sweep_dim d)
{
	return sweep_kind_has_dim(cfg->kind, d) && cfg->dim[d].n > 1;
}

/* Headings of the varying dimensions other than skip (and the row dim,
 * which comes first). */
size_t sweep_dim_groups(const struct sweep_config *cfg, enum sweep_dim skip,
			enum sweep_dim *out)
{
	enum sweep_dim row = sweep_kind_row_dim(cfg->kind);
	size_t n = 0;

	for (int d = 0; d < DIM_COUNT; d++)
		if (d != (int)row && d != (int)skip &&
		    sweep_dim_varies(cfg, (enum sweep_dim)d))
			out[n++] = (enum sweep_dim)d;
	return n;
}
