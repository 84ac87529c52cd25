// SPDX-License-Identifier: GPL-2.0-or-later
/* JSON lines back into records (see recread.h): one object a line, its
 * keys naming the columns; an unknown key's value is skipped whole. */
#include "recread.h"
#include "recread_cols.h"

#include <errno.h>
#include <string.h>

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

	if (c >= 0 && recread_cols_table[c].len == n &&
	    memcmp(recread_cols_table[c].name, s, n) == 0)
		return c;
	c = recread_cols_find(s, n);
	if (c < 0 && (k >= RECREAD_MAX_COLS || rr->map[k] != MAP_UNKNOWN))
		recread_note_unknown(rr, s, n);
	if (k < RECREAD_MAX_COLS)
		rr->map[k] = (short)c;
	return c;
}

/* The value of a known key (c), or of one not decoded (c < 0): a string
 * or a scalar (number, null, true, false). */
static int json_value(struct jcur *j, int c, struct recread_ids *ids,
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
		if (recread_cols_table[c].kind == C_TYPE)
			return recread_cols_set_type(ids, r, buf, n);
		if (recread_cols_table[c].kind == C_COMM)
			return recread_cols_set_comm(r, buf, n);
		if (recread_cols_table[c].kind == C_RUN && n)
			return recread_cols_set_run(r, buf, n);
		return -EBADMSG;
	}
	while (j->p < j->end && is_scalar_char(*j->p))
		j->p++;
	n = (size_t)(j->p - s);
	if (n == 0)
		return -EBADMSG;
	if (c < 0)
		return 0;
	if (n == 4 && memcmp(s, "null", 4) == 0)	/* absent */
		return recread_cols_set_number((unsigned)c, s, 0, ids, r);
	if (recread_cols_table[c].kind == C_TYPE || recread_cols_table[c].kind == C_COMM ||
	    recread_cols_table[c].kind == C_RUN)
		return -EBADMSG;
	return recread_cols_set_number((unsigned)c, s, n, ids, r);
}

static int json_member(struct recread *rr, struct jcur *j, unsigned k,
		       uint64_t *seen, struct recread_ids *ids,
		       struct exit_record *r)
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
	if (recread_cols_seen_twice(seen, c, NULL, 0))
		return -EBADMSG;	/* which one would be meant? */
	if (!rr->want[c])
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
	uint64_t seen[(RECREAD_NCOLS + 63) / 64] = { 0 };
	struct recread_ids ids;
	unsigned k;

	recread_cols_begin(r, &ids);
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
	return recread_cols_finish(r, &ids);
}
