// SPDX-License-Identifier: GPL-2.0-or-later
/* What both wire formats' readers share (recread_csv.c, recread_json.c):
 * the column table, our column by name, and the values into the record.
 * Every value is checked: digits only, no overflow, strings within their
 * bounds; a row that breaks a rule is refused whole (the caller counts it). */
#include "recread_cols.h"

#include <errno.h>
#include <string.h>

/* width: a value column's bytes in struct taskstats (REC_FIELD_SIZE, which
 * record.c checks against the field table), so its range is the table's. */
#define COL_DESC(nm, kind, field, tw) \
	{ #nm, sizeof(#nm) - 1, kind, field, REC_FIELD_SIZE(field) },
const struct recread_col recread_cols_table[RECREAD_NCOLS] = { COLUMNS(COL_DESC) };

int recread_cols_find(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < RECREAD_NCOLS; i++)
		if (recread_cols_table[i].len == n &&
		    memcmp(recread_cols_table[i].name, s, n) == 0)
			return (int)i;
	return MAP_UNKNOWN;
}

/* ---- values ---------------------------------------------------------------- */

static int parse_dec(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (n == 0 || n > 20)
		return -EBADMSG;
	for (i = 0; i < n; i++) {
		unsigned d = (unsigned char)s[i] - '0';

		if (d > 9 || (v > UINT64_MAX / 10) || v * 10 > UINT64_MAX - d)
			return -EBADMSG;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

int recread_cols_set_comm(struct exit_record *r, const char *s, size_t n)
{
	if (n > TS_COMM_LEN || memchr(s, '\0', n))
		return -EBADMSG;
	memcpy(r->comm, s, n);
	r->comm[n] = '\0';
	r->comm_len = (uint8_t)n;
	return 0;
}

/* A run id: REC_RUN_HEX lowercase hex digits, as exitmon writes it (empty:
 * absent, a file of a run that wrote none). */
int recread_cols_set_run(struct exit_record *r, const char *s, size_t n)
{
	size_t i;

	if (n == 0)
		return 0;
	if (n != REC_RUN_HEX)
		return -EBADMSG;
	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return -EBADMSG;
	memcpy(r->meta.run, s, REC_RUN_HEX);
	r->meta.has |= REC_META_RUN;
	return 0;
}

int recread_cols_set_type(struct recread_ids *ids, struct exit_record *r,
		     const char *s, size_t n)
{
	if (n == 3 && memcmp(s, "pid", 3) == 0)
		r->type = REC_PID;
	else if (n == 4 && memcmp(s, "tgid", 4) == 0)
		r->type = REC_TGID;
	else
		return -EBADMSG;
	ids->have_type = true;
	return 0;
}

static int set_nice(struct exit_record *r, const char *s, size_t n)
{
	bool neg = n > 0 && s[0] == '-';
	uint64_t v;

	if (parse_dec(s + neg, n - neg, &v) < 0 || v > (neg ? 128u : 127u))
		return -EBADMSG;
	rec_set(r, F_NICE, (uint8_t)(neg ? -(int)v : (int)v));
	return 0;
}

/* The widest value column c's field has in struct taskstats: a bigger
 * number was not written by exitmon (a uid of 2^32 must not become root).
 * The v17 timestamps are read back as the 64-bit nanoseconds written. */
static uint64_t field_max(unsigned c)
{
	unsigned width = recread_cols_table[c].width;

	return width >= 8 ? UINT64_MAX : (1ull << (8 * width)) - 1;
}

/* A number (or absent) for column c; strings go through set_type/set_comm. */
int recread_cols_set_number(unsigned c, const char *s, size_t n,
		       struct recread_ids *ids, struct exit_record *r)
{
	uint64_t v;

	if (recread_cols_table[c].kind == C_TGID)
		ids->tgid_column = true;
	if (n == 0)
		return 0;	/* absent */
	if (recread_cols_table[c].kind == C_NICE)
		return set_nice(r, s, n);
	if (parse_dec(s, n, &v) < 0)
		return -EBADMSG;
	switch (recread_cols_table[c].kind) {
	case C_PID:
		if (v > UINT32_MAX)
			return -EBADMSG;
		ids->pid = v, ids->have_pid = true;
		return 0;
	case C_TGID:
		if (v > UINT32_MAX)
			return -EBADMSG;
		ids->tgid = v, ids->have_tgid = true;
		return 0;
	case C_BTIME: rec_set(r, F_BTIME64, v); return 0;
	case C_SEQ:
		r->meta.seq = v;
		r->meta.has |= REC_META_SEQ;
		return 0;
	case C_TIME:
		r->meta.time_ns = v;
		r->meta.has |= REC_META_TIME;
		return 0;
	case C_VERSION:
		if (v > UINT16_MAX)
			return -EBADMSG;
		r->version = r->layout = (uint16_t)v;
		return 0;
	case C_FIELD:
		if (v > field_max(c))
			return -EBADMSG;
		rec_set(r, (enum rec_field)recread_cols_table[c].field, v);
		return 0;
	default: return -EBADMSG;
	}
}

/* Values too: a field the file lacks (exitmon -F wrote a subset) reads
 * as 0, never as the row before's or as stack garbage. */
void recread_cols_begin(struct exit_record *r, struct recread_ids *ids)
{
	memset(r, 0, sizeof(*r));
	memset(ids, 0, sizeof(*ids));
}

/* The ids land where format.c took them from, by record type. */
int recread_cols_finish(struct exit_record *r, const struct recread_ids *ids)
{
	/* No type, or a pid row without its pid: exitmon -F left them out,
	 * and the row cannot be told from others (-ENOKEY, said apart). */
	if (!ids->have_type)
		return -ENOKEY;
	if (r->type == REC_PID) {
		if (!ids->have_pid)
			return -ENOKEY;
		r->id = (uint32_t)ids->pid;
		if (ids->have_tgid)
			rec_set(r, F_TGID, ids->tgid);
	} else {
		/* exitmon -F without tgid writes tgid rows with no id: read
		 * as id 0; an empty tgid where the column is, is broken. */
		if (!ids->have_tgid && ids->tgid_column)
			return -EBADMSG;
		r->id = (uint32_t)ids->tgid;
		if (ids->have_pid)
			rec_set(r, F_PID, ids->pid);
	}
	return 0;
}
