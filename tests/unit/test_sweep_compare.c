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
			      "\"key\": \"k%d\", \"label\": \"L\", \"value\": %d}",
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
	};

	return cmocka_run_group_tests(tests, scratch_setup, scratch_teardown);
}
