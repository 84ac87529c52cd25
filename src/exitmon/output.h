/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The record writer: whole lines only, buffered, never blocking the
 * collector.  A failed write (disk full, reader gone) is counted per record;
 * the rest of a line written in part to a file is written first when the
 * file takes writes again, and a line an earlier run left cut is ended
 * before appending (cutline.h): the file is never cut back, so a shipper
 * following it never sees one record's head glued to another's tail. */
#ifndef EXITMON_OUTPUT_H
#define EXITMON_OUTPUT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "format.h"

struct output {
	pthread_mutex_t lock;	/* receive threads put whole chunks of lines */
	char *path;		/* NULL: standard output */
	int fd;
	bool regular;		/* a regular file (not a pipe or a tty) */
	bool nonblock_set;	/* we set O_NONBLOCK on a pipe; undo at close */
	bool null_device;	/* /dev/null: lines are counted, never written */
	enum out_format fmt;
	const struct format_cols *cols;	/* NULL: every column */
	char *buf;
	size_t len, cap, max_pending;
	uint64_t lines;		/* records' lines in buf */
	uint64_t lead;		/* lines before them in buf that hold none */
	bool midline;		/* the file ends inside a line; buf begins
				 * with its rest (regular files only) */
	uint64_t written, unwritten;
	int last_err;		/* -errno of the last failed write, 0 if fine */
	int ever_err;		/* the last hard error ever seen (sticky) */
	uint64_t cut_bytes;	/* an earlier run's cut last line, ended at
				 * open: its bytes (0: none) */
	bool created;		/* this run created the file */
	int older_header;	/* OUTPUT_OLDER_*: an older exitmon's file */
	off_t head_at;		/* where the file's header begins: past the
				 * damaged lines of cut headers before it */
	dev_t dev;		/* the file written, for same-file checks */
	ino_t ino;
	uint64_t written_here;	/* records written to the current file */
	uint64_t deleted_lost;	/* written to files deleted while open */
};

/* Refused by output_open and output_reopen (negated): the file to append
 * to begins with another header.  output_strerror() explains it. */
#define OUTPUT_EOTHERCOLS 4200
/* The file to append to was begun by an older exitmon: its CSV header is
 * this one without the leading run,seq,time_ns.  output_open and
 * output_reopen append a new header row and go on (APPEND), or go on
 * under the one an earlier start appended (INFORCE); in older_header. */
#define OUTPUT_OLDER_APPEND 1
#define OUTPUT_OLDER_INFORCE 2

/* safe_strerror() that also knows OUTPUT_EOTHERCOLS. */
const char *output_strerror(int err);
/* What was done about an older exitmon's file (older_header), for a note
 * after the file's name; NULL when it is no such file. */
const char *output_older_say(const struct output *o);
/* Opens (append) or uses stdout; writes the format's header (of the
 * columns cols, NULL: all) to an empty file or to stdout.  0 or -errno. */
int output_open(struct output *o, const char *path, enum out_format fmt,
		const struct format_cols *cols);
/* Queue `lines` whole lines (buf ends in '\n') and write them; safe to
 * call from several threads: a chunk is never interleaved with another. */
void output_put(struct output *o, const char *buf, size_t len, uint64_t lines);
/* Whether the output is the null device (-o /dev/null, or standard output
 * sent there): then the lines given to output_put are counted as written
 * and need not be formatted at all (their bytes are ignored). */
bool output_discards(const struct output *o);
/* Count `lines` records that could not even be queued. */
void output_lost(struct output *o, uint64_t lines);
/* The current hard write error (-errno), or 0 when writing works. */
int output_error(struct output *o);
/* Snapshot of the written/unwritten counters. */
void output_counts(struct output *o, uint64_t *written, uint64_t *unwritten);
/* Reopen the path (log rotation); on failure the old file stays in use.
 * *lost: records written to the old file if it had been deleted.  0 or
 * -errno. */
int output_reopen(struct output *o, uint64_t *lost);
/* If the file was deleted while open, count what was written to it as
 * unwritten; how many. */
uint64_t output_check_deleted(struct output *o);
/* Write what is queued, waiting up to timeout_ms for a slow reader; what
 * still cannot be written is counted as unwritten.  For the end of a run. */
void output_drain(struct output *o, int timeout_ms);
/* Forget what is queued (start-up failed: nothing worth writing). */
void output_discard(struct output *o);
void output_close(struct output *o);

#endif
