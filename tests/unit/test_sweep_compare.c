// SPDX-License-Identifier: GPL-2.0-or-later
/* compare: result files of several machines lined up cell by cell, and
 * what is no result file, or one of another kind, refused in one line. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "scratch.h"
#include "sweep_compare.h"
#include "sweep_json.h"
#include "sweepbuild.h"

static void test_compare(void **state)
{
	char pa[256], pb[256], pc[256], err[256], *buf = NULL;
	const char *files[2];
	size_t len = 0;
	FILE *f;

	(void)state;
	scratch_path(pa, sizeof(pa), "a.json");
	sb_write_result(sweep_json_write, pa, 1.5, NULL);
	/* a second machine where tgid costs more; compare lines them up */
	scratch_path(pb, sizeof(pb), "b.json");
	sb_write_result(sweep_json_write, pb, 2.0, "two");
	files[0] = pa;
	files[1] = pb;
	f = open_memstream(&buf, &len);
	assert_int_equal(sweep_compare_files(f, files, 2, err, sizeof(err)), 0);
	fclose(f);
	assert_non_null(strstr(buf, "box, \"one\""));
	assert_non_null(strstr(buf, "two"));
	/* sys: (1.505 - 1.005) / 1.005 = +49.75%, (2.005 - 1.005) / 1.005 = +99.50% */
	assert_non_null(strstr(buf, "rate=max listener=batch delayacct=keep"));
	assert_non_null(strstr(buf, "+49.75 ±"));
	assert_non_null(strstr(buf, "+99.50 ±"));
	free(buf);

	/* not a result file: a clear error */
	scratch_put("x.json", "{\"format\": \"other\"}");
	scratch_path(pc, sizeof(pc), "x.json");
	files[1] = pc;
	f = open_memstream(&buf, &len);
	assert_int_equal(sweep_compare_files(f, files, 2, err, sizeof(err)), -EBADMSG);
	fclose(f);
	free(buf);
	assert_non_null(strstr(err, "is not an exitsweep result file"));

	/* another kind: refused, naming both */
	scratch_put("r.json", "{\"format\": \"" SWEEP_JSON_FORMAT "\", \"kind\": \"reap\", "
		    "\"summary\": []}");
	scratch_path(pc, sizeof(pc), "r.json");
	f = open_memstream(&buf, &len);
	assert_int_equal(sweep_compare_files(f, files, 2, err, sizeof(err)), -EINVAL);
	fclose(f);
	free(buf);
	assert_non_null(strstr(err, "kind overhead but"));
	assert_non_null(strstr(err, "one of kind reap: compare result files of one kind"));

	/* an old file calling a zero-width interval significant: not shown so */
	scratch_put("z.json", "{\"format\": \"" SWEEP_JSON_FORMAT "\", \"kind\": "
		    "\"overhead\", \"runs_done\": 3, \"runs_planned\": 8, \"partial\": "
		    "true, \"summary\": [{\"section\": \"tgid\", \"title\": \"t\", "
		    "\"key\": \"k\", \"label\": \"User\", \"unit\": \"%\", \"value\": "
		    "-100, \"lo\": -100, \"hi\": -100, \"significant\": true}]}");
	scratch_path(pc, sizeof(pc), "z.json");
	files[0] = pc;
	f = open_memstream(&buf, &len);
	assert_int_equal(sweep_compare_files(f, files, 1, err, sizeof(err)), 0);
	fclose(f);
	assert_non_null(strstr(buf, "-100.0 ±0.0~"));
	assert_non_null(strstr(buf, "3 of 8, partial"));
	free(buf);
}

/* Many items: every row matched to its own (by section, key and label,
 * through the index), sections grouped in the order first seen. */
static void test_compare_many(void **state)
{
	enum { N = 20000 };
	char p[256], err[256], *buf = NULL, *text, *at;
	const char *files[2];
	size_t len = 0, cap = (size_t)N * 120 + 256;
	FILE *f;

	(void)state;
	text = at = malloc(cap);
	assert_non_null(text);
	at += sprintf(at, "{\"format\": \"" SWEEP_JSON_FORMAT "\", \"kind\": "
		      "\"overhead\", \"summary\": [");
	for (int i = 0; i < N; i++)
		at += sprintf(at, "%s{\"section\": \"s%d\", \"title\": \"T%d\", "
			      "\"key\": \"k%d\", \"label\": \"L\", \"unit\": \"\", \"value\": %d}",
			      i ? ", " : "", i % 3, i % 3, i, i);
	sprintf(at, "]}");
	scratch_put("many.json", text);
	free(text);
	scratch_path(p, sizeof(p), "many.json");
	files[0] = files[1] = p;
	f = open_memstream(&buf, &len);
	assert_int_equal(sweep_compare_files(f, files, 2, err, sizeof(err)), 0);
	fclose(f);
	/* T0's table first, with k0, k3, ... and both files' values */
	assert_true(strstr(buf, "\nT0\n") < strstr(buf, "\nT1\n"));
	assert_true(strstr(buf, "\nT1\n") < strstr(buf, "\nT2\n"));
	assert_non_null(strstr(buf, "  k19998  L       19998  19998\n"));
	assert_true(strstr(buf, "  k3 ") < strstr(buf, "\nT1\n"));
	free(buf);
}

/* compare on what is not a result file: one line naming the file, where
 * it stops being one and what it is instead -- never json-c's own words. */
static void compare_err(const char *name, const char *text, const char *why)
{
	const char *files[1];
	char p[256], err[1024];
	FILE *f;
	char *buf = NULL;
	size_t len = 0;

	scratch_put(name, text);
	scratch_path(p, sizeof(p), name);
	files[0] = p;
	f = open_memstream(&buf, &len);
	assert_int_equal(sweep_compare_files(f, files, 1, err, sizeof(err)), -EBADMSG);
	fclose(f);
	assert_int_equal(len, 0);	/* no table */
	free(buf);
	assert_non_null(strstr(err, p));
	assert_non_null(strstr(err, "is not an exitsweep result file"));
	if (!strstr(err, why))
		fail_msg("%s: \"%s\" lacks \"%s\"", name, err, why);
	assert_null(strstr(err, "json_tokener"));
	assert_null(strchr(err, '\n'));
}

/* A result file of one item in unit u ("" leaves the unit out, as files
 * from before it did): taskstats_exit's mean v with interval [lo, hi]. */
static void unit_file(char *path, size_t len, const char *name, const char *u,
		      double v, double lo, double hi)
{
	char text[1024];

	snprintf(text, sizeof(text), "{\"format\": \"" SWEEP_JSON_FORMAT "\", "
		 "\"kind\": \"overhead\"%s%s%s, \"summary\": [{\"section\": "
		 "\"means\", \"title\": \"Means per cell\", \"key\": \"tgid=on\", "
		 "\"label\": \"taskstats_exit\", \"unit\": \"%s\", \"value\": %g, "
		 "\"lo\": %g, \"hi\": %g}]}", *u ? ", \"unit\": \"" : "", u,
		 *u ? "\"" : "", *u ? u : "ns", v, lo, hi);
	scratch_put(name, text);
	scratch_path(path, len, name);
}

static int compare2(const char *a, const char *b, char **buf, char *err,
		    size_t errlen)
{
	const char *files[2] = { a, b };
	size_t len = 0;
	FILE *f = open_memstream(buf, &len);
	int r = sweep_compare_files(f, files, 2, err, errlen);

	fclose(f);
	return r;
}

/* Instructions are not time: a file in instr beside one in ns (or one
 * that says no unit) is refused, naming which is which; two in instr get
 * B - A with the intervals' half widths combined. */
static void test_compare_units(void **state)
{
	char pi[256], pj[256], pn[256], po[256], err[512], *buf = NULL;

	(void)state;
	unit_file(pi, sizeof(pi), "i.json", "instr", 479, 479, 479);
	unit_file(pj, sizeof(pj), "j.json", "instr", 589, 586, 592);
	unit_file(pn, sizeof(pn), "n.json", "ns", 612, 600, 624);
	unit_file(po, sizeof(po), "o.json", "", 612, 600, 624);

	assert_int_equal(compare2(pi, pn, &buf, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "i.json counts instructions (made under "
			       "kernel-run --clock instructions) but "));
	assert_non_null(strstr(err, "n.json times in ns (the ordinary clock): "
			       "instructions are not time; compare result files "
			       "of one clock"));
	assert_null(strchr(err, '\n'));
	assert_true(buf == NULL || buf[0] == '\0');
	free(buf);
	buf = NULL;
	assert_int_equal(compare2(po, pi, &buf, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "o.json times in ns"));
	assert_non_null(strstr(err, "but "));
	assert_non_null(strstr(err, "i.json counts instructions"));
	free(buf);
	buf = NULL;

	/* ns beside a file of no unit: both ns, no deltas */
	assert_int_equal(compare2(pn, po, &buf, err, sizeof(err)), 0);
	assert_null(strstr(buf, "B - A"));
	free(buf);
	buf = NULL;

	/* 589 - 479 = +110, ± sqrt(0^2 + 3^2) = 3 */
	assert_int_equal(compare2(pi, pj, &buf, err, sizeof(err)), 0);
	assert_non_null(strstr(buf, "B - A"));
	assert_non_null(strstr(buf, "taskstats_exit instr"));
	assert_non_null(strstr(buf, "+110 ±3"));
	assert_null(strstr(buf, "+110 ±3~"));
	free(buf);
}

/* A file of one taskstats_exit item whose "unit" member is the JSON text
 * unit (NULL: none), in a file of clock funit ("" says none), with doc
 * the rest of the document's members (a leading comma each). */
static void item_file(char *path, size_t len, const char *name,
		      const char *funit, const char *unit, const char *fig,
		      const char *doc)
{
	char text[2048];

	snprintf(text, sizeof(text), "{\"format\": \"" SWEEP_JSON_FORMAT "\", "
		 "\"kind\": \"overhead\"%s%s%s%s, \"summary\": [{\"section\": "
		 "\"means\", \"title\": \"Means per cell\", \"key\": \"tgid=on\", "
		 "\"label\": \"taskstats_exit\"%s%s, %s}]}", *funit ? ", \"unit\": \"" : "",
		 funit, *funit ? "\"" : "", doc, unit ? ", \"unit\": " : "",
		 unit ? unit : "", fig);
	scratch_put(name, text);
	scratch_path(path, len, name);
}

static char *compare1(const char *a, int want, char *err, size_t errlen)
{
	const char *files[1] = { a };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_int_equal(sweep_compare_files(f, files, 1, err, errlen), want);
	fclose(f);
	return buf;
}

static size_t count_of(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* Each item in its own unit: a time converted into its row's unit (0.0405
 * ms in a us row is 40.5), an item of no unit exitsweep writes (absent,
 * null, 5, "min"), of another kind than its row, or of the other clock
 * than its file, refused in one line naming file and item. */
static void test_compare_item_units(void **state)
{
	char pa[256], pb[256], err[512], *buf = NULL;
	static const char *const bad[] = { NULL, "null", "5", "\"min\"" };
	/* file unit, item unit, more of the file, the refusal */
	static const char *const refused[][4] = {
		{ "ns", "\"instr\"", "", "f.json: summary item 1 (taskstats_exit) "
		  "counts instructions in a file of times" },
		{ "", "\"instr\"", "", "counts instructions in a file of times" },
		{ "instr", "\"ns\"", "", "f.json: summary item 1 (taskstats_exit) "
		  "is a time in a file of instructions" },
		{ "", "\"us\"", ", \"unit\": 5", "f.json: its unit is not \"ns\" or \"instr\"" },
		{ "", "\"us\"", ", \"unit\": null", "f.json: its unit is not \"ns\" or \"instr\"" },
		{ "ms", "\"us\"", "", "f.json: its unit is not \"ns\" or \"instr\"" },
	};

	(void)state;
	item_file(pa, sizeof(pa), "us.json", "ns", "\"us\"",
		  "\"value\": 40.5, \"lo\": 40, \"hi\": 41", "");
	item_file(pb, sizeof(pb), "ms.json", "ns", "\"ms\"",
		  "\"value\": 0.0405, \"lo\": 0.040, \"hi\": 0.041", "");
	assert_int_equal(compare2(pa, pb, &buf, err, sizeof(err)), 0);
	assert_int_equal(count_of(buf, "40.50 ±0.50"), 2);
	assert_null(strstr(buf, "0.0405"));
	assert_non_null(strstr(buf, "taskstats_exit us"));
	free(buf);
	buf = NULL;
	/* and the other way round: the row is in ms */
	assert_int_equal(compare2(pb, pa, &buf, err, sizeof(err)), 0);
	assert_int_equal(count_of(buf, "0.04050 ±0.00050"), 2);
	free(buf);
	buf = NULL;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		item_file(pb, sizeof(pb), "bad.json", "ns", bad[i],
			  "\"value\": 40.5", "");
		assert_int_equal(compare2(pa, pb, &buf, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "bad.json: summary item 1 (taskstats_exit) "
				       "has no unit exitsweep writes"));
		assert_null(strchr(err, '\n'));
		free(buf);
		buf = NULL;
		/* first or alone alike */
		free(compare1(pb, -EINVAL, err, sizeof(err)));
	}
	/* another kind in the same row */
	item_file(pb, sizeof(pb), "pct.json", "ns", "\"%\"", "\"value\": 3", "");
	assert_int_equal(compare2(pa, pb, &buf, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "pct.json: summary item 1 (taskstats_exit) is "
			       "in \"%\" where the first file has it in \"us\""));
	free(buf);
	buf = NULL;
	/* instructions inside a file of times, and times inside one of
	 * instructions: never compared; a file's own unit, where it says
	 * one, is a clock */
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		item_file(pb, sizeof(pb), "f.json", refused[i][0], refused[i][1],
			  "\"value\": 479", refused[i][2]);
		free(compare1(pb, -EINVAL, err, sizeof(err)));
		if (!strstr(err, refused[i][3]))
			fail_msg("case %zu: \"%s\" lacks \"%s\"", i, err, refused[i][3]);
	}
}

/* Counts bounded and checked, and no NaN or infinity ever printed: a
 * scale that overflows, an interval wider than a double, a config
 * without its runs. */
static void test_compare_counts(void **state)
{
	static const char *const bad[][2] = {
		{ ", \"runs_done\": 1e300, \"runs_planned\": 8", "its runs_done is not" },
		{ ", \"runs_done\": 3, \"runs_planned\": -5", "its runs_planned is not" },
		{ ", \"runs_done\": 2.5, \"runs_planned\": 8", "its runs_done is not" },
		{ ", \"runs_done\": \"3\", \"runs_planned\": 8", "its runs_done is not" },
		{ ", \"runs_done\": 9, \"runs_planned\": 8", "it says 9 runs done of 8 planned" },
		{ ", \"config\": {\"runs\": -1, \"count\": 5}", "its config's runs is not" },
		{ ", \"config\": {\"runs\": 1, \"count\": 1e13}", "its config's count is not" },
		{ ", \"config\": {\"probe_cost\": {\"speed_ratio\": 1e300}}",
		  "its probe_cost's speed_ratio is not a ratio above 0" },
		{ ", \"config\": {\"probe_cost\": {\"speed_ratio\": 0}}",
		  "its probe_cost's speed_ratio is not a ratio above 0" },
	};
	char p[256], err[512], *buf;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		item_file(p, sizeof(p), "c.json", "ns", "\"us\"", "\"value\": 1", bad[i][0]);
		free(compare1(p, -EINVAL, err, sizeof(err)));
		if (!strstr(err, bad[i][1]))
			fail_msg("%s: \"%s\" lacks \"%s\"", bad[i][0], err, bad[i][1]);
		assert_non_null(strstr(err, "c.json: "));
	}
	/* a config without runs, seconds that overflow as ns, an interval
	 * of infinite width: "-", never nan or inf */
	item_file(p, sizeof(p), "n.json", "ns", "\"s\"",
		  "\"value\": 1e300, \"lo\": -1e308, \"hi\": 1e308",
		  ", \"runs_done\": 0, \"runs_planned\": 0, \"config\": {\"count\": 5}");
	buf = compare1(p, 0, err, sizeof(err));
	assert_null(strstr(buf, "nan"));
	assert_null(strstr(buf, "inf"));
	assert_non_null(strstr(buf, "0 of 0"));
	free(buf);
	item_file(p, sizeof(p), "n.json", "ns", "\"%\"",
		  "\"value\": 1e300, \"lo\": -1e308, \"hi\": 1e308", "");
	buf = compare1(p, 0, err, sizeof(err));
	assert_null(strstr(buf, "nan"));
	assert_null(strstr(buf, "inf"));
	free(buf);
}

/* Nothing read from a file reaches the terminal raw: ESC, BEL, newlines
 * in titles, keys, labels, the machine's values and the emulation
 * warning are escaped, and the refusal of another kind too. */
static void test_compare_controls(void **state)
{
	char p[256], q[256], err[512], *buf;

	(void)state;
	scratch_put("esc.json", "{\"format\": \"" SWEEP_JSON_FORMAT "\", \"kind\": "
		    "\"overhead\", \"machine\": {\"hostname\": \"h\\u001b[2J\", "
		    "\"emulated\": \"tcg\\nWARNING: forged\\u0007\"}, \"summary\": "
		    "[{\"section\": \"s\", \"title\": \"T\\u001b]0;x\\u0007\\nforged\", "
		    "\"key\": \"k\\r\", \"label\": \"L\\u009b\", \"unit\": \"\", "
		    "\"value\": 1}]}");
	scratch_path(p, sizeof(p), "esc.json");
	buf = compare1(p, 0, err, sizeof(err));
	assert_null(strchr(buf, '\x1b'));
	assert_null(strchr(buf, '\x07'));
	assert_null(strchr(buf, '\r'));
	assert_null(strstr(buf, "\xc2\x9b"));
	assert_null(strstr(buf, "\nforged"));
	assert_null(strstr(buf, "\nWARNING: forged"));
	assert_non_null(strstr(buf, "h\\x1b[2J"));
	assert_non_null(strstr(buf, "T\\x1b]0;x\\x07\\x0aforged"));
	assert_non_null(strstr(buf, "tcg\\x0aWARNING: forged\\x07"));
	assert_non_null(strstr(buf, "k\\x0d"));
	assert_non_null(strstr(buf, "L\\xc2\\x9b"));
	free(buf);
	/* a kind of another name, in the one-line refusal */
	scratch_put("k.json", "{\"format\": \"" SWEEP_JSON_FORMAT "\", \"kind\": "
		    "\"re\\nap\\u001b\", \"summary\": []}");
	scratch_path(q, sizeof(q), "k.json");
	buf = NULL;
	assert_int_equal(compare2(p, q, &buf, err, sizeof(err)), -EINVAL);
	free(buf);
	assert_null(strchr(err, '\n'));
	assert_null(strchr(err, '\x1b'));
	assert_non_null(strstr(err, "kind re\\x0aap\\x1b"));
}

static void test_compare_not_result(void **state)
{
	(void)state;
	compare_err("empty.json", "", "it is empty");
	compare_err("blank.json", " \n\n", "it is empty");
	compare_err("cut.json", "{\n  \"format\": \"exitsweep/1\",\n  \"summ",
		    "ends early, at line 3, column 8");
	compare_err("runs.csv", "row,kind,cell\nrun,overhead,1\n",
		    "not JSON at line 1, column 1 ('r')");
	compare_err("bool.csv", "true,false\n", "more follows its JSON, at line 1, column 5");
	compare_err("f.csv", "format,x\n", "not JSON at line 1, column 1 ('f')");
	compare_err("two.json", "{}\n{}\n", "more follows its JSON, at line 2, column 1");
	compare_err("arr.json", "[1, 2]", "without a \"format\" member");
	/* valid JSON, but deeper than json-c reads: said as such */
	compare_err("deep.json", "{\"x\": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}",
		    "nests deeper than 32 levels, at line 1, column");
	/* numbers exitsweep never writes: refused, not shown as inf or 2^64 */
	compare_err("nan.json", "{\"format\": \"" SWEEP_JSON_FORMAT "\", \"summary\": "
		    "[{\"value\": NaN}]}", "a number exitsweep never writes");
	compare_err("inf.json", "{\"format\": \"" SWEEP_JSON_FORMAT "\", \"summary\": "
		    "[], \"x\": -Infinity}", "a number exitsweep never writes");
	compare_err("e400.json", "{\"format\": \"" SWEEP_JSON_FORMAT "\", \"summary\": "
		    "[{\"lo\": 1e400}]}", "a number exitsweep never writes");
	compare_err("big.json", "{\"format\": \"" SWEEP_JSON_FORMAT "\", \"summary\": "
		    "[{\"value\": 123000000000000000000000000000}]}",
		    "a number exitsweep never writes");
	/* /dev/zero (or any file past the cap) is refused, not read whole */
	{
		const char *files[1] = { "/dev/zero" };
		char err[1024];
		FILE *f = fopen("/dev/null", "w");

		assert_int_equal(sweep_compare_files(f, files, 1, err, sizeof(err)),
				 -EFBIG);
		fclose(f);
		assert_non_null(strstr(err, "larger than 64 MiB"));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_compare_not_result),
		cmocka_unit_test(test_compare_units),
		cmocka_unit_test(test_compare_many),
		cmocka_unit_test(test_compare_item_units),
		cmocka_unit_test(test_compare_counts),
		cmocka_unit_test(test_compare_controls),
	};

	return cmocka_run_group_tests(tests, scratch_setup, scratch_teardown);
}
