// SPDX-License-Identifier: GPL-2.0-or-later
/* Text, CSV and JSON lines output of exit records: the snprintf-like entry
 * points over each wire format's writers (format_csv.c, format_json.c,
 * format_text.c, through format_wire.h).
 *
 * One column table (COLUMNS in columns.h) drives every format: the CSV
 * header, the JSON keys and the text layout are all generated from it.
 * comm is untrusted bytes (any task can name itself anything but NUL), so
 * each format has its own rule, chosen so that the exact bytes survive
 * (each format's file says which).
 *
 * Speed: the collector formats tens of thousands of records a second, so
 * values are appended with our own integer conversion (format_put.h)
 * straight into the caller's buffer (no snprintf per field); the
 * worst-case line length is bounded at compile time, which lets the
 * writers skip bounds checks.  One call per record from here into a
 * format's writer; within it, every column is inlined code. */
#include "format.h"
#include "columns.h"
#include "format_put.h"
#include "format_wire.h"
#include "tsabi.h"

#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

/* Compile-time bound on a line, so that FORMAT_MAX_LINE is provably enough
 * and the writers need no per-byte bounds checks.  Every value is at
 * most 20 digits ("null" and "-" are shorter); comm is at most
 * TS_COMM_LEN bytes of up to 6 output bytes each (\u00XX); the run id is
 * REC_RUN_HEX digits and its quotes; text pads to <= 16.  Some writers store whole words and keep part of them: SLACK
 * bytes past a line's end may be written (and are overwritten by what
 * follows). */
#define MAX_NAME 28
#define COL_CHECK(nm, kind, field, tw) \
	_Static_assert(sizeof(#nm) - 1 <= MAX_NAME, "column name too long"); \
	_Static_assert((tw) <= 16 && (unsigned)(field) < F__COUNT, #nm);
COLUMNS(COL_CHECK)
#define LINE_BOUND (NCOLS * (MAX_NAME + 4 + MAX_VALUE + 16) + \
		    6 * TS_COMM_LEN + 8 + REC_RUN_HEX + 2 + SLACK)
_Static_assert(LINE_BOUND < FORMAT_MAX_LINE, "FORMAT_MAX_LINE too small");

int format_from_name(const char *name, enum out_format *out)
{
	static const struct { const char *name; enum out_format f; } names[] = {
		{ "text", FMT_TEXT }, { "csv", FMT_CSV }, { "jsonl", FMT_JSONL },
	};
	size_t i;

	for (i = 0; name && i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(name, names[i].name) == 0) {
			*out = names[i].f;
			return 0;
		}
	}
	return -EINVAL;
}

const char *format_name(enum out_format f)
{
	switch (f) {
	case FMT_TEXT: return "text";
	case FMT_CSV: return "csv";
	case FMT_JSONL: return "jsonl";
	}
	return "?";
}

/* ---- snprintf-like entry points ---------------------------------------- */

/* Format f's writers (f is one of enum out_format). */
static const struct format_wire *wire(enum out_format f)
{
	switch (f) {
	case FMT_CSV: return &format_csv;
	case FMT_JSONL: return &format_json;
	case FMT_TEXT: break;
	}
	return &format_text;
}


/* Lines are built where they fit for sure: straight in the caller's buffer
 * when it is FORMAT_MAX_LINE or more, else on the stack and copied. */
static size_t deliver(const char *line, size_t n, char *buf, size_t cap)
{
	if (line != buf && cap > 0) {
		size_t k = n < cap ? n : cap - 1;

		memcpy(buf, line, k);
		buf[k] = '\0';
	}
	return n;
}

size_t format_header_cols(enum out_format f, const struct format_cols *cols,
			  char *buf, size_t cap)
{
	char tmp[FORMAT_MAX_LINE];
	char *line = cap >= FORMAT_MAX_LINE ? buf : tmp;
	char *end = wire(f)->header(line, cols);

	*end = '\0';
	return deliver(line, (size_t)(end - line), buf, cap);
}

size_t format_header(enum out_format f, char *buf, size_t cap)
{
	return format_header_cols(f, NULL, buf, cap);
}

size_t format_record(enum out_format f, const struct exit_record *r,
		     char *buf, size_t cap)
{
	char tmp[FORMAT_MAX_LINE];
	char *line = cap >= FORMAT_MAX_LINE ? buf : tmp;
	char *end = wire(f)->record(line, r, NULL);

	*end = '\0';
	return deliver(line, (size_t)(end - line), buf, cap);
}

/* A view of a layout other than the append-only one is written through
 * its normalised record (see format_src.h). */
size_t format_view_cols(enum out_format f, const struct format_cols *cols,
			const struct exit_view *v, char *buf, size_t cap)
{
	const struct format_wire *w = wire(f);
	char tmp[FORMAT_MAX_LINE];
	char *line = cap >= FORMAT_MAX_LINE ? buf : tmp, *end;
	struct exit_record r;

	if (record_view_append(v)) {
		end = w->view(line, v, cols);
	} else {
		record_from_view(v, &r);
		end = w->record(line, &r, cols);
	}
	*end = '\0';
	return deliver(line, (size_t)(end - line), buf, cap);
}

size_t format_view(enum out_format f, const struct exit_view *v,
		   char *buf, size_t cap)
{
	return format_view_cols(f, NULL, v, buf, cap);
}

size_t format_comm(enum out_format f, const char *comm, size_t len,
		   char *buf, size_t cap)
{
	char tmp[8 * TS_COMM_LEN];
	char *end;

	if (len > TS_COMM_LEN)
		len = TS_COMM_LEN;
	end = wire(f)->comm(tmp, comm, len);
	*end = '\0';
	return deliver(tmp, (size_t)(end - tmp), buf, cap);
}
