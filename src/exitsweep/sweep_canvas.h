/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The gnuplot side of --plot, which knows nothing of sweeps: a script of
 * stacked panels, each with series of "x y lo hi label" points (error
 * bars), drawn by gnuplot and put into place through the safe open. */
#ifndef EXITSWEEP_SWEEP_CANVAS_H
#define EXITSWEEP_SWEEP_CANVAS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct sweep_canvas {
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

/* A series of the current panel: its data file, or NULL (p->err set). */
FILE *sweep_canvas_series_begin(struct sweep_canvas *p, const char *title);
/* Adds the series to the panel's plot command; one without a point is
 * left out. */
void sweep_canvas_series_end(struct sweep_canvas *p);
/* One point; label (categorical x) becomes the tick text; NaN lo/hi: no
 * error bar.  Points gnuplot cannot place (NaN, x <= 0 on a log axis)
 * are skipped. */
void sweep_canvas_point(struct sweep_canvas *p, double x, double y, double lo,
			double hi, const char *label);
/* nonneg: y starts at 0; else a zero line is drawn. */
void sweep_canvas_panel_begin(struct sweep_canvas *p, const char *title,
			      const char *xlabel, const char *ylabel, bool logx,
			      bool nonneg);
/* The axes fitted to the points and the plot command ("nothing to draw"
 * for a panel without a series). */
void sweep_canvas_panel_end(struct sweep_canvas *p);
/* Does path end in .png (pngcairo) rather than .svg? */
bool sweep_canvas_is_png(const char *path);
/* What goes before the panels: terminal, layout, title (a newline in it
 * starts a second line). */
void sweep_canvas_preamble(FILE *f, const struct sweep_canvas *p, unsigned panels,
			   const char *title);
/* Run gnuplot gp on script in dir, then its picture into out through the
 * safe open.  0 or -errno with a one-line reason in err. */
int sweep_canvas_render(char *gp, char *script, const char *dir, const char *out,
			char *err, size_t errlen);

#endif
