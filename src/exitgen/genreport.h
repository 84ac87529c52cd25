/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exitgen's report: one ordered list of key/value pairs, printed as text,
 * as one JSON object, or written atomically as key=value lines.  The keys
 * are a contract with exitsweep: add, never rename. */
#ifndef EXITGEN_GENREPORT_H
#define EXITGEN_GENREPORT_H

#include <stdint.h>
#include <stdio.h>

#include "spawn.h"

#define REP_MAX 64

enum rep_type { REP_U64, REP_DBL, REP_STR };

struct rep_item {
	const char *key;
	enum rep_type type;
	int prec;		/* REP_DBL: digits after the point */
	uint64_t u;
	double d;
	const char *s;
};

struct replist {
	struct rep_item item[REP_MAX];
	unsigned n;
};

void genreport_dbl(struct replist *l, const char *key, double v, int prec);
void genreport_str(struct replist *l, const char *key, const char *s);
const struct rep_item *genreport_get(const struct replist *l, const char *key);

/* Fill l from a finished run.  Strings point into cfg, res or *groups
 * (cohort group sizes "2,2,2" and finish times "0.51,0.52,..."), which
 * the caller frees. */
int genreport_build(struct replist *l, const struct spawn_config *cfg,
		 const struct spawn_result *res, char **groups);
/* l as one JSON object and a newline; 0, or -ENOMEM (nothing written). */
int genreport_json(const struct replist *l, FILE *out);
void genreport_text(const struct replist *l, const struct spawn_config *cfg,
		 const struct spawn_result *res, FILE *out);
/* Temp file in the same directory, then rename: readers never see half. */
int genreport_summary(const struct replist *l, const char *path);

/* Cohort finish times (sorted, seconds) fall into groups where a gap
 * exceeds a tenth of the whole spread; writes the group sizes. */
unsigned genreport_cohort_groups(const double *finish, uint64_t n,
				 char *buf, size_t len);

#endif
