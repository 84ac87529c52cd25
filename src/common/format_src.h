/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the writers read (private to format*.c): a normalised record or a
 * view of the kernel's bytes, behind one set of inline accessors, and a
 * column's value from either with its separator. */
#ifndef COMMON_FORMAT_SRC_H
#define COMMON_FORMAT_SRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "columns.h"
#include "format_put.h"
#include "record.h"
#include "tsabi.h"

/* What a writer reads: a normalised record (the readers'), or a view of
 * the kernel's bytes in the append-only layout every kernel since 6.15
 * sends (the collector's hot path: each field loaded from the payload at
 * an offset that is a constant in the code).  Each format's writer is
 * written once over `struct src` and instantiated for both with the mode
 * a constant, so the choice folds away; the view's fields are copied into
 * the struct (registers) because every store to the line could otherwise
 * alias them.  A view of the two other layouts (version 1, and 15 of Linux
 * 6.14 alone) is written through its normalised record: a third copy of
 * every writer would cost more to build than those kernels are worth. */
enum src_mode { S_REC, S_APPEND, S_APPEND_V16 };

/* A payload of at least this many bytes holds every field up to version
 * 16: the usual case (Linux 6.15 and later), instantiated apart so that
 * its columns need no presence test but the version 17 ones. */
#define V16_LEN offsetof(struct ts_abi, cpu_delay_max_ts)

struct src {
	enum src_mode mode;
	const struct exit_record *r;	/* S_REC */
	const struct exit_view *v;	/* S_APPEND, S_APPEND_V16 */
	const unsigned char *p;
	uint32_t len;
	enum rec_type type;
	uint32_t id;
	const struct rec_meta *m;	/* run, seq, time_ns; NULL: none */
};

/* The source over a record, or over a view in one of the append modes. */
static ALWAYS_INLINE struct src src_of_rec(const struct exit_record *r)
{
	struct src s = { .mode = S_REC, .r = r, .type = r->type, .id = r->id,
			 .m = &r->meta };

	return s;
}

static ALWAYS_INLINE struct src src_of_view(const struct exit_view *v,
					    enum src_mode mode)
{
	struct src s = { .mode = mode, .v = v, .p = v->p, .len = v->len,
			 .type = v->type, .id = v->id, .m = v->meta };

	return s;
}

static ALWAYS_INLINE bool s_has(struct src s, enum rec_field f)
{
	if (s.mode == S_REC)
		return rec_has(s.r, f);
	if (s.mode == S_APPEND_V16 &&
	    ts_append_off(f) + REC_FIELD_SIZE(f) <= V16_LEN)
		return true;
	return ts_append_off(f) + REC_FIELD_SIZE(f) <= s.len;
}

static ALWAYS_INLINE uint64_t s_get(struct src s, enum rec_field f)
{
	const unsigned char *q;
	uint64_t x8;
	uint32_t x4;

	if (s.mode == S_REC)
		return rec_get(s.r, f);
	q = s.p + ts_append_off(f);
	switch (REC_FIELD_SIZE(f)) {
	case 1: return q[0];
	case 4: memcpy(&x4, q, 4); return x4;
	case 16: return rec_timespec_ns(q);
	default: memcpy(&x8, q, 8); return x8;
	}
}

static ALWAYS_INLINE enum rec_type s_type(struct src s)
{
	return s.type;
}

static ALWAYS_INLINE uint32_t s_id(struct src s)
{
	return s.id;
}

static ALWAYS_INLINE const char *s_comm(struct src s, size_t *len)
{
	size_t n = s.mode == S_REC ? s.r->comm_len : s.v->comm_len;

	/* The parser never gives more, but the writers' bound relies on it. */
	*len = n < TS_COMM_LEN ? n : TS_COMM_LEN;
	return s.mode == S_REC ? s.r->comm : s.v->comm;
}

/* A pid record's thread group: ac_tgid, or before version 12 the
 * message's (a view keeps it apart; a record has it as F_TGID). */
static ALWAYS_INLINE bool s_tgid(struct src s, uint64_t *v)
{
	if (s_has(s, F_TGID)) {
		*v = s_get(s, F_TGID);
		return true;
	}
	if (s.mode == S_REC || !s.v->msg_tgid)
		return false;
	*v = s.v->tgid;
	return true;
}

/* The run's id (REC_RUN_HEX digits), or NULL when the record has none. */
static ALWAYS_INLINE const char *s_run(struct src s)
{
	return s.m && (s.m->has & REC_META_RUN) ? s.m->run : NULL;
}

static ALWAYS_INLINE uint16_t s_version(struct src s)
{
	return s.mode == S_REC ? s.r->version : s.v->version;
}

/* The value of a numeric column and the separator sep (none when 0), or
 * `absent` (separator included) when the kernel did not send the field. */
static ALWAYS_INLINE char *put_col(char *p, struct src s,
				   enum col_kind kind, enum rec_field f,
				   char sep, const char *absent,
				   size_t absent_len)
{
	uint64_t v;

	switch (kind) {
	case C_PID:
		if (s_type(s) == REC_PID)
			return put_u64_sep(p, s_id(s), sep);
		f = F_PID;
		break;
	case C_TGID:
		if (s_type(s) == REC_TGID)
			return put_u64_sep(p, s_id(s), sep);
		if (!s_tgid(s, &v))
			return put_mem(p, absent, absent_len);
		return put_u64_sep(p, v, sep);
	case C_BTIME:
		f = s_has(s, F_BTIME64) ? F_BTIME64 : F_BTIME;
		break;
	case C_VERSION:
		return put_u64_sep(p, s_version(s), sep);
	case C_SEQ:
		if (!s.m || !(s.m->has & REC_META_SEQ))
			return put_mem(p, absent, absent_len);
		return put_u64_sep(p, s.m->seq, sep);
	case C_TIME:
		if (!s.m || !(s.m->has & REC_META_TIME))
			return put_mem(p, absent, absent_len);
		return put_u64_sep(p, s.m->time_ns, sep);
	default:
		break;
	}
	if (!s_has(s, f))
		return put_mem(p, absent, absent_len);
	if (kind == C_NICE)
		return put_nice(p, s_get(s, f), sep);
	return put_u64_sep(p, s_get(s, f), sep);
}

/* A format's two entry writers, name_rec for a normalised record and
 * name_view for a kernel payload (one holding every version 16 field has
 * its own instantiation): all(p, src) writes every column, some(p, src,
 * cols) the chosen ones. */
#define FORMAT_ENTRY_WRITERS(name, all, some) \
static char *name##_rec(char *p, const struct exit_record *r, \
			const struct format_cols *cols) \
{ \
	return cols ? some(p, src_of_rec(r), cols) : all(p, src_of_rec(r)); \
} \
static char *name##_view(char *p, const struct exit_view *v, \
			 const struct format_cols *cols) \
{ \
	if (v->len >= V16_LEN) \
		return cols ? some(p, src_of_view(v, S_APPEND_V16), cols) \
			    : all(p, src_of_view(v, S_APPEND_V16)); \
	return cols ? some(p, src_of_view(v, S_APPEND), cols) \
		    : all(p, src_of_view(v, S_APPEND)); \
}

#endif
