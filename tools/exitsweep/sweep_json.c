/* JSON result file. */
#include "sweep_json.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "safeopen.h"

/* NAN (n/a) is null; numbers keep 9 significant digits. */
static struct json_object *jnum(double v)
{
	char s[40];

	if (!isfinite(v))
		return NULL;
	snprintf(s, sizeof(s), "%.9g", v);
	return json_object_new_double_s(v, s);
}

static void put(struct json_object *o, const char *k, struct json_object *v)
{
	json_object_object_add(o, k, v);
}

static struct json_object *jstr(const char *s)
{
	return json_object_new_string(s);
}

static struct json_object *machine_obj(const struct sweep_machine *m)
{
	struct json_object *o = json_object_new_object();

	put(o, "hostname", jstr(m->hostname));
	put(o, "kernel", jstr(m->kernel));
	put(o, "kernel_build", jstr(m->kernel_build));
	put(o, "arch", jstr(m->arch));
	put(o, "cpus", json_object_new_int64(m->cpus));
	put(o, "cpus_possible", jstr(m->cpus_possible));
	put(o, "cpu_model", jstr(m->cpu_model));
	put(o, "taskstats_version", json_object_new_int(m->struct_version));
	put(o, "delayacct", json_object_new_int(m->delayacct));
	put(o, "exitmon_version", jstr(m->exitmon_version));
	put(o, "exitgen_version", jstr(m->exitgen_version));
	put(o, "exitsweep_version", jstr(m->exitsweep_version));
	put(o, "exitprobe_version", jstr(m->exitprobe_version));
	put(o, "started", jstr(m->started));
	return o;
}

static struct json_object *config_obj(const struct sweep_config *cfg)
{
	struct json_object *o = json_object_new_object(), *dims = json_object_new_object();

	put(o, "command", jstr(cfg->command));
	put(o, "runs", json_object_new_int64(cfg->runs));
	put(o, "count", json_object_new_uint64(cfg->count));
	put(o, "seed", json_object_new_uint64(cfg->seed));
	if (cfg->kind == KIND_COHORT)
		put(o, "cohort", json_object_new_int64(cfg->cohort));
	if (cfg->kind == KIND_REAP)
		put(o, "kill_batch", json_object_new_int64(cfg->kill_batch));
	for (int d = 0; d < DIM_COUNT; d++) {
		struct json_object *l;

		if (!sweep_kind_has_dim(cfg->kind, (enum sweep_dim)d))
			continue;
		l = json_object_new_array();
		for (size_t i = 0; i < cfg->dim[d].n; i++)
			json_object_array_add(l, jstr(cfg->dim[d].label[i]));
		put(dims, sweep_dim_name((enum sweep_dim)d), l);
	}
	put(o, "dimensions", dims);
	if (cfg->kind == KIND_OVERHEAD) {
		put(o, "probe", jstr(cfg->exitprobe ? cfg->probe_method : "off"));
		put(o, "probe_note", jstr(cfg->probe_note));
	}
	return o;
}

static struct json_object *dims_obj(const struct sweep_config *cfg,
				    const struct sweep_cell *c)
{
	struct json_object *o = json_object_new_object();

	for (int d = 0; d < DIM_COUNT; d++)
		if (sweep_kind_has_dim(cfg->kind, (enum sweep_dim)d))
			put(o, sweep_dim_name((enum sweep_dim)d),
			    jstr(cell_label(cfg, c, (enum sweep_dim)d)));
	return o;
}

static struct json_object *runs_arr(const struct sweep_config *cfg,
				    const struct sweep_plan *plan)
{
	struct json_object *arr = json_object_new_array();

	for (size_t i = 0; i < plan->n_runs; i++) {
		const struct sweep_run *r = &plan->runs[i];
		struct json_object *o, *v;

		if (!r->done)
			continue;
		o = json_object_new_object();
		v = json_object_new_object();
		put(o, "order", json_object_new_uint64(r->order));
		put(o, "cell", json_object_new_uint64(r->cell));
		put(o, "run", json_object_new_int64(r->rep));
		put(o, "tag", jstr(r->tag));
		for (int k = 0; k < M_COUNT; k++)
			if (sweep_kind_has_metric(cfg->kind, (enum sweep_metric)k))
				put(v, sweep_metrics[k].name, jnum(r->v[k]));
		put(o, "values", v);
		if (r->exit_times) {
			struct json_object *t = json_object_new_array();

			for (size_t j = 0; j < r->n_exit_times; j++)
				json_object_array_add(t, jnum(r->exit_times[j]));
			put(o, "exit_times_s", t);
			put(o, "groups", jstr(r->groups));
		}
		json_object_array_add(arr, o);
	}
	return arr;
}

static struct json_object *stats_obj(const struct metric_stats *s)
{
	struct json_object *o = json_object_new_object();

	put(o, "n", json_object_new_uint64(s->n));
	put(o, "mean", jnum(s->mean));
	put(o, "sd", jnum(s->sd));
	put(o, "ci_lo", s->has_ci ? jnum(s->ci.lo) : NULL);
	put(o, "ci_hi", s->has_ci ? jnum(s->ci.hi) : NULL);
	put(o, "sum", s->n ? jnum(s->sum) : NULL);
	return o;
}

static struct json_object *cells_arr(const struct sweep_config *cfg,
				     const struct sweep_plan *plan,
				     const struct analysis *a)
{
	struct json_object *arr = json_object_new_array();

	for (size_t oi = 0; oi < plan->n_cells; oi++) {
		size_t c = a->order[oi];
		struct json_object *o = json_object_new_object(),
				   *ms = json_object_new_object();

		put(o, "cell", json_object_new_uint64(c));
		put(o, "dimensions", dims_obj(cfg, &plan->cells[c]));
		put(o, "runs", json_object_new_uint64(a->cells[c].runs));
		for (int k = 0; k < M_COUNT; k++)
			if (sweep_kind_has_metric(cfg->kind, (enum sweep_metric)k))
				put(ms, sweep_metrics[k].name, stats_obj(&a->cells[c].m[k]));
		put(o, "metrics", ms);
		json_object_array_add(arr, o);
	}
	return arr;
}

/* One line of the flat summary list. */
static struct json_object *summary_item(const char *section, const char *title,
					const char *key, enum sweep_metric m,
					const char *unit, double value, double lo,
					double hi, int significant)
{
	struct json_object *o = json_object_new_object();

	put(o, "section", jstr(section));
	put(o, "title", jstr(title));
	put(o, "key", jstr(key));
	put(o, "metric", jstr(sweep_metrics[m].name));
	put(o, "label", jstr(sweep_metrics[m].label));
	put(o, "unit", jstr(unit));
	put(o, "value", jnum(value));
	put(o, "lo", jnum(lo));
	put(o, "hi", jnum(hi));
	put(o, "significant", significant < 0 ? NULL :
	    json_object_new_boolean(significant));
	return o;
}

/* The main table's figures (ns or us per exit) as their own summary
 * rows, the difference in the metric's unit. */
static void cost_item(const struct comparison *cmp, const struct figure *f,
		      const char *key, struct json_object *summary)
{
	char sec[96], title[192];
	struct json_object *o;

	if (f->metric != M_TS_NS_PER_EXIT && f->metric != M_CPU_US_PER_EXIT)
		return;
	snprintf(sec, sizeof(sec), "cost:%s", cmp->section);
	snprintf(title, sizeof(title), "Cost per exit, mean a - mean b: %s",
		 cmp->title + strlen("%ovhd of "));
	o = summary_item(sec, title, key, f->metric, sweep_metrics[f->metric].unit,
			 f->diff_ok ? f->diff.est : NAN, f->diff_ok ? f->diff.lo : NAN,
			 f->diff_ok ? f->diff.hi : NAN, f->diff_ok ? f->significant : -1);
	if (f->excluded)
		put(o, "excluded", json_object_new_boolean(true));
	json_object_array_add(summary, o);
}

static struct json_object *figure_obj(const struct sweep_config *cfg,
				      const struct sweep_plan *plan,
				      const struct analysis *a, const struct figure *f,
				      const char *key)
{
	struct json_object *fo = json_object_new_object();

	put(fo, "key", jstr(key));
	put(fo, "dimensions", dims_obj(cfg, &plan->cells[f->cell_a]));
	put(fo, "metric", jstr(sweep_metrics[f->metric].name));
	put(fo, "a_cell", json_object_new_uint64(f->cell_a));
	put(fo, "b_cell", json_object_new_uint64(f->cell_b));
	put(fo, "a_mean", jnum(a->cells[f->cell_a].m[f->metric].mean));
	put(fo, "b_mean", jnum(a->cells[f->cell_b].m[f->metric].mean));
	if (cfg->kind == KIND_OVERHEAD) {
		put(fo, "a_achieved_rate", jnum(a->cells[f->cell_a].m[M_ACHIEVED].mean));
		put(fo, "b_achieved_rate", jnum(a->cells[f->cell_b].m[M_ACHIEVED].mean));
	}
	put(fo, "overhead_pct", f->ok ? jnum(f->ci.est) : NULL);
	put(fo, "ci_lo", f->ok ? jnum(f->ci.lo) : NULL);
	put(fo, "ci_hi", f->ok ? jnum(f->ci.hi) : NULL);
	put(fo, "df", f->ok ? jnum(f->ci.df) : NULL);
	put(fo, "significant", f->ok ? json_object_new_boolean(f->significant) : NULL);
	put(fo, "diff", f->diff_ok ? jnum(f->diff.est) : NULL);
	put(fo, "diff_lo", f->diff_ok ? jnum(f->diff.lo) : NULL);
	put(fo, "diff_hi", f->diff_ok ? jnum(f->diff.hi) : NULL);
	put(fo, "excluded", json_object_new_boolean(f->excluded));
	put(fo, "few_ticks", json_object_new_boolean(f->few_ticks));
	return fo;
}

static struct json_object *comparisons_arr(const struct sweep_config *cfg,
					   const struct sweep_plan *plan,
					   const struct analysis *a,
					   struct json_object *summary)
{
	struct json_object *arr = json_object_new_array();

	for (size_t k = 0; k < a->n_cmp; k++) {
		const struct comparison *cmp = &a->cmp[k];
		struct json_object *o = json_object_new_object(),
				   *figs = json_object_new_array();

		put(o, "section", jstr(cmp->section));
		put(o, "title", jstr(cmp->title));
		put(o, "dimension", jstr(sweep_dim_name(cmp->dim)));
		put(o, "a", jstr(cfg->dim[cmp->dim].label[cmp->a]));
		put(o, "b", jstr(cfg->dim[cmp->dim].label[cmp->b]));
		for (size_t i = 0; i < a->n_figs; i++) {
			const struct figure *f = &a->figs[i];
			struct json_object *fo;
			char key[512];

			if (f->comparison != k)
				continue;
			sweep_analyze_cell_key(cfg, &plan->cells[f->cell_a], cmp->dim,
					 key, sizeof(key));
			fo = figure_obj(cfg, plan, a, f, key);
			json_object_array_add(figs, fo);
			cost_item(cmp, f, key, summary);
			fo = summary_item(cmp->section, cmp->title, key, f->metric, "%",
					  f->ok ? f->ci.est : NAN, f->ok ? f->ci.lo : NAN,
					  f->ok ? f->ci.hi : NAN, f->ok ? f->significant : -1);
			if (f->excluded)
				put(fo, "excluded", json_object_new_boolean(true));
			json_object_array_add(summary, fo);
		}
		put(o, "figures", figs);
		json_object_array_add(arr, o);
	}
	return arr;
}

static bool listener_cell(const struct sweep_config *cfg, const struct sweep_cell *c)
{
	return cell_val(cfg, c, DIM_LISTENER) != LISTEN_NONE;
}

static struct json_object *loss_arr(const struct sweep_config *cfg,
				    const struct sweep_plan *plan,
				    const struct analysis *a,
				    struct json_object *summary)
{
	static const enum sweep_metric loss[] = { M_LOST, M_DROPPED, M_ENOBUFS };
	struct json_object *arr = json_object_new_array();

	for (size_t oi = 0; oi < plan->n_cells; oi++) {
		size_t c = a->order[oi];
		const struct cell_stats *s = &a->cells[c];
		struct json_object *o;
		char key[512];

		if (!listener_cell(cfg, &plan->cells[c]))
			continue;
		sweep_analyze_cell_key(cfg, &plan->cells[c], DIM_COUNT, key, sizeof(key));
		o = json_object_new_object();
		put(o, "cell", json_object_new_uint64(c));
		put(o, "key", jstr(key));
		put(o, "dimensions", dims_obj(cfg, &plan->cells[c]));
		put(o, "runs", json_object_new_uint64(s->runs));
		put(o, "expected", jnum(s->m[M_EXITS].sum));
		put(o, "received", jnum(s->m[M_RECORDS].sum));
		put(o, "lost", jnum(s->m[M_LOST].sum));
		put(o, "worst_run_lost", jnum(s->m[M_LOST].max));
		put(o, "dropped", jnum(s->m[M_DROPPED].sum));
		put(o, "enobufs", jnum(s->m[M_ENOBUFS].sum));
		json_object_array_add(arr, o);
		for (size_t i = 0; i < sizeof(loss) / sizeof(loss[0]); i++)
			json_object_array_add(summary, summary_item(
				"loss", "Loss: records lost, dropped and ENOBUFS "
				"episodes, summed over runs", key, loss[i], "",
				s->m[loss[i]].n ? s->m[loss[i]].sum : NAN, NAN, NAN, -1));
	}
	return arr;
}

/* Cell means of the figures a kind is about, for the summary list. */
static void means_summary(const struct sweep_config *cfg,
			  const struct sweep_plan *plan, const struct analysis *a,
			  struct json_object *summary)
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
		for (size_t j = 0; j < nm; j++) {
			const struct metric_stats *s = &a->cells[c].m[mets[j]];

			json_object_array_add(summary, summary_item(
				"means", "Means per cell", key, mets[j],
				sweep_metrics[mets[j]].unit, s->n ? s->mean : NAN,
				s->has_ci ? s->ci.lo : NAN, s->has_ci ? s->ci.hi : NAN, -1));
		}
	}
}

/* An interrupted sweep is partial: runs_done of runs_planned.  The tick
 * rate says how finely the user/sys split was sampled. */
static void progress_keys(struct json_object *root, const struct sweep_plan *plan,
			  const struct analysis *a)
{
	size_t done = 0;

	for (size_t i = 0; i < plan->n_runs; i++)
		done += plan->runs[i].done;
	put(root, "partial", json_object_new_boolean(done < plan->n_runs));
	put(root, "runs_done", json_object_new_uint64(done));
	put(root, "runs_planned", json_object_new_uint64(plan->n_runs));
	put(root, "tick_hz", json_object_new_int64(a->hz));
	put(root, "tick_hz_source", jstr(a->hz_how));
}

char *sweep_json_render(const struct sweep_config *cfg, const struct sweep_plan *plan,
		  const struct analysis *a, const struct sweep_machine *m)
{
	struct json_object *root = json_object_new_object();
	struct json_object *summary = json_object_new_array();
	char *out;

	if (!root || !summary) {
		json_object_put(root);
		json_object_put(summary);
		return NULL;
	}
	put(root, "format", jstr(SWEEP_JSON_FORMAT));
	put(root, "kind", jstr(sweep_kind_name(cfg->kind)));
	progress_keys(root, plan, a);
	put(root, "machine", machine_obj(m));
	put(root, "config", config_obj(cfg));
	put(root, "comparisons", comparisons_arr(cfg, plan, a, summary));
	put(root, "loss", loss_arr(cfg, plan, a, summary));
	means_summary(cfg, plan, a, summary);
	put(root, "summary", summary);
	put(root, "cells", cells_arr(cfg, plan, a));
	put(root, "runs", runs_arr(cfg, plan));
	out = strdup(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
				JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
	return out;
}

int sweep_json_write(const char *path, const struct sweep_config *cfg,
	       const struct sweep_plan *plan, const struct analysis *a,
	       const struct sweep_machine *m)
{
	char *s = sweep_json_render(cfg, plan, a, m);
	size_t len;
	int r;

	if (!s)
		return -ENOMEM;
	len = strlen(s);
	s[len] = '\n';	/* replaces the terminator: write len + 1 bytes */
	r = safe_replace(path, s, len + 1, SAFE_MODE_PUBLIC);
	free(s);
	return r;
}
