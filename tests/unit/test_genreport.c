// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of exitgen's report (src/genreport.c): cohort grouping on the
 * two published examples, the key list, JSON escaping, the summary file. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "genreport.h"

/* Six gtar processes on a 2-CPU FreeBSD 6.0 box finished in pairs. */
static void test_groups_pairs(void **state)
{
	const double t[] = { 233, 235, 264, 265, 279, 279 };
	char buf[64];

	(void)state;
	assert_int_equal(genreport_cohort_groups(t, 6, buf, sizeof(buf)), 3);
	assert_string_equal(buf, "2,2,2");
}

/* Nine dd processes on a 4-CPU box finished in threes. */
static void test_groups_threes(void **state)
{
	const double t[] = { 1.734, 1.738, 1.752, 3.263, 3.295, 3.350,
			     4.717, 4.851, 4.954 };
	char buf[64];

	(void)state;
	assert_int_equal(genreport_cohort_groups(t, 9, buf, sizeof(buf)), 3);
	assert_string_equal(buf, "3,3,3");
}

/* A fair finish: differences within noise are one group. */
static void test_groups_fair(void **state)
{
	const double t[] = { 0.848, 0.849, 0.850, 0.850 };
	char buf[64];

	(void)state;
	assert_int_equal(genreport_cohort_groups(t, 4, buf, sizeof(buf)), 1);
	assert_string_equal(buf, "4");
	assert_int_equal(genreport_cohort_groups(t, 1, buf, sizeof(buf)), 1);
	assert_string_equal(buf, "1");
	assert_int_equal(genreport_cohort_groups(t, 0, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
}

static void fill(struct spawn_config *cfg, struct spawn_result *res)
{
	memset(cfg, 0, sizeof(*cfg));
	memset(res, 0, sizeof(*res));
	cfg->shape = SHAPE_GROUP;
	cfg->group_threads = 3;
	cfg->rate = 1000;
	cfg->workers = 1;
	strcpy(cfg->tag, "a\"b\\c");
	hist_init(&res->late);
	hist_init(&res->reap);
	hist_add(&res->late, 2000);
	res->exits = 900;
	res->created = 900;
	res->elapsed = 1.0;		/* 900/s of 1000/s: saturated */
	res->self.ru_utime.tv_usec = 250000;
	res->children.ru_stime.tv_sec = 2;
	res->stopped_by = STOP_DURATION;
	res->cpu_self = 2000000;
	res->cpu_children = 250000999;
}

static void test_keys(void **state)
{
	struct spawn_config cfg;
	struct spawn_result res;
	struct replist l;
	char *groups;

	(void)state;
	fill(&cfg, &res);
	assert_int_equal(genreport_build(&l, &cfg, &res, &groups), 0);
	assert_null(groups);
	assert_string_equal(l.item[0].key, "exits");
	assert_int_equal(genreport_get(&l, "saturated")->u, 1);
	assert_string_equal(genreport_get(&l, "shape")->s, "group:3");
	assert_string_equal(genreport_get(&l, "stopped_by")->s, "duration");
	assert_true(genreport_get(&l, "user")->d == 0.25);
	assert_true(genreport_get(&l, "sys")->d == 2.0);
	assert_true(genreport_get(&l, "late_p50_us")->d == 2.0);
	assert_null(genreport_get(&l, "cohort_n"));
	/* The exact CPU: whole units, the total over the exits. */
	assert_int_equal(genreport_get(&l, "cpu_self")->u, 2000000);
	assert_int_equal(genreport_get(&l, "cpu_children")->u, 250000999);
	assert_int_equal(genreport_get(&l, "cpu_total")->u, 252000999);
	assert_true(fabs(genreport_get(&l, "cpu_per_exit")->d - 280001.11) < 1e-6);
	/* Stopped by a signal, the rate is not called saturated. */
	res.stopped_by = STOP_SIGNAL;
	assert_int_equal(genreport_build(&l, &cfg, &res, &groups), 0);
	assert_int_equal(genreport_get(&l, "saturated")->u, 0);
}

static void test_json_and_summary(void **state)
{
	struct spawn_config cfg;
	struct spawn_result res;
	struct replist l;
	char *groups, *text = NULL, path[] = "/tmp/test_genreport.XXXXXX";
	size_t len = 0;
	FILE *f;
	int fd;

	(void)state;
	fill(&cfg, &res);
	cfg.rate = 0;
	assert_int_equal(genreport_build(&l, &cfg, &res, &groups), 0);
	f = open_memstream(&text, &len);
	genreport_json(&l, f);
	fclose(f);
	assert_non_null(strstr(text, "{\"exits\":900,\"target_rate\":\"max\","));
	assert_non_null(strstr(text, "\"tag\":\"a\\\"b\\\\c\""));
	assert_string_equal(text + len - 2, "}\n");
	free(text);
	/* Through json_out: short escapes; an infinity is null, not the
	 * invalid "inf" (genreport_dbl already keeps NaN out). */
	genreport_str(&l, "ctl", "a\nb\x01");
	genreport_dbl(&l, "inf", INFINITY, 3);
	f = open_memstream(&text, &len);
	genreport_json(&l, f);
	fclose(f);
	assert_non_null(strstr(text, ",\"ctl\":\"a\\nb\\u0001\",\"inf\":null}\n"));
	free(text);

	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(genreport_summary(&l, path), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	text = calloc(1, 4096);
	assert_true(fread(text, 1, 4095, f) > 0);
	fclose(f);
	assert_true(strncmp(text, "exits=900\ntarget_rate=max\n", 26) == 0);
	assert_non_null(strstr(text, "\ntag=a\"b\\c\n"));
	free(text);
	unlink(path);
	assert_true(genreport_summary(&l, "/nonexistent/dir/x") < 0);
}

static char *text_of(const struct spawn_config *cfg, const struct spawn_result *res)
{
	struct replist l;
	char *groups, *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_int_equal(genreport_build(&l, cfg, res, &groups), 0);
	genreport_text(&l, cfg, res, f);
	fclose(f);
	free(groups);
	return text;
}

/* group:K counts groups and tasks; a cohort has no rate nor lateness;
 * --mmap is in the report. */
static void test_text(void **state)
{
	struct spawn_config cfg;
	struct spawn_result res;
	double finish[] = { 0.5, 0.6 };
	char *t;

	(void)state;
	fill(&cfg, &res);
	t = text_of(&cfg, &res);
	assert_non_null(strstr(t, "exitgen: 900 groups (2700 tasks), shape group:3"));
	assert_non_null(strstr(t, "  late  "));
	assert_null(strstr(t, "  mmap  "));
	free(t);
	cfg.rate = 0;
	t = text_of(&cfg, &res);
	assert_non_null(strstr(t, "  rate       900.0 groups/s (flat out)"));
	free(t);
	cfg.shape = SHAPE_PROCESS;
	cfg.cohort = 2;
	cfg.mmap_bytes = 1 << 20;
	res.cohort_finish = finish;
	res.cohort_n = 2;
	t = text_of(&cfg, &res);
	assert_non_null(strstr(t, "exitgen: 900 exits, shape process"));
	assert_null(strstr(t, "  rate  "));
	assert_null(strstr(t, "  late  "));
	assert_non_null(strstr(t, "  mmap       1048576 bytes (1.0 MiB)"));
	assert_non_null(strstr(t, "  cohort     first 0.500 s"));
	free(t);
}

/* The exact CPU is in ns, or in instructions under the instruction clock,
 * and then no figure of it says ns; none exited, none per exit. */
static void test_cpu_unit(void **state)
{
	struct spawn_config cfg;
	struct spawn_result res;
	struct replist l;
	char *groups, *t;

	(void)state;
	fill(&cfg, &res);
	unsetenv("EXITMON_CLOCK");
	assert_int_equal(genreport_build(&l, &cfg, &res, &groups), 0);
	assert_string_equal(genreport_get(&l, "cpu_unit")->s, "ns");
	t = text_of(&cfg, &res);
	assert_non_null(strstr(t, "  cpu total  252000999 ns (self 2000000 + "
			       "children 250000999), 280001.1 ns per exit\n"));
	free(t);
	setenv("EXITMON_CLOCK", "instructions", 1);
	assert_int_equal(genreport_build(&l, &cfg, &res, &groups), 0);
	assert_string_equal(genreport_get(&l, "cpu_unit")->s, "instr");
	t = text_of(&cfg, &res);
	assert_non_null(strstr(t, "  cpu total  252000999 instr (self 2000000 + "
			       "children 250000999), 280001.1 instr per exit\n"));
	assert_null(strstr(strstr(t, "  cpu total"), " ns"));
	free(t);
	unsetenv("EXITMON_CLOCK");
	res.exits = 0;
	assert_int_equal(genreport_build(&l, &cfg, &res, &groups), 0);
	assert_true(genreport_get(&l, "cpu_per_exit")->d == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_groups_pairs),
		cmocka_unit_test(test_groups_threes),
		cmocka_unit_test(test_groups_fair),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_json_and_summary),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_cpu_unit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
