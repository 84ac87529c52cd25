// SPDX-License-Identifier: GPL-2.0-or-later
/* kernel.task_delayacct saved, set and restored (on a stand-in file), and
 * restored from a signal handler. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "scratch.h"
#include "sweep_sysctl.h"

static int read_int(const char *name)
{
	char p[256], buf[32] = "";
	FILE *f;

	scratch_path(p, sizeof(p), name);
	f = fopen(p, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	return atoi(buf);
}

/* Save 0, set 1, restore: 0 again; a second restore does nothing. */
static void test_dacct(void **state)
{
	char p[256];
	int v;

	(void)state;
	scratch_put("task_delayacct", "0\n");
	scratch_path(p, sizeof(p), "task_delayacct");
	sweep_sysctl_set_path(p);
	assert_int_equal(sweep_sysctl_read(&v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(sweep_sysctl_check_writable(), 0);
	assert_int_equal(sweep_sysctl_save(), 0);
	assert_true(sweep_sysctl_saved());
	assert_int_equal(sweep_sysctl_original(), 0);
	assert_int_equal(sweep_sysctl_set(1), 0);
	assert_int_equal(read_int("task_delayacct"), 1);
	assert_int_equal(sweep_sysctl_set(1), 0);	/* no change, no write */
	assert_int_equal(sweep_sysctl_restore(), 0);
	assert_int_equal(read_int("task_delayacct"), 0);
	scratch_put("task_delayacct", "1\n");	/* someone else changed it */
	assert_int_equal(sweep_sysctl_restore(), 0);	/* we did not: hands off */
	assert_int_equal(read_int("task_delayacct"), 1);
	/* the signal path writes the saved value too */
	assert_int_equal(sweep_sysctl_set(0), 0);
	scratch_put("task_delayacct", "1\n");
	sweep_sysctl_restore_from_signal();
	assert_int_equal(read_int("task_delayacct"), 0);
	scratch_put("task_delayacct", "junk\n");
	assert_int_equal(sweep_sysctl_read(&v), -EINVAL);
	scratch_path(p, sizeof(p), "no/such/file");
	sweep_sysctl_set_path(p);
	assert_int_equal(sweep_sysctl_read(&v), -ENOENT);
	assert_int_equal(sweep_sysctl_check_writable(), -ENOENT);
	sweep_sysctl_set_path(DELAYACCT_PATH);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dacct),
	};

	return cmocka_run_group_tests(tests, scratch_setup, scratch_teardown);
}
