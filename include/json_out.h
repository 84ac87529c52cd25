/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one JSON writer: exitmon's JSON lines records, exitgen's --json
 * summary and exitsweep's result file go through these functions, so
 * escaping and number rules are the same everywhere (exitstat's JSON lines
 * rows are printed field by field, their comm escaped by format_comm).
 * (json-c is still used to read documents back.)
 *
 * Two levels:
 *   - json_out_escape: a string with its quotes, written at a pointer the
 *     caller has room at (at most JSON_OUT_ESCAPED_MAX(n) bytes), for the
 *     collector's hot path, which bounds whole lines at compile time;
 *   - struct json_out: a document in a growing buffer, with objects, arrays
 *     and commas handled, compact or laid out like json-c's pretty printer
 *     (two-space indent, "key": value).
 *
 * Strings (RFC 8259): \" \\ \b \f \n \r \t, \u00XX for the other control
 * bytes.  Bytes >= 0x80 depend on the mode:
 *   JSON_OUT_TEXT   passed as they are (text we or the system made: labels,
 *                   host names; UTF-8 in, UTF-8 out);
 *   JSON_OUT_BYTES  untrusted bytes (a task's comm): every byte >= 0x80 and
 *                   DEL becomes the code point of the same value (ISO-8859-1
 *                   mapping), valid UTF-8 or not, so a reader gets the exact
 *                   bytes back with s.encode("latin-1").  Mapping only the
 *                   invalid bytes would be ambiguous: raw "é" (C3 A9) and an
 *                   escaped lone byte E9 would read back the same. */
#ifndef COMMON_JSON_OUT_H
#define COMMON_JSON_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum json_out_mode { JSON_OUT_TEXT, JSON_OUT_BYTES };

/* Worst case of json_out_escape for n bytes: \u00XX each, two quotes. */
#define JSON_OUT_ESCAPED_MAX(n) (6 * (n) + 2)

/* s[0..n) as a JSON string, quotes included, at p; returns the end. */
char *json_out_escape(char *p, const char *s, size_t n, enum json_out_mode mode);

/* Containers nest at most this deep; deeper is an error (failed). */
#define JSON_OUT_MAX_DEPTH 16

struct json_out {
	char *buf;		/* NUL-terminated while not failed */
	size_t len, cap;
	bool pretty;
	bool failed;		/* out of memory, too deep, a close with nothing open
			 * or a key without its value: result is NULL (other
			 * misuse is the caller's to avoid) */
	bool after_key;		/* a key was written: its value comes next */
	unsigned depth;
	bool has_items[JSON_OUT_MAX_DEPTH + 1];
};

void json_out_init(struct json_out *j, bool pretty);
void json_out_obj_begin(struct json_out *j);
void json_out_obj_end(struct json_out *j);
void json_out_arr_begin(struct json_out *j);
void json_out_arr_end(struct json_out *j);
/* The key of the next value, inside an object. */
void json_out_key(struct json_out *j, const char *key);
/* Values.  A NULL string is null. */
void json_out_str(struct json_out *j, const char *s);
void json_out_u64(struct json_out *j, uint64_t v);
void json_out_i64(struct json_out *j, int64_t v);
/* prec >= 0: that many decimals ("%.*f"); JSON_OUT_SIG9: 9 significant
 * digits ("%.9g").  NaN and infinities are null (JSON has neither). */
#define JSON_OUT_SIG9 (-1)
void json_out_double(struct json_out *j, double v, int prec);
void json_out_bool(struct json_out *j, bool v);
void json_out_null(struct json_out *j);
/* The document (caller frees; *len without the NUL), or NULL when writing
 * failed.  The writer is reset either way. */
char *json_out_finish(struct json_out *j, size_t *len);

#endif
