// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of the run id (src/exitmon/runid.c): --run-id's check, systemd's
 * invocation id taken only by the process systemd started, else random. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "runid.h"

static void assert_hex32(const char *s)
{
	assert_int_equal(strlen(s), REC_RUN_HEX);
	for (size_t i = 0; i < REC_RUN_HEX; i++)
		assert_non_null(strchr("0123456789abcdef", s[i]));
}

static void test_parse(void **state)
{
	char out[REC_RUN_HEX];

	(void)state;
	assert_true(runid_parse("0123456789abcdef0123456789abcdef", 32, out));
	assert_memory_equal(out, "0123456789abcdef0123456789abcdef", 32);
	assert_true(runid_parse("0123456789ABCDEF0123456789ABCDEF", 32, out));
	assert_memory_equal(out, "0123456789abcdef0123456789abcdef", 32);
	assert_false(runid_parse("0123456789abcdef0123456789abcde", 31, out));
	assert_false(runid_parse("0123456789abcdef0123456789abcdefa", 33, out));
	assert_false(runid_parse("0123456789abcdef0123456789abcdeg", 32, out));
	/* systemd's own form has no dashes; a UUID's does */
	assert_false(runid_parse("01234567-89ab-cdef-0123-456789abcd", 32, NULL));
	assert_false(runid_parse(NULL, 0, out));
}

static void set_pid_env(pid_t pid)
{
	char b[32];

	snprintf(b, sizeof(b), "%d", (int)pid);
	setenv("SYSTEMD_EXEC_PID", b, 1);
}

static void test_make(void **state)
{
	char a[REC_RUN_HEX + 1], b[REC_RUN_HEX + 1];
	enum runid_source src;

	(void)state;
	unsetenv("INVOCATION_ID");
	unsetenv("SYSTEMD_EXEC_PID");
	/* Random: 32 lowercase hex digits, new each time. */
	assert_int_equal(runid_make(NULL, true, a, &src), 0);
	assert_int_equal(src, RUNID_RANDOM);
	assert_hex32(a);
	assert_int_equal(runid_make(NULL, true, b, &src), 0);
	assert_hex32(b);
	assert_string_not_equal(a, b);
	/* --run-id wins, lowercased. */
	assert_int_equal(runid_make("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA1", true, a,
				    &src), 0);
	assert_int_equal(src, RUNID_OPTION);
	assert_string_equal(a, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1");
	/* systemd's id, when systemd started this very process. */
	setenv("INVOCATION_ID", "5a8c2f0e1b3d4c6e8f9a0b1c2d3e4f50", 1);
	set_pid_env(getpid());
	assert_int_equal(runid_make(NULL, true, a, &src), 0);
	assert_int_equal(src, RUNID_SYSTEMD);
	assert_string_equal(a, "5a8c2f0e1b3d4c6e8f9a0b1c2d3e4f50");
	/* ... not for a replay, nor over --run-id */
	assert_int_equal(runid_make(NULL, false, a, &src), 0);
	assert_int_equal(src, RUNID_RANDOM);
	assert_int_equal(runid_make("00000000000000000000000000000001", true,
				    a, &src), 0);
	assert_int_equal(src, RUNID_OPTION);
	/* A process the service's process started inherits the id: not
	 * taken (two of those would share it). */
	set_pid_env(getppid());
	assert_int_equal(runid_make(NULL, true, a, &src), 0);
	assert_int_equal(src, RUNID_RANDOM);
	unsetenv("SYSTEMD_EXEC_PID");
	assert_int_equal(runid_make(NULL, true, a, &src), 0);
	assert_int_equal(src, RUNID_RANDOM);
	/* Not an id: random instead. */
	set_pid_env(getpid());
	setenv("INVOCATION_ID", "not-an-id", 1);
	assert_int_equal(runid_make(NULL, true, a, &src), 0);
	assert_int_equal(src, RUNID_RANDOM);
	assert_hex32(a);
	unsetenv("INVOCATION_ID");
	unsetenv("SYSTEMD_EXEC_PID");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_make),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
