// SPDX-License-Identifier: GPL-2.0-or-later
/* The result JSON, read back with a real JSON reader (json-c): format,
 * machine, runs, comparisons and loss. */
#include <json-c/json.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "scratch.h"
#include "sweep_json.h"
#include "sweepbuild.h"

static void test_json(void **state)
{
	struct json_object *doc, *o, *arr;
	char pa[256];

	(void)state;
	/* JSON read back with json-c */
	scratch_path(pa, sizeof(pa), "a.json");
	sb_write_result(sweep_json_write, pa, 1.5, NULL);
	doc = json_object_from_file(pa);
	assert_non_null(doc);
	assert_true(json_object_object_get_ex(doc, "format", &o));
	assert_string_equal(json_object_get_string(o), SWEEP_JSON_FORMAT);
	assert_true(json_object_object_get_ex(doc, "machine", &o));
	assert_true(json_object_object_get_ex(o, "hostname", &o));
	assert_string_equal(json_object_get_string(o), "box, \"one\"");
	assert_true(json_object_object_get_ex(doc, "runs", &arr));
	assert_int_equal(json_object_array_length(arr), 4);
	assert_true(json_object_object_get_ex(doc, "comparisons", &arr));
	o = json_object_array_get_idx(arr, 0);
	assert_true(json_object_object_get_ex(o, "section", &o));
	assert_string_equal(json_object_get_string(o), "tgid");
	assert_true(json_object_object_get_ex(doc, "loss", &arr));
	o = json_object_array_get_idx(arr, 0);
	assert_true(json_object_object_get_ex(o, "lost", &o));
	assert_true(json_object_get_double(o) == 1);
	json_object_put(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json),
	};

	return cmocka_run_group_tests(tests, scratch_setup, scratch_teardown);
}
