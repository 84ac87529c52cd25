// SPDX-License-Identifier: GPL-2.0-or-later
/* Summary tables and listings (see stat_report.h). */
#include "stat_report.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "format.h"
#include "stat_user.h"

/* Names for the table's user column and the listing, one lookup per uid. */
static struct stat_users users;

/* How the table shows each statistic to people: a header with the unit
 * and a divisor; CSV and JSON carry the exact integer under
 * stat_group_stat_name(). */
static const struct {
	const char *head;
	double div;
	int decimals;
} shown[S__COUNT] = {
	[S_EXITS] = { "exits", 1, 0 },
	[S_CPU] = { "cpu_s", 1e6, 2 },
	[S_CPU_RUN] = { "run_s", 1e9, 3 },
	[S_ELAPSED] = { "elapsed_s", 1e6, 2 },
	[S_CPU_DELAY] = { "cpuwait_ms", 1e6, 1 },
	[S_CPU_AVG] = { "avg_us", 1e3, 1 },
	[S_CPU_MAX] = { "max_ms", 1e6, 2 },
	[S_BLKIO_DELAY] = { "blkio_ms", 1e6, 1 },
	[S_BLKIO_AVG] = { "avg_us", 1e3, 1 },
	[S_BLKIO_MAX] = { "max_ms", 1e6, 2 },
	[S_SWAPIN_DELAY] = { "swapin_ms", 1e6, 1 },
	[S_SWAPIN_AVG] = { "avg_us", 1e3, 1 },
	[S_SWAPIN_MAX] = { "max_ms", 1e6, 2 },
	[S_READ] = { "read_MiB", 1048576, 1 },
	[S_WRITE] = { "write_MiB", 1048576, 1 },
	[S_RSS] = { "rss_max_MiB", 1024, 1 },
	[S_IMPLAUSIBLE] = { "implaus", 1, 0 },
};
/* Statistics -c shows as a share of the total, as sa(8) does. */
static bool has_percent(enum stat_id s)
{
	return s == S_EXITS || s == S_CPU || s == S_CPU_RUN || s == S_ELAPSED;
}

static const char *const key_names[] = { "comm", "uid", "tgid", "exe" };

int stat_report_fmt_from_name(const char *s, enum report_fmt *out)
{
	static const char *const names[] = { "table", "csv", "jsonl" };

	for (int i = 0; i < 3; i++) {
		if (strcmp(s, names[i]) == 0) {
			*out = (enum report_fmt)i;
			return 0;
		}
	}
	return -EINVAL;
}

/* What a summary row is: the first CSV column and JSON key, so that no
 * group (not even a command named TOTAL) can pass for the total. */
static const char *row_kind(const struct groups *g, const struct group *gr)
{
	if (gr == &g->total)
		return "total";
	if (gr == &g->other)
		return "other";
	return gr->flags & G_PARTIAL ? "partial" : "group";
}

static bool is_group(const struct groups *g, const struct group *gr)
{
	return gr != &g->total && gr != &g->other;
}

/* The group's key as people read it (user names resolved) or as CSV/JSON
 * carry it (escaped by format.c's rules; uid as a number).  The total and
 * other rows: their label in the table, empty in CSV, null in JSON. */
static void key_text(const struct groups *g, const struct group *gr,
		     enum report_fmt fmt, char *buf, size_t cap)
{
	if (!is_group(g, gr)) {
		snprintf(buf, cap, "%s", fmt == REP_JSONL ? "null" : fmt == REP_CSV ? ""
			 : gr == &g->total ? "TOTAL" : "other");
		return;
	}
	switch (g->by) {
	case BY_COMM:
		format_comm(fmt == REP_CSV ? FMT_CSV : fmt == REP_JSONL ? FMT_JSONL
				: FMT_TEXT, gr->key.comm, gr->key.len, buf, cap);
		break;
	case BY_UID:
		if (gr->key.a == STAT_GROUP_UID_UNKNOWN)	/* the file has no uid */
			snprintf(buf, cap, "%s", fmt == REP_JSONL ? "null"
				 : fmt == REP_CSV ? "" : "-");
		else if (fmt == REP_TABLE)
			snprintf(buf, cap, "%s", stat_user_name(&users, (uint32_t)gr->key.a));
		else
			snprintf(buf, cap, "%" PRIu64, gr->key.a);
		break;
	case BY_TGID: snprintf(buf, cap, "%" PRIu64, gr->key.a); break;
	case BY_EXE:
		snprintf(buf, cap, fmt == REP_JSONL ? "\"%" PRIu64 ":%" PRIu64 "\""
			 : "%" PRIu64 ":%" PRIu64, gr->key.a, gr->key.b);
		break;
	}
}

/* A share of the total: " %6.2f" in the table, ",%.2f" in CSV, "%.2f"
 * after a JSON key. */
static void pct(FILE *out, uint64_t v, uint64_t total, enum report_fmt fmt)
{
	double p = total ? 100.0 * (double)v / (double)total : 0.0;

	if (fmt == REP_TABLE)
		fprintf(out, " %6.2f", p);
	else
		fprintf(out, fmt == REP_CSV ? ",%.2f" : "%.2f", p);
}

static int table_head(FILE *out, const struct groups *g, const struct report_opts *o)
{
	int w = fprintf(out, "%-16s", g->by == BY_UID ? "user" : key_names[g->by]);

	for (int s = 0; s < S__COUNT; s++) {
		w += fprintf(out, " %*s", s == S_EXITS ? 9 : 11, shown[s].head);
		if (o->percent && has_percent((enum stat_id)s))
			w += fprintf(out, " %6s", "%");
	}
	fputc('\n', out);
	return w;
}

/* The line between the groups and the other and TOTAL lines: no group's
 * line can look like it (a group's line always carries its figures). */
static void table_rule(FILE *out, int width)
{
	for (int i = 0; i < width; i++)
		fputc('=', out);
	fputc('\n', out);
}

static void table_row(FILE *out, const struct groups *g, const struct group *gr,
		      const struct report_opts *o)
{
	char key[256];

	key_text(g, gr, REP_TABLE, key, sizeof(key));
	fprintf(out, "%-16s", key);
	for (int s = 0; s < S__COUNT; s++) {
		uint64_t v, t = 0;

		if (stat_group_value(gr, (enum stat_id)s, &v))
			fprintf(out, " %*.*f", s == S_EXITS ? 9 : 11, shown[s].decimals,
				(double)v / shown[s].div);
		else
			fprintf(out, " %*s", s == S_EXITS ? 9 : 11, "-");
		if (o->percent && has_percent((enum stat_id)s)) {
			stat_group_value(&g->total, (enum stat_id)s, &t);
			pct(out, v, t, REP_TABLE);
		}
	}
	fputs(gr->flags & G_PARTIAL ? "  partial\n" : "\n", out);
}

static void csv_head(FILE *out, const struct groups *g, const struct report_opts *o)
{
	fprintf(out, "row,%s", key_names[g->by]);
	for (int s = 0; s < S__COUNT; s++) {
		fprintf(out, ",%s", stat_group_stat_name((enum stat_id)s));
		if (o->percent && has_percent((enum stat_id)s))
			fprintf(out, ",%s_pct", stat_group_stat_name((enum stat_id)s));
	}
	fputc('\n', out);
}

static void data_row(FILE *out, const struct groups *g, const struct group *gr,
		     const struct report_opts *o)
{
	bool json = o->fmt == REP_JSONL;
	char key[256];

	key_text(g, gr, o->fmt, key, sizeof(key));
	if (json)
		fprintf(out, "{\"row\":\"%s\",\"%s\":%s", row_kind(g, gr),
			key_names[g->by], key);
	else
		fprintf(out, "%s,%s", row_kind(g, gr), key);
	for (int s = 0; s < S__COUNT; s++) {
		uint64_t v, t = 0;
		bool have = stat_group_value(gr, (enum stat_id)s, &v);

		if (json)
			fprintf(out, ",\"%s\":", stat_group_stat_name((enum stat_id)s));
		else
			fputc(',', out);
		if (have)
			fprintf(out, "%" PRIu64, v);
		else if (json)
			fputs("null", out);
		if (o->percent && has_percent((enum stat_id)s)) {
			stat_group_value(&g->total, (enum stat_id)s, &t);
			if (json)
				fprintf(out, ",\"%s_pct\":",
					stat_group_stat_name((enum stat_id)s));
			pct(out, v, t, o->fmt);
		}
	}
	fputs(json ? "}\n" : "\n", out);
}

static void summary_row(FILE *out, const struct groups *g, const struct group *gr,
			const struct report_opts *o)
{
	if (o->fmt == REP_TABLE)
		table_row(out, g, gr, o);
	else
		data_row(out, g, gr, o);
}

int stat_report_summary(FILE *out, const struct groups *g, const struct report_opts *o)
{
	struct group **v = stat_group_sorted(g, o->sort, o->ascending);
	size_t i, n = o->top && o->top < g->n ? o->top : g->n;
	int width = 0;

	if (!v)
		return -ENOMEM;
	if (o->fmt == REP_TABLE)
		width = table_head(out, g, o);
	else if (o->fmt == REP_CSV)
		csv_head(out, g, o);
	for (i = 0; i < n; i++)
		summary_row(out, g, v[i], o);
	if (o->fmt == REP_TABLE)
		table_rule(out, width);
	if (g->folded)
		summary_row(out, g, &g->other, o);
	summary_row(out, g, &g->total, o);
	free(v);
	return 0;
}

/* ---- listing ---------------------------------------------------------------- */

void stat_report_list_header(FILE *out, enum report_fmt fmt)
{
	char buf[FORMAT_MAX_LINE];

	if (fmt == REP_TABLE)
		fprintf(out, "%-16s %-2s %-10s %8s %10s %10s  %s\n", "comm", "fl",
			"user", "exit", "cpu_s", "elapsed_s", "exited");
	else if (fmt == REP_CSV && format_header(FMT_CSV, buf, sizeof(buf)) < sizeof(buf))
		fputs(buf, out);
}

/* lastcomm's flags: S superuser, F forked without exec, D core, X signal. */
static void list_flags(const struct exit_record *r, char *f)
{
	uint64_t fl = rec_get(r, F_FLAG);
	int k = 0;

	if (fl & 2) f[k++] = 'S';
	if (fl & 1) f[k++] = 'F';
	if (fl & 8) f[k++] = 'D';
	if (fl & 16) f[k++] = 'X';
	f[k] = '\0';
}

void stat_report_list_record(FILE *out, enum report_fmt fmt, const struct exit_record *r)
{
	char buf[FORMAT_MAX_LINE], fl[8], when[32] = "-", code[24] = "-";
	uint64_t bt = rec_has(r, F_BTIME64) ? rec_get(r, F_BTIME64) : rec_get(r, F_BTIME);
	time_t end = (time_t)(bt + rec_get(r, F_ETIME) / 1000000);
	struct tm tm;

	/* CSV and JSON carry the uid only: no name is looked up for them. */
	if (fmt != REP_TABLE) {
		if (format_record(fmt == REP_CSV ? FMT_CSV : FMT_JSONL, r, buf,
				  sizeof(buf)) < sizeof(buf))
			fputs(buf, out);
		return;
	}
	format_comm(FMT_TEXT, r->comm, r->comm_len, buf, sizeof(buf));
	list_flags(r, fl);
	if (bt && localtime_r(&end, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	/* Unknown (a file without the column) is '-', never root or 0. */
	if (rec_has(r, F_EXITCODE))
		snprintf(code, sizeof(code), "%" PRIu64, rec_get(r, F_EXITCODE));
	fprintf(out, "%-16s %-2s %-10s %8s %10.2f %10.2f  %s\n", buf, fl,
		rec_has(r, F_UID) ? stat_user_name(&users, (uint32_t)rec_get(r, F_UID))
		: "-", code,
		(double)(rec_get(r, F_UTIME) + rec_get(r, F_STIME)) / 1e6,
		(double)rec_get(r, F_ETIME) / 1e6, when);
}
