// SPDX-License-Identifier: GPL-2.0-or-later
/* CSV (RFC 4180): the header row and the records, every column or a
 * choice of them.
 *
 * comm is written as its raw bytes; the field is quoted when it holds a
 * comma, quote, CR or LF or starts or ends with a space or tab, and
 * embedded quotes are doubled.  Bytes that are not UTF-8 are left as they
 * are (a reader that wants the bytes opens the file as latin-1 or with
 * errors="surrogateescape").  Absent fields are empty.  Lines end in LF,
 * not CRLF: every common CSV reader takes both.  Read back by
 * recread_csv.c. */
#include "format_wire.h"
#include "format_put.h"
#include "format_src.h"
#include "format_runs.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static bool csv_needs_quotes(const unsigned char *s, size_t n)
{
	size_t i;

	if (n == 0)
		return false;
	if (s[0] == ' ' || s[0] == '\t' || s[n - 1] == ' ' || s[n - 1] == '\t')
		return true;
	for (i = 0; i < n; i++)
		if (s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n')
			return true;
	return false;
}

static char *csv_comm(char *p, const char *comm, size_t n)
{
	const unsigned char *s = (const unsigned char *)comm;
	size_t i;

	if (!csv_needs_quotes(s, n))
		return put_mem(p, comm, n);
	*p++ = '"';
	for (i = 0; i < n; i++) {
		if (s[i] == '"')
			*p++ = '"';
		*p++ = (char)s[i];
	}
	*p++ = '"';
	return p;
}

/* The column names (cols NULL: every column), newline included. */
static char *csv_header(char *p, const struct format_cols *cols)
{
	unsigned i, n = cols ? cols->n : NCOLS;

	for (i = 0; i < n; i++) {
		const struct column *c = &format_cols_table[cols ? cols->col[i] : i];

		if (i)
			*p++ = ',';
		p = put_mem(p, c->name, c->name_len);
	}
	*p++ = '\n';
	return p;
}

static ALWAYS_INLINE char *csv_col(char *p, struct src s,
				   enum col_kind kind, enum rec_field f)
{
	size_t n;
	const char *comm;
	char *plain;

	if (kind == C_TYPE)
		return s_type(s) == REC_TGID ? put_lit(p, "tgid,")
					     : put_lit(p, "pid,");
	if (kind == C_COMM) {
		comm = s_comm(s, &n);
		plain = n && (comm[0] == ' ' || comm[n - 1] == ' ') ? NULL
				: put_comm_plain(p, comm, n);
		p = plain ? plain : csv_comm(p, comm, n);
		*p++ = ',';
		return p;
	}
	if (kind == C_RUN) {
		comm = s_run(s);
		if (comm)
			p = put_mem(p, comm, REC_RUN_HEX);
		*p++ = ',';
		return p;
	}
	return put_col(p, s, kind, f, ',', ",", 1);
}

/* CSV column c, or a run of zeros from it (format_runs.h). */
static ALWAYS_INLINE char *csv_col_run(char *p, struct src s, unsigned c,
				       enum col_kind kind, enum rec_field f,
				       unsigned *inside)
{
	switch (zero_run(s, c, inside)) {
	case RUN_INSIDE:
		return p;
	case RUN_4:
		return put_lit(p, "0,0,0,0,");
	case RUN_2:
		return put_lit(p, "0,0,");
	}
	return csv_col(p, s, kind, f);
}

static ALWAYS_INLINE char *csv_record(char *p, struct src s)
{
	unsigned inside = 0;

#define CSV_COL(nm, kind, field, tw) \
	p = csv_col_run(p, s, COL_##nm, kind, (enum rec_field)(field), &inside);
	COLUMNS(CSV_COL)
#undef CSV_COL
	p[-1] = '\n';
	return p;
}

/* One column by its index: a jump to that column's straight-line code. */
static ALWAYS_INLINE char *csv_one(char *p, struct src s, unsigned col)
{
	switch (col) {
#define CSV_ONE(nm, kind, field, tw) \
	case COL_##nm: return csv_col(p, s, kind, (enum rec_field)(field));
	COLUMNS(CSV_ONE)
#undef CSV_ONE
	}
	return p;
}

/* The chosen columns: each turn of the loop is a jump to the column's
 * code. */
static ALWAYS_INLINE char *csv_cols(char *p, struct src s,
				    const struct format_cols *cols)
{
	const uint8_t *col = cols->col, *end = col + cols->n;

	while (col < end)
		p = csv_one(p, s, *col++);
	p[-1] = '\n';
	return p;
}

FORMAT_ENTRY_WRITERS(csv, csv_record, csv_cols)

const struct format_wire format_csv = {
	.header = csv_header,
	.record = csv_rec,
	.view = csv_view,
	.comm = csv_comm,
};
