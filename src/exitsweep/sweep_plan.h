/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sweep plan: the matrix of cells from the option lists, and the run
 * order -- every cell once per round, each round shuffled with a seeded
 * generator, so slow drift of the machine spreads over all cells alike. */
#ifndef EXITSWEEP_SWEEP_PLAN_H
#define EXITSWEEP_SWEEP_PLAN_H

#include "sweep.h"

/* List parsers: fill dv from a comma-separated list.  0, or -EINVAL (bad
 * item), -ERANGE (number out of range), -E2BIG (too many items),
 * -EEXIST (an item given twice). */
int sweep_plan_parse_rates(const char *list, struct sweep_dimvals *dv);   /* 500,max */
int sweep_plan_parse_onoff(const char *list, struct sweep_dimvals *dv);   /* on,off */
int sweep_plan_parse_listeners(const char *list, struct sweep_dimvals *dv); /* none,batch,wakeup */
int sweep_plan_parse_dacct(const char *word, struct sweep_dimvals *dv);   /* keep|on|off|both */
int sweep_plan_parse_counts(const char *list, struct sweep_dimvals *dv);  /* 0,2000 */
int sweep_plan_parse_sizes(const char *list, struct sweep_dimvals *dv);   /* 0,100M */
int sweep_plan_parse_work(const char *list, struct sweep_dimvals *dv);    /* cpu:USEC,... */
/* One value, for dimensions a kind does not vary. */
void sweep_plan_single(struct sweep_dimvals *dv, int64_t val, const char *label);
/* Whether dimension d of cfg holds value v; holds a value other than v
 * (a listener other than none, a delay-accounting state other than keep). */
bool sweep_plan_dim_has(const struct sweep_config *cfg, enum sweep_dim d, int64_t v);
bool sweep_plan_dim_has_other(const struct sweep_config *cfg, enum sweep_dim d,
			      int64_t v);

/* Cells (cross product of cfg->dim, first dimension slowest) and runs
 * (cfg->runs rounds, each a seeded shuffle of all cells).  0 or -ENOMEM. */
int sweep_plan_build(const struct sweep_config *cfg, struct sweep_plan *plan);
void sweep_plan_free(struct sweep_plan *plan);

/* Index of the cell equal to c except for dimension d set to value index
 * vi, or -1. */
long sweep_plan_find_cell(const struct sweep_plan *plan, const struct sweep_cell *c,
		    enum sweep_dim d, int vi);

/* Seeded generator (splitmix64): the same seed gives the same order on
 * every machine and libc. */
uint64_t sweep_plan_rng_next(uint64_t *state);
uint64_t sweep_plan_rng_below(uint64_t *state, uint64_t n);	/* uniform in [0, n) */

#endif
