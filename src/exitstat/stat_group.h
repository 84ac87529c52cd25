/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Summaries: records folded into one line per group (comm, uid, tgid or
 * executable).  Memory follows the number of groups, never the number of
 * records: at most max groups are held (dense, in chunks,
 * behind a table of 32-bit indexes); when a new group would exceed that,
 * the smaller half by the sort column is folded into one "other" group
 * (the larger half when the smallest are asked for, keep_smallest).
 * A group whose key was folded before and comes back starts again and is
 * marked partial (its earlier records are in other).  The folded keys are
 * remembered in a Bloom filter that grows with them (stat_bloom.h), so
 * that the rate of groups wrongly marked stays under 2^-13 however many
 * folds go on; it errs only towards "partial".  An exact set would be
 * exact, but at 16 bytes or so a folded key; a filter of fixed size keeps
 * memory to the groups held, but fills up: one of 16 bits a group held
 * marked 131,257 of 5 million never-folded groups partial.
 *
 * Memory, per group held: the struct (200 bytes), at most 4 index slots
 * (the index doubles at half full), a pointer when sorting or folding:
 * 224 bytes.  Per key folded: the filter's 2.5 to 8 bytes (the folds of
 * 50 million groups held 1 million at a time: 4.4 bytes a key).
 * exitstat(1) states both.
 *
 * Counting rule: only pid rows are summed.  A tgid row adds up the threads
 * of a group whose pid rows are already in the input, so summing it too
 * would count every thread twice; tgid rows are counted, not summed.
 *
 * Sums saturate at UINT64_MAX (never wrap) and the group says so. */
#ifndef EXITSTAT_STAT_GROUP_H
#define EXITSTAT_STAT_GROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record.h"
#include "stat_bloom.h"

enum group_by { BY_COMM, BY_UID, BY_TGID, BY_EXE };

/* The key of records whose file has no uid column: no uid is this. */
#define STAT_GROUP_UID_UNKNOWN UINT64_MAX

/* The statistics of a group, in output order (names in group.c). */
enum stat_id {
	S_EXITS, S_CPU, S_CPU_RUN, S_ELAPSED,
	S_CPU_DELAY, S_CPU_AVG, S_CPU_MAX,
	S_BLKIO_DELAY, S_BLKIO_AVG, S_BLKIO_MAX,
	S_SWAPIN_DELAY, S_SWAPIN_AVG, S_SWAPIN_MAX,
	S_READ, S_WRITE, S_RSS, S_IMPLAUSIBLE,
	S__COUNT
};

struct gkey {
	uint64_t a, b;		/* uid / tgid / exe_dev:exe_inode */
	uint8_t len;		/* comm bytes */
	char comm[TS_COMM_LEN];
};

enum {
	G_HAVE_MAX = 1,		/* << k: a record carried delay max k */
	G_PARTIAL = 8,		/* its key was folded into other before */
	G_SATURATED = 16,	/* a sum reached UINT64_MAX and stopped */
};

struct group {
	struct gkey key;
	uint8_t flags;
	uint64_t exits, cpu_us, cpu_run_ns, elapsed_us, implausible;
	uint64_t delay[3], count[3], max[3];	/* cpu, blkio, swapin */
	uint64_t read_bytes, write_bytes, rss_kb;
};

#define GROUP_CHUNK 4096	/* groups per allocation */
#define GROUP_MAX_DEFAULT 1000000
/* The filter's bound on wrongly partial groups, 1 in 2^(K0 - 1) tested. */
#define GROUP_PARTIAL_ERR_SHIFT (STAT_BLOOM_K0 - 1)

struct groups {
	enum group_by by;
	enum stat_id fold_by;	/* what "smaller" means when folding */
	bool keep_smallest;	/* fold the larger half (exitstat --reverse
				 * shows the smallest groups: keep those) */
	size_t max;		/* groups held at most */
	struct group **chunk;	/* group i: chunk[i / GROUP_CHUNK][i % GROUP_CHUNK] */
	size_t nchunks;
	uint32_t *idx;		/* open addressing: group index + 1, 0 empty */
	size_t cap, n;		/* idx slots (a power of two, >= 2n), groups */
	struct stat_bloom folded_keys;	/* every key folded, and some never */
	struct group total, other;
	uint64_t folded;	/* groups folded into other (a key may count twice) */
	/* Groups begun after a fold, each tested against folded_keys: the
	 * filter may take one of them for folded (under 2^-13 each), so
	 * partial groups are at most this many times 2^-13 fewer than said. */
	uint64_t tested;
	uint64_t tgid_rows;
};

/* max: groups held at most (1 to UINT32_MAX - 1); fold_by: the column
 * whose smaller values fold first.  -ENOMEM, -EINVAL. */
int stat_group_init(struct groups *g, enum group_by by, size_t max, enum stat_id fold_by);
void stat_group_free(struct groups *g);
/* Fold one pid row in (tgid rows: counted only).  -ENOMEM. */
int stat_group_add(struct groups *g, const struct exit_record *r);
/* Group i, i < g->n. */
struct group *stat_group_at(const struct groups *g, size_t i);

const char *stat_group_stat_name(enum stat_id s);
int stat_group_stat_from_name(const char *name, enum stat_id *out);
/* The value of statistic s; false when the group has none (an average of
 * no waits, a peak no record carried). */
bool stat_group_value(const struct group *gr, enum stat_id s, uint64_t *v);

/* The groups as an array of pointers, sorted by s (descending unless
 * ascending), ties by key.  Caller frees. */
struct group **stat_group_sorted(const struct groups *g, enum stat_id s, bool ascending);

#endif
