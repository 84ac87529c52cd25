/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Writing what exitstat found: the summary table (people), CSV or JSON
 * lines (scripts, exact integers under exitmon's names), and the
 * lastcomm-style listing of single records. */
#ifndef EXITSTAT_STAT_REPORT_H
#define EXITSTAT_STAT_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "stat_group.h"

enum report_fmt { REP_TABLE, REP_CSV, REP_JSONL };

struct report_opts {
	enum report_fmt fmt;
	enum stat_id sort;
	bool ascending, percent;
	size_t top;		/* 0: all */
};

int stat_report_fmt_from_name(const char *s, enum report_fmt *out);
/* The summary, TOTAL last.  -ENOMEM. */
int stat_report_summary(FILE *out, const struct groups *g, const struct report_opts *o);
/* One listing line for a pid record (table), or its record (CSV, JSON). */
void stat_report_list_header(FILE *out, enum report_fmt fmt);
void stat_report_list_record(FILE *out, enum report_fmt fmt, const struct exit_record *r);

#endif
