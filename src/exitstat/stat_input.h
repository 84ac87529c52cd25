/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exitstat's inputs: exitmon's CSV, JSON lines and pcap captures, plain or
 * gzip'd (zlib reads both alike), from files or standard input ("-").
 * Every record goes to one callback with the identity it is judged by:
 * itself for a pid row, the pid row of the same message for a tgid row. */
#ifndef EXITSTAT_STAT_INPUT_H
#define EXITSTAT_STAT_INPUT_H

#include <stdint.h>

#include "record.h"
#include "recread.h"

struct in_counts {
	uint64_t records, malformed, truncated, unknown_cols;
	uint64_t incomplete;	/* inputs damaged or ended early (cut short) */
};

/* exitstat's exit status when an input ended early: what came before is
 * reported (exitstat(1), EXIT STATUS). */
#define STAT_EXIT_INCOMPLETE 3

typedef void (*in_record_fn)(void *arg, const struct exit_record *r,
			     const struct exit_record *who);

/* Read one input.  proto: which columns to decode (recread_want_fields).
 * Returns 0 (an input that is damaged or ended early, with damaged or
 * cut-short gzip data, a damaged capture or a read error, is counted in
 * incomplete: its records around the damage are kept); -EPROTO for a file that is not exitmon's or ends before its
 * header (a note was printed); -errno when it cannot be opened.  Notes
 * (unknown columns, a truncated last line, malformed lines, the early
 * end) go to stderr, one line each, naming the file. */
int stat_input_read(const char *path, const struct recread *proto, in_record_fn fn,
	       void *arg, struct in_counts *n);

#endif
