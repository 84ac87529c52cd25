/* gnuplot output. */
#include "sweep_plot.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sweep_proc.h"

int sweep_plot_find_gnuplot(char *buf, size_t len)
{
	const char *env = getenv("PATH");
	char *path, *save = NULL;

	if (!env || !(path = strdup(env)))
		return -ENOENT;
	for (char *d = strtok_r(path, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		if ((size_t)snprintf(buf, len, "%s/gnuplot", *d ? d : ".") < len &&
		    access(buf, X_OK) == 0) {
			free(path);
			return 0;
		}
	}
	free(path);
	return -ENOENT;
}

/* A string safe inside gnuplot double quotes. */
static void clean(char *dst, size_t len, const char *src)
{
	size_t i = 0;

	for (; *src && i + 1 < len; src++)
		dst[i++] = (*src == '"' || *src == '\\' || *src == '\n') ? '_' : *src;
	dst[i] = '\0';
}

struct plotter {
	FILE *script;
	const char *dir;
	unsigned nfile;
	unsigned series;	/* in the current panel */
	bool categorical;	/* x is a label (cohort work): xtic(5) */
	char plotcmd[1 << 16];
	size_t used;
	int err;
};

/* Begin a series: a data file; returns it open for "x y lo hi" lines. */
static FILE *series_begin(struct plotter *p, const char *title)
{
	char path[PATH_MAX], t[256];
	FILE *f;
	int w;

	snprintf(path, sizeof(path), "%s/plot%u.dat", p->dir, p->nfile++);
	f = fopen(path, "we");
	if (!f) {
		p->err = -errno;
		return NULL;
	}
	clean(t, sizeof(t), title);
	w = snprintf(p->plotcmd + p->used, sizeof(p->plotcmd) - p->used,
		     "%s\"%s\" using 1:2:3:4%s with yerrorlines pt 7 ps 0.5 title \"%s\"",
		     p->series++ ? ", \\\n     " : "plot ", path,
		     p->categorical ? ":xtic(5)" : "", t);
	if (w > 0 && (size_t)w < sizeof(p->plotcmd) - p->used)
		p->used += (size_t)w;
	return f;
}

static void panel_begin(struct plotter *p, const char *title, const char *xlabel,
			const char *ylabel, bool logx, bool zero_line)
{
	char t[256];

	clean(t, sizeof(t), title);
	fprintf(p->script, "set title \"%s\"\nset xlabel \"%s\"\nset ylabel \"%s\"\n",
		t, xlabel, ylabel);
	fprintf(p->script, "%s\n", logx ? "set logscale x" : "unset logscale x");
	if (zero_line)
		fprintf(p->script, "set xzeroaxis lt -1\n");
	else
		fprintf(p->script, "unset xzeroaxis\n");
	p->series = 0;
	p->used = 0;
	p->plotcmd[0] = '\0';
}

static void panel_end(struct plotter *p)
{
	if (p->series)
		fprintf(p->script, "%s\n", p->plotcmd);
	else
		fprintf(p->script, "set label 1 \"no data\" at graph 0.5, graph 0.5 center\n"
			"plot NaN notitle\nunset label 1\n");
}

/* One data line; label (categorical x) becomes the tick text. */
static void point(FILE *f, double x, double y, double lo, double hi,
		  const char *label)
{
	char l[SWEEP_LABEL];

	if (!f || isnan(x) || isnan(y))
		return;
	if (isnan(lo) || isnan(hi))
		lo = hi = y;
	clean(l, sizeof(l), label ? label : "");
	fprintf(f, "%.9g %.9g %.9g %.9g \"%s\"\n", x, y, lo, hi, l);
}

static const char *x_label(const struct sweep_config *cfg,
			   const struct sweep_plan *plan, size_t c)
{
	return cell_label(cfg, &plan->cells[c], sweep_kind_row_dim(cfg->kind));
}

/* The x of a cell: achieved rate for overhead, the row value otherwise. */
static double cell_x(const struct sweep_config *cfg, const struct sweep_plan *plan,
		     const struct analysis *a, size_t c)
{
	if (cfg->kind == KIND_OVERHEAD)
		return a->cells[c].m[M_ACHIEVED].mean;
	return (double)cell_val(cfg, &plan->cells[c], sweep_kind_row_dim(cfg->kind));
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
		    sweep_analyze_dim_varies(cfg, (enum sweep_dim)d))
			dims |= 1u << d;
	sweep_cell_describe(cfg, c, dims, buf, len);
}

static void comparison_panels(struct plotter *p, const struct sweep_config *cfg,
			      const struct sweep_plan *plan, const struct analysis *a)
{
	const char *xl = cfg->kind == KIND_OVERHEAD ? "achieved exit rate (exits/s)" :
			 cfg->kind == KIND_REAP ? "background children" : "work";

	for (size_t k = 0; k < a->n_cmp; k++) {
		panel_begin(p, a->cmp[k].title, xl, "overhead (%)",
			    cfg->kind == KIND_OVERHEAD, true);
		/* One series per (group, metric): walk the figures, start a
		 * series at each figure whose group has not been drawn. */
		for (size_t i = 0; i < a->n_figs; i++) {
			const struct figure *f = &a->figs[i];
			const struct sweep_cell *ci = &plan->cells[f->cell_a];
			bool drawn = false;
			char g[256], title[320];
			FILE *out;

			if (f->comparison != k)
				continue;
			for (size_t j = 0; j < i && !drawn; j++)
				drawn = a->figs[j].comparison == k &&
					a->figs[j].metric == f->metric &&
					same_group(cfg, &plan->cells[a->figs[j].cell_a], ci,
						   a->cmp[k].dim);
			if (drawn)
				continue;
			group_name(cfg, ci, a->cmp[k].dim, g, sizeof(g));
			snprintf(title, sizeof(title), "%s%s%s",
				 sweep_metrics[f->metric].label, g[0] ? " " : "", g);
			out = series_begin(p, title);
			for (size_t j = i; j < a->n_figs; j++) {
				const struct figure *h = &a->figs[j];
				double x;

				if (h->comparison != k || h->metric != f->metric ||
				    !same_group(cfg, &plan->cells[h->cell_a], ci, a->cmp[k].dim) ||
				    !h->ok)
					continue;
				x = cell_x(cfg, plan, a, h->cell_a);
				if (cfg->kind == KIND_OVERHEAD)
					x = (x + cell_x(cfg, plan, a, h->cell_b)) / 2;
				point(out, x, h->ci.est, h->ci.lo, h->ci.hi,
				      x_label(cfg, plan, h->cell_a));
			}
			if (out)
				fclose(out);
		}
		panel_end(p);
	}
}

/* Series of a per-cell metric against the row dimension, one per group. */
static void metric_series(struct plotter *p, const struct sweep_config *cfg,
			  const struct sweep_plan *plan, const struct analysis *a,
			  enum sweep_metric m, bool listener_only)
{
	for (size_t oi = 0; oi < plan->n_cells; oi++) {
		size_t c = a->order[oi];
		const struct sweep_cell *ci = &plan->cells[c];
		bool drawn = false;
		char g[256], t[320];
		FILE *out;

		if (listener_only && cell_val(cfg, ci, DIM_LISTENER) == LISTEN_NONE)
			continue;
		for (size_t j = 0; j < oi && !drawn; j++)
			drawn = same_group(cfg, &plan->cells[a->order[j]], ci, DIM_COUNT);
		if (drawn)
			continue;
		group_name(cfg, ci, DIM_COUNT, g, sizeof(g));
		if (listener_only && !sweep_analyze_dim_varies(cfg, DIM_LISTENER)) {
			size_t u = strlen(g);

			snprintf(g + u, sizeof(g) - u, "%slistener=%s", u ? " " : "",
				 cell_label(cfg, ci, DIM_LISTENER));
		}
		snprintf(t, sizeof(t), "%s%s%s", sweep_metrics[m].label,
			 g[0] ? " " : "", g);
		out = series_begin(p, t);
		for (size_t oj = oi; oj < plan->n_cells; oj++) {
			size_t d = a->order[oj];
			const struct metric_stats *s = &a->cells[d].m[m];

			if (!same_group(cfg, &plan->cells[d], ci, DIM_COUNT))
				continue;
			point(out, cell_x(cfg, plan, a, d), s->mean,
			      s->has_ci ? s->ci.lo : NAN, s->has_ci ? s->ci.hi : NAN,
			      x_label(cfg, plan, d));
		}
		if (out)
			fclose(out);
	}
}

static void metric_panel(struct plotter *p, const struct sweep_config *cfg,
			 const struct sweep_plan *plan, const struct analysis *a,
			 enum sweep_metric m, const char *title, const char *xl,
			 const char *yl, bool listener_only, bool logx)
{
	panel_begin(p, title, xl, yl, logx, false);
	metric_series(p, cfg, plan, a, m, listener_only);
	panel_end(p);
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
static void cohort_panel(struct plotter *p, const struct sweep_config *cfg,
			 const struct sweep_plan *plan, const struct analysis *a)
{
	panel_begin(p, r0_times_title(plan), "worker, in exit order", "seconds",
		    false, false);
	for (size_t oi = 0; oi < plan->n_cells; oi++) {
		size_t c = a->order[oi];
		char t[320], key[200];

		for (size_t i = 0; i < plan->n_runs; i++) {
			const struct sweep_run *r = &plan->runs[i];
			FILE *out;

			if (r->cell != c || !r->done || !r->exit_times)
				continue;
			sweep_analyze_cell_key(cfg, &plan->cells[c], DIM_COUNT, key, sizeof(key));
			snprintf(t, sizeof(t), "%s (%s)", key, r->groups);
			out = series_begin(p, t);
			for (size_t j = 0; out && j < r->n_exit_times; j++)
				point(out, (double)(j + 1), r->exit_times[j], NAN, NAN, NULL);
			if (out)
				fclose(out);
			break;
		}
	}
	panel_end(p);
}

static unsigned count_panels(const struct sweep_config *cfg, const struct analysis *a,
			     bool loss)
{
	switch (cfg->kind) {
	case KIND_OVERHEAD: return (unsigned)a->n_cmp + (loss ? 1 : 0);
	case KIND_REAP: return 3 + (unsigned)a->n_cmp;
	default: return 2 + (unsigned)a->n_cmp;
	}
}

int sweep_plot_write(const char *svg, const struct sweep_config *cfg,
	       const struct sweep_plan *plan, const struct analysis *a,
	       const char *dir, char *err, size_t errlen)
{
	static struct plotter p;
	char gp[PATH_MAX], script[PATH_MAX], errfile[PATH_MAX], svgq[PATH_MAX];
	bool loss = false;
	unsigned panels;
	int r, status;
	pid_t pid;

	for (size_t i = 0; i < cfg->dim[DIM_LISTENER].n; i++)
		loss |= cfg->dim[DIM_LISTENER].val[i] != LISTEN_NONE;
	if (sweep_plot_find_gnuplot(gp, sizeof(gp)) < 0) {
		snprintf(err, errlen, "%s", PLOT_MISSING_MSG);
		return -ENOENT;
	}
	memset(&p, 0, sizeof(p));
	p.dir = dir;
	snprintf(script, sizeof(script), "%s/plot.gp", dir);
	snprintf(errfile, sizeof(errfile), "%s/gnuplot.err", dir);
	p.script = fopen(script, "we");
	if (!p.script) {
		r = -errno;
		snprintf(err, errlen, "cannot write %s: %s", script, strerror(-r));
		return r;
	}
	panels = count_panels(cfg, a, loss);
	if (panels == 0)
		panels = 1;
	clean(svgq, sizeof(svgq), svg);
	fprintf(p.script, "set terminal svg size 960,%u dynamic noenhanced "
		"font 'sans,11' background '#ffffff'\nset output \"%s\"\n"
		"set key outside right top\nset grid\nset bars small\n"
		"set lmargin at screen 0.08\nset rmargin at screen 0.66\n"
		"set multiplot layout %u,1\n", 380 * panels, svgq, panels);
	if (cfg->kind == KIND_OVERHEAD) {
		comparison_panels(&p, cfg, plan, a);
		if (loss) {
			panel_begin(&p, "Records lost and dropped per run (mean; "
				    "dropped counts the whole socket)",
				    "achieved exit rate (exits/s)", "records per run",
				    true, false);
			metric_series(&p, cfg, plan, a, M_LOST, true);
			metric_series(&p, cfg, plan, a, M_DROPPED, true);
			panel_end(&p);
		}
		if (a->n_cmp == 0 && !loss)
			metric_panel(&p, cfg, plan, a, M_SYS, "Sys time per run",
				     "achieved exit rate (exits/s)", "seconds", false, true);
	} else if (cfg->kind == KIND_REAP) {
		metric_panel(&p, cfg, plan, a, M_FORK_REAP_P50,
			     "Time to fork and reap one child (median per run)",
			     "background children", "microseconds", false, false);
		metric_panel(&p, cfg, plan, a, M_KILL_REAP,
			     "Time to kill and reap a batch of children",
			     "background children", "seconds", false, false);
		metric_panel(&p, cfg, plan, a, M_KILL_BG,
			     "Time to kill and reap all background children",
			     "background children", "seconds", false, false);
		comparison_panels(&p, cfg, plan, a);
	} else {
		cohort_panel(&p, cfg, plan, a);
		p.categorical = true;
		metric_panel(&p, cfg, plan, a, M_SPREAD, "Spread of finish times "
			     "(last - first)", "work", "seconds", false, false);
		comparison_panels(&p, cfg, plan, a);
	}
	fprintf(p.script, "unset multiplot\n");
	if (fclose(p.script) != 0 && !p.err)
		p.err = -EIO;
	if (p.err) {
		snprintf(err, errlen, "cannot write plot data in %s: %s", dir, strerror(-p.err));
		return p.err;
	}
	{
		char *argv[] = { gp, script, NULL };

		pid = sweep_proc_spawn(argv, NULL, errfile);
	}
	if (pid < 0) {
		snprintf(err, errlen, "cannot run %s: %s", gp, strerror(-pid));
		return pid;
	}
	r = sweep_proc_wait(pid, &status, NULL, false);
	if (r < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		char last[512], how[96];

		sweep_proc_describe(status, how, sizeof(how));
		sweep_proc_last_line(errfile, last, sizeof(last));
		snprintf(err, errlen, "gnuplot failed (%s)%s%s", how, last[0] ? ": " : "", last);
		return -ECHILD;
	}
	return 0;
}
