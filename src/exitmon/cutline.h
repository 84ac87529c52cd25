/* SPDX-License-Identifier: GPL-2.0-or-later */
/* How exitmon ends a line an earlier run left cut short at the end of the
 * file it appends to.  The file is never cut back: a shipper following it
 * may hold the cut bytes already, and a file cut back and then appended to
 * would hand that follower the head of one record glued to the tail of
 * another.  Ending the line instead makes it one damaged line that every
 * reader counts and passes over. */
#ifndef EXITMON_CUTLINE_H
#define EXITMON_CUTLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "format.h"

/* Room cutline_end needs for a header of ncols columns. */
#define CUTLINE_MAX(ncols) ((ncols) + 3)

/* The bytes that end the cut line cut[0..len) (what follows the file's
 * last newline) so that no reader takes it for a record, in out (cap
 * bytes); how many, 0 if cap is too small.  JSON lines: a newline (a cut
 * object lacks its closing brace, so it never parses; an object whole but
 * for its newline is a record whole).  CSV, whose cut row can parse (a
 * number cut short is still a number): an open quote closed, then commas
 * up to ncols + 1 fields, a row no header of ncols columns takes, then a
 * newline.  Text: a newline. */
size_t cutline_end(enum out_format fmt, const char *cut, size_t len,
		   size_t ncols, char *out, size_t cap);

/* Where the last CSV record in p[0..n) begins: past the last newline
 * outside a quoted field (a comm may hold newlines, so the last line is
 * not the last record); n when p ends a record.  p is the file's last
 * bytes: from its start when whole (the quote state known there), else
 * the state is known from the first run of bytes no quoted field can
 * hold.  *found is false when no boundary is known (then 0). */
size_t cutline_record(const char *p, size_t n, bool whole, bool *found);

/* The fields of a CSV record begun in cut[0..len) (from its first byte),
 * and whether it stops inside a quoted field.  A doubled quote inside a
 * quoted field toggles twice. */
size_t cutline_fields(const char *cut, size_t len, bool *quoted);

#endif
