/* The record writer: whole lines only, buffered, never blocking the
 * collector.  A failed write (disk full, reader gone) is counted per record
 * and retried on the next flush; a partial line is cut back off a regular
 * file so the output always holds whole records. */
#ifndef EXITMON_OUTPUT_H
#define EXITMON_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format.h"

struct output {
	char *path;		/* NULL: standard output */
	int fd;
	bool regular;		/* a regular file: partial lines can be cut */
	bool nonblock_set;	/* we set O_NONBLOCK on a pipe; undo at close */
	enum out_format fmt;
	char *buf;
	size_t len, cap, max_pending;
	uint64_t lines;		/* whole lines in buf */
	uint64_t written, unwritten;
	int last_err;		/* -errno of the last failed write, 0 if fine */
};

/* Opens (append) or uses stdout; writes the format's header to an empty
 * file or to stdout.  0 or -errno. */
int output_open(struct output *o, const char *path, enum out_format fmt);
/* Queue one formatted line; flushes when the buffer is full. */
void output_line(struct output *o, const char *line, size_t len);
/* Write what is queued.  0, or -errno of a failure (already counted). */
int output_flush(struct output *o);
/* Close and reopen the same path (log rotation). */
int output_reopen(struct output *o);
void output_close(struct output *o);

#endif
