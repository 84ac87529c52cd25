/* gnuplot output. */
#include "sweep_plot.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "safeopen.h"
#include "sweep_file.h"
#include "sweep_proc.h"
#include "sweep_table.h"

int sweep_plot_find_gnuplot(char *buf, size_t len)
{
	return sweep_proc_in_path("gnuplot", buf, len);
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
	unsigned series;	/* drawn in the current panel */
	bool categorical;	/* x is a label (cohort work): xtic(5) */
	bool rank;		/* x is a whole number from 1 (cohort rank) */
	bool logx, nonneg;	/* of the current panel */
	bool png;		/* smaller font than the SVG */
	size_t title_max;	/* longest series title of the plot */
	double xmin, xmax;	/* of the points drawn in the current panel */
	FILE *cur;		/* the series being written */
	char cur_path[PATH_MAX], cur_title[256];
	unsigned cur_points;
	char plotcmd[1 << 16];
	size_t used;
	int err;
};

#define PLOT_WIDTH 1200	/* pixels: room for the panels and their keys */

/* Series are told apart by point type and dash pattern, not colour only;
 * the colours are dark enough to read on white. */
#define PLOT_COLOURS \
	"set linetype 1 lc rgb '#1b6ca8'\nset linetype 2 lc rgb '#d1495b'\n" \
	"set linetype 3 lc rgb '#2e8b57'\nset linetype 4 lc rgb '#8e44ad'\n" \
	"set linetype 5 lc rgb '#e67e22'\nset linetype 6 lc rgb '#444444'\n" \
	"set linetype 7 lc rgb '#00a5a5'\nset linetype 8 lc rgb '#b8860b'\n" \
	"set linetype 9 lc rgb '#c71585'\nset linetype 10 lc rgb '#556b2f'\n" \
	"set linetype cycle 10\n"
static const unsigned point_types[] = { 7, 5, 9, 11, 13, 4, 6, 8, 10, 12 };
#define N_STYLES (sizeof(point_types) / sizeof(point_types[0]))

/* Begin a series: a data file for "x y lo hi label" lines. */
static FILE *series_begin(struct plotter *p, const char *title)
{
	snprintf(p->cur_path, sizeof(p->cur_path), "%s/plot%u.dat", p->dir, p->nfile++);
	clean(p->cur_title, sizeof(p->cur_title), title);
	p->cur_points = 0;
	p->cur = fopen(p->cur_path, "we");
	if (!p->cur)
		p->err = -errno;
	return p->cur;
}

/* A series without a point is left out: gnuplot cannot range an empty
 * plot (an interrupted sweep may leave cells without runs). */
static void series_end(struct plotter *p)
{
	unsigned s = p->series;
	int w;

	if (!p->cur)
		return;
	fclose(p->cur);
	p->cur = NULL;
	if (p->cur_points == 0) {
		unlink(p->cur_path);
		return;
	}
	w = snprintf(p->plotcmd + p->used, sizeof(p->plotcmd) - p->used,
		     "%s\"%s\" using 1:2:3:4%s with %s lc %u pt %u dt %u "
		     "ps 0.9 lw 1.3 title \"%s\"", s ? ", \\\n     " : "plot ",
		     p->cur_path, p->categorical ? ":xtic(5)" : "",
		     p->categorical ? "yerrorbars" : "yerrorlines", s + 1,
		     point_types[s % N_STYLES], s / 2 % 5 + 1, p->cur_title);
	if (w > 0 && (size_t)w < sizeof(p->plotcmd) - p->used)
		p->used += (size_t)w;
	p->series++;
	p->title_max = fmax(p->title_max, sweep_table_text_width(p->cur_title));
}

/* One data line; label (categorical x) becomes the tick text. */
static void point(struct plotter *p, double x, double y, double lo, double hi,
		  const char *label)
{
	char l[SWEEP_LABEL];

	if (!p->cur || isnan(x) || isnan(y) || (p->logx && x <= 0))
		return;
	if (isnan(lo) || isnan(hi))
		lo = hi = y;
	clean(l, sizeof(l), label ? label : "");
	fprintf(p->cur, "%.9g %.9g %.9g %.9g \"%s\"\n", x, y, lo, hi, l);
	p->cur_points++;
	p->xmin = fmin(p->xmin, x);
	p->xmax = fmax(p->xmax, x);
}

/* nonneg: the quantity cannot be below 0 (times, counts): the y axis
 * starts at 0.  Otherwise (differences) a zero line is drawn. */
static void panel_begin(struct plotter *p, const char *title, const char *xlabel,
			const char *ylabel, bool logx, bool nonneg)
{
	char t[256];

	clean(t, sizeof(t), title);
	fprintf(p->script, "set title \"%s\"\nset xlabel \"%s\"\nset ylabel \"%s\"\n",
		t, xlabel, ylabel);
	fprintf(p->script, "%s\n%s\n", logx ? "set logscale x" : "unset logscale x",
		nonneg ? "unset xzeroaxis" : "set xzeroaxis lt -1");
	p->logx = logx;
	p->nonneg = nonneg;
	p->xmin = INFINITY;
	p->xmax = -INFINITY;
	p->series = 0;
	p->used = 0;
	p->plotcmd[0] = '\0';
}

/* The keys sit right of the panels, left-aligned: leave them the room the
 * longest title needs (gnuplot reckons about 8 px a character at 9 pt and
 * 9.5 at 11 pt, plus the sample), so no key reaches into the data; one
 * margin for all panels keeps their x axes aligned. */
static double key_room(const struct plotter *p)
{
	double px = (double)p->title_max * (p->png ? 8.0 : 9.5) + 100;

	return fmin(0.8, fmax(0.5, 1 - px / PLOT_WIDTH));
}

/* 1, 2 or 5 times a power of ten, about a fifth of span. */
static double nice_step(double span)
{
	double raw = span / 5, mag;

	if (!(raw > 0))
		return 1;
	mag = pow(10, floor(log10(raw)));
	raw /= mag;
	return (raw < 1.5 ? 1 : raw < 3.5 ? 2 : raw < 7.5 ? 5 : 10) * mag;
}

/* Ticks at 1, 2 and 5 times the powers of ten inside [lo, hi]: a log
 * axis over less than two decades otherwise shows one or two numbers. */
static void log_ticks(FILE *f, double lo, double hi)
{
	static const double mant[] = { 1, 2, 5 };
	const char *sep = "set xtics (";

	if (!(lo > 0) || !(hi > lo))
		return;
	for (double dec = pow(10, floor(log10(lo))); dec <= hi; dec *= 10)
		for (size_t i = 0; i < 3; i++)
			if (dec * mant[i] >= lo && dec * mant[i] <= hi) {
				fprintf(f, "%s%.0f", sep, dec * mant[i]);
				sep = ", ";
			}
	if (*sep == ',')
		fprintf(f, ")\n");
}

/* The x axis fitted to the points with a margin, so no point sits on the
 * frame; ticks never below 0 for counts; whole numbers for ranks. */
static void x_range(struct plotter *p)
{
	double lo = p->xmin, hi = p->xmax, pad, step;

	fprintf(p->script, "set xtics autofreq\nset format x \"%% h\"\n");
	if (p->logx) {
		fprintf(p->script, "set xrange [%.9g:%.9g]\n", lo / 1.3, hi * 1.3);
		log_ticks(p->script, lo / 1.3, hi * 1.3);
		return;
	}
	if (p->categorical || p->rank)
		pad = 0.5;
	else
		pad = hi > lo ? (hi - lo) * 0.08 : fmax(1, fabs(hi) * 0.25);
	fprintf(p->script, "set xrange [%.9g:%.9g]\n", lo - pad, hi + pad);
	if (p->categorical)
		return;
	step = nice_step(hi + pad - fmax(0, lo - pad));
	if (p->rank)
		step = fmax(1, round(step));
	if (lo >= 0)
		fprintf(p->script, "set xtics %.9g, %.9g\n",
			fmax(0, floor((lo - pad) / step + 1) * step), step);
	if (p->rank)
		fprintf(p->script, "set format x \"%%.0f\"\n");
}

static void panel_end(struct plotter *p)
{
	if (!p->series) {
		fprintf(p->script, "unset logscale x\nset xrange [0:1]\nset yrange [0:1]\n"
			"unset xtics\nset label 1 \"nothing to draw: no runs, "
			"or all excluded\" at graph 0.5, graph 0.5 center\n"
			"plot NaN notitle\nunset label 1\n");
		return;
	}
	x_range(p);
	if (p->nonneg)
		fprintf(p->script, "set yrange [0:*]\nset offsets 0, 0, graph 0.12, 0\n");
	else
		fprintf(p->script, "set yrange [*:*]\nset offsets 0, 0, graph 0.1, graph 0.1\n");
	fprintf(p->script, "%s\n", p->plotcmd);
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
		    sweep_analyze_dim_varies(cfg, (enum sweep_dim)d))
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
static void fig_series(struct plotter *p, const struct sweep_config *cfg,
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
		point(p, x, ci->est, ci->lo, ci->hi, x_label(cfg, plan, h->cell_a));
	}
}

static const char *x_title(const struct sweep_config *cfg)
{
	return cfg->kind == KIND_OVERHEAD ? "achieved exit rate (exits/s)" :
	       cfg->kind == KIND_REAP ? "background children" : "work";
}

/* One panel of comparison k: one series per (group, metric), metric only
 * (M_COUNT: all of the kind's); diff plots differences, not percent. */
static void comparison_panel(struct plotter *p, const struct sweep_config *cfg,
			     const struct sweep_plan *plan, const struct analysis *a,
			     size_t k, enum sweep_metric only, bool diff,
			     const char *title, const char *ylabel)
{
	panel_begin(p, title, x_title(cfg), ylabel, cfg->kind == KIND_OVERHEAD, false);
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
		if (series_begin(p, t))
			fig_series(p, cfg, plan, a, i, diff);
		series_end(p);
	}
	panel_end(p);
}

static void comparison_panels(struct plotter *p, const struct sweep_config *cfg,
			      const struct sweep_plan *plan, const struct analysis *a)
{
	for (size_t k = 0; k < a->n_cmp; k++)
		comparison_panel(p, cfg, plan, a, k, M_COUNT, false, a->cmp[k].title,
				 "overhead (%)");
}

/* Series of a per-cell metric against the row dimension, one per group. */
static void metric_series(struct plotter *p, const struct sweep_config *cfg,
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
		if (!series_begin(p, t))
			continue;
		for (size_t oj = oi; oj < plan->n_cells; oj++) {
			size_t d = a->order[oj];
			const struct metric_stats *s = &a->cells[d].m[m];

			if (same_group(cfg, &plan->cells[d], ci, DIM_COUNT))
				point(p, cell_x(cfg, plan, a, d), s->mean,
				      s->has_ci ? s->ci.lo : NAN, s->has_ci ? s->ci.hi : NAN,
				      x_label(cfg, plan, d));
		}
		series_end(p);
	}
}

static void metric_panel(struct plotter *p, const struct sweep_config *cfg,
			 const struct sweep_plan *plan, const struct analysis *a,
			 enum sweep_metric m, const char *title, const char *yl,
			 bool listener_only)
{
	panel_begin(p, title, x_title(cfg), yl, cfg->kind == KIND_OVERHEAD, true);
	metric_series(p, cfg, plan, a, m, listener_only, false);
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
	p->rank = true;
	panel_begin(p, r0_times_title(plan), "worker, in exit order", "seconds",
		    false, true);
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
			if (series_begin(p, t))
				for (size_t j = 0; j < r->n_exit_times; j++)
					point(p, (double)(j + 1), r->exit_times[j], NAN, NAN, NULL);
			series_end(p);
			break;
		}
	}
	panel_end(p);
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
static void overhead_panels(struct plotter *p, const struct sweep_config *cfg,
			    const struct sweep_plan *plan, const struct analysis *a,
			    bool loss)
{
	bool probe = any_probe(plan, a);
	enum sweep_metric cost = probe ? M_TS_NS_PER_EXIT : M_CPU_US_PER_EXIT;
	char title[256];

	if (probe)
		metric_panel(p, cfg, plan, a, M_TS_NS_PER_EXIT, "ts_ns_per_exit: "
			     "taskstats_exit() CPU per exit, in the kernel (exitprobe)", "ns per exit", false);
	metric_panel(p, cfg, plan, a, M_CPU_US_PER_EXIT, "cpu_us_per_exit: "
		     "exitgen's user+sys with children / exits (exact)", "us per exit", false);
	metric_panel(p, cfg, plan, a, M_MACHINE_CPU_US_PER_EXIT, "machine_cpu_us_per_exit: "
		     "all CPUs' busy time (/proc/stat) / exits", "us per exit", false);
	if (probe) {
		panel_begin(p, "tgid_on_share, listener_share: exits "
			    "with a tgid accumulator, meeting a listener (exitprobe)", x_title(cfg), "share of exits", true, true);
		metric_series(p, cfg, plan, a, M_TGID_ON_SHARE, false, true);
		metric_series(p, cfg, plan, a, M_LISTENER_SHARE, false, true);
		panel_end(p);
	}
	for (size_t k = 0; k < a->n_cmp; k++) {
		snprintf(title, sizeof(title), "Cost per exit of %s%s",
			 a->cmp[k].title + strlen("%ovhd of "), probe ? " (taskstats_exit)" :
			 " (whole exit: probe off)");
		comparison_panel(p, cfg, plan, a, k, cost, true, title,
				 probe ? "ns per exit, a - b" : "us per exit, a - b");
	}
	if (!loss)
		return;
	metric_panel(p, cfg, plan, a, M_MON_US_PER_RECORD, "monitor_us_per_record: "
		     "exitmon's user+sys / records received (exact)", "us per record", true);
	panel_begin(p, "Records lost and dropped per run (mean; dropped counts the "
		    "whole socket)", x_title(cfg), "records per run", true, true);
	metric_series(p, cfg, plan, a, M_LOST, true, true);
	metric_series(p, cfg, plan, a, M_DROPPED, true, true);
	panel_end(p);
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

/* Does path end in .png (pngcairo) rather than .svg? */
static bool plot_is_png(const char *path)
{
	size_t n = strlen(path);

	return n > 4 && !strcasecmp(path + n - 4, ".png");
}

/* The terminal (SVG, or PNG for a .png name), layout and a title that
 * says how many runs the plot holds. */
static void preamble(FILE *f, const struct plotter *p, const char *out,
		     const struct sweep_config *cfg, const struct sweep_plan *plan,
		     unsigned panels)
{
	bool png = plot_is_png(out);
	size_t done = 0;

	for (size_t i = 0; i < plan->n_runs; i++)
		done += plan->runs[i].done;
	/* to standard output, which run_gnuplot() catches: gnuplot never
	 * opens the user's path */
	fprintf(f, "set terminal %s size %d,%u %snoenhanced "
		"font 'sans,%s' background '#ffffff'\nset output\n"
		"set key outside right top Left reverse\nset grid\nset bars small\n"
		"set lmargin at screen 0.07\nset rmargin at screen %.3f\n%s"
		"set multiplot layout %u,1 title \"exitsweep --kind %s: %zu of %zu runs%s\"\n",
		png ? "pngcairo" : "svg", PLOT_WIDTH, 400 * panels + 30, png ? "" : "dynamic ",
		png ? "9" : "11", key_room(p), PLOT_COLOURS, panels,
		sweep_kind_name(cfg->kind),
		done, plan->n_runs, done < plan->n_runs ? " (INTERRUPTED: partial)" : "");
}

static void panels(struct plotter *p, const struct sweep_config *cfg,
		   const struct sweep_plan *plan, const struct analysis *a, bool loss)
{
	if (cfg->kind == KIND_OVERHEAD) {
		overhead_panels(p, cfg, plan, a, loss);
	} else if (cfg->kind == KIND_REAP) {
		metric_panel(p, cfg, plan, a, M_FORK_REAP_P50,
			     "Time to fork and reap one child (median per run)",
			     "microseconds", false);
		metric_panel(p, cfg, plan, a, M_KILL_REAP,
			     "Time to kill and reap a batch of children", "seconds", false);
		metric_panel(p, cfg, plan, a, M_KILL_BG,
			     "Time to kill and reap all background children",
			     "seconds", false);
		comparison_panels(p, cfg, plan, a);
	} else {
		cohort_panel(p, cfg, plan, a);
		p->categorical = true;
		metric_panel(p, cfg, plan, a, M_SPREAD, "Spread of finish times "
			     "(last - first)", "seconds", false);
		comparison_panels(p, cfg, plan, a);
	}
}

/* gnuplot draws to its standard output, a file in our own scratch
 * directory; the picture then goes into place through the safe open, so
 * gnuplot never follows a link someone planted at out. */
static int run_gnuplot(char *gp, char *script, const char *dir, const char *out,
		       char *err, size_t errlen)
{
	char errfile[PATH_MAX], picture[PATH_MAX], last[512], how[96];
	char *argv[] = { gp, script, NULL }, *img;
	size_t len;
	int r, status = 0;
	pid_t pid;

	snprintf(errfile, sizeof(errfile), "%s/gnuplot.err", dir);
	snprintf(picture, sizeof(picture), "%s/plot.out", dir);
	pid = sweep_proc_spawn(argv, picture, errfile);
	if (pid < 0) {
		snprintf(err, errlen, "cannot run %s: %s", gp, strerror(-pid));
		return pid;
	}
	r = sweep_proc_wait(pid, &status, NULL, false);
	if (r < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		sweep_proc_describe(status, how, sizeof(how));
		sweep_proc_last_line(errfile, last, sizeof(last));
		snprintf(err, errlen, "gnuplot failed (%s)%s%s", how,
			 last[0] ? ": " : "", last);
		return -ECHILD;
	}
	if ((r = sweep_file_read(picture, &img, &len)) < 0) {
		snprintf(err, errlen, "cannot read gnuplot's picture %s: %s", picture,
			 strerror(-r));
		return r;
	}
	r = len ? safe_replace(out, img, len, SAFE_MODE_PUBLIC) : -ENODATA;
	free(img);
	if (r == -ENODATA)
		snprintf(err, errlen, "gnuplot drew nothing for %s", out);
	else if (r < 0)
		snprintf(err, errlen, "cannot write %s: %s", out, safe_strerror(-r));
	return r;
}

int sweep_plot_write(const char *out, const struct sweep_config *cfg,
	       const struct sweep_plan *plan, const struct analysis *a,
	       const char *dir, char *err, size_t errlen)
{
	static struct plotter p;
	char gp[PATH_MAX], script[PATH_MAX], *body = NULL;
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
	p.png = plot_is_png(out);
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
		preamble(f, &p, out, cfg, plan, count_panels(cfg, plan, a, loss));
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
	return run_gnuplot(gp, script, dir, out, err, errlen);
}
