// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of exitstat's filter of folded keys (src/exitstat/
 * stat_bloom.c): no key put in is ever missed, the false-positive rate
 * stays under its bound however many keys go in, and the memory follows
 * the keys.  Keys are deterministic (a counter and a disjoint counter for
 * the keys never put in), so every run counts the same. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stat_bloom.h"

#define ABSENT (1ull << 40)	/* keys from here on are never put in */

/* add_range: keys [from, to) put in. */
static void add_range(struct stat_bloom *b, uint64_t from, uint64_t to)
{
	for (uint64_t i = from; i < to; i++)
		assert_int_equal(stat_bloom_add(b, i), 0);
}

static uint64_t false_positives(const struct stat_bloom *b, uint64_t queries)
{
	uint64_t fp = 0;

	for (uint64_t i = 0; i < queries; i++)
		fp += stat_bloom_has(b, ABSENT + i * 7919);
	return fp;
}

/* Every key put in is found, in every slice. */
static void test_no_false_negative(void **state)
{
	struct stat_bloom b;

	(void)state;
	stat_bloom_init(&b, 1000);
	assert_false(stat_bloom_has(&b, 1));	/* empty: nothing */
	add_range(&b, 0, 100000);
	assert_int_equal(b.keys, 100000);
	assert_int_equal(b.nslices, 7);		/* 1000 + 2000 + ... + 64000 */
	for (uint64_t i = 0; i < 100000; i++)
		assert_true(stat_bloom_has(&b, i));
	stat_bloom_free(&b);
	assert_int_equal(b.nslices, 0);
	assert_int_equal(stat_bloom_bytes(&b), 0);
}

/* Keys put in as exitstat folds them, 1000 at a time, 255 times: the rate
 * of keys never put in reported seen, measured on a million of them when
 * every slice is at its capacity (the rate at its highest), stays under
 * the bound, 2^-13 (122 in a million; the count is binomial, sd 11, so
 * 180 leaves five of those).  A filter of fixed size fails this: the one
 * exitstat had, 16 bits a group held (here 65536 bits, its least) with 2
 * probes, would have nearly all its bits set and see nearly every key. */
static void test_rate_bounded(void **state)
{
	struct stat_bloom b;
	uint64_t fp, bound = 1000000 >> (STAT_BLOOM_K0 - 1);

	(void)state;
	stat_bloom_init(&b, 1000);
	for (uint64_t fold = 0; fold < 255; fold++) {
		add_range(&b, fold * 1000, (fold + 1) * 1000);
		if (fold == 0 || fold == 2 || fold == 14 || fold == 62) {
			fp = false_positives(&b, 100000);
			print_message("after %llu keys: %llu of 100000 absent keys seen\n",
				      (unsigned long long)b.keys, (unsigned long long)fp);
			assert_true(fp <= 18);	/* bound 12.2, five sd over */
		}
	}
	assert_int_equal(b.nslices, 8);
	assert_int_equal(b.slice[7].n, b.slice[7].cap);
	fp = false_positives(&b, 1000000);
	print_message("after %llu keys: %llu of 1000000 absent keys seen (bound %llu)\n",
		      (unsigned long long)b.keys, (unsigned long long)fp,
		      (unsigned long long)bound);
	assert_true(fp <= 180);
	stat_bloom_free(&b);
}

/* Memory follows the keys: at most cap * k / ln 2 bits a slice, so about
 * 3.6 bytes a key when the slices are full, and at most about twice that
 * just after a slice opens (it is made for as many keys as all before). */
static void test_memory(void **state)
{
	struct stat_bloom b;

	(void)state;
	stat_bloom_init(&b, 1000);
	add_range(&b, 0, 255000);
	print_message("255000 keys: %zu bytes\n", stat_bloom_bytes(&b));
	assert_true(stat_bloom_bytes(&b) <= 4 * 255000);
	add_range(&b, 255000, 256000);
	print_message("256000 keys: %zu bytes\n", stat_bloom_bytes(&b));
	assert_true(stat_bloom_bytes(&b) <= 8 * 256000);
	stat_bloom_free(&b);

	/* A first capacity of 0 is taken as 1 and grows from there. */
	stat_bloom_init(&b, 0);
	add_range(&b, 0, 100);
	assert_int_equal(b.nslices, 7);		/* 1 + 2 + ... + 64 = 127 */
	for (uint64_t i = 0; i < 100; i++)
		assert_true(stat_bloom_has(&b, i));
	stat_bloom_free(&b);
}

/* A batch that would not fit in the newest slice opens the next before
 * any key of it goes in (exitstat's fold is all or nothing), and the
 * keys before it are still found. */
static void test_reserve(void **state)
{
	struct stat_bloom b;

	(void)state;
	stat_bloom_init(&b, 1000);
	assert_int_equal(stat_bloom_reserve(&b, 1000), 0);
	assert_int_equal(b.nslices, 1);
	add_range(&b, 0, 600);
	assert_int_equal(stat_bloom_reserve(&b, 400), 0);	/* fits */
	assert_int_equal(b.nslices, 1);
	assert_int_equal(stat_bloom_reserve(&b, 500), 0);	/* does not */
	assert_int_equal(b.nslices, 2);
	add_range(&b, 600, 1100);
	assert_int_equal(b.nslices, 2);
	assert_int_equal(b.slice[0].n, 600);
	assert_int_equal(b.slice[1].n, 500);
	for (uint64_t i = 0; i < 1100; i++)
		assert_true(stat_bloom_has(&b, i));
	stat_bloom_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_false_negative),
		cmocka_unit_test(test_rate_bounded),
		cmocka_unit_test(test_memory),
		cmocka_unit_test(test_reserve),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
