// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of the output formats (src/common/format*.c): header and
 * column names, absent fields, hostile comm bytes in every format, integer
 * conversion, snprintf semantics and the worst-case line length.
 *
 * With FORMAT_SAMPLES_DIR set, test_write_samples also writes
 * samples.{csv,jsonl,txt} and a manifest of the exact comm bytes there, for
 * tests/e2e/30-format-roundtrip.t to read back with real CSV/JSON readers. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "columns.h"
#include "format.h"
#include "record.h"
#include "tsbuild.h"

/* The columns as the collector's users see them (the contract), spelled out
 * here rather than taken from format.c. */
static const char *const want_columns[] = {
	"run", "seq", "time_ns", "type", "pid", "tgid", "ppid", "comm", "uid", "gid", "exitcode",
	"flags", "nice", "sched", "btime", "exe_dev", "exe_inode",
	"elapsed_us", "utime_us", "stime_us", "utimescaled_us",
	"stimescaled_us", "tgetime_us", "minflt", "majflt", "cpu_run_real_ns",
	"cpu_run_virtual_ns", "cpu_scaled_run_real_ns", "cpu_count",
	"cpu_delay_ns", "blkio_count", "blkio_delay_ns", "swapin_count",
	"swapin_delay_ns", "freepages_count", "freepages_delay_ns",
	"thrashing_count", "thrashing_delay_ns", "compact_count",
	"compact_delay_ns", "wpcopy_count", "wpcopy_delay_ns", "irq_count",
	"irq_delay_ns", "cpu_delay_max_ns", "cpu_delay_min_ns",
	"blkio_delay_max_ns", "blkio_delay_min_ns", "swapin_delay_max_ns",
	"swapin_delay_min_ns", "freepages_delay_max_ns",
	"freepages_delay_min_ns", "thrashing_delay_max_ns",
	"thrashing_delay_min_ns", "compact_delay_max_ns",
	"compact_delay_min_ns", "wpcopy_delay_max_ns", "wpcopy_delay_min_ns",
	"irq_delay_max_ns", "irq_delay_min_ns", "cpu_delay_max_ts_ns",
	"blkio_delay_max_ts_ns", "swapin_delay_max_ts_ns",
	"freepages_delay_max_ts_ns", "thrashing_delay_max_ts_ns",
	"compact_delay_max_ts_ns", "wpcopy_delay_max_ts_ns",
	"irq_delay_max_ts_ns", "nvcsw", "nivcsw",
	"coremem_mb_us", "virtmem_mb_us", "hiwater_rss_kb", "hiwater_vm_kb",
	"read_char", "write_char", "read_syscalls", "write_syscalls",
	"read_bytes", "write_bytes", "cancelled_write_bytes", "version",
};
#define NWANT (sizeof(want_columns) / sizeof(want_columns[0]))

static const enum out_format all_formats[] = { FMT_TEXT, FMT_CSV, FMT_JSONL };

static char line[FORMAT_MAX_LINE];

/* A record with no run, seq or time_ns (one built here, or read from a
 * file of an older exitmon) begins with three absent columns. */
#define CSV_NO_META ",,,"
#define JSON_NO_META "{\"run\":null,\"seq\":null,\"time_ns\":null,"

/* ---- records ------------------------------------------------------------- */

static void rec_init(struct exit_record *r, enum rec_type type, uint32_t id,
		     const char *comm, size_t comm_len)
{
	memset(r, 0, sizeof(*r));
	r->type = type;
	r->id = id;
	r->version = 16;
	r->layout = 16;
	r->comm_len = (uint8_t)comm_len;
	memcpy(r->comm, comm, comm_len);
	r->comm[comm_len] = '\0';
}

static size_t fmt(enum out_format f, const struct exit_record *r)
{
	size_t n = format_record(f, r, line, sizeof(line));

	assert_true(n < sizeof(line));
	assert_int_equal(strlen(line), n);
	return n;
}

/* Structural rules every line obeys: one line, ending in '\n'; in CSV a
 * newline only inside quotes; in JSON and text none but the last. */
static void check_one_line(enum out_format f, const char *s, size_t n)
{
	bool quoted = false;
	size_t i;

	assert_true(n > 0);
	assert_int_equal(s[n - 1], '\n');
	for (i = 0; i + 1 < n; i++) {
		if (f == FMT_CSV && s[i] == '"')
			quoted = !quoted;
		if (s[i] == '\n' || s[i] == '\r')
			assert_true(f == FMT_CSV && quoted);
	}
	assert_false(quoted);
}

/* ---- names, header ----------------------------------------------------------- */

static void test_format_names(void **state)
{
	enum out_format f = FMT_TEXT;
	unsigned i;

	(void)state;
	for (i = 0; i < 3; i++) {
		assert_int_equal(format_from_name(format_name(all_formats[i]), &f), 0);
		assert_int_equal(f, all_formats[i]);
	}
	assert_int_equal(format_from_name("json", &f), -EINVAL);
	assert_int_equal(format_from_name("CSV", &f), -EINVAL);
	assert_int_equal(format_from_name("", &f), -EINVAL);
	assert_int_equal(format_from_name(NULL, &f), -EINVAL);
}

static void test_csv_header(void **state)
{
	char want[2048] = "";
	size_t i, n;

	(void)state;
	for (i = 0; i < NWANT; i++) {
		if (i)
			strcat(want, ",");
		strcat(want, want_columns[i]);
	}
	strcat(want, "\n");
	n = format_header(FMT_CSV, line, sizeof(line));
	assert_string_equal(line, want);
	assert_int_equal(n, strlen(want));
}

static void test_jsonl_and_text_header(void **state)
{
	size_t n;

	(void)state;
	memset(line, 'x', 8);
	assert_int_equal(format_header(FMT_JSONL, line, sizeof(line)), 0);
	assert_string_equal(line, "");
	n = format_header(FMT_TEXT, line, sizeof(line));
	check_one_line(FMT_TEXT, line, n);
	assert_true(strncmp(line, "type ", 5) == 0);
	assert_non_null(strstr(line, " pid "));
	assert_non_null(strstr(line, " elapsed_us "));
	assert_true(n >= 6 && strcmp(line + n - 6, " comm\n") == 0);
}

/* JSON keys, in order, are the CSV column names; the value count matches. */
static void test_json_keys_are_csv_columns(void **state)
{
	struct exit_record r;
	const char *p;
	size_t i, n, commas = 0;

	(void)state;
	rec_init(&r, REC_PID, 1, "k", 1);
	fmt(FMT_JSONL, &r);
	p = line;
	for (i = 0; i < NWANT; i++) {
		char key[64];

		snprintf(key, sizeof(key), "%s\"%s\":", i ? "," : "{",
			 want_columns[i]);
		p = strstr(p, key);
		if (!p)
			fail_msg("key %s missing or out of order in %s", key, line);
	}
	n = fmt(FMT_CSV, &r);
	for (i = 0; i < n; i++)
		commas += line[i] == ',';
	assert_int_equal(commas, NWANT - 1);
}

/* Every field the parser knows is written by exactly one column, and each
 * column is in the header under the parser's name for its field: a field
 * added to record.h but not to COLUMNS fails here. */
#define COL_FIELDS(nm, kind, field, tw) \
	{ #nm, kind, field },
static void test_every_field_has_one_column(void **state)
{
	static const struct { const char *name; enum col_kind kind; unsigned f; }
		cols[] = { COLUMNS(COL_FIELDS) };
	unsigned seen[F__COUNT] = { 0 };
	size_t i, f;
	char key[64];

	(void)state;
	format_header(FMT_CSV, line, sizeof(line));
	for (i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
		enum rec_field fs[2];
		unsigned k, n = col_fields(cols[i].kind, cols[i].f, fs);

		snprintf(key, sizeof(key), i ? ",%s," : "%s,", cols[i].name);
		if (i + 1 == sizeof(cols) / sizeof(cols[0]))
			snprintf(key, sizeof(key), ",%s\n", cols[i].name);
		if (!strstr(line, key))
			fail_msg("column %s not in the header", cols[i].name);
		for (k = 0; k < n; k++)
			seen[fs[k]]++;
		if (cols[i].kind == C_FIELD)
			assert_string_equal(record_field_name(fs[0]), cols[i].name);
	}
	for (f = 0; f < F__COUNT; f++)
		if (seen[f] != 1)
			fail_msg("field %s is written by %u columns",
				 record_field_name((enum rec_field)f), seen[f]);
	assert_int_equal(sizeof(cols) / sizeof(cols[0]), NWANT);
}

/* ---- values -------------------------------------------------------------------- */

/* The line test_full_record expects: the columns of want_columns in order,
 * the record's own strings and ids, and 100, 101, ... for the rest. */
static void expect_full(char *want, size_t cap, bool json)
{
	size_t i, n = 0;
	unsigned k = 100;

	n += (size_t)snprintf(want + n, cap - n, json ? "{" : "");
	for (i = 0; i < NWANT; i++) {
		const char *c = want_columns[i];

		if (i)
			n += (size_t)snprintf(want + n, cap - n, ",");
		if (json)
			n += (size_t)snprintf(want + n, cap - n, "\"%s\":", c);
		if (strcmp(c, "run") == 0)
			n += (size_t)snprintf(want + n, cap - n, json ? "\"%s\"" : "%s",
					      "0123456789abcdef0123456789abcdef");
		else if (strcmp(c, "seq") == 0)
			n += (size_t)snprintf(want + n, cap - n, "18446744073709551615");
		else if (strcmp(c, "time_ns") == 0)
			n += (size_t)snprintf(want + n, cap - n, "1796204357547663123");
		else if (strcmp(c, "type") == 0)
			n += (size_t)snprintf(want + n, cap - n, json ? "\"pid\"" : "pid");
		else if (strcmp(c, "comm") == 0)
			n += (size_t)snprintf(want + n, cap - n, json ? "\"bash\"" : "bash");
		else if (strcmp(c, "pid") == 0 || strcmp(c, "tgid") == 0)
			n += (size_t)snprintf(want + n, cap - n, "%s", c[0] == 'p' ? "4001" : "4000");
		else if (strcmp(c, "version") == 0)
			n += (size_t)snprintf(want + n, cap - n, "16");
		else
			n += (size_t)snprintf(want + n, cap - n, "%u", k++);
		assert_true(n < cap);
	}
	snprintf(want + n, cap - n, json ? "}\n" : "\n");
}

/* Every column filled with a distinct value: the whole line. */
static void test_full_record(void **state)
{
	static const enum rec_field order[] = {
		F_PPID, F_UID, F_GID, F_EXITCODE, F_FLAG, F_NICE, F_SCHED, F_BTIME64,
		F_EXE_DEV, F_EXE_INODE, F_ETIME, F_UTIME, F_STIME, F_UTIMESCALED,
		F_STIMESCALED, F_TGETIME, F_MINFLT, F_MAJFLT, F_CPU_RUN_REAL_TOTAL,
		F_CPU_RUN_VIRTUAL_TOTAL, F_CPU_SCALED_RUN_REAL_TOTAL, F_CPU_COUNT,
		F_CPU_DELAY_TOTAL, F_BLKIO_COUNT, F_BLKIO_DELAY_TOTAL, F_SWAPIN_COUNT,
		F_SWAPIN_DELAY_TOTAL, F_FREEPAGES_COUNT, F_FREEPAGES_DELAY_TOTAL,
		F_THRASHING_COUNT, F_THRASHING_DELAY_TOTAL, F_COMPACT_COUNT,
		F_COMPACT_DELAY_TOTAL, F_WPCOPY_COUNT, F_WPCOPY_DELAY_TOTAL,
		F_IRQ_COUNT, F_IRQ_DELAY_TOTAL, F_CPU_DELAY_MAX, F_CPU_DELAY_MIN,
		F_BLKIO_DELAY_MAX, F_BLKIO_DELAY_MIN, F_SWAPIN_DELAY_MAX,
		F_SWAPIN_DELAY_MIN, F_FREEPAGES_DELAY_MAX, F_FREEPAGES_DELAY_MIN,
		F_THRASHING_DELAY_MAX, F_THRASHING_DELAY_MIN, F_COMPACT_DELAY_MAX,
		F_COMPACT_DELAY_MIN, F_WPCOPY_DELAY_MAX, F_WPCOPY_DELAY_MIN,
		F_IRQ_DELAY_MAX, F_IRQ_DELAY_MIN, F_CPU_DELAY_MAX_TS,
		F_BLKIO_DELAY_MAX_TS, F_SWAPIN_DELAY_MAX_TS, F_FREEPAGES_DELAY_MAX_TS,
		F_THRASHING_DELAY_MAX_TS, F_COMPACT_DELAY_MAX_TS,
		F_WPCOPY_DELAY_MAX_TS, F_IRQ_DELAY_MAX_TS, F_NVCSW, F_NIVCSW, F_COREMEM,
		F_VIRTMEM, F_HIWATER_RSS, F_HIWATER_VM, F_READ_CHAR, F_WRITE_CHAR,
		F_READ_SYSCALLS, F_WRITE_SYSCALLS, F_READ_BYTES, F_WRITE_BYTES,
		F_CANCELLED_WRITE_BYTES,
	};
	struct exit_record r;
	char want[8192];
	unsigned i;

	(void)state;
	assert_int_equal(sizeof(order) / sizeof(order[0]), NWANT - 8);
	rec_init(&r, REC_PID, 4001, "bash", 4);
	memcpy(r.meta.run, "0123456789abcdef0123456789abcdef", REC_RUN_HEX);
	r.meta.seq = UINT64_MAX;
	r.meta.time_ns = 1796204357547663123ull;
	r.meta.has = REC_META_RUN | REC_META_SEQ | REC_META_TIME;
	rec_set(&r, F_TGID, 4000);
	rec_set(&r, F_PID, 9999);	/* ac_pid: not the pid column of a pid record */
	rec_set(&r, F_BTIME, 7);	/* btime64 wins */
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		rec_set(&r, order[i], 100 + i);
	expect_full(want, sizeof(want), false);
	fmt(FMT_CSV, &r);
	assert_string_equal(line, want);
	expect_full(want, sizeof(want), true);
	fmt(FMT_JSONL, &r);
	assert_string_equal(line, want);
	fmt(FMT_TEXT, &r);
	/* type pid tgid ppid uid exitcode elapsed utime stime cpu_delay
	 * blkio_delay comm */
	assert_string_equal(line,
		"pid     4001    4000     100    101      103         110"
		"        111        112          122            124 bash\n");
}

/* Absent fields: empty in CSV, null in JSON, "-" in text; comm, type, the
 * record's own id and version are always there. */
static void test_absent_fields(void **state)
{
	struct exit_record r;
	char want[512];
	size_t i;

	(void)state;
	rec_init(&r, REC_PID, 42, "", 0);
	fmt(FMT_CSV, &r);
	strcpy(want, CSV_NO_META "pid,42");
	for (i = 5; i < NWANT - 1; i++)
		strcat(want, ",");
	strcat(want, ",16\n");
	assert_string_equal(line, want);

	fmt(FMT_JSONL, &r);
	assert_non_null(strstr(line, JSON_NO_META "\"type\":\"pid\",\"pid\":42,\"tgid\":null,"
				     "\"ppid\":null,\"comm\":\"\",\"uid\":null,"));
	assert_non_null(strstr(line, ",\"cancelled_write_bytes\":null,"
				     "\"version\":16}\n"));
	assert_null(strstr(line, ":,"));

	fmt(FMT_TEXT, &r);
	assert_string_equal(line,
		"pid       42       -       -      -        -           -"
		"          -          -            -              - \n");
}

/* A tgid record: pid column = its ac_pid as the kernel sent it (0 on
 * today's kernels), tgid column = its own id; absent ac_pid stays absent. */
static void test_tgid_record_columns(void **state)
{
	struct exit_record r;

	(void)state;
	rec_init(&r, REC_TGID, 300, "grp", 3);
	r.version = 0;
	rec_set(&r, F_PID, 303);
	rec_set(&r, F_TGID, 0);		/* its struct's own ac_tgid: not used */
	fmt(FMT_CSV, &r);
	assert_true(strncmp(line, CSV_NO_META "tgid,303,300,,grp,", 21) == 0);
	assert_true(strcmp(line + strlen(line) - 3, ",0\n") == 0);
	fmt(FMT_JSONL, &r);
	assert_true(strncmp(line, JSON_NO_META "\"type\":\"tgid\",\"pid\":303,\"tgid\":300,",
			    sizeof(JSON_NO_META) - 1 + 35) == 0);
	assert_non_null(strstr(line, "\"version\":0}"));
	fmt(FMT_TEXT, &r);
	assert_true(strncmp(line, "tgid     303     300 ", 21) == 0);

	rec_init(&r, REC_TGID, 300, "", 0);
	fmt(FMT_CSV, &r);
	assert_true(strncmp(line, CSV_NO_META "tgid,,300,", 13) == 0);
}

static void test_btime_and_nice(void **state)
{
	struct exit_record r;

	(void)state;
	rec_init(&r, REC_PID, 1, "", 0);
	rec_set(&r, F_BTIME, 1700000000);
	fmt(FMT_JSONL, &r);
	assert_non_null(strstr(line, "\"btime\":1700000000,"));
	rec_set(&r, F_BTIME64, 4102444800ull);	/* beyond 2106: 64-bit */
	fmt(FMT_JSONL, &r);
	assert_non_null(strstr(line, "\"btime\":4102444800,"));

	/* ac_nice is task_nice() in an unsigned byte. */
	rec_set(&r, F_NICE, (uint8_t)-5);
	fmt(FMT_JSONL, &r);
	assert_non_null(strstr(line, "\"nice\":-5,"));
	rec_set(&r, F_NICE, (uint8_t)-20);
	fmt(FMT_CSV, &r);
	assert_non_null(strstr(line, ",-20,"));
	rec_set(&r, F_NICE, 19);
	fmt(FMT_JSONL, &r);
	assert_non_null(strstr(line, "\"nice\":19,"));
}

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Our integer conversion against printf's, at every digit-count edge. */
static void test_integer_conversion(void **state)
{
	struct exit_record r;
	uint64_t p10 = 1, seed = 42;
	unsigned i;

	(void)state;
	rec_init(&r, REC_PID, 1, "", 0);
	for (i = 0; i <= 20; i++) {
		const uint64_t vals[] = { p10 - 1, p10, p10 + 1, p10 * 7 + 3,
					  UINT64_MAX - i };
		unsigned j;

		for (j = 0; j < sizeof(vals) / sizeof(vals[0]); j++) {
			char want[64];

			rec_set(&r, F_MINFLT, vals[j]);
			fmt(FMT_JSONL, &r);
			snprintf(want, sizeof(want), "\"minflt\":%llu,",
				 (unsigned long long)vals[j]);
			if (!strstr(line, want))
				fail_msg("%s not in %s", want, line);
		}
		if (i < 19)
			p10 *= 10;
	}
	/* Around the switch from 64- to 32-bit arithmetic. */
	for (i = 0; i < 6; i++) {
		const uint64_t edge[] = { UINT32_MAX - 1ull, UINT32_MAX,
					  UINT32_MAX + 1ull, UINT32_MAX * 100ull,
					  UINT32_MAX * 100ull + 99, 1ull << 63 };
		char want[64];

		rec_set(&r, F_MINFLT, edge[i]);
		fmt(FMT_CSV, &r);
		snprintf(want, sizeof(want), ",%llu,", (unsigned long long)edge[i]);
		if (!strstr(line, want))
			fail_msg("%s not in %s", want, line);
	}
	/* Every length, many digit patterns: groups of 8 digits with inner
	 * zeros must keep them. */
	for (i = 0; i < 20000; i++) {
		uint64_t x = splitmix(&seed) >> (i % 64);
		char want[64];

		rec_set(&r, F_MINFLT, x % 3 ? x : x / 100000 * 100000 + 7);
		fmt(FMT_JSONL, &r);	/* the key names the column */
		snprintf(want, sizeof(want), "\"minflt\":%llu,",
			 (unsigned long long)rec_get(&r, F_MINFLT));
		if (!strstr(line, want))
			fail_msg("%s not in %s", want, line);
	}
	/* The id columns are 32-bit. */
	rec_init(&r, REC_PID, UINT32_MAX, "", 0);
	fmt(FMT_CSV, &r);
	assert_true(strncmp(line, CSV_NO_META "pid,4294967295,", 18) == 0);
}

/* ---- hostile comm -------------------------------------------------------------- */

struct comm_case {
	const char *bytes;
	size_t len;
	const char *csv;	/* the comm field as written */
	const char *json;	/* the JSON string, quotes included */
	const char *text;	/* as shown */
};

#define B(s) s, sizeof(s) - 1
static const struct comm_case comm_cases[] = {
	{ B("plain"), "plain", "\"plain\"", "plain" },
	{ B(""), "", "\"\"", "" },
	{ B("a,b"), "\"a,b\"", "\"a,b\"", "a,b" },
	{ B("say \"hi\""), "\"say \"\"hi\"\"\"", "\"say \\\"hi\\\"\"", "say \"hi\"" },
	{ B("\""), "\"\"\"\"", "\"\\\"\"", "\"" },
	{ B("back\\slash"), "back\\slash", "\"back\\\\slash\"", "back\\\\slash" },
	{ B("a\nb"), "\"a\nb\"", "\"a\\nb\"", "a\\nb" },
	{ B("a\rb"), "\"a\rb\"", "\"a\\rb\"", "a\\rb" },
	{ B("a\r\n"), "\"a\r\n\"", "\"a\\r\\n\"", "a\\r\\n" },
	{ B("a\tb"), "a\tb", "\"a\\tb\"", "a\\tb" },
	{ B("\tlead"), "\"\tlead\"", "\"\\tlead\"", "\\tlead" },
	{ B(" lead"), "\" lead\"", "\" lead\"", " lead" },
	{ B("trail "), "\"trail \"", "\"trail \"", "trail " },
	{ B("in side"), "in side", "\"in side\"", "in side" },
	{ B("\b\f"), "\b\f", "\"\\b\\f\"", "\\x08\\x0c" },
	{ B("\x01\x02\x1e\x1f"), "\x01\x02\x1e\x1f",
	  "\"\\u0001\\u0002\\u001e\\u001f\"", "\\x01\\x02\\x1e\\x1f" },
	{ B("\x1b[31mred"), "\x1b[31mred", "\"\\u001b[31mred\"", "\\x1b[31mred" },
	{ B("del\x7f"), "del\x7f", "\"del\\u007f\"", "del\\x7f" },
	{ B("\xff"), "\xff", "\"\\u00ff\"", "\\xff" },
	{ B("\xc3"), "\xc3", "\"\\u00c3\"", "\\xc3" },
	{ B("x\xc3("), "x\xc3(", "\"x\\u00c3(\"", "x\\xc3(" },
	{ B("caf\xc3\xa9"), "caf\xc3\xa9", "\"caf\\u00c3\\u00a9\"", "caf\xc3\xa9" },
	{ B("\xe6\x97\xa5\xe6\x9c\xac"), "\xe6\x97\xa5\xe6\x9c\xac",
	  "\"\\u00e6\\u0097\\u00a5\\u00e6\\u009c\\u00ac\"",
	  "\xe6\x97\xa5\xe6\x9c\xac" },
	{ B("\xf0\x9f\x90\xa7"), "\xf0\x9f\x90\xa7",
	  "\"\\u00f0\\u009f\\u0090\\u00a7\"", "\xf0\x9f\x90\xa7" },
	/* Cut mid-character, as the kernel's 15-byte comm often does. */
	{ B("ab\xe6\x97"), "ab\xe6\x97", "\"ab\\u00e6\\u0097\"", "ab\\xe6\\x97" },
	/* Overlong '/', a surrogate, beyond U+10FFFF: not UTF-8. */
	{ B("\xc0\xaf"), "\xc0\xaf", "\"\\u00c0\\u00af\"", "\\xc0\\xaf" },
	{ B("\xed\xa0\x80"), "\xed\xa0\x80", "\"\\u00ed\\u00a0\\u0080\"",
	  "\\xed\\xa0\\x80" },
	{ B("\xf4\x90\x80\x80"), "\xf4\x90\x80\x80",
	  "\"\\u00f4\\u0090\\u0080\\u0080\"", "\\xf4\\x90\\x80\\x80" },
	/* Valid but hiding or reordering: C1 NEL, RLO, zero-width space. */
	{ B("\xc2\x85"), "\xc2\x85", "\"\\u00c2\\u0085\"", "\\xc2\\x85" },
	{ B("ab\xe2\x80\xae""cd"), "ab\xe2\x80\xae""cd",
	  "\"ab\\u00e2\\u0080\\u00aecd\"", "ab\\xe2\\x80\\xaecd" },
	{ B("\xe2\x80\x8b"), "\xe2\x80\x8b", "\"\\u00e2\\u0080\\u008b\"",
	  "\\xe2\\x80\\x8b" },
	{ B("</script>"), "</script>", "\"</script>\"", "</script>" },
	{ B("=cmd|' /C calc'!A0"), "=cmd|' /C calc'!A0",
	  "\"=cmd|' /C calc'!A0\"", "=cmd|' /C calc'!A0" },
};
#define NCASES (sizeof(comm_cases) / sizeof(comm_cases[0]))

static void check_comm_case(const struct comm_case *c)
{
	static const char csv_prefix[] = CSV_NO_META "pid,1,,,";
	struct exit_record r;
	char want[512];
	size_t n;

	rec_init(&r, REC_PID, 1, c->bytes, c->len);

	n = fmt(FMT_CSV, &r);
	check_one_line(FMT_CSV, line, n);
	snprintf(want, sizeof(want), "%s%s,", csv_prefix, c->csv);
	if (strncmp(line, want, strlen(want)) != 0)
		fail_msg("csv: want prefix [%s], got [%s]", want, line);

	n = fmt(FMT_JSONL, &r);
	check_one_line(FMT_JSONL, line, n);
	snprintf(want, sizeof(want), ",\"comm\":%s,\"uid\":", c->json);
	if (!strstr(line, want))
		fail_msg("json: want [%s] in [%s]", want, line);
	for (n = 0; line[n]; n++)	/* JSON output is pure ASCII */
		assert_true((unsigned char)line[n] < 0x80);

	n = fmt(FMT_TEXT, &r);
	check_one_line(FMT_TEXT, line, n);
	snprintf(want, sizeof(want), " %s\n", c->text);
	if (n < strlen(want) || strcmp(line + n - strlen(want), want) != 0)
		fail_msg("text: want suffix [%s], got [%s]", want, line);
}

static void test_hostile_comm(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < NCASES; i++)
		check_comm_case(&comm_cases[i]);
}

/* Every single byte value, alone and between letters, in every format:
 * one line each, and the text and JSON never carry a raw control byte. */
static void test_every_byte(void **state)
{
	unsigned b, i;

	(void)state;
	for (b = 1; b < 256; b++) {
		char comm[3] = { 'a', (char)b, 'z' };
		struct exit_record r;

		rec_init(&r, REC_PID, 1, comm, 3);
		for (i = 0; i < 3; i++) {
			size_t n = fmt(all_formats[i], &r), k;

			check_one_line(all_formats[i], line, n);
			if (all_formats[i] == FMT_CSV)
				continue;
			for (k = 0; k + 1 < n; k++)
				assert_true((unsigned char)line[k] >= 0x20 &&
					    (unsigned char)line[k] != 0x7f);
		}
	}
}

/* ---- buffer handling ----------------------------------------------------------- */

/* The longest line any record can make stays below FORMAT_MAX_LINE, and a
 * bogus comm_len cannot make the writer read or write out of bounds. */
static void test_worst_case_length(void **state)
{
	struct exit_record r;
	char want[80];
	unsigned i;
	int f;

	(void)state;
	rec_init(&r, REC_TGID, UINT32_MAX, "", 0);
	memset(r.comm, 0xff, TS_COMM_LEN);
	r.comm_len = TS_COMM_LEN;
	for (f = 0; f < F__COUNT; f++)
		rec_set(&r, (enum rec_field)f, UINT64_MAX);
	rec_set(&r, F_NICE, 0x80);	/* "-128" */
	r.version = UINT16_MAX;
	memset(r.meta.run, 'f', REC_RUN_HEX);
	r.meta.seq = r.meta.time_ns = UINT64_MAX;
	r.meta.has = REC_META_RUN | REC_META_SEQ | REC_META_TIME;
	for (i = 0; i < 3; i++) {
		size_t n = fmt(all_formats[i], &r);

		check_one_line(all_formats[i], line, n);
		assert_true(n < FORMAT_MAX_LINE / 2);
	}
	memset(r.comm, '"', TS_COMM_LEN);
	r.comm_len = 255;	/* clamped to TS_COMM_LEN */
	for (i = 0; i < 3; i++)
		check_one_line(all_formats[i], line, fmt(all_formats[i], &r));
	/* 32 quotes: doubled and quoted, 66 bytes. */
	fmt(FMT_CSV, &r);
	want[0] = ',';
	memset(want + 1, '"', 66);
	want[67] = ',';
	want[68] = '\0';
	assert_non_null(strstr(line, want));
}

/* snprintf semantics: any cap returns the full length, writes at most cap
 * bytes, always NUL-terminates when cap > 0, and touches nothing beyond. */
static void check_caps(enum out_format f, const struct exit_record *r)
{
	char full[FORMAT_MAX_LINE], small[FORMAT_MAX_LINE + 16];
	size_t n, cap;

	n = r ? format_record(f, r, full, sizeof(full))
	      : format_header(f, full, sizeof(full));
	assert_int_equal(r ? format_record(f, r, NULL, 0)
			   : format_header(f, NULL, 0), n);
	for (cap = 1; cap <= n + 2; cap++) {
		size_t got, keep = cap - 1 < n ? cap - 1 : n;

		memset(small, 0xaa, sizeof(small));
		got = r ? format_record(f, r, small, cap)
			: format_header(f, small, cap);
		assert_int_equal(got, n);
		assert_memory_equal(small, full, keep);
		assert_int_equal(small[keep], '\0');
		assert_int_equal((unsigned char)small[cap], 0xaa);
	}
	/* A buffer of FORMAT_MAX_LINE and more takes the direct path. */
	memset(small, 0xaa, sizeof(small));
	assert_int_equal(r ? format_record(f, r, small, FORMAT_MAX_LINE)
			   : format_header(f, small, FORMAT_MAX_LINE), n);
	assert_string_equal(small, full);
}

static void test_snprintf_semantics(void **state)
{
	struct exit_record r;
	unsigned i;

	(void)state;
	rec_init(&r, REC_PID, 123, "a\"b\n", 4);
	rec_set(&r, F_ETIME, 123456789);
	for (i = 0; i < 3; i++) {
		check_caps(all_formats[i], &r);
		check_caps(all_formats[i], NULL);
	}
}

/* ---- samples for the round-trip test ------------------------------------------- */

static FILE *open_sample(const char *dir, const char *name)
{
	char path[4096];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "wb");
	if (!fp)
		fail_msg("cannot write %s", path);
	return fp;
}

static void hex(FILE *fp, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(fp, "%02x", (unsigned char)s[i]);
	if (n == 0)
		fputc('-', fp);
}

/* One record per hostile comm (pid = 1000 + case), plus a tgid record with
 * absent fields; manifest lines: "<pid> <comm hex or ->". */
static void test_write_samples(void **state)
{
	const char *dir = getenv("FORMAT_SAMPLES_DIR");
	FILE *fp[3], *man;
	size_t i, f;

	(void)state;
	fp[0] = open_sample(dir, "samples.txt");
	fp[1] = open_sample(dir, "samples.csv");
	fp[2] = open_sample(dir, "samples.jsonl");
	man = open_sample(dir, "manifest");
	for (f = 0; f < 3; f++) {
		format_header(all_formats[f], line, sizeof(line));
		fputs(line, fp[f]);
	}
	for (i = 0; i <= NCASES; i++) {
		struct exit_record r;

		if (i < NCASES) {
			rec_init(&r, REC_PID, (uint32_t)(1000 + i),
				 comm_cases[i].bytes, comm_cases[i].len);
			rec_set(&r, F_ETIME, 5000 + i);
			rec_set(&r, F_NICE, (uint8_t)-3);
		} else {
			/* All optional fields absent. */
			rec_init(&r, REC_TGID, 2000, "", 0);
			r.version = 0;
		}
		for (f = 0; f < 3; f++) {
			size_t n = format_record(all_formats[f], &r, line, sizeof(line));

			assert_int_equal(fwrite(line, 1, n, fp[f]), n);
		}
		fprintf(man, "%u ", i < NCASES ? (unsigned)(1000 + i) : 0u);
		hex(man, r.comm, r.comm_len);
		fputc(' ', man);
		hex(man, i < NCASES ? comm_cases[i].text : "",
		    i < NCASES ? strlen(comm_cases[i].text) : 0);
		fputc('\n', man);
	}
	for (f = 0; f < 3; f++)
		assert_int_equal(fclose(fp[f]), 0);
	assert_int_equal(fclose(man), 0);
}

/* The collector writes from views of the kernel's bytes; the readers from
 * records.  Every struct version, with and without a tgid record, both
 * must write the same line in every format. */
static void test_view_matches_record(void **state)
{
	static const enum out_format fmts[] = { FMT_TEXT, FMT_CSV, FMT_JSONL };
	static char a[FORMAT_MAX_LINE], b[FORMAT_MAX_LINE];
	unsigned v, t, k, i;

	(void)state;
	for (v = 1; v <= TS_KNOWN_VERSION + 1; v++) {
		for (t = 0; t < 2; t++) {
			struct tsb_msg m;
			struct exit_msg rec;
			struct exit_views views;
			size_t len = tsb_exit_msg(&m, v, 4242, "a,\"b\"", t ? 4240 : 0,
						  t ? v : 0);

			assert_int_equal(record_parse_nlmsg(m.b, len, &rec), 0);
			assert_int_equal(record_view_nlmsg(m.b, len, &views), 0);
			assert_int_equal(views.n, rec.n);
			for (k = 0; k < rec.n; k++)
				for (i = 0; i < 3; i++) {
					size_t n = format_view(fmts[i], &views.rec[k],
							       a, sizeof(a));

					assert_int_equal(n, format_record(fmts[i], &rec.rec[k],
									  b, sizeof(b)));
					assert_string_equal(a, b);
				}
		}
	}
}

/* -F, --fields: names, order, refusals, and the same values as in the
 * whole line. */
#define COUNT_COL(nm, kind, field, tw) + 1
/* The writer of version 16 and later payloads writes runs of zero 8-byte
 * fields at once: with every such field 0 but one (each in turn, a small
 * and a long value), it still writes what the normalised record does. */
static void check_one_nonzero(unsigned version, int nonzero, uint64_t value)
{
	static unsigned char stats[TSB_MAX_STATS];
	static char a[FORMAT_MAX_LINE], b[FORMAT_MAX_LINE];
	size_t len = tsb_sizes[version];
	struct tsb_msg m;
	struct exit_msg rec;
	struct exit_views views;
	unsigned i;
	size_t n;
	int f;

	tsb_fill_stats(stats, len, version, version, "runs");
	for (f = 0; f < F__COUNT; f++) {
		uint16_t off = tsb_offset((enum rec_field)f, version);

		if (tsb_fields[f].size == 8 && off != TSB_NONE)
			tsb_store(stats + off, f == nonzero ? value : 0, 8);
	}
	tsb_begin(&m, 0x1c, TASKSTATS_CMD_NEW);
	tsb_aggr(&m, TASKSTATS_TYPE_AGGR_PID, TASKSTATS_TYPE_PID, 77, stats, len);
	n = tsb_end(&m);
	assert_int_equal(record_parse_nlmsg(m.b, n, &rec), 0);
	assert_int_equal(record_view_nlmsg(m.b, n, &views), 0);
	for (i = 0; i < 3; i++) {
		n = format_view(all_formats[i], &views.rec[0], a, sizeof(a));
		assert_int_equal(n, format_record(all_formats[i], &rec.rec[0],
						  b, sizeof(b)));
		assert_string_equal(a, b);
	}
}

static void test_zero_runs(void **state)
{
	unsigned version;
	int f;

	(void)state;
	for (version = 16; version <= TS_KNOWN_VERSION; version++)
		for (f = -1; f < F__COUNT; f++) {
			check_one_nonzero(version, f, 7);
			check_one_nonzero(version, f, 12345678901234ull);
		}
}

static void test_fields(void **state)
{
	struct format_cols c;
	struct tsb_msg m;
	struct exit_views v;
	char bad[64], out[FORMAT_MAX_LINE];
	size_t len = tsb_exit_msg(&m, TS_KNOWN_VERSION, 4242, "x y", 0, 0);

	(void)state;
	assert_int_equal(format_cols_parse("all", &c, bad, sizeof(bad)), 0);
	assert_int_equal(c.n, (unsigned)(0 COLUMNS(COUNT_COL)));
	assert_int_equal(format_cols_parse("pid,bogus", &c, bad, sizeof(bad)), -EINVAL);
	assert_string_equal(bad, "bogus");
	assert_int_equal(format_cols_parse("pid,,comm", &c, bad, sizeof(bad)), -EINVAL);
	assert_string_equal(bad, "");
	assert_int_equal(format_cols_parse("", &c, bad, sizeof(bad)), -EINVAL);
	assert_int_equal(format_cols_parse("pid,comm,pid", &c, bad, sizeof(bad)), -EEXIST);
	assert_string_equal(bad, "pid");
	assert_true(format_cols_names(out, sizeof(out)) < sizeof(out));
	assert_non_null(strstr(out, "type,pid,tgid,"));

	assert_int_equal(format_cols_parse("comm,version,pid,nice", &c, bad,
					   sizeof(bad)), 0);
	assert_int_equal(record_view_nlmsg(m.b, len, &v), 0);
	format_header_cols(FMT_CSV, &c, out, sizeof(out));
	assert_string_equal(out, "comm,version,pid,nice\n");
	format_header_cols(FMT_JSONL, &c, out, sizeof(out));
	assert_string_equal(out, "");
	format_view_cols(FMT_CSV, &c, &v.rec[0], out, sizeof(out));
	assert_string_equal(out, "x y,17,4242,4\n");
	format_view_cols(FMT_JSONL, &c, &v.rec[0], out, sizeof(out));
	assert_string_equal(out, "{\"comm\":\"x y\",\"version\":17,\"pid\":4242,"
			    "\"nice\":4}\n");
}

#define STARTS(s, lit) (strncmp((s), lit, sizeof(lit) - 1) == 0)

/* run, seq, time_ns: first in CSV and JSON lines, written from the view's
 * meta as from the record's, absent without it, chosen by --fields like
 * any column, and not shown by the text format. */
static void test_run_seq_time(void **state)
{
	static const char run[] = "00112233445566778899aabbccddeeff";
	static char a[FORMAT_MAX_LINE], b[FORMAT_MAX_LINE];
	struct rec_meta meta = { .seq = 5, .time_ns = 1796204357000000001ull,
		.has = REC_META_RUN | REC_META_SEQ | REC_META_TIME };
	struct format_cols c;
	struct tsb_msg m;
	struct exit_views v;
	struct exit_record r;
	char bad[64];
	size_t len = tsb_exit_msg(&m, TS_KNOWN_VERSION, 4242, "x", 4240, TS_KNOWN_VERSION);
	unsigned i, k;

	(void)state;
	memcpy(meta.run, run, REC_RUN_HEX);
	assert_int_equal(record_view_nlmsg(m.b, len, &v), 0);
	assert_int_equal(v.n, 2);
	assert_null(v.rec[0].meta);
	for (k = 0; k < v.n; k++)
		v.rec[k].meta = &meta;
	format_view(FMT_CSV, &v.rec[0], a, sizeof(a));
	assert_true(STARTS(a, "00112233445566778899aabbccddeeff,5,"
			    "1796204357000000001,pid,4242,"));
	format_view(FMT_JSONL, &v.rec[1], a, sizeof(a));
	assert_true(STARTS(a, "{\"run\":\"00112233445566778899aabbccddeeff\","
			    "\"seq\":5,\"time_ns\":1796204357000000001,"
			    "\"type\":\"tgid\","));
	/* The text format has its own twelve columns: none of the three. */
	format_view(FMT_TEXT, &v.rec[0], a, sizeof(a));
	assert_null(strstr(a, run));
	format_header(FMT_TEXT, b, sizeof(b));
	assert_null(strstr(b, "seq"));
	/* The record of a view carries its meta; both write the same. */
	for (k = 0; k < v.n; k++) {
		record_from_view(&v.rec[k], &r);
		assert_int_equal(r.meta.seq, 5);
		for (i = 0; i < 3; i++) {
			format_view(all_formats[i], &v.rec[k], a, sizeof(a));
			format_record(all_formats[i], &r, b, sizeof(b));
			assert_string_equal(a, b);
		}
	}
	/* Each known apart: a seq without a time. */
	meta.has = REC_META_SEQ;
	format_view(FMT_CSV, &v.rec[0], a, sizeof(a));
	assert_true(STARTS(a, ",5,,pid,"));
	format_view(FMT_JSONL, &v.rec[0], a, sizeof(a));
	assert_true(STARTS(a, "{\"run\":null,\"seq\":5,\"time_ns\":null,"));
	/* --fields: in any order, like any column. */
	meta.has = REC_META_RUN | REC_META_SEQ | REC_META_TIME;
	assert_int_equal(format_cols_parse("seq,pid,run,time_ns", &c, bad,
					   sizeof(bad)), 0);
	format_header_cols(FMT_CSV, &c, a, sizeof(a));
	assert_string_equal(a, "seq,pid,run,time_ns\n");
	format_view_cols(FMT_CSV, &c, &v.rec[0], a, sizeof(a));
	assert_string_equal(a, "5,4242,00112233445566778899aabbccddeeff,"
			    "1796204357000000001\n");
	format_view_cols(FMT_JSONL, &c, &v.rec[0], a, sizeof(a));
	assert_string_equal(a, "{\"seq\":5,\"pid\":4242,\"run\":"
			    "\"00112233445566778899aabbccddeeff\",\"time_ns\":"
			    "1796204357000000001}\n");
	v.rec[0].meta = NULL;
	format_view_cols(FMT_CSV, &c, &v.rec[0], a, sizeof(a));
	assert_string_equal(a, ",4242,,\n");
	format_view_cols(FMT_JSONL, &c, &v.rec[0], a, sizeof(a));
	assert_string_equal(a, "{\"seq\":null,\"pid\":4242,\"run\":null,"
			    "\"time_ns\":null}\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_names),
		cmocka_unit_test(test_csv_header),
		cmocka_unit_test(test_jsonl_and_text_header),
		cmocka_unit_test(test_json_keys_are_csv_columns),
		cmocka_unit_test(test_every_field_has_one_column),
		cmocka_unit_test(test_full_record),
		cmocka_unit_test(test_absent_fields),
		cmocka_unit_test(test_tgid_record_columns),
		cmocka_unit_test(test_btime_and_nice),
		cmocka_unit_test(test_integer_conversion),
		cmocka_unit_test(test_hostile_comm),
		cmocka_unit_test(test_every_byte),
		cmocka_unit_test(test_worst_case_length),
		cmocka_unit_test(test_snprintf_semantics),
		cmocka_unit_test(test_view_matches_record),
		cmocka_unit_test(test_zero_runs),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_run_seq_time),
	};
	const struct CMUnitTest samples[] = {
		cmocka_unit_test(test_write_samples),
	};
	const char *dir = getenv("FORMAT_SAMPLES_DIR");
	int failed = cmocka_run_group_tests(tests, NULL, NULL);

	/* Only on request: the round-trip test reads what this writes. */
	if (dir && *dir)
		failed += cmocka_run_group_tests(samples, NULL, NULL);
	return failed;
}
