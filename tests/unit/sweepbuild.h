/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test helper: exitsweep configurations and finished sweeps made up for
 * the tests of what plans, analyses and writes them.  Header only, like
 * recbuild.h; include it after <cmocka.h>. */
#ifndef EXITMON_TEST_SWEEPBUILD_H
#define EXITMON_TEST_SWEEPBUILD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sweep_analyze.h"
#include "sweep_machine.h"
#include "sweep_plan.h"

/* An overhead sweep of these rates and listeners, tgid on,off, delay
 * accounting kept, every other dimension one value. */
static inline void sb_config(struct sweep_config *cfg, unsigned runs, uint64_t seed,
			     const char *rates, const char *listeners)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->kind = KIND_OVERHEAD;
	cfg->runs = runs;
	cfg->seed = seed;
	for (int d = 0; d < DIM_COUNT; d++)
		sweep_plan_single(&cfg->dim[d], 0, "-");
	assert_int_equal(sweep_plan_parse_rates(rates, &cfg->dim[DIM_RATE]), 0);
	assert_int_equal(sweep_plan_parse_onoff("on,off", &cfg->dim[DIM_TGID]), 0);
	assert_int_equal(sweep_plan_parse_listeners(listeners, &cfg->dim[DIM_LISTENER]), 0);
	assert_int_equal(sweep_plan_parse_dacct("keep", &cfg->dim[DIM_DACCT]), 0);
}

/* A tiny finished sweep: 2 cells x 2 runs with made-up values. */
static inline void sb_fake_sweep(struct sweep_config *cfg, struct sweep_plan *plan,
				 struct sweep_machine *m, double sys_on)
{
	sb_config(cfg, 2, 3, "max", "batch");
	cfg->count = 100;
	snprintf(cfg->command, sizeof(cfg->command), "exitsweep --runs 2");
	assert_int_equal(sweep_plan_build(cfg, plan), 0);
	for (size_t i = 0; i < plan->n_runs; i++) {
		struct sweep_run *r = &plan->runs[i];
		bool on = cell_val(cfg, &plan->cells[r->cell], DIM_TGID);

		snprintf(r->tag, sizeof(r->tag), "xs1r%u", (unsigned)(i % 1000));
		r->done = true;
		r->v[M_USER] = 1;
		r->v[M_SYS] = (on ? sys_on : 1.0) + 0.01 * r->rep;
		r->v[M_ELAPSED] = 2;
		r->v[M_ACHIEVED] = 5000;
		r->v[M_EXITS] = 100;
		r->v[M_RECORDS] = 100 - r->rep;
		r->v[M_LOST] = r->rep;
		r->v[M_DROPPED] = r->rep;
		r->v[M_ENOBUFS] = r->rep;
	}
	memset(m, 0, sizeof(*m));
	snprintf(m->hostname, sizeof(m->hostname), "box, \"one\"");
	snprintf(m->kernel, sizeof(m->kernel), "6.18.0");
	snprintf(m->arch, sizeof(m->arch), "x86_64");
	snprintf(m->cpu_model, sizeof(m->cpu_model), "Some CPU, 2 cores");
	m->cpus = 2;
	m->struct_version = 16;
	snprintf(m->exitmon_version, sizeof(m->exitmon_version), "exitmon 0.1.0");
	snprintf(m->exitgen_version, sizeof(m->exitgen_version), "exitgen 0.1.0");
	snprintf(m->exitsweep_version, sizeof(m->exitsweep_version), "exitsweep 0.1.0");
	snprintf(m->started, sizeof(m->started), "2026-12-02T00:00:00Z");
}

/* sweep_csv_write or sweep_json_write */
typedef int sb_writer(const char *path, const struct sweep_config *cfg,
		      const struct sweep_plan *plan, const struct analysis *a,
		      const struct sweep_machine *m);

/* The tiny sweep (on host, NULL: its own), analysed and written to path. */
static inline void sb_write_result(sb_writer *write, const char *path,
				   double sys_on, const char *host)
{
	struct sweep_config cfg;
	struct sweep_plan plan;
	struct sweep_machine m;
	struct analysis a;

	sb_fake_sweep(&cfg, &plan, &m, sys_on);
	if (host)
		snprintf(m.hostname, sizeof(m.hostname), "%s", host);
	assert_int_equal(sweep_analyze(&cfg, &plan, &a), 0);
	assert_int_equal(write(path, &cfg, &plan, &a, &m), 0);
	sweep_analyze_free(&a);
	sweep_plan_free(&plan);
}

#endif
