// SPDX-License-Identifier: GPL-2.0-or-later
/* exitmon's metrics file (metrics.c): command names as label values
 * (escaped, valid UTF-8, one to one, "other" kept apart), and a whole file
 * with hostile commands that promtool accepts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "acct.h"
#include "metrics.h"

static const char *label(const char *comm)
{
	static char buf[1024];
	size_t n = metrics_label(comm, strlen(comm), buf, sizeof(buf));

	assert_int_equal(n, strlen(buf));
	return buf;
}

static void test_label(void **state)
{
	(void)state;
	assert_string_equal(label("bash"), "bash");
	assert_string_equal(label("a\"b"), "a\\\"b");
	/* A backslash is text's \\, each of its two escaped: four. */
	assert_string_equal(label("a\\b"), "a\\\\\\\\b");
	assert_string_equal(label("a\nb"), "a\\\\nb");
	/* Valid UTF-8 as itself, an invalid byte as an escape. */
	assert_string_equal(label("caf\xc3\xa9"), "caf\xc3\xa9");
	assert_string_equal(label("x\xff"), "x\\\\xff");
	assert_string_equal(label("\x01"), "\\\\x01");
	/* A task named other is not the rest. */
	assert_string_equal(label("other"), "\\\\x6fther");
	assert_string_equal(label("others"), "others");
	/* The text \xff and the byte 0xff stay two values. */
	{
		char *text = strdup(label("\\xff"));

		assert_string_equal(text, "\\\\\\\\xff");
		assert_string_not_equal(text, label("\xff"));
		free(text);
	}
	/* snprintf-like: cut short, still terminated, the length it needs. */
	{
		char small[4];

		assert_int_equal(metrics_label("abcdef", 6, small, sizeof(small)), 6);
		assert_string_equal(small, "abc");
	}
}

/* A file with hostile commands, and promtool's word on it when it is
 * installed (the e2e tier always has it). */
static void test_file(void **state)
{
	static const char *const names[] = {
		"ok", "q\"uote", "back\\slash", "new\nline", "\xff\xfe",
		"other", ("\xe2\x80\xae" "rtl"), "caf\xc3\xa9",
	};
	char path[] = "/tmp/exitmon-test-metrics.XXXXXX";
	struct mon_counters n = { 0 };
	struct metrics_gauges g = { .run = "00112233445566778899aabbccddeeff" };
	struct acct a;
	struct acct_sum s;
	char cmd[256], line[4096];
	unsigned i, series = 0, buckets = 0, saturated = 0;
	FILE *f;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(acct_init(&a, 20), 0);
	assert_int_equal(acct_sum_init(&s, 20, 1), 0);
	s.n_shown = sizeof(names) / sizeof(names[0]);
	for (i = 0; i < s.n_shown; i++) {
		s.shown[i].len = (uint8_t)strlen(names[i]);
		memcpy(s.shown[i].comm, names[i], s.shown[i].len);
		s.shown[i].s.exits = i + 1;
		s.shown[i].s.cpu_ns = 1000000001ull * i;
	}
	/* a retired command's series is written too */
	s.n_retired = 1;
	s.retired[0].len = 7;
	memcpy(s.retired[0].comm, "retired", 7);
	s.retired[0].s.exits = 9;
	s.cpu.n[0] = 2;
	s.cpu.n[ACCT_BUCKETS] = 1;
	s.cpu.sum_ns = 123456789012ull;
	s.saturated = true;
	assert_int_equal(metrics_write(path, &n, &g, &s), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		series += !strncmp(line, "exitmon_command_exits_total{", 28);
		saturated += !strcmp(line, "exitmon_sums_saturated 1\n");
		if (!strncmp(line, "exitmon_exit_cpu_seconds_", 25)) {
			buckets++;
			if (strstr(line, "le=\"0.000001\""))
				assert_string_equal(line, "exitmon_exit_cpu_seconds_bucket{le=\"0.000001\"} 2\n");
			if (strstr(line, "le=\"0.0000025\""))
				assert_string_equal(line, "exitmon_exit_cpu_seconds_bucket{le=\"0.0000025\"} 2\n");
			if (strstr(line, "le=\"100\""))
				assert_string_equal(line, "exitmon_exit_cpu_seconds_bucket{le=\"100\"} 2\n");
			if (strstr(line, "+Inf"))
				assert_string_equal(line, "exitmon_exit_cpu_seconds_bucket{le=\"+Inf\"} 3\n");
			if (strstr(line, "_sum"))
				assert_string_equal(line, "exitmon_exit_cpu_seconds_sum 123.456789012\n");
			if (strstr(line, "_count"))
				assert_string_equal(line, "exitmon_exit_cpu_seconds_count 3\n");
		}
		if (strstr(line, "comm=\"back\\\\\\\\slash\"}"))
			assert_true(strstr(line, "exits_total") == NULL ||
				    strstr(line, "} 3\n") != NULL);
	}
	fclose(f);
	assert_int_equal(series, s.n_shown + 1 + 1);	/* a retired, and other */
	assert_int_equal(buckets, ACCT_BUCKETS + 3);
	assert_int_equal(saturated, 1);	/* a sum at 2^64 ns says so */
	if (system("command -v promtool >/dev/null 2>&1") == 0) {
		snprintf(cmd, sizeof(cmd), "promtool check metrics < %s", path);
		assert_int_equal(system(cmd), 0);
	}
	unlink(path);
	acct_sum_free(&s);
	acct_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_label),
		cmocka_unit_test(test_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
