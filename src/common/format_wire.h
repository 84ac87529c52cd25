/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Between format.c's entry points and the writers of each wire format
 * (format_csv.c, format_json.c, format_text.c), private to them: the
 * column table, each column's index in it, and what each format writes.
 *
 * The headers walk the table; each format's record writer is COLUMNS
 * expanded into straight-line code: one call of its always-inlined column
 * writer per column, with the kind and field as constants, so every column
 * compiles to a presence test and an integer conversion (no table walk, no
 * switch on the kind at run time).  Each column is followed by its
 * separator; the last one is overwritten by the line's end. */
#ifndef COMMON_FORMAT_WIRE_H
#define COMMON_FORMAT_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "columns.h"
#include "format_cols.h"
#include "record.h"

/* A wire format's writers.  Each writes at p, a line of FORMAT_MAX_LINE
 * bytes, and returns the end of what it wrote (no NUL).  cols NULL: every
 * column; the text format always writes its own. */
struct format_wire {
	/* The line that starts a file, newline included (may be none). */
	char *(*header)(char *p, const struct format_cols *cols);
	/* One record as one line. */
	char *(*record)(char *p, const struct exit_record *r,
			const struct format_cols *cols);
	/* The same from a view in the append-only layout
	 * (record_view_append(v)): the collector's hot path. */
	char *(*view)(char *p, const struct exit_view *v,
		      const struct format_cols *cols);
	/* A command name alone (n <= TS_COMM_LEN), as a record shows it. */
	char *(*comm)(char *p, const char *comm, size_t n);
};

extern const struct format_wire format_csv, format_json, format_text;

#endif
