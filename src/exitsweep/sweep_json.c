// SPDX-License-Identifier: GPL-2.0-or-later
/* JSON result file, written with json_out in json-c's pretty layout (the
 * layout the file always had; tests and `exitsweep compare` read it back
 * with json-c: sweep_json_load.c). */
#include "sweep_json.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_out.h"
#include "safe.h"
#include "sweep_dim.h"
#include "sweep_metrics.h"
#include "sweep_probe.h"

/* Members: key and value in one call. */
static void kstr(struct json_out *j, const char *k, const char *v)
{
	json_out_key(j, k);
	json_out_str(j, v);
}

/* NAN (n/a) is null; numbers keep 9 significant digits. */
static void knum(struct json_out *j, const char *k, double v)
{
	json_out_key(j, k);
	json_out_double(j, v, JSON_OUT_SIG9);
}

static void ku64(struct json_out *j, const char *k, uint64_t v)
{
	json_out_key(j, k);
	json_out_u64(j, v);
}

static void ki64(struct json_out *j, const char *k, int64_t v)
{
	json_out_key(j, k);
	json_out_i64(j, v);
}

static void kbool(struct json_out *j, const char *k, bool v)
{
	json_out_key(j, k);
	json_out_bool(j, v);
}

/* A member whose value is null when `ok` is false. */
static void knum_if(struct json_out *j, const char *k, bool ok, double v)
{
	knum(j, k, ok ? v : NAN);
}

static void machine_obj(struct json_out *j, const struct sweep_machine *m)
{
	json_out_key(j, "machine");
	json_out_obj_begin(j);
	kstr(j, "hostname", m->hostname);
	kstr(j, "kernel", m->kernel);
	kstr(j, "kernel_build", m->kernel_build);
	kstr(j, "arch", m->arch);
	ki64(j, "cpus", m->cpus);
	kstr(j, "cpus_possible", m->cpus_possible);
	kstr(j, "cpu_model", m->cpu_model);
	ki64(j, "taskstats_version", m->struct_version);
	ki64(j, "delayacct", m->delayacct);
	kstr(j, "exitmon_version", m->exitmon_version);
	kstr(j, "exitgen_version", m->exitgen_version);
	kstr(j, "exitsweep_version", m->exitsweep_version);
	kstr(j, "exitprobe_version", m->exitprobe_version);
	kstr(j, "started", m->started);
	kstr(j, "emulated", m->emulated);
	json_out_obj_end(j);
}

static void config_dims(struct json_out *j, const struct sweep_config *cfg)
{
	json_out_key(j, "dimensions");
	json_out_obj_begin(j);
	for (int d = 0; d < DIM_COUNT; d++) {
		if (!sweep_kind_has_dim(cfg->kind, (enum sweep_dim)d))
			continue;
		json_out_key(j, sweep_dim_name((enum sweep_dim)d));
		json_out_arr_begin(j);
		for (size_t i = 0; i < cfg->dim[d].n; i++)
			json_out_str(j, cfg->dim[d].label[i]);
		json_out_arr_end(j);
	}
	json_out_obj_end(j);
}

/* "probe_cost": the speed of a flat-out thread exit loop under the probe
 * over its speed alone; the ratio is null when it was not measured. */
static void probe_cost_obj(struct json_out *j, const struct sweep_probe_cost *pc)
{
	char note[512];

	json_out_key(j, "probe_cost");
	json_out_obj_begin(j);
	knum_if(j, "speed_ratio", pc->blocks, pc->ratio);
	knum_if(j, "speed_ratio_lo", pc->blocks, pc->lo);
	knum_if(j, "speed_ratio_hi", pc->blocks, pc->hi);
	json_out_key(j, "blocks");
	json_out_arr_begin(j);
	for (unsigned b = 0; b < pc->blocks; b++)
		json_out_double(j, pc->block[b], JSON_OUT_SIG9);
	json_out_arr_end(j);
	ku64(j, "exits_per_run", pc->count);
	knum_if(j, "alone_rate", pc->blocks, pc->alone_rate);
	knum_if(j, "probed_rate", pc->blocks, pc->probed_rate);
	sweep_probe_cost_describe(pc, note, sizeof(note));
	kstr(j, "note", note);
	json_out_obj_end(j);
}

static void config_obj(struct json_out *j, const struct sweep_config *cfg)
{
	json_out_key(j, "config");
	json_out_obj_begin(j);
	kstr(j, "command", cfg->command);
	ki64(j, "runs", cfg->runs);
	ku64(j, "count", cfg->count);
	ku64(j, "seed", cfg->seed);
	if (cfg->kind == KIND_COHORT)
		ki64(j, "cohort", cfg->cohort);
	if (cfg->kind == KIND_REAP)
		ki64(j, "kill_batch", cfg->kill_batch);
	config_dims(j, cfg);
	if (cfg->kind == KIND_OVERHEAD) {
		kstr(j, "probe", cfg->exitprobe ? cfg->probe_method : "off");
		kstr(j, "probe_note", cfg->probe_note);
		if (cfg->exitprobe)
			probe_cost_obj(j, &cfg->probe_cost);
	}
	json_out_obj_end(j);
}

static void dims_obj(struct json_out *j, const struct sweep_config *cfg,
		     const struct sweep_cell *c)
{
	json_out_key(j, "dimensions");
	json_out_obj_begin(j);
	for (int d = 0; d < DIM_COUNT; d++)
		if (sweep_kind_has_dim(cfg->kind, (enum sweep_dim)d))
			kstr(j, sweep_dim_name((enum sweep_dim)d),
			     cell_label(cfg, c, (enum sweep_dim)d));
	json_out_obj_end(j);
}

static void run_obj(struct json_out *j, const struct sweep_config *cfg,
		    const struct sweep_run *r)
{
	json_out_obj_begin(j);
	ku64(j, "order", r->order);
	ku64(j, "cell", r->cell);
	ki64(j, "run", r->rep);
	kstr(j, "tag", r->tag);
	json_out_key(j, "values");
	json_out_obj_begin(j);
	for (int k = 0; k < M_COUNT; k++)
		if (sweep_kind_has_metric(cfg->kind, (enum sweep_metric)k))
			knum(j, sweep_metrics[k].name, r->v[k]);
	json_out_obj_end(j);
	if (r->exit_times) {
		json_out_key(j, sweep_metrics_instr() ? "exit_times_instr" :
			     "exit_times_s");
		json_out_arr_begin(j);
		for (size_t i = 0; i < r->n_exit_times; i++)
			json_out_double(j, r->exit_times[i], JSON_OUT_SIG9);
		json_out_arr_end(j);
		kstr(j, "groups", r->groups);
	}
	json_out_obj_end(j);
}

static void runs_arr(struct json_out *j, const struct sweep_config *cfg,
		     const struct sweep_plan *plan)
{
	json_out_key(j, "runs");
	json_out_arr_begin(j);
	for (size_t i = 0; i < plan->n_runs; i++)
		if (plan->runs[i].done)
			run_obj(j, cfg, &plan->runs[i]);
	json_out_arr_end(j);
}

static void stats_obj(struct json_out *j, const char *k,
		      const struct metric_stats *s)
{
	json_out_key(j, k);
	json_out_obj_begin(j);
	ku64(j, "n", s->n);
	knum(j, "mean", s->mean);
	knum(j, "sd", s->sd);
	knum_if(j, "ci_lo", s->has_ci, s->ci.lo);
	knum_if(j, "ci_hi", s->has_ci, s->ci.hi);
	knum_if(j, "sum", s->n, s->sum);
	json_out_obj_end(j);
}

static void cells_arr(struct json_out *j, const struct sweep_config *cfg,
		      const struct sweep_plan *plan, const struct analysis *a)
{
	json_out_key(j, "cells");
	json_out_arr_begin(j);
	for (size_t oi = 0; oi < plan->n_cells; oi++) {
		size_t c = a->order[oi];

		json_out_obj_begin(j);
		ku64(j, "cell", c);
		dims_obj(j, cfg, &plan->cells[c]);
		ku64(j, "runs", a->cells[c].runs);
		/* its exits met another program's listener: excluded */
		kbool(j, "foreign_listener", a->cells[c].tainted);
		json_out_key(j, "metrics");
		json_out_obj_begin(j);
		for (int k = 0; k < M_COUNT; k++)
			if (sweep_kind_has_metric(cfg->kind, (enum sweep_metric)k))
				stats_obj(j, sweep_metrics[k].name, &a->cells[c].m[k]);
		json_out_obj_end(j);
		json_out_obj_end(j);
	}
	json_out_arr_end(j);
}

/* One line of the flat summary list: a figure and its interval;
 * significant < 0 is null; excluded adds "excluded": true. */
struct summary_line {
	const char *section, *title, *key, *unit;
	enum sweep_metric m;
	double value, lo, hi;
	int significant;
	bool excluded;
};

static void summary_item(struct json_out *j, const struct summary_line *s)
{
	json_out_obj_begin(j);
	kstr(j, "section", s->section);
	kstr(j, "title", s->title);
	kstr(j, "key", s->key);
	kstr(j, "metric", sweep_metrics[s->m].name);
	kstr(j, "label", sweep_metrics[s->m].label);
	kstr(j, "unit", s->unit);
	knum(j, "value", s->value);
	knum(j, "lo", s->lo);
	knum(j, "hi", s->hi);
	json_out_key(j, "significant");
	if (s->significant < 0)
		json_out_null(j);
	else
		json_out_bool(j, s->significant);
	if (s->excluded)
		kbool(j, "excluded", true);
	json_out_obj_end(j);
}

/* The main table's figures (ns or us per exit) as their own summary
 * rows, the difference in the metric's unit. */
static void cost_item(struct json_out *j, const struct comparison *cmp,
		      const struct figure *f, const char *key)
{
	char sec[96], title[192];
	struct summary_line s = { sec, title, key, sweep_metrics[f->metric].unit,
				  f->metric, NAN, NAN, NAN, -1, f->excluded };

	if (f->metric != M_TS_NS_PER_EXIT && f->metric != M_CPU_US_PER_EXIT)
		return;
	snprintf(sec, sizeof(sec), "cost:%s", cmp->section);
	snprintf(title, sizeof(title), "Cost per exit, mean a - mean b: %s",
		 cmp->title + strlen("%ovhd of "));
	if (f->diff_ok) {
		s.value = f->diff.est;
		s.lo = f->diff.lo;
		s.hi = f->diff.hi;
		s.significant = f->significant;
	}
	summary_item(j, &s);
}

static void figure_obj(struct json_out *j, const struct sweep_config *cfg,
		       const struct sweep_plan *plan, const struct analysis *a,
		       const struct figure *f, const char *key)
{
	json_out_obj_begin(j);
	kstr(j, "key", key);
	dims_obj(j, cfg, &plan->cells[f->cell_a]);
	kstr(j, "metric", sweep_metrics[f->metric].name);
	ku64(j, "a_cell", f->cell_a);
	ku64(j, "b_cell", f->cell_b);
	knum(j, "a_mean", a->cells[f->cell_a].m[f->metric].mean);
	knum(j, "b_mean", a->cells[f->cell_b].m[f->metric].mean);
	if (cfg->kind == KIND_OVERHEAD) {
		knum(j, "a_achieved_rate", a->cells[f->cell_a].m[M_ACHIEVED].mean);
		knum(j, "b_achieved_rate", a->cells[f->cell_b].m[M_ACHIEVED].mean);
	}
	knum_if(j, "overhead_pct", f->ok, f->ci.est);
	knum_if(j, "ci_lo", f->ok, f->ci.lo);
	knum_if(j, "ci_hi", f->ok, f->ci.hi);
	knum_if(j, "df", f->ok, f->ci.df);
	json_out_key(j, "significant");
	if (f->ok)
		json_out_bool(j, f->significant);
	else
		json_out_null(j);
	knum_if(j, "diff", f->diff_ok, f->diff.est);
	knum_if(j, "diff_lo", f->diff_ok, f->diff.lo);
	knum_if(j, "diff_hi", f->diff_ok, f->diff.hi);
	kbool(j, "excluded", f->excluded);
	kbool(j, "few_ticks", f->few_ticks);
	json_out_obj_end(j);
}

/* Each figure of comparison k, with its cell key: to `figures` (the
 * comparisons array) or to the summary list. */
static void comparison_figures(struct json_out *j, const struct sweep_config *cfg,
			       const struct sweep_plan *plan,
			       const struct analysis *a, size_t k, bool summary)
{
	const struct comparison *cmp = &a->cmp[k];

	for (size_t i = 0; i < a->n_figs; i++) {
		const struct figure *f = &a->figs[i];
		char key[512];

		if (f->comparison != k)
			continue;
		sweep_analyze_cell_key(cfg, &plan->cells[f->cell_a], cmp->dim,
				       key, sizeof(key));
		if (!summary) {
			figure_obj(j, cfg, plan, a, f, key);
			continue;
		}
		cost_item(j, cmp, f, key);
		summary_item(j, &(struct summary_line){
			cmp->section, cmp->title, key, "%", f->metric,
			f->ok ? f->ci.est : NAN, f->ok ? f->ci.lo : NAN,
			f->ok ? f->ci.hi : NAN, f->ok ? f->significant : -1,
			f->excluded });
	}
}

static void comparisons_arr(struct json_out *j, const struct sweep_config *cfg,
			    const struct sweep_plan *plan,
			    const struct analysis *a)
{
	json_out_key(j, "comparisons");
	json_out_arr_begin(j);
	for (size_t k = 0; k < a->n_cmp; k++) {
		const struct comparison *cmp = &a->cmp[k];

		json_out_obj_begin(j);
		kstr(j, "section", cmp->section);
		kstr(j, "title", cmp->title);
		kstr(j, "dimension", sweep_dim_name(cmp->dim));
		kstr(j, "a", cfg->dim[cmp->dim].label[cmp->a]);
		kstr(j, "b", cfg->dim[cmp->dim].label[cmp->b]);
		json_out_key(j, "figures");
		json_out_arr_begin(j);
		comparison_figures(j, cfg, plan, a, k, false);
		json_out_arr_end(j);
		json_out_obj_end(j);
	}
	json_out_arr_end(j);
}

static bool listener_cell(const struct sweep_config *cfg, const struct sweep_cell *c)
{
	return cell_val(cfg, c, DIM_LISTENER) != LISTEN_NONE;
}

static void loss_obj(struct json_out *j, const struct sweep_config *cfg,
		     const struct sweep_plan *plan, size_t c,
		     const struct cell_stats *s, const char *key)
{
	json_out_obj_begin(j);
	ku64(j, "cell", c);
	kstr(j, "key", key);
	dims_obj(j, cfg, &plan->cells[c]);
	ku64(j, "runs", s->runs);
	knum(j, "expected", s->m[M_EXITS].sum);
	knum(j, "received", s->m[M_RECORDS].sum);
	knum(j, "lost", s->m[M_LOST].sum);
	knum(j, "worst_run_lost", s->m[M_LOST].max);
	knum(j, "dropped", s->m[M_DROPPED].sum);
	knum(j, "enobufs", s->m[M_ENOBUFS].sum);
	json_out_obj_end(j);
}

/* The listener cells' loss: objects for "loss", or summary lines. */
static void loss_items(struct json_out *j, const struct sweep_config *cfg,
		       const struct sweep_plan *plan, const struct analysis *a,
		       bool summary)
{
	static const enum sweep_metric loss[] = { M_LOST, M_DROPPED, M_ENOBUFS };

	for (size_t oi = 0; oi < plan->n_cells; oi++) {
		size_t c = a->order[oi];
		const struct cell_stats *s = &a->cells[c];
		char key[512];

		if (!listener_cell(cfg, &plan->cells[c]))
			continue;
		sweep_analyze_cell_key(cfg, &plan->cells[c], DIM_COUNT, key, sizeof(key));
		if (!summary) {
			loss_obj(j, cfg, plan, c, s, key);
			continue;
		}
		for (size_t i = 0; i < sizeof(loss) / sizeof(loss[0]); i++)
			summary_item(j, &(struct summary_line){
				"loss", "Loss: records lost, dropped and ENOBUFS "
				"episodes, summed over runs", key, "", loss[i],
				s->m[loss[i]].n ? s->m[loss[i]].sum : NAN, NAN, NAN,
				-1, false });
	}
}

/* Cell means of the figures a kind is about, for the summary list. */
static void means_summary(struct json_out *j, const struct sweep_config *cfg,
			  const struct sweep_plan *plan, const struct analysis *a)
{
	static const enum sweep_metric overhead[] = { M_ACHIEVED, M_CPU_US_PER_EXIT,
		M_MACHINE_CPU_US_PER_EXIT, M_TS_NS_PER_EXIT, M_TGID_ON_SHARE,
		M_LISTENER_SHARE, M_MON_US_PER_RECORD, M_USER, M_SYS, M_ELAPSED };
	static const enum sweep_metric reap[] = { M_FORK_REAP_P50, M_KILL_REAP,
						  M_KILL_BG };
	static const enum sweep_metric cohort[] = { M_SPREAD, M_LAST,
		M_CPU_DELAY_MEAN, M_BLKIO_DELAY_MEAN, M_EXCLUDED };
	const enum sweep_metric *mets = cfg->kind == KIND_REAP ? reap :
					cfg->kind == KIND_COHORT ? cohort : overhead;
	size_t nm = cfg->kind == KIND_REAP ? 3 : cfg->kind == KIND_COHORT ? 5 :
		    sizeof(overhead) / sizeof(overhead[0]);

	for (size_t oi = 0; oi < plan->n_cells; oi++) {
		size_t c = a->order[oi];
		char key[512];

		sweep_analyze_cell_key(cfg, &plan->cells[c], DIM_COUNT, key, sizeof(key));
		for (size_t i = 0; i < nm; i++) {
			const struct metric_stats *s = &a->cells[c].m[mets[i]];

			summary_item(j, &(struct summary_line){
				"means", "Means per cell", key,
				sweep_metrics[mets[i]].unit, mets[i],
				s->n ? s->mean : NAN, s->has_ci ? s->ci.lo : NAN,
				s->has_ci ? s->ci.hi : NAN, -1, false });
		}
	}
}

/* The flat list `exitsweep compare` lines up: every comparison's figures
 * (with their cost rows), the loss of listener cells, the cell means. */
static void summary_arr(struct json_out *j, const struct sweep_config *cfg,
			const struct sweep_plan *plan, const struct analysis *a)
{
	json_out_key(j, "summary");
	json_out_arr_begin(j);
	for (size_t k = 0; k < a->n_cmp; k++)
		comparison_figures(j, cfg, plan, a, k, true);
	loss_items(j, cfg, plan, a, true);
	means_summary(j, cfg, plan, a);
	json_out_arr_end(j);
}

/* An interrupted sweep is partial: runs_done of runs_planned.  The tick
 * rate says how finely the user/sys split was sampled. */
static void progress_keys(struct json_out *j, const struct sweep_plan *plan,
			  const struct analysis *a)
{
	size_t done = 0;

	for (size_t i = 0; i < plan->n_runs; i++)
		done += plan->runs[i].done;
	kbool(j, "partial", done < plan->n_runs);
	ku64(j, "runs_done", done);
	ku64(j, "runs_planned", plan->n_runs);
	ki64(j, "tick_hz", a->hz);
	kstr(j, "tick_hz_source", a->hz_how);
}

/* The document as a string (caller frees; its length in *len), or NULL. */
static char *json_render(const struct sweep_config *cfg,
			 const struct sweep_plan *plan,
			 const struct analysis *a, const struct sweep_machine *m,
			 size_t *len)
{
	struct json_out j;

	json_out_init(&j, true);
	json_out_obj_begin(&j);
	kstr(&j, "format", SWEEP_JSON_FORMAT);
	kstr(&j, "kind", sweep_kind_name(cfg->kind));
	/* what every timed figure is in: compare sets none beside another */
	kstr(&j, "unit", sweep_metrics_unit());
	progress_keys(&j, plan, a);
	machine_obj(&j, m);
	config_obj(&j, cfg);
	comparisons_arr(&j, cfg, plan, a);
	json_out_key(&j, "loss");
	json_out_arr_begin(&j);
	loss_items(&j, cfg, plan, a, false);
	json_out_arr_end(&j);
	summary_arr(&j, cfg, plan, a);
	cells_arr(&j, cfg, plan, a);
	runs_arr(&j, cfg, plan);
	json_out_obj_end(&j);
	return json_out_finish(&j, len);
}

int sweep_json_write(const char *path, const struct sweep_config *cfg,
	       const struct sweep_plan *plan, const struct analysis *a,
	       const struct sweep_machine *m)
{
	size_t len;
	char *s = json_render(cfg, plan, a, m, &len);
	int r;

	if (!s)
		return -ENOMEM;
	s[len] = '\n';	/* replaces the terminator: write len + 1 bytes */
	r = safe_replace(path, s, len + 1, SAFE_MODE_PUBLIC);
	free(s);
	return r;
}
