/* Cohort exit times, groups and delays. */
#include "sweep_cohort.h"

#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numparse.h"
#include "stats.h"

size_t sweep_csv_split(char *line, char **fields, size_t max)
{
	size_t n = 0;
	char *p = line;

	line[strcspn(line, "\r\n")] = '\0';
	while (n < max) {
		if (*p == '"') {
			char *out = ++p;

			fields[n++] = out;
			for (;;) {
				if (*p == '\0')
					break;
				if (*p == '"' && p[1] == '"') {
					*out++ = '"';
					p += 2;
				} else if (*p == '"') {
					p++;
					break;
				} else {
					*out++ = *p++;
				}
			}
			/* skip to the separator */
			while (*p && *p != ',')
				p++;
			*out = '\0';
			if (*p == ',')
				p++;
			else
				return n;
		} else {
			char *comma = strchr(p, ',');

			fields[n++] = p;
			if (!comma)
				return n;
			*comma = '\0';
			p = comma + 1;
		}
	}
	return n;
}

void sweep_cohort_set_groups(struct sweep_run *run, const char *groups)
{
	size_t n = 0, big = 0;
	const char *p = groups;

	snprintf(run->groups, sizeof(run->groups), "%s", groups);
	for (char *c = run->groups; *c; c++)
		if (*c == ',')
			*c = '+';
	while (*p) {
		char *end;
		unsigned long v = strtoul(p, &end, 10);

		if (end == p)
			break;
		n++;
		if (v > big)
			big = v;
		p = *end == ',' ? end + 1 : end;
		if (*end != ',' )
			break;
	}
	if (n) {
		run->v[M_GROUPS] = (double)n;
		run->v[M_BIGGEST_GROUP] = (double)big;
	}
}

int sweep_cohort_set_times(struct sweep_run *run, const char *list)
{
	size_t n = 1, i = 0;
	char *copy, *tok, *save = NULL;
	double *t;

	for (const char *c = list; *c; c++)
		n += *c == ',';
	t = calloc(n, sizeof(*t));
	copy = strdup(list);
	if (!t || !copy) {
		free(t);
		free(copy);
		return -ENOMEM;
	}
	for (tok = strtok_r(copy, ",", &save); tok && i < n;
	     tok = strtok_r(NULL, ",", &save)) {
		if (parse_double(tok, 0, 1e9, &t[i]) < 0) {
			free(t);
			free(copy);
			return -EINVAL;
		}
		i++;
	}
	free(copy);
	stats_sort(t, i);
	free(run->exit_times);
	run->exit_times = t;
	run->n_exit_times = i;
	run->times_from_gen = true;
	return 0;
}

enum { C_TYPE, C_COMM, C_ELAPSED, C_CPU_DELAY, C_BLKIO_DELAY,
       C_RUN_REAL, C_N };
static const char *const col_names[C_N] = {
	"type", "comm", "elapsed_us", "cpu_delay_ns", "blkio_delay_ns",
	"cpu_run_real_ns",
};

#define MAX_FIELDS 160
/* exitmon's record_implausible() allows this much between the delay and
 * elapsed clocks (src/common/record.c) */
#define COHORT_DELAY_SLACK_NS 10e6

static double field_num(char **f, const int *col, int c)
{
	double v;

	return parse_double(f[col[c]], 0, 1e300, &v) < 0 ? NAN : v;
}

/* The header's columns: ours in col[], and every "*_delay_ns" total (the
 * kinds of wait exitmon checks) in delays[], -1 terminated. */
static int read_header(char *line, int *col, int *delays)
{
	char *f[MAX_FIELDS];
	size_t nf = sweep_csv_split(line, f, MAX_FIELDS), nd = 0;

	for (int c = 0; c < C_N; c++) {
		col[c] = -1;
		for (size_t i = 0; i < nf; i++)
			if (!strcmp(f[i], col_names[c]))
				col[c] = (int)i;
		if (col[c] < 0)
			return -EBADMSG;
	}
	for (size_t i = 0; i < nf && nd + 1 < MAX_FIELDS; i++) {
		size_t l = strlen(f[i]);

		if (l > 9 && !strcmp(f[i] + l - 9, "_delay_ns"))
			delays[nd++] = (int)i;
	}
	delays[nd] = -1;
	return 0;
}

/* A record that waited longer than it lived: the kernel's "delay =
 * uptime" records right after delay accounting is switched on. */
static bool implausible(char **f, size_t nf, const int *col, const int *delays)
{
	double life = field_num(f, col, C_ELAPSED) * 1000 + COHORT_DELAY_SLACK_NS;

	for (const int *d = delays; *d >= 0; d++) {
		double v;

		if ((size_t)*d < nf && parse_double(f[*d], 0, 1e300, &v) == 0 && v > life)
			return true;
	}
	return false;
}

struct cohort_sums {
	double *el;		/* lifetimes, seconds */
	size_t n, cap, ok;	/* records, of them plausible */
	double cpu, max_cpu, io, max_io, run;
};

static int add_record(struct cohort_sums *cs, char **f, size_t nf,
		      const int *col, const int *delays, struct sweep_run *run)
{
	double cpu, io;

	if (cs->n == cs->cap) {
		size_t cap = cs->cap ? cs->cap * 2 : 64;
		double *ne = realloc(cs->el, cap * sizeof(*ne));

		if (!ne)
			return -ENOMEM;
		cs->el = ne;
		cs->cap = cap;
	}
	cs->el[cs->n++] = field_num(f, col, C_ELAPSED) / 1e6;
	if (implausible(f, nf, col, delays)) {
		run->v[M_EXCLUDED] = (isnan(run->v[M_EXCLUDED]) ? 0 : run->v[M_EXCLUDED]) + 1;
		return 0;
	}
	cpu = field_num(f, col, C_CPU_DELAY) / 1e6;
	io = field_num(f, col, C_BLKIO_DELAY) / 1e6;
	cs->ok++;
	cs->cpu += cpu;
	cs->io += io;
	cs->max_cpu = fmax(cs->max_cpu, cpu);
	cs->max_io = fmax(cs->max_io, io);
	cs->run += field_num(f, col, C_RUN_REAL) / 1e6;
	return 0;
}

static void cohort_finish(struct cohort_sums *cs, struct sweep_run *run)
{
	if (cs->n && isnan(run->v[M_EXCLUDED]))
		run->v[M_EXCLUDED] = 0;
	if (cs->ok) {
		run->v[M_CPU_DELAY_MEAN] = cs->cpu / (double)cs->ok;
		run->v[M_CPU_DELAY_MAX] = cs->max_cpu;
		run->v[M_BLKIO_DELAY_MEAN] = cs->io / (double)cs->ok;
		run->v[M_BLKIO_DELAY_MAX] = cs->max_io;
		run->v[M_RUN_REAL_MEAN] = cs->run / (double)cs->ok;
	}
	if (!run->exit_times && cs->n) {
		/* Stand-in: lifetimes.  The workers are released together
		 * after a short creation burst, so lifetimes order and space
		 * the exits as the release-relative times would. */
		stats_sort(cs->el, cs->n);
		run->exit_times = cs->el;
		run->n_exit_times = cs->n;
		cs->el = NULL;
	}
	free(cs->el);
}

int sweep_cohort_read_csv(const char *path, const char *tag, struct sweep_run *run)
{
	char line[16384];
	char *f[MAX_FIELDS];
	int col[C_N], delays[MAX_FIELDS];
	struct cohort_sums cs = { 0 };
	FILE *in = fopen(path, "re");
	int r = 0;

	if (!in)
		return -errno;
	if (!fgets(line, sizeof(line), in) || read_header(line, col, delays) < 0) {
		fclose(in);
		return -EBADMSG;
	}
	while (r == 0 && fgets(line, sizeof(line), in)) {
		size_t nf = sweep_csv_split(line, f, MAX_FIELDS);
		bool short_row = false;

		for (int c = 0; c < C_N; c++)
			short_row |= (size_t)col[c] >= nf;
		if (short_row || strcmp(f[col[C_TYPE]], "pid") || strcmp(f[col[C_COMM]], tag))
			continue;
		r = add_record(&cs, f, nf, col, delays, run);
	}
	fclose(in);
	if (r < 0) {
		free(cs.el);
		return r;
	}
	cohort_finish(&cs, run);
	return 0;
}
