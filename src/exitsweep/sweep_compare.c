// SPDX-License-Identifier: GPL-2.0-or-later
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

/* An item's figure in its row's unit: NAN where the file has none or
 * where it is no finite number (a scale can overflow). */
struct fig {
	double v, lo, hi;
};

/* The half width of [lo, hi], NAN where it is none or not finite. */
static double half_of(const struct fig *g)
{
	double h = (g->hi - g->lo) / 2;

	return isfinite(h) ? h : NAN;
}

static char *format_value(struct json_object *it, const char *unit,
			  const struct fig *g)
{
	bool cost = !strncmp(sget(it, "section"), "cost:", 5);
	double v = g->v, half = half_of(g);
	bool ok = isfinite(v) && !isnan(half);
	int sig = bget(it, "significant");
	char buf[96], a[32], b[32];

	/* a zero-width interval is no evidence of a time, whatever the file
	 * says; of an exact count of instructions it is: repeats that agree */
	bool exact = sweep_metrics_exact_name(sget(it, "metric"));

	if (bget(it, "excluded") == 1)
		snprintf(buf, sizeof(buf), "excluded*");
	else if (!strcmp(unit, "%"))
		sweep_fmt_pct_ci(buf, sizeof(buf), v, half, ok,
				 sig == 1 && (half > 0 || exact));
	else if (cost)
		sweep_fmt_diff(buf, sizeof(buf), v, half, ok,
			       sig == 1 && (half > 0 || exact));
	else if (!isfinite(v))
		snprintf(buf, sizeof(buf), "-");
	else if (ok)
		snprintf(buf, sizeof(buf), "%s ±%s", sweep_fmt_sig(a, sizeof(a), v, 4),
			 sweep_fmt_sig(b, sizeof(b), half, 2));
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

	double runs = NAN, count = NAN;

	/* counts were checked on loading (compare_counts): whole, bounded */
	if (isnan(done) || isnan(planned))
		sweep_table_cell(t, "-");
	else
		sweep_table_cell(t, "%.0f of %.0f%s", done, planned,
				 bget(doc, "partial") == 1 ? ", partial" : "");
	if (json_object_object_get_ex(doc, "config", &cfg)) {
		runs = dget(cfg, "runs");
		count = dget(cfg, "count");
	}
	if (isnan(runs) || isnan(count))
		sweep_table_cell(t, "-");
	else
		sweep_table_cell(t, "%.0f x %.0f", runs, count);
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
		if (e && *e) {
			char *c = sweep_fmt_clean(e);

			fprintf(out, "\nWARNING: %c: " EMULATED_NOTE "\n",
				(char)('A' + i), c ? c : "?");
			free(c);
		}
	}
}

/* A string read from a file as a cell, its control characters escaped. */
static void clean_cell(struct sweep_table *t, const char *s)
{
	char *c = sweep_fmt_clean(s ? s : "");

	sweep_table_cell(t, "%s", c ? c : "?");
	free(c);
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
		clean_cell(t, files[i]);
		clean_cell(t, sget(doc[i], "kind"));
		runs_cells(t, doc[i]);
		probe_cost_cell(t, doc[i]);
		json_object_object_get_ex(doc[i], "machine", &m);
		for (size_t k = 0; k < nk; k++) {
			struct json_object *v;

			if (m && json_object_object_get_ex(m, keys[k], &v))
				clean_cell(t, json_object_get_string(v));
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

	if (!isfinite(h))
		h = NAN;
	if (strcmp(r->unit, SWEEP_UNIT_INSTR) || !isfinite(d))
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

/* A file's "unit", where present, is one of the clocks: null, 5 or "ms"
 * is not taken for ns (only its absence is, in a file from before the
 * clock). */
static bool clock_ok(struct json_object *doc)
{
	struct json_object *u;
	const char *s;

	if (!json_object_object_get_ex(doc, "unit", &u))
		return true;
	if (!json_object_is_type(u, json_type_string))
		return false;
	s = json_object_get_string(u);
	return !strcmp(s, SWEEP_UNIT_NS) || !strcmp(s, SWEEP_UNIT_INSTR);
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

/* The largest count a result file may hold (runs, exits per run): far
 * above any sweep's, short enough to print. */
#define COUNT_MAX 1e12
/* A probe's speed ratio: its speed under the probe over its speed alone. */
#define RATIO_MAX 1000.0

/* Whether member k of o, where present (and not null), is a number in
 * [lo, hi] (whole: a count); its value in *v (NAN: absent). */
static bool number_ok(struct json_object *o, const char *k, double lo,
		      double hi, bool whole, double *v)
{
	struct json_object *x;

	*v = NAN;
	if (!o || !json_object_object_get_ex(o, k, &x) || !x)
		return true;
	*v = dget(o, k);
	return !isnan(*v) && *v >= lo && *v <= hi && (!whole || *v == floor(*v));
}

/* The counts and the ratio the machine table prints, each checked: a
 * file that says runs_done -5, 1e300 or "x" is not exitsweep's. */
static int check_counts(struct json_object *doc, const char *file, char *err,
			size_t errlen)
{
	struct json_object *cfg = NULL, *pc = NULL;
	double done, planned, x;
	const char *bad = NULL;

	json_object_object_get_ex(doc, "config", &cfg);
	if (cfg)
		json_object_object_get_ex(cfg, "probe_cost", &pc);
	if (!number_ok(doc, "runs_done", 0, COUNT_MAX, true, &done))
		bad = "runs_done";
	else if (!number_ok(doc, "runs_planned", 0, COUNT_MAX, true, &planned))
		bad = "runs_planned";
	else if (!number_ok(cfg, "runs", 0, COUNT_MAX, true, &x))
		bad = "config's runs";
	else if (!number_ok(cfg, "count", 0, COUNT_MAX, true, &x))
		bad = "config's count";
	else if (!number_ok(pc, "speed_ratio", 0, RATIO_MAX, false, &x) || x == 0)
		bad = "probe_cost's speed_ratio";
	if (bad) {
		snprintf(err, errlen, "%s: its %s is not %s", file, bad,
			 strstr(bad, "ratio") ? "a ratio above 0 and up to 1000" :
			 "a whole number of 0 to 10^12");
		return -EINVAL;
	}
	if (!isnan(done) && !isnan(planned) && done > planned) {
		snprintf(err, errlen, "%s: it says %.0f runs done of %.0f planned",
			 file, done, planned);
		return -EINVAL;
	}
	return 0;
}

static int load(struct json_object **doc, const char *const *files, size_t i,
		struct json_object **sum, char *err, size_t errlen)
{
	int r = sweep_json_load(files[i], &doc[i], err, errlen);

	if (r < 0)
		return r;
	json_object_object_get_ex(doc[i], "summary", sum);
	if (!clock_ok(doc[i])) {
		snprintf(err, errlen, "%s: its unit is not \"ns\" or \"instr\" "
			 "(the clock exitsweep measured on)", files[i]);
		return -EINVAL;
	}
	if (i > 0 && strcmp(file_unit(doc[i]), file_unit(doc[0]))) {
		unit_refusal(files, doc, i, err, errlen);
		return -EINVAL;
	}
	if (i > 0 && strcmp(sget(doc[i], "kind"), sget(doc[0], "kind"))) {
		char *a = sweep_fmt_clean(sget(doc[0], "kind"));
		char *b = sweep_fmt_clean(sget(doc[i], "kind"));

		snprintf(err, errlen, "%s holds a sweep of kind %s but %s one of "
			 "kind %s: compare result files of one kind", files[0],
			 a ? a : "?", files[i], b ? b : "?");
		free(a);
		free(b);
		return -EINVAL;
	}
	return check_counts(doc[i], files[i], err, errlen);
}

/* File i's figure of a row, for the deltas: none where it is excluded. */
static void keep_value(struct row *row, size_t i, struct json_object *it,
		       const struct fig *g)
{
	if (bget(it, "excluded") == 1)
		return;
	row->value[i] = isfinite(g->v) ? g->v : NAN;
	row->half[i] = half_of(g);
}

/* The units an item may be in, by kind; a time's in ns. */
enum unit_kind { U_TIME, U_INSTR, U_RATE, U_PCT, U_COUNT };
static const struct unit {
	const char *name;
	enum unit_kind kind;
	double ns;
} units[] = {
	{ "s", U_TIME, 1e9 }, { "ms", U_TIME, 1e6 }, { "us", U_TIME, 1e3 },
	{ "ns", U_TIME, 1 }, { SWEEP_UNIT_INSTR, U_INSTR, 1 },
	{ "1/s", U_RATE, 1 }, { "%", U_PCT, 1 }, { "", U_COUNT, 1 },
};

static const struct unit *unit_named(const char *name)
{
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(units[i].name, name))
			return &units[i];
	return NULL;
}

/* An item's unit: a string exitsweep writes (absent, null, 5 or "min"
 * are none: a figure of no known unit is never shown as if in ns). */
static const struct unit *item_unit(struct json_object *it)
{
	struct json_object *u;

	if (!json_object_object_get_ex(it, "unit", &u) ||
	    !json_object_is_type(u, json_type_string))
		return NULL;
	return unit_named(json_object_get_string(u));
}

/* Where file's item k (label) cannot be compared: err says why. */
static int item_refusal(char *err, size_t errlen, const char *file, size_t k,
			struct json_object *it, const char *why)
{
	char *label = sweep_fmt_clean(sget(it, "label"));

	snprintf(err, errlen, "%s: summary item %zu (%s) %s", file, k + 1,
		 label ? label : "?", why);
	free(label);
	return -EINVAL;
}

/* The scale from item unit u into its row's unit (1 for a new row), or
 * an error: of another kind than the row, or of another clock than the
 * file (instructions are never compared with time). */
static int unit_scale(struct row *row, const struct unit *u, bool instr_file,
		      struct json_object *it, const char *file, size_t k,
		      double *scale, char *err, size_t errlen)
{
	const struct unit *ru = unit_named(row->unit);
	char why[160];

	if (!u)
		return item_refusal(err, errlen, file, k, it, "has no unit "
				    "exitsweep writes (s, ms, us, ns, instr, 1/s, "
				    "%, or none as \"\")");
	if ((u->kind == U_INSTR && !instr_file) || (u->kind == U_TIME && instr_file))
		return item_refusal(err, errlen, file, k, it, u->kind == U_INSTR ?
				    "counts instructions in a file of times: "
				    "instructions are not time" :
				    "is a time in a file of instructions: "
				    "instructions are not time");
	if (!ru || ru->kind != u->kind) {
		snprintf(why, sizeof(why), "is in \"%s\" where the first file "
			 "has it in \"%s\": figures of another kind", u->name,
			 row->unit);
		return item_refusal(err, errlen, file, k, it, why);
	}
	*scale = u->ns / ru->ns;
	return 0;
}

/* Item it's figure, scaled into its row's unit. */
static struct fig item_fig(struct json_object *it, double scale)
{
	struct fig g = { dget(it, "value") * scale, dget(it, "lo") * scale,
			 dget(it, "hi") * scale };

	if (!isfinite(g.lo) || !isfinite(g.hi))
		g.lo = g.hi = NAN;
	return g;
}

/* The row of item it, found or added, its strings as a terminal may
 * show them (cleaning is one to one, so rows match as the raw strings
 * would). */
static struct row *row_of(struct rows *rs, struct json_object *it,
			  const struct unit *u)
{
	char *c[4] = { sweep_fmt_clean(sget(it, "section")),
		       sweep_fmt_clean(sget(it, "title")),
		       sweep_fmt_clean(sget(it, "key")),
		       sweep_fmt_clean(sget(it, "label")) };
	struct row *row = NULL;

	if (c[0] && c[1] && c[2] && c[3])
		row = find_or_add(rs, c[0], c[1], c[2], c[3], u ? u->name : "");
	for (size_t i = 0; i < 4; i++)
		free(c[i]);
	return row;
}

/* The summary items of file i into the rows, column i: -ENOMEM, or
 * -EINVAL with err set (an item of no known unit, or of another kind). */
static int add_items(struct rows *rs, struct json_object *sum, size_t i,
		     const char *file, bool instr_file, char *err, size_t errlen)
{
	for (size_t k = 0; k < json_object_array_length(sum); k++) {
		struct json_object *it = json_object_array_get_idx(sum, k);
		const struct unit *u;
		struct row *row;
		double scale = 1;
		struct fig g;
		int r;

		if (!json_object_is_type(it, json_type_object))
			continue;
		u = item_unit(it);
		row = row_of(rs, it, u);
		if (!row) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		r = unit_scale(row, u, instr_file, it, file, k, &scale, err, errlen);
		if (r < 0)
			return r;
		g = item_fig(it, scale);
		free(row->cell[i]);
		row->cell[i] = format_value(it, row->unit, &g);
		keep_value(row, i, it, &g);
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
		r = add_items(&rs, sum, i, files[i],
			      !strcmp(file_unit(doc[i]), SWEEP_UNIT_INSTR), err, errlen);
		if (r < 0)
			goto out;
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
