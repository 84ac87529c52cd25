// SPDX-License-Identifier: GPL-2.0-or-later
/* JSON lines (RFC 8259): one object per record, every column or a choice
 * of them, keys in the column table's order; no header.
 *
 * comm is written with json_out (the project's one JSON writer): every
 * byte becomes the code point of the same value (ISO-8859-1 mapping,
 * JSON_OUT_BYTES): printable ASCII as itself, \" \\ \b \f \n \r \t, and
 * \u00XX for every other control byte, DEL and every byte >= 0x80, valid
 * UTF-8 or not.  A reader gets the bytes back with s.encode("latin-1").
 * Absent fields are null.  Numbers are plain unsigned decimals (beware:
 * above 2^53 in JavaScript).  Read back by recread_json.c. */
#include "format_wire.h"
#include "format_put.h"
#include "format_src.h"
#include "format_runs.h"
#include "json_out.h"

#include <stddef.h>
#include <stdint.h>

/* comm as JSON_OUT_BYTES: every byte survives (see json_out.h). */
static char *json_comm(char *p, const char *comm, size_t n)
{
	return json_out_escape(p, comm, n, JSON_OUT_BYTES);
}

static ALWAYS_INLINE char *json_col(char *p, struct src s,
				    enum col_kind kind, enum rec_field f)
{
	size_t n;
	const char *comm;
	char *plain;

	if (kind == C_TYPE)
		return s_type(s) == REC_TGID ? put_lit(p, "\"tgid\",")
					     : put_lit(p, "\"pid\",");
	if (kind == C_COMM) {
		comm = s_comm(s, &n);
		*p = '"';
		plain = put_comm_plain(p + 1, comm, n);
		if (plain) {
			*plain = '"';
			p = plain + 1;
		} else {
			p = json_comm(p, comm, n);
		}
		*p++ = ',';
		return p;
	}
	if (kind == C_RUN) {
		comm = s_run(s);
		if (!comm)
			return put_lit(p, "null,");
		*p++ = '"';
		p = put_mem(p, comm, REC_RUN_HEX);
		return put_lit(p, "\",");
	}
	return put_col(p, s, kind, f, ',', "null,", 5);
}

/* Each column's key, "name": (constant indexes fold to the literal). */
#define JSON_KEY(nm, kind, field, tw) "\"" #nm "\":",
static const char *const json_keys[] = { COLUMNS(JSON_KEY) };
#undef JSON_KEY
#define JSON_KEY_LEN(nm, kind, field, tw) sizeof("\"" #nm "\":") - 1,
static const uint8_t json_key_lens[] = { COLUMNS(JSON_KEY_LEN) };
#undef JSON_KEY_LEN

/* Column c's key and a 0. */
static ALWAYS_INLINE char *json_zero(char *p, unsigned c)
{
	p = put_mem(p, json_keys[c], json_key_lens[c]);
	return put_lit(p, "0,");
}

/* JSON column c with its key, or a run of zeros from it (format_runs.h). */
static ALWAYS_INLINE char *json_col_run(char *p, struct src s, unsigned c,
					enum col_kind kind, enum rec_field f,
					unsigned *inside)
{
	switch (zero_run(s, c, inside)) {
	case RUN_INSIDE:
		return p;
	case RUN_4:
		p = json_zero(json_zero(p, c), c + 1);
		return json_zero(json_zero(p, c + 2), c + 3);
	case RUN_2:
		return json_zero(json_zero(p, c), c + 1);
	}
	p = put_mem(p, json_keys[c], json_key_lens[c]);
	return json_col(p, s, kind, f);
}

static ALWAYS_INLINE char *json_record(char *p, struct src s)
{
	unsigned inside = 0;

	*p++ = '{';
#define JSON_COL(nm, kind, field, tw) \
	p = json_col_run(p, s, COL_##nm, kind, (enum rec_field)(field), &inside);
	COLUMNS(JSON_COL)
#undef JSON_COL
	p[-1] = '}';
	*p++ = '\n';
	return p;
}

/* One column by its index, with its key: a jump to that column's
 * straight-line code. */
static ALWAYS_INLINE char *json_one(char *p, struct src s, unsigned col)
{
	switch (col) {
#define JSON_ONE(nm, kind, field, tw) \
	case COL_##nm: \
		p = put_lit(p, "\"" #nm "\":"); \
		return json_col(p, s, kind, (enum rec_field)(field));
	COLUMNS(JSON_ONE)
#undef JSON_ONE
	}
	return p;
}

/* The chosen columns: each turn of the loop is a jump to the column's
 * code. */
static ALWAYS_INLINE char *json_cols(char *p, struct src s,
				     const struct format_cols *cols)
{
	const uint8_t *col = cols->col, *end = col + cols->n;

	*p++ = '{';
	while (col < end)
		p = json_one(p, s, *col++);
	p[-1] = '}';
	*p++ = '\n';
	return p;
}

/* JSON lines has no header. */
static char *json_header(char *p, const struct format_cols *cols)
{
	(void)cols;
	return p;
}

FORMAT_ENTRY_WRITERS(json, json_record, json_cols)

const struct format_wire format_json = {
	.header = json_header,
	.record = json_rec,
	.view = json_view,
	.comm = json_comm,
};
