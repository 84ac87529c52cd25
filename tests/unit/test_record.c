// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of the taskstats parser (src/record.c) on messages built byte
 * by byte in the test: every struct version, padding attributes, pid+tgid
 * messages, version-0 tgid records, and malformed input of every kind. */
#include <errno.h>
#include <linux/taskstats.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "record.h"
#include "tsbuild.h"

#define FAMILY 0x1c

static unsigned char stats_buf[TSB_MAX_STATS];

/* ---- helpers ------------------------------------------------------------- */

static int parse(const struct tsb_msg *m, struct exit_msg *out)
{
	memset(out, 0x5a, sizeof(*out));	/* no field may pass as set */
	return record_parse_nlmsg(m->b, m->len, out);
}

static size_t stats_len_of(unsigned version)
{
	return version <= TS_KNOWN_VERSION ? record_struct_size(version) : 720;
}

/* Check every field of r against what tsb_fill_stats() wrote for a payload
 * of len bytes read in `layout`: present exactly when the layout has it and
 * the payload holds all of it, with the distinctive value. */
static void check_fields(const struct exit_record *r, size_t len, unsigned layout)
{
	int f;

	for (f = 0; f < F__COUNT; f++) {
		uint16_t off = tsb_offset((enum rec_field)f, layout);
		bool want = off != TSB_NONE && off + tsb_fields[f].size <= len;

		if (rec_has(r, (enum rec_field)f) != want)
			fail_msg("layout %u len %zu: field %s present %d, want %d",
				 layout, len, record_field_name((enum rec_field)f),
				 rec_has(r, (enum rec_field)f), want);
		if (want && rec_get(r, (enum rec_field)f) !=
			    tsb_value((enum rec_field)f))
			fail_msg("layout %u: field %s = %#llx, want %#llx", layout,
				 record_field_name((enum rec_field)f),
				 (unsigned long long)rec_get(r, (enum rec_field)f),
				 (unsigned long long)tsb_value((enum rec_field)f));
	}
}

/* ---- the test's own offsets against the installed uapi header ------------ */

static void test_offsets_match_uapi(void **state)
{
	(void)state;
#define SAME(f, m) do { \
	assert_int_equal(tsb_fields[f].off, offsetof(struct taskstats, m)); \
	assert_int_equal(tsb_fields[f].size, sizeof(((struct taskstats *)0)->m)); \
} while (0)
	SAME(F_EXITCODE, ac_exitcode);
	SAME(F_FLAG, ac_flag);
	SAME(F_NICE, ac_nice);
	SAME(F_CPU_COUNT, cpu_count);
	SAME(F_CPU_RUN_VIRTUAL_TOTAL, cpu_run_virtual_total);
	SAME(F_SCHED, ac_sched);
	SAME(F_UID, ac_uid);
	SAME(F_PPID, ac_ppid);
	SAME(F_BTIME, ac_btime);
	SAME(F_ETIME, ac_etime);
	SAME(F_MAJFLT, ac_majflt);
	SAME(F_WRITE_SYSCALLS, write_syscalls);
	SAME(F_CANCELLED_WRITE_BYTES, cancelled_write_bytes);
	SAME(F_NIVCSW, nivcsw);
	SAME(F_CPU_SCALED_RUN_REAL_TOTAL, cpu_scaled_run_real_total);
	SAME(F_FREEPAGES_DELAY_TOTAL, freepages_delay_total);
	SAME(F_THRASHING_DELAY_TOTAL, thrashing_delay_total);
	SAME(F_BTIME64, ac_btime64);
	SAME(F_COMPACT_DELAY_TOTAL, compact_delay_total);
	SAME(F_TGID, ac_tgid);
	SAME(F_TGETIME, ac_tgetime);
	SAME(F_EXE_INODE, ac_exe_inode);
	SAME(F_WPCOPY_COUNT, wpcopy_count);
	SAME(F_WPCOPY_DELAY_TOTAL, wpcopy_delay_total);
#undef SAME
	assert_int_equal(offsetof(struct taskstats, ac_comm), TSB_COMM_OFF);
#if TASKSTATS_VERSION <= 13
	assert_int_equal(sizeof(struct taskstats), tsb_sizes[TASKSTATS_VERSION]);
#endif
}

static void test_struct_sizes(void **state)
{
	unsigned v;

	(void)state;
	for (v = 0; v <= TS_KNOWN_VERSION; v++)
		assert_int_equal(record_struct_size(v), tsb_sizes[v]);
	assert_int_equal(record_struct_size(TS_KNOWN_VERSION + 1), 0);
	assert_int_equal(record_struct_size(65535), 0);
}

/* ---- every version ---------------------------------------------------------- */

/* A pid-only message of struct version *state: every field at its place. */
static void test_version(void **state)
{
	unsigned v = (unsigned)(uintptr_t)*state;
	unsigned layout = v;
	size_t len = stats_len_of(v);
	struct exit_msg out;
	struct tsb_msg m;
	const struct exit_record *r = &out.rec[0];
	char comm[16];

	snprintf(comm, sizeof(comm), "task-v%u", v % 1000);	/* v < 1000 */
	tsb_begin(&m, FAMILY, TASKSTATS_CMD_NEW);
	tsb_fill_stats(stats_buf, len, v, layout, comm);
	tsb_aggr(&m, TASKSTATS_TYPE_AGGR_PID, TASKSTATS_TYPE_PID, 4242, stats_buf, len);
	tsb_end(&m);

	assert_int_equal(parse(&m, &out), 0);
	assert_int_equal(out.n, 1);
	assert_int_equal(r->type, REC_PID);
	assert_int_equal(r->id, 4242);
	assert_int_equal(r->version, v);
	assert_int_equal(r->layout, v);
	assert_int_equal(r->stats_len, len);
	check_fields(r, len, layout);
	if (v == 1) {
		assert_int_equal(r->comm_len, 0);
		assert_string_equal(r->comm, "");
	} else {
		assert_int_equal(r->comm_len, strlen(comm));
		assert_string_equal(r->comm, comm);
	}
}

/* The points the loop above proves, spelled out where layouts differ. */
static void test_layout_landmarks(void **state)
{
	struct exit_record r;
	uint64_t x;

	(void)state;
	/* v1: delay fields straight after the 8-byte header. */
	memset(stats_buf, 0, 72);
	stats_buf[0] = 1;
	x = 111, memcpy(stats_buf + 8, &x, 8);
	x = 222, memcpy(stats_buf + 16, &x, 8);
	assert_int_equal(record_parse_stats(stats_buf, 72, 0, &r), 0);
	assert_int_equal(rec_get(&r, F_CPU_COUNT), 111);
	assert_int_equal(rec_get(&r, F_CPU_DELAY_TOTAL), 222);
	assert_false(rec_has(&r, F_EXITCODE));

	/* v15: cpu_delay_max right after cpu_delay_total (32); v16 at 432. */
	memset(stats_buf, 0, 560);
	stats_buf[0] = 15;
	x = 0x1515, memcpy(stats_buf + 32, &x, 8);
	x = 0x1616, memcpy(stats_buf + 432, &x, 8);
	assert_int_equal(record_parse_stats(stats_buf, 560, 0, &r), 0);
	assert_int_equal(rec_get(&r, F_CPU_DELAY_MAX), 0x1515);
	assert_int_equal(rec_get(&r, F_BLKIO_COUNT), 0);
	stats_buf[0] = 16;
	assert_int_equal(record_parse_stats(stats_buf, 560, 0, &r), 0);
	assert_int_equal(rec_get(&r, F_CPU_DELAY_MAX), 0x1616);
	assert_int_equal(rec_get(&r, F_BLKIO_COUNT), 0x1515);

	/* v17 (mainline, 688 bytes): cpu_delay_max_ts right after
	 * irq_delay_min (552), irq_delay_max_ts the last 16 bytes. */
	memset(stats_buf, 0, 688);
	stats_buf[0] = 17;
	x = 1796298477, memcpy(stats_buf + 560, &x, 8);
	x = 5, memcpy(stats_buf + 568, &x, 8);
	x = 2, memcpy(stats_buf + 672, &x, 8);
	x = 7, memcpy(stats_buf + 680, &x, 8);
	assert_int_equal(record_parse_stats(stats_buf, 688, 0, &r), 0);
	assert_int_equal(rec_get(&r, F_CPU_DELAY_MAX_TS), 1796298477000000005ull);
	assert_int_equal(rec_get(&r, F_IRQ_DELAY_MAX_TS), 2000000007ull);
	assert_int_equal(rec_get(&r, F_BLKIO_DELAY_MAX_TS), 0);
	assert_true(rec_has(&r, F_BLKIO_DELAY_MAX_TS));
}

/* A struct shorter than its version says (a kernel may send a prefix): the
 * fields it holds are read, the others are absent, none is invented. */
static void test_short_stats_by_prefix(void **state)
{
	struct exit_record r;
	size_t len;

	(void)state;
	for (len = 80; len <= 688; len += 4) {
		tsb_fill_stats(stats_buf, len, 17, 17, "x");
		assert_int_equal(record_parse_stats(stats_buf, len, 0, &r), 0);
		check_fields(&r, len, 17);
		assert_int_equal(r.comm_len, len >= 112 ? 1 : 0);
	}
}

/* comm of exactly TS_COMM_LEN bytes has no NUL: all 32 bytes, no overrun. */
static void test_comm_full_length(void **state)
{
	struct exit_record r;
	char comm[TS_COMM_LEN];

	(void)state;
	memset(comm, 'c', sizeof(comm));
	tsb_fill_stats(stats_buf, 432, 14, 14, NULL);
	memcpy(stats_buf + TSB_COMM_OFF, comm, TS_COMM_LEN);
	assert_int_equal(record_parse_stats(stats_buf, 432, 0, &r), 0);
	assert_int_equal(r.comm_len, TS_COMM_LEN);
	assert_memory_equal(r.comm, comm, TS_COMM_LEN);
	assert_int_equal(r.comm[TS_COMM_LEN], '\0');
}

/* ---- padding, pid + tgid ------------------------------------------------------ */

/* TASKSTATS_TYPE_NULL anywhere: before, between, after and inside nests,
 * empty or with a payload, the last one unpadded. */
static void test_null_padding(void **state)
{
	static const unsigned char junk[5] = { 1, 2, 3, 4, 5 };
	size_t len = record_struct_size(16), nest;
	struct exit_msg out;
	struct tsb_msg m;

	(void)state;
	tsb_begin(&m, FAMILY, TASKSTATS_CMD_NEW);
	tsb_attr(&m, TASKSTATS_TYPE_NULL, NULL, 0);
	nest = tsb_nest(&m, TASKSTATS_TYPE_AGGR_PID);
	tsb_attr(&m, TASKSTATS_TYPE_NULL, junk, 3);
	tsb_u32(&m, TASKSTATS_TYPE_PID, 100);
	tsb_attr(&m, TASKSTATS_TYPE_NULL, NULL, 0);
	tsb_fill_stats(stats_buf, len, 16, 16, "padded");
	tsb_attr(&m, TASKSTATS_TYPE_STATS, stats_buf, len);
	tsb_attr(&m, TASKSTATS_TYPE_NULL, junk, 4);
	tsb_nest_end(&m, nest);
	tsb_attr(&m, TASKSTATS_TYPE_NULL, junk, 2);
	nest = tsb_nest(&m, TASKSTATS_TYPE_AGGR_TGID);
	tsb_u32(&m, TASKSTATS_TYPE_TGID, 99);
	tsb_attr(&m, TASKSTATS_TYPE_NULL, NULL, 0);
	tsb_attr(&m, TASKSTATS_TYPE_STATS, stats_buf, len);
	tsb_nest_end(&m, nest);
	tsb_attr(&m, TASKSTATS_TYPE_NULL, junk, 5);	/* last: no padding after */
	tsb_end(&m);

	assert_int_equal(parse(&m, &out), 0);
	assert_int_equal(out.n, 2);
	assert_int_equal(out.rec[0].id, 100);
	assert_int_equal(out.rec[1].id, 99);
	assert_string_equal(out.rec[0].comm, "padded");
	check_fields(&out.rec[0], len, 16);
}

/* The shape the kernel sends for nearly every exit (one AGGR_PID nest of
 * PID and STATS) is found by the short way; the same nest with the
 * NLA_F_NESTED flag, or a padding attribute before the STATS, takes the
 * general walk: all three find the same id and the same stats bytes. */
static void test_walk_common_shape(void **state)
{
	size_t len = record_struct_size(16), nest;
	unsigned variant;

	(void)state;
	tsb_fill_stats(stats_buf, len, 16, 16, "common");
	for (variant = 0; variant < 3; variant++) {
		const unsigned hdr = NLMSG_HDRLEN + GENL_HDRLEN;
		struct rec_walk w;
		struct tsb_msg m;

		tsb_begin(&m, FAMILY, TASKSTATS_CMD_NEW);
		nest = tsb_nest(&m, TASKSTATS_TYPE_AGGR_PID |
				    (variant == 1 ? NLA_F_NESTED : 0));
		tsb_u32(&m, TASKSTATS_TYPE_PID, 4242);
		if (variant == 2)
			tsb_attr(&m, TASKSTATS_TYPE_NULL, NULL, 0);
		tsb_attr(&m, TASKSTATS_TYPE_STATS, stats_buf, len);
		tsb_nest_end(&m, nest);
		tsb_end(&m);
		assert_int_equal(record_walk_attrs(m.b + hdr, m.len - hdr, &w), 0);
		assert_int_equal(w.n, 1);
		assert_int_equal(w.id[0], 4242);
		assert_int_equal(w.stats_len[0], len);
		assert_memory_equal(w.stats[0], stats_buf, len);
		/* One byte short of the nest's claim: refused either way. */
		assert_int_equal(record_walk_attrs(m.b + hdr, m.len - hdr - 1, &w),
				 -EBADMSG);
	}
}

/* The NLA_F_NESTED flag on the nests is ignored. */
static void test_nested_flag(void **state)
{
	size_t len = record_struct_size(16), nest;
	struct exit_msg out;
	struct tsb_msg m;

	(void)state;
	tsb_begin(&m, FAMILY, TASKSTATS_CMD_NEW);
	nest = tsb_nest(&m, TASKSTATS_TYPE_AGGR_PID | NLA_F_NESTED);
	tsb_u32(&m, TASKSTATS_TYPE_PID, 7);
	tsb_fill_stats(stats_buf, len, 16, 16, "n");
	tsb_attr(&m, TASKSTATS_TYPE_STATS, stats_buf, len);
	tsb_nest_end(&m, nest);
	tsb_end(&m);
	assert_int_equal(parse(&m, &out), 0);
	assert_int_equal(out.rec[0].id, 7);
}

/* The tgid record takes comm/uid/gid/ppid/pid from the pid record; the
 * pid record (v12+) keeps its own ac_tgid. */
/* A tgid record is left as the kernel sent it: no comm, and the zero
 * ids it carries; nothing is copied from the pid record. */
static void test_pid_tgid_as_sent(void **state)
{
	static const enum rec_field ident[] = { F_UID, F_GID, F_PPID, F_PID };
	size_t len = record_struct_size(16);
	struct exit_msg out;
	struct tsb_msg m;
	unsigned i;
	uint32_t own = 0xabcdef;

	(void)state;
	tsb_begin(&m, FAMILY, TASKSTATS_CMD_NEW);
	tsb_fill_stats(stats_buf, len, 16, 16, "worker");
	tsb_aggr(&m, TASKSTATS_TYPE_AGGR_PID, TASKSTATS_TYPE_PID, 501, stats_buf, len);
	/* The tgid struct: no comm, its own (summed) values, other ids. */
	tsb_fill_stats(stats_buf, len, 16, 16, "");
	for (i = 0; i < 4; i++)
		tsb_store(stats_buf + tsb_fields[ident[i]].off, 0, 4);
	tsb_store(stats_buf + tsb_fields[F_ETIME].off, 777, 8);
	tsb_store(stats_buf + tsb_fields[F_TGID].off, own, 4);
	tsb_aggr(&m, TASKSTATS_TYPE_AGGR_TGID, TASKSTATS_TYPE_TGID, 500, stats_buf, len);
	tsb_end(&m);

	assert_int_equal(parse(&m, &out), 0);
	assert_int_equal(out.n, 2);
	assert_int_equal(out.rec[0].type, REC_PID);
	assert_int_equal(out.rec[1].type, REC_TGID);
	assert_int_equal(out.rec[1].id, 500);
	assert_string_equal(out.rec[0].comm, "worker");
	assert_string_equal(out.rec[1].comm, "");
	assert_int_equal(out.rec[1].comm_len, 0);
	for (i = 0; i < 4; i++) {
		assert_true(rec_has(&out.rec[1], ident[i]));
		assert_int_equal(rec_get(&out.rec[1], ident[i]), 0);
		assert_int_equal(rec_get(&out.rec[0], ident[i]),
				 tsb_value(ident[i]));
	}
	/* Its own accounting stays its own. */
	assert_int_equal(rec_get(&out.rec[1], F_ETIME), 777);
	assert_int_equal(rec_get(&out.rec[1], F_TGID), own);
	/* The pid record's ac_tgid (v12+) is not overwritten. */
	assert_int_equal(rec_get(&out.rec[0], F_TGID), tsb_value(F_TGID));
}

/* Before v12 the pid record has no ac_tgid: the message's TGID names it. */
static void test_pid_gets_tgid_before_v12(void **state)
{
	struct exit_msg out;
	struct tsb_msg m;
	unsigned v;

	(void)state;
	for (v = 2; v < 12; v++) {
		tsb_exit_msg(&m, v, 321, "old", 320, v);
		assert_int_equal(parse(&m, &out), 0);
		assert_int_equal(out.n, 2);
		assert_true(rec_has(&out.rec[0], F_TGID));
		assert_int_equal(rec_get(&out.rec[0], F_TGID), 320);
		assert_string_equal(out.rec[0].comm, "old");
	}
	/* Without a TGID record there is nothing to take it from. */
	tsb_exit_msg(&m, 11, 321, "old", 0, 0);
	assert_int_equal(parse(&m, &out), 0);
	assert_int_equal(out.n, 1);
	assert_false(rec_has(&out.rec[0], F_TGID));
}

/* Version-0 TGID records are read in the pid record's layout. */
static void test_tgid_version0(void **state)
{
	static const unsigned versions[] = { 8, 14, 15, 16, 17 };
	struct exit_msg out;
	struct tsb_msg m;
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(versions) / sizeof(versions[0]); i++) {
		unsigned v = versions[i];

		tsb_exit_msg(&m, v, 11, "t0", 10, 0);
		assert_int_equal(parse(&m, &out), 0);
		assert_int_equal(out.n, 2);
		assert_int_equal(out.rec[1].version, 0);
		assert_int_equal(out.rec[1].layout, v);
		/* uid/gid/ppid/pid come from the pid record, the rest as laid. */
		check_fields(&out.rec[1], record_struct_size(v), v);
	}
	/* Spelled out: v15 pid + v0 tgid of 560 bytes -> v15 positions. */
	tsb_exit_msg(&m, 15, 11, "t0", 10, 0);
	assert_int_equal(parse(&m, &out), 0);
	assert_int_equal(rec_get(&out.rec[1], F_CPU_DELAY_MAX),
			 tsb_value(F_CPU_DELAY_MAX));
	assert_int_equal(rec_get(&out.rec[1], F_IRQ_DELAY_TOTAL),
			 tsb_value(F_IRQ_DELAY_TOTAL));
}

/* A pid record that says version 0 too: tgid falls back to the newest
 * layout; neither is rejected. */
static void test_pid_version0(void **state)
{
	struct exit_msg out;
	struct tsb_msg m;

	(void)state;
	tsb_begin(&m, FAMILY, TASKSTATS_CMD_NEW);
	tsb_fill_stats(stats_buf, 688, 0, 17, "zero");
	tsb_aggr(&m, TASKSTATS_TYPE_AGGR_PID, TASKSTATS_TYPE_PID, 5, stats_buf, 688);
	tsb_aggr(&m, TASKSTATS_TYPE_AGGR_TGID, TASKSTATS_TYPE_TGID, 5, stats_buf, 688);
	tsb_end(&m);
	assert_int_equal(parse(&m, &out), 0);
	assert_int_equal(out.n, 2);
	assert_int_equal(out.rec[1].layout, TS_KNOWN_VERSION);
	check_fields(&out.rec[1], 688, 17);
}

/* ---- not exit records ------------------------------------------------------------ */

static void test_not_exit_records(void **state)
{
	static const uint16_t types[] = { NLMSG_ERROR, NLMSG_DONE, NLMSG_NOOP,
					  NLMSG_OVERRUN };
	struct nlmsgerr err = { .error = -EPERM };
	struct exit_msg out;
	struct tsb_msg m;
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		struct nlmsghdr nh = { .nlmsg_len = NLMSG_HDRLEN + sizeof(err),
				       .nlmsg_type = types[i] };

		m.len = 0;
		tsb_put(&m, &nh, sizeof(nh));
		tsb_put(&m, &err, sizeof(err));
		assert_int_equal(parse(&m, &out), -ENOMSG);
	}
	/* NLMSG_DONE with only a header (4-byte payload is optional). */
	{
		struct nlmsghdr nh = { .nlmsg_len = NLMSG_HDRLEN,
				       .nlmsg_type = NLMSG_DONE };

		m.len = 0;
		tsb_put(&m, &nh, sizeof(nh));
		assert_int_equal(parse(&m, &out), -ENOMSG);
	}
	/* A genl reply to another command, e.g. a GET. */
	tsb_exit_msg(&m, 16, 1, "x", 0, 0);
	m.b[NLMSG_HDRLEN] = TASKSTATS_CMD_GET;
	assert_int_equal(parse(&m, &out), -ENOMSG);
	m.b[NLMSG_HDRLEN] = 0;
	assert_int_equal(parse(&m, &out), -ENOMSG);
}

/* ---- malformed ------------------------------------------------------------------- */

static void put_nla_len(struct tsb_msg *m, size_t at, uint16_t len)
{
	memcpy(m->b + at, &len, sizeof(len));
}

/* Where the n-th attribute header of the pid nest is: top attrs start
 * after the headers; the nest's first child 4 bytes later. */
#define TOP_ATTR (NLMSG_HDRLEN + GENL_HDRLEN)
#define PID_ATTR (TOP_ATTR + NLA_HDRLEN)
#define STATS_ATTR (PID_ATTR + NLA_HDRLEN + 4)

static void expect_bad(struct tsb_msg *m)
{
	struct exit_msg out;

	assert_int_equal(parse(m, &out), -EBADMSG);
}

/* A message of whole AGGR nests (each an id and stats_buf[0..len)) that
 * must be rejected as malformed. */
struct aggr_spec {
	int nest, id_type;
	uint32_t id;
};
#define AP(id) { TASKSTATS_TYPE_AGGR_PID, TASKSTATS_TYPE_PID, id }
#define AT(id) { TASKSTATS_TYPE_AGGR_TGID, TASKSTATS_TYPE_TGID, id }

static void expect_bad_aggrs(const struct aggr_spec *a, size_t n, size_t len)
{
	struct tsb_msg m;
	size_t i;

	tsb_begin(&m, FAMILY, TASKSTATS_CMD_NEW);
	for (i = 0; i < n; i++)
		tsb_aggr(&m, a[i].nest, a[i].id_type, a[i].id, stats_buf, len);
	tsb_end(&m);
	expect_bad(&m);
}
#define BAD_AGGRS(len, ...) do { \
	const struct aggr_spec a_[] = { __VA_ARGS__ }; \
	expect_bad_aggrs(a_, sizeof(a_) / sizeof(a_[0]), len); \
} while (0)

/* A message with an unknown (newer) attribute still gives its pid record. */
static void expect_skipped_unknown(struct tsb_msg *m)
{
	struct exit_msg out;

	assert_int_equal(parse(m, &out), 0);
	assert_int_equal(out.n, 1);
	assert_int_equal(out.rec[0].type, REC_PID);
	assert_int_equal(out.rec[0].id, 1);
}

static void test_bad_nla_len(void **state)
{
	static const uint16_t bad[] = { 0, 1, 2, 3 };
	struct tsb_msg m;
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		tsb_exit_msg(&m, 16, 1, "x", 0, 0);
		put_nla_len(&m, TOP_ATTR, bad[i]);
		expect_bad(&m);
		tsb_exit_msg(&m, 16, 1, "x", 0, 0);
		put_nla_len(&m, PID_ATTR, bad[i]);
		expect_bad(&m);
		tsb_exit_msg(&m, 16, 1, "x", 0, 0);
		put_nla_len(&m, STATS_ATTR, bad[i]);
		expect_bad(&m);
	}
}

static void test_nla_len_beyond_buffer(void **state)
{
	struct tsb_msg m;
	size_t top_len;

	(void)state;
	/* Top-level attribute longer than the message. */
	top_len = tsb_exit_msg(&m, 16, 1, "x", 0, 0) - TOP_ATTR;
	put_nla_len(&m, TOP_ATTR, (uint16_t)(top_len + 4));
	expect_bad(&m);
	/* A nested one longer than its nest (but inside the message). */
	tsb_exit_msg(&m, 16, 1, "x", 2, 16);
	put_nla_len(&m, STATS_ATTR, (uint16_t)(NLA_HDRLEN + 560 + 8));
	expect_bad(&m);
	/* A header cut short: 2 bytes left where an attribute should be. */
	tsb_exit_msg(&m, 16, 1, "x", 0, 0);
	m.len += 2;
	memset(m.b + m.len - 2, 0, 2);
	tsb_end(&m);
	expect_bad(&m);
}

static void test_stats_too_short(void **state)
{
	static const size_t lens[] = { 0, 1, 2, 40, 79 };
	struct exit_record r;
	struct tsb_msg m;
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		tsb_begin(&m, FAMILY, TASKSTATS_CMD_NEW);
		tsb_fill_stats(stats_buf, lens[i], 16, 16, NULL);
		tsb_aggr(&m, TASKSTATS_TYPE_AGGR_PID, TASKSTATS_TYPE_PID, 1, stats_buf, lens[i]);
		tsb_end(&m);
		expect_bad(&m);
		assert_int_equal(record_parse_stats(stats_buf, lens[i], 0, &r),
				 -EBADMSG);
	}
	/* v1 needs all of its 72 bytes. */
	tsb_fill_stats(stats_buf, 72, 1, 1, NULL);
	assert_int_equal(record_parse_stats(stats_buf, 71, 0, &r), -EBADMSG);
	assert_int_equal(record_parse_stats(stats_buf, 72, 0, &r), 0);
	/* A v0 TGID struct read in the pid record's v1 layout: same rule. */
	stats_buf[0] = 0;
	assert_int_equal(record_parse_stats(stats_buf, 71, 1, &r), -EBADMSG);
	assert_int_equal(record_parse_stats(stats_buf, 72, 1, &r), 0);
	assert_int_equal(r.layout, 1);
	assert_int_equal(r.version, 0);
}

/* A whole pid half and a malformed tgid half (its stats too short, or its
 * nest missing its TGID): the pid record is kept, the tgid half counted
 * malformed (tgid_malformed), for records and views alike. */
static void test_tgid_half_malformed(void **state)
{
	size_t len = record_struct_size(16), nest;
	struct exit_views v;
	struct exit_msg out;
	struct tsb_msg m;

	(void)state;
	tsb_fill_stats(stats_buf, len, 16, 16, "h");
	for (int shape = 0; shape < 2; shape++) {
		tsb_begin(&m, FAMILY, TASKSTATS_CMD_NEW);
		tsb_aggr(&m, TASKSTATS_TYPE_AGGR_PID, TASKSTATS_TYPE_PID, 7, stats_buf, len);
		if (shape == 0) {	/* stats of 40 bytes: no taskstats */
			tsb_aggr(&m, TASKSTATS_TYPE_AGGR_TGID, TASKSTATS_TYPE_TGID, 7,
				 stats_buf, 40);
		} else {		/* a nest with stats and no TGID */
			nest = tsb_nest(&m, TASKSTATS_TYPE_AGGR_TGID);
			tsb_attr(&m, TASKSTATS_TYPE_STATS, stats_buf, len);
			tsb_nest_end(&m, nest);
		}
		tsb_end(&m);
		assert_int_equal(parse(&m, &out), 0);
		assert_int_equal(out.n, 1);
		assert_true(out.tgid_malformed);
		assert_int_equal(out.rec[0].type, REC_PID);
		assert_int_equal(out.rec[0].id, 7);
		check_fields(&out.rec[0], len, 16);
		assert_int_equal(record_view_nlmsg(m.b, m.len, &v), 0);
		assert_int_equal(v.n, 1);
		assert_true(v.tgid_malformed);
	}
	/* A whole message says nothing is malformed. */
	tsb_begin(&m, FAMILY, TASKSTATS_CMD_NEW);
	tsb_aggr(&m, TASKSTATS_TYPE_AGGR_PID, TASKSTATS_TYPE_PID, 7, stats_buf, len);
	tsb_aggr(&m, TASKSTATS_TYPE_AGGR_TGID, TASKSTATS_TYPE_TGID, 7, stats_buf, len);
	tsb_end(&m);
	assert_int_equal(parse(&m, &out), 0);
	assert_int_equal(out.n, 2);
	assert_false(out.tgid_malformed);
}

static void test_duplicates(void **state)
{
	size_t len = record_struct_size(16), nest;
	struct tsb_msg m;

	(void)state;
	tsb_fill_stats(stats_buf, len, 16, 16, "d");
	/* Two PID attributes in one nest. */
	tsb_begin(&m, FAMILY, TASKSTATS_CMD_NEW);
	nest = tsb_nest(&m, TASKSTATS_TYPE_AGGR_PID);
	tsb_u32(&m, TASKSTATS_TYPE_PID, 1);
	tsb_u32(&m, TASKSTATS_TYPE_PID, 2);
	tsb_attr(&m, TASKSTATS_TYPE_STATS, stats_buf, len);
	tsb_nest_end(&m, nest);
	tsb_end(&m);
	expect_bad(&m);
	/* Two STATS. */
	tsb_begin(&m, FAMILY, TASKSTATS_CMD_NEW);
	nest = tsb_nest(&m, TASKSTATS_TYPE_AGGR_PID);
	tsb_u32(&m, TASKSTATS_TYPE_PID, 1);
	tsb_attr(&m, TASKSTATS_TYPE_STATS, stats_buf, len);
	tsb_attr(&m, TASKSTATS_TYPE_STATS, stats_buf, len);
	tsb_nest_end(&m, nest);
	tsb_end(&m);
	expect_bad(&m);
	/* Two AGGR_PID; two AGGR_TGID. */
	BAD_AGGRS(len, AP(1), AP(2));
	BAD_AGGRS(len, AP(1), AT(2), AT(3));
}

static void test_structure_errors(void **state)
{
	size_t len = record_struct_size(16), nest;
	uint64_t eight = 8;
	struct tsb_msg m;

	(void)state;
	tsb_fill_stats(stats_buf, len, 16, 16, "s");
	/* AGGR_TGID without an AGGR_PID first. */
	BAD_AGGRS(len, AT(2));
	BAD_AGGRS(len, AT(2), AP(1));
	/* An attribute type newer than we know, inside a nest: a later kernel
	 * may add one; it is skipped, the record still parses. */
	tsb_begin(&m, FAMILY, TASKSTATS_CMD_NEW);
	nest = tsb_nest(&m, TASKSTATS_TYPE_AGGR_PID);
	tsb_u32(&m, TASKSTATS_TYPE_PID, 1);
	tsb_u32(&m, 42, 1);
	tsb_attr(&m, TASKSTATS_TYPE_STATS, stats_buf, len);
	tsb_nest_end(&m, nest);
	tsb_end(&m);
	expect_skipped_unknown(&m);
	/* The wrong id type for the nest (TGID inside AGGR_PID). */
	BAD_AGGRS(len, { TASKSTATS_TYPE_AGGR_PID, TASKSTATS_TYPE_TGID, 1 });
	/* A newer top-level attribute is skipped too; bare PID/STATS at the
	 * top are known types in the wrong place: malformed. */
	tsb_begin(&m, FAMILY, TASKSTATS_CMD_NEW);
	tsb_aggr(&m, TASKSTATS_TYPE_AGGR_PID, TASKSTATS_TYPE_PID, 1, stats_buf, len);
	tsb_u32(&m, 42, 0);
	tsb_end(&m);
	expect_skipped_unknown(&m);
	tsb_begin(&m, FAMILY, TASKSTATS_CMD_NEW);
	tsb_u32(&m, TASKSTATS_TYPE_PID, 1);
	tsb_attr(&m, TASKSTATS_TYPE_STATS, stats_buf, len);
	tsb_end(&m);
	expect_bad(&m);
	/* An id of the wrong size. */
	tsb_begin(&m, FAMILY, TASKSTATS_CMD_NEW);
	nest = tsb_nest(&m, TASKSTATS_TYPE_AGGR_PID);
	tsb_attr(&m, TASKSTATS_TYPE_PID, &eight, sizeof(eight));
	tsb_attr(&m, TASKSTATS_TYPE_STATS, stats_buf, len);
	tsb_nest_end(&m, nest);
	tsb_end(&m);
	expect_bad(&m);
	/* A nest without STATS, one without PID, an empty one. */
	tsb_begin(&m, FAMILY, TASKSTATS_CMD_NEW);
	nest = tsb_nest(&m, TASKSTATS_TYPE_AGGR_PID);
	tsb_u32(&m, TASKSTATS_TYPE_PID, 1);
	tsb_nest_end(&m, nest);
	tsb_end(&m);
	expect_bad(&m);
	tsb_begin(&m, FAMILY, TASKSTATS_CMD_NEW);
	nest = tsb_nest(&m, TASKSTATS_TYPE_AGGR_PID);
	tsb_attr(&m, TASKSTATS_TYPE_STATS, stats_buf, len);
	tsb_nest_end(&m, nest);
	tsb_end(&m);
	expect_bad(&m);
	tsb_begin(&m, FAMILY, TASKSTATS_CMD_NEW);
	nest = tsb_nest(&m, TASKSTATS_TYPE_AGGR_PID);
	tsb_nest_end(&m, nest);
	tsb_end(&m);
	expect_bad(&m);
	/* No attributes at all; only padding. */
	tsb_begin(&m, FAMILY, TASKSTATS_CMD_NEW);
	tsb_end(&m);
	expect_bad(&m);
	tsb_begin(&m, FAMILY, TASKSTATS_CMD_NEW);
	tsb_attr(&m, TASKSTATS_TYPE_NULL, NULL, 0);
	tsb_end(&m);
	expect_bad(&m);
}

static void test_bad_nlmsg_len(void **state)
{
	struct exit_msg out;
	struct tsb_msg m;
	size_t full;
	uint32_t l;

	(void)state;
	full = tsb_exit_msg(&m, 16, 1, "x", 2, 16);
	/* nlmsg_len beyond the buffer: the receive was truncated. */
	assert_int_equal(record_parse_nlmsg(m.b, full - 1, &out), -EBADMSG);
	assert_int_equal(record_parse_nlmsg(m.b, full / 2, &out), -EBADMSG);
	/* Buffer shorter than a netlink header. */
	assert_int_equal(record_parse_nlmsg(m.b, 0, &out), -EBADMSG);
	assert_int_equal(record_parse_nlmsg(m.b, NLMSG_HDRLEN - 1, &out),
			 -EBADMSG);
	/* nlmsg_len smaller than the netlink header, or than both headers. */
	for (l = 0; l < NLMSG_HDRLEN + GENL_HDRLEN; l++) {
		memcpy(m.b, &l, sizeof(l));
		assert_int_equal(record_parse_nlmsg(m.b, full, &out), -EBADMSG);
	}
	/* nlmsg_len cutting into the attributes. */
	l = (uint32_t)full - 8;
	memcpy(m.b, &l, sizeof(l));
	assert_int_equal(record_parse_nlmsg(m.b, full, &out), -EBADMSG);
	/* Bytes after nlmsg_len (the next message) are not this one's. */
	tsb_exit_msg(&m, 16, 1, "x", 0, 0);
	memset(m.b + m.len, 0xff, 64);
	assert_int_equal(record_parse_nlmsg(m.b, m.len + 64, &out), 0);
	assert_int_equal(out.n, 1);
}

/* Cutting a good message anywhere never crashes and never succeeds with a
 * record that claims bytes it did not have. */
static void test_every_truncation(void **state)
{
	struct exit_msg out;
	struct tsb_msg m;
	size_t full, cut;

	(void)state;
	full = tsb_exit_msg(&m, 17, 1, "cut", 2, 0);
	for (cut = 0; cut < full; cut++) {
		uint32_t l = (uint32_t)cut;
		int ret;

		assert_int_equal(record_parse_nlmsg(m.b, cut, &out), -EBADMSG);
		/* Same cut, but the header claims only what is there. */
		memcpy(m.b, &l, sizeof(l));
		ret = record_parse_nlmsg(m.b, cut, &out);
		assert_true(ret == -EBADMSG || ret == 0);
		if (ret == 0)
			assert_true(out.rec[0].stats_len <= cut);
		l = (uint32_t)full;
		memcpy(m.b, &l, sizeof(l));
	}
	assert_int_equal(record_parse_nlmsg(m.b, full, &out), 0);
}

/* ---- names ---------------------------------------------------------------------- */

static void test_field_names(void **state)
{
	int f;

	(void)state;
	for (f = 0; f < F__COUNT; f++)
		assert_non_null(record_field_name((enum rec_field)f));
	assert_null(record_field_name(F__COUNT));
	assert_null(record_field_name((enum rec_field)-1));
}

#define V(n) cmocka_unit_test_prestate(test_version, (void *)(uintptr_t)(n))

/* A task cannot wait longer than it lived: such a figure is flagged. */
static void test_implausible(void **state)
{
	struct exit_record r;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.type = REC_PID;
	assert_false(record_implausible(&r));		/* no elapsed time */
	rec_set(&r, F_ETIME, 1000);				/* lived 1 ms */
	rec_set(&r, F_BLKIO_DELAY_TOTAL, 900000);		/* waited 0.9 ms */
	assert_false(record_implausible(&r));
	rec_set(&r, F_BLKIO_DELAY_TOTAL, 5209376371533ull);	/* seen: ~uptime */
	assert_true(record_implausible(&r));
	rec_set(&r, F_BLKIO_DELAY_TOTAL, 0);
	rec_set(&r, F_CPU_DELAY_TOTAL, 11000001);		/* beyond the 10 ms slack */
	assert_true(record_implausible(&r));
	rec_set(&r, F_CPU_DELAY_TOTAL, 10999999);		/* within it */
	assert_false(record_implausible(&r));
	rec_set(&r, F_IRQ_DELAY_TOTAL, 60000000000ull);
	assert_true(record_implausible(&r));
	r.type = REC_TGID;	/* sums of many threads may exceed the age */
	assert_false(record_implausible(&r));
	/* A timestamp that is no time, in a pid record only. */
	rec_set(&r, F_IRQ_DELAY_TOTAL, 0);
	r.type = REC_PID;
	rec_set(&r, F_WPCOPY_DELAY_MAX_TS, 1796298477123456789ull);
	assert_false(record_implausible(&r));
	rec_set(&r, F_WPCOPY_DELAY_MAX_TS, REC_TS_INVALID);
	assert_true(record_implausible(&r));
	r.type = REC_TGID;
	assert_false(record_implausible(&r));
}

/* v17's timestamps: struct __kernel_timespec to nanoseconds, and what is
 * no valid time (nanoseconds out of range, before 1970, beyond 64 bits)
 * becomes REC_TS_INVALID instead of a wrapped number. */
static void test_v17_timestamps(void **state)
{
	static const struct { int64_t sec, nsec; uint64_t want; } cases[] = {
		{ 0, 0, 0 },				/* never waited */
		{ 1796298477, 999999999, 1796298477999999999ull },
		{ 1, 0, 1000000000ull },
		{ 18446744073, 709551614, 18446744073709551614ull },	/* the last */
		{ 18446744073, 709551615, REC_TS_INVALID },
		{ 18446744074, 0, REC_TS_INVALID },
		{ INT64_MAX, 0, REC_TS_INVALID },
		{ -1, 0, REC_TS_INVALID },
		{ 5, 1000000000, REC_TS_INVALID },
		{ 5, -1, REC_TS_INVALID },
	};
	struct exit_record r;
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		tsb_fill_stats(stats_buf, 688, 17, 17, "ts");
		tsb_store_ts(stats_buf + 656, cases[i].sec, cases[i].nsec);
		assert_int_equal(record_parse_stats(stats_buf, 688, 0, &r), 0);
		assert_true(rec_has(&r, F_WPCOPY_DELAY_MAX_TS));
		if (rec_get(&r, F_WPCOPY_DELAY_MAX_TS) != cases[i].want)
			fail_msg("case %u: %llu, want %llu", i,
				 (unsigned long long)rec_get(&r, F_WPCOPY_DELAY_MAX_TS),
				 (unsigned long long)cases[i].want);
		/* its neighbours are untouched */
		assert_int_equal(rec_get(&r, F_COMPACT_DELAY_MAX_TS),
				 tsb_value(F_COMPACT_DELAY_MAX_TS));
		assert_int_equal(rec_get(&r, F_IRQ_DELAY_MAX_TS),
				 tsb_value(F_IRQ_DELAY_MAX_TS));
	}
	/* The last timestamp needs all 16 bytes. */
	tsb_fill_stats(stats_buf, 688, 17, 17, "ts");
	assert_int_equal(record_parse_stats(stats_buf, 680, 0, &r), 0);
	assert_false(rec_has(&r, F_IRQ_DELAY_MAX_TS));
	assert_true(rec_has(&r, F_WPCOPY_DELAY_MAX_TS));
}

/* Bytes past the known fields: a newer version, or a known version that
 * is longer than its size; neither at or below the known size. */
static void test_unknown_fields(void **state)
{
	static const struct { unsigned version; size_t len; bool want; } cases[] = {
		{ 13, 416, false }, { 14, 432, false }, { 16, 560, false },
		{ 17, 688, false }, { 17, 600, false }, { 17, 696, true },
		{ 16, 568, true }, { 18, 688, true }, { 18, 720, true },
		{ 200, 720, true },
	};
	struct exit_record r;
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		tsb_fill_stats(stats_buf, cases[i].len, cases[i].version,
			       cases[i].version, "n");
		assert_int_equal(record_parse_stats(stats_buf, cases[i].len, 0, &r), 0);
		if (record_has_unknown_fields(&r) != cases[i].want)
			fail_msg("v%u, %zu bytes: unknown fields %d, want %d",
				 cases[i].version, cases[i].len,
				 record_has_unknown_fields(&r), cases[i].want);
	}
	/* A v16 struct as long as a v17 one: its bytes past 560 are no
	 * v17 timestamps. */
	tsb_fill_stats(stats_buf, 688, 16, 17, "long");
	assert_int_equal(record_parse_stats(stats_buf, 688, 0, &r), 0);
	assert_true(record_has_unknown_fields(&r));
	assert_true(rec_has(&r, F_IRQ_DELAY_MIN));
	assert_false(rec_has(&r, F_CPU_DELAY_MAX_TS));
	assert_int_equal(r.stats_len, 688);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_offsets_match_uapi),
		cmocka_unit_test(test_struct_sizes),
		V(1), V(2), V(3), V(4), V(5), V(6), V(7), V(8), V(9), V(10),
		V(11), V(12), V(13), V(14), V(15), V(16), V(17), V(18), V(200),
		cmocka_unit_test(test_layout_landmarks),
		cmocka_unit_test(test_short_stats_by_prefix),
		cmocka_unit_test(test_comm_full_length),
		cmocka_unit_test(test_null_padding),
		cmocka_unit_test(test_nested_flag),
		cmocka_unit_test(test_walk_common_shape),
		cmocka_unit_test(test_pid_tgid_as_sent),
		cmocka_unit_test(test_tgid_half_malformed),
		cmocka_unit_test(test_pid_gets_tgid_before_v12),
		cmocka_unit_test(test_tgid_version0),
		cmocka_unit_test(test_pid_version0),
		cmocka_unit_test(test_not_exit_records),
		cmocka_unit_test(test_bad_nla_len),
		cmocka_unit_test(test_nla_len_beyond_buffer),
		cmocka_unit_test(test_stats_too_short),
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_structure_errors),
		cmocka_unit_test(test_bad_nlmsg_len),
		cmocka_unit_test(test_every_truncation),
		cmocka_unit_test(test_field_names),
		cmocka_unit_test(test_implausible),
		cmocka_unit_test(test_v17_timestamps),
		cmocka_unit_test(test_unknown_fields),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
