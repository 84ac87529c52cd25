// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of the record readers (src/common/recread*.c): whatever
 * format.c writes, in CSV or JSON lines, reads back to the same record
 * (every field, its presence, the exact comm bytes); headers are read by
 * name (unknown columns counted, missing ones absent, foreign files
 * refused); malformed rows are refused whole. */
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
#include "recread.h"

static char line[FORMAT_MAX_LINE], head[FORMAT_MAX_LINE];

/* A record with every field but the ones its type writes elsewhere (the
 * pid column of a pid row is its id; btime is read back as btime64). */
static void make(struct exit_record *r, enum rec_type t, const char *comm,
		 size_t n, unsigned seed, unsigned nfields)
{
	memset(r, 0, sizeof(*r));
	r->type = t;
	r->id = 1000 + seed;
	r->version = r->layout = 16;
	memcpy(r->comm, comm, n);
	r->comm_len = (uint8_t)n;
	for (unsigned f = 0; f < nfields && f < F__COUNT; f++) {
		if (f == F_BTIME || (t == REC_PID && f == F_PID) ||
		    (t == REC_TGID && f == F_TGID))
			continue;
		rec_set(r, (enum rec_field)f, f == F_NICE ? (uint8_t)-7 :
			f == F_FLAG || f == F_SCHED ? UINT8_MAX - seed % 2 :
			f == F_PID || f == F_TGID || f == F_UID || f == F_GID ||
			f == F_PPID || f == F_EXITCODE ? UINT32_MAX - seed :	/* u32 */
			f % 5 == 0 ? UINT64_MAX - f : (uint64_t)f * 977 * seed);
	}
}

static void same(const struct exit_record *a, const struct exit_record *b)
{
	assert_int_equal(a->type, b->type);
	assert_int_equal(a->id, b->id);
	assert_int_equal(a->version, b->version);
	assert_int_equal(a->comm_len, b->comm_len);
	assert_memory_equal(a->comm, b->comm, a->comm_len);
	assert_int_equal(a->meta.has, b->meta.has);
	if (a->meta.has & REC_META_RUN)
		assert_memory_equal(a->meta.run, b->meta.run, REC_RUN_HEX);
	if (a->meta.has & REC_META_SEQ)
		assert_int_equal(a->meta.seq, b->meta.seq);
	if (a->meta.has & REC_META_TIME)
		assert_int_equal(a->meta.time_ns, b->meta.time_ns);
	for (unsigned f = 0; f < F__COUNT; f++) {
		if (rec_has(a, (enum rec_field)f) != rec_has(b, (enum rec_field)f))
			fail_msg("field %s: presence differs", record_field_name((enum rec_field)f));
		if (rec_has(a, (enum rec_field)f))
			assert_int_equal(rec_get(a, (enum rec_field)f), rec_get(b, (enum rec_field)f));
	}
}

static const struct { const char *s; size_t n; } comms[] = {
	{ "bash", 4 }, { "", 0 }, { "a,b", 3 }, { "say \"hi\"", 8 },
	{ "two\nlines", 9 }, { " pad ", 5 }, { "\xff\xfe latin", 8 },
	{ "caf\xc3\xa9", 5 }, { "back\\slash\t", 11 },
	{ "0123456789abcdef0123456789abcdef", 32 },
};
#define NCOMMS (sizeof(comms) / sizeof(comms[0]))

static void roundtrip(enum out_format f)
{
	struct recread rr;
	struct exit_record a, b;

	recread_init(&rr);
	if (f == FMT_CSV) {
		size_t n = format_header(FMT_CSV, head, sizeof(head));

		assert_int_equal(recread_csv_header(&rr, head, n - 1), 0);
		assert_int_equal(rr.unknown, 0);
	}
	for (unsigned i = 0; i < NCOMMS * 4; i++) {
		size_t n;

		make(&a, i % 2 ? REC_TGID : REC_PID, comms[i % NCOMMS].s,
		     comms[i % NCOMMS].n, i + 1, i % 3 ? F__COUNT : 30 + i);
		/* run, seq, time_ns: every mix of known and absent */
		a.meta.has = (uint8_t)(i % 8);
		memcpy(a.meta.run, "0123456789abcdef0123456789abcdef", REC_RUN_HEX);
		a.meta.run[i % REC_RUN_HEX] = 'f';
		a.meta.seq = i % 5 ? i + 1 : UINT64_MAX;
		a.meta.time_ns = UINT64_MAX - i;
		n = format_record(f, &a, line, sizeof(line));
		assert_true(n > 0 && n < sizeof(line));
		if (f == FMT_CSV)
			assert_int_equal(recread_csv(&rr, line, n - 1, &b), 0);
		else
			assert_int_equal(recread_json(&rr, line, n - 1, &b), 0);
		same(&a, &b);
	}
}

static void test_csv_roundtrip(void **state)
{
	(void)state;
	roundtrip(FMT_CSV);
}

static void test_json_roundtrip(void **state)
{
	(void)state;
	roundtrip(FMT_JSONL);
}

/* Columns are found by name: another order, a column we do not know
 * (counted), a column we know but the file lacks (absent). */
static void test_csv_header_by_name(void **state)
{
	static const char h[] = "tgid,future_ns,comm,type,pid,utime_us";
	struct recread rr;
	struct exit_record r;

	(void)state;
	recread_init(&rr);
	assert_int_equal(recread_csv_header(&rr, h, strlen(h)), 0);
	assert_int_equal(rr.unknown, 1);
	assert_string_equal(rr.first_unknown, "future_ns");
	assert_int_equal(recread_csv(&rr, "7,99,x,pid,8,5", 14, &r), 0);
	assert_int_equal(r.type, REC_PID);
	assert_int_equal(r.id, 8);
	assert_int_equal(rec_get(&r, F_TGID), 7);
	assert_int_equal(rec_get(&r, F_UTIME), 5);
	assert_false(rec_has(&r, F_STIME));
	assert_string_equal(r.comm, "x");
	/* what the header has, by field */
	assert_true(recread_csv_has_field(&rr, F_UTIME));
	assert_true(recread_csv_has_field(&rr, F_TGID));
	assert_false(recread_csv_has_field(&rr, F_STIME));
	assert_true(recread_csv_has_comm(&rr));

	recread_init(&rr);
	assert_int_equal(recread_csv_header(&rr, "btime,pid,type", 14), 0);
	assert_true(recread_csv_has_field(&rr, F_BTIME64));
	assert_true(recread_csv_has_field(&rr, F_BTIME));
	assert_false(recread_csv_has_comm(&rr));

	recread_init(&rr);
	assert_int_equal(recread_csv_header(&rr, "a,b,c", 5), -EPROTO);
	recread_init(&rr);
	assert_int_equal(recread_csv_header(&rr, "type,comm", 9), -EPROTO);
}

static void test_csv_malformed(void **state)
{
	static const char *const bad[] = {
		"pid,1,2",			/* too few fields */
		"pid,1,2,x,5,6",			/* too many */
		"pid,1,2,x",			/* comm fine, utime missing: too few */
		"pid,1a,2,x,5",			/* junk in a number */
		"pid,1,2,x,18446744073709551616",	/* 2^64 */
		"pid,4294967296,2,x,5",		/* pid beyond 32 bits */
		"task,1,2,x,5",			/* unknown type */
		"tgid,1,,x,5",			/* a tgid row without its tgid */
		"pid,1,2,\"0123456789abcdef0123456789abcdefX\",5",	/* comm > 32 */
		"pid,1,2,\"open,5",		/* unterminated quote */
		"pid,1,2,\"a\"b,5",		/* junk after a quote */
	};
	static const char h[] = "type,pid,tgid,comm,utime_us";
	struct recread rr;
	struct exit_record r;

	(void)state;
	recread_init(&rr);
	assert_int_equal(recread_csv_header(&rr, h, strlen(h)), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (recread_csv(&rr, bad[i], strlen(bad[i]), &r) != -EBADMSG)
			fail_msg("accepted: %s", bad[i]);
	assert_int_equal(recread_csv(&rr, "pid,1,,,", 8, &r), 0);
	assert_false(rec_has(&r, F_TGID));
	assert_int_equal(r.comm_len, 0);
}

/* exitmon -F type,pid,comm: its tgid rows carry no id (pid is 0), and
 * are records, not malformed lines; an empty tgid where the column is
 * stays malformed (above). */
static void test_tgid_rows_without_tgid_column(void **state)
{
	static const char h[] = "type,pid,comm";
	static const char js[] = "{\"type\":\"tgid\",\"pid\":0,\"comm\":\"\"}";
	struct recread rr;
	struct exit_record r;

	(void)state;
	recread_init(&rr);
	assert_int_equal(recread_csv_header(&rr, h, strlen(h)), 0);
	assert_int_equal(recread_csv(&rr, "tgid,0,", 7, &r), 0);
	assert_int_equal(r.type, REC_TGID);
	assert_int_equal(r.id, 0);
	recread_init(&rr);
	assert_int_equal(recread_json(&rr, js, strlen(js), &r), 0);
	assert_int_equal(r.type, REC_TGID);
	assert_int_equal(recread_json(&rr, "{\"type\":\"tgid\",\"pid\":0,\"tgid\":null}", 35, &r), -EBADMSG);
}

static void test_json_malformed(void **state)
{
	static const char *const bad[] = {
		"", "[]", "{",
		"{\"type\":\"pid\",\"pid\":1", "{\"type\":\"pid\",\"pid\":1}x",
		"{\"type\":\"pid\",\"pid\":-1}", "{\"type\":pid,\"pid\":1}",
		"{\"type\":\"pid\",\"pid\":1,\"comm\":\"\\u0100\"}",
		"{\"type\":\"pid\",\"pid\":1,\"comm\":\"\\q\"}",
		"{\"type\":\"pid\",\"pid\":1,\"comm\":7}",
		"{\"type\":\"pid\",\"pid\":1,\"utime_us\":\"7\"}",
		"{\"type\":\"pid\",\"pid\":1,\"utime_us\":1.5}",
	};
	struct recread rr;
	struct exit_record r;
	static const char ok[] = "{ \"pid\" : 3, \"type\":\"pid\",\"comm\":\"\\u00ffa\\n\","
				 "\"utime_us\":null,\"new_key\":[1],\"nice\":-20}";

	(void)state;
	recread_init(&rr);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (recread_json(&rr, bad[i], strlen(bad[i]), &r) != -EBADMSG)
			fail_msg("accepted: %s", bad[i]);
	/* exitmon -F without type or pid: told apart from damage */
	recread_init(&rr);
	assert_int_equal(recread_json(&rr, "{\"type\":\"pid\"}", 14, &r), -ENOKEY);
	assert_int_equal(recread_json(&rr, "{\"pid\":1,\"comm\":\"a\"}", 20, &r), -ENOKEY);
	recread_init(&rr);
	assert_int_equal(recread_json(&rr, ok, strlen(ok), &r), 0);
	assert_int_equal(r.id, 3);
	assert_memory_equal(r.comm, "\xff" "a\n", 3);
	assert_int_equal(r.comm_len, 3);
	assert_false(rec_has(&r, F_UTIME));
	assert_int_equal(rec_get(&r, F_NICE), (uint8_t)-20);
	assert_int_equal(rr.unknown, 1);
	assert_string_equal(rr.first_unknown, "new_key");
}

/* A newer exitmon's keys are skipped whatever their well-formed value
 * (arrays, objects, nested, long strings, long names); a broken value is
 * not skipped but refused. */
static void test_json_unknown_values(void **state)
{
	static const char *const good[] = {
		"\"x\":[1,2,[3,{}]]", "\"x\":{\"a\":[\"]\",{\"b\":null}],\"c\":-1.5e3}",
		"\"x\" : [ ] ", "\"x\":{ }",
		("\"x\":\"a string far longer than any comm, "
		 "longer than sixty-four bytes: \\\"quoted\\\" and \\u00e9scaped\""),
		"\"a_key_name_longer_than_sixty_four_bytes_which_no_exitmon_column_has\":1",
		"\"x\":true",
	};
	static const char *const bad[] = {
		"\"x\":[1,2", "\"x\":[1,]", "\"x\":{\"a\"}", "\"x\":{1:2}", "\"x\":[}",
		"\"x\":\"open", "\"x\":", "\"x\":[\"\\q\"]",
		"\"x\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
	};
	struct recread rr;
	struct exit_record r;
	char text[512];

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		recread_init(&rr);
		snprintf(text, sizeof(text), "{\"type\":\"pid\",%s,\"pid\":4,\"uid\":7}", good[i]);
		if (recread_json(&rr, text, strlen(text), &r) != 0)
			fail_msg("refused: %s", text);
		assert_int_equal(r.id, 4);
		assert_int_equal(rec_get(&r, F_UID), 7);
		assert_int_equal(rr.unknown, 1);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		recread_init(&rr);
		snprintf(text, sizeof(text), "{\"type\":\"pid\",%s,\"pid\":4}", bad[i]);
		if (recread_json(&rr, text, strlen(text), &r) != -EBADMSG)
			fail_msg("accepted: %s", text);
	}
	/* A key we know keeps its rules: an array is not a uid. */
	recread_init(&rr);
	assert_int_equal(recread_json(&rr, "{\"type\":\"pid\",\"pid\":4,\"uid\":[7]}", 31, &r),
			 -EBADMSG);
}

/* A key or column given twice: which would be meant?  The line is
 * refused, the header too (a renamed column must not change totals). */
static void test_duplicates(void **state)
{
	static const char j[] = "{\"type\":\"pid\",\"pid\":4,\"utime_us\":1,\"utime_us\":9}";
	static const char j2[] = "{\"type\":\"pid\",\"pid\":4,\"pid\":5}";
	static const char j3[] = "{\"type\":\"pid\",\"pid\":4,\"utime_us\":1}";
	struct recread rr;
	struct exit_record r;

	(void)state;
	recread_init(&rr);
	assert_int_equal(recread_json(&rr, j, strlen(j), &r), -EBADMSG);
	assert_int_equal(recread_json(&rr, j2, strlen(j2), &r), -EBADMSG);
	/* the same keys on the next line, once each: fine */
	assert_int_equal(recread_json(&rr, j2, strlen(j2) - 10, &r), -EBADMSG);	/* not JSON */
	assert_int_equal(recread_json(&rr, j, strlen(j) - 15, &r), -EBADMSG);
	assert_int_equal(recread_json(&rr, j3, strlen(j3), &r), 0);

	recread_init(&rr);
	assert_int_equal(recread_csv_header(&rr, "type,pid,utime_us", 17), 0);
	assert_int_equal(recread_csv_header(&rr, "type,pid,utime_us,stime_us,utime_us", 35), -EEXIST);
	assert_string_equal(rr.duplicate, "utime_us");
	/* the header in force is still the first one */
	assert_int_equal(rr.ncols, 3);
	assert_int_equal(recread_csv(&rr, "pid,4,6", 7, &r), 0);
	assert_int_equal(rec_get(&r, F_UTIME), 6);
	recread_init(&rr);
	assert_int_equal(recread_csv_header(&rr, "type,pid,pid", 12), -EEXIST);
	/* columns we do not know may repeat: they are not read */
	assert_int_equal(recread_csv_header(&rr, "type,pid,new,new", 16), 0);
}

/* A value wider than its field in struct taskstats did not come from
 * exitmon: a uid of 2^32 is not root, 2^32 + 1 not daemon. */
static void test_field_widths(void **state)
{
	static const char *const bad[] = {
		"pid,1,4294967296,0,0", "pid,1,4294967297,0,0", "pid,1,0,4294967296,0",
		"pid,1,0,0,256",
	};
	static const char h[] = "type,pid,uid,exitcode,flags";
	static const char ok[] = "pid,1,4294967295,4294967295,255";
	static const char j_bad[] = "{\"type\":\"pid\",\"pid\":1,\"uid\":4294967296}";
	static const char j_ok[] = "{\"type\":\"pid\",\"pid\":1,\"uid\":4294967295}";
	struct recread rr;
	struct exit_record r;

	(void)state;
	recread_init(&rr);
	assert_int_equal(recread_csv_header(&rr, h, strlen(h)), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (recread_csv(&rr, bad[i], strlen(bad[i]), &r) != -EBADMSG)
			fail_msg("accepted: %s", bad[i]);
	assert_int_equal(recread_csv(&rr, ok, strlen(ok), &r), 0);
	assert_int_equal(rec_get(&r, F_UID), UINT32_MAX);
	assert_int_equal(recread_json(&rr, j_bad, strlen(j_bad), &r), -EBADMSG);
	assert_int_equal(recread_json(&rr, j_ok, strlen(j_ok), &r), 0);
}

/* Every value column takes the widest number its field holds in struct
 * taskstats and refuses one more (the v17 timestamps are 64-bit
 * nanoseconds): a field added to the table gets its range with it. */
static void test_every_field_range(void **state)
{
#define VALUE_COL(nm, kind, field, tw) { #nm, kind, field },
	static const struct {
		const char *name;
		enum col_kind kind;
		unsigned field;
	} c[] = { COLUMNS(VALUE_COL) };
	struct recread rr;
	struct exit_record r;

	(void)state;
	recread_init(&rr);
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		unsigned w = REC_FIELD_SIZE(c[i].field);
		uint64_t max = w >= 8 ? UINT64_MAX : (1ull << (8 * w)) - 1;

		if (c[i].kind != C_FIELD)
			continue;
		snprintf(line, sizeof(line), "{\"type\":\"pid\",\"pid\":1,"
			 "\"%s\":%llu}", c[i].name, (unsigned long long)max);
		assert_int_equal(recread_json(&rr, line, strlen(line), &r), 0);
		assert_true(rec_get(&r, (enum rec_field)c[i].field) == max);
		if (w >= 8)
			continue;
		snprintf(line, sizeof(line), "{\"type\":\"pid\",\"pid\":1,"
			 "\"%s\":%llu}", c[i].name, (unsigned long long)max + 1);
		if (recread_json(&rr, line, strlen(line), &r) != -EBADMSG)
			fail_msg("%s: %s accepted", c[i].name, line);
	}
}

/* Only wanted columns are decoded; ids, type and comm always are. */
static void test_want_fields(void **state)
{
	static const enum rec_field want[] = { F_UTIME };
	struct recread rr;
	struct exit_record a, b;
	size_t n;

	(void)state;
	make(&a, REC_PID, "w", 1, 3, F__COUNT);
	recread_init(&rr);
	recread_want_fields(&rr, want, 1);
	n = format_header(FMT_CSV, head, sizeof(head));
	assert_int_equal(recread_csv_header(&rr, head, n - 1), 0);
	n = format_record(FMT_CSV, &a, line, sizeof(line));
	assert_int_equal(recread_csv(&rr, line, n - 1, &b), 0);
	assert_int_equal(rec_get(&b, F_UTIME), rec_get(&a, F_UTIME));
	assert_true(rec_has(&b, F_TGID));
	assert_false(rec_has(&b, F_STIME));
	assert_string_equal(b.comm, "w");
	n = format_record(FMT_JSONL, &a, line, sizeof(line));
	assert_int_equal(recread_json(&rr, line, n - 1, &b), 0);
	assert_int_equal(rec_get(&b, F_UTIME), rec_get(&a, F_UTIME));
	assert_false(rec_has(&b, F_STIME));
}

/* run, seq and time_ns: a file without them (an older exitmon's) reads
 * as before, none of them known and nothing unknown; a run id must be 32
 * lowercase hex digits; a summary (recread_want_fields) skips them. */
static void test_run_seq_time(void **state)
{
	static const char h[] = "run,seq,time_ns,type,pid";
	static const char *const bad_csv[] = {
		"0123456789ABCDEF0123456789abcdef,1,2,pid,3",	/* upper case */
		"0123456789abcdef0123456789abcde,1,2,pid,3",	/* 31 digits */
		"0123456789abcdef0123456789abcdefa,1,2,pid,3",	/* 33 */
		"0123456789abcdef0123456789abcdeg,1,2,pid,3",
		"0123456789abcdef0123456789abcdef,-1,2,pid,3",
		"0123456789abcdef0123456789abcdef,1,18446744073709551616,pid,3",
	};
	static const enum rec_field want[] = { F_UTIME };
	struct recread rr;
	struct exit_record r;
	char l[128];

	(void)state;
	recread_init(&rr);
	assert_int_equal(recread_csv_header(&rr, "type,pid,utime_us", 17), 0);
	assert_int_equal(rr.unknown, 0);
	assert_int_equal(recread_csv(&rr, "pid,3,4", 7, &r), 0);
	assert_int_equal(r.meta.has, 0);
	snprintf(l, sizeof(l), "{\"type\":\"pid\",\"pid\":3}");
	assert_int_equal(recread_json(&rr, l, strlen(l), &r), 0);
	assert_int_equal(r.meta.has, 0);
	assert_int_equal(rr.unknown, 0);

	recread_init(&rr);
	assert_int_equal(recread_csv_header(&rr, h, strlen(h)), 0);
	snprintf(l, sizeof(l), "0123456789abcdef0123456789abcdef,1,2,pid,3");
	assert_int_equal(recread_csv(&rr, l, strlen(l), &r), 0);
	assert_int_equal(r.meta.has, REC_META_RUN | REC_META_SEQ | REC_META_TIME);
	assert_int_equal(r.meta.seq, 1);
	assert_int_equal(r.meta.time_ns, 2);
	assert_int_equal(recread_csv(&rr, ",,,pid,3", 8, &r), 0);
	assert_int_equal(r.meta.has, 0);
	for (size_t i = 0; i < sizeof(bad_csv) / sizeof(bad_csv[0]); i++)
		if (recread_csv(&rr, bad_csv[i], strlen(bad_csv[i]), &r) != -EBADMSG)
			fail_msg("accepted: %s", bad_csv[i]);
	snprintf(l, sizeof(l), "{\"run\":\"0123456789abcdef0123456789abcdef\","
		 "\"seq\":9,\"type\":\"pid\",\"pid\":3}");
	assert_int_equal(recread_json(&rr, l, strlen(l), &r), 0);
	assert_int_equal(r.meta.has, REC_META_RUN | REC_META_SEQ);
	assert_int_equal(r.meta.seq, 9);
	snprintf(l, sizeof(l), "{\"run\":\"\",\"type\":\"pid\",\"pid\":3}");
	assert_int_equal(recread_json(&rr, l, strlen(l), &r), -EBADMSG);
	snprintf(l, sizeof(l), "{\"run\":12,\"type\":\"pid\",\"pid\":3}");
	assert_int_equal(recread_json(&rr, l, strlen(l), &r), -EBADMSG);
	snprintf(l, sizeof(l), "{\"seq\":\"1\",\"type\":\"pid\",\"pid\":3}");
	assert_int_equal(recread_json(&rr, l, strlen(l), &r), -EBADMSG);

	/* A summary decodes run and seq (a record read twice is known by
	 * them, recseen.h), not time_ns. */
	recread_init(&rr);
	recread_want_fields(&rr, want, 1);
	assert_int_equal(recread_csv_header(&rr, h, strlen(h)), 0);
	snprintf(l, sizeof(l), "0123456789abcdef0123456789abcdef,1,2,pid,3");
	assert_int_equal(recread_csv(&rr, l, strlen(l), &r), 0);
	assert_int_equal(r.meta.has, REC_META_RUN | REC_META_SEQ);
	assert_int_equal(r.meta.seq, 1);
	assert_int_equal(r.id, 3);
}

/* A header cut short and ended by the next start (exitmon's cutline.c)
 * is a damaged line a header follows; no header, row or other line is. */
static void test_csv_damaged_first(void **state)
{
#define DAMAGED(s) recread_csv_damaged_first(s, strlen(s))
	(void)state;
	assert_true(DAMAGED("r,,,,"));
	assert_true(DAMAGED("run,seq,ti,,,,,,"));
	assert_true(DAMAGED("run,seq,,,\r"));
	assert_true(DAMAGED(","));
	assert_false(DAMAGED(""));
	assert_false(DAMAGED("run,seq,time_ns,type,pid"));	/* a header */
	assert_false(DAMAGED("pid,12,12,1,\"a,\",0,"));	/* a row's quote */
	assert_false(DAMAGED("Type,pid,,"));
	assert_false(DAMAGED("{\"run\":1,"));
#undef DAMAGED
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csv_roundtrip),
		cmocka_unit_test(test_json_roundtrip),
		cmocka_unit_test(test_csv_header_by_name),
		cmocka_unit_test(test_csv_malformed),
		cmocka_unit_test(test_tgid_rows_without_tgid_column),
		cmocka_unit_test(test_json_malformed),
		cmocka_unit_test(test_json_unknown_values),
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_field_widths),
		cmocka_unit_test(test_every_field_range),
		cmocka_unit_test(test_want_fields),
		cmocka_unit_test(test_run_seq_time),
		cmocka_unit_test(test_csv_damaged_first),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
