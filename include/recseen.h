/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The records already read, by (run, seq): a record shipped twice (a
 * rotated file given beside its .gz, a line a shipper sent again) is
 * counted once by every reader that sums records (exitstat, the sweep's
 * cohort).  exitmon gives each record of a run the next seq and never one
 * twice (exitmon(8), "Run, seq and time"), so (run, seq) names one record
 * for good; a record without run or seq (a file of an older exitmon, a
 * capture) cannot be told from another and is always new.
 *
 * Memory: per run, the seq read so far as sorted spans [lo, hi], 16 bytes
 * a span, so it follows the gaps, never the records: a run's seq are
 * dense (1, 2, 3 ... with a gap only for a record unwritten), and the
 * interleaved chunks of --shards close up as they come; one file of 10
 * million records is one span.  A seq past the run's last span (the
 * common case) is an append; one inside the spans costs two binary
 * searches (the block, the span in it) and a move of at most a block's
 * spans, so a file in any order (sorted by pid, say) reads as fast. */
#ifndef COMMON_RECSEEN_H
#define COMMON_RECSEEN_H

#include <stddef.h>
#include <stdint.h>

#include "record.h"

struct recseen_span {
	uint64_t lo, hi;	/* seq lo to hi, both read */
};

/* Spans a block holds at most: an insert moves at most this many, and a
 * block full splits in two (the pointers of the blocks after it move, a
 * 512th as many), so seq in any order cost alike. */
#define RECSEEN_BLOCK 512

struct recseen_block {
	uint32_t n, cap;	/* cap grows to RECSEEN_BLOCK */
	struct recseen_span s[];
};

struct recseen_run {
	char run[REC_RUN_HEX];
	/* The spans, sorted, disjoint, none adjacent, in blocks in order;
	 * no block is empty. */
	struct recseen_block **blk;
	size_t nblk, capblk;
};

struct recseen {
	struct recseen_run *runs;
	size_t nruns, cap;
	uint32_t *idx;		/* open addressing: run index + 1, 0 empty */
	size_t idx_cap;		/* a power of two, >= 2 nruns (0: none yet) */
	size_t last;		/* the run looked up last (+ 1; 0: none) */
	uint64_t repeats;	/* records found read before */
	size_t spans;		/* over all runs, for the memory's figure */
};

void recseen_init(struct recseen *s);
void recseen_free(struct recseen *s);
/* Record m read: 1 when new (and remembered) or without run or seq, 0 when
 * its (run, seq) was read before (counted in repeats), -ENOMEM (nothing
 * remembered: the caller counts the record and says it could not tell). */
int recseen_add(struct recseen *s, const struct rec_meta *m);
/* The bytes held. */
size_t recseen_bytes(const struct recseen *s);

#endif
