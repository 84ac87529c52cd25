// SPDX-License-Identifier: GPL-2.0-or-later
/* The scalable Bloom filter of folded keys (see stat_bloom.h). */
#include "stat_bloom.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A full 64-bit mix (splitmix64's finaliser): every bit of the result
 * depends on every bit of z, so the probes below are as good as random
 * even where the caller's hash is a weak mix of a counter (a tgid's). */
static uint64_t mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The probes of a key: a stream of 64-bit numbers seeded by its hash
 * (splitmix64's: the seed plus j times the golden ratio, mixed), each
 * mapped onto [0, nbits) by its high bits (a multiply, no division; nbits
 * need not be a power of two).  Independent probes, not two hashes
 * combined (double hashing): on a slice of 20,000 bits, as --max-groups
 * 2000 makes, double hashing measured 7.5e-5 against the 6.1e-5 a Bloom
 * filter of 14 probes has at half its bits set; these measure 5.9e-5.
 * The seed is the key's hash mixed once more, so that two keys whose
 * hashes differ by a multiple of the step share no stream. */
static uint64_t probe_bit(uint64_t h, unsigned j, uint64_t nbits)
{
	uint64_t x = mix(h + (j + 1) * 0x9e3779b97f4a7c15ull);

	return (uint64_t)(((unsigned __int128)x * nbits) >> 64);
}

void stat_bloom_init(struct stat_bloom *b, uint64_t first_cap)
{
	memset(b, 0, sizeof(*b));
	b->first_cap = first_cap ? first_cap : 1;
}

void stat_bloom_free(struct stat_bloom *b)
{
	for (size_t i = 0; i < b->nslices; i++)
		free(b->slice[i].bits);
	stat_bloom_init(b, b->first_cap);
}

/* Open slice i: first_cap << i keys, K0 + i probes, and the bits that
 * hold that many at half of them set, cap * k / ln 2 (where the rate of a
 * Bloom filter with k probes is lowest, 2^-k). */
static int open_slice(struct stat_bloom *b)
{
	unsigned i = (unsigned)b->nslices;
	struct stat_bloom_slice *s;
	double bits;

	if (i >= STAT_BLOOM_SLICES || b->first_cap > (UINT64_MAX >> i))
		return -ENOMEM;
	s = &b->slice[i];
	s->cap = b->first_cap << i;
	s->k = STAT_BLOOM_K0 + i;
	bits = ceil((double)s->cap * s->k / M_LN2 / 64) * 64;
	if (bits > (double)(SIZE_MAX / 2))
		return -ENOMEM;
	s->nbits = (uint64_t)bits;
	s->n = 0;
	s->bits = calloc((size_t)(s->nbits / 64), sizeof(uint64_t));
	if (!s->bits)
		return -ENOMEM;
	b->nslices++;
	return 0;
}

/* A slice opened early leaves the one before it short of its capacity:
 * its rate only lower, its bits a little wasted. */
int stat_bloom_reserve(struct stat_bloom *b, uint64_t n)
{
	const struct stat_bloom_slice *s = &b->slice[b->nslices ? b->nslices - 1 : 0];

	if (!b->nslices || s->cap - s->n < n)
		return open_slice(b);
	return 0;
}

int stat_bloom_add(struct stat_bloom *b, uint64_t key)
{
	struct stat_bloom_slice *s;
	uint64_t h = mix(key);
	int rc;

	if ((rc = stat_bloom_reserve(b, 1)) < 0)
		return rc;
	s = &b->slice[b->nslices - 1];
	for (unsigned j = 0; j < s->k; j++) {
		uint64_t bit = probe_bit(h, j, s->nbits);

		s->bits[bit / 64] |= 1ull << (bit % 64);
	}
	s->n++;
	b->keys++;
	return 0;
}

static bool slice_has(const struct stat_bloom_slice *s, uint64_t h)
{
	for (unsigned j = 0; j < s->k; j++) {
		uint64_t bit = probe_bit(h, j, s->nbits);

		if (!(s->bits[bit / 64] & (1ull << (bit % 64))))
			return false;
	}
	return true;
}

/* Newest slice first: the most recently folded keys are the likeliest to
 * come back.  A key not in a slice usually fails its first probe or two. */
bool stat_bloom_has(const struct stat_bloom *b, uint64_t key)
{
	uint64_t h = mix(key);

	for (size_t i = b->nslices; i-- > 0;)
		if (slice_has(&b->slice[i], h))
			return true;
	return false;
}

size_t stat_bloom_bytes(const struct stat_bloom *b)
{
	size_t bytes = 0;

	for (size_t i = 0; i < b->nslices; i++)
		bytes += (size_t)(b->slice[i].nbits / 8);
	return bytes;
}
