/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Plain text tables: columns sized to their widest cell, numbers right
 * aligned, a rule under the heading.  Used by the report and compare. */
#ifndef EXITSWEEP_SWEEP_TABLE_H
#define EXITSWEEP_SWEEP_TABLE_H

#include <stdbool.h>
#include <stdio.h>

struct sweep_table;

struct sweep_table *sweep_table_new(size_t ncols);
void sweep_table_free(struct sweep_table *t);
/* Right-align column col (default: left). */
void sweep_table_right(struct sweep_table *t, size_t col);
/* Start a row; the first row is the heading. */
void sweep_table_row(struct sweep_table *t);
/* Append a cell to the current row. */
void sweep_table_cell(struct sweep_table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Print with indent before each line; a rule under the heading. */
void sweep_table_print(const struct sweep_table *t, FILE *f, const char *indent);
/* Display width of a UTF-8 string (code points). */
size_t sweep_table_text_width(const char *s);

#endif
