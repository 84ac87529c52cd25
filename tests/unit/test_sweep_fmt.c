// SPDX-License-Identifier: GPL-2.0-or-later
/* How the figures of a sweep print in its tables: an overhead in percent
 * with its interval and the mark of no significance, a mean to so many
 * significant digits, a cost in the metric's unit. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sweep_fmt.h"

/* The table cell of those figures: sign, two decimals under 100, the
 * mark only where not significant. */
static void test_format_figures(void **state)
{
	char b[64];

	(void)state;
	assert_string_equal(sweep_fmt_pct_ci(b, sizeof(b), 25.0, 7.06365, true, true),
			    "+25.00 ±7.06 ");
	assert_string_equal(sweep_fmt_pct_ci(b, sizeof(b), 20.0, 24.84138, true, false),
			    "+20.00 ±24.84~");
	assert_string_equal(sweep_fmt_pct_ci(b, sizeof(b), 649.41, 12.3, true, true),
			    "+649.4 ±12.3 ");
	assert_string_equal(sweep_fmt_pct_ci(b, sizeof(b), -0.14, 0.5, true, false),
			    "-0.14 ±0.50~");
	assert_string_equal(sweep_fmt_pct_ci(b, sizeof(b), 1, 1, false, false), "n/a");
	/* a narrow interval keeps its width visible */
	assert_string_equal(sweep_fmt_pct_ci(b, sizeof(b), -0.0103, 0.0043, true, true),
			    "-0.0103 ±0.0043 ");
	assert_string_equal(sweep_fmt_pct_ci(b, sizeof(b), 0.012, 0.03, true, false),
			    "+0.012 ±0.030~");
	assert_string_equal(sweep_fmt_pct_ci(b, sizeof(b), 5, 0, true, true),
			    "+5.00 ±0.00 ");
	assert_string_equal(sweep_fmt_sig(b, sizeof(b), 1234.5678, 4), "1235");
	assert_string_equal(sweep_fmt_sig(b, sizeof(b), 0.0123456, 4), "0.01235");
	assert_string_equal(sweep_fmt_sig(b, sizeof(b), NAN, 4), "-");
	assert_string_equal(sweep_fmt_sig(b, sizeof(b), INFINITY, 4), "-");
	assert_string_equal(sweep_fmt_sig(b, sizeof(b), 1.23e29, 4), "1.23e+29");
	/* costs in the metric's unit: sign, three digits, the mark */
	assert_string_equal(sweep_fmt_diff(b, sizeof(b), 701.4, 675.2, true, true),
			    "+701 ±675 ");
	assert_string_equal(sweep_fmt_diff(b, sizeof(b), -0.388, 4.917, true, false),
			    "-0.388 ±4.9~");
	assert_string_equal(sweep_fmt_diff(b, sizeof(b), 1, 1, false, false), "n/a");
}

static void clean_is(const char *in, const char *want)
{
	char *c = sweep_fmt_clean(in);

	assert_non_null(c);
	assert_string_equal(c, want);
	free(c);
}

/* Strings from a file as a terminal may show them: control characters
 * (C0, DEL, C1 as UTF-8) and backslashes escaped, one to one; the rest,
 * UTF-8 included, as it is. */
static void test_clean(void **state)
{
	(void)state;
	clean_is("plain: rate=max", "plain: rate=max");
	clean_is("\x1b[2J\a\n\r\t", "\\x1b[2J\\x07\\x0a\\x0d\\x09");
	clean_is("del\x7f", "del\\x7f");
	clean_is("csi\xc2\x9b", "csi\\xc2\\x9b");
	clean_is("caf\xc3\xa9 \xc2\xa0", "caf\xc3\xa9 \xc2\xa0");
	/* a backslash is escaped too: "\\x1b" typed is not an escape shown */
	clean_is("a\\x1b", "a\\\\x1b");
	clean_is("", "");
	/* the worst case: four bytes a byte */
	clean_is("\x01\x01\x01", "\\x01\\x01\\x01");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_figures),
		cmocka_unit_test(test_clean),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
