// SPDX-License-Identifier: GPL-2.0-or-later
/* The one checked parser for user numbers, and CPU lists. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cpulist.h"
#include "parse.h"

static void test_u64(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(parse_u64("0", 0, 10, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(parse_u64("18446744073709551615", 0, UINT64_MAX, &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(parse_u64("18446744073709551616", 0, UINT64_MAX, &v), -ERANGE);
	assert_int_equal(parse_u64("11", 0, 10, &v), -ERANGE);
	assert_int_equal(parse_u64("4", 5, 10, &v), -ERANGE);
	static const char *const bad[] = { "", "-1", " 1", "1 ", "1x", "x",
					   "+1", "0x10", "1.5", "1e3" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(parse_u64(bad[i], 0, UINT64_MAX, &v), -EINVAL);
	assert_int_equal(parse_u64(NULL, 0, 1, &v), -EINVAL);
}

static void test_u32(void **state)
{
	uint32_t v;

	(void)state;
	assert_int_equal(parse_u32("4294967295", 0, UINT32_MAX, &v), 0);
	assert_true(v == UINT32_MAX);
	assert_int_equal(parse_u32("4294967296", 0, UINT32_MAX, &v), -ERANGE);
}

static void test_size(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(parse_size("4096", 0, UINT64_MAX, &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(parse_size("8M", 0, UINT64_MAX, &v), 0);
	assert_int_equal(v, 8u << 20);
	assert_int_equal(parse_size("512KiB", 0, UINT64_MAX, &v), 0);
	assert_int_equal(v, 512u << 10);
	assert_int_equal(parse_size("2gb", 0, UINT64_MAX, &v), -EINVAL);
	assert_int_equal(parse_size("2G", 0, UINT64_MAX, &v), 0);
	assert_true(v == 2ull << 30);
	assert_int_equal(parse_size("1T", 0, UINT64_MAX, &v), 0);
	assert_true(v == 1ull << 40);
	assert_int_equal(parse_size("1k", 0, UINT64_MAX, &v), 0);
	assert_int_equal(v, 1024);
	assert_int_equal(parse_size("17179869184G", 0, UINT64_MAX, &v), -ERANGE);
	assert_int_equal(parse_size("1P", 0, UINT64_MAX, &v), -EINVAL);
	assert_int_equal(parse_size("1MB!", 0, UINT64_MAX, &v), -EINVAL);
	assert_int_equal(parse_size("-1M", 0, UINT64_MAX, &v), -EINVAL);
	assert_int_equal(parse_size("2K", 4096, UINT64_MAX, &v), -ERANGE);
}

static void test_double(void **state)
{
	double v;

	(void)state;
	assert_int_equal(parse_double("2.5", 0, 10, &v), 0);
	assert_true(v == 2.5);
	assert_int_equal(parse_double(".5", 0, 10, &v), 0);
	assert_int_equal(parse_double("1e3", 0, 1e9, &v), 0);
	assert_true(v == 1000);
	assert_int_equal(parse_double("-1", 0, 10, &v), -ERANGE);
	assert_int_equal(parse_double("11", 0, 10, &v), -ERANGE);
	static const char *const bad[] = { "", " 1", "1s", "inf", "nan",
					   "0x10", "1e", "+1", "--1" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(parse_double(bad[i], -10, 10, &v), -EINVAL);
	assert_int_equal(parse_double("1e999", 0, 1e9, &v), -EINVAL);
}

static void test_cpulist(void **state)
{
	struct cpuset_bits a, b;
	char buf[64];

	(void)state;
	assert_int_equal(cpulist_parse("0-3,8,10-11\n", &a), 0);
	assert_int_equal(cpulist_count(&a), 7);
	assert_true(cpulist_test(&a, 8) && !cpulist_test(&a, 9));
	assert_int_equal(cpulist_format(&a, buf, sizeof(buf)), 11);
	assert_string_equal(buf, "0-3,8,10-11");
	assert_int_equal(cpulist_format(&a, buf, 4), 11);	/* snprintf-like */
	assert_int_equal(cpulist_parse("0-1", &b), 0);
	assert_true(cpulist_subset(&b, &a) && !cpulist_subset(&a, &b));
	assert_int_equal(cpulist_next(&a, 4), 8);
	assert_int_equal(cpulist_next(&a, 12), -1);
	static const char *const bad[] = { "", "3-1", "1,", ",1", "a", "1-",
					   "1--2", "1 2", "0-1\nx" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(cpulist_parse(bad[i], &a), -EINVAL);
	assert_int_equal(cpulist_parse("0-99999", &a), -ERANGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_u64),
		cmocka_unit_test(test_u32),
		cmocka_unit_test(test_size),
		cmocka_unit_test(test_double),
		cmocka_unit_test(test_cpulist),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
