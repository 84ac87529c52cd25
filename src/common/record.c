// SPDX-License-Identifier: GPL-2.0-or-later
/* Versioned parse of taskstats exit messages: checked once into views of
 * the kernel's bytes (struct exit_view, the collector's), or into struct
 * exit_record (the readers').  The layouts are in tsabi.h; we pick one by
 * the version, and read a field only when the attribute holds all of it. */
#include "record.h"
#include "tsabi.h"
#include "tsnl.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/random.h>

#define NONE REC_OFF_NONE
struct field_desc {
	const char *name;
	uint16_t off;		/* append-only layout */
	uint16_t off_v15;
	uint16_t off_v1;
	uint8_t size;
};

#define SZ(m) (uint8_t)sizeof(((struct ts_abi *)0)->m)
#define FD(id, m, nm) [id] = { nm, offsetof(struct ts_abi, m), \
	offsetof(struct ts_abi_v15, m), NONE, SZ(m) }
#define FD_NO15(id, m, nm) [id] = { nm, offsetof(struct ts_abi, m), NONE, \
	NONE, SZ(m) }
#define FD_V1(id, m, nm) [id] = { nm, offsetof(struct ts_abi, m), \
	offsetof(struct ts_abi_v15, m), offsetof(struct ts_abi_v1, m), SZ(m) }

#define FIELD_DESC(how, id, m, nm) how(id, m, nm),
static const struct field_desc fields[F__COUNT] = { TS_FIELDS(FIELD_DESC) };

/* Size of each struct version.  Versions 5, 6 and 8 changed no layout. */
static const uint16_t version_size[TS_KNOWN_VERSION + 1] = {
	[1] = 72, [2] = 248, [3] = 272, [4] = 288, [5] = 288, [6] = 312,
	[7] = 328, [8] = 328, [9] = 344, [10] = 352, [11] = 368, [12] = 400,
	[13] = 416, [14] = 432, [15] = 560, [16] = 560, [17] = 688,
};

#define FIELD_SIZE_OK(how, id, m, nm) \
	_Static_assert(SZ(m) == REC_FIELD_SIZE(id), #m " size");
TS_FIELDS(FIELD_SIZE_OK)

/* Clocks differ a little between the delay and elapsed figures. */
#define DELAY_SLACK_NS 10000000ull

#define ALWAYS_INLINE inline __attribute__((always_inline))

/* One test for both kinds of record: a record (the readers'), or a view
 * read through its layout's table or at the append-only layout's constant
 * offsets (the collector's); `mode` is a constant at each caller. */
enum { M_REC, M_TABLE, M_APPEND };

static ALWAYS_INLINE bool any_has(const void *s, int mode, enum rec_field f)
{
	const struct exit_view *v = s;

	if (mode == M_REC)
		return rec_has(s, f);
	return (mode == M_APPEND ? ts_append_off(f) : v->off[f]) +
	       REC_FIELD_SIZE(f) <= v->len;
}

static ALWAYS_INLINE uint64_t any_get(const void *s, int mode,
				      enum rec_field f)
{
	const struct exit_view *v = s;
	const unsigned char *q;
	uint64_t x;

	if (mode == M_REC)
		return rec_get(s, f);
	q = v->p + (mode == M_APPEND ? ts_append_off(f) : v->off[f]);
	if (REC_FIELD_SIZE(f) == 16)
		return rec_timespec_ns(q);
	if (REC_FIELD_SIZE(f) == 8) {
		memcpy(&x, q, 8);
		return x;
	}
	return view_get(v, f);
}

static ALWAYS_INLINE bool implausible(const void *s, int mode,
				      enum rec_type type)
{
	uint64_t lifetime_ns;

	/* A tgid record sums its threads' waits: they may exceed its age;
	 * its timestamps are its threads' too. */
	if (type != REC_PID)
		return false;
#define TS_BAD(f) (any_has(s, mode, f) && any_get(s, mode, f) == REC_TS_INVALID)
	if (TS_BAD(F_CPU_DELAY_MAX_TS) || TS_BAD(F_BLKIO_DELAY_MAX_TS) ||
	    TS_BAD(F_SWAPIN_DELAY_MAX_TS) || TS_BAD(F_FREEPAGES_DELAY_MAX_TS) ||
	    TS_BAD(F_THRASHING_DELAY_MAX_TS) || TS_BAD(F_COMPACT_DELAY_MAX_TS) ||
	    TS_BAD(F_WPCOPY_DELAY_MAX_TS) || TS_BAD(F_IRQ_DELAY_MAX_TS))
		return true;
#undef TS_BAD
	if (!any_has(s, mode, F_ETIME))
		return false;
	lifetime_ns = any_get(s, mode, F_ETIME) * 1000 + DELAY_SLACK_NS;
#define TOO_LONG(f) (any_has(s, mode, f) && any_get(s, mode, f) > lifetime_ns)
	return TOO_LONG(F_CPU_DELAY_TOTAL) || TOO_LONG(F_BLKIO_DELAY_TOTAL) ||
	       TOO_LONG(F_SWAPIN_DELAY_TOTAL) || TOO_LONG(F_FREEPAGES_DELAY_TOTAL) ||
	       TOO_LONG(F_THRASHING_DELAY_TOTAL) || TOO_LONG(F_COMPACT_DELAY_TOTAL) ||
	       TOO_LONG(F_WPCOPY_DELAY_TOTAL) || TOO_LONG(F_IRQ_DELAY_TOTAL);
#undef TOO_LONG
}

bool record_implausible(const struct exit_record *r)
{
	return implausible(r, M_REC, r->type);
}

bool record_view_implausible(const struct exit_view *v)
{
	if (record_view_append(v))
		return implausible(v, M_APPEND, v->type);
	return implausible(v, M_TABLE, v->type);
}

const char *record_field_name(enum rec_field f)
{
	return (unsigned)f < F__COUNT ? fields[f].name : NULL;
}

size_t record_struct_size(unsigned version)
{
	return version <= TS_KNOWN_VERSION ? version_size[version] : 0;
}

static bool unknown_fields(unsigned layout, uint32_t stats_len)
{
	/* Layout 0 (a pid record saying version 0) was read as the newest. */
	if (!layout)
		layout = TS_KNOWN_VERSION;
	return layout > TS_KNOWN_VERSION || stats_len > version_size[layout];
}

bool record_has_unknown_fields(const struct exit_record *r)
{
	return unknown_fields(r->layout, r->stats_len);
}

bool record_view_unknown_fields(const struct exit_view *v)
{
	return unknown_fields(v->layout, v->stats_len);
}

static uint16_t field_offset(const struct field_desc *d, unsigned layout)
{
	if (layout == 1)
		return d->off_v1;
	if (layout == 15)
		return d->off_v15;
	return d->off;
}

/* Each layout's offset of every field (REC_OFF_NONE where it has none):
 * what a view reads through. */
enum { L_APPEND, L_V15, L_V1, L__COUNT };
static uint16_t layout_offsets[L__COUNT][F__COUNT];

/* Built before main(), so receive threads only ever read the tables. */
__attribute__((constructor)) static void build_layouts(void)
{
	static const unsigned version[L__COUNT] = {
		[L_APPEND] = TS_KNOWN_VERSION, [L_V15] = 15, [L_V1] = 1,
	};
	unsigned l, i;

	for (l = 0; l < L__COUNT; l++)
		for (i = 0; i < F__COUNT; i++)
			layout_offsets[l][i] = field_offset(&fields[i], version[l]);
}

bool record_view_append(const struct exit_view *v)
{
	return v->off == layout_offsets[L_APPEND];
}

static const uint16_t *layout_offsets_of(unsigned layout)
{
	return layout_offsets[layout == 1 ? L_V1 : layout == 15 ? L_V15 : L_APPEND];
}

/* comm's bytes before the first NUL, when the payload holds all of comm. */
static void view_comm(struct exit_view *v)
{
	/* v15 inserted 48 bytes of peaks before comm; v1 had none. */
	size_t off = v->layout == 15 ? offsetof(struct ts_abi_v15, comm)
				     : offsetof(struct ts_abi, comm);
	const unsigned char *nul;

	v->comm = (const char *)v->p + off;
	v->comm_len = 0;
	if (v->layout == 1 || v->len < off + TS_COMM_LEN)
		return;
	nul = memchr(v->comm, '\0', TS_COMM_LEN);
	v->comm_len = (uint8_t)(nul ? nul - (const unsigned char *)v->comm
				    : TS_COMM_LEN);
}

/* Check one TYPE_STATS payload and make v a view of it (type and id are
 * left alone).  layout_hint is used when the struct says version 0. */
static int view_stats(const unsigned char *p, size_t len, unsigned layout_hint,
		      struct exit_view *v)
{
	unsigned layout;
	uint16_t version;

	if (len < sizeof(uint16_t))
		return -EBADMSG;
	memcpy(&version, p, sizeof(version));
	layout = version ? version : layout_hint;
	/* A struct too short for its own version's header is not taskstats. */
	if (len < (layout == 1 ? sizeof(struct ts_abi_v1)
				: offsetof(struct ts_abi, comm)))
		return -EBADMSG;
	v->version = version;
	v->layout = (uint16_t)layout;
	v->stats_len = (uint32_t)len;
	v->p = p;
	v->off = layout_offsets_of(layout);
	/* Bytes past a known version's size mean nothing in that version,
	 * even where a later one put a field: record_view_unknown_fields()
	 * counts them, nothing reads them. */
	if (layout <= TS_KNOWN_VERSION && len > version_size[layout] &&
	    version_size[layout])
		len = version_size[layout];
	v->len = (uint32_t)len;
	view_comm(v);
	return 0;
}

void record_from_view(const struct exit_view *v, struct exit_record *r)
{
	unsigned i;

	memset(r, 0, sizeof(*r));
	r->type = v->type;
	r->id = v->id;
	r->version = v->version;
	r->layout = v->layout;
	r->stats_len = v->stats_len;
	r->comm_len = v->comm_len;
	memcpy(r->comm, v->comm, v->comm_len);
	for (i = 0; i < F__COUNT; i++)
		if (view_has(v, i))
			rec_set(r, i, view_get(v, i));
	/* Before v12 a pid record names no tgid; the message does. */
	if (v->msg_tgid && !rec_has(r, F_TGID))
		rec_set(r, F_TGID, v->tgid);
	if (v->meta)
		r->meta = *v->meta;
}

int record_parse_stats(const void *payload, size_t len, unsigned layout_hint,
		       struct exit_record *r)
{
	struct exit_view v = { .type = r->type, .id = r->id };
	int e = view_stats(payload, len, layout_hint, &v);

	if (e < 0)
		return e;
	record_from_view(&v, r);
	return 0;
}

/* Which attributes may appear where: the table is indexed by type up to
 * TASKSTATS_TYPE_NULL; newer types are skipped (later kernels may add
 * them), a known type in the wrong place is malformed.  record_walk_attrs
 * applies them by hand; the fuzz target checks it against nla_parse. */
static const struct nla_policy aggr_policy[TASKSTATS_TYPE_MAX + 1] = {
	[TASKSTATS_TYPE_PID] = { .type = NLA_U32, .minlen = 4, .maxlen = 4 },
	[TASKSTATS_TYPE_TGID] = { .type = NLA_U32, .minlen = 4, .maxlen = 4 },
	[TASKSTATS_TYPE_STATS] = { .type = NLA_UNSPEC },	/* checked by version */
};
static const struct nla_policy msg_policy[TASKSTATS_TYPE_MAX + 1] = {
	[TASKSTATS_TYPE_AGGR_PID] = { .type = NLA_NESTED },
	[TASKSTATS_TYPE_AGGR_TGID] = { .type = NLA_NESTED },
};
const struct nla_policy *const record_msg_policy = msg_policy;
const struct nla_policy *const record_aggr_policy = aggr_policy;

/* One level of attributes in p[0..len): each header whole and within
 * what is left, padding to 4 bytes except after the last, nothing left
 * over; types above TASKSTATS_TYPE_MAX skipped, TASKSTATS_TYPE_NULL
 * (padding) anywhere, every other type at most once and only if in
 * `allowed`.  found[t] is the attribute of type t.  The PID and TGID ids
 * must be 4 bytes (the policy's NLA_U32 with minlen = maxlen = 4). */
#define TYPE_BIT(t) (1u << (t))
static int walk_level(const unsigned char *p, size_t len, unsigned allowed,
		      const struct nlattr *found[TASKSTATS_TYPE_MAX + 1])
{
	unsigned seen = 0;

	memset(found, 0, sizeof(found[0]) * (TASKSTATS_TYPE_MAX + 1));
	while (len >= NLA_HDRLEN) {
		const struct nlattr *a = (const void *)p;
		uint16_t alen, type;
		size_t step;

		memcpy(&alen, &a->nla_len, sizeof(alen));
		memcpy(&type, &a->nla_type, sizeof(type));
		type &= NLA_TYPE_MASK;
		if (alen < NLA_HDRLEN || alen > len)
			return -EBADMSG;
		if (type <= TASKSTATS_TYPE_MAX && type != TASKSTATS_TYPE_NULL) {
			if (!(allowed & TYPE_BIT(type)) || (seen & TYPE_BIT(type)))
				return -EBADMSG;
			if ((type == TASKSTATS_TYPE_PID ||
			     type == TASKSTATS_TYPE_TGID) &&
			    alen != NLA_HDRLEN + 4)
				return -EBADMSG;
			seen |= TYPE_BIT(type);
			found[type] = a;
		}
		step = NLA_ALIGN(alen);
		if (step >= len)
			return 0;	/* the last one may lack padding */
		p += step;
		len -= step;
	}
	return len ? -EBADMSG : 0;
}

/* One AGGR_PID or AGGR_TGID nest: its id and its stats. */
static int walk_aggr(const struct nlattr *nest, int id_type,
		     struct rec_walk *w, unsigned i)
{
	const struct nlattr *tb[TASKSTATS_TYPE_MAX + 1];

	if (walk_level(tsnl_data(nest), tsnl_len(nest),
		       TYPE_BIT(id_type) | TYPE_BIT(TASKSTATS_TYPE_STATS), tb) < 0 ||
	    !tb[id_type] || !tb[TASKSTATS_TYPE_STATS])
		return -EBADMSG;
	w->id[i] = tsnl_u32(tb[id_type]);
	w->stats[i] = tsnl_data(tb[TASKSTATS_TYPE_STATS]);
	w->stats_len[i] = (uint32_t)tsnl_len(tb[TASKSTATS_TYPE_STATS]);
	return 0;
}

/* The shape of nearly every exit message: one AGGR_PID nest that is all
 * of the attributes, holding the PID and then the STATS, each exactly
 * filling what is left, no padding attribute and no flag bits.  For these
 * bytes the general walk below reaches the same answer by a longer way;
 * any other shape (a TGID nest, a padding attribute, flags, an unknown
 * type) returns false and takes that way.  The differential fuzz target
 * holds the pair to nla_parse. */
static bool walk_common(const unsigned char *p, size_t len, struct rec_walk *w)
{
	struct nlattr nest, id, stats;
	uint32_t pid;

	if (len < 3 * NLA_HDRLEN + sizeof(pid))
		return false;
	memcpy(&nest, p, NLA_HDRLEN);
	memcpy(&id, p + NLA_HDRLEN, NLA_HDRLEN);
	memcpy(&stats, p + 2 * NLA_HDRLEN + sizeof(pid), NLA_HDRLEN);
	if (nest.nla_len != len || nest.nla_type != TASKSTATS_TYPE_AGGR_PID ||
	    id.nla_len != NLA_HDRLEN + sizeof(pid) ||
	    id.nla_type != TASKSTATS_TYPE_PID ||
	    stats.nla_type != TASKSTATS_TYPE_STATS ||
	    stats.nla_len != len - 2 * NLA_HDRLEN - sizeof(pid))
		return false;
	memcpy(&pid, p + 2 * NLA_HDRLEN, sizeof(pid));
	w->n = 1;
	w->id[0] = pid;
	w->stats[0] = p + 3 * NLA_HDRLEN + sizeof(pid);
	w->stats_len[0] = (uint32_t)(len - 3 * NLA_HDRLEN - sizeof(pid));
	return true;
}

int record_walk_attrs(const void *attrs, size_t len, struct rec_walk *w)
{
	const struct nlattr *tb[TASKSTATS_TYPE_MAX + 1];
	const struct nlattr *pid, *tgid;

	if (walk_common(attrs, len, w))
		return 0;
	w->n = 0;
	if (walk_level(attrs, len, TYPE_BIT(TASKSTATS_TYPE_AGGR_PID) |
				   TYPE_BIT(TASKSTATS_TYPE_AGGR_TGID), tb) < 0)
		return -EBADMSG;
	pid = tb[TASKSTATS_TYPE_AGGR_PID];
	tgid = tb[TASKSTATS_TYPE_AGGR_TGID];
	/* Exactly: one AGGR_PID first, then at most one AGGR_TGID. */
	if (!pid || (tgid && tgid < pid) ||
	    walk_aggr(pid, TASKSTATS_TYPE_PID, w, 0) < 0)
		return -EBADMSG;
	w->n = 1;
	if (!tgid)
		return 0;
	if (walk_aggr(tgid, TASKSTATS_TYPE_TGID, w, 1) < 0)
		return -EPROTO;	/* the pid half stands on its own */
	w->n = 2;
	return 0;
}

static int view_attrs(const void *attrs, size_t len, struct exit_views *out)
{
	struct rec_walk w;
	struct exit_view *pid = &out->rec[0], *tgid = &out->rec[1];
	int r = record_walk_attrs(attrs, len, &w);

	out->n = 0;
	out->tgid_malformed = r == -EPROTO;
	if (r < 0 && r != -EPROTO)
		return -EBADMSG;
	pid->type = REC_PID;
	pid->id = w.id[0];
	pid->msg_tgid = false;
	pid->tgid = 0;
	pid->meta = NULL;
	tgid->meta = NULL;
	if (view_stats(w.stats[0], w.stats_len[0], 0, pid) < 0)
		return -EBADMSG;
	out->n = 1;
	if (w.n < 2)
		return 0;
	tgid->type = REC_TGID;
	tgid->id = w.id[1];
	tgid->msg_tgid = false;
	tgid->tgid = 0;
	if (view_stats(w.stats[1], w.stats_len[1],
		       pid->version ? pid->version : TS_KNOWN_VERSION, tgid) < 0) {
		out->tgid_malformed = true;	/* the pid record is kept */
		return 0;
	}
	out->n = 2;
	/* Before v12 a pid record names no tgid; the message does.  The tgid
	 * record itself is left as the kernel sent it (no comm, uid, gid,
	 * ppid): a reader that wants them joins on rec[0]. */
	pid->msg_tgid = true;
	pid->tgid = tgid->id;
	return 0;
}

int record_parse_attrs(const void *attrs, size_t len, struct exit_msg *out)
{
	struct exit_views v;
	unsigned i;

	out->n = 0;
	out->tgid_malformed = false;
	if (view_attrs(attrs, len, &v) < 0)
		return -EBADMSG;
	for (i = 0; i < v.n; i++)
		record_from_view(&v.rec[i], &out->rec[i]);
	out->n = v.n;
	out->tgid_malformed = v.tgid_malformed;
	return 0;
}

/* The attributes of a TASKSTATS_CMD_NEW message; -ENOMSG for another
 * command, or the header check's error. */
static int exit_attrs(const void *msg, size_t len, const struct nlattr **attrs,
		      size_t *attrs_len)
{
	uint8_t cmd;
	int r = tsnl_genl_msg(msg, len, &cmd, attrs, attrs_len);

	if (r < 0)
		return r;
	return cmd == TASKSTATS_CMD_NEW ? 0 : -ENOMSG;
}

int record_view_nlmsg(const void *msg, size_t len, struct exit_views *out)
{
	const struct nlattr *attrs;
	size_t attrs_len;
	int r = exit_attrs(msg, len, &attrs, &attrs_len);

	return r < 0 ? r : view_attrs(attrs, attrs_len, out);
}

int record_parse_nlmsg(const void *msg, size_t len, struct exit_msg *out)
{
	const struct nlattr *attrs;
	size_t attrs_len;
	int r = exit_attrs(msg, len, &attrs, &attrs_len);

	return r < 0 ? r : record_parse_attrs(attrs, attrs_len, out);
}

/* 16 bytes of getrandom(2) as the run's hex digits. */
int record_run_random(char out[REC_RUN_HEX])
{
	static const char hex[] = "0123456789abcdef";
	unsigned char b[REC_RUN_HEX / 2];
	size_t got = 0, i;

	while (got < sizeof(b)) {
		ssize_t n = getrandom(b + got, sizeof(b) - got, 0);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		got += (size_t)n;
	}
	for (i = 0; i < sizeof(b); i++) {
		out[2 * i] = hex[b[i] >> 4];
		out[2 * i + 1] = hex[b[i] & 15];
	}
	return 0;
}
