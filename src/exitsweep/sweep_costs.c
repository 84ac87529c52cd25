// SPDX-License-Identifier: GPL-2.0-or-later
/* The cost tables of an overhead sweep. */
#include "sweep_costs.h"

#include <math.h>
#include <string.h>

#include "sweep_dim.h"
#include "sweep_fmt.h"
#include "sweep_metrics.h"
#include "sweep_table.h"

static bool probed(const struct analysis *a, const struct sweep_plan *plan)
{
	for (size_t c = 0; c < plan->n_cells; c++)
		if (a->cells[c].m[M_TS_NS_PER_EXIT].n)
			return true;
	return false;
}

static const struct figure *row_fig(const struct analysis *a, size_t k, size_t ca,
				    enum sweep_metric m)
{
	for (size_t i = 0; i < a->n_figs; i++)
		if (a->figs[i].comparison == k && a->figs[i].cell_a == ca &&
		    a->figs[i].metric == m)
			return &a->figs[i];
	return NULL;
}

/* The difference as a share of a whole exit of cell a (cpu_us_per_exit,
 * treated as exact like the base of %ovhd). */
static void pct_of_exit(struct sweep_table *t, const struct analysis *a,
			const struct figure *x, double scale)
{
	double base = a->cells[x->cell_a].m[M_CPU_US_PER_EXIT].mean * scale;
	char buf[64];

	if (!x->diff_ok || !(base > 0))
		sweep_table_cell(t, "-");
	else
		sweep_table_cell(t, "%s", sweep_fmt_pct_ci(buf, sizeof(buf),
				 x->diff.est / base * 100, x->diff.half / base * 100,
				 true, x->significant));
}

static void cost_row(struct sweep_table *t, const struct sweep_config *cfg,
		     const struct sweep_plan *plan, const struct analysis *a,
		     const struct figure *x, const enum sweep_dim *g, size_t ng)
{
	const struct sweep_cell *c = &plan->cells[x->cell_a];
	const struct metric_stats *ma = &a->cells[x->cell_a].m[x->metric];
	const struct metric_stats *mb = &a->cells[x->cell_b].m[x->metric];
	/* CPU/exit in the metric's unit: us to ns, or both instructions */
	double scale = sweep_metrics_instr() ? 1 :
		       sweep_metrics_instr_scale(M_CPU_US_PER_EXIT) /
		       sweep_metrics_instr_scale(x->metric);
	char b1[32], b2[32], buf[64];

	sweep_table_row(t);
	sweep_table_cell(t, "%s", cell_label(cfg, c, DIM_RATE));
	for (size_t d = 0; d < ng; d++)
		sweep_table_cell(t, "%s", cell_label(cfg, c, g[d]));
	sweep_table_cell(t, "%s", sweep_fmt_sig(b1, sizeof(b1), ma->mean, 3));
	sweep_table_cell(t, "%s", sweep_fmt_sig(b2, sizeof(b2), mb->mean, 3));
	if (x->excluded) {
		sweep_table_cell(t, "excluded*");
		sweep_table_cell(t, "-");
		return;
	}
	sweep_table_cell(t, "%s", sweep_fmt_diff(buf, sizeof(buf), x->diff.est,
			 x->diff.half, x->diff_ok, x->significant));
	pct_of_exit(t, a, x, scale);
}

static void cost_table(FILE *f, const struct sweep_config *cfg,
		       const struct sweep_plan *plan, const struct analysis *a,
		       size_t k, enum sweep_metric m, const char *title)
{
	const struct comparison *cmp = &a->cmp[k];
	const char *unit = sweep_metrics[m].unit;
	enum sweep_dim g[DIM_COUNT];
	size_t ng = sweep_dim_groups(cfg, cmp->dim, g), nc = 5 + ng;
	struct sweep_table *t = sweep_table_new(nc);

	if (!t)
		return;
	fprintf(f, "\n%s\n\n", title);
	sweep_table_row(t);
	sweep_table_cell(t, "Exit rate");
	for (size_t i = 0; i < ng; i++)
		sweep_table_cell(t, "%s", sweep_dim_heading(g[i]));
	sweep_table_cell(t, "%s %s (%s)", sweep_dim_heading(cmp->dim),
			 cfg->dim[cmp->dim].label[cmp->a], unit);
	sweep_table_cell(t, "%s %s (%s)", sweep_dim_heading(cmp->dim),
			 cfg->dim[cmp->dim].label[cmp->b], unit);
	sweep_table_cell(t, "Cost %s per exit", unit);
	sweep_table_cell(t, "%% of an exit");
	sweep_table_right(t, 0);
	for (size_t i = 1 + ng; i < nc; i++)
		sweep_table_right(t, i);
	for (size_t oi = 0; oi < plan->n_cells; oi++) {
		const struct figure *x = row_fig(a, k, a->order[oi], m);

		if (x)
			cost_row(t, cfg, plan, a, x, g, ng);
	}
	sweep_table_print(t, f, "  ");
	sweep_table_free(t);
}

static void cost_tables(FILE *f, const struct sweep_config *cfg,
			const struct sweep_plan *plan, const struct analysis *a,
			bool probe)
{
	enum sweep_metric m = probe ? M_TS_NS_PER_EXIT : M_CPU_US_PER_EXIT;
	const char *what = probe ? "taskstats_exit() in the kernel (exitprobe)" :
		"NOT taskstats_exit() (probe off): the whole exit's CPU time "
		"(exact), which also carries everything else that differs";
	char title[512];

	for (size_t k = 0; k < a->n_cmp; k++) {
		const struct comparison *cmp = &a->cmp[k];

		if (cmp->dim == DIM_TGID)
			snprintf(title, sizeof(title), "What tgid accumulation costs "
				 "per thread exit: thread exits (tgid on) minus "
				 "process exits (tgid off),\n%s", what);
		else if (cmp->dim == DIM_LISTENER)
			snprintf(title, sizeof(title), "What a listener (%s) costs "
				 "per exit inside the kernel: with it minus without,\n%s",
				 cfg->dim[DIM_LISTENER].label[cmp->a], what);
		else
			snprintf(title, sizeof(title), "%s,\n%s", cmp->title, what);
		cost_table(f, cfg, plan, a, k, m, title);
	}
}

static void mean_cell(struct sweep_table *t, const struct metric_stats *ms,
		      int digits)
{
	char b1[32], b2[32];

	if (ms->has_ci)
		sweep_table_cell(t, "%s ±%s", sweep_fmt_sig(b1, sizeof(b1), ms->mean, digits),
				 sweep_fmt_sig(b2, sizeof(b2), ms->ci.half, 2));
	else
		sweep_table_cell(t, "%s", sweep_fmt_sig(b1, sizeof(b1), ms->mean, digits));
}

/* Foreign exits: how many of the cell's exits (all runs) met another
 * program's listener, "0 of 4000" when none did. */
static void foreign_cell(struct sweep_table *t, const struct cell_stats *cs)
{
	const struct metric_stats *f = &cs->m[M_FOREIGN_EXITS];
	const struct metric_stats *e = &cs->m[M_EXITS];

	if (!f->n)
		sweep_table_cell(t, "-");
	else
		sweep_table_cell(t, "%.0f of %.0f", f->sum, e->n ? e->sum : NAN);
}

static bool any_tainted(const struct analysis *a, const struct sweep_plan *plan)
{
	for (size_t c = 0; c < plan->n_cells; c++)
		if (a->cells[c].tainted)
			return true;
	return false;
}

/* One table of per-cell means of mets[] (listener cells only if asked). */
static void means_table(FILE *f, const struct sweep_config *cfg,
			const struct sweep_plan *plan, const struct analysis *a,
			const enum sweep_metric *mets, size_t nm, bool listener_only)
{
	enum sweep_dim g[DIM_COUNT];
	size_t ng = sweep_dim_groups(cfg, DIM_COUNT, g), nc = 2 + ng + nm;
	struct sweep_table *t = sweep_table_new(nc);

	if (!t)
		return;
	sweep_table_row(t);
	sweep_table_cell(t, "Exit rate");
	for (size_t i = 0; i < ng; i++)
		sweep_table_cell(t, "%s", sweep_dim_heading(g[i]));
	sweep_table_cell(t, "Runs");
	for (size_t j = 0; j < nm; j++)
		sweep_table_cell(t, "%s%s%s", sweep_metrics[mets[j]].label,
				 strcmp(sweep_metrics[mets[j]].unit, "1/s") ? " " : "",
				 strcmp(sweep_metrics[mets[j]].unit, "1/s") ?
				 sweep_metrics[mets[j]].unit : "");
	sweep_table_right(t, 0);
	for (size_t i = 1 + ng; i < nc; i++)
		sweep_table_right(t, i);
	for (size_t oi = 0; oi < plan->n_cells; oi++) {
		size_t ci = a->order[oi];
		const struct sweep_cell *c = &plan->cells[ci];

		if (listener_only && cell_val(cfg, c, DIM_LISTENER) == LISTEN_NONE)
			continue;
		sweep_table_row(t);
		sweep_table_cell(t, "%s", cell_label(cfg, c, DIM_RATE));
		for (size_t d = 0; d < ng; d++)
			sweep_table_cell(t, "%s%s", cell_label(cfg, c, g[d]),
					 g[d] == DIM_LISTENER && a->cells[ci].tainted ? "*" : "");
		sweep_table_cell(t, "%zu", a->cells[ci].runs);
		for (size_t j = 0; j < nm; j++)
			if (mets[j] == M_FOREIGN_EXITS)
				foreign_cell(t, &a->cells[ci]);
			else
				mean_cell(t, &a->cells[ci].m[mets[j]], 3);
	}
	sweep_table_print(t, f, "  ");
	sweep_table_free(t);
}

/* Per-cell exact and in-kernel figures (cpu_us_per_exit, ...). */
static void costs_cells(FILE *f, const struct sweep_config *cfg,
			const struct sweep_plan *plan, const struct analysis *a)
{
	static const enum sweep_metric mets[] = { M_ACHIEVED, M_CPU_US_PER_EXIT,
		M_MACHINE_CPU_US_PER_EXIT, M_TS_NS_PER_EXIT, M_TGID_ON_SHARE,
		M_LISTENER_SHARE, M_FOREIGN_EXITS };
	size_t nm = sizeof(mets) / sizeof(mets[0]);

	fprintf(f, "\nPer cell (± half width of the 95%% interval of the mean): "
		"CPU/exit = exitgen's user+sys\nincluding its children / exits "
		"(exact); Machine CPU/exit = all CPUs' busy time from /proc/stat\n"
		"(idle, iowait and steal excluded; includes the collector and "
		"softirq work) / exits;\ntaskstats_exit, Tgid on and Listener "
		"(shares of exits) from exitprobe; Foreign = exits\n(all runs) "
		"that met another program's taskstats listener\n\n");
	means_table(f, cfg, plan, a, mets, probed(a, plan) ? nm : nm - 1, false);
	if (any_tainted(a, plan))
		fprintf(f, "\n* = a cell whose exits met another program's "
			"taskstats listener (exitprobe saw it in\nthe kernel; "
			"Foreign says how many): without a listener of ours it is "
			"not a no-listener\nmeasurement, with one each such exit "
			"also paid for the other listener; excluded from\nthe "
			"comparisons.\n");
}

static bool any_listener_cell(const struct sweep_config *cfg)
{
	for (size_t i = 0; i < cfg->dim[DIM_LISTENER].n; i++)
		if (cfg->dim[DIM_LISTENER].val[i] != LISTEN_NONE)
			return true;
	return false;
}

void sweep_costs_print(FILE *f, const struct sweep_config *cfg,
		       const struct sweep_plan *plan, const struct analysis *a)
{
	static const enum sweep_metric mon[] = { M_RECORDS, M_MON_US_PER_RECORD };

	fprintf(f, "\n=== What exit accounting costs (exact totals and in-kernel "
		"times) ===\n");
	cost_tables(f, cfg, plan, a, probed(a, plan));
	if (a->n_cmp)
		fprintf(f, "\n%s\n", sweep_metrics_instr() ? COSTS_LEGEND_INSTR :
			COSTS_LEGEND);
	if (any_listener_cell(cfg)) {
		fprintf(f, "\nWhat the collector spends per record: exitmon's own "
			"user+sys (exact total) / records received\n\n");
		means_table(f, cfg, plan, a, mon, 2, true);
	}
	costs_cells(f, cfg, plan, a);
}
