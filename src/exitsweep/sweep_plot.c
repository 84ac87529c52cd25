// SPDX-License-Identifier: GPL-2.0-or-later
/* What --plot draws: the panels a kind's results support and their data
 * series (the drawing itself is sweep_canvas.c). */
#include "sweep_plot.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep_canvas.h"
#include "sweep_dim.h"
#include "sweep_metrics.h"
#include "sweep_proc.h"

int sweep_plot_find_gnuplot(char *buf, size_t len)
{
	return sweep_proc_in_path("gnuplot", buf, len);
}

static const char *x_label(const struct sweep_config *cfg,
			   const struct sweep_plan *plan, size_t c)
{
	return cell_label(cfg, &plan->cells[c], sweep_kind_row_dim(cfg->kind));
}

/* The x of a cell: achieved rate for overhead, the value's position for
 * cohort work (a label), the row value otherwise. */
static double cell_x(const struct sweep_config *cfg, const struct sweep_plan *plan,
		     const struct analysis *a, size_t c)
{
	enum sweep_dim row = sweep_kind_row_dim(cfg->kind);

	if (cfg->kind == KIND_OVERHEAD)
		return a->cells[c].m[M_ACHIEVED].mean;
	if (cfg->kind == KIND_COHORT)
		return (double)plan->cells[c].v[row] + 1;
	return (double)cell_val(cfg, &plan->cells[c], row);
}

/* Same group = same values in every dimension except the row dim and
 * skip. */
static bool same_group(const struct sweep_config *cfg, const struct sweep_cell *x,
		       const struct sweep_cell *y, enum sweep_dim skip)
{
	enum sweep_dim row = sweep_kind_row_dim(cfg->kind);

	for (int d = 0; d < DIM_COUNT; d++)
		if (d != (int)row && d != (int)skip && x->v[d] != y->v[d])
			return false;
	return true;
}

static void group_name(const struct sweep_config *cfg, const struct sweep_cell *c,
		       enum sweep_dim skip, char *buf, size_t len)
{
	enum sweep_dim row = sweep_kind_row_dim(cfg->kind);
	unsigned dims = 0;

	for (int d = 0; d < DIM_COUNT; d++)
		if (d != (int)row && d != (int)skip &&
		    sweep_dim_varies(cfg, (enum sweep_dim)d))
			dims |= 1u << d;
	sweep_analyze_cell_describe(cfg, c, dims, buf, len);
}

/* Has figure i's (metric, group) been drawn by an earlier figure? */
static bool fig_drawn(const struct sweep_config *cfg, const struct sweep_plan *plan,
		      const struct analysis *a, size_t i)
{
	const struct figure *f = &a->figs[i];
	enum sweep_dim skip = a->cmp[f->comparison].dim;

	for (size_t j = 0; j < i; j++)
		if (a->figs[j].comparison == f->comparison && a->figs[j].metric == f->metric &&
		    same_group(cfg, &plan->cells[a->figs[j].cell_a], &plan->cells[f->cell_a], skip))
			return true;
	return false;
}

/* The points of figure i's series: %ovhd, or with diff the difference in
 * the metric's unit. */
static void fig_series(struct sweep_canvas *p, const struct sweep_config *cfg,
		       const struct sweep_plan *plan, const struct analysis *a,
		       size_t i, bool diff)
{
	const struct figure *f = &a->figs[i];
	enum sweep_dim skip = a->cmp[f->comparison].dim;

	for (size_t j = i; j < a->n_figs; j++) {
		const struct figure *h = &a->figs[j];
		const struct stats_ci *ci = diff ? &h->diff : &h->ci;
		double x;

		if (h->comparison != f->comparison || h->metric != f->metric ||
		    !same_group(cfg, &plan->cells[h->cell_a], &plan->cells[f->cell_a], skip) ||
		    !(diff ? h->diff_ok : h->ok))
			continue;
		x = cell_x(cfg, plan, a, h->cell_a);
		if (cfg->kind == KIND_OVERHEAD)
			x = (x + cell_x(cfg, plan, a, h->cell_b)) / 2;
		sweep_canvas_point(p, x, ci->est, ci->lo, ci->hi,
				   x_label(cfg, plan, h->cell_a));
	}
}

static const char *x_title(const struct sweep_config *cfg)
{
	return cfg->kind == KIND_OVERHEAD ? "achieved exit rate (exits/s)" :
	       cfg->kind == KIND_REAP ? "background children" : "work";
}

/* One panel of comparison k: one series per (group, metric), metric only
 * (M_COUNT: all of the kind's); diff plots differences, not percent. */
static void comparison_panel(struct sweep_canvas *p, const struct sweep_config *cfg,
			     const struct sweep_plan *plan, const struct analysis *a,
			     size_t k, enum sweep_metric only, bool diff,
			     const char *title, const char *ylabel)
{
	sweep_canvas_panel_begin(p, title, x_title(cfg), ylabel,
				 cfg->kind == KIND_OVERHEAD, false);
	for (size_t i = 0; i < a->n_figs; i++) {
		const struct figure *f = &a->figs[i];
		char g[256], t[320];

		if (f->comparison != k || (only != M_COUNT && f->metric != only) ||
		    fig_drawn(cfg, plan, a, i))
			continue;
		group_name(cfg, &plan->cells[f->cell_a], a->cmp[k].dim, g, sizeof(g));
		snprintf(t, sizeof(t), "%s%s%s", only == M_COUNT ?
			 sweep_metrics[f->metric].label : "", only == M_COUNT && g[0] ?
			 " " : "", g[0] || only == M_COUNT ? g : "all");
		if (sweep_canvas_series_begin(p, t))
			fig_series(p, cfg, plan, a, i, diff);
		sweep_canvas_series_end(p);
	}
	sweep_canvas_panel_end(p);
}

static void comparison_panels(struct sweep_canvas *p, const struct sweep_config *cfg,
			      const struct sweep_plan *plan, const struct analysis *a)
{
	for (size_t k = 0; k < a->n_cmp; k++)
		comparison_panel(p, cfg, plan, a, k, M_COUNT, false, a->cmp[k].title,
				 "overhead (%)");
}

/* Series of a per-cell metric against the row dimension, one per group. */
static void metric_series(struct sweep_canvas *p, const struct sweep_config *cfg,
			  const struct sweep_plan *plan, const struct analysis *a,
			  enum sweep_metric m, bool listener_only, bool name_metric)
{
	for (size_t oi = 0; oi < plan->n_cells; oi++) {
		size_t c = a->order[oi];
		const struct sweep_cell *ci = &plan->cells[c];
		bool drawn = false;
		char g[256], t[320];

		if (listener_only && cell_val(cfg, ci, DIM_LISTENER) == LISTEN_NONE)
			continue;
		for (size_t j = 0; j < oi && !drawn; j++)
			drawn = same_group(cfg, &plan->cells[a->order[j]], ci, DIM_COUNT);
		if (drawn)
			continue;
		group_name(cfg, ci, DIM_COUNT, g, sizeof(g));
		snprintf(t, sizeof(t), "%s%s%s%s", name_metric ? sweep_metrics[m].label : "",
			 name_metric && g[0] ? " " : "", g[0] || name_metric ? g : "all",
			 a->cells[c].tainted ? " (foreign listener)" : "");
		if (!sweep_canvas_series_begin(p, t))
			continue;
		for (size_t oj = oi; oj < plan->n_cells; oj++) {
			size_t d = a->order[oj];
			const struct metric_stats *s = &a->cells[d].m[m];

			if (same_group(cfg, &plan->cells[d], ci, DIM_COUNT))
				sweep_canvas_point(p, cell_x(cfg, plan, a, d), s->mean,
						   s->has_ci ? s->ci.lo : NAN,
						   s->has_ci ? s->ci.hi : NAN,
						   x_label(cfg, plan, d));
		}
		sweep_canvas_series_end(p);
	}
}

static void metric_panel(struct sweep_canvas *p, const struct sweep_config *cfg,
			 const struct sweep_plan *plan, const struct analysis *a,
			 enum sweep_metric m, const char *title, const char *yl,
			 bool listener_only)
{
	sweep_canvas_panel_begin(p, title, x_title(cfg), yl,
				 cfg->kind == KIND_OVERHEAD, true);
	metric_series(p, cfg, plan, a, m, listener_only, false);
	sweep_canvas_panel_end(p);
}

/* A time axis: its native words, or plain counts on the instruction
 * clock ("microseconds", "seconds" -> "instr"). */
static const char *time_axis(const char *native)
{
	return sweep_metrics_instr() ? SWEEP_UNIT_INSTR : native;
}

/* A panel of one metric per exit or record, named by its key: "NAME:
 * what", its y axis "UNIT per per" in the clock's unit. */
static void named_panel(struct sweep_canvas *p, const struct sweep_config *cfg,
			const struct sweep_plan *plan, const struct analysis *a,
			enum sweep_metric m, const char *what, const char *per,
			bool listener_only)
{
	char title[256], yl[64];

	snprintf(title, sizeof(title), "%s: %s", sweep_metrics[m].name, what);
	snprintf(yl, sizeof(yl), "%s per %s", sweep_metrics[m].unit, per);
	metric_panel(p, cfg, plan, a, m, title, yl, listener_only);
}

static const char *r0_times_title(const struct sweep_plan *plan)
{
	/* exitgen's finish times when it gave them, else lifetimes */
	for (size_t i = 0; i < plan->n_runs; i++)
		if (plan->runs[i].done && plan->runs[i].exit_times)
			return plan->runs[i].times_from_gen ?
			       "Finish times after the release (first run of each cell)" :
			       "Lifetimes of the workers, from exitmon's records "
			       "(first run of each cell)";
	return "Finish times (no data)";
}

/* Cohort: exit time by rank for the first completed run of each cell. */
static void cohort_panel(struct sweep_canvas *p, const struct sweep_config *cfg,
			 const struct sweep_plan *plan, const struct analysis *a)
{
	p->rank = true;
	sweep_canvas_panel_begin(p, r0_times_title(plan), "worker, in exit order",
				 time_axis("seconds"), false, true);
	for (size_t oi = 0; oi < plan->n_cells; oi++) {
		size_t c = a->order[oi];
		char t[320], key[200];

		for (size_t i = 0; i < plan->n_runs; i++) {
			const struct sweep_run *r = &plan->runs[i];

			if (r->cell != c || !r->done || !r->exit_times)
				continue;
			group_name(cfg, &plan->cells[c], DIM_COUNT, key, sizeof(key));
			snprintf(t, sizeof(t), "%s%s%s (groups %s)",
				 cell_label(cfg, &plan->cells[c], DIM_WORK), key[0] ? " " : "",
				 key, r->groups);
			if (sweep_canvas_series_begin(p, t))
				for (size_t j = 0; j < r->n_exit_times; j++)
					sweep_canvas_point(p, (double)(j + 1),
							   r->exit_times[j], NAN, NAN, NULL);
			sweep_canvas_series_end(p);
			break;
		}
	}
	sweep_canvas_panel_end(p);
	p->rank = false;
}

static bool any_probe(const struct sweep_plan *plan, const struct analysis *a)
{
	for (size_t c = 0; c < plan->n_cells; c++)
		if (a->cells[c].m[M_TS_NS_PER_EXIT].n)
			return true;
	return false;
}

/* Overhead: what the data support -- per-cell in-kernel and exact CPU per
 * exit, the cost of each comparison, the collector per record, loss.  The
 * tick-sampled user/sys stay in the tables only. */
static void overhead_panels(struct sweep_canvas *p, const struct sweep_config *cfg,
			    const struct sweep_plan *plan, const struct analysis *a,
			    bool loss)
{
	bool probe = any_probe(plan, a);
	enum sweep_metric cost = probe ? M_TS_NS_PER_EXIT : M_CPU_US_PER_EXIT;
	char title[256], yl[64];

	if (probe)
		named_panel(p, cfg, plan, a, M_TS_NS_PER_EXIT, "taskstats_exit() CPU "
			    "per exit, in the kernel (exitprobe)", "exit", false);
	named_panel(p, cfg, plan, a, M_CPU_US_PER_EXIT, "exitgen's user+sys with "
		    "children / exits (exact)", "exit", false);
	named_panel(p, cfg, plan, a, M_MACHINE_CPU_US_PER_EXIT, "all CPUs' busy "
		    "time (/proc/stat) / exits", "exit", false);
	if (probe) {
		sweep_canvas_panel_begin(p, "tgid_on_share, listener_share: exits "
					 "with a tgid accumulator, meeting a listener "
					 "(exitprobe)", x_title(cfg), "share of exits",
					 true, true);
		metric_series(p, cfg, plan, a, M_TGID_ON_SHARE, false, true);
		metric_series(p, cfg, plan, a, M_LISTENER_SHARE, false, true);
		sweep_canvas_panel_end(p);
	}
	for (size_t k = 0; k < a->n_cmp; k++) {
		snprintf(title, sizeof(title), "Cost per exit of %s%s",
			 a->cmp[k].title + strlen("%ovhd of "), probe ? " (taskstats_exit)" :
			 " (whole exit: probe off)");
		snprintf(yl, sizeof(yl), "%s per exit, a - b", sweep_metrics[cost].unit);
		comparison_panel(p, cfg, plan, a, k, cost, true, title, yl);
	}
	if (!loss)
		return;
	named_panel(p, cfg, plan, a, M_MON_US_PER_RECORD, "exitmon's user+sys / "
		    "records received (exact)", "record", true);
	sweep_canvas_panel_begin(p, "Records lost and dropped per run (mean; "
				 "dropped counts the whole socket)", x_title(cfg),
				 "records per run", true, true);
	metric_series(p, cfg, plan, a, M_LOST, true, true);
	metric_series(p, cfg, plan, a, M_DROPPED, true, true);
	sweep_canvas_panel_end(p);
}

static unsigned count_panels(const struct sweep_config *cfg, const struct sweep_plan *plan,
			     const struct analysis *a, bool loss)
{
	switch (cfg->kind) {
	case KIND_OVERHEAD:
		return 2 + 2 * any_probe(plan, a) + (unsigned)a->n_cmp + (loss ? 2 : 0);
	case KIND_REAP: return 3 + (unsigned)a->n_cmp;
	default: return 2 + (unsigned)a->n_cmp;
	}
}

/* "exitsweep --kind overhead: 58 of 60 runs (INTERRUPTED: partial)", and
 * with the probe on what it costs (every panel's runs ran under it). */
static const char *plot_title(const struct sweep_config *cfg,
			      const struct sweep_plan *plan, char *buf, size_t len)
{
	const struct sweep_probe_cost *pc = &cfg->probe_cost;
	size_t done = 0;
	int w;

	for (size_t i = 0; i < plan->n_runs; i++)
		done += plan->runs[i].done;
	w = snprintf(buf, len, "exitsweep --kind %s: %zu of %zu runs%s",
		     sweep_kind_name(cfg->kind), done, plan->n_runs,
		     done < plan->n_runs ? " (INTERRUPTED: partial)" : "");
	if (cfg->kind != KIND_OVERHEAD || !cfg->exitprobe || w < 0 || (size_t)w >= len)
		return buf;
	if (pc->blocks)
		snprintf(buf + w, len - (size_t)w, "\nevery run under exitprobe, "
			 "which slows a flat-out exit loop to %.2f of its speed "
			 "(%.2f to %.2f)", pc->ratio, pc->lo, pc->hi);
	else
		snprintf(buf + w, len - (size_t)w, "\nevery run under exitprobe "
			 "(its cost not measured)");
	return buf;
}

static void panels(struct sweep_canvas *p, const struct sweep_config *cfg,
		   const struct sweep_plan *plan, const struct analysis *a, bool loss)
{
	if (cfg->kind == KIND_OVERHEAD) {
		overhead_panels(p, cfg, plan, a, loss);
	} else if (cfg->kind == KIND_REAP) {
		metric_panel(p, cfg, plan, a, M_FORK_REAP_P50,
			     "Time to fork and reap one child (median per run)",
			     time_axis("microseconds"), false);
		metric_panel(p, cfg, plan, a, M_KILL_REAP,
			     "Time to kill and reap a batch of children",
			     time_axis("seconds"), false);
		metric_panel(p, cfg, plan, a, M_KILL_BG,
			     "Time to kill and reap all background children",
			     time_axis("seconds"), false);
		comparison_panels(p, cfg, plan, a);
	} else {
		cohort_panel(p, cfg, plan, a);
		p->categorical = true;
		metric_panel(p, cfg, plan, a, M_SPREAD, "Spread of finish times "
			     "(last - first)", time_axis("seconds"), false);
		comparison_panels(p, cfg, plan, a);
	}
}

int sweep_plot_write(const char *out, const struct sweep_config *cfg,
	       const struct sweep_plan *plan, const struct analysis *a,
	       const char *dir, char *err, size_t errlen)
{
	static struct sweep_canvas p;
	char gp[PATH_MAX], script[PATH_MAX], title[256], *body = NULL;
	size_t blen = 0;
	bool loss = false;
	FILE *f;

	for (size_t i = 0; i < cfg->dim[DIM_LISTENER].n; i++)
		loss |= cfg->dim[DIM_LISTENER].val[i] != LISTEN_NONE;
	if (sweep_plot_find_gnuplot(gp, sizeof(gp)) < 0) {
		snprintf(err, errlen, "%s", PLOT_MISSING_MSG);
		return -ENOENT;
	}
	memset(&p, 0, sizeof(p));
	p.dir = dir;
	p.png = sweep_canvas_is_png(out);
	snprintf(script, sizeof(script), "%s/plot.gp", dir);
	/* the panels first, in memory: the preamble needs the longest title */
	p.script = open_memstream(&body, &blen);
	if (!p.script) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	panels(&p, cfg, plan, a, loss);
	fprintf(p.script, "unset multiplot\n");
	if (fclose(p.script) != 0 && !p.err)
		p.err = -ENOMEM;
	f = p.err ? NULL : fopen(script, "we");
	if (f) {
		sweep_canvas_preamble(f, &p, count_panels(cfg, plan, a, loss),
				      plot_title(cfg, plan, title, sizeof(title)));
		fwrite(body, 1, blen, f);
		if (fclose(f) != 0)
			p.err = -EIO;
	} else if (!p.err) {
		p.err = -errno;
	}
	free(body);
	if (p.err) {
		snprintf(err, errlen, "cannot write plot data in %s: %s", dir, strerror(-p.err));
		return p.err;
	}
	return sweep_canvas_render(gp, script, dir, out, err, errlen);
}
