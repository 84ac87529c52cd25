// SPDX-License-Identifier: GPL-2.0-or-later
/* Progress line and time left. */
#include "sweep_progress.h"
#include "clock.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "sweep_analyze.h"
#include "sweep_proc.h"

int sweep_progress_init(struct sweep_progress *p, size_t n_cells, bool tty)
{
	memset(p, 0, sizeof(*p));
	p->cell_time = calloc(n_cells ? n_cells : 1, sizeof(*p->cell_time));
	p->cell_runs = calloc(n_cells ? n_cells : 1, sizeof(*p->cell_runs));
	if (!p->cell_time || !p->cell_runs) {
		sweep_progress_free(p);
		return -ENOMEM;
	}
	p->tty = tty;
	p->start = mono_s();
	return 0;
}

void sweep_progress_free(struct sweep_progress *p)
{
	free(p->cell_time);
	free(p->cell_runs);
	p->cell_time = NULL;
	p->cell_runs = NULL;
}

static double guess(const struct sweep_config *cfg, const struct sweep_plan *plan,
		    const struct sweep_progress *p, size_t cell, bool *known)
{
	double all = 0;
	unsigned n = 0;

	if (p->cell_runs[cell])
		return p->cell_time[cell] / p->cell_runs[cell];
	if (cfg->kind == KIND_OVERHEAD) {
		int64_t rate = cell_val(cfg, &plan->cells[cell], DIM_RATE);
		double extra = p->paced_n ? p->paced_extra / p->paced_n : 0.3;

		if (rate)
			return (double)cfg->count / (double)rate + extra;
	}
	for (size_t c = 0; c < plan->n_cells; c++) {
		all += p->cell_time[c];
		n += p->cell_runs[c];
	}
	if (!n)
		*known = false;
	return n ? all / n : 0;
}

double sweep_progress_left(const struct sweep_config *cfg,
			   const struct sweep_plan *plan,
			   const struct sweep_progress *p, size_t i, bool *known)
{
	double rest = 0;

	*known = true;
	for (size_t j = i; j < plan->n_runs; j++)
		rest += guess(cfg, plan, p, plan->runs[j].cell, known);
	return rest;
}

void sweep_progress_clock_text(char *buf, size_t len, double s)
{
	long t = lround(s);

	if (t >= 3600)
		snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}

void sweep_progress_show(FILE *f, const struct sweep_config *cfg,
			 const struct sweep_plan *plan,
			 const struct sweep_progress *p, size_t i)
{
	char key[256], el[32], left[32];
	bool known;
	double rest = sweep_progress_left(cfg, plan, p, i, &known);

	sweep_analyze_cell_key(cfg, &plan->cells[plan->runs[i].cell], DIM_COUNT,
			       key, sizeof(key));
	sweep_progress_clock_text(el, sizeof(el), mono_s() - p->start);
	sweep_progress_clock_text(left, sizeof(left), rest);
	fprintf(f, "%s%s: run %zu of %zu (%s): %s elapsed, %s%s left%s",
		p->tty ? "\r\033[K" : "", log_progname, i + 1, plan->n_runs, key, el,
		known ? "about " : "", known ? left : "?", p->tty ? "" : "\n");
	fflush(f);
}

void sweep_progress_note(const struct sweep_config *cfg,
			 const struct sweep_plan *plan, struct sweep_progress *p,
			 size_t cell, double took)
{
	p->cell_time[cell] += took;
	p->cell_runs[cell]++;
	if (cfg->kind == KIND_OVERHEAD) {
		int64_t rate = cell_val(cfg, &plan->cells[cell], DIM_RATE);

		if (rate) {
			p->paced_extra += took - (double)cfg->count / (double)rate;
			p->paced_n++;
		}
	}
}
