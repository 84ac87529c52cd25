// SPDX-License-Identifier: GPL-2.0-or-later
/* What exitsweep records of the machine: the CPU model from
 * /proc/cpuinfo (a stand-in file). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "scratch.h"
#include "sweep_machine.h"

static void test_cpu_model(void **state)
{
	char p[256], model[64];

	(void)state;
	scratch_put("cpuinfo", "processor\t: 0\nvendor_id\t: X\nmodel name\t: Fast CPU @ 3GHz\n");
	scratch_path(p, sizeof(p), "cpuinfo");
	sweep_machine_cpu_model(p, model, sizeof(model));
	assert_string_equal(model, "Fast CPU @ 3GHz");
	scratch_put("cpuinfo", "processor\t: 0\nBogoMIPS\t: 50\n");
	sweep_machine_cpu_model(p, model, sizeof(model));
	assert_string_equal(model, "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_model),
	};

	return cmocka_run_group_tests(tests, scratch_setup, scratch_teardown);
}
