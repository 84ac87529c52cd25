// SPDX-License-Identifier: GPL-2.0-or-later
/* CSV rows back into records (see recread.h): the header names the
 * columns, RFC 4180 quoting (a quoted field may span lines). */
#include "recread.h"
#include "recread_cols.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Into a copy, committed only when whole: a refused header (a second
 * one inside a file) leaves the one in force as it was. */
int recread_csv_header(struct recread *rr, const char *line, size_t len)
{
	const char *p = line, *end = line + len;
	uint64_t seen[(RECREAD_NCOLS + 63) / 64] = { 0 };
	bool type = false, pid = false;
	struct recread t = *rr;
	unsigned i = 0;

	if (len && end[-1] == '\r')
		end--;
	t.unknown = 0;
	for (;;) {
		const char *q = memchr(p, ',', (size_t)(end - p));
		int c;

		if (!q)
			q = end;
		if (i >= RECREAD_MAX_COLS)
			return -E2BIG;
		c = recread_cols_find(p, (size_t)(q - p));
		if (recread_cols_seen_twice(seen, c, rr->duplicate,
				       sizeof(rr->duplicate)))
			return -EEXIST;
		t.map[i] = (short)c;
		if (c < 0)
			recread_note_unknown(&t, p, (size_t)(q - p));
		type |= c >= 0 && recread_cols_table[c].kind == C_TYPE;
		pid |= c >= 0 && recread_cols_table[c].kind == C_PID;
		i++;
		if (q == end)
			break;
		p = q + 1;
	}
	if (!type || !pid)
		return -EPROTO;
	t.ncols = i;
	t.unknown += rr->unknown;
	if (rr->unknown)
		memcpy(t.first_unknown, rr->first_unknown, sizeof(t.first_unknown));
	*rr = t;
	return 0;
}

bool recread_csv_damaged_first(const char *line, size_t len)
{
	size_t i;

	if (len && line[len - 1] == '\r')
		len--;
	if (len == 0 || line[len - 1] != ',')
		return false;
	for (i = 0; i < len; i++) {
		char c = line[i];

		if (!(c == ',' || c == '_' || (c >= 'a' && c <= 'z') ||
		      (c >= '0' && c <= '9')))
			return false;
	}
	return true;
}

unsigned recread_csv_missing(const struct recread *rr, char *names, size_t len)
{
	unsigned n = 0, k;
	size_t at = 0;

	names[0] = '\0';
	for (size_t i = 0; i < RECREAD_NCOLS; i++) {
		bool seen = false;

		if (!rr->want[i] || recread_cols_table[i].kind != C_FIELD)
			continue;
		for (k = 0; k < rr->ncols && !seen; k++)
			seen = rr->map[k] == (int)i;
		if (seen)
			continue;
		if (at < len)
			at += (size_t)snprintf(names + at, len - at, "%s%s",
					       n ? ", " : "",
					       recread_cols_table[i].name);
		n++;
	}
	return n;
}

bool recread_csv_has_field(const struct recread *rr, enum rec_field f)
{
	unsigned i;

	for (i = 0; i < rr->ncols; i++) {
		int c = rr->map[i];
		enum rec_field fs[2];
		unsigned m;

		if (c < 0)
			continue;
		m = col_fields((enum col_kind)recread_cols_table[c].kind,
			       recread_cols_table[c].field, fs);
		if ((m > 0 && fs[0] == f) || (m > 1 && fs[1] == f))
			return true;
	}
	return false;
}

bool recread_csv_has_comm(const struct recread *rr)
{
	unsigned i;

	for (i = 0; i < rr->ncols; i++)
		if (rr->map[i] >= 0 && recread_cols_table[rr->map[i]].kind == C_COMM)
			return true;
	return false;
}

/* A quoted CSV field at p: its unquoted bytes into buf (at most cap), the
 * position after the closing quote in *next. */
static int csv_unquote(const char *p, const char *end, char *buf, size_t cap,
		       size_t *n, const char **next)
{
	size_t k = 0;

	for (p++; p < end; p++) {
		if (*p == '"') {
			if (p + 1 < end && p[1] == '"')
				p++;
			else
				break;
		}
		if (k == cap)
			return -EBADMSG;
		buf[k++] = *p;
	}
	if (p == end || (p + 1 < end && p[1] != ','))
		return -EBADMSG;
	*n = k;
	*next = p + 1;
	return 0;
}

static int csv_value(const struct recread *rr, unsigned i, const char *s,
		     size_t n, struct recread_ids *ids, struct exit_record *r)
{
	int c = rr->map[i];

	if (c < 0 || !rr->want[c])
		return 0;
	if (recread_cols_table[c].kind == C_TYPE)
		return recread_cols_set_type(ids, r, s, n);
	if (recread_cols_table[c].kind == C_COMM)
		return recread_cols_set_comm(r, s, n);
	if (recread_cols_table[c].kind == C_RUN)
		return recread_cols_set_run(r, s, n);
	return recread_cols_set_number((unsigned)c, s, n, ids, r);
}

int recread_csv(const struct recread *rr, const char *line, size_t len,
		struct exit_record *r)
{
	const char *p = line, *end = line + len;
	struct recread_ids ids;
	unsigned i;

	recread_cols_begin(r, &ids);
	if (len && end[-1] == '\r')
		end--;
	for (i = 0;; i++) {
		char buf[TS_COMM_LEN * 2];
		const char *s = p, *q;
		size_t n;

		if (i >= rr->ncols)
			return -EBADMSG;
		if (p < end && *p == '"') {
			if (csv_unquote(p, end, buf, sizeof(buf), &n, &q) < 0)
				return -EBADMSG;
			s = buf;
		} else {
			/* Fields are short (most are one digit): a plain loop
			 * beats a memchr call per field. */
			for (q = p; q < end && *q != ','; q++)
				;
			n = (size_t)(q - p);
		}
		if (csv_value(rr, i, s, n, &ids, r) < 0)
			return -EBADMSG;
		if (q == end)
			break;
		p = q + 1;
	}
	if (i + 1 != rr->ncols)
		return -EBADMSG;
	return recread_cols_finish(r, &ids);
}
