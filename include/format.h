/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Writing records for people and programs: text, CSV (RFC 4180) and JSON
 * lines.  One column table drives all three, so the CSV header, the JSON
 * keys and the text layout can never disagree.  comm is untrusted bytes and
 * is escaped for each format. */
#ifndef COMMON_FORMAT_H
#define COMMON_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "format_cols.h"
#include "record.h"

enum out_format { FMT_TEXT, FMT_CSV, FMT_JSONL };

/* "text", "csv" or "jsonl" -> 0; anything else -> -EINVAL. */
int format_from_name(const char *name, enum out_format *out);
const char *format_name(enum out_format f);

/* The line that starts an output file (CSV header row, text column
 * header), newline included; "" for JSON lines.  snprintf semantics:
 * returns the length it needs; writes at most cap bytes, NUL-terminated. */
size_t format_header(enum out_format f, char *buf, size_t cap);

/* One record as one line ending in '\n', snprintf semantics as above.
 * Absent fields (not supplied by the kernel) are empty in CSV, null in
 * JSON and "-" in text. */
size_t format_record(enum out_format f, const struct exit_record *r,
		     char *buf, size_t cap);

/* The same from a view of the kernel's bytes (the collector's hot path),
 * byte for byte what format_record writes for record_from_view(v). */
size_t format_view(enum out_format f, const struct exit_view *v,
		   char *buf, size_t cap);

/* A command name alone, escaped as format f writes it in a record (JSON:
 * with its quotes), snprintf semantics.  For other programs' tables. */
size_t format_comm(enum out_format f, const char *comm, size_t len,
		   char *buf, size_t cap);

/* format_header and format_view with a choice of columns (CSV and JSON
 * lines only; cols NULL: every column). */
size_t format_header_cols(enum out_format f, const struct format_cols *cols,
			  char *buf, size_t cap);
size_t format_view_cols(enum out_format f, const struct format_cols *cols,
			const struct exit_view *v, char *buf, size_t cap);

/* Worst-case length of one formatted record in any format (for buffers). */
#define FORMAT_MAX_LINE 8192

#endif
