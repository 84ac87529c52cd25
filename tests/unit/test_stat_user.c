// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of exitstat's user names (src/exitstat/stat_user.c): one
 * lookup per uid however many records carry it, unknown uids shown as
 * numbers (and not looked up again), and every uid kept however many
 * there are (the table grows). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "stat_user.h"

static unsigned lookups;

/* Even uids are users named u<uid>; odd ones have no name. */
static bool fake_lookup(uint32_t uid, char *buf, size_t cap)
{
	lookups++;
	if (uid % 2)
		return false;
	snprintf(buf, cap, "u%u", uid);
	return true;
}

static struct stat_users users = { .lookup = fake_lookup };

static void test_once_per_uid(void **state)
{
	(void)state;
	lookups = 0;
	for (int i = 0; i < 100000; i++) {
		assert_string_equal(stat_user_name(&users, 0), "u0");
		assert_string_equal(stat_user_name(&users, 1000), "u1000");
		assert_string_equal(stat_user_name(&users, 65533), "65533");
	}
	assert_int_equal(lookups, 3);
}

static void test_many_uids(void **state)
{
	char want[16];

	(void)state;
	for (uint32_t uid = 0; uid < 3 * STAT_USERS_CAP0; uid++) {
		snprintf(want, sizeof(want), uid % 2 ? "%u" : "u%u", uid);
		assert_string_equal(stat_user_name(&users, uid), want);
	}
	/* Every one is kept: right, and not looked up again, the first
	 * (root, say) as well as those past the first table's size. */
	lookups = 0;
	for (uint32_t uid = 0; uid < 3 * STAT_USERS_CAP0; uid++) {
		snprintf(want, sizeof(want), uid % 2 ? "%u" : "u%u", uid);
		assert_string_equal(stat_user_name(&users, uid), want);
	}
	assert_string_equal(stat_user_name(&users, 65533), "65533");
	assert_int_equal(lookups, 0);
	stat_user_free(&users);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_once_per_uid),
		cmocka_unit_test(test_many_uids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
