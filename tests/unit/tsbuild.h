/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test helper: build taskstats netlink messages byte by byte, the way the
 * kernel lays them out (native endian), without using the parser's own
 * tables.  The field offsets below are written out by hand from the kernel's
 * include/uapi/linux/taskstats.h of each version; test_record.c checks them
 * against the installed <linux/taskstats.h> where that header has them.
 *
 * Header only (static inline) so that unit tests and the fuzz seed maker
 * share it without a change to the Makefile. */
#ifndef EXITMON_TEST_TSBUILD_H
#define EXITMON_TEST_TSBUILD_H

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <stdint.h>
#include <string.h>

#include "record.h"

#define TSB_NONE 0xffff
#define TSB_COMM_OFF 80		/* comm in every layout but v1 and v15 */
#define TSB_COMM_OFF_V15 128
#define TSB_MAX_STATS 1024

struct tsb_field {
	uint16_t off;		/* append-only layout (v2..v14, v16 and later) */
	uint16_t off_v15;	/* v15: peaks after each delay total */
	uint16_t off_v1;	/* v1: short header */
	uint8_t size;
};

/* [field] = { append-only offset, v15 offset, v1 offset, size } */
static const struct tsb_field tsb_fields[F__COUNT] = {
	[F_EXITCODE] = { 4, 4, TSB_NONE, 4 },
	[F_FLAG] = { 8, 8, TSB_NONE, 1 },
	[F_NICE] = { 9, 9, TSB_NONE, 1 },
	[F_CPU_COUNT] = { 16, 16, 8, 8 },
	[F_CPU_DELAY_TOTAL] = { 24, 24, 16, 8 },
	[F_BLKIO_COUNT] = { 32, 48, 24, 8 },
	[F_BLKIO_DELAY_TOTAL] = { 40, 56, 32, 8 },
	[F_SWAPIN_COUNT] = { 48, 80, 40, 8 },
	[F_SWAPIN_DELAY_TOTAL] = { 56, 88, 48, 8 },
	[F_CPU_RUN_REAL_TOTAL] = { 64, 112, 56, 8 },
	[F_CPU_RUN_VIRTUAL_TOTAL] = { 72, 120, 64, 8 },
	/* comm: 80 (v15: 128), 32 bytes */
	[F_SCHED] = { 112, 160, TSB_NONE, 1 },
	[F_UID] = { 120, 168, TSB_NONE, 4 },
	[F_GID] = { 124, 172, TSB_NONE, 4 },
	[F_PID] = { 128, 176, TSB_NONE, 4 },
	[F_PPID] = { 132, 180, TSB_NONE, 4 },
	[F_BTIME] = { 136, 184, TSB_NONE, 4 },
	[F_ETIME] = { 144, 192, TSB_NONE, 8 },
	[F_UTIME] = { 152, 200, TSB_NONE, 8 },
	[F_STIME] = { 160, 208, TSB_NONE, 8 },
	[F_MINFLT] = { 168, 216, TSB_NONE, 8 },
	[F_MAJFLT] = { 176, 224, TSB_NONE, 8 },
	[F_COREMEM] = { 184, 232, TSB_NONE, 8 },
	[F_VIRTMEM] = { 192, 240, TSB_NONE, 8 },
	[F_HIWATER_RSS] = { 200, 248, TSB_NONE, 8 },
	[F_HIWATER_VM] = { 208, 256, TSB_NONE, 8 },
	[F_READ_CHAR] = { 216, 264, TSB_NONE, 8 },
	[F_WRITE_CHAR] = { 224, 272, TSB_NONE, 8 },
	[F_READ_SYSCALLS] = { 232, 280, TSB_NONE, 8 },
	[F_WRITE_SYSCALLS] = { 240, 288, TSB_NONE, 8 },
	[F_READ_BYTES] = { 248, 296, TSB_NONE, 8 },
	[F_WRITE_BYTES] = { 256, 304, TSB_NONE, 8 },
	[F_CANCELLED_WRITE_BYTES] = { 264, 312, TSB_NONE, 8 },
	[F_NVCSW] = { 272, 320, TSB_NONE, 8 },
	[F_NIVCSW] = { 280, 328, TSB_NONE, 8 },
	[F_UTIMESCALED] = { 288, 336, TSB_NONE, 8 },
	[F_STIMESCALED] = { 296, 344, TSB_NONE, 8 },
	[F_CPU_SCALED_RUN_REAL_TOTAL] = { 304, 352, TSB_NONE, 8 },
	[F_FREEPAGES_COUNT] = { 312, 360, TSB_NONE, 8 },
	[F_FREEPAGES_DELAY_TOTAL] = { 320, 368, TSB_NONE, 8 },
	[F_THRASHING_COUNT] = { 328, 392, TSB_NONE, 8 },
	[F_THRASHING_DELAY_TOTAL] = { 336, 400, TSB_NONE, 8 },
	[F_BTIME64] = { 344, 424, TSB_NONE, 8 },
	[F_COMPACT_COUNT] = { 352, 432, TSB_NONE, 8 },
	[F_COMPACT_DELAY_TOTAL] = { 360, 440, TSB_NONE, 8 },
	[F_TGID] = { 368, 464, TSB_NONE, 4 },
	[F_TGETIME] = { 376, 472, TSB_NONE, 8 },
	[F_EXE_DEV] = { 384, 480, TSB_NONE, 8 },
	[F_EXE_INODE] = { 392, 488, TSB_NONE, 8 },
	[F_WPCOPY_COUNT] = { 400, 496, TSB_NONE, 8 },
	[F_WPCOPY_DELAY_TOTAL] = { 408, 504, TSB_NONE, 8 },
	[F_IRQ_COUNT] = { 416, 528, TSB_NONE, 8 },
	[F_IRQ_DELAY_TOTAL] = { 424, 536, TSB_NONE, 8 },
	[F_CPU_DELAY_MAX] = { 432, 32, TSB_NONE, 8 },
	[F_CPU_DELAY_MIN] = { 440, 40, TSB_NONE, 8 },
	[F_BLKIO_DELAY_MAX] = { 448, 64, TSB_NONE, 8 },
	[F_BLKIO_DELAY_MIN] = { 456, 72, TSB_NONE, 8 },
	[F_SWAPIN_DELAY_MAX] = { 464, 96, TSB_NONE, 8 },
	[F_SWAPIN_DELAY_MIN] = { 472, 104, TSB_NONE, 8 },
	[F_FREEPAGES_DELAY_MAX] = { 480, 376, TSB_NONE, 8 },
	[F_FREEPAGES_DELAY_MIN] = { 488, 384, TSB_NONE, 8 },
	[F_THRASHING_DELAY_MAX] = { 496, 408, TSB_NONE, 8 },
	[F_THRASHING_DELAY_MIN] = { 504, 416, TSB_NONE, 8 },
	[F_COMPACT_DELAY_MAX] = { 512, 448, TSB_NONE, 8 },
	[F_COMPACT_DELAY_MIN] = { 520, 456, TSB_NONE, 8 },
	[F_WPCOPY_DELAY_MAX] = { 528, 512, TSB_NONE, 8 },
	[F_WPCOPY_DELAY_MIN] = { 536, 520, TSB_NONE, 8 },
	[F_IRQ_DELAY_MAX] = { 544, 544, TSB_NONE, 8 },
	[F_IRQ_DELAY_MIN] = { 552, 552, TSB_NONE, 8 },
	/* v17: struct __kernel_timespec, 16 bytes each */
	[F_CPU_DELAY_MAX_TS] = { 560, TSB_NONE, TSB_NONE, 16 },
	[F_BLKIO_DELAY_MAX_TS] = { 576, TSB_NONE, TSB_NONE, 16 },
	[F_SWAPIN_DELAY_MAX_TS] = { 592, TSB_NONE, TSB_NONE, 16 },
	[F_FREEPAGES_DELAY_MAX_TS] = { 608, TSB_NONE, TSB_NONE, 16 },
	[F_THRASHING_DELAY_MAX_TS] = { 624, TSB_NONE, TSB_NONE, 16 },
	[F_COMPACT_DELAY_MAX_TS] = { 640, TSB_NONE, TSB_NONE, 16 },
	[F_WPCOPY_DELAY_MAX_TS] = { 656, TSB_NONE, TSB_NONE, 16 },
	[F_IRQ_DELAY_MAX_TS] = { 672, TSB_NONE, TSB_NONE, 16 },
};

/* Struct sizes by version, from the kernel headers (v5, v8: no change). */
static const uint16_t tsb_sizes[] = {
	0, 72, 248, 272, 288, 288, 312, 328, 328, 344, 352, 368, 400, 416,
	432, 560, 560, 688,
};

/* A timespec field holds these seconds and nanoseconds (a plausible wall
 * clock time, different per field). */
static inline int64_t tsb_ts_sec(enum rec_field f)
{
	return 1796298477 + 1000 * (int64_t)f;
}

static inline int64_t tsb_ts_nsec(enum rec_field f)
{
	return 123456789 - 1000 * (int64_t)f;
}

static inline uint16_t tsb_offset(enum rec_field f, unsigned layout)
{
	if (layout == 1)
		return tsb_fields[f].off_v1;
	if (layout == 15)
		return tsb_fields[f].off_v15;
	return tsb_fields[f].off;
}

/* A value no other field has, in every byte, so a field read from a wrong
 * offset (even one overlapping the right one) cannot match.  For a
 * timespec: the nanoseconds the parser must make of it. */
static inline uint64_t tsb_value(enum rec_field f)
{
	uint64_t v = 0x0101010101010101ull * (uint64_t)(f + 1) +
		     0x7060504030201000ull + 1;
	unsigned size = tsb_fields[f].size;

	if (size == 16)
		return (uint64_t)tsb_ts_sec(f) * 1000000000u +
		       (uint64_t)tsb_ts_nsec(f);
	return size == 8 ? v : v & ((1ull << (8 * size)) - 1);
}

static inline void tsb_store_ts(unsigned char *p, int64_t sec, int64_t nsec)
{
	memcpy(p, &sec, 8);
	memcpy(p + 8, &nsec, 8);
}

static inline void tsb_store(unsigned char *p, uint64_t v, unsigned size)
{
	uint8_t b = (uint8_t)v;
	uint16_t h = (uint16_t)v;
	uint32_t w = (uint32_t)v;

	switch (size) {
	case 1: memcpy(p, &b, 1); break;
	case 2: memcpy(p, &h, 2); break;
	case 4: memcpy(p, &w, 4); break;
	case 8: memcpy(p, &v, 8); break;
	}
}

/* Fill a stats payload of len bytes for struct version `version` read in
 * layout `layout` (they differ only for version-0 TGID records): every
 * field that fits gets tsb_value(), comm gets `comm`.  Bytes beyond the
 * known layout get 0xee. */
static inline void tsb_fill_stats(unsigned char *p, size_t len, unsigned version,
				  unsigned layout, const char *comm)
{
	size_t comm_off = layout == 15 ? TSB_COMM_OFF_V15 : TSB_COMM_OFF;
	int f;

	memset(p, 0xee, len);
	if (len >= 8)
		memset(p, 0, 8);
	for (f = 0; f < F__COUNT; f++) {
		uint16_t off = tsb_offset((enum rec_field)f, layout);

		if (off == TSB_NONE || off + tsb_fields[f].size > len)
			continue;
		if (tsb_fields[f].size == 16)
			tsb_store_ts(p + off, tsb_ts_sec((enum rec_field)f),
				     tsb_ts_nsec((enum rec_field)f));
		else
			tsb_store(p + off, tsb_value((enum rec_field)f),
				  tsb_fields[f].size);
	}
	if (len >= 2)
		tsb_store(p, version, 2);
	if (layout != 1 && comm && len >= comm_off + TS_COMM_LEN) {
		memset(p + comm_off, 0, TS_COMM_LEN);
		memcpy(p + comm_off, comm, strnlen(comm, TS_COMM_LEN));
	}
}

/* ---- netlink message builder ------------------------------------------- */

struct tsb_msg {
	unsigned char b[8192];
	size_t len;
};

static inline void tsb_put(struct tsb_msg *m, const void *data, size_t len)
{
	if (m->len + len > sizeof(m->b))
		return;		/* tests keep well below; never overflow */
	memcpy(m->b + m->len, data, len);
	m->len += len;
}

static inline void tsb_pad(struct tsb_msg *m)
{
	static const unsigned char zero[NLA_ALIGNTO];

	tsb_put(m, zero, NLA_ALIGN(m->len) - m->len);
}

/* Start a message: nlmsghdr (family type 0x1c as on a typical kernel) and
 * the genl header with cmd. */
static inline void tsb_begin(struct tsb_msg *m, uint16_t nlmsg_type, uint8_t cmd)
{
	struct nlmsghdr nh = { .nlmsg_type = nlmsg_type, .nlmsg_seq = 0 };
	struct genlmsghdr gh = { .cmd = cmd, .version = 1 };

	m->len = 0;
	tsb_put(m, &nh, sizeof(nh));
	tsb_put(m, &gh, sizeof(gh));
}

/* Set nlmsg_len to what was built. */
static inline size_t tsb_end(struct tsb_msg *m)
{
	uint32_t len = (uint32_t)m->len;

	memcpy(m->b + offsetof(struct nlmsghdr, nlmsg_len), &len, sizeof(len));
	return m->len;
}

/* An attribute with a payload; nla_len covers the payload, the padding
 * after it does not (as the kernel's nla_put). */
static inline void tsb_attr(struct tsb_msg *m, uint16_t type, const void *data,
			    size_t len)
{
	struct nlattr a = { .nla_len = (uint16_t)(NLA_HDRLEN + len),
			    .nla_type = type };

	tsb_pad(m);
	tsb_put(m, &a, sizeof(a));
	if (len)
		tsb_put(m, data, len);
}

static inline void tsb_u32(struct tsb_msg *m, uint16_t type, uint32_t v)
{
	tsb_attr(m, type, &v, sizeof(v));
}

/* Nests: start returns where the header is, end sets its length. */
static inline size_t tsb_nest(struct tsb_msg *m, uint16_t type)
{
	size_t at;

	tsb_pad(m);
	at = m->len;
	tsb_attr(m, type, NULL, 0);
	return at;
}

static inline void tsb_nest_end(struct tsb_msg *m, size_t at)
{
	uint16_t len;

	tsb_pad(m);
	len = (uint16_t)(m->len - at);
	memcpy(m->b + at + offsetof(struct nlattr, nla_len), &len, sizeof(len));
}

/* One AGGR_PID or AGGR_TGID nest with an id and a stats payload. */
static inline void tsb_aggr(struct tsb_msg *m, uint16_t aggr, uint16_t id_type,
			    uint32_t id, const void *stats, size_t stats_len)
{
	size_t nest = tsb_nest(m, aggr);

	tsb_u32(m, id_type, id);
	tsb_attr(m, TASKSTATS_TYPE_STATS, stats, stats_len);
	tsb_nest_end(m, nest);
}

/* A whole exit message: pid record of `version`, and when tgid != 0 a
 * TGID record of tgid_version (0 = the old style) in the same layout. */
static inline size_t tsb_exit_msg(struct tsb_msg *m, unsigned version,
				  uint32_t pid, const char *comm, uint32_t tgid,
				  unsigned tgid_version)
{
	static unsigned char stats[TSB_MAX_STATS];
	size_t len = version < sizeof(tsb_sizes) / sizeof(tsb_sizes[0])
		     ? tsb_sizes[version] : 600;

	tsb_begin(m, 0x1c, TASKSTATS_CMD_NEW);
	tsb_fill_stats(stats, len, version, version, comm);
	tsb_aggr(m, TASKSTATS_TYPE_AGGR_PID, TASKSTATS_TYPE_PID, pid, stats, len);
	if (tgid) {
		tsb_fill_stats(stats, len, tgid_version, version, "");
		tsb_aggr(m, TASKSTATS_TYPE_AGGR_TGID, TASKSTATS_TYPE_TGID, tgid, stats, len);
	}
	return tsb_end(m);
}

#endif
