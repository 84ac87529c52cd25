/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The record columns by name: the table every format writes from, and a
 * choice of columns (exitmon -F, --fields).  The table is COLUMNS in
 * src/common/columns.h; this is what other files see of it. */
#ifndef COMMON_FORMAT_COLS_H
#define COMMON_FORMAT_COLS_H

#include <stddef.h>
#include <stdint.h>

/* One column: its name, its kind (enum col_kind in columns.h) and its width
 * in the text format (0: not shown). */
struct column {
	const char *name;
	uint8_t name_len;
	uint8_t kind;
	uint8_t text_width;
};

/* Every column, in table order (NCOLS of them). */
extern const struct column format_cols_table[];

/* A choice of columns (exitmon -F, --fields), as indexes into the column
 * table (columns.h), in the order asked.  NULL where one is taken: all. */
#define FORMAT_MAX_COLS 128
struct format_cols {
	unsigned n;
	uint8_t col[FORMAT_MAX_COLS];
};

/* Parse a comma-separated list of column names ("all": every column, in
 * table order).  0; -EINVAL with the first name that is no column (or is
 * empty) copied to bad; -EEXIST with the first named twice. */
int format_cols_parse(const char *list, struct format_cols *out, char *bad,
		      size_t bad_size);

/* Every column name, comma-separated (for the error that lists them),
 * snprintf semantics. */
size_t format_cols_names(char *buf, size_t cap);

#endif
