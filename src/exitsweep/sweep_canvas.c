// SPDX-License-Identifier: GPL-2.0-or-later
/* The gnuplot side of --plot: series files, panels and their axes, the
 * keys' room, the terminal, and gnuplot run into the scratch directory. */
#include "sweep_canvas.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "safe.h"
#include "sweep.h"
#include "sweep_file.h"
#include "sweep_proc.h"
#include "sweep_table.h"

/* A string safe inside gnuplot double quotes. */
static char safe_char(char c)
{
	return c == '"' || c == '\\' || c == '\n' ? '_' : c;
}

static void clean(char *dst, size_t len, const char *src)
{
	size_t i = 0;

	for (; *src && i + 1 < len; src++)
		dst[i++] = safe_char(*src);
	dst[i] = '\0';
}


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
FILE *sweep_canvas_series_begin(struct sweep_canvas *p, const char *title)
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
void sweep_canvas_series_end(struct sweep_canvas *p)
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
void sweep_canvas_point(struct sweep_canvas *p, double x, double y, double lo,
			double hi, const char *label)
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
void sweep_canvas_panel_begin(struct sweep_canvas *p, const char *title,
			      const char *xlabel, const char *ylabel, bool logx,
			      bool nonneg)
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
static double key_room(const struct sweep_canvas *p)
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
static void x_range(struct sweep_canvas *p)
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

void sweep_canvas_panel_end(struct sweep_canvas *p)
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

/* Does path end in .png (pngcairo) rather than .svg? */
bool sweep_canvas_is_png(const char *path)
{
	size_t n = strlen(path);

	return n > 4 && !strcasecmp(path + n - 4, ".png");
}

/* The terminal (SVG, or PNG for a .png name), the layout of panels and
 * the plot's title. */
void sweep_canvas_preamble(FILE *f, const struct sweep_canvas *p, unsigned panels,
			   const char *title)
{
	char t[300];
	size_t n = 0;

	/* a newline of the title stays one (gnuplot's "\n") */
	for (; *title && n + 3 < sizeof(t); title++) {
		if (*title == '\n') {
			t[n++] = '\\';
			t[n++] = 'n';
		} else {
			t[n++] = safe_char(*title);
		}
	}
	t[n] = '\0';
	/* to standard output, which sweep_canvas_render() catches: gnuplot
	 * never opens the user's path */
	fprintf(f, "set terminal %s size %d,%u %snoenhanced "
		"font 'sans,%s' background '#ffffff'\nset output\n"
		"set key outside right top Left reverse\nset grid\nset bars small\n"
		"set lmargin at screen 0.07\nset rmargin at screen %.3f\n%s"
		"set multiplot layout %u,1 title \"%s\"\n",
		p->png ? "pngcairo" : "svg", PLOT_WIDTH, 400 * panels + 30,
		p->png ? "" : "dynamic ", p->png ? "9" : "11", key_room(p),
		PLOT_COLOURS, panels, t);
}

/* gnuplot draws to its standard output, a file in our own scratch
 * directory; the picture then goes into place through the safe open, so
 * gnuplot never follows a link someone planted at out. */
int sweep_canvas_render(char *gp, char *script, const char *dir, const char *out,
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

