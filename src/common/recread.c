// SPDX-License-Identifier: GPL-2.0-or-later
/* CSV and JSON lines back into records (see recread.h): the reader's state,
 * which columns to decode, the note of unknown ones; the formats themselves
 * are in recread_csv.c and recread_json.c, over recread_cols.c. */
#include "recread.h"
#include "recread_cols.h"

#include <errno.h>
#include <string.h>

void recread_init(struct recread *rr)
{
	size_t i;

	memset(rr, 0, sizeof(*rr));
	for (i = 0; i < RECREAD_MAX_COLS; i++) {
		rr->map[i] = MAP_UNSEEN;
		rr->want[i] = true;
	}
}

void recread_want_fields(struct recread *rr, const enum rec_field *f, size_t n)
{
	size_t i, k;

	for (i = 0; i < RECREAD_NCOLS; i++) {
		const struct recread_col *col = &recread_cols_table[i];
		enum rec_field fs[2];
		unsigned m = col_fields((enum col_kind)col->kind, col->field,
					fs);

		/* time_ns is a listing's (which wants every column), not a
		 * summary's; run and seq are every reader's: a record read
		 * twice is known by them (recseen.h). */
		rr->want[i] = col->kind != C_FIELD && col->kind != C_NICE &&
			      col->kind != C_BTIME && col->kind != C_TIME;
		for (k = 0; k < n && !rr->want[i]; k++)
			rr->want[i] = m && (fs[0] == f[k] || (m > 1 && fs[1] == f[k]));
	}
}

void recread_note_unknown(struct recread *rr, const char *s, size_t n)
{
	if (rr->unknown++ == 0) {
		if (n >= sizeof(rr->first_unknown))
			n = sizeof(rr->first_unknown) - 1;
		memcpy(rr->first_unknown, s, n);
		rr->first_unknown[n] = '\0';
	}
}
