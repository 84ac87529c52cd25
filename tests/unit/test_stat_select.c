// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of exitstat's record selection (src/exitstat/stat_select.c):
 * exit code and signal filters, the exit-time window, tgid rows judged on
 * their pid row, and the time syntax. */
#include <setjmp.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "recbuild.h"
#include "stat_select.h"

static struct exit_record pid_rec(const char *comm, uint64_t exitcode)
{
	struct exit_record r = rb_pid(comm, 10);

	rec_set(&r, F_EXITCODE, exitcode);
	rec_set(&r, F_UID, 1000);
	rec_set(&r, F_BTIME64, 1000);
	rec_set(&r, F_ETIME, 5500000);	/* exits at 1005 */
	return r;
}

static void test_filters(void **state)
{
	struct select s;
	struct exit_record a = pid_rec("make", 0), k = pid_rec("make", 9),
			   e = pid_rec("make", 256), tg;

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_true(stat_select_match(&s, &a, &a));
	s.signalled = true;
	assert_false(stat_select_match(&s, &a, &a));
	assert_true(stat_select_match(&s, &k, &k));
	assert_false(stat_select_match(&s, &e, &e));	/* exit(1), not a signal */
	memset(&s, 0, sizeof(s));
	s.by_exitcode = true;
	s.exitcode = 256;
	assert_true(stat_select_match(&s, &e, &e));
	assert_false(stat_select_match(&s, &a, &a));
	/* A tgid row (no comm, no uid) is judged on its pid row. */
	memset(&tg, 0, sizeof(tg));
	tg.type = REC_TGID;
	tg.id = 10;
	memset(&s, 0, sizeof(s));
	s.f.comm_glob = "ma*";
	s.f.by_uid = true;
	s.f.uid = 1000;
	assert_true(stat_select_match(&s, &tg, &a));
	assert_false(stat_select_match(&s, &tg, &tg));
}

static void test_window(void **state)
{
	struct select s;
	struct exit_record a = pid_rec("x", 0), none = pid_rec("x", 0);
	int64_t t;

	(void)state;
	memset(&none, 0, sizeof(none));
	none.type = REC_PID;
	assert_true(stat_select_exit_time(&a, &t));
	assert_int_equal(t, 1005);
	assert_false(stat_select_exit_time(&none, &t));
	memset(&s, 0, sizeof(s));
	s.since_set = true;
	s.since = 1005;
	assert_true(stat_select_match(&s, &a, &a));
	s.since = 1006;
	assert_false(stat_select_match(&s, &a, &a));
	memset(&s, 0, sizeof(s));
	s.until_set = true;
	s.until = 1005;		/* before: exclusive */
	assert_false(stat_select_match(&s, &a, &a));
	s.until = 1006;
	assert_true(stat_select_match(&s, &a, &a));
	/* No begin time: outside every window. */
	assert_false(stat_select_match(&s, &none, &none));
}

static void test_time_syntax(void **state)
{
	int64_t t, u;

	(void)state;
	setenv("TZ", "UTC", 1);
	assert_int_equal(stat_select_parse_time("@1700000000", &t), 0);
	assert_int_equal(t, 1700000000);
	/* seconds only with their @: 20261202 is no date and no epoch time */
	assert_int_equal(stat_select_parse_time("1700000000", &t), -EINVAL);
	assert_int_equal(stat_select_parse_time("20261202", &t), -EINVAL);
	assert_int_equal(stat_select_parse_time("@", &t), -EINVAL);
	assert_int_equal(stat_select_parse_time("2023-11-14 22:13:20", &u), 0);
	assert_int_equal(u, 1700000000);
	assert_int_equal(stat_select_parse_time("2023-11-14T22:13:20", &u), 0);
	assert_int_equal(u, 1700000000);
	assert_int_equal(stat_select_parse_time("2023-11-14 22:13", &u), 0);
	assert_int_equal(u, 1700000000 - 20);
	assert_int_equal(stat_select_parse_time("2023-11-14", &u), 0);
	assert_int_equal(u, 1699920000);
	assert_int_equal(stat_select_parse_time("yesterday", &t), -22);
	assert_int_equal(stat_select_parse_time("2023-11-14 x", &t), -22);
	assert_int_equal(stat_select_parse_time("@", &t), -22);
	assert_int_equal(stat_select_parse_time("", &t), -22);
	/* Days the month does not have, and fields out of range: refused,
	 * not rolled into the next month. */
	assert_int_equal(stat_select_parse_time("2026-02-30", &t), -22);
	assert_int_equal(stat_select_parse_time("2026-02-29", &t), -22);
	assert_int_equal(stat_select_parse_time("2024-02-29", &t), 0);
	assert_int_equal(stat_select_parse_time("2026-04-31", &t), -22);
	assert_int_equal(stat_select_parse_time("2026-13-01", &t), -22);
	assert_int_equal(stat_select_parse_time("2026-00-10", &t), -22);
	assert_int_equal(stat_select_parse_time("2026-01-00", &t), -22);
	assert_int_equal(stat_select_parse_time("2026-01-01 24:00", &t), -22);
	assert_int_equal(stat_select_parse_time("2026-01-01 10:60", &t), -22);
	assert_int_equal(stat_select_parse_time("2026-01-01 10:00:60", &t), -22);
	/* Blanks: none before, none after, none doubled. */
	assert_int_equal(stat_select_parse_time(" 2026-01-01", &t), -22);
	assert_int_equal(stat_select_parse_time("2026-01-01 ", &t), -22);
	assert_int_equal(stat_select_parse_time("2026-01-01  10:00", &t), -22);
	assert_int_equal(stat_select_parse_time(" @1700000000", &t), -22);
	assert_int_equal(stat_select_parse_time("@1700000000 ", &t), -22);
	assert_int_equal(stat_select_parse_time("2026-1-1", &t), -22);
}

/* Local times a daylight-saving change skips or repeats name no one
 * moment: refused (a POSIX TZ rule, so no zoneinfo file is needed). */
static void test_dst(void **state)
{
	int64_t t;

	(void)state;
	setenv("TZ", "CET-1CEST,M3.5.0,M10.5.0/3", 1);
	tzset();
	assert_int_equal(stat_select_parse_time("2026-03-29 02:30", &t), -ENOENT);
	assert_int_equal(stat_select_parse_time("2026-10-25 02:30", &t), -EEXIST);
	assert_int_equal(stat_select_parse_time("2026-10-25 03:30", &t), 0);
	assert_int_equal(t, 1792895400);	/* 02:30 UTC */
	assert_int_equal(stat_select_parse_time("2026-03-29 03:30", &t), 0);
	assert_int_equal(stat_select_parse_time("2026-03-29", &t), 0);
	setenv("TZ", "UTC", 1);
	tzset();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dst),
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_time_syntax),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
