/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --json FILE: the whole sweep as one JSON document -- machine, matrix,
 * every run, every cell, the comparisons and a flat "summary" list that
 * `exitsweep compare` lines up across files.  Written with json_out. */
#ifndef EXITSWEEP_SWEEP_JSON_H
#define EXITSWEEP_SWEEP_JSON_H

#include "sweep.h"
#include "sweep_analyze.h"
#include "sweep_machine.h"

#define SWEEP_JSON_FORMAT "exitsweep/1"

/* json_render into path, replaced atomically.  0 or -errno. */
int sweep_json_write(const char *path, const struct sweep_config *cfg,
	       const struct sweep_plan *plan, const struct analysis *a,
	       const struct sweep_machine *m);

/* Read a result file for compare: *doc, or -errno with one line in err
 * that names path, says where it stops being a result file (line and
 * column) and what it is instead. */
struct json_object;
int sweep_json_load(const char *path, struct json_object **doc, char *err,
		    size_t errlen);

#endif
