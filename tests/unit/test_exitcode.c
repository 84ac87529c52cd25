// SPDX-License-Identifier: GPL-2.0-or-later
/* How a task ended, from the kernel's wait status (exitcode.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "exitcode.h"

static void test_outcomes(void **state)
{
	(void)state;
	assert_int_equal(exitcode_outcome(0), EXITCODE_EXIT0);
	assert_int_equal(exitcode_outcome(3 << 8), EXITCODE_NONZERO);
	assert_int_equal(exitcode_outcome(255 << 8), EXITCODE_NONZERO);
	assert_int_equal(exitcode_outcome(1 << 8), EXITCODE_NONZERO);
	assert_int_equal(exitcode_outcome(15), EXITCODE_SIGNAL);	/* SIGTERM */
	assert_int_equal(exitcode_outcome(9), EXITCODE_SIGNAL);	/* SIGKILL */
	assert_int_equal(exitcode_outcome(11 | 0x80), EXITCODE_CORE);	/* SIGSEGV, core */
	assert_int_equal(exitcode_outcome(11), EXITCODE_SIGNAL);	/* RLIMIT_CORE 0 */
	assert_int_equal(exitcode_outcome(64), EXITCODE_SIGNAL);	/* SIGRTMAX */
	/* Bits above the status (never sent) do not change the reading. */
	assert_int_equal(exitcode_outcome(0x10000), EXITCODE_EXIT0);
	assert_int_equal(exitcode_signal(0x8b), 11);
	assert_int_equal(exitcode_signal(3 << 8), 0);
	assert_string_equal(exitcode_names[EXITCODE_EXIT0], "exit0");
	assert_string_equal(exitcode_names[EXITCODE_NONZERO], "nonzero");
	assert_string_equal(exitcode_names[EXITCODE_SIGNAL], "signal");
	assert_string_equal(exitcode_names[EXITCODE_CORE], "core");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_outcomes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
