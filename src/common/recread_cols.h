/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the two wire formats' readers (recread_csv.c, recread_json.c) share,
 * from recread_cols.c: the column table, the names of a file's columns, and one
 * value at a time into the record. */
#ifndef COMMON_RECREAD_COLS_H
#define COMMON_RECREAD_COLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "columns.h"
#include "record.h"

struct recread_col {
	const char *name;
	unsigned char len;
	unsigned char kind;	/* enum col_kind */
	unsigned char field;	/* enum rec_field, for C_FIELD and C_NICE */
	unsigned char width;	/* a value column's bytes in struct taskstats */
};

#define RECREAD_COL_ONE(nm, kind, field, tw) + 1
#define RECREAD_NCOLS (0 COLUMNS(RECREAD_COL_ONE))
extern const struct recread_col recread_cols_table[RECREAD_NCOLS];

/* JSON key positions not seen yet, and seen but unknown. */
#define MAP_UNSEEN (-3)
#define MAP_UNKNOWN (-1)

/* What a row said about the record's two ids before its type is known. */
struct recread_ids {
	uint64_t pid, tgid;
	bool have_pid, have_tgid, have_type;
	bool tgid_column;	/* the row has a tgid column, even if empty */
};

/* Our column named s (n bytes), or MAP_UNKNOWN. */
int recread_cols_find(const char *s, size_t n);
/* Whether column c is named twice (a renamed column must not silently
 * replace another's values; a key given twice is refused too): seen holds
 * a bit per column; the name into dup (cap bytes) for the note unless dup
 * is NULL.  Inline: the JSON reader asks once per key. */
static inline bool recread_cols_seen_twice(uint64_t *seen, int c, char *dup,
				      size_t cap)
{
	uint64_t bit;

	if (c < 0)
		return false;
	bit = 1ull << (c % 64);
	if (!(seen[c / 64] & bit)) {
		seen[c / 64] |= bit;
		return false;
	}
	if (dup)
		snprintf(dup, cap, "%s", recread_cols_table[c].name);
	return true;
}

/* A row begins: the record and ids cleared. */
void recread_cols_begin(struct exit_record *r, struct recread_ids *ids);
/* The type, comm and run columns' strings; a number (or absent, n == 0) for
 * any other column c.  0 or -EBADMSG. */
int recread_cols_set_type(struct recread_ids *ids, struct exit_record *r,
		     const char *s, size_t n);
int recread_cols_set_comm(struct exit_record *r, const char *s, size_t n);
int recread_cols_set_run(struct exit_record *r, const char *s, size_t n);
int recread_cols_set_number(unsigned c, const char *s, size_t n,
		       struct recread_ids *ids, struct exit_record *r);
/* A row ends: the ids into the record.  0, -EBADMSG, or -ENOKEY for a
 * row without type, or a pid row without pid (exitmon -F without them). */
int recread_cols_finish(struct exit_record *r, const struct recread_ids *ids);

#endif
