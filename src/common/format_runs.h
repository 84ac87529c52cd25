/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Runs of zeros, for the CSV and JSON lines writers (private to them).
 * Many columns side by side in the table are 8-byte fields side by side
 * in the struct (the delay counts and totals, the peaks, the I/O figures),
 * and most of them are 0 in most records: such a run is tested with one OR
 * of its words and, all zero, written with one store.  Which columns make
 * a run is worked out from the tables below at compile time (constant
 * indexes into constant arrays fold away), for the writer of payloads that
 * hold every field up to version 16 only, where no field needs a presence
 * test. */
#ifndef COMMON_FORMAT_RUNS_H
#define COMMON_FORMAT_RUNS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "columns.h"
#include "format_put.h"
#include "format_src.h"
#include "record.h"
#include "tsabi.h"

/* Each column's kind and field, and one past the last column. */
struct col_def {
	uint8_t kind, field;
};
#define COL_DEF(nm, kind, field, tw) { kind, field },
static const struct col_def col_defs[] = { COLUMNS(COL_DEF) { C_TYPE, 0 } };
#undef COL_DEF

/* Column c is a whole 8-byte field that this writer loads with no test. */
static ALWAYS_INLINE bool col_is_word(struct src s, unsigned c)
{
	enum rec_field f = (enum rec_field)col_defs[c].field;

	return s.mode == S_APPEND_V16 && col_defs[c].kind == C_FIELD &&
	       REC_FIELD_SIZE(f) == 8 && ts_append_off(f) + 8 <= V16_LEN;
}

/* Columns c and c + 1 are words side by side in the struct. */
static ALWAYS_INLINE bool col_pairs(struct src s, unsigned c)
{
	return col_is_word(s, c) && col_is_word(s, c + 1) &&
	       ts_append_off((enum rec_field)col_defs[c + 1].field) ==
		       ts_append_off((enum rec_field)col_defs[c].field) + 8;
}

/* The n words from column c's field on are all 0. */
static ALWAYS_INLINE bool words_zero(struct src s, unsigned c, unsigned n)
{
	const unsigned char *q =
		s.p + ts_append_off((enum rec_field)col_defs[c].field);
	uint64_t w, any = 0;
	unsigned i;

	for (i = 0; i < n; i++) {
		memcpy(&w, q + 8 * i, 8);
		any |= w;
	}
	return any == 0;
}

/* How many columns before c continue its run (a run is at most 16 long:
 * the peaks, so the count never needs to go past 15), so that runs are
 * tried from their start in fours and twos and never again from inside one
 * that was tried. */
static ALWAYS_INLINE unsigned run_pos(struct src s, unsigned c)
{
	/* Written out, not a loop: every test must fold to a constant. */
#define BACK(k) (c > (k) && col_pairs(s, c - 1 - (k)))
	return !BACK(0) ? 0 : !BACK(1) ? 1 : !BACK(2) ? 2 : !BACK(3) ? 3 :
	       !BACK(4) ? 4 : !BACK(5) ? 5 : !BACK(6) ? 6 : !BACK(7) ? 7 :
	       !BACK(8) ? 8 : !BACK(9) ? 9 : !BACK(10) ? 10 :
	       !BACK(11) ? 11 : !BACK(12) ? 12 : !BACK(13) ? 13 :
	       !BACK(14) ? 14 : 15;
#undef BACK
}

/* Columns c .. c + n - 1 (n: 2 or 4) make a run from c's place in it. */
static ALWAYS_INLINE bool run_from(struct src s, unsigned c, unsigned n)
{
	return run_pos(s, c) % n == 0 && col_pairs(s, c) &&
	       (n == 2 || (col_pairs(s, c + 1) && col_pairs(s, c + 2)));
}

/* What a writer puts at column c: nothing (RUN_INSIDE: a run from an
 * earlier column wrote it), a run of RUN_4 or RUN_2 zero columns from c,
 * or column c alone (RUN_NONE).  *inside counts the columns a run has
 * still to pass over; each format writes its own zeros. */
enum { RUN_NONE = 0, RUN_2 = 2, RUN_4 = 4, RUN_INSIDE = -1 };

static ALWAYS_INLINE int zero_run(struct src s, unsigned c, unsigned *inside)
{
	if (*inside) {
		--*inside;
		return RUN_INSIDE;
	}
	if (run_from(s, c, 4) && __builtin_expect(words_zero(s, c, 4), 1)) {
		*inside = 3;
		return RUN_4;
	}
	if (run_from(s, c, 2) && __builtin_expect(words_zero(s, c, 2), 1)) {
		*inside = 1;
		return RUN_2;
	}
	return RUN_NONE;
}

#endif
