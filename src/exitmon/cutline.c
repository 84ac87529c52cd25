// SPDX-License-Identifier: GPL-2.0-or-later
/* Ending a line an earlier run left cut short (see cutline.h). */
#include "cutline.h"

#include <stdbool.h>
#include <string.h>

#include "linein.h"

size_t cutline_fields(const char *cut, size_t len, bool *quoted)
{
	size_t fields = 1, i;

	*quoted = false;
	for (i = 0; i < len; i++) {
		if (cut[i] == '"')
			*quoted = !*quoted;
		else if (cut[i] == ',' && !*quoted)
			fields++;
	}
	return fields;
}

/* A run of more quote-free bytes than the longest quoted field holds
 * cannot lie inside one: the quote state at its end is "outside", whatever
 * came before (a tail begins anywhere, perhaps inside a comm). */
#define ANCHOR_RUN LINEIN_CSV_MAX_QUOTED

size_t cutline_record(const char *p, size_t n, bool whole, bool *found)
{
	size_t i, run = 0, last = 0;
	bool known = whole, quoted = false;

	*found = whole;
	for (i = 0; i < n; i++) {
		if (p[i] == '"') {
			quoted = !quoted;
			run = 0;
			continue;
		}
		if (++run > ANCHOR_RUN && !known) {
			known = true;
			quoted = false;
		}
		if (p[i] == '\n' && known && !quoted) {
			last = i + 1;
			*found = true;
		}
	}
	return last;
}

size_t cutline_end(enum out_format fmt, const char *cut, size_t len,
		   size_t ncols, char *out, size_t cap)
{
	size_t n = 0, fields;
	bool quoted;

	if (fmt == FMT_CSV) {
		fields = cutline_fields(cut, len, &quoted);
		if (cap < CUTLINE_MAX(ncols))
			return 0;
		if (quoted)
			out[n++] = '"';
		for (; fields <= ncols; fields++)
			out[n++] = ',';
	}
	if (n + 1 > cap)
		return 0;
	out[n++] = '\n';
	return n;
}
