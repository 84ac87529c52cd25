/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One normalised exit record, whatever struct taskstats version the kernel
 * sent, and the parser that makes it from a generic netlink message.
 *
 * Nothing here trusts the kernel's bytes: every attribute length is checked,
 * every field is read only when the attribute is long enough to hold it, and
 * the record says which fields the kernel supplied. */
#ifndef COMMON_RECORD_H
#define COMMON_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rec_field.h"

/* A v17 timestamp that is no valid time (tv_nsec out of range, negative, or
 * past what 64 bits of nanoseconds hold) is stored as this, and the record
 * counts as implausible. */
#define REC_TS_INVALID UINT64_MAX

enum rec_type { REC_PID = 1, REC_TGID = 2 };

#define REC_PRESENT_WORDS ((F__COUNT + 63) / 64)

/* What a record knows of the collector run that wrote it, not from the
 * kernel: the columns run, seq and time_ns (exitmon(8), "Run, seq and
 * time").  has: which of them are known (REC_META_*); a record read back
 * from a file that lacks a column, or from a capture, does not know it. */
#define REC_RUN_HEX 32		/* a run id: 128 bits as lowercase hex */
enum { REC_META_RUN = 1, REC_META_SEQ = 2, REC_META_TIME = 4 };
struct rec_meta {
	uint8_t has;
	char run[REC_RUN_HEX];	/* lowercase hex digits, no NUL */
	uint64_t seq;		/* 1, 2, 3 ... per run */
	uint64_t time_ns;	/* CLOCK_REALTIME when received, ns since the epoch */
};

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
	struct rec_meta meta;	/* run, seq, time_ns: none unless set */
};

/* What one taskstats message carried: a pid record, optionally followed
 * by the tgid record of the group whose last task that was.  Both are as
 * the kernel sent them: a tgid record has no comm (and 0 for uid, gid,
 * ppid and pid); its identity is that of rec[0]. */
struct exit_msg {
	unsigned n;
	struct exit_record rec[2];
	/* The message's AGGR_TGID half was malformed and is left out: rec[0],
	 * the pid record, is whole and kept (n == 1); count one malformed. */
	bool tgid_malformed;
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

/* Offset of a field its layout does not have: past any payload. */
#define REC_OFF_NONE 0xffffu

/* One exit record as the kernel's bytes, checked once and read in place:
 * the collector's hot path formats, filters and counts from this, loading
 * each field from the payload at its offset for the struct's version (no
 * normalised record in between).  Valid while the message is. */
struct exit_view {
	enum rec_type type;
	uint32_t id;		/* the PID or TGID attribute */
	uint16_t version;	/* struct version as sent (0 for old TGID records) */
	uint16_t layout;	/* version whose layout is used to read it */
	uint32_t stats_len;	/* length of the TYPE_STATS payload */
	uint32_t len;		/* bytes of it that hold fields of that layout */
	const unsigned char *p;	/* the TYPE_STATS payload */
	const uint16_t *off;	/* each rec_field's offset, or REC_OFF_NONE */
	const char *comm;	/* comm's bytes before the first NUL, in p */
	uint8_t comm_len;
	bool msg_tgid;		/* a pid record from before struct version 12: */
	uint32_t tgid;		/* ... its group, from the message's TGID */
	/* run, seq, time_ns: set by the collector before the view is
	 * written; NULL (as record_view_nlmsg leaves it): none known. */
	const struct rec_meta *meta;
};

struct exit_views {
	unsigned n;
	struct exit_view rec[2];
	bool tgid_malformed;	/* as in struct exit_msg */
};

/* Where a struct __kernel_timespec in a payload is, as nanoseconds since the
 * epoch, or REC_TS_INVALID when it is no valid time. */
static inline uint64_t rec_timespec_ns(const unsigned char *p)
{
	int64_t sec, nsec;

	__builtin_memcpy(&sec, p, 8);
	__builtin_memcpy(&nsec, p + 8, 8);
	if (sec < 0 || nsec < 0 || nsec >= 1000000000 ||
	    (uint64_t)sec > (REC_TS_INVALID - 1 - (uint64_t)nsec) / 1000000000u)
		return REC_TS_INVALID;
	return (uint64_t)sec * 1000000000u + (uint64_t)nsec;
}

/* The view's struct holds all of field f. */
static inline bool view_has(const struct exit_view *v, enum rec_field f)
{
	return (uint32_t)v->off[f] + REC_FIELD_SIZE(f) <= v->len;
}

/* Field f, which view_has(): loaded from the payload (unaligned, native
 * order as the kernel writes it); timestamps as rec_timespec_ns(). */
static inline uint64_t view_get(const struct exit_view *v, enum rec_field f)
{
	const unsigned char *q = v->p + v->off[f];
	uint64_t x8;
	uint32_t x4;

	switch (REC_FIELD_SIZE(f)) {
	case 1: return q[0];
	case 4: __builtin_memcpy(&x4, q, 4); return x4;
	case 16: return rec_timespec_ns(q);
	default: __builtin_memcpy(&x8, q, 8); return x8;
	}
}

/* The view's thread group: the TGID attribute of a tgid record, ac_tgid of
 * a pid record, or (before version 12) the message's TGID.  false when
 * none is known. */
static inline bool view_tgid(const struct exit_view *v, uint32_t *tgid)
{
	if (v->type == REC_TGID) {
		*tgid = v->id;
		return true;
	}
	if (view_has(v, F_TGID)) {
		*tgid = (uint32_t)view_get(v, F_TGID);
		return true;
	}
	*tgid = v->tgid;
	return v->msg_tgid;
}

/* A new run id, random (getrandom(2)): what a collector run or the
 * records read from a capture are known by.  0, or -errno. */
int record_run_random(char out[REC_RUN_HEX]);

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

/* The view reads the append-only layout (every version but 1 and 15). */
bool record_view_append(const struct exit_view *v);

/* The view's counterparts of the two above (the collector's). */
bool record_view_implausible(const struct exit_view *v);
bool record_view_unknown_fields(const struct exit_view *v);

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
 * an ack, an error, another command).  A message whose pid half is whole
 * and whose tgid half is not returns 0 with the pid record alone and
 * out->tgid_malformed set. */
int record_parse_nlmsg(const void *msg, size_t len, struct exit_msg *out);

/* The same checks as record_parse_nlmsg, once, without reading a field:
 * views into msg (the collector's hot path). */
int record_view_nlmsg(const void *msg, size_t len, struct exit_views *out);

/* The normalised record of a view (for the readers); its meta copied. */
void record_from_view(const struct exit_view *v, struct exit_record *r);

/* The attributes of an exit message, found by one pass over its bytes
 * (record_walk_attrs, the hot path's) instead of nla_parse.  Exactly what
 * nla_parse with record_msg_policy and record_aggr_policy accepts, plus the
 * stricter rules of tsnl_attrs and the message's shape (one AGGR_PID
 * first, at most one AGGR_TGID, an id and a STATS in each): the
 * differential fuzz target tests/fuzz/fuzz_walk.c holds the two to it. */
struct rec_walk {
	unsigned n;			/* 1: AGGR_PID; 2: and AGGR_TGID */
	uint32_t id[2];
	const unsigned char *stats[2];
	uint32_t stats_len[2];
};
/* 0; -EBADMSG; or -EPROTO: the AGGR_PID nest is whole (w->n == 1) and the
 * AGGR_TGID nest after it is not. */
int record_walk_attrs(const void *attrs, size_t len, struct rec_walk *w);

struct nla_policy;
extern const struct nla_policy *const record_msg_policy;	/* the message */
extern const struct nla_policy *const record_aggr_policy;	/* each nest */

#endif
