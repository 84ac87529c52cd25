// SPDX-License-Identifier: GPL-2.0-or-later
/* Cohort exit times, groups and delays. */
#include "sweep_cohort.h"

#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linein.h"
#include "log.h"
#include "parse.h"
#include "record.h"
#include "recread.h"
#include "recseen.h"
#include "stats.h"

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

/* The fields a cohort reads from exitmon's records (beside type and comm;
 * record_implausible() reads every delay total the file has). */
static const enum rec_field cohort_fields[] = {
	F_ETIME, F_CPU_DELAY_TOTAL, F_BLKIO_DELAY_TOTAL, F_CPU_RUN_REAL_TOTAL,
};

static double field_num(const struct exit_record *r, enum rec_field f)
{
	return rec_has(r, f) ? (double)rec_get(r, f) : NAN;
}

static bool header_has_ours(const struct recread *rr)
{
	if (!recread_csv_has_comm(rr))
		return false;
	for (size_t i = 0; i < sizeof(cohort_fields) / sizeof(cohort_fields[0]); i++)
		if (!recread_csv_has_field(rr, cohort_fields[i]))
			return false;
	return true;
}

struct cohort_sums {
	double *el;		/* lifetimes, seconds */
	size_t n, cap, ok;	/* records, of them plausible */
	double cpu, max_cpu, io, max_io, run;
};

static int add_record(struct cohort_sums *cs, const struct exit_record *r,
		      struct sweep_run *run)
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
	cs->el[cs->n++] = field_num(r, F_ETIME) / 1e6;
	/* A record that waited longer than it lived: the kernel's "delay =
	 * uptime" records right after delay accounting is switched on. */
	if (record_implausible(r)) {
		run->v[M_EXCLUDED] = (isnan(run->v[M_EXCLUDED]) ? 0 : run->v[M_EXCLUDED]) + 1;
		return 0;
	}
	cpu = field_num(r, F_CPU_DELAY_TOTAL) / 1e6;
	io = field_num(r, F_BLKIO_DELAY_TOTAL) / 1e6;
	cs->ok++;
	cs->cpu += cpu;
	cs->io += io;
	cs->max_cpu = fmax(cs->max_cpu, cpu);
	cs->max_io = fmax(cs->max_io, io);
	cs->run += field_num(r, F_CPU_RUN_REAL_TOTAL) / 1e6;
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

/* The header row, through the one reader of exitmon's records (past the
 * damaged lines of headers cut short, as every reader passes them). */
static int read_header(struct linein *in, struct recread *rr)
{
	const char *row;
	size_t len;
	int k;

	while ((k = linein_next(in, true, &row, &len)) == 1 &&
	       recread_csv_damaged_first(row, len))
		;

	if (k <= 0)
		return k < 0 ? k : -EBADMSG;
	recread_init(rr);
	if (recread_csv_header(rr, row, len) < 0 || !header_has_ours(rr))
		return -EBADMSG;
	return 0;
}

/* The pid records of the cohort (comm tag) into cs; rows that do not fit
 * the header are passed over, and so is a last row cut short (exitmon
 * stopped mid-line), with a warning. */
static int read_rows(struct linein *in, const char *path, const struct recread *rr,
		     const char *tag, struct cohort_sums *cs, struct sweep_run *run)
{
	struct recseen seen;	/* a record read twice counts once */
	struct exit_record r;
	const char *row;
	size_t len;
	int k;

	recseen_init(&seen);
	while ((k = linein_next(in, true, &row, &len)) == 1) {
		if (recread_csv(rr, row, len, &r) < 0 || r.type != REC_PID ||
		    strcmp(r.comm, tag))
			continue;
		if ((k = recseen_add(&seen, &r.meta)) < 0)
			break;
		if (k == 0)
			continue;
		if ((k = add_record(cs, &r, run)) < 0)
			break;
	}
	if (seen.repeats)
		log_warn("%s: %llu records with the run and seq of one read before "
			"dropped: each is counted once", path,
			(unsigned long long)seen.repeats);
	recseen_free(&seen);
	if (k == 2)
		log_warn("%s: the last row is cut short (exitmon stopped mid-line); "
			"not read", path);
	/* gzip damage the reader passed over is damage all the same: the
	 * cohort's figures would be short by it. */
	if (k >= 0 && in->gz_damaged)
		k = -EBADMSG;
	return k < 0 ? k : 0;
}

int sweep_cohort_read_csv(const char *path, const char *tag, struct sweep_run *run)
{
	struct linein in;
	struct cohort_sums cs = { 0 };
	struct recread rr;
	int r = linein_open(&in, path);

	if (r < 0)
		return r;
	r = read_header(&in, &rr);
	if (r == 0)
		r = read_rows(&in, path, &rr, tag, &cs, run);
	linein_close(&in);
	if (r == -E2BIG)	/* a row longer than the reader's buffer */
		r = -EBADMSG;	/* is not exitmon's */
	if (r < 0) {
		free(cs.el);
		return r;
	}
	cohort_finish(&cs, run);
	return 0;
}
