// SPDX-License-Identifier: GPL-2.0-or-later
/* key=value files (kv.c), as exitsweep reads exitmon's, exitgen's and
 * exitprobe's summaries back: the last of a key wins, numbers parsed,
 * comments and blank lines skipped, a line that is no key=value refused. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "kv.h"
#include "scratch.h"

static void test_kv(void **state)
{
	struct kvmap kv;
	char p[256];
	double v;

	(void)state;
	scratch_put("s.sum", "records=12\nmatched=10\n# note\n\nmode=batch\n"
		    "seconds=0.132408\nmatched=11\r\nempty=\n");
	scratch_path(p, sizeof(p), "s.sum");
	assert_int_equal(kv_map_load(p, &kv), 0);
	assert_string_equal(kv_map_get(&kv, "mode"), "batch");
	assert_string_equal(kv_map_get(&kv, "empty"), "");
	assert_null(kv_map_get(&kv, "absent"));
	assert_int_equal(kv_map_double(&kv, "matched", &v), 0);	/* last wins */
	assert_true(v == 11);
	assert_int_equal(kv_map_double(&kv, "seconds", &v), 0);
	assert_true(fabs(v - 0.132408) < 1e-12);
	assert_int_equal(kv_map_double(&kv, "mode", &v), -EINVAL);
	assert_int_equal(kv_map_double(&kv, "absent", &v), -ENOENT);
	kv_map_free(&kv);
	assert_int_equal(kv_map_parse("novalue\n", &kv), -EBADMSG);
	assert_int_equal(kv_map_parse("=5\n", &kv), -EBADMSG);
	scratch_path(p, sizeof(p), "missing.sum");
	assert_int_equal(kv_map_load(p, &kv), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kv),
	};

	return cmocka_run_group_tests(tests, scratch_setup, scratch_teardown);
}
