// SPDX-License-Identifier: GPL-2.0-or-later
/* The one JSON writer (see json_out.h). */
#include "json_out.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char hex_digits[] = "0123456789abcdef";

/* What a byte becomes: 0 = itself, 'u' = \u00XX, else \ and that letter. */
static char escape_kind(unsigned char b, enum json_out_mode mode)
{
	static const char ctl[32] = {
		['\b'] = 'b', ['\f'] = 'f', ['\n'] = 'n', ['\r'] = 'r', ['\t'] = 't',
	};

	if (b < 0x20)
		return ctl[b] ? ctl[b] : 'u';
	if (b == '"' || b == '\\')
		return (char)b;
	if (mode == JSON_OUT_BYTES && b >= 0x7f)
		return 'u';
	return 0;
}

char *json_out_escape(char *p, const char *s, size_t n, enum json_out_mode mode)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i;

	*p++ = '"';
	for (i = 0; i < n; i++) {
		char k = escape_kind(u[i], mode);

		if (!k) {
			*p++ = (char)u[i];
		} else if (k == 'u') {
			memcpy(p, "\\u00", 4);
			p[4] = hex_digits[u[i] >> 4];
			p[5] = hex_digits[u[i] & 15];
			p += 6;
		} else {
			*p++ = '\\';
			*p++ = k;
		}
	}
	*p++ = '"';
	return p;
}

/* ---- documents ---------------------------------------------------------- */

void json_out_init(struct json_out *j, bool pretty)
{
	memset(j, 0, sizeof(*j));
	j->pretty = pretty;
}

/* Room for n more bytes and the NUL; false (and failed) when there is none. */
static bool reserve(struct json_out *j, size_t n)
{
	size_t cap = j->cap ? j->cap : 256;
	char *b;

	if (j->failed)
		return false;
	if (j->len + n + 1 <= j->cap)
		return true;
	while (cap < j->len + n + 1)
		cap *= 2;
	b = realloc(j->buf, cap);
	if (!b) {
		j->failed = true;
		return false;
	}
	j->buf = b;
	j->cap = cap;
	return true;
}

static void put(struct json_out *j, const char *s, size_t n)
{
	if (!reserve(j, n))
		return;
	memcpy(j->buf + j->len, s, n);
	j->len += n;
	j->buf[j->len] = '\0';
}

static void newline_indent(struct json_out *j, unsigned level)
{
	static const char spaces[] = "                                ";
	unsigned n = 2 * level;

	put(j, "\n", 1);
	for (; n > sizeof(spaces) - 1; n -= sizeof(spaces) - 1)
		put(j, spaces, sizeof(spaces) - 1);
	put(j, spaces, n);
}

/* Before a value or a key: the comma and, pretty, the line break. */
static void separate(struct json_out *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->depth == 0)
		return;
	if (j->has_items[j->depth])
		put(j, ",", 1);
	j->has_items[j->depth] = true;
	if (j->pretty)
		newline_indent(j, j->depth);
}

static void open_container(struct json_out *j, char c)
{
	separate(j);
	put(j, &c, 1);
	if (j->depth >= JSON_OUT_MAX_DEPTH) {
		j->failed = true;
		return;
	}
	j->has_items[++j->depth] = false;
}

/* json-c's pretty layout closes even an empty container on its own line. */
static void close_container(struct json_out *j, char c)
{
	if (j->depth == 0 || j->after_key) {
		j->failed = true;
		return;
	}
	j->depth--;
	if (j->pretty)
		newline_indent(j, j->depth);
	put(j, &c, 1);
}

void json_out_obj_begin(struct json_out *j) { open_container(j, '{'); }
void json_out_obj_end(struct json_out *j) { close_container(j, '}'); }
void json_out_arr_begin(struct json_out *j) { open_container(j, '['); }
void json_out_arr_end(struct json_out *j) { close_container(j, ']'); }

static void put_escaped(struct json_out *j, const char *s)
{
	size_t n = strlen(s);

	if (!reserve(j, JSON_OUT_ESCAPED_MAX(n)))
		return;
	j->len = (size_t)(json_out_escape(j->buf + j->len, s, n, JSON_OUT_TEXT) -
			  j->buf);
	j->buf[j->len] = '\0';
}

void json_out_key(struct json_out *j, const char *key)
{
	separate(j);
	put_escaped(j, key);
	put(j, j->pretty ? ": " : ":", j->pretty ? 2 : 1);
	j->after_key = true;
}

void json_out_str(struct json_out *j, const char *s)
{
	if (!s) {
		json_out_null(j);
		return;
	}
	separate(j);
	put_escaped(j, s);
}

static void put_number(struct json_out *j, const char *s, int n)
{
	separate(j);
	if (n > 0)
		put(j, s, (size_t)n);
	else
		j->failed = true;
}

void json_out_u64(struct json_out *j, uint64_t v)
{
	char s[24];

	put_number(j, s, snprintf(s, sizeof(s), "%" PRIu64, v));
}

void json_out_i64(struct json_out *j, int64_t v)
{
	char s[24];

	put_number(j, s, snprintf(s, sizeof(s), "%" PRId64, v));
}

void json_out_double(struct json_out *j, double v, int prec)
{
	char s[400];	/* "%.*f" of 1e308 */
	int n;

	if (!isfinite(v)) {
		json_out_null(j);
		return;
	}
	if (prec < 0)
		n = snprintf(s, sizeof(s), "%.9g", v);
	else
		n = snprintf(s, sizeof(s), "%.*f", prec > 17 ? 17 : prec, v);
	put_number(j, s, n < (int)sizeof(s) ? n : -1);
}

void json_out_bool(struct json_out *j, bool v)
{
	separate(j);
	put(j, v ? "true" : "false", v ? 4 : 5);
}

void json_out_null(struct json_out *j)
{
	separate(j);
	put(j, "null", 4);
}

char *json_out_finish(struct json_out *j, size_t *len)
{
	char *b = j->buf;

	if (j->failed || j->depth || j->after_key || !b) {
		free(b);
		b = NULL;
	} else if (len) {
		*len = j->len;
	}
	json_out_init(j, j->pretty);
	return b;
}
