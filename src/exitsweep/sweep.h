/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exitsweep's data model: the matrix of cells, the runs and their measured
 * values.  Everything is generic over "dimensions" (the axes of the matrix)
 * and "metrics" (the numbers one run yields), so planning, statistics,
 * tables, CSV and JSON need no per-kind code beyond the tables in
 * sweep_kind.c (what a kind varies and fills; its functions are declared
 * below), sweep_dim.c (the dimensions' names) and sweep_metrics.c (the
 * metrics' names and units). */
#ifndef EXITSWEEP_SWEEP_H
#define EXITSWEEP_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum sweep_kind { KIND_OVERHEAD, KIND_REAP, KIND_COHORT, KIND_COUNT };

/* Axes of the matrix.  A kind uses some of them; unused ones hold one
 * value.  The order is the order of columns in tables and files. */
enum sweep_dim {
	DIM_RATE,		/* exits per second, 0 = max */
	DIM_TGID,		/* 1 on (thread shape), 0 off (process shape) */
	DIM_BACKGROUND,		/* live background children (reap) */
	DIM_MMAP,		/* shared mmap bytes, 0 = none (reap) */
	DIM_WORK,		/* worker load (cohort), label only */
	DIM_LISTENER,		/* enum sweep_listener */
	DIM_DACCT,		/* enum sweep_dacct */
	DIM_COUNT
};

enum sweep_listener { LISTEN_NONE, LISTEN_BATCH, LISTEN_WAKEUP };
enum sweep_dacct { DACCT_KEEP = -1, DACCT_OFF = 0, DACCT_ON = 1 };
/* --probe: exitprobe around each overhead run's exitgen */
enum sweep_probe { PROBE_OFF, PROBE_AUTO, PROBE_FENTRY, PROBE_SAMPLE };

#define SWEEP_MAX_VALUES 32	/* values per dimension */
#define SWEEP_LABEL 48

struct sweep_dimvals {
	size_t n;
	int64_t val[SWEEP_MAX_VALUES];
	char label[SWEEP_MAX_VALUES][SWEEP_LABEL];
};

/* Metrics: indexes into run->v[].  Which ones a kind fills is listed in
 * sweep_kind.c; the rest stay NAN ("n/a"). */
enum sweep_metric {
	M_USER, M_SYS, M_ELAPSED, M_WALL, M_ACHIEVED, M_EXITS,
	M_RECORDS, M_LOST, M_DROPPED, M_ENOBUFS, M_MON_USER, M_MON_SYS,
	M_LATE_P99, M_SATURATED, M_DACCT_STATE,
	/* overhead: exact totals and the probe's in-kernel figures */
	M_CPU_US_PER_EXIT, M_MACHINE_CPU_US_PER_EXIT, M_TS_NS_PER_EXIT,
	M_TGID_ON_SHARE, M_LISTENER_SHARE, M_FOREIGN_EXITS, M_MON_US_PER_RECORD,
	/* overhead, the probe's own cost in the run: its BPF programs' run
	 * time and its samples, per exit */
	M_PROBE_BPF_NS_PER_EXIT, M_PROBE_SAMPLES_PER_EXIT,
	/* reap */
	M_FORK_REAP_P50, M_FORK_REAP_P99, M_KILL_REAP, M_KILL_BG,
	/* cohort */
	M_FIRST, M_LAST, M_SPREAD, M_GROUPS, M_BIGGEST_GROUP,
	M_CPU_DELAY_MEAN, M_CPU_DELAY_MAX, M_BLKIO_DELAY_MEAN,
	M_BLKIO_DELAY_MAX, M_RUN_REAL_MEAN, M_IMPLAUSIBLE, M_EXCLUDED,
	M_COUNT
};

struct sweep_cell {
	int v[DIM_COUNT];	/* index into config->dim[d] */
};

struct sweep_run {
	size_t cell;		/* index into plan->cells */
	unsigned rep;		/* 0 .. runs-1 within the cell */
	size_t order;		/* position in the run order */
	char tag[16];		/* comm of the run's exiting tasks */
	bool done;
	double v[M_COUNT];
	/* cohort: each worker's finish time after the release (exitgen), or
	 * its lifetime from exitmon's records, seconds, sorted; else NULL */
	double *exit_times;
	size_t n_exit_times;
	bool times_from_gen;	/* exit_times are exitgen's finish times */
	char groups[64];	/* cohort: group sizes in exit order, "2+2+2" */
};

/* What the probe costs the workload, measured once per sweep: a flat-out
 * thread exit loop alone and under the probe in ABBA blocks (alone,
 * probed, probed, alone), exitgen's achieved rates compared per block. */
#define SWEEP_PROBE_BLOCKS 3
struct sweep_probe_cost {
	unsigned blocks;		/* measured blocks, 0 = not measured */
	uint64_t count;			/* exits per exitgen run */
	double block[SWEEP_PROBE_BLOCKS];	/* probed / alone rate */
	double ratio, lo, hi;		/* median, least and most of the blocks */
	double alone_rate, probed_rate;	/* median achieved rates, exits/s */
	char why[192];			/* not measured: why */
};

struct sweep_config {
	enum sweep_kind kind;
	struct sweep_dimvals dim[DIM_COUNT];
	unsigned runs;
	uint64_t count;		/* exits (overhead), fork+reap cycles (reap) */
	uint32_t cohort;	/* workers started together (cohort) */
	uint32_t kill_batch;	/* children killed per batch (reap) */
	uint32_t workers;	/* exitgen --workers (overhead) */
	uint32_t batch;		/* exitgen --batch (overhead), 0 off */
	uint64_t seed;
	bool quick, quiet;
	double run_timeout;	/* seconds, 0 = computed */
	const char *exitmon, *exitgen;	/* paths */
	enum sweep_probe probe;		/* as asked; PROBE_OFF once it cannot run */
	const char *exitprobe;		/* path, NULL when off */
	char probe_method[16];		/* what the probe said it used */
	char probe_note[256];		/* one line for the report's header */
	struct sweep_probe_cost probe_cost;
	const char *csv, *json, *plot;
	char command[1024];	/* the command line, for the records */
};

struct sweep_plan {
	struct sweep_cell *cells;
	size_t n_cells;
	struct sweep_run *runs;	/* in execution order */
	size_t n_runs;
};

const char *sweep_kind_name(enum sweep_kind k);
int sweep_kind_from_name(const char *s, enum sweep_kind *k);
/* Does kind k use dimension d (so tables and files show it)? */
bool sweep_kind_has_dim(enum sweep_kind k, enum sweep_dim d);
/* Does kind k fill metric m? */
bool sweep_kind_has_metric(enum sweep_kind k, enum sweep_metric m);
/* The dimension a kind's tables are indexed by (rows). */
enum sweep_dim sweep_kind_row_dim(enum sweep_kind k);

/* Value of dimension d in cell c. */
static inline int64_t cell_val(const struct sweep_config *cfg,
			       const struct sweep_cell *c, enum sweep_dim d)
{
	return cfg->dim[d].val[c->v[d]];
}

static inline const char *cell_label(const struct sweep_config *cfg,
				     const struct sweep_cell *c, enum sweep_dim d)
{
	return cfg->dim[d].label[c->v[d]];
}

#endif
