// SPDX-License-Identifier: GPL-2.0-or-later
/* A result file read back for `exitsweep compare`: parsed with json-c,
 * the whole file one JSON value, and checked to be a result file (its
 * format key) before any figure is read (written: sweep_json.c). */
#include "sweep_json.h"

#include <ctype.h>
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep_file.h"

/* "line 3, column 7" of byte off in text. */
static void where(const char *text, size_t off, char *buf, size_t len)
{
	size_t line = 1, col = 1;

	for (size_t i = 0; i < off; i++, col++)
		if (text[i] == '\n')
			line++, col = 0;
	snprintf(buf, len, "line %zu, column %zu", line, col);
}

/* Parse text, the whole file: one JSON value and nothing after it.  0, or
 * -EBADMSG with why it is not (where it stops being JSON). */
static int parse(const char *text, size_t len, struct json_object **doc,
		 char *why, size_t whylen)
{
	struct json_tokener *tok = json_tokener_new();
	enum json_tokener_error e;
	size_t end, blank = strspn(text, " \t\r\n");
	char at[64];

	if (!tok)
		return -ENOMEM;
	*doc = json_tokener_parse_ex(tok, text, (int)len);
	e = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (blank == len) {
		snprintf(why, whylen, "it is empty");
	} else if (e == json_tokener_continue) {
		where(text, len, at, sizeof(at));
		snprintf(why, whylen, "its JSON ends early, at %s (cut off?)", at);
	} else if (e == json_tokener_error_depth) {
		where(text, end > 0 && end <= len ? end - 1 : 0, at, sizeof(at));
		snprintf(why, whylen, "its JSON nests deeper than %d levels, at %s",
			 JSON_TOKENER_DEFAULT_DEPTH, at);
	} else if (e != json_tokener_success || !*doc) {
		unsigned char c;

		end = end > 0 && end <= len ? end - 1 : 0;
		c = (unsigned char)text[end];
		where(text, end, at, sizeof(at));
		snprintf(why, whylen, isprint(c) ? "not JSON at %s ('%c')" :
			 "not JSON at %s (byte 0x%02x)", at, c);
	} else if ((end += strspn(text + end, " \t\r\n")) < len) {
		where(text, end, at, sizeof(at));
		snprintf(why, whylen, "more follows its JSON, at %s", at);
	} else {
		return 0;
	}
	json_object_put(*doc);
	*doc = NULL;
	return -EBADMSG;
}

/* Whether every number in o is one exitsweep could have written: finite
 * (json-c reads NaN, Infinity and 1e400 as doubles) and, for an integer,
 * within what json-c holds exactly (a longer one is clamped to 2^64 - 1
 * or 2^63 - 1 and would print as that).  depth: json-c's own nesting
 * limit bounds it. */
static bool numbers_ok(struct json_object *o)
{
	switch (json_object_get_type(o)) {
	case json_type_double:
		return isfinite(json_object_get_double(o));
	case json_type_int:
		return json_object_get_int64(o) != INT64_MAX &&
		       json_object_get_int64(o) != INT64_MIN &&
		       json_object_get_uint64(o) != UINT64_MAX;
	case json_type_array:
		for (size_t i = 0; i < json_object_array_length(o); i++)
			if (!numbers_ok(json_object_array_get_idx(o, i)))
				return false;
		return true;
	case json_type_object: {
		json_object_object_foreach(o, k, v) {
			(void)k;
			if (!numbers_ok(v))
				return false;
		}
		return true;
	}
	default:
		return true;
	}
}

/* Is doc a result file?  NULL, or why not. */
static const char *not_result(struct json_object *doc, char *why, size_t len)
{
	struct json_object *v;

	if (!json_object_is_type(doc, json_type_object) ||
	    !json_object_object_get_ex(doc, "format", &v) ||
	    !json_object_is_type(v, json_type_string))
		snprintf(why, len, "JSON without a \"format\" member");
	else if (strcmp(json_object_get_string(v), SWEEP_JSON_FORMAT))
		snprintf(why, len, "its format is \"%.64s\", not %s",
			 json_object_get_string(v), SWEEP_JSON_FORMAT);
	else if (!json_object_object_get_ex(doc, "summary", &v) ||
		 !json_object_is_type(v, json_type_array))
		snprintf(why, len, "no \"summary\" list");
	else if (!numbers_ok(doc))
		snprintf(why, len, "it holds a number exitsweep never writes (NaN, "
			 "Infinity, or too large to hold)");
	else
		return NULL;
	return why;
}

int sweep_json_load(const char *path, struct json_object **doc, char *err,
		    size_t errlen)
{
	char why[160];
	size_t len;
	char *text;
	int r;

	*doc = NULL;
	if ((r = sweep_file_read(path, &text, &len)) == -EFBIG) {
		snprintf(err, errlen, "%s is not an exitsweep result file (written "
			 "by exitsweep --json): it is larger than %u MiB", path,
			 SWEEP_FILE_MAX >> 20);
		return r;
	} else if (r < 0) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(-r));
		return r;
	}
	if (len > INT_MAX) {
		snprintf(why, sizeof(why), "it is too large (%zu bytes)", len);
		r = -EBADMSG;
	} else if (memchr(text, '\0', len)) {
		snprintf(why, sizeof(why), "it holds NUL bytes (binary data)");
		r = -EBADMSG;
	} else {
		r = parse(text, len, doc, why, sizeof(why));
	}
	free(text);
	if (r == 0 && not_result(*doc, why, sizeof(why))) {
		json_object_put(*doc);
		*doc = NULL;
		r = -EBADMSG;
	}
	if (r < 0)
		snprintf(err, errlen, "%s is not an exitsweep result file (written "
			 "by exitsweep --json): %s", path, r == -ENOMEM ?
			 "out of memory" : why);
	return r;
}
