/* Side-by-side comparison of result files. */
#include "sweep_compare.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "sweep_fmt.h"
#include "sweep_json.h"
#include "sweep_metrics.h"
#include "sweep_report.h"
#include "sweep_table.h"

#define MAX_FILES SWEEP_COMPARE_MAX

/* Files of the instruction clock (all of them: compare refuses a mix). */
#define COMPARE_INSTR_NOTE "Every file counts guest instructions (kernel-run " \
	"--clock instructions): its instr figures\nare exact counts, comparable " \
	"with each other's and with no timing."
#define COMPARE_DELTA_LEGEND "X - A = file X's figure minus file A's, in " \
	"instructions; ± = the half widths of the two\n95% intervals (from " \
	"each side's repeats) combined, root of the sum of squares; ~ = the\n" \
	"difference is within it.  Repeats that agree exactly give ±0."

struct row {
	char *section, *title, *key, *label, *unit;
	char *cell[MAX_FILES];
	/* each file's figure and the half width of its interval (NAN: none),
	 * for the deltas between files in instructions */
	double value[MAX_FILES], half[MAX_FILES];
	size_t first;		/* the first row of its section */
};

/* The rows in the order first seen, with two hash indexes (open
 * addressing, slots hold row + 1, 0 empty): by (section, key, label) to
 * match a file's item to its row, by section to group them; a file of
 * 100,000 items is matched in linear time, not quadratic. */
struct rows {
	struct row *r;
	size_t n, cap;
	size_t *by_item, *by_section, slots;	/* slots: a power of two */
};

/* A string and its NUL, so that ("ab", "c") and ("a", "bc") differ. */
static uint64_t hash_str(uint64_t h, const char *s)
{
	return hash_bytes(h, s, strlen(s) + 1);
}

static uint64_t item_hash(const char *section, const char *key, const char *label)
{
	return hash_str(hash_str(hash_str(HASH_SEED, section), key), label);
}

static bool same_item(const struct row *r, const char *section, const char *key,
		      const char *label)
{
	return !strcmp(r->section, section) && !strcmp(r->key, key) &&
	       !strcmp(r->label, label);
}

/* The slot of row i in an index (0: by item, 1: by section). */
static size_t *slot_of(const struct rows *rs, int which, uint64_t h,
		       const struct row *want, const char *section,
		       const char *key, const char *label)
{
	size_t *tab = which ? rs->by_section : rs->by_item, i = h & (rs->slots - 1);

	for (;; i = (i + 1) & (rs->slots - 1)) {
		const struct row *r;

		if (!tab[i])
			return &tab[i];
		r = &rs->r[tab[i] - 1];
		if (r == want || (which ? !strcmp(r->section, section)
				  : same_item(r, section, key, label)))
			return &tab[i];
	}
}

/* Both indexes at twice the size (or the first); 0 or -ENOMEM. */
static int rows_rehash(struct rows *rs)
{
	size_t slots = rs->slots ? rs->slots * 2 : 256;
	size_t *a = calloc(slots, sizeof(*a)), *b = calloc(slots, sizeof(*b));

	if (!a || !b) {
		free(a);
		free(b);
		return -ENOMEM;
	}
	free(rs->by_item);
	free(rs->by_section);
	rs->by_item = a;
	rs->by_section = b;
	rs->slots = slots;
	for (size_t i = 0; i < rs->n; i++) {
		const struct row *r = &rs->r[i];
		size_t *s = slot_of(rs, 1, hash_str(7, r->section), NULL, r->section,
				    NULL, NULL);

		*slot_of(rs, 0, item_hash(r->section, r->key, r->label), r,
			 r->section, r->key, r->label) = i + 1;
		if (!*s)
			*s = r->first + 1;
	}
	return 0;
}

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
	size_t *item, *sec;
	struct row *r;

	if ((rs->n + 1) * 2 > rs->slots && rows_rehash(rs) < 0)
		return NULL;
	item = slot_of(rs, 0, item_hash(section, key, label), NULL, section,
		       key, label);
	if (*item)
		return &rs->r[*item - 1];
	if (rs->n == rs->cap) {
		size_t cap = rs->cap ? rs->cap * 2 : 64;
		struct row *nr = realloc(rs->r, cap * sizeof(*nr));

		if (!nr)
			return NULL;
		rs->r = nr;
		rs->cap = cap;
	}
	r = memset(&rs->r[rs->n], 0, sizeof(rs->r[rs->n]));
	for (size_t f = 0; f < MAX_FILES; f++)
		r->value[f] = r->half[f] = NAN;
	r->section = strdup(section);
	r->title = strdup(title);
	r->key = strdup(key);
	r->label = strdup(label);
	r->unit = strdup(unit);
	if (!r->section || !r->title || !r->key || !r->label || !r->unit) {
		rs->n++;	/* rows_free frees what was made */
		return NULL;
	}
	sec = slot_of(rs, 1, hash_str(7, section), NULL, section, NULL, NULL);
	if (!*sec)
		*sec = rs->n + 1;
	r->first = *sec - 1;
	*item = ++rs->n;
	return r;
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
	free(rs->by_item);
	free(rs->by_section);
}

static char *format_value(struct json_object *it)
{
	bool cost = !strncmp(sget(it, "section"), "cost:", 5);
	double v = dget(it, "value"), lo = dget(it, "lo"), hi = dget(it, "hi");
	const char *unit = sget(it, "unit");
	int sig = bget(it, "significant");
	char buf[96], a[32], b[32];

	/* a zero-width interval is no evidence of a time, whatever the file
	 * says; of an exact count of instructions it is: repeats that agree */
	bool exact = sweep_metrics_exact_name(sget(it, "metric"));

	if (bget(it, "excluded") == 1)
		snprintf(buf, sizeof(buf), "excluded*");
	else if (!strcmp(unit, "%"))
		sweep_fmt_pct_ci(buf, sizeof(buf), v, (hi - lo) / 2, !isnan(v) && !isnan(lo),
			   sig == 1 && (hi > lo || exact));
	else if (cost)
		sweep_fmt_diff(buf, sizeof(buf), v, (hi - lo) / 2, !isnan(v) && !isnan(lo),
			       sig == 1 && (hi > lo || exact));
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

/* Rows grouped by section, sections in the order first seen, rows in
 * theirs: by (first row of the section, row). */
static int by_section(const void *a, const void *b)
{
	const struct row *x = *(const struct row *const *)a;
	const struct row *y = *(const struct row *const *)b;

	if (x->first != y->first)
		return x->first < y->first ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* File f's figure of row r minus file A's, in instructions, with the
 * half widths of their intervals (from each side's repeats) combined as
 * the root of their squares' sum; "-" where a side has none. */
static void delta_cell(struct sweep_table *t, const struct row *r, size_t f)
{
	double d = r->value[f] - r->value[0];
	double h = hypot(r->half[f], r->half[0]);
	char buf[96], a[32];

	if (strcmp(r->unit, SWEEP_UNIT_INSTR) || isnan(d))
		sweep_table_cell(t, "-");
	else if (d == floor(d) && h == floor(h) && fabs(d) < 1e15)
		/* whole counts (modes) as whole counts: -6, not -6.00 */
		sweep_table_cell(t, "%+.0f ±%.0f%s", d, h, fabs(d) > h ? " " : "~");
	else if (isnan(h))
		sweep_table_cell(t, "%s%s", d < 0 ? "-" : "+",
				 sweep_fmt_sig(a, sizeof(a), fabs(d), 3));
	else
		sweep_table_cell(t, "%s", sweep_fmt_diff(buf, sizeof(buf), d, h, true,
							 fabs(d) > h));
}

static void section_table(FILE *out, struct row **r, size_t m, size_t n,
			  bool deltas)
{
	size_t nd = deltas ? n - 1 : 0;
	struct sweep_table *t = sweep_table_new(2 + n + nd);

	if (!t)
		return;
	fprintf(out, "\n%s\n\n", r[0]->title);
	sweep_table_row(t);
	sweep_table_cell(t, "Cell");
	sweep_table_cell(t, "Figure");
	for (size_t f = 0; f < n; f++) {
		sweep_table_cell(t, "%c", (char)('A' + f));
		sweep_table_right(t, 2 + f);
	}
	for (size_t f = 1; f <= nd; f++) {
		sweep_table_cell(t, "%c - A", (char)('A' + f));
		sweep_table_right(t, 1 + n + f);
	}
	for (size_t j = 0; j < m; j++) {
		sweep_table_row(t);
		sweep_table_cell(t, "%s", r[j]->key);
		if (r[j]->unit[0] && strcmp(r[j]->unit, "%") && strcmp(r[j]->unit, "1/s"))
			sweep_table_cell(t, "%s %s", r[j]->label, r[j]->unit);
		else
			sweep_table_cell(t, "%s", r[j]->label);
		for (size_t f = 0; f < n; f++)
			sweep_table_cell(t, "%s", r[j]->cell[f] ? r[j]->cell[f] : "-");
		for (size_t f = 1; f <= nd; f++)
			delta_cell(t, r[j], f);
	}
	sweep_table_print(t, out, "  ");
	sweep_table_free(t);
}

static void section_tables(FILE *out, const struct rows *rs, size_t n,
			   bool deltas)
{
	struct row **order = malloc((rs->n ? rs->n : 1) * sizeof(*order));
	size_t i, j;

	if (!order)
		return;
	for (i = 0; i < rs->n; i++)
		order[i] = &rs->r[i];
	qsort(order, rs->n, sizeof(*order), by_section);
	for (i = 0; i < rs->n; i = j) {
		for (j = i + 1; j < rs->n && order[j]->first == order[i]->first; j++)
			;
		section_table(out, order + i, j - i, n, deltas);
	}
	free(order);
}

/* A file's unit: what it says ("instr": the instruction clock, "ns"),
 * "ns" for a file from before the clock. */
static const char *file_unit(struct json_object *doc)
{
	const char *u = sget(doc, "unit");

	return *u ? u : SWEEP_UNIT_NS;
}

static const char *unit_words(const char *unit)
{
	return !strcmp(unit, SWEEP_UNIT_INSTR) ?
	       "counts instructions (made under kernel-run --clock instructions)" :
	       !strcmp(unit, SWEEP_UNIT_NS) ? "times in ns (the ordinary clock)" :
	       "has figures in an unknown unit";
}

/* Instructions are not time: one line naming which file is which. */
static void unit_refusal(const char *const *files, struct json_object **doc,
			 size_t i, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s %s but %s %s: instructions are not time; "
		 "compare result files of one clock", files[0],
		 unit_words(file_unit(doc[0])), files[i], unit_words(file_unit(doc[i])));
}

static int load(struct json_object **doc, const char *const *files, size_t i,
		struct json_object **sum, char *err, size_t errlen)
{
	int r = sweep_json_load(files[i], &doc[i], err, errlen);

	if (r < 0)
		return r;
	json_object_object_get_ex(doc[i], "summary", sum);
	if (i > 0 && strcmp(file_unit(doc[i]), file_unit(doc[0]))) {
		unit_refusal(files, doc, i, err, errlen);
		return -EINVAL;
	}
	if (i > 0 && strcmp(sget(doc[i], "kind"), sget(doc[0], "kind"))) {
		snprintf(err, errlen, "%s holds a sweep of kind %s but %s one of "
			 "kind %s: compare result files of one kind", files[0],
			 sget(doc[0], "kind"), files[i], sget(doc[i], "kind"));
		return -EINVAL;
	}
	return 0;
}

/* File i's figure of a row, for the deltas: none where it is excluded. */
static void keep_value(struct row *row, size_t i, struct json_object *it)
{
	double lo = dget(it, "lo"), hi = dget(it, "hi");

	if (bget(it, "excluded") == 1)
		return;
	row->value[i] = dget(it, "value");
	row->half[i] = isnan(lo) || isnan(hi) ? NAN : (hi - lo) / 2;
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
		keep_value(row, i, it);
	}
	return 0;
}

int sweep_compare_files(FILE *out, const char *const *files, size_t n, char *err,
		  size_t errlen)
{
	struct json_object *doc[MAX_FILES] = { 0 };
	struct rows rs = { 0 };
	bool deltas;
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
	deltas = n > 1 && !strcmp(file_unit(doc[0]), SWEEP_UNIT_INSTR);
	machine_table(out, doc, files, n);
	if (deltas)
		fprintf(out, "\n%s\n", COMPARE_INSTR_NOTE);
	section_tables(out, &rs, n, deltas);
	fprintf(out, "\n%s\nexcluded* = a cell whose exits met "
		"another program's listener.  Probe speed = a flat-out thread\n"
		"exit loop's speed under exitprobe over its speed alone (the "
		"probe's own cost).\n", REPORT_LEGEND);
	if (deltas)
		fprintf(out, "%s\n", COMPARE_DELTA_LEGEND);
	fflush(out);
out:
	rows_free(&rs);
	for (size_t i = 0; i < n; i++)
		json_object_put(doc[i]);
	return r;
}
