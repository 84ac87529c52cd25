/* Side-by-side comparison of result files. */
#include "sweep_compare.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sweep_fmt.h"
#include "sweep_json.h"
#include "sweep_report.h"
#include "sweep_table.h"

#define MAX_FILES 26

struct row {
	char *section, *title, *key, *label, *unit;
	char *cell[MAX_FILES];
};

struct rows {
	struct row *r;
	size_t n, cap;
};

static const char *sget(struct json_object *o, const char *k)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, k, &v) || !json_object_is_type(v, json_type_string))
		return "";
	return json_object_get_string(v);
}

static double dget(struct json_object *o, const char *k)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, k, &v) ||
	    !(json_object_is_type(v, json_type_double) ||
	      json_object_is_type(v, json_type_int)))
		return NAN;
	return json_object_get_double(v);
}

/* -1 null/absent, 0 false, 1 true */
static int bget(struct json_object *o, const char *k)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, k, &v) || !json_object_is_type(v, json_type_boolean))
		return -1;
	return json_object_get_boolean(v);
}

static struct row *find_or_add(struct rows *rs, const char *section,
			       const char *title, const char *key,
			       const char *label, const char *unit)
{
	for (size_t i = 0; i < rs->n; i++)
		if (!strcmp(rs->r[i].section, section) && !strcmp(rs->r[i].key, key) &&
		    !strcmp(rs->r[i].label, label))
			return &rs->r[i];
	if (rs->n == rs->cap) {
		size_t cap = rs->cap ? rs->cap * 2 : 64;
		struct row *r = realloc(rs->r, cap * sizeof(*r));

		if (!r)
			return NULL;
		rs->r = r;
		rs->cap = cap;
	}
	memset(&rs->r[rs->n], 0, sizeof(rs->r[rs->n]));
	rs->r[rs->n].section = strdup(section);
	rs->r[rs->n].title = strdup(title);
	rs->r[rs->n].key = strdup(key);
	rs->r[rs->n].label = strdup(label);
	rs->r[rs->n].unit = strdup(unit);
	return &rs->r[rs->n++];
}

static void rows_free(struct rows *rs)
{
	for (size_t i = 0; i < rs->n; i++) {
		free(rs->r[i].section);
		free(rs->r[i].title);
		free(rs->r[i].key);
		free(rs->r[i].label);
		free(rs->r[i].unit);
		for (size_t j = 0; j < MAX_FILES; j++)
			free(rs->r[i].cell[j]);
	}
	free(rs->r);
}

static char *format_value(struct json_object *it)
{
	bool cost = !strncmp(sget(it, "section"), "cost:", 5);
	double v = dget(it, "value"), lo = dget(it, "lo"), hi = dget(it, "hi");
	const char *unit = sget(it, "unit");
	int sig = bget(it, "significant");
	char buf[96], a[32], b[32];

	/* a zero-width interval is no evidence, whatever the file says */
	if (bget(it, "excluded") == 1)
		snprintf(buf, sizeof(buf), "excluded*");
	else if (!strcmp(unit, "%"))
		sweep_fmt_pct_ci(buf, sizeof(buf), v, (hi - lo) / 2, !isnan(v) && !isnan(lo),
			   sig == 1 && hi > lo);
	else if (cost)
		sweep_fmt_diff(buf, sizeof(buf), v, (hi - lo) / 2, !isnan(v) && !isnan(lo),
			       sig == 1 && hi > lo);
	else if (isnan(v))
		snprintf(buf, sizeof(buf), "-");
	else if (!isnan(lo) && !isnan(hi))
		snprintf(buf, sizeof(buf), "%s ±%s", sweep_fmt_sig(a, sizeof(a), v, 4),
			 sweep_fmt_sig(b, sizeof(b), (hi - lo) / 2, 2));
	else if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, sizeof(buf), "%.0f", v);
	else
		sweep_fmt_sig(buf, sizeof(buf), v, 4);
	return strdup(buf);
}

/* "200 of 200" ("37 of 200, partial") and "10 x 5000": how much each
 * side measured. */
static void runs_cells(struct sweep_table *t, struct json_object *doc)
{
	struct json_object *cfg = NULL;
	double done = dget(doc, "runs_done"), planned = dget(doc, "runs_planned");

	if (isnan(done) || isnan(planned))
		sweep_table_cell(t, "-");
	else
		sweep_table_cell(t, "%.0f of %.0f%s", done, planned,
				 bget(doc, "partial") == 1 ? ", partial" : "");
	json_object_object_get_ex(doc, "config", &cfg);
	if (cfg)
		sweep_table_cell(t, "%.0f x %.0f", dget(cfg, "runs"), dget(cfg, "count"));
	else
		sweep_table_cell(t, "-");
}

/* The probe's own cost on that machine: a flat-out thread exit loop's
 * speed under the probe over its speed alone ("-": off, not measured, or
 * a file from before it was measured). */
static void probe_cost_cell(struct sweep_table *t, struct json_object *doc)
{
	struct json_object *cfg = NULL, *pc = NULL;
	double r = NAN;

	if (json_object_object_get_ex(doc, "config", &cfg) &&
	    json_object_object_get_ex(cfg, "probe_cost", &pc))
		r = dget(pc, "speed_ratio");
	if (isnan(r))
		sweep_table_cell(t, "-");
	else
		sweep_table_cell(t, "%.2f", r);
}

/* A file made under emulation (tools/kernel-run without KVM) says so
 * where its figures are read beside native ones. */
static void emulated_notes(FILE *out, struct json_object **doc, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct json_object *m, *v;
		const char *e;

		if (!json_object_object_get_ex(doc[i], "machine", &m) ||
		    !json_object_object_get_ex(m, "emulated", &v))
			continue;
		e = json_object_get_string(v);
		if (e && *e)
			fprintf(out, "\nWARNING: %c: " EMULATED_NOTE "\n",
				(char)('A' + i), e);
	}
}

static void machine_table(FILE *out, struct json_object **doc,
			  const char *const *files, size_t n)
{
	static const char *const keys[] = { "hostname", "kernel", "arch", "cpus",
		"cpu_model", "taskstats_version", "delayacct", "exitmon_version",
		"exitgen_version", "started", "emulated" };
	static const char *const heads[] = { "Host", "Kernel", "Arch", "CPUs",
		"CPU model", "taskstats", "Delayacct", "exitmon", "exitgen",
		"Started", "Emulated" };
	size_t nk = sizeof(keys) / sizeof(keys[0]);
	struct sweep_table *t = sweep_table_new(6 + nk);

	if (!t)
		return;
	fprintf(out, "Machines\n\n");
	sweep_table_row(t);
	sweep_table_cell(t, " ");
	sweep_table_cell(t, "File");
	sweep_table_cell(t, "Kind");
	sweep_table_cell(t, "Runs done");
	sweep_table_cell(t, "Per cell x count");
	sweep_table_cell(t, "Probe speed");
	for (size_t k = 0; k < nk; k++)
		sweep_table_cell(t, "%s", heads[k]);
	for (size_t i = 0; i < n; i++) {
		struct json_object *m;

		sweep_table_row(t);
		sweep_table_cell(t, "%c", (char)('A' + i));
		sweep_table_cell(t, "%s", files[i]);
		sweep_table_cell(t, "%s", sget(doc[i], "kind"));
		runs_cells(t, doc[i]);
		probe_cost_cell(t, doc[i]);
		json_object_object_get_ex(doc[i], "machine", &m);
		for (size_t k = 0; k < nk; k++) {
			struct json_object *v;

			if (m && json_object_object_get_ex(m, keys[k], &v))
				sweep_table_cell(t, "%s", json_object_get_string(v));
			else
				sweep_table_cell(t, "-");
		}
	}
	sweep_table_print(t, out, "  ");
	sweep_table_free(t);
	emulated_notes(out, doc, n);
}

static void section_tables(FILE *out, const struct rows *rs, size_t n)
{
	for (size_t i = 0; i < rs->n; i++) {
		const char *sec = rs->r[i].section;
		struct sweep_table *t;
		bool seen = false;

		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(rs->r[j].section, sec);
		if (seen)
			continue;
		t = sweep_table_new(2 + n);
		if (!t)
			return;
		fprintf(out, "\n%s\n\n", rs->r[i].title);
		sweep_table_row(t);
		sweep_table_cell(t, "Cell");
		sweep_table_cell(t, "Figure");
		for (size_t f = 0; f < n; f++) {
			sweep_table_cell(t, "%c", (char)('A' + f));
			sweep_table_right(t, 2 + f);
		}
		for (size_t j = i; j < rs->n; j++) {
			const struct row *r = &rs->r[j];

			if (strcmp(r->section, sec))
				continue;
			sweep_table_row(t);
			sweep_table_cell(t, "%s", r->key);
			if (r->unit[0] && strcmp(r->unit, "%") && strcmp(r->unit, "1/s"))
				sweep_table_cell(t, "%s %s", r->label, r->unit);
			else
				sweep_table_cell(t, "%s", r->label);
			for (size_t f = 0; f < n; f++)
				sweep_table_cell(t, "%s", r->cell[f] ? r->cell[f] : "-");
		}
		sweep_table_print(t, out, "  ");
		sweep_table_free(t);
	}
}

/* Read file i into doc[i]: a result file of the same kind as file 0. */
static int load(struct json_object **doc, const char *const *files, size_t i,
		struct json_object **sum, char *err, size_t errlen)
{
	int r = sweep_json_load(files[i], &doc[i], err, errlen);

	if (r < 0)
		return r;
	json_object_object_get_ex(doc[i], "summary", sum);
	if (i > 0 && strcmp(sget(doc[i], "kind"), sget(doc[0], "kind"))) {
		snprintf(err, errlen, "%s holds a sweep of kind %s but %s one of "
			 "kind %s: compare result files of one kind", files[0],
			 sget(doc[0], "kind"), files[i], sget(doc[i], "kind"));
		return -EINVAL;
	}
	return 0;
}

/* The summary items of file i into the rows, column i. */
static int add_items(struct rows *rs, struct json_object *sum, size_t i)
{
	for (size_t k = 0; k < json_object_array_length(sum); k++) {
		struct json_object *it = json_object_array_get_idx(sum, k);
		struct row *row;

		if (!json_object_is_type(it, json_type_object))
			continue;
		row = find_or_add(rs, sget(it, "section"), sget(it, "title"),
				  sget(it, "key"), sget(it, "label"), sget(it, "unit"));
		if (!row)
			return -ENOMEM;
		free(row->cell[i]);
		row->cell[i] = format_value(it);
	}
	return 0;
}

int sweep_compare_files(FILE *out, const char *const *files, size_t n, char *err,
		  size_t errlen)
{
	struct json_object *doc[MAX_FILES] = { 0 };
	struct rows rs = { 0 };
	int r = 0;

	if (n == 0 || n > MAX_FILES) {
		snprintf(err, errlen, "compare takes 1 to %d result files", MAX_FILES);
		return -EINVAL;
	}
	for (size_t i = 0; i < n; i++) {
		struct json_object *sum;

		r = load(doc, files, i, &sum, err, errlen);
		if (r < 0)
			goto out;
		r = add_items(&rs, sum, i);
		if (r < 0) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
	}
	machine_table(out, doc, files, n);
	section_tables(out, &rs, n);
	fprintf(out, "\n%s\nexcluded* = a cell whose exits met "
		"another program's listener.  Probe speed = a flat-out thread\n"
		"exit loop's speed under exitprobe over its speed alone (the "
		"probe's own cost).\n", REPORT_LEGEND);
	fflush(out);
out:
	rows_free(&rs);
	for (size_t i = 0; i < n; i++)
		json_object_put(doc[i]);
	return r;
}
