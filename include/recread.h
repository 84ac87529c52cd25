/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading exitmon's CSV and JSON lines back into struct exit_record: the
 * inverse of format.c, driven by the same column table (columns.h).
 *
 * A CSV file names its columns in its header row and a JSON line in its
 * keys, so a file is read by name, not position: columns this build does
 * not know (a newer exitmon) are counted and skipped, columns it knows but
 * the file lacks stay absent.  comm comes back as the exact bytes format.c
 * wrote (CSV: raw bytes, RFC 4180 quoting; JSON: \u00XX is byte XX). */
#ifndef COMMON_RECREAD_H
#define COMMON_RECREAD_H

#include <stdbool.h>
#include <stddef.h>

#include "record.h"

#define RECREAD_MAX_COLS 512

struct recread {
	unsigned ncols;			/* CSV: columns in the header */
	short map[RECREAD_MAX_COLS];	/* file column -> our column, -1 unknown */
	unsigned unknown;		/* columns (CSV) or keys (JSON) not known */
	char first_unknown[48];		/* the first of them, for the note */
	char duplicate[48];		/* a column a refused header named twice */
	/* Columns to decode; the rest are skipped (faster).  All by default. */
	bool want[RECREAD_MAX_COLS];
};

/* Start reading: every column wanted, nothing known about the file. */
void recread_init(struct recread *rr);
/* Decode only columns that feed these fields (plus type, ids, comm,
 * version, which are always decoded). */
void recread_want_fields(struct recread *rr, const enum rec_field *f, size_t n);

/* For the wire formats' readers: count a column or key we do not know; the first is kept for the note. */
void recread_note_unknown(struct recread *rr, const char *s, size_t n);

/* The CSV header row (without its newline).  0; -EPROTO when it is not an
 * exitmon header (no type and pid columns); -EEXIST when it names a
 * column twice (in duplicate); -E2BIG for too many columns.  A refused
 * header leaves the one read before in force. */
int recread_csv_header(struct recread *rr, const char *line, size_t len);

/* Whether a CSV file's first line (len bytes, without its newline) is a
 * damaged one, to be passed over to the header on the next line: a header
 * cut short by a crash or a full disk during the first write, which the
 * next exitmon ended with commas (exitmon's cutline.h) before it wrote its
 * own header and records.  Such a line holds names and commas only and
 * ends in an empty field, as no header does.  The one rule for every
 * reader of the file (exitstat, the collector's check of the header it
 * appends under, the sweep); it applies again to the line after, since a
 * second start can be cut short in its header too. */
bool recread_csv_damaged_first(const char *line, size_t len);

/* One CSV row (without its newline; quoted fields may hold newlines).
 * 0, or -EBADMSG for a row that does not fit the header. */
int recread_csv(const struct recread *rr, const char *line, size_t len,
		struct exit_record *r);

/* Whether the CSV header has a column that field f is read from; whether
 * it has the comm column.  For a reader that needs particular columns. */
/* The wanted value columns the header lacks (a file exitmon -F wrote):
 * how many, their names comma-separated in names (cut to len). */
unsigned recread_csv_missing(const struct recread *rr, char *names, size_t len);
bool recread_csv_has_field(const struct recread *rr, enum rec_field f);
bool recread_csv_has_comm(const struct recread *rr);

/* One JSON line (an object).  0, or -EBADMSG (also for a key given twice,
 * and for any value out of its field's range).  An unknown key's value is
 * skipped whatever it is (string, number, array, object), if well-formed. */
int recread_json(struct recread *rr, const char *line, size_t len,
		 struct exit_record *r);

#endif
