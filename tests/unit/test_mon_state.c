// SPDX-License-Identifier: GPL-2.0-or-later
/* mon_state_acct: the records' counts merged for --metrics, and a sum that
 * reached 2^64 ns said on stderr once a run, not at every write. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "log.h"
#include "mon_state.h"

/* Three writes, the shard saturated before the second and the third:
 * stderr as the child wrote it. */
static void three_writes(void)
{
	struct mon_config cfg = { .metrics_commands = 2 };
	struct mon m = { .cfg = &cfg };
	struct collector col = { 0 }, *c = &col;
	struct acct a;

	log_init("exitmon");
	if (acct_init(&a, 2) < 0)
		_exit(3);
	col.acct = &a;
	for (int w = 0; w < 3; w++) {
		a.saturated = w > 0;	/* acct_add's word (test_acct) */
		if (mon_state_acct(&m, &c, 1, false, true) < 0)
			_exit(4);
		fprintf(stderr, "write %d: exitmon_sums_saturated %d\n", w,
			m.acct.saturated);
	}
	acct_sum_free(&m.acct);
	acct_free(&a);
	_exit(0);
}

static void test_saturated_said_once(void **state)
{
	char err[2048];
	int p[2], st;
	size_t got = 0;
	ssize_t len;
	pid_t pid;

	(void)state;
	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(p[1], 2);
		three_writes();
	}
	close(p[1]);
	while (got < sizeof(err) - 1 &&
	       (len = read(p[0], err + got, sizeof(err) - 1 - got)) > 0)
		got += (size_t)len;
	err[got] = '\0';
	close(p[0]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_string_equal(err,
		"write 0: exitmon_sums_saturated 0\n"
		"exitmon: --metrics: a sum of seconds reached 2^64 ns and stays "
		"there (exitmon_sums_saturated 1): it is a floor from now on\n"
		"write 1: exitmon_sums_saturated 1\n"
		"write 2: exitmon_sums_saturated 1\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_saturated_said_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
