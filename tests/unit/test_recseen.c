/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the set of records read by (run, seq) (src/common/
 * recseen.c): a repeat is found however the seq come (in order, twice
 * over, interleaved as shards hand them over, backwards), runs are told
 * apart, records without run or seq are never repeats, and the memory
 * follows the gaps, not the records. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "recseen.h"

static struct rec_meta meta(char digit, uint64_t seq)
{
	struct rec_meta m;

	memset(&m, 0, sizeof(m));
	memset(m.run, digit, REC_RUN_HEX);
	m.seq = seq;
	m.has = REC_META_RUN | REC_META_SEQ | REC_META_TIME;
	return m;
}

/* from to to of run digit, each expected new (want 1) or a repeat (want 0). */
static void add_range(struct recseen *s, char digit, uint64_t from,
		      uint64_t to, int want)
{
	for (uint64_t q = from;; q++) {
		struct rec_meta m = meta(digit, q);

		assert_int_equal(recseen_add(s, &m), want);
		if (q == to)
			break;	/* to may be UINT64_MAX */
	}
}

/* A file read twice (a rotated file and its .gz): every record of the
 * second a repeat, and a file is one span. */
static void test_file_twice(void **state)
{
	struct recseen s;

	(void)state;
	recseen_init(&s);
	add_range(&s, 'a', 1, 28, 1);
	add_range(&s, 'a', 1, 28, 0);
	assert_int_equal(s.repeats, 28);
	assert_int_equal(s.spans, 1);
	recseen_free(&s);
}

/* The same seq in another run is another record. */
static void test_runs_apart(void **state)
{
	struct recseen s;

	(void)state;
	recseen_init(&s);
	add_range(&s, 'a', 1, 10, 1);
	add_range(&s, 'b', 1, 10, 1);
	add_range(&s, 'a', 5, 6, 0);
	add_range(&s, 'b', 10, 10, 0);
	assert_int_equal(s.repeats, 3);
	assert_int_equal(s.nruns, 2);
	recseen_free(&s);
}

/* Records without run or seq (an older exitmon's file, a capture) are
 * always new: nothing names them. */
static void test_unnamed_never_repeat(void **state)
{
	struct recseen s;
	struct rec_meta m = meta('a', 7);

	(void)state;
	recseen_init(&s);
	m.has = REC_META_SEQ;
	assert_int_equal(recseen_add(&s, &m), 1);
	assert_int_equal(recseen_add(&s, &m), 1);
	m.has = REC_META_RUN;
	assert_int_equal(recseen_add(&s, &m), 1);
	assert_int_equal(recseen_add(&s, &m), 1);
	assert_int_equal(s.repeats, 0);
	recseen_free(&s);
}

/* Two shards' chunks interleaved (odd then even numbers of each block),
 * then backwards, then gaps closed from both sides: spans join up, and
 * every repeat among them is found. */
static void test_interleaved_and_backwards(void **state)
{
	struct recseen s;

	(void)state;
	recseen_init(&s);
	for (uint64_t b = 0; b < 1000; b += 10) {
		for (uint64_t q = b + 1; q <= b + 10; q += 2)
			add_range(&s, 'c', q, q, 1);
		for (uint64_t q = b + 2; q <= b + 10; q += 2)
			add_range(&s, 'c', q, q, 1);
	}
	assert_int_equal(s.spans, 1);
	for (uint64_t q = 3000; q > 2000; q--)
		add_range(&s, 'c', q, q, 1);
	assert_int_equal(s.spans, 2);
	add_range(&s, 'c', 1001, 2000, 1);	/* closes the gap */
	assert_int_equal(s.spans, 1);
	add_range(&s, 'c', 1, 3000, 0);
	assert_int_equal(s.repeats, 3000);
	recseen_free(&s);
}

/* A gap (a record unwritten) keeps two spans; seq at both ends of the
 * 64-bit range are records like any other. */
static void test_gaps_and_ends(void **state)
{
	struct recseen s;

	(void)state;
	recseen_init(&s);
	add_range(&s, 'd', 1, 99, 1);
	add_range(&s, 'd', 101, 200, 1);
	assert_int_equal(s.spans, 2);
	add_range(&s, 'd', 100, 100, 1);
	assert_int_equal(s.spans, 1);
	add_range(&s, 'd', 0, 0, 1);
	add_range(&s, 'd', UINT64_MAX, UINT64_MAX, 1);
	add_range(&s, 'd', UINT64_MAX - 1, UINT64_MAX - 1, 1);
	add_range(&s, 'd', UINT64_MAX, UINT64_MAX, 0);
	add_range(&s, 'd', 0, 0, 0);
	assert_int_equal(s.spans, 2);
	recseen_free(&s);
}

/* Memory follows the gaps: 10 million records of one run hold one span;
 * 5,000 runs of a few records each are all told apart. */
static void test_memory_bounded(void **state)
{
	struct recseen s;

	(void)state;
	recseen_init(&s);
	for (uint64_t q = 1; q <= 10000000; q++) {
		struct rec_meta m = meta('e', q);

		if (recseen_add(&s, &m) != 1)
			fail();
	}
	assert_int_equal(s.spans, 1);
	assert_true(recseen_bytes(&s) < 4096);
	for (unsigned r = 0; r < 5000; r++) {
		struct rec_meta m = meta('f', 1);

		snprintf(m.run, sizeof(m.run), "%08x", r);
		m.run[8] = 'f';	/* snprintf's NUL, in a field with none */
		assert_int_equal(recseen_add(&s, &m), 1);
		assert_int_equal(recseen_add(&s, &m), 0);
	}
	assert_int_equal(s.nruns, 5001);
	assert_int_equal(s.repeats, 5000);
	recseen_free(&s);
}

/* Seq in any order (a file sorted by pid, say), each given twice, the
 * second time after all the firsts: every first is new and every second
 * a repeat, held to a bitmap; the spans close up into one.  The order:
 * i * 7919 mod a prime, a permutation. */
static void test_any_order(void **state)
{
	enum { N = 199999 };	/* a prime */
	static unsigned char seen[N + 1];
	struct recseen s;

	(void)state;
	recseen_init(&s);
	memset(seen, 0, sizeof(seen));
	for (uint64_t k = 0; k < 2 * (uint64_t)N; k++) {
		/* each seq once in that order, then each again in it */
		uint64_t q = (k < N ? k : k - N) * 7919 % N + 1;
		struct rec_meta m = meta('g', q);
		int want = !seen[q];

		if (recseen_add(&s, &m) != want)
			fail_msg("seq %llu: want %d", (unsigned long long)q, want);
		seen[q] = 1;
	}
	assert_int_equal(s.repeats, N);
	assert_int_equal(s.spans, 1);
	assert_int_equal(s.runs[0].nblk, 1);
	recseen_free(&s);
}

/* Every other seq (a hostile file, or one of every two records lost):
 * a span each, in blocks, all found again, falling and rising. */
static void test_every_other(void **state)
{
	struct recseen s;

	(void)state;
	recseen_init(&s);
	for (uint64_t q = 200000; q > 0; q -= 2)
		add_range(&s, 'h', q, q, 1);
	assert_int_equal(s.spans, 100000);
	assert_true(s.runs[0].nblk >= 100000 / RECSEEN_BLOCK);
	for (uint64_t q = 2; q <= 200000; q += 2)
		add_range(&s, 'h', q, q, 0);
	for (uint64_t q = 1; q < 200000; q += 2)
		add_range(&s, 'h', q, q, 1);
	assert_int_equal(s.spans, 1);
	/* Rising, as a file of a run with a record lost in two is read:
	 * full blocks stay full (a span costs 16 bytes, not twice that). */
	for (uint64_t q = 1; q <= 200000; q += 2)
		add_range(&s, 'i', q, q, 1);
	for (uint64_t q = 199999; q >= 1 && q <= 199999; q -= 2)
		add_range(&s, 'i', q, q, 0);
	assert_int_equal(s.spans, 1 + 100000);
	assert_true(s.runs[1].nblk <= 100000 / RECSEEN_BLOCK + 1);
	recseen_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_twice),
		cmocka_unit_test(test_runs_apart),
		cmocka_unit_test(test_unnamed_never_repeat),
		cmocka_unit_test(test_interleaved_and_backwards),
		cmocka_unit_test(test_gaps_and_ends),
		cmocka_unit_test(test_memory_bounded),
		cmocka_unit_test(test_any_order),
		cmocka_unit_test(test_every_other),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
