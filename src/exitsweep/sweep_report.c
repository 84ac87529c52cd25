// SPDX-License-Identifier: GPL-2.0-or-later
/* Text tables of a sweep. */
#include "sweep_report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep_costs.h"
#include "sweep_dim.h"
#include "sweep_fmt.h"
#include "sweep_metrics.h"
#include "sweep_plan.h"
#include "sweep_probe.h"
#include "sweep_table.h"

static void join_labels(char *buf, size_t len, const struct sweep_dimvals *dv)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < dv->n && used < len; i++) {
		int w = snprintf(buf + used, len - used, "%s%s", i ? "," : "",
				 dv->label[i]);

		if (w < 0)
			return;
		used += (size_t)w;
	}
}

/* "rates 500,max x tgid on,off x ..." */
static void report_matrix(char *buf, size_t len, const struct sweep_config *cfg)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int d = 0; d < DIM_COUNT && used < len; d++) {
		char list[512];
		int w;

		if (!sweep_kind_has_dim(cfg->kind, (enum sweep_dim)d))
			continue;
		join_labels(list, sizeof(list), &cfg->dim[d]);
		w = snprintf(buf + used, len - used, "%s%s %s", used ? " x " : "",
			     sweep_dim_name((enum sweep_dim)d), list);
		if (w < 0)
			return;
		used += (size_t)w;
	}
}

/* The range of a per-cell mean over the cells: "3.1 to 9.8". */
static void cell_range(char *buf, size_t len, const struct sweep_plan *plan,
		       enum sweep_metric m)
{
	double lo = INFINITY, hi = -INFINITY, sum, n;
	char b1[32], b2[32];

	for (size_t c = 0; c < plan->n_cells; c++) {
		sum = n = 0;
		for (size_t i = 0; i < plan->n_runs; i++)
			if (plan->runs[i].cell == c && plan->runs[i].done &&
			    !isnan(plan->runs[i].v[m])) {
				sum += plan->runs[i].v[m];
				n++;
			}
		if (n) {
			lo = fmin(lo, sum / n);
			hi = fmax(hi, sum / n);
		}
	}
	if (lo > hi)
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%s to %s", sweep_fmt_sig(b1, sizeof(b1), lo, 2),
			 sweep_fmt_sig(b2, sizeof(b2), hi, 2));
}

/* What the probe costs the workload (measured once, flat out) and in
 * each run (its BPF programs' time and its samples per exit), so the
 * cells can be judged. */
static void probe_cost_lines(FILE *f, const struct sweep_config *cfg,
			     const struct sweep_plan *plan)
{
	char line[512], bpf[64], smp[64];

	sweep_probe_cost_describe(&cfg->probe_cost, line, sizeof(line));
	cell_range(bpf, sizeof(bpf), plan, M_PROBE_BPF_NS_PER_EXIT);
	cell_range(smp, sizeof(smp), plan, M_PROBE_SAMPLES_PER_EXIT);
	fprintf(f, "probe cost: %s;\n  in the runs its BPF programs took %s %s "
		"per exit and it took %s samples per exit\n  (cell means; the "
		"sampling interrupts cost on top of the BPF programs, and all of "
		"it\n  counts in every cell's CPU/exit and Machine CPU/exit)\n",
		line, bpf, sweep_metrics[M_PROBE_BPF_NS_PER_EXIT].unit, smp);
}

static void header(FILE *f, const struct sweep_config *cfg,
		   const struct sweep_plan *plan, const struct sweep_machine *m,
		   double wall_s, bool interrupted)
{
	char matrix[2048];
	size_t done = 0;

	for (size_t i = 0; i < plan->n_runs; i++)
		done += plan->runs[i].done;
	report_matrix(matrix, sizeof(matrix), cfg);
	fprintf(f, "%s, kind %s, on %s: Linux %s %s, %ld CPUs (%s)\n",
		m->exitsweep_version, sweep_kind_name(cfg->kind), m->hostname,
		m->kernel, m->arch, m->cpus, m->cpu_model);
	if (m->emulated[0])
		fprintf(f, "WARNING: " EMULATED_NOTE "\n", m->emulated);
	if (sweep_metrics_instr())
		fprintf(f, "%s\n", REPORT_INSTR_NOTE);
	if (m->struct_version)
		fprintf(f, "taskstats version %d; ", m->struct_version);
	else
		fprintf(f, "taskstats version unknown; ");
	fprintf(f, "kernel.task_delayacct was %d%s; %s; %s\n", m->delayacct,
		sweep_plan_dim_has_other(cfg, DIM_DACCT, DACCT_KEEP) ? " (restored)" : "", m->exitmon_version,
		m->exitgen_version);
	fprintf(f, "%s; %u runs per cell", matrix, cfg->runs);
	if (cfg->kind == KIND_OVERHEAD)
		fprintf(f, ", %llu exits per run", (unsigned long long)cfg->count);
	else if (cfg->kind == KIND_REAP)
		fprintf(f, ", %llu fork+reap cycles per run",
			(unsigned long long)cfg->count);
	else
		fprintf(f, ", %u workers per run", cfg->cohort);
	fprintf(f, ", seed %llu\n", (unsigned long long)cfg->seed);
	fprintf(f, "%zu of %zu runs in %.0f s%s; started %s\n", done, plan->n_runs,
		wall_s, interrupted ? " (INTERRUPTED: partial results)" : "",
		m->started);
	if (cfg->kind == KIND_OVERHEAD)
		fprintf(f, "probe: %s%s%s\n", m->exitprobe_version,
			m->exitprobe_version[0] ? ", " : "",
			cfg->probe_note[0] ? cfg->probe_note : "off");
	if (cfg->kind == KIND_OVERHEAD && cfg->exitprobe)
		probe_cost_lines(f, cfg, plan);
}

/* The figure of metric m among the nm figures of one row starting at i. */
static const struct figure *fig_of(const struct analysis *a, size_t i, size_t nm,
				   enum sweep_metric m)
{
	for (size_t j = i; j < i + nm && j < a->n_figs; j++)
		if (a->figs[j].metric == m)
			return &a->figs[j];
	return NULL;
}

static void fig_cell(struct sweep_table *t, const struct figure *x)
{
	char buf[96];

	if (!x)
		sweep_table_cell(t, "-");
	else if (x->excluded)
		sweep_table_cell(t, "excluded*");
	else
		sweep_table_cell(t, "%s%s", sweep_fmt_pct_ci(buf, sizeof(buf), x->ci.est,
				 x->ci.half, x->ok, x->significant),
				 x->few_ticks ? "!" : "");
}

/* Row heading cells: the row dimension, achieved a/b, the group dims. */
static size_t row_head(struct sweep_table *t, const struct sweep_config *cfg,
		       const struct analysis *a, const struct figure *fg,
		       const struct sweep_cell *c, const enum sweep_dim *g, size_t ng)
{
	char b2[32], b3[32];

	sweep_table_cell(t, "%s", cell_label(cfg, c, sweep_kind_row_dim(cfg->kind)));
	if (cfg->kind == KIND_OVERHEAD)
		sweep_table_cell(t, "%s / %s",
			   sweep_fmt_sig(b2, sizeof(b2), a->cells[fg->cell_a].m[M_ACHIEVED].mean, 4),
			   sweep_fmt_sig(b3, sizeof(b3), a->cells[fg->cell_b].m[M_ACHIEVED].mean, 4));
	for (size_t d = 0; d < ng; d++)
		sweep_table_cell(t, "%s", cell_label(cfg, c, g[d]));
	return 1 + (cfg->kind == KIND_OVERHEAD) + ng;
}

static void head_cells(struct sweep_table *t, const struct sweep_config *cfg,
		       const struct comparison *cmp, const enum sweep_dim *g, size_t ng)
{
	enum sweep_dim row = sweep_kind_row_dim(cfg->kind);

	sweep_table_row(t);
	sweep_table_cell(t, "%s", row == DIM_RATE ? "Exit rate" : sweep_dim_heading(row));
	if (cfg->kind == KIND_OVERHEAD)
		sweep_table_cell(t, "Achieved %s/%s", cfg->dim[cmp->dim].label[cmp->a],
			   cfg->dim[cmp->dim].label[cmp->b]);
	for (size_t i = 0; i < ng; i++)
		sweep_table_cell(t, "%s", sweep_dim_heading(g[i]));
	if (row != DIM_WORK)
		sweep_table_right(t, 0);
	if (cfg->kind == KIND_OVERHEAD)
		sweep_table_right(t, 1);
}

/* One %ovhd table of comparison k over the metrics show[]. */
static void comparison_table(FILE *f, const struct sweep_config *cfg,
			     const struct sweep_plan *plan, const struct analysis *a,
			     size_t k, const enum sweep_metric *show, size_t ns,
			     const char *note)
{
	const struct comparison *cmp = &a->cmp[k];
	enum sweep_dim g[DIM_COUNT];
	enum sweep_metric mets[8];
	size_t ng = sweep_dim_groups(cfg, cmp->dim, g);
	size_t nm = sweep_analyze_compared_metrics(cfg->kind, mets, 8);
	size_t first = 1 + (cfg->kind == KIND_OVERHEAD) + ng;
	struct sweep_table *t = sweep_table_new(first + ns);

	if (!t)
		return;
	fprintf(f, "\n%s%s (higher is worse)\n\n", cmp->title, note);
	head_cells(t, cfg, cmp, g, ng);
	for (size_t j = 0; j < ns; j++) {
		sweep_table_cell(t, "%s", sweep_metrics[show[j]].label);
		sweep_table_right(t, first + j);
	}
	for (size_t i = 0; i < a->n_figs; i += nm) {
		const struct figure *fg = &a->figs[i];

		if (fg->comparison != k)
			continue;
		sweep_table_row(t);
		row_head(t, cfg, a, fg, &plan->cells[fg->cell_a], g, ng);
		for (size_t j = 0; j < ns; j++)
			fig_cell(t, fig_of(a, i, nm, show[j]));
	}
	sweep_table_print(t, f, "  ");
	sweep_table_free(t);
}

/* The loss table's columns: the row dimension, the achieved rate
 * (overhead), the group dimensions g[0..ng), then seven numbers. */
static void loss_heading(struct sweep_table *t, const struct sweep_config *cfg,
			 enum sweep_dim row, const enum sweep_dim *g, size_t ng)
{
	size_t first_num = 1 + (cfg->kind == KIND_OVERHEAD) + ng;

	sweep_table_row(t);
	sweep_table_cell(t, "%s", row == DIM_RATE ? "Exit rate" : sweep_dim_heading(row));
	if (cfg->kind == KIND_OVERHEAD)
		sweep_table_cell(t, "Achieved");
	for (size_t i = 0; i < ng; i++)
		sweep_table_cell(t, "%s", sweep_dim_heading(g[i]));
	sweep_table_cell(t, "Runs");
	sweep_table_cell(t, "Expected");
	sweep_table_cell(t, "Received");
	sweep_table_cell(t, "Lost");
	sweep_table_cell(t, "Worst run");
	sweep_table_cell(t, "Dropped");
	sweep_table_cell(t, "ENOBUFS");
	for (size_t i = 0; i < first_num + 7; i++)
		if ((i == 0 && row != DIM_WORK) || (cfg->kind == KIND_OVERHEAD && i == 1) ||
		    i >= first_num)
			sweep_table_right(t, i);
}

static void loss_row(struct sweep_table *t, const struct sweep_config *cfg,
		     const struct sweep_cell *c, const struct cell_stats *s,
		     enum sweep_dim row, const enum sweep_dim *g, size_t ng)
{
	char b1[32];

	sweep_table_row(t);
	sweep_table_cell(t, "%s", cell_label(cfg, c, row));
	if (cfg->kind == KIND_OVERHEAD)
		sweep_table_cell(t, "%s", sweep_fmt_sig(b1, sizeof(b1), s->m[M_ACHIEVED].mean, 4));
	for (size_t d = 0; d < ng; d++)
		sweep_table_cell(t, "%s", cell_label(cfg, c, g[d]));
	sweep_table_cell(t, "%zu", s->runs);
	sweep_table_cell(t, "%.0f", s->m[M_EXITS].sum);
	sweep_table_cell(t, "%.0f", s->m[M_RECORDS].sum);
	sweep_table_cell(t, "%.0f", s->m[M_LOST].sum);
	sweep_table_cell(t, "%s", sweep_fmt_sig(b1, sizeof(b1), s->m[M_LOST].max, 1));
	sweep_table_cell(t, "%.0f", s->m[M_DROPPED].sum);
	sweep_table_cell(t, "%.0f", s->m[M_ENOBUFS].sum);
}

static void loss_table(FILE *f, const struct sweep_config *cfg,
		       const struct sweep_plan *plan, const struct analysis *a)
{
	enum sweep_dim row = sweep_kind_row_dim(cfg->kind), g[DIM_COUNT];
	size_t ng = 0;
	struct sweep_table *t;

	if (!sweep_plan_dim_has_other(cfg, DIM_LISTENER, LISTEN_NONE))
		return;
	for (int d = 0; d < DIM_COUNT; d++)
		if (d != (int)row && (d == DIM_LISTENER ||
				      sweep_dim_varies(cfg, (enum sweep_dim)d)))
			g[ng++] = (enum sweep_dim)d;
	t = sweep_table_new(1 + (cfg->kind == KIND_OVERHEAD) + ng + 7);
	if (!t)
		return;
	fprintf(f, "\nLoss: records received for each run's tag against exits "
		"(dropped, ENOBUFS: whole socket)\n\n");
	loss_heading(t, cfg, row, g, ng);
	for (size_t oi = 0; oi < plan->n_cells; oi++) {
		size_t ci = a->order[oi];
		const struct sweep_cell *c = &plan->cells[ci];

		if (cell_val(cfg, c, DIM_LISTENER) != LISTEN_NONE)
			loss_row(t, cfg, c, &a->cells[ci], row, g, ng);
	}
	sweep_table_print(t, f, "  ");
	sweep_table_free(t);
}

/* The group pattern most runs of a cell showed, "2+2+2 (3 of 3)". */
static void common_groups(const struct sweep_plan *plan, size_t c, char *buf,
			  size_t len)
{
	size_t best = 0, total = 0;
	const char *pick = NULL;

	for (size_t i = 0; i < plan->n_runs; i++) {
		const struct sweep_run *r = &plan->runs[i];
		size_t same = 0;

		if (r->cell != c || !r->done || !r->groups[0])
			continue;
		total++;
		for (size_t j = 0; j < plan->n_runs; j++)
			same += plan->runs[j].cell == c && plan->runs[j].done &&
				!strcmp(plan->runs[j].groups, r->groups);
		if (same > best) {
			best = same;
			pick = r->groups;
		}
	}
	if (pick)
		snprintf(buf, len, "%s (%zu of %zu)", pick, best, total);
	else
		snprintf(buf, len, "-");
}

/* The per-cell metrics of a kind's means table, in order. */
static const enum sweep_metric *cell_metrics(enum sweep_kind k, size_t *n)
{
	static const enum sweep_metric overhead[] = { M_ACHIEVED, M_USER, M_SYS,
		M_ELAPSED, M_MON_USER, M_MON_SYS };
	static const enum sweep_metric reap[] = { M_FORK_REAP_P50,
		M_FORK_REAP_P99, M_KILL_REAP, M_KILL_BG, M_SYS, M_ELAPSED };
	static const enum sweep_metric cohort[] = { M_FIRST, M_LAST, M_SPREAD,
		M_CPU_DELAY_MEAN, M_CPU_DELAY_MAX, M_BLKIO_DELAY_MEAN,
		M_RUN_REAL_MEAN, M_EXCLUDED, M_IMPLAUSIBLE };

	if (k == KIND_REAP) {
		*n = sizeof(reap) / sizeof(reap[0]);
		return reap;
	}
	if (k == KIND_COHORT) {
		*n = sizeof(cohort) / sizeof(cohort[0]);
		return cohort;
	}
	*n = sizeof(overhead) / sizeof(overhead[0]);
	return overhead;
}

/* Counts are summed over the runs; the rest are means with intervals. */
static void metric_heading(struct sweep_table *t, const struct metric_desc *md)
{
	if (md->summed)
		sweep_table_cell(t, "%s (all runs)", md->label);
	else if (md->unit[0] && strcmp(md->unit, "1/s"))
		sweep_table_cell(t, "%s %s", md->label, md->unit);
	else
		sweep_table_cell(t, "%s", md->label);
}

static void metric_value(struct sweep_table *t, const struct metric_desc *md,
			 const struct metric_stats *ms)
{
	char b1[32], b2[32];

	if (md->summed)
		sweep_table_cell(t, "%s", ms->n ? sweep_fmt_sig(b1, sizeof(b1), ms->sum, 1) : "-");
	else if (ms->has_ci)
		sweep_table_cell(t, "%s ±%s", sweep_fmt_sig(b1, sizeof(b1), ms->mean, 4),
				 sweep_fmt_sig(b2, sizeof(b2), ms->ci.half, 2));
	else
		sweep_table_cell(t, "%s", sweep_fmt_sig(b1, sizeof(b1), ms->mean, 4));
}

static void cell_table(FILE *f, const struct sweep_config *cfg,
		       const struct sweep_plan *plan, const struct analysis *a)
{
	size_t nm;
	const enum sweep_metric *mets = cell_metrics(cfg->kind, &nm);
	enum sweep_dim row = sweep_kind_row_dim(cfg->kind), g[DIM_COUNT];
	size_t ng = sweep_dim_groups(cfg, DIM_COUNT, g);
	bool groups = cfg->kind == KIND_COHORT;
	struct sweep_table *t = sweep_table_new(1 + ng + 1 + nm + groups);
	char b1[32];

	if (!t)
		return;
	fprintf(f, "\nMeans per cell (± half width of the 95%% interval of the mean)%s\n\n",
		cfg->kind == KIND_OVERHEAD ? ", user/sys tick-sampled" :
		cfg->kind == KIND_COHORT ? ";\ndelays leave out the Excluded records "
		"(waited longer than they lived; Implausible: exitmon's\ncount over "
		"the whole socket)" : "");
	sweep_table_row(t);
	sweep_table_cell(t, "%s", row == DIM_RATE ? "Exit rate" : sweep_dim_heading(row));
	for (size_t i = 0; i < ng; i++)
		sweep_table_cell(t, "%s", sweep_dim_heading(g[i]));
	sweep_table_cell(t, "Runs");
	for (size_t j = 0; j < nm; j++)
		metric_heading(t, &sweep_metrics[mets[j]]);
	if (groups)
		sweep_table_cell(t, "Groups (runs)");
	if (row != DIM_WORK)
		sweep_table_right(t, 0);
	for (size_t i = 1 + ng; i < 1 + ng + 1 + nm; i++)
		sweep_table_right(t, i);
	for (size_t oi = 0; oi < plan->n_cells; oi++) {
		size_t ci = a->order[oi];
		const struct sweep_cell *c = &plan->cells[ci];

		sweep_table_row(t);
		sweep_table_cell(t, "%s", cell_label(cfg, c, row));
		for (size_t d = 0; d < ng; d++)
			sweep_table_cell(t, "%s", cell_label(cfg, c, g[d]));
		sweep_table_cell(t, "%zu", a->cells[ci].runs);
		for (size_t j = 0; j < nm; j++)
			metric_value(t, &sweep_metrics[mets[j]], &a->cells[ci].m[mets[j]]);
		if (groups) {
			common_groups(plan, ci, b1, sizeof(b1));
			sweep_table_cell(t, "%s", b1);
		}
	}
	sweep_table_print(t, f, "  ");
	sweep_table_free(t);
}

/* The tick-sampled 2006 tables of an overhead sweep, after the costs. */
static void tick_tables(FILE *f, const struct sweep_config *cfg,
			const struct sweep_plan *plan, const struct analysis *a)
{
	static const enum sweep_metric t06[] = { M_USER, M_SYS, M_ELAPSED };
	char note[160];
	bool few = false;

	fprintf(f, "\n=== The 2006 table: getrusage user/sys, TICK-SAMPLED "
		"(secondary) ===\n\nUser and sys are split by sampling at the "
		"kernel tick, HZ=%ld (%s),\nnot at USER_HZ=100 (the unit of "
		"/proc/stat and times()): a task shorter than a tick is\ncharged "
		"as user whatever it did.  Only their sum is exact: see the "
		"tables above.\n", a->hz, a->hz_how);
	for (size_t i = 0; i < a->n_figs; i++)
		few |= a->figs[i].few_ticks && !a->figs[i].excluded;
	for (size_t k = 0; k < a->n_cmp; k++) {
		snprintf(note, sizeof(note), ", tick-sampled user/sys");
		comparison_table(f, cfg, plan, a, k, t06, 3, note);
	}
	if (a->n_cmp)
		fprintf(f, "\n%s\n", REPORT_LEGEND);
	if (few)
		fprintf(f, "! = the kernel tick (HZ=%ld) does not resolve this "
			"user/sys difference: a cell's tasks are\nreaped children "
			"that held less than one tick each (a child without a tick "
			"is charged all\nas user), or its runs held fewer than %d "
			"ticks, or the difference is within twice the\nsampling "
			"error of the ticks.  Do not read it.\n", a->hz, SWEEP_MIN_TICKS);
}

void sweep_report_print(FILE *f, const struct sweep_config *cfg,
		  const struct sweep_plan *plan, const struct analysis *a,
		  const struct sweep_machine *m, double wall_s, bool interrupted)
{
	enum sweep_metric mets[8];
	size_t nm = sweep_analyze_compared_metrics(cfg->kind, mets, 8);

	header(f, cfg, plan, m, wall_s, interrupted);
	if (cfg->kind == KIND_OVERHEAD) {
		sweep_costs_print(f, cfg, plan, a);
		tick_tables(f, cfg, plan, a);
	} else {
		for (size_t k = 0; k < a->n_cmp; k++)
			comparison_table(f, cfg, plan, a, k, mets, nm, "");
		if (a->n_cmp)
			fprintf(f, "\n%s\n", REPORT_LEGEND);
	}
	loss_table(f, cfg, plan, a);
	cell_table(f, cfg, plan, a);
	fflush(f);
}
