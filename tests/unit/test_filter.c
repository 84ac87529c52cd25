// SPDX-License-Identifier: GPL-2.0-or-later
/* --comm patterns: an invalid glob is refused rather than matching
 * nothing; every valid one still reaches fnmatch() unchanged. */
#include <fnmatch.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "filter.h"

static void test_glob_valid(void **state)
{
	static const char *const good[] = {
		"", "make", "make*", "?ash", "\\[", "a\\*b", "[abc]", "[!a-z]*",
		"[^0-9]", "[]x]", "[!]x]", "[[:alpha:]]", "[[:digit:]_]*",
		"[[.a.]]", "[[=e=]]", "x[a]y[b]", "[\\]]",
	};
	static const char *const bad[] = {
		"[", "ab[c", "[]", "[!]", "[[:alpha:]", "[[:alpha:", "x\\",
		"[a", "ok[a]then[",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_true(filter_glob_valid(good[i]));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_false(filter_glob_valid(bad[i]));
}

/* What the validator accepts, fnmatch reads as a pattern. */
static void test_glob_matches(void **state)
{
	(void)state;
	assert_int_equal(fnmatch("[]x]", "]", 0), 0);
	assert_int_equal(fnmatch("\\[", "[", 0), 0);
	assert_int_equal(fnmatch("[[:digit:]]", "7", 0), 0);
	assert_int_equal(fnmatch("[!]x]", "a", 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_glob_valid),
		cmocka_unit_test(test_glob_matches),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
