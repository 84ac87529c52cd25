// SPDX-License-Identifier: GPL-2.0-or-later
/* Matrix and run order. */
#include "sweep_plan.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "workload.h"

#define MAX_RATE 10000000u
#define MAX_BACKGROUND 1000000u

/* Split list on commas and hand each item to fn; empty items are errors,
 * and so are repeats (same value, or same label when by_label). */
static int each_item(const char *list, struct sweep_dimvals *dv,
		     int (*fn)(const char *item, struct sweep_dimvals *dv),
		     bool by_label)
{
	char buf[1024];
	char *p, *save = NULL;
	size_t len = list ? strlen(list) : 0;
	int r;

	if (len == 0 || len >= sizeof(buf) || list[0] == ',' ||
	    list[len - 1] == ',' || strstr(list, ",,"))
		return -EINVAL;
	memcpy(buf, list, len + 1);
	dv->n = 0;
	for (p = strtok_r(buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		if (dv->n == SWEEP_MAX_VALUES)
			return -E2BIG;
		r = fn(p, dv);
		if (r < 0)
			return r;
		for (size_t i = 0; i + 1 < dv->n; i++)
			if (!strcmp(dv->label[i], dv->label[dv->n - 1]) ||
			    (!by_label && dv->val[i] == dv->val[dv->n - 1]))
				return -EEXIST;
	}
	return 0;
}

static int add(struct sweep_dimvals *dv, int64_t val, const char *label)
{
	if (strlen(label) >= SWEEP_LABEL)
		return -EINVAL;
	dv->val[dv->n] = val;
	snprintf(dv->label[dv->n], SWEEP_LABEL, "%s", label);
	dv->n++;
	return 0;
}

void sweep_plan_single(struct sweep_dimvals *dv, int64_t val, const char *label)
{
	dv->n = 0;
	add(dv, val, label);
}

bool sweep_plan_dim_has(const struct sweep_config *cfg, enum sweep_dim d, int64_t v)
{
	for (size_t i = 0; i < cfg->dim[d].n; i++)
		if (cfg->dim[d].val[i] == v)
			return true;
	return false;
}

bool sweep_plan_dim_has_other(const struct sweep_config *cfg, enum sweep_dim d,
			      int64_t v)
{
	/* a dimension's values are distinct: the list parsers refuse repeats */
	return cfg->dim[d].n > (sweep_plan_dim_has(cfg, d, v) ? 1u : 0u);
}

static int rate_item(const char *s, struct sweep_dimvals *dv)
{
	uint32_t v;
	int r;

	if (!strcmp(s, "max"))
		return add(dv, 0, "max");
	r = parse_u32(s, 1, MAX_RATE, &v);
	return r < 0 ? r : add(dv, v, s);
}

int sweep_plan_parse_rates(const char *list, struct sweep_dimvals *dv)
{
	return each_item(list, dv, rate_item, false);
}

static int onoff_item(const char *s, struct sweep_dimvals *dv)
{
	if (!strcmp(s, "on"))
		return add(dv, 1, "on");
	if (!strcmp(s, "off"))
		return add(dv, 0, "off");
	return -EINVAL;
}

int sweep_plan_parse_onoff(const char *list, struct sweep_dimvals *dv)
{
	return each_item(list, dv, onoff_item, false);
}

static int listener_item(const char *s, struct sweep_dimvals *dv)
{
	if (!strcmp(s, "none"))
		return add(dv, LISTEN_NONE, s);
	if (!strcmp(s, "batch"))
		return add(dv, LISTEN_BATCH, s);
	if (!strcmp(s, "wakeup"))
		return add(dv, LISTEN_WAKEUP, s);
	return -EINVAL;
}

int sweep_plan_parse_listeners(const char *list, struct sweep_dimvals *dv)
{
	return each_item(list, dv, listener_item, false);
}

int sweep_plan_parse_dacct(const char *w, struct sweep_dimvals *dv)
{
	dv->n = 0;
	if (!w)
		return -EINVAL;
	if (!strcmp(w, "keep"))
		return add(dv, DACCT_KEEP, "keep");
	if (!strcmp(w, "on"))
		return add(dv, DACCT_ON, "on");
	if (!strcmp(w, "off"))
		return add(dv, DACCT_OFF, "off");
	if (!strcmp(w, "both")) {
		add(dv, DACCT_ON, "on");
		return add(dv, DACCT_OFF, "off");
	}
	return -EINVAL;
}

static int count_item(const char *s, struct sweep_dimvals *dv)
{
	uint32_t v;
	int r = parse_u32(s, 0, MAX_BACKGROUND, &v);

	return r < 0 ? r : add(dv, v, s);
}

int sweep_plan_parse_counts(const char *list, struct sweep_dimvals *dv)
{
	return each_item(list, dv, count_item, false);
}

static int size_item(const char *s, struct sweep_dimvals *dv)
{
	uint64_t v;
	int r;

	if (!strcmp(s, "none") || !strcmp(s, "0"))
		return add(dv, 0, "none");
	r = parse_size(s, 4096, 1ull << 40, &v);
	return r < 0 ? r : add(dv, (int64_t)v, s);
}

int sweep_plan_parse_sizes(const char *list, struct sweep_dimvals *dv)
{
	return each_item(list, dv, size_item, false);
}

/* exitgen's --work syntax, checked by exitgen's own parser so that a typo
 * fails before the sweep starts. */
static int work_item(const char *s, struct sweep_dimvals *dv)
{
	struct spawn_work w = { 0 };
	int r = workload_parse_work(s, &w);

	return r < 0 ? r : add(dv, (int64_t)dv->n, s);
}

int sweep_plan_parse_work(const char *list, struct sweep_dimvals *dv)
{
	return each_item(list, dv, work_item, true);
}

/* --- generator --- */

uint64_t sweep_plan_rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Rejection keeps it uniform: draws in the top partial range are redrawn. */
uint64_t sweep_plan_rng_below(uint64_t *state, uint64_t n)
{
	uint64_t limit, x;

	if (n <= 1)
		return 0;
	limit = UINT64_MAX - UINT64_MAX % n;
	do
		x = sweep_plan_rng_next(state);
	while (x >= limit);
	return x % n;
}

/* Fisher-Yates. */
static void shuffle(size_t *a, size_t n, uint64_t *state)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)sweep_plan_rng_below(state, i);
		size_t t = a[i - 1];

		a[i - 1] = a[j];
		a[j] = t;
	}
}

/* --- plan --- */

int sweep_plan_build(const struct sweep_config *cfg, struct sweep_plan *plan)
{
	size_t n = 1, *perm = NULL;
	uint64_t state = cfg->seed;

	memset(plan, 0, sizeof(*plan));
	for (int d = 0; d < DIM_COUNT; d++)
		n *= cfg->dim[d].n ? cfg->dim[d].n : 1;
	plan->cells = calloc(n, sizeof(*plan->cells));
	plan->runs = calloc(n * cfg->runs, sizeof(*plan->runs));
	perm = calloc(n, sizeof(*perm));
	if (!plan->cells || !plan->runs || !perm) {
		free(perm);
		sweep_plan_free(plan);
		return -ENOMEM;
	}
	plan->n_cells = n;
	for (size_t i = 0; i < n; i++) {
		size_t rest = i;

		for (int d = DIM_COUNT - 1; d >= 0; d--) {
			size_t k = cfg->dim[d].n ? cfg->dim[d].n : 1;

			plan->cells[i].v[d] = (int)(rest % k);
			rest /= k;
		}
	}
	for (unsigned rep = 0; rep < cfg->runs; rep++) {
		for (size_t i = 0; i < n; i++)
			perm[i] = i;
		shuffle(perm, n, &state);
		for (size_t i = 0; i < n; i++) {
			struct sweep_run *r = &plan->runs[plan->n_runs];

			r->cell = perm[i];
			r->rep = rep;
			r->order = plan->n_runs++;
			for (int m = 0; m < M_COUNT; m++)
				r->v[m] = NAN;
		}
	}
	free(perm);
	return 0;
}

void sweep_plan_free(struct sweep_plan *plan)
{
	if (plan->runs)
		for (size_t i = 0; i < plan->n_runs; i++)
			free(plan->runs[i].exit_times);
	free(plan->cells);
	free(plan->runs);
	memset(plan, 0, sizeof(*plan));
}

long sweep_plan_find_cell(const struct sweep_plan *plan, const struct sweep_cell *c,
		    enum sweep_dim d, int vi)
{
	for (size_t i = 0; i < plan->n_cells; i++) {
		const struct sweep_cell *o = &plan->cells[i];
		int same = 1;

		for (int k = 0; k < DIM_COUNT && same; k++)
			same = k == (int)d ? o->v[k] == vi : o->v[k] == c->v[k];
		if (same)
			return (long)i;
	}
	return -1;
}
