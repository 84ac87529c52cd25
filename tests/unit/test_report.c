// SPDX-License-Identifier: GPL-2.0-or-later
/* exitmon's counters are defined once (mon_counters.h): the summary file
 * carries every one of them under its name, with its value, and MON_KEY
 * names the same keys for readers such as exitsweep. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "kv.h"
#include "mon_counters.h"
#include "report.h"

static void test_summary_has_every_counter(void **state)
{
	char path[] = "/tmp/exitmon-test-report.XXXXXX";
	struct mon_counters n;
	struct run_info ri = { .seconds = 1.5, .cpulist = "0-1", .shards = 1 };
	struct kvmap kv;
	uint64_t v = 100;
	double d;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	/* Distinct values, so a key read from the wrong field shows. */
#define SET(name, metric, help) n.name = v++;
	MON_COUNTERS(SET)
#undef SET
	assert_int_equal(report_summary(path, &n, &ri), 0);
	assert_int_equal(kv_map_load(path, &kv), 0);
	v = 100;
#define CHECK(name, metric, help) \
	assert_int_equal(kv_map_double(&kv, #name, &d), 0); \
	assert_true(d == (double)v++);
	MON_COUNTERS(CHECK)
#undef CHECK
	assert_non_null(kv_map_get(&kv, MON_KEY(self_exits)));
	assert_string_equal(MON_KEY(dropped), "dropped");
	kv_map_free(&kv);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary_has_every_counter),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
