// SPDX-License-Identifier: GPL-2.0-or-later
/* CSV result file. */
#include "sweep_csv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "safe.h"
#include "sweep_dim.h"
#include "sweep_metrics.h"

/* One field, quoted as RFC 4180 wants when it holds , " or a newline. */
static void csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void num(FILE *f, double v)
{
	fputc(',', f);
	if (!isnan(v))
		fprintf(f, "%.9g", v);
}

static void str(FILE *f, const char *s)
{
	fputc(',', f);
	csv_field(f, s);
}

static size_t runs_done(const struct sweep_plan *plan)
{
	size_t done = 0;

	for (size_t i = 0; i < plan->n_runs; i++)
		done += plan->runs[i].done;
	return done;
}

/* The probe's cost (sweep_probe_cost): empty when it was not measured. */
static void probe_cost_cols(FILE *f, const struct sweep_config *cfg)
{
	const struct sweep_probe_cost *pc = &cfg->probe_cost;
	bool ok = cfg->kind == KIND_OVERHEAD && cfg->exitprobe && pc->blocks;

	num(f, ok ? pc->ratio : NAN);
	num(f, ok ? pc->lo : NAN);
	num(f, ok ? pc->hi : NAN);
}

/* Every row says which machine, and whether the sweep finished: an
 * interrupted one is partial, runs_done of runs_planned. */
static void machine_cols(FILE *f, const struct sweep_config *cfg,
			 const struct sweep_plan *plan, const struct sweep_machine *m)
{
	size_t done = runs_done(plan);

	str(f, m->hostname);
	str(f, m->kernel);
	str(f, m->arch);
	fprintf(f, ",%ld", m->cpus);
	str(f, m->cpu_model);
	fprintf(f, ",%d,%d", m->struct_version, m->delayacct);
	str(f, m->exitmon_version);
	str(f, m->exitgen_version);
	str(f, m->exitsweep_version);
	str(f, m->exitprobe_version);
	str(f, cfg->kind == KIND_OVERHEAD ? cfg->probe_note : "");
	probe_cost_cols(f, cfg);
	str(f, m->started);
	str(f, m->emulated);
	fprintf(f, ",%llu,%s,%zu,%zu,%s\n", (unsigned long long)cfg->seed,
		done < plan->n_runs ? "true" : "false", done, plan->n_runs,
		sweep_metrics_unit());
}

static void dims(FILE *f, const struct sweep_config *cfg,
		 const struct sweep_cell *c)
{
	for (int d = 0; d < DIM_COUNT; d++)
		if (sweep_kind_has_dim(cfg->kind, (enum sweep_dim)d))
			str(f, cell_label(cfg, c, (enum sweep_dim)d));
}

static void csv_header(FILE *f, const struct sweep_config *cfg)
{
	fputs("row,kind,cell,run,order,tag", f);
	for (int d = 0; d < DIM_COUNT; d++)
		if (sweep_kind_has_dim(cfg->kind, (enum sweep_dim)d))
			fprintf(f, ",%s", sweep_dim_name((enum sweep_dim)d));
	fputs(",n", f);
	for (int k = 0; k < M_COUNT; k++)
		if (sweep_kind_has_metric(cfg->kind, (enum sweep_metric)k))
			fprintf(f, ",%s", sweep_metrics[k].name);
	for (int k = 0; k < M_COUNT; k++)
		if (sweep_kind_has_metric(cfg->kind, (enum sweep_metric)k))
			fprintf(f, ",%s_ci95", sweep_metrics[k].name);
	if (cfg->kind == KIND_COHORT)
		fputs(",groups", f);
	fputs(",hostname,kernel,arch,cpus,cpu_model,struct_version,"
	      "delayacct_original,exitmon_version,exitgen_version,"
	      "exitsweep_version,exitprobe_version,probe,probe_speed_ratio,"
	      "probe_speed_ratio_lo,probe_speed_ratio_hi,started,emulated,seed,"
	      "partial,runs_done,runs_planned,unit\n", f);
}

/* Write the whole table to f. */
static void csv_print(FILE *f, const struct sweep_config *cfg,
		      const struct sweep_plan *plan, const struct analysis *a,
		      const struct sweep_machine *m)
{
	bool cohort = cfg->kind == KIND_COHORT;

	csv_header(f, cfg);
	for (size_t i = 0; i < plan->n_runs; i++) {
		const struct sweep_run *r = &plan->runs[i];

		if (!r->done)
			continue;
		fprintf(f, "run,%s,%zu,%u,%zu", sweep_kind_name(cfg->kind),
			r->cell, r->rep, r->order);
		str(f, r->tag);
		dims(f, cfg, &plan->cells[r->cell]);
		fputs(",1", f);
		for (int k = 0; k < M_COUNT; k++)
			if (sweep_kind_has_metric(cfg->kind, (enum sweep_metric)k))
				num(f, r->v[k]);
		for (int k = 0; k < M_COUNT; k++)
			if (sweep_kind_has_metric(cfg->kind, (enum sweep_metric)k))
				fputc(',', f);
		if (cohort)
			str(f, r->groups);
		machine_cols(f, cfg, plan, m);
	}
	for (size_t oi = 0; oi < plan->n_cells; oi++) {
		size_t c = a->order[oi];
		const struct cell_stats *s = &a->cells[c];

		fprintf(f, "cell,%s,%zu,,,", sweep_kind_name(cfg->kind), c);
		dims(f, cfg, &plan->cells[c]);
		fprintf(f, ",%zu", s->runs);
		for (int k = 0; k < M_COUNT; k++)
			if (sweep_kind_has_metric(cfg->kind, (enum sweep_metric)k))
				num(f, s->m[k].mean);
		for (int k = 0; k < M_COUNT; k++)
			if (sweep_kind_has_metric(cfg->kind, (enum sweep_metric)k))
				num(f, s->m[k].has_ci ? s->m[k].ci.half : NAN);
		if (cohort)
			fputc(',', f);
		machine_cols(f, cfg, plan, m);
	}
}

int sweep_csv_write(const char *path, const struct sweep_config *cfg,
	      const struct sweep_plan *plan, const struct analysis *a,
	      const struct sweep_machine *m)
{
	struct memfile mf;
	FILE *f = safe_memfile_open(&mf);

	if (!f)
		return -errno;
	csv_print(f, cfg, plan, a, m);
	return safe_memfile_replace(&mf, path);
}
