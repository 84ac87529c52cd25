/* How exitmon ends a line an earlier run left cut short at the end of the
 * file it appends to.  The file is never cut back: a shipper following it
 * may hold the cut bytes already, and a file cut back and then appended to
 * would hand that follower the head of one record glued to the tail of
 * another.  Ending the line instead makes it one damaged line that every
 * reader counts and passes over. */
#ifndef EXITMON_CUTLINE_H
#define EXITMON_CUTLINE_H

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

#endif
