/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A Bloom filter that grows with what is put in it (a scalable Bloom
 * filter): exitstat's memory of the group keys it folded into other, so
 * that a group which comes back is marked partial (stat_group.c).
 *
 * Why it grows: a filter of fixed size fills up as folds go on, and its
 * false-positive rate with it (a fixed 16 bits per group held, 2 probes,
 * marked 131,257 of the 5 million groups of one input partial though none
 * had been folded).  An exact set of the folded keys would cost at least
 * 8 bytes a key (a 64-bit hash each) and more for the empty slots of its
 * table; this costs a few bytes a key and errs only one way, towards
 * "seen".  Memory: a key in slice i costs (K0 + i) / ln 2 bits, and a
 * slice is made whole when it opens, for as many keys as all before it,
 * so up to twice that until it fills.  Put in first_cap keys at a time
 * (as exitstat's folds do), s slices cost at most (K0 + s) * 0.36 bytes
 * a key: 2.5 in the first, 3.6 with 8 full (255 times the first
 * capacity), 7.6 just after the 9th opens.
 *
 * How: slices, each a plain Bloom filter sized for its capacity at half
 * its bits set.  Slice i takes first_cap << i keys with STAT_BLOOM_K0 + i
 * probes, so at capacity its false-positive rate is 2^-(K0 + i); when the
 * newest slice is at capacity the next one opens and takes the new keys.
 * A key never put in is reported seen only if one slice says so, so the
 * rate over all slices is at most the sum, 2^-K0 + 2^-(K0+1) + ... <
 * 2^-(K0-1) (1 in 8192), however many keys go in.  A key put in is always
 * reported seen. */
#ifndef EXITSTAT_STAT_BLOOM_H
#define EXITSTAT_STAT_BLOOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STAT_BLOOM_K0 14	/* probes of the first slice */
#define STAT_BLOOM_SLICES 48	/* first_cap << 47 keys: past any memory */

struct stat_bloom_slice {
	uint64_t *bits;
	uint64_t nbits;		/* a multiple of 64 */
	uint64_t cap, n;	/* keys it is sized for, keys in it */
	unsigned k;		/* probes */
};

struct stat_bloom {
	uint64_t first_cap;
	uint64_t keys;		/* put in, over all slices */
	size_t nslices;
	struct stat_bloom_slice slice[STAT_BLOOM_SLICES];
};

/* first_cap: keys the first slice is sized for (at least 1; say how many
 * go in at a time, so the first slice is not made and outgrown at once). */
void stat_bloom_init(struct stat_bloom *b, uint64_t first_cap);
void stat_bloom_free(struct stat_bloom *b);
/* Room for n more keys (n at most first_cap) without a failure: the next
 * slice opened now if the newest has less, so that a caller can put in a
 * batch all or nothing.  -ENOMEM (the filter as before). */
int stat_bloom_reserve(struct stat_bloom *b, uint64_t n);
/* Put in the key whose 64-bit hash is key.  -ENOMEM (the filter as
 * before); never after stat_bloom_reserve made room for it. */
int stat_bloom_add(struct stat_bloom *b, uint64_t key);
/* Whether key was put in: always when it was; when not, with a probability
 * under 2^-(STAT_BLOOM_K0 - 1). */
bool stat_bloom_has(const struct stat_bloom *b, uint64_t key);
/* The bytes its slices hold. */
size_t stat_bloom_bytes(const struct stat_bloom *b);

#endif
