// SPDX-License-Identifier: GPL-2.0-or-later
/* Per-cell statistics and comparisons. */
#include "sweep_analyze.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep_cpu.h"
#include "sweep_dim.h"
#include "sweep_metrics.h"
#include "sweep_plan.h"

/* The values of metric m over the completed runs of cell c (NaNs left
 * out), into a malloc'd array.  Returns the count (0 with *out NULL). */
static size_t cell_values(const struct sweep_plan *plan, size_t c,
			  enum sweep_metric m, double **out)
{
	size_t n = 0;
	double *v;

	*out = NULL;
	v = malloc((plan->n_runs ? plan->n_runs : 1) * sizeof(*v));
	if (!v)
		return 0;
	for (size_t i = 0; i < plan->n_runs; i++) {
		const struct sweep_run *r = &plan->runs[i];

		if (r->cell == c && r->done && !isnan(r->v[m]))
			v[n++] = r->v[m];
	}
	if (n == 0) {
		free(v);
		return 0;
	}
	*out = v;
	return n;
}

static void metric_stats(const double *x, size_t n, struct metric_stats *s)
{
	memset(s, 0, sizeof(*s));
	s->mean = s->sd = s->max = NAN;
	s->n = n;
	if (n == 0)
		return;
	s->mean = stats_mean(x, n);
	s->sd = stats_sd(x, n);		/* NAN for n == 1 */
	s->max = x[0];
	for (size_t i = 0; i < n; i++) {
		s->sum += x[i];
		s->max = fmax(s->max, x[i]);
	}
	s->has_ci = stats_ci95_mean(x, n, &s->ci) == 0;
}

size_t sweep_analyze_compared_metrics(enum sweep_kind k, enum sweep_metric *out,
				size_t max)
{
	/* overhead: the exact and in-kernel figures first (the main table),
	 * then the tick-sampled 2006 ones */
	static const enum sweep_metric overhead[] = { M_TS_NS_PER_EXIT,
		M_CPU_US_PER_EXIT, M_MACHINE_CPU_US_PER_EXIT, M_USER, M_SYS, M_ELAPSED };
	static const enum sweep_metric reap[] = { M_FORK_REAP_P50, M_KILL_REAP,
						  M_KILL_BG };
	static const enum sweep_metric cohort[] = { M_SPREAD, M_LAST, M_SYS };
	const enum sweep_metric *t = k == KIND_REAP ? reap :
				     k == KIND_COHORT ? cohort : overhead;
	size_t n = k == KIND_OVERHEAD ? 6 : 3;

	for (size_t i = 0; i < n && i < max; i++)
		out[i] = t[i];
	return n < max ? n : max;
}

static int find_val(const struct sweep_dimvals *dv, int64_t v)
{
	for (size_t i = 0; i < dv->n; i++)
		if (dv->val[i] == v)
			return (int)i;
	return -1;
}

static void add_cmp(struct analysis *a, enum sweep_dim d, int ia, int ib,
		    const char *section, const char *title)
{
	struct comparison *c = &a->cmp[a->n_cmp++];

	c->dim = d;
	c->a = ia;
	c->b = ib;
	snprintf(c->section, sizeof(c->section), "%s", section);
	snprintf(c->title, sizeof(c->title), "%s", title);
}

static void plan_comparisons(const struct sweep_config *cfg, struct analysis *a)
{
	const struct sweep_dimvals *dv;
	char sec[64], title[128];
	int on, off, none;

	if (sweep_kind_has_dim(cfg->kind, DIM_TGID)) {
		dv = &cfg->dim[DIM_TGID];
		on = find_val(dv, 1);
		off = find_val(dv, 0);
		if (on >= 0 && off >= 0)
			add_cmp(a, DIM_TGID, on, off, "tgid",
				"%ovhd of tgid on over off, thread vs process exits");
	}
	dv = &cfg->dim[DIM_LISTENER];
	none = find_val(dv, LISTEN_NONE);
	for (size_t i = 0; none >= 0 && i < dv->n; i++) {
		if ((int)i == none)
			continue;
		snprintf(sec, sizeof(sec), "listener:%s", dv->label[i]);
		snprintf(title, sizeof(title), "%%ovhd of listener %s over no listener",
			 dv->label[i]);
		add_cmp(a, DIM_LISTENER, (int)i, none, sec, title);
	}
	dv = &cfg->dim[DIM_DACCT];
	on = find_val(dv, DACCT_ON);
	off = find_val(dv, DACCT_OFF);
	if (on >= 0 && off >= 0)
		add_cmp(a, DIM_DACCT, on, off, "delayacct",
			"%ovhd of delay accounting on over off");
	if (sweep_kind_has_dim(cfg->kind, DIM_MMAP)) {
		dv = &cfg->dim[DIM_MMAP];
		none = find_val(dv, 0);
		for (size_t i = 0; none >= 0 && i < dv->n; i++) {
			if ((int)i == none)
				continue;
			snprintf(sec, sizeof(sec), "mmap:%s", dv->label[i]);
			snprintf(title, sizeof(title),
				 "%%ovhd of a %s shared mmap over none", dv->label[i]);
			add_cmp(a, DIM_MMAP, (int)i, none, sec, title);
		}
	}
}

bool sweep_analyze_constant(const double *x, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (x[i] != x[0])
			return false;
	return true;
}

/* Standard error, in seconds, of a cell's mean from tick sampling alone. */
static double tick_se(long hz, double t, double p, size_t n)
{
	double ticks = t * (double)hz;

	p = fmin(1, fmax(0, p));
	return sqrt(ticks * p * (1 - p)) / (double)hz / (double)n;
}

bool sweep_analyze_few_ticks(long hz, double ta, double pa, double ma, size_t na,
			     double tb, double pb, double mb, size_t nb)
{
	double se;

	if (hz <= 0 || na == 0 || nb == 0 || isnan(ta) || isnan(tb))
		return true;
	if (ta * (double)hz < SWEEP_MIN_TICKS || tb * (double)hz < SWEEP_MIN_TICKS)
		return true;
	se = hypot(tick_se(hz, ta, pa, na), tick_se(hz, tb, pb, nb));
	return fabs(ma - mb) < 2 * se;
}

bool sweep_analyze_child_ticks_short(long hz, double cpu_s_per_exit)
{
	return !(cpu_s_per_exit * (double)hz >= 1);
}

/* Are the cell's exiting tasks reaped children (process exits, fork and
 * cohort children) that held less than one tick each? */
static bool children_unresolved(const struct sweep_config *cfg,
				const struct sweep_plan *plan, size_t c,
				const struct cell_stats *s, long hz)
{
	double exits = s->m[M_EXITS].mean;

	if (cfg->kind == KIND_OVERHEAD && cell_val(cfg, &plan->cells[c], DIM_TGID))
		return false;	/* threads: the group's ticks split the sum */
	if (!(exits > 0))
		return false;
	return sweep_analyze_child_ticks_short(hz, sweep_metrics_seconds(M_USER,
					       s->m[M_USER].mean + s->m[M_SYS].mean) / exits);
}

/* user+sys seconds summed over a cell's runs, and m's share of it (on
 * the instruction clock too: the tick divides the guest's seconds) */
static void cell_ticks(const struct cell_stats *s, enum sweep_metric m,
		       double *total, double *share)
{
	double u = s->m[M_USER].sum, y = s->m[M_SYS].sum;

	*total = sweep_metrics_seconds(M_USER, u + y);
	*share = u + y > 0 ? s->m[m].sum / (u + y) : 0;
}

static void figure(const struct sweep_config *cfg, const struct sweep_plan *plan,
		   struct analysis *a,
		   struct figure *f, size_t k, size_t ca, size_t cb,
		   enum sweep_metric m)
{
	const struct cell_stats *sa = &a->cells[ca], *sb = &a->cells[cb];
	struct stats_welch w;
	double *xa, *xb, ta, pa, tb, pb;
	size_t na = cell_values(plan, ca, m, &xa);
	size_t nb = cell_values(plan, cb, m, &xb);

	f->comparison = k;
	f->cell_a = ca;
	f->cell_b = cb;
	f->metric = m;
	f->excluded = sa->tainted || sb->tainted;
	f->ok = !f->excluded && stats_overhead_pct(xa, na, xb, nb, &f->ci) == 0;
	f->diff_ok = !f->excluded && stats_welch(xa, na, xb, nb, &w) == 0;
	if (f->diff_ok)
		f->diff = w.ci;
	/* runs all equal are no evidence of a time (a tick that never fell),
	 * but are the evidence of an exact count: repeats that agree */
	f->significant = f->ok && stats_significant(&f->ci) &&
			 (sweep_metrics_exact(m) ||
			  (!sweep_analyze_constant(xa, na) && !sweep_analyze_constant(xb, nb)));
	if (m == M_USER || m == M_SYS) {
		cell_ticks(sa, m, &ta, &pa);
		cell_ticks(sb, m, &tb, &pb);
		f->few_ticks = sweep_analyze_few_ticks(a->hz, ta, pa,
					sweep_metrics_seconds(m, sa->m[m].mean), na, tb, pb,
					sweep_metrics_seconds(m, sb->m[m].mean), nb) ||
			       children_unresolved(cfg, plan, ca, sa, a->hz) ||
			       children_unresolved(cfg, plan, cb, sb, a->hz);
	}
	free(xa);
	free(xb);
}

/* A cell whose exits met another program's listener: any run with a
 * foreign exit (the probe reads the listeners per exit, in the kernel).
 * Without a listener of ours it is no "no listener" cell; with one, each
 * such exit also paid for the other listener's reply, so its per-exit
 * cost is inflated. */
static bool tainted(const struct cell_stats *s)
{
	return s->m[M_FOREIGN_EXITS].n > 0 && s->m[M_FOREIGN_EXITS].sum > 0;
}

/* Report order: the other varying dimensions (in enum order) group the
 * rows; the kind's row dimension runs fastest. */
static const struct sweep_config *sort_cfg;
static const struct sweep_plan *sort_plan;

static int cmp_cells(const void *pa, const void *pb)
{
	const struct sweep_cell *a = &sort_plan->cells[*(const size_t *)pa];
	const struct sweep_cell *b = &sort_plan->cells[*(const size_t *)pb];
	enum sweep_dim row = sweep_kind_row_dim(sort_cfg->kind);

	for (int d = 0; d < DIM_COUNT; d++) {
		if (d == (int)row)
			continue;
		if (a->v[d] != b->v[d])
			return a->v[d] - b->v[d];
	}
	return a->v[row] - b->v[row];
}

/* Each cell's statistics, and the cells in table order. */
static void analyze_cells(const struct sweep_config *cfg,
			  const struct sweep_plan *plan, struct analysis *a)
{
	for (size_t c = 0; c < plan->n_cells; c++) {
		a->order[c] = c;
		for (size_t i = 0; i < plan->n_runs; i++)
			a->cells[c].runs += plan->runs[i].cell == c && plan->runs[i].done;
		for (int m = 0; m < M_COUNT; m++) {
			double *x;
			size_t n = cell_values(plan, c, (enum sweep_metric)m, &x);

			metric_stats(x, n, &a->cells[c].m[m]);
			free(x);
		}
		a->cells[c].tainted = tainted(&a->cells[c]);
	}
	sort_cfg = cfg;
	sort_plan = plan;
	qsort(a->order, plan->n_cells, sizeof(*a->order), cmp_cells);
}

/* The figures of comparison k: for each cell on its a side and each
 * compared metric, against the cell on its b side. */
static void compare_cells(const struct sweep_config *cfg, const struct sweep_plan *plan,
			  struct analysis *a, size_t k, const enum sweep_metric *mets,
			  size_t nm)
{
	const struct comparison *cmp = &a->cmp[k];

	for (size_t oi = 0; oi < plan->n_cells; oi++) {
		size_t ca = a->order[oi];
		long cb;

		if (plan->cells[ca].v[cmp->dim] != cmp->a)
			continue;
		cb = sweep_plan_find_cell(plan, &plan->cells[ca], cmp->dim, cmp->b);
		if (cb < 0)
			continue;
		for (size_t j = 0; j < nm; j++)
			figure(cfg, plan, a, &a->figs[a->n_figs++], k, ca, (size_t)cb,
			       mets[j]);
	}
}

int sweep_analyze(const struct sweep_config *cfg, const struct sweep_plan *plan,
	    struct analysis *a)
{
	enum sweep_metric mets[8];
	size_t nm = sweep_analyze_compared_metrics(cfg->kind, mets, 8), cap;

	memset(a, 0, sizeof(*a));
	a->cells = calloc(plan->n_cells, sizeof(*a->cells));
	a->order = calloc(plan->n_cells, sizeof(*a->order));
	if (!a->cells || !a->order)
		goto nomem;
	analyze_cells(cfg, plan, a);
	a->hz = sweep_cpu_kernel_hz(a->hz_how, sizeof(a->hz_how));
	plan_comparisons(cfg, a);
	cap = a->n_cmp * plan->n_cells * nm;
	a->figs = calloc(cap ? cap : 1, sizeof(*a->figs));
	if (!a->figs)
		goto nomem;
	for (size_t k = 0; k < a->n_cmp; k++)
		compare_cells(cfg, plan, a, k, mets, nm);
	return 0;
nomem:
	sweep_analyze_free(a);
	return -ENOMEM;
}

void sweep_analyze_free(struct analysis *a)
{
	free(a->cells);
	free(a->figs);
	free(a->order);
	memset(a, 0, sizeof(*a));
}

void sweep_analyze_cell_describe(const struct sweep_config *cfg,
				 const struct sweep_cell *c,
				 unsigned dims, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int d = 0; d < DIM_COUNT && used < len; d++) {
		int w;

		if (!(dims & (1u << d)))
			continue;
		w = snprintf(buf + used, len - used, "%s%s=%s", used ? " " : "",
			     sweep_dim_name((enum sweep_dim)d),
			     cell_label(cfg, c, (enum sweep_dim)d));
		if (w < 0)
			return;
		used += (size_t)w;
	}
}

void sweep_analyze_cell_key(const struct sweep_config *cfg, const struct sweep_cell *c,
		      enum sweep_dim skip, char *buf, size_t len)
{
	unsigned dims = 0;

	for (int d = 0; d < DIM_COUNT; d++)
		if (d != (int)skip && sweep_kind_has_dim(cfg->kind, (enum sweep_dim)d))
			dims |= 1u << d;
	sweep_analyze_cell_describe(cfg, c, dims, buf, len);
}
