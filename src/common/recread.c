/* CSV and JSON lines back into records (see recread.h).  Every value is
 * checked: digits only, no overflow, strings within their bounds; a row
 * that breaks a rule is refused whole (the caller counts it). */
#include "recread.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "columns.h"

/* width: a value column's bytes in struct taskstats (REC_FIELD_SIZE, which
 * record.c checks against the field table), so its range is the table's. */
#define COL_DESC(nm, kind, field, tw) \
	{ #nm, sizeof(#nm) - 1, kind, field, REC_FIELD_SIZE(field) },
static const struct {
	const char *name;
	unsigned char len;
	unsigned char kind;
	unsigned char field;
	unsigned char width;
} cols[] = { COLUMNS(COL_DESC) };
#define NCOLS (sizeof(cols) / sizeof(cols[0]))

/* JSON key positions not seen yet, and seen but unknown. */
#define MAP_UNSEEN (-3)
#define MAP_UNKNOWN (-1)

/* What a row said about the record's two ids before its type is known. */
struct ids {
	uint64_t pid, tgid;
	bool have_pid, have_tgid, have_type;
};

void recread_init(struct recread *rr)
{
	size_t i;

	memset(rr, 0, sizeof(*rr));
	for (i = 0; i < RECREAD_MAX_COLS; i++) {
		rr->map[i] = MAP_UNSEEN;
		rr->want[i] = true;
	}
}

static int find_col(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < NCOLS; i++)
		if (cols[i].len == n && memcmp(cols[i].name, s, n) == 0)
			return (int)i;
	return MAP_UNKNOWN;
}

void recread_want_fields(struct recread *rr, const enum rec_field *f, size_t n)
{
	size_t i, k;

	for (i = 0; i < NCOLS; i++) {
		enum rec_field fs[2];
		unsigned m = col_fields((enum col_kind)cols[i].kind, cols[i].field, fs);

		rr->want[i] = cols[i].kind != C_FIELD && cols[i].kind != C_NICE &&
			      cols[i].kind != C_BTIME;
		for (k = 0; k < n && !rr->want[i]; k++)
			rr->want[i] = m && (fs[0] == f[k] || (m > 1 && fs[1] == f[k]));
	}
}

static void note_unknown(struct recread *rr, const char *s, size_t n)
{
	if (rr->unknown++ == 0) {
		if (n >= sizeof(rr->first_unknown))
			n = sizeof(rr->first_unknown) - 1;
		memcpy(rr->first_unknown, s, n);
		rr->first_unknown[n] = '\0';
	}
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

static int set_comm(struct exit_record *r, const char *s, size_t n)
{
	if (n > TS_COMM_LEN || memchr(s, '\0', n))
		return -EBADMSG;
	memcpy(r->comm, s, n);
	r->comm[n] = '\0';
	r->comm_len = (uint8_t)n;
	return 0;
}

static int set_type(struct ids *ids, struct exit_record *r, const char *s, size_t n)
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
	unsigned width = cols[c].width;

	return width >= 8 ? UINT64_MAX : (1ull << (8 * width)) - 1;
}

/* A number (or absent) for column c; strings go through set_type/set_comm. */
static int set_number(unsigned c, const char *s, size_t n, struct ids *ids,
		      struct exit_record *r)
{
	uint64_t v;

	if (n == 0)
		return 0;	/* absent */
	if (cols[c].kind == C_NICE)
		return set_nice(r, s, n);
	if (parse_dec(s, n, &v) < 0)
		return -EBADMSG;
	switch (cols[c].kind) {
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
	case C_VERSION:
		if (v > UINT16_MAX)
			return -EBADMSG;
		r->version = r->layout = (uint16_t)v;
		return 0;
	case C_FIELD:
		if (v > field_max(c))
			return -EBADMSG;
		rec_set(r, (enum rec_field)cols[c].field, v);
		return 0;
	default: return -EBADMSG;
	}
}

/* Values too: a field the file lacks (exitmon -F wrote a subset) reads
 * as 0, never as the row before's or as stack garbage. */
static void begin(struct exit_record *r, struct ids *ids)
{
	memset(r, 0, sizeof(*r));
	memset(ids, 0, sizeof(*ids));
}

/* The ids land where format.c took them from, by record type. */
static int finish(struct exit_record *r, const struct ids *ids)
{
	if (!ids->have_type)
		return -EBADMSG;
	if (r->type == REC_PID) {
		if (!ids->have_pid)
			return -EBADMSG;
		r->id = (uint32_t)ids->pid;
		if (ids->have_tgid)
			rec_set(r, F_TGID, ids->tgid);
	} else {
		if (!ids->have_tgid)
			return -EBADMSG;
		r->id = (uint32_t)ids->tgid;
		if (ids->have_pid)
			rec_set(r, F_PID, ids->pid);
	}
	return 0;
}

/* ---- CSV ---------------------------------------------------------------------- */

size_t recread_csv_open_quote(const char *line, size_t len)
{
	size_t i, open = 0;

	for (i = 0; i < len; i++) {
		if (line[i] != '"')
			continue;
		if (!open) {
			/* A quoted field begins only where a field does. */
			if (i == 0 || line[i - 1] == ',')
				open = i + 1;
		} else if (i + 1 < len && line[i + 1] == '"') {
			i++;			/* "" inside it */
		} else if (i + 1 == len || line[i + 1] == ',' || line[i + 1] == '\r') {
			open = 0;		/* it ends */
		} else {
			return RECREAD_QUOTE_BAD;	/* a lone quote inside it */
		}
	}
	return open;
}

/* Whether column c is named twice (a renamed column must not silently
 * replace another's values): remembered in *dup for the note. */
static bool seen_twice(uint64_t *seen, int c, char *dup, size_t cap)
{
	uint64_t bit;

	if (c < 0)
		return false;
	bit = 1ull << (c % 64);
	if (!(seen[c / 64] & bit)) {
		seen[c / 64] |= bit;
		return false;
	}
	if (dup)
		snprintf(dup, cap, "%s", cols[c].name);
	return true;
}

/* Into a copy, committed only when whole: a refused header (a second
 * one inside a file) leaves the one in force as it was. */
int recread_csv_header(struct recread *rr, const char *line, size_t len)
{
	const char *p = line, *end = line + len;
	uint64_t seen[(NCOLS + 63) / 64] = { 0 };
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
		c = find_col(p, (size_t)(q - p));
		if (seen_twice(seen, c, rr->duplicate, sizeof(rr->duplicate)))
			return -EEXIST;
		t.map[i] = (short)c;
		if (c < 0)
			note_unknown(&t, p, (size_t)(q - p));
		type |= c >= 0 && cols[c].kind == C_TYPE;
		pid |= c >= 0 && cols[c].kind == C_PID;
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

unsigned recread_csv_missing(const struct recread *rr, char *names, size_t len)
{
	unsigned n = 0, k;
	size_t at = 0;

	names[0] = '\0';
	for (size_t i = 0; i < NCOLS; i++) {
		bool seen = false;

		if (!rr->want[i] || cols[i].kind != C_FIELD)
			continue;
		for (k = 0; k < rr->ncols && !seen; k++)
			seen = rr->map[k] == (int)i;
		if (seen)
			continue;
		if (at < len)
			at += (size_t)snprintf(names + at, len - at, "%s%s",
					       n ? ", " : "", cols[i].name);
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
		m = col_fields((enum col_kind)cols[c].kind, cols[c].field, fs);
		if ((m > 0 && fs[0] == f) || (m > 1 && fs[1] == f))
			return true;
	}
	return false;
}

bool recread_csv_has_comm(const struct recread *rr)
{
	unsigned i;

	for (i = 0; i < rr->ncols; i++)
		if (rr->map[i] >= 0 && cols[rr->map[i]].kind == C_COMM)
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
		     size_t n, struct ids *ids, struct exit_record *r)
{
	int c = rr->map[i];

	if (c < 0 || !rr->want[c])
		return 0;
	if (cols[c].kind == C_TYPE)
		return set_type(ids, r, s, n);
	if (cols[c].kind == C_COMM)
		return set_comm(r, s, n);
	return set_number((unsigned)c, s, n, ids, r);
}

int recread_csv(const struct recread *rr, const char *line, size_t len,
		struct exit_record *r)
{
	const char *p = line, *end = line + len;
	struct ids ids;
	unsigned i;

	begin(r, &ids);
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
	return finish(r, &ids);
}

/* ---- JSON lines ------------------------------------------------------------------ */

struct jcur {
	const char *p, *end;
};

static void skip_ws(struct jcur *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\r'))
		j->p++;
}

static int hex4(const char *s, unsigned *out)
{
	unsigned v = 0, i;

	for (i = 0; i < 4; i++) {
		char ch = s[i];
		unsigned d = ch >= '0' && ch <= '9' ? (unsigned)(ch - '0') :
			     ch >= 'a' && ch <= 'f' ? (unsigned)(ch - 'a' + 10) :
			     ch >= 'A' && ch <= 'F' ? (unsigned)(ch - 'A' + 10) : 16;
		if (d > 15)
			return -EBADMSG;
		v = v * 16 + d;
	}
	*out = v;
	return 0;
}

/* One escape after the backslash: its byte.  exitmon writes \u00XX for
 * byte XX; anything above U+00FF did not come from it. */
static int json_escape(struct jcur *j, char *b)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *e;
	unsigned v;

	if (j->p >= j->end)
		return -EBADMSG;
	if (*j->p == 'u') {
		if (j->end - j->p < 5 || hex4(j->p + 1, &v) < 0 || v > 0xff)
			return -EBADMSG;
		*b = (char)v;
		j->p += 5;
		return 0;
	}
	e = memchr(from, *j->p, sizeof(from) - 1);
	if (!e)
		return -EBADMSG;
	*b = to[e - from];
	j->p++;
	return 0;
}

/* A string at j->p (after its opening quote): its length in *n, its first
 * cap bytes into buf (a longer one is the caller's to refuse or skip). */
static int json_string(struct jcur *j, char *buf, size_t cap, size_t *n)
{
	size_t k = 0;

	while (j->p < j->end && *j->p != '"') {
		char b = *j->p++;

		if (b == '\\' && json_escape(j, &b) < 0)
			return -EBADMSG;
		if (k < cap)
			buf[k] = b;
		k++;
	}
	if (j->p == j->end)
		return -EBADMSG;
	j->p++;
	*n = k;
	return 0;
}

static bool is_scalar_char(char ch)
{
	return ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'z') ||
	       (ch >= '0' && ch <= '9') || ch == '-' || ch == '+' || ch == '.';
}

#define JSON_MAX_DEPTH 32

/* Past one well-formed value of any kind (an unknown key's: a newer
 * exitmon may add arrays or objects), keeping none of it. */
static int json_skip(struct jcur *j, unsigned depth)
{
	char close;
	size_t n;

	skip_ws(j);
	if (j->p >= j->end)
		return -EBADMSG;
	if (*j->p == '"') {
		j->p++;
		return json_string(j, NULL, 0, &n);
	}
	if (*j->p != '[' && *j->p != '{') {
		const char *s = j->p;

		while (j->p < j->end && is_scalar_char(*j->p))
			j->p++;
		return j->p > s ? 0 : -EBADMSG;
	}
	if (depth == JSON_MAX_DEPTH)
		return -EBADMSG;
	close = *j->p++ == '[' ? ']' : '}';
	skip_ws(j);
	if (j->p < j->end && *j->p == close) {
		j->p++;
		return 0;
	}
	for (;;) {
		if (close == '}') {
			skip_ws(j);
			if (j->p >= j->end || *j->p++ != '"' ||
			    json_string(j, NULL, 0, &n) < 0)
				return -EBADMSG;
			skip_ws(j);
			if (j->p >= j->end || *j->p++ != ':')
				return -EBADMSG;
		}
		if (json_skip(j, depth + 1) < 0)
			return -EBADMSG;
		skip_ws(j);
		if (j->p >= j->end)
			return -EBADMSG;
		if (*j->p == close) {
			j->p++;
			return 0;
		}
		if (*j->p++ != ',')
			return -EBADMSG;
	}
}

/* Which column key number k names: the file's last answer when it still
 * fits (every line of a file has the same keys), else a lookup. */
static int json_col(struct recread *rr, unsigned k, const char *s, size_t n)
{
	int c = k < RECREAD_MAX_COLS ? rr->map[k] : MAP_UNSEEN;

	if (c >= 0 && cols[c].len == n && memcmp(cols[c].name, s, n) == 0)
		return c;
	c = find_col(s, n);
	if (c < 0 && (k >= RECREAD_MAX_COLS || rr->map[k] != MAP_UNKNOWN))
		note_unknown(rr, s, n);
	if (k < RECREAD_MAX_COLS)
		rr->map[k] = (short)c;
	return c;
}

/* The value of a known key (c), or of one not decoded (c < 0): a string
 * or a scalar (number, null, true, false). */
static int json_value(struct jcur *j, int c, struct ids *ids,
		      struct exit_record *r)
{
	char buf[TS_COMM_LEN * 2];
	const char *s = j->p;
	size_t n;

	if (j->p < j->end && *j->p == '"') {
		j->p++;
		if (json_string(j, buf, sizeof(buf), &n) < 0)
			return -EBADMSG;
		if (c < 0)
			return 0;
		if (cols[c].kind == C_TYPE)
			return set_type(ids, r, buf, n);
		return cols[c].kind == C_COMM ? set_comm(r, buf, n) : -EBADMSG;
	}
	while (j->p < j->end && is_scalar_char(*j->p))
		j->p++;
	n = (size_t)(j->p - s);
	if (n == 0)
		return -EBADMSG;
	if (c < 0 || (n == 4 && memcmp(s, "null", 4) == 0))
		return 0;
	if (cols[c].kind == C_TYPE || cols[c].kind == C_COMM)
		return -EBADMSG;
	return set_number((unsigned)c, s, n, ids, r);
}

static int json_member(struct recread *rr, struct jcur *j, unsigned k,
		       uint64_t *seen, struct ids *ids, struct exit_record *r)
{
	char key[64];
	size_t n;
	int c;

	skip_ws(j);
	if (j->p >= j->end || *j->p++ != '"' ||
	    json_string(j, key, sizeof(key), &n) < 0)
		return -EBADMSG;
	skip_ws(j);
	if (j->p >= j->end || *j->p++ != ':')
		return -EBADMSG;
	skip_ws(j);
	/* A key longer than the buffer is longer than any of ours. */
	c = json_col(rr, k, key, n < sizeof(key) ? n : sizeof(key));
	if (c < 0) {
		if (json_skip(j, 0) < 0)
			return -EBADMSG;
		skip_ws(j);
		return 0;
	}
	if (seen_twice(seen, c, NULL, 0))
		return -EBADMSG;	/* which one would be meant? */
	if (!rr->want[c] && j->p < j->end && *j->p != '"')
		c = -1;			/* skipped: parse as a value, keep none */
	if (json_value(j, c, ids, r) < 0)
		return -EBADMSG;
	skip_ws(j);
	return 0;
}

int recread_json(struct recread *rr, const char *line, size_t len,
		 struct exit_record *r)
{
	struct jcur j = { line, line + len };
	uint64_t seen[(NCOLS + 63) / 64] = { 0 };
	struct ids ids;
	unsigned k;

	begin(r, &ids);
	skip_ws(&j);
	if (j.p >= j.end || *j.p++ != '{')
		return -EBADMSG;
	for (k = 0;; k++) {
		if (json_member(rr, &j, k, seen, &ids, r) < 0 || j.p >= j.end)
			return -EBADMSG;
		if (*j.p == '}')
			break;
		if (*j.p++ != ',')
			return -EBADMSG;
	}
	j.p++;
	skip_ws(&j);
	if (j.p != j.end)
		return -EBADMSG;
	return finish(r, &ids);
}
