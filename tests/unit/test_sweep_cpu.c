// SPDX-License-Identifier: GPL-2.0-or-later
/* What exitsweep reads of the CPUs: the busy and idle time in /proc/stat,
 * and the kernel's tick rate (CONFIG_HZ). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sweep_cpu.h"

static void test_proc_stat(void **state)
{
	struct sweep_cpu_sample s;

	(void)state;
	/* user nice system idle iowait irq softirq steal guest guest_nice */
	assert_int_equal(sweep_cpu_parse_stat("cpu  100 2 30 5000 7 1 4 9 50 0\n"
		"cpu0 50 1 15 2500 3 0 2 4 25 0\n", &s), 0);
	assert_int_equal(s.busy, 100 + 2 + 30 + 1 + 4);
	assert_int_equal(s.idle, 5000 + 7);
	/* the aggregate line found after others; junk refused */
	assert_int_equal(sweep_cpu_parse_stat("intr 5\ncpu  1 2 3 4 5 6 7 8\n", &s), 0);
	assert_int_equal(s.busy, 1 + 2 + 3 + 6 + 7);
	assert_int_equal(sweep_cpu_parse_stat("cpu  1 2 3\n", &s), -EBADMSG);
	assert_int_equal(sweep_cpu_parse_stat("cpu  1 2 x 4 5 6 7 8\n", &s), -EBADMSG);
	assert_int_equal(sweep_cpu_parse_stat("cpu0 1 2 3 4 5 6 7 8\n", &s), -EBADMSG);
}

static void test_config_hz(void **state)
{
	char how[96];

	(void)state;
	assert_int_equal(sweep_cpu_parse_config_hz("# CONFIG_HZ_100 is not set\n"
		"CONFIG_HZ_250=y\nCONFIG_HZ=250\nCONFIG_SCHED_HRTICK=y\n"), 250);
	assert_int_equal(sweep_cpu_parse_config_hz("CONFIG_HZ_1000=y\n"), 0);
	assert_int_equal(sweep_cpu_parse_config_hz("CONFIG_HZ=fast\n"), 0);
	/* whatever the machine, a positive rate and a reason */
	assert_true(sweep_cpu_kernel_hz(how, sizeof(how)) > 0);
	assert_true(strlen(how) > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_proc_stat),
		cmocka_unit_test(test_config_hz),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
