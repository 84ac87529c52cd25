// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of exitstat's grouping (src/exitstat/stat_group.c): what is
 * summed (pid rows) and what only counted (tgid rows), averages and peaks,
 * implausible records kept out of the delays, keys, the hash table's
 * growth, and sorting. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "recbuild.h"
#include "stat_group.h"

static struct exit_record rec(const char *comm, uint64_t utime, uint64_t stime,
			      uint64_t cpu_delay, uint64_t cpu_count)
{
	struct exit_record r = rb_pid(comm, 1);

	rec_set(&r, F_UTIME, utime);
	rec_set(&r, F_STIME, stime);
	rec_set(&r, F_ETIME, 1000000);	/* lived 1 s */
	rec_set(&r, F_CPU_DELAY_TOTAL, cpu_delay);
	rec_set(&r, F_CPU_COUNT, cpu_count);
	return r;
}

static const struct group *find(const struct groups *g, const char *comm)
{
	for (size_t i = 0; i < g->n; i++) {
		const struct group *gr = stat_group_at(g, i);

		if (gr->key.len == strlen(comm) && !memcmp(gr->key.comm, comm, gr->key.len))
			return gr;
	}
	return NULL;
}

static uint64_t val(const struct group *gr, enum stat_id s)
{
	uint64_t v = 0;

	assert_true(stat_group_value(gr, s, &v));
	return v;
}

static void test_sums_and_tgid_rows(void **state)
{
	struct groups g;
	struct exit_record a = rec("make", 100, 50, 3000, 3), b = rec("make", 10, 5, 1000, 1);
	struct exit_record c = rec("cc", 7, 0, 0, 0), tg = rec("", 999, 999, 999, 9);
	const struct group *gr;
	uint64_t v;

	(void)state;
	tg.type = REC_TGID;
	assert_int_equal(stat_group_init(&g, BY_COMM, GROUP_MAX_DEFAULT, S_CPU_RUN), 0);
	rec_set(&a, F_CPU_DELAY_MAX, 2500);
	rec_set(&a, F_HIWATER_RSS, 4000);
	rec_set(&b, F_HIWATER_RSS, 9000);
	rec_set(&b, F_READ_BYTES, 4096);
	assert_int_equal(stat_group_add(&g, &a), 0);
	assert_int_equal(stat_group_add(&g, &b), 0);
	assert_int_equal(stat_group_add(&g, &c), 0);
	assert_int_equal(stat_group_add(&g, &tg), 0);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.tgid_rows, 1);
	gr = find(&g, "make");
	assert_non_null(gr);
	assert_int_equal(val(gr, S_EXITS), 2);
	assert_int_equal(val(gr, S_CPU), 165);
	assert_int_equal(val(gr, S_ELAPSED), 2000000);
	assert_int_equal(val(gr, S_CPU_DELAY), 4000);
	assert_int_equal(val(gr, S_CPU_AVG), 1000);	/* 4000 ns over 4 waits */
	assert_int_equal(val(gr, S_CPU_MAX), 2500);
	assert_int_equal(val(gr, S_RSS), 9000);	/* a peak, not a sum */
	assert_int_equal(val(gr, S_READ), 4096);
	/* No waits: no average; no record with a peak: no peak. */
	assert_false(stat_group_value(find(&g, "cc"), S_CPU_AVG, &v));
	assert_false(stat_group_value(find(&g, "cc"), S_CPU_MAX, &v));
	assert_false(stat_group_value(gr, S_BLKIO_AVG, &v));
	/* TOTAL: pid rows only. */
	assert_int_equal(val(&g.total, S_EXITS), 3);
	assert_int_equal(val(&g.total, S_CPU), 172);
	stat_group_free(&g);
}

/* A wait longer than the life (exitmon's implausible rule): counted, and
 * kept out of every delay figure, but still an exit with its CPU time. */
static void test_implausible(void **state)
{
	struct groups g;
	struct exit_record ok = rec("io", 1, 1, 500, 1), bad = rec("io", 2, 2, 0, 0);

	(void)state;
	rec_set(&bad, F_BLKIO_DELAY_TOTAL, 3600ull * 1000000000);	/* 1 h in 1 s */
	rec_set(&bad, F_BLKIO_COUNT, 1);
	assert_int_equal(stat_group_init(&g, BY_COMM, GROUP_MAX_DEFAULT, S_CPU_RUN), 0);
	stat_group_add(&g, &ok);
	stat_group_add(&g, &bad);
	assert_int_equal(val(find(&g, "io"), S_EXITS), 2);
	assert_int_equal(val(find(&g, "io"), S_CPU), 6);
	assert_int_equal(val(find(&g, "io"), S_IMPLAUSIBLE), 1);
	assert_int_equal(val(find(&g, "io"), S_BLKIO_DELAY), 0);
	assert_int_equal(val(find(&g, "io"), S_CPU_DELAY), 500);
	assert_int_equal(val(&g.total, S_IMPLAUSIBLE), 1);
	stat_group_free(&g);
}

static void test_keys(void **state)
{
	struct groups g;
	struct exit_record a = rec("x", 1, 0, 0, 0), b = rec("y", 1, 0, 0, 0);

	(void)state;
	rec_set(&a, F_UID, 1000);
	rec_set(&b, F_UID, 1000);
	assert_int_equal(stat_group_init(&g, BY_UID, GROUP_MAX_DEFAULT, S_CPU_RUN), 0);
	stat_group_add(&g, &a);
	stat_group_add(&g, &b);
	assert_int_equal(g.n, 1);
	stat_group_free(&g);

	rec_set(&a, F_EXE_DEV, 8);
	rec_set(&a, F_EXE_INODE, 77);
	rec_set(&b, F_EXE_DEV, 8);
	rec_set(&b, F_EXE_INODE, 78);
	assert_int_equal(stat_group_init(&g, BY_EXE, GROUP_MAX_DEFAULT, S_CPU_RUN), 0);
	stat_group_add(&g, &a);
	stat_group_add(&g, &b);
	stat_group_add(&g, &a);
	assert_int_equal(g.n, 2);
	stat_group_free(&g);

	/* tgid: the pid row's ac_tgid. */
	rec_set(&a, F_TGID, 50);
	rec_set(&b, F_TGID, 50);
	assert_int_equal(stat_group_init(&g, BY_TGID, GROUP_MAX_DEFAULT, S_CPU_RUN), 0);
	stat_group_add(&g, &a);
	stat_group_add(&g, &b);
	assert_int_equal(g.n, 1);
	stat_group_free(&g);
}

/* Many groups: the table grows and loses none. */
static void test_growth(void **state)
{
	struct groups g;
	char name[16];

	(void)state;
	assert_int_equal(stat_group_init(&g, BY_COMM, GROUP_MAX_DEFAULT, S_CPU_RUN), 0);
	for (int k = 0; k < 2; k++)
		for (int i = 0; i < 5000; i++) {
			struct exit_record r;

			snprintf(name, sizeof(name), "t%d", i);
			r = rec(name, (uint64_t)i, 0, 0, 0);
			assert_int_equal(stat_group_add(&g, &r), 0);
		}
	assert_int_equal(g.n, 5000);
	assert_true(g.cap >= 2 * g.n);
	assert_int_equal(g.folded, 0);
	assert_int_equal(val(find(&g, "t4999"), S_EXITS), 2);
	assert_int_equal(val(find(&g, "t4999"), S_CPU), 2 * 4999);
	assert_int_equal(val(&g.total, S_EXITS), 10000);
	stat_group_free(&g);
}

static void test_sort(void **state)
{
	struct groups g;
	struct group **v;
	struct exit_record r;
	const char *names[] = { "b", "a", "c", "d" };
	const uint64_t cpu[] = { 5, 5, 9, 1 };
	enum stat_id s;

	(void)state;
	assert_int_equal(stat_group_init(&g, BY_COMM, GROUP_MAX_DEFAULT, S_CPU_RUN), 0);
	for (int i = 0; i < 4; i++) {
		r = rec(names[i], cpu[i], 0, i == 3 ? 0 : 10, i == 3 ? 0 : 1);
		stat_group_add(&g, &r);
	}
	v = stat_group_sorted(&g, S_CPU, false);
	assert_non_null(v);
	/* 9, then the tie 5/5 by name, then 1. */
	assert_memory_equal(v[0]->key.comm, "c", 1);
	assert_memory_equal(v[1]->key.comm, "a", 1);
	assert_memory_equal(v[2]->key.comm, "b", 1);
	assert_memory_equal(v[3]->key.comm, "d", 1);
	free(v);
	v = stat_group_sorted(&g, S_CPU, true);
	assert_memory_equal(v[0]->key.comm, "d", 1);
	free(v);
	/* A group without the value (no waits: no average) sorts last. */
	v = stat_group_sorted(&g, S_CPU_AVG, true);
	assert_memory_equal(v[3]->key.comm, "d", 1);
	free(v);
	assert_int_equal(stat_group_stat_from_name("blkio_delay_max_ns", &s), 0);
	assert_int_equal(s, S_BLKIO_MAX);
	assert_int_equal(stat_group_stat_from_name("nope", &s), -22);
	for (int i = 0; i < S__COUNT; i++) {
		const char *name = stat_group_stat_name((enum stat_id)i);

		assert_int_equal(stat_group_stat_from_name(name, &s), 0);
		assert_int_equal(s, i);
	}
	stat_group_free(&g);
}

/* Sums stop at UINT64_MAX instead of wrapping (18446744073709551615 + 2
 * once gave 1), and the group and the total say so. */
static void test_saturation(void **state)
{
	struct groups g;
	struct exit_record a = rec("big", 0, 0, 0, 0), b = rec("big", 0, 0, 0, 0),
			   c = rec("small", 1, 0, 0, 0);

	(void)state;
	rec_set(&a, F_CPU_RUN_VIRTUAL_TOTAL, UINT64_MAX);
	rec_set(&b, F_CPU_RUN_VIRTUAL_TOTAL, 2);
	rec_set(&b, F_UTIME, UINT64_MAX);
	rec_set(&b, F_STIME, 5);	/* utime + stime itself overflows */
	assert_int_equal(stat_group_init(&g, BY_COMM, GROUP_MAX_DEFAULT, S_CPU_RUN), 0);
	stat_group_add(&g, &a);
	stat_group_add(&g, &b);
	stat_group_add(&g, &c);
	assert_true(val(find(&g, "big"), S_CPU_RUN) == UINT64_MAX);
	assert_true(val(find(&g, "big"), S_CPU) == UINT64_MAX);
	assert_true(find(&g, "big")->flags & G_SATURATED);
	assert_false(find(&g, "small")->flags & G_SATURATED);
	assert_int_equal(val(find(&g, "small"), S_CPU), 1);
	assert_true(val(&g.total, S_CPU_RUN) == UINT64_MAX);
	assert_true(g.total.flags & G_SATURATED);
	assert_int_equal(val(&g.total, S_EXITS), 3);
	stat_group_free(&g);
}

/* At most max groups: a new group past that folds the smaller half (by
 * the fold column) into other; nothing is lost from the total, groups and
 * other add up to it, and a key that comes back is marked partial. */
static void test_fold_bound(void **state)
{
	struct groups g;
	struct exit_record r;
	char name[16];
	uint64_t sum_exits, sum_cpu;

	(void)state;
	assert_int_equal(stat_group_init(&g, BY_COMM, 10, S_CPU), 0);
	for (int i = 0; i < 1000; i++) {
		/* c0..c3 are the big ones, seen again and again; the
		 * others are seen once. */
		bool big = i % 50 < 4;

		snprintf(name, sizeof(name), "c%d", big ? i % 50 : i);
		r = rec(name, big ? 1000 : 1, 0, 0, 0);
		assert_int_equal(stat_group_add(&g, &r), 0);
		assert_true(g.n <= 10);
	}
	assert_true(g.folded > 0);
	sum_exits = val(&g.other, S_EXITS);
	sum_cpu = val(&g.other, S_CPU);
	for (size_t i = 0; i < g.n; i++) {
		sum_exits += val(stat_group_at(&g, i), S_EXITS);
		sum_cpu += val(stat_group_at(&g, i), S_CPU);
	}
	assert_int_equal(val(&g.total, S_EXITS), 1000);
	assert_int_equal(sum_exits, 1000);
	assert_int_equal(sum_cpu, val(&g.total, S_CPU));
	/* The big ones were never folded: complete, not partial. */
	for (int i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "c%d", i);
		assert_non_null(find(&g, name));
		assert_int_equal(val(find(&g, name), S_EXITS), 20);
		assert_false(find(&g, name)->flags & G_PARTIAL);
	}
	stat_group_free(&g);

	/* A small key folded, then back: partial. */
	assert_int_equal(stat_group_init(&g, BY_COMM, 2, S_CPU), 0);
	r = rec("big", 100, 0, 0, 0);
	stat_group_add(&g, &r);
	r = rec("tiny", 1, 0, 0, 0);
	stat_group_add(&g, &r);
	r = rec("new", 50, 0, 0, 0);	/* full: tiny folds */
	stat_group_add(&g, &r);
	assert_int_equal(g.folded, 1);
	assert_null(find(&g, "tiny"));
	assert_int_equal(val(&g.other, S_CPU), 1);
	r = rec("tiny", 1, 0, 0, 0);	/* full again: new folds, tiny returns */
	stat_group_add(&g, &r);
	assert_non_null(find(&g, "tiny"));
	assert_true(find(&g, "tiny")->flags & G_PARTIAL);
	assert_false(find(&g, "big")->flags & G_PARTIAL);
	assert_int_equal(val(&g.total, S_EXITS), 4);
	stat_group_free(&g);
	assert_int_equal(stat_group_init(&g, BY_COMM, 0, S_CPU), -22);
}

/* --reverse asks for the smallest groups: folding keeps those and folds
 * the larger half, so the smallest are whole and unmarked. */
static void test_fold_keeps_smallest(void **state)
{
	struct groups g;
	struct exit_record r;
	char name[16];

	(void)state;
	assert_int_equal(stat_group_init(&g, BY_COMM, 10, S_CPU), 0);
	g.keep_smallest = true;
	for (int i = 0; i < 1000; i++) {
		/* t0..t3 are the small ones, seen again and again; the
		 * others are big and seen once */
		bool small = i % 50 < 4;

		snprintf(name, sizeof(name), "t%d", small ? i % 50 : i);
		r = rec(name, small ? 1 : 1000, 0, 0, 0);
		assert_int_equal(stat_group_add(&g, &r), 0);
	}
	assert_true(g.folded > 0);
	for (int i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "t%d", i);
		assert_non_null(find(&g, name));
		assert_int_equal(val(find(&g, name), S_EXITS), 20);
		assert_false(find(&g, name)->flags & G_PARTIAL);
	}
	stat_group_free(&g);
}

/* Groups that never come back are never partial, however many folds go
 * on: 100,000 tgids seen once each, every one larger than all before it
 * (so each fold keeps the newest half, as in the input that showed
 * 131,257 false partials in 5 million groups), 1000 held.  Each group
 * made after a fold is asked of the folded keys; at most 2^-13 of them
 * may be wrongly marked (12 of these 99,000; the count is binomial, sd
 * 3.5, so 30 leaves five of those).  The fixed filter of before (16
 * bits a group held, 2 probes) marked 53,298 of them. */
static void test_fold_no_false_partial(void **state)
{
	struct groups g;
	uint64_t partial = 0, made_after_fold = 0;

	(void)state;
	assert_int_equal(stat_group_init(&g, BY_TGID, 1000, S_CPU_RUN), 0);
	for (uint32_t i = 1; i <= 100000; i++) {
		struct exit_record r = rb_pid("t", i);
		const struct group *gr;

		rec_set(&r, F_TGID, i);
		rec_set(&r, F_CPU_RUN_VIRTUAL_TOTAL, i);
		assert_int_equal(stat_group_add(&g, &r), 0);
		gr = stat_group_at(&g, g.n - 1);	/* a new group goes last */
		assert_int_equal(gr->key.a, i);
		if (g.folded) {
			made_after_fold++;
			partial += !!(gr->flags & G_PARTIAL);
		}
	}
	print_message("%llu of %llu groups made after a fold marked partial\n",
		      (unsigned long long)partial, (unsigned long long)made_after_fold);
	assert_int_equal(g.folded, 99000);
	assert_true(partial <= 30);
	/* The groups asked of the filter are counted: the bound exitstat's
	 * note gives on the wrongly marked ones is taken of them. */
	assert_int_equal(g.tested, made_after_fold);
	assert_true(partial <= (g.tested >> GROUP_PARTIAL_ERR_SHIFT) * 3);
	stat_group_free(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sums_and_tgid_rows),
		cmocka_unit_test(test_implausible),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_growth),
		cmocka_unit_test(test_sort),
		cmocka_unit_test(test_saturation),
		cmocka_unit_test(test_fold_bound),
		cmocka_unit_test(test_fold_keeps_smallest),
		cmocka_unit_test(test_fold_no_false_partial),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
