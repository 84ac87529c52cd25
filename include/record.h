/* One normalised exit record, whatever struct taskstats version the kernel
 * sent, and the parser that makes it from a generic netlink message.
 *
 * Nothing here trusts the kernel's bytes: every attribute length is checked,
 * every field is read only when the attribute is long enough to hold it, and
 * the record says which fields the kernel supplied. */
#ifndef EXITMON_RECORD_H
#define EXITMON_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Attribute and command numbers: the kernel's (TASKSTATS_TYPE_*,
 * TASKSTATS_CMD_*), and TS_COMM_LEN. */
#include <linux/taskstats.h>

/* Newest struct version whose layout we know (mainline's uapi
 * <linux/taskstats.h> of Linux 7.0 and later, 688 bytes); later ones parse
 * by prefix. */
#define TS_KNOWN_VERSION 17

/* A v17 timestamp that is no valid time (tv_nsec out of range, negative, or
 * past what 64 bits of nanoseconds hold) is stored as this, and the record
 * counts as implausible. */
#define REC_TS_INVALID UINT64_MAX

enum rec_type { REC_PID = 1, REC_TGID = 2 };

/* Every struct taskstats field, in struct order (the version that added a
 * group is noted).  Offsets live in record.c. */
enum rec_field {
	/* v1: header, delay accounting, basic accounting */
	F_EXITCODE, F_FLAG, F_NICE,
	F_CPU_COUNT, F_CPU_DELAY_TOTAL, F_BLKIO_COUNT, F_BLKIO_DELAY_TOTAL,
	F_SWAPIN_COUNT, F_SWAPIN_DELAY_TOTAL, F_CPU_RUN_REAL_TOTAL,
	F_CPU_RUN_VIRTUAL_TOTAL,
	F_SCHED, F_UID, F_GID, F_PID, F_PPID, F_BTIME, F_ETIME, F_UTIME,
	F_STIME, F_MINFLT, F_MAJFLT,
	/* v2: extended accounting */
	F_COREMEM, F_VIRTMEM, F_HIWATER_RSS, F_HIWATER_VM, F_READ_CHAR,
	F_WRITE_CHAR, F_READ_SYSCALLS, F_WRITE_SYSCALLS,
	/* v3: storage I/O */
	F_READ_BYTES, F_WRITE_BYTES, F_CANCELLED_WRITE_BYTES,
	/* v4: context switches */
	F_NVCSW, F_NIVCSW,
	/* v6: scaled times */
	F_UTIMESCALED, F_STIMESCALED, F_CPU_SCALED_RUN_REAL_TOTAL,
	/* v7: memory reclaim delay */
	F_FREEPAGES_COUNT, F_FREEPAGES_DELAY_TOTAL,
	/* v9: thrashing */
	F_THRASHING_COUNT, F_THRASHING_DELAY_TOTAL,
	/* v10: 64-bit begin time */
	F_BTIME64,
	/* v11: memory compaction */
	F_COMPACT_COUNT, F_COMPACT_DELAY_TOTAL,
	/* v12: thread group, executable */
	F_TGID, F_TGETIME, F_EXE_DEV, F_EXE_INODE,
	/* v13: write-protect copy */
	F_WPCOPY_COUNT, F_WPCOPY_DELAY_TOTAL,
	/* v14: IRQ */
	F_IRQ_COUNT, F_IRQ_DELAY_TOTAL,
	/* v15 (inserted in the middle) / v16 (moved to the end): peaks */
	F_CPU_DELAY_MAX, F_CPU_DELAY_MIN, F_BLKIO_DELAY_MAX, F_BLKIO_DELAY_MIN,
	F_SWAPIN_DELAY_MAX, F_SWAPIN_DELAY_MIN, F_FREEPAGES_DELAY_MAX,
	F_FREEPAGES_DELAY_MIN, F_THRASHING_DELAY_MAX, F_THRASHING_DELAY_MIN,
	F_COMPACT_DELAY_MAX, F_COMPACT_DELAY_MIN, F_WPCOPY_DELAY_MAX,
	F_WPCOPY_DELAY_MIN, F_IRQ_DELAY_MAX, F_IRQ_DELAY_MIN,
	/* v17 (Linux 7.0): when each kind's longest wait happened, a struct
	 * __kernel_timespec in the struct, nanoseconds here */
	F_CPU_DELAY_MAX_TS, F_BLKIO_DELAY_MAX_TS, F_SWAPIN_DELAY_MAX_TS,
	F_FREEPAGES_DELAY_MAX_TS, F_THRASHING_DELAY_MAX_TS,
	F_COMPACT_DELAY_MAX_TS, F_WPCOPY_DELAY_MAX_TS, F_IRQ_DELAY_MAX_TS,
	F__COUNT
};

#define REC_PRESENT_WORDS ((F__COUNT + 63) / 64)

struct exit_record {
	enum rec_type type;
	uint32_t id;		/* the PID or TGID attribute */
	uint16_t version;	/* struct version as sent (0 for old TGID records) */
	uint16_t layout;	/* version whose layout was used to read it */
	uint32_t stats_len;	/* length of the TYPE_STATS payload */
	uint8_t comm_len;	/* bytes of comm before the first NUL */
	char comm[TS_COMM_LEN + 1];	/* raw bytes, NUL-terminated for convenience */
	uint64_t present[REC_PRESENT_WORDS];
	uint64_t v[F__COUNT];
};

/* What one taskstats message carried: a pid record, optionally followed
 * by the tgid record of the group whose last task that was.  Both are as
 * the kernel sent them: a tgid record has no comm (and 0 for uid, gid,
 * ppid and pid); its identity is that of rec[0]. */
struct exit_msg {
	unsigned n;
	struct exit_record rec[2];
};

static inline bool rec_has(const struct exit_record *r, enum rec_field f)
{
	return (r->present[f / 64] >> (f % 64)) & 1;
}

static inline void rec_set(struct exit_record *r, enum rec_field f, uint64_t v)
{
	r->v[f] = v;
	r->present[f / 64] |= 1ull << (f % 64);
}

static inline uint64_t rec_get(const struct exit_record *r, enum rec_field f)
{
	return r->v[f];
}

/* A pid record whose wait time in some category exceeds its whole
 * lifetime: impossible, so the kernel's figure is wrong (seen right after
 * kernel.task_delayacct is switched on: a block I/O delay as large as the
 * system's uptime); or one with a timestamp that is no valid time.  Such
 * records are written as sent and counted. */
bool record_implausible(const struct exit_record *r);

/* The record is of a struct version newer than TS_KNOWN_VERSION, or
 * longer than its version's size: bytes past the known fields exist and
 * are not written anywhere. */
bool record_has_unknown_fields(const struct exit_record *r);

/* Field name (as used in CSV headers and JSON keys by default), or NULL. */
const char *record_field_name(enum rec_field f);
/* Size in bytes of a struct of that version (0 if unknown). */
size_t record_struct_size(unsigned version);

/* Parse one TYPE_STATS payload into r (type and id are left alone).
 * layout_hint is used when the struct says version 0.
 * Returns 0, or -EBADMSG when the payload is too short to be a taskstats. */
int record_parse_stats(const void *p, size_t len, unsigned layout_hint,
		       struct exit_record *r);

/* Parse the attributes of one genl TASKSTATS_CMD_NEW message (what follows
 * the genlmsghdr).  Returns 0 with out->n >= 1, or -EBADMSG for a malformed
 * message (bad lengths, missing PID/STATS, unknown nesting). */
int record_parse_attrs(const void *attrs, size_t len, struct exit_msg *out);

/* Parse one netlink message: header, genl header, attributes.  Returns 0,
 * -EBADMSG (malformed), or -ENOMSG (well formed but not an exit record:
 * an ack, an error, another command). */
int record_parse_nlmsg(const void *msg, size_t len, struct exit_msg *out);

#endif
