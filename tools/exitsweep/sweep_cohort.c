/* Cohort exit times, groups and delays. */
#include "sweep_cohort.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numparse.h"

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

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
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
	qsort(t, i, sizeof(*t), cmp_double);
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

#define MAX_FIELDS 64

static double field_num(char **f, const int *col, int c)
{
	double v;

	return parse_double(f[col[c]], 0, 1e300, &v) < 0 ? NAN : v;
}

int sweep_cohort_read_csv(const char *path, const char *tag, struct sweep_run *run)
{
	char line[4096], *f[MAX_FIELDS];
	int col[C_N];
	size_t nf, n = 0, cap = 0;
	double *el = NULL, sum_cpu = 0, max_cpu = 0, sum_io = 0, max_io = 0,
	       sum_run = 0;
	FILE *in = fopen(path, "re");
	int r = 0;

	if (!in)
		return -errno;
	if (!fgets(line, sizeof(line), in)) {
		fclose(in);
		return -EBADMSG;
	}
	nf = sweep_csv_split(line, f, MAX_FIELDS);
	for (int c = 0; c < C_N; c++) {
		col[c] = -1;
		for (size_t i = 0; i < nf; i++)
			if (!strcmp(f[i], col_names[c]))
				col[c] = (int)i;
		if (col[c] < 0) {
			fclose(in);
			return -EBADMSG;
		}
	}
	while (fgets(line, sizeof(line), in)) {
		nf = sweep_csv_split(line, f, MAX_FIELDS);
		for (int c = 0; c < C_N; c++)
			if ((size_t)col[c] >= nf)
				goto next;
		if (strcmp(f[col[C_TYPE]], "pid") || strcmp(f[col[C_COMM]], tag))
			continue;
		if (n == cap) {
			double *ne = realloc(el, (cap ? cap * 2 : 64) * sizeof(*el));

			if (!ne) {
				r = -ENOMEM;
				break;
			}
			el = ne;
			cap = cap ? cap * 2 : 64;
		}
		el[n++] = field_num(f, col, C_ELAPSED) / 1e6;
		{
			double cpu = field_num(f, col, C_CPU_DELAY) / 1e6;
			double io = field_num(f, col, C_BLKIO_DELAY) / 1e6;

			sum_cpu += cpu;
			sum_io += io;
			max_cpu = fmax(max_cpu, cpu);
			max_io = fmax(max_io, io);
			sum_run += field_num(f, col, C_RUN_REAL) / 1e6;
		}
next:
		;
	}
	fclose(in);
	if (r < 0) {
		free(el);
		return r;
	}
	if (n) {
		run->v[M_CPU_DELAY_MEAN] = sum_cpu / (double)n;
		run->v[M_CPU_DELAY_MAX] = max_cpu;
		run->v[M_BLKIO_DELAY_MEAN] = sum_io / (double)n;
		run->v[M_BLKIO_DELAY_MAX] = max_io;
		run->v[M_RUN_REAL_MEAN] = sum_run / (double)n;
	}
	if (!run->exit_times && n) {
		/* Stand-in: lifetimes.  The workers are released together
		 * after a short creation burst, so lifetimes order and space
		 * the exits as the release-relative times would. */
		qsort(el, n, sizeof(*el), cmp_double);
		run->exit_times = el;
		run->n_exit_times = n;
		el = NULL;
	}
	free(el);
	return 0;
}
