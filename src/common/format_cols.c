// SPDX-License-Identifier: GPL-2.0-or-later
/* The column table as data (names, kinds, text widths: generated from
 * COLUMNS in columns.h) and the choice of columns a user asks for. */
#include "format_cols.h"
#include "columns.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define COL_ENTRY(nm, kind, field, tw) { #nm, sizeof(#nm) - 1, kind, tw },
const struct column format_cols_table[NCOLS] = { COLUMNS(COL_ENTRY) };

_Static_assert(COL__COUNT <= FORMAT_MAX_COLS, "FORMAT_MAX_COLS too small");

int format_cols_parse(const char *list, struct format_cols *out, char *bad,
		      size_t bad_size)
{
	uint8_t seen[COL__COUNT] = { 0 };
	const char *p = list;
	unsigned i;

	out->n = 0;
	if (strcmp(list, "all") == 0) {
		for (i = 0; i < NCOLS; i++)
			out->col[out->n++] = (uint8_t)i;
		return 0;
	}
	for (;;) {
		size_t n = strcspn(p, ",");

		for (i = 0; i < NCOLS; i++)
			if (n == format_cols_table[i].name_len &&
			    memcmp(p, format_cols_table[i].name, n) == 0)
				break;
		if (i == NCOLS || seen[i]) {
			snprintf(bad, bad_size, "%.*s", (int)n, p);
			return i == NCOLS ? -EINVAL : -EEXIST;
		}
		seen[i] = 1;
		out->col[out->n++] = (uint8_t)i;
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

size_t format_cols_names(char *buf, size_t cap)
{
	size_t i, n = 0;

	for (i = 0; i < NCOLS; i++)
		n += (size_t)snprintf(buf + (n < cap ? n : cap), n < cap ? cap - n : 0,
				      "%s%s", i ? "," : "", format_cols_table[i].name);
	return n;
}
