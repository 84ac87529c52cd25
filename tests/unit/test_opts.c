// SPDX-License-Identifier: GPL-2.0-or-later
/* The option value helpers: the number on success, otherwise the one
 * usage error (exit 2, "bad value for --NAME: 'VAL' (WHAT)"). */
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
#include "opts.h"

/* Run fn(val) in a child; its exit status, its stderr in err. */
static int run_child(void (*fn)(const char *), const char *val, char *err,
		     size_t n)
{
	int p[2], st;
	ssize_t len;
	pid_t pid;

	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(p[1], 2);
		log_init("prog");
		fn(val);
		_exit(0);
	}
	close(p[1]);
	len = read(p[0], err, n - 1);
	err[len > 0 ? len : 0] = '\0';
	close(p[0]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

static void u64_1_10(const char *v)
{
	opts_u64("count", v, 1, 10, "1 to 10");
}

static void u32_full(const char *v)
{
	opts_u32("uid", v, 0, UINT32_MAX, "a number");
}

static void size_4k(const char *v)
{
	opts_size("rcvbuf", v, 4096, 1ull << 30, "4K to 1G");
}

static void double_s(const char *v)
{
	opts_double("duration", v, 0.001, 1e9, "a number of seconds");
}

static void test_values(void **state)
{
	(void)state;
	assert_int_equal(opts_u64("count", "1", 1, 10, "x"), 1);
	assert_int_equal(opts_u64("count", "10", 1, 10, "x"), 10);
	assert_true(opts_u64("count", "18446744073709551615", 0, UINT64_MAX,
			     "x") == UINT64_MAX);
	assert_true(opts_u32("uid", "4294967295", 0, UINT32_MAX, "x") ==
		    UINT32_MAX);
	assert_int_equal(opts_size("rcvbuf", "8M", 4096, 1ull << 30, "x"),
			 8u << 20);
	assert_int_equal(opts_size("rcvbuf", "4096", 4096, 1ull << 30, "x"),
			 4096);
	assert_true(opts_double("duration", "2.5", 0.001, 1e9, "x") == 2.5);
	assert_true(opts_double("duration", "0.001", 0.001, 1e9, "x") == 0.001);
}

static void expect_bad(void (*fn)(const char *), const char *val,
		       const char *msg)
{
	char err[512], want[256];

	snprintf(want, sizeof(want), "prog: bad value for %s; see 'prog --help'\n",
		 msg);
	assert_int_equal(run_child(fn, val, err, sizeof(err)), EXIT_USAGE);
	assert_string_equal(err, want);
}

static void test_bad_values(void **state)
{
	static const struct {
		void (*fn)(const char *);
		const char *val, *msg;
	} bad[] = {
		{ u64_1_10, "0", "--count: '0' (1 to 10)" },
		{ u64_1_10, "11", "--count: '11' (1 to 10)" },
		{ u64_1_10, "5x", "--count: '5x' (1 to 10)" },
		{ u64_1_10, "", "--count: '' (1 to 10)" },
		{ u32_full, "4294967296", "--uid: '4294967296' (a number)" },
		{ u32_full, "-1", "--uid: '-1' (a number)" },
		{ size_4k, "4095", "--rcvbuf: '4095' (4K to 1G)" },
		{ size_4k, "2G", "--rcvbuf: '2G' (4K to 1G)" },
		{ size_4k, "8Q", "--rcvbuf: '8Q' (4K to 1G)" },
		{ double_s, "0", "--duration: '0' (a number of seconds)" },
		{ double_s, "nan", "--duration: 'nan' (a number of seconds)" },
		{ double_s, "1s", "--duration: '1s' (a number of seconds)" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		expect_bad(bad[i].fn, bad[i].val, bad[i].msg);
}

/* A good value in the child: it returns, so the child exits 0. */
static void test_good_value_returns(void **state)
{
	char err[512];

	(void)state;
	assert_int_equal(run_child(u64_1_10, "7", err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_int_equal(run_child(double_s, "1e9", err, sizeof(err)), 0);
}

/* A table like exitsweep's: a flag with a short name, a long-only flag,
 * an option with a value. */
static const struct opt_desc flags[] = {
	{ "json", 300, "FILE", "results" },
	{ "quiet", 'q', NULL, "no progress" },
	{ "quick", 301, NULL, "short" },
};

/* argv: "prog" and the one argument val, parsed to the end. */
static void parse_one(const char *val)
{
	char *argv[] = { "prog", (char *)val, NULL };
	struct opts o;

	opts_init(&o, flags, sizeof(flags) / sizeof(flags[0]));
	while (opts_next(&o, 2, argv) != -1)
		;
}

/* A flag given a value (--quiet=yes) is named as such: never answered
 * about its short name (-q) nor called unknown. */
static void test_flag_with_value(void **state)
{
	char err[512];

	static const char *const cases[][2] = {
		{ "--quiet=yes", "prog: option --quiet takes no value (given '--quiet=yes')" },
		{ "--quick=1", "prog: option --quick takes no value (given '--quick=1')" },
		/* a prefix of one name: named in full */
		{ "--quie=", "prog: option --quiet takes no value (given '--quie=')" },
		/* unchanged: a real unknown short or long option, a missing value */
		{ "-x", "unknown option '-x'" },
		{ "--frob=1", "unknown option '--frob=1'" },
		{ "--json", "option --json needs a value" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(run_child(parse_one, cases[i][0], err, sizeof(err)), 2);
		if (!strstr(err, cases[i][1]))
			fail_msg("%s: \"%s\" lacks \"%s\"", cases[i][0], err, cases[i][1]);
	}
	assert_int_equal(run_child(parse_one, "--json=yes", err, sizeof(err)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_good_value_returns),
		cmocka_unit_test(test_flag_with_value),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
