/* SPDX-License-Identifier: GPL-2.0-or-later */
/* FNV-1a over bytes, for the programs' hash tables (exitstat's groups,
 * exitsweep compare's rows).  Inline: a group's key is hashed per record. */
#ifndef COMMON_HASH_H
#define COMMON_HASH_H

#include <stddef.h>
#include <stdint.h>

#define HASH_SEED 1469598103934665603ull	/* FNV-1a's offset basis */

/* h, then the n bytes at p folded in. */
static inline uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h;
}

#endif
