/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The records already read, by (run, seq) (see recseen.h). */
#include "recseen.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"

void recseen_init(struct recseen *s)
{
	memset(s, 0, sizeof(*s));
}

void recseen_free(struct recseen *s)
{
	for (size_t i = 0; i < s->nruns; i++) {
		for (size_t b = 0; b < s->runs[i].nblk; b++)
			free(s->runs[i].blk[b]);
		free(s->runs[i].blk);
	}
	free(s->runs);
	free(s->idx);
	recseen_init(s);
}

static size_t run_slot(const struct recseen *s, const char *run)
{
	size_t mask = s->idx_cap - 1;
	size_t i = (size_t)hash_bytes(HASH_SEED, run, REC_RUN_HEX) & mask;

	while (s->idx[i] &&
	       memcmp(s->runs[s->idx[i] - 1].run, run, REC_RUN_HEX) != 0)
		i = (i + 1) & mask;
	return i;
}

/* The index anew at cap slots (the runs are not moved). */
static int reindex(struct recseen *s, size_t cap)
{
	uint32_t *old = s->idx;

	s->idx = calloc(cap, sizeof(*s->idx));
	if (!s->idx) {
		s->idx = old;
		return -ENOMEM;
	}
	free(old);
	s->idx_cap = cap;
	for (size_t r = 0; r < s->nruns; r++)
		s->idx[run_slot(s, s->runs[r].run)] = (uint32_t)(r + 1);
	return 0;
}

/* The run named run, made if new; NULL when out of memory. */
static struct recseen_run *find_run(struct recseen *s, const char *run)
{
	size_t i;

	/* The records of one run come together: most look-ups end here. */
	if (s->last && memcmp(s->runs[s->last - 1].run, run, REC_RUN_HEX) == 0)
		return &s->runs[s->last - 1];
	if ((s->nruns + 1) * 2 > s->idx_cap &&
	    (s->nruns >= UINT32_MAX - 1 ||
	     reindex(s, s->idx_cap ? s->idx_cap * 2 : 64) < 0))
		return NULL;
	i = run_slot(s, run);
	if (!s->idx[i]) {
		if (s->nruns == s->cap) {
			size_t cap = s->cap ? s->cap * 2 : 8;
			struct recseen_run *nr = realloc(s->runs, cap * sizeof(*nr));

			if (!nr)
				return NULL;
			s->runs = nr;
			s->cap = cap;
		}
		memset(&s->runs[s->nruns], 0, sizeof(s->runs[0]));
		memcpy(s->runs[s->nruns].run, run, REC_RUN_HEX);
		s->idx[i] = (uint32_t)++s->nruns;
	}
	s->last = s->idx[i];
	return &s->runs[s->last - 1];
}

/* The block that holds seq's place: the last whose first span begins at
 * or before seq, or the first. */
static size_t block_of(const struct recseen_run *r, uint64_t seq)
{
	size_t lo = 1, hi = r->nblk;

	if (r->blk[r->nblk - 1]->s[0].lo <= seq)
		return r->nblk - 1;	/* past them all: the common case */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->blk[mid]->s[0].lo > seq)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo - 1;
}

/* In block b, the first span that begins past seq (b's n when none). */
static size_t span_after(const struct recseen_block *b, uint64_t seq)
{
	size_t lo = 0, hi = b->n;

	if (b->n && b->s[b->n - 1].lo <= seq)
		return b->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (b->s[mid].lo > seq)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* A new empty block of cap spans at place at of run r's blocks; NULL for
 * no memory. */
static struct recseen_block *block_new(struct recseen_run *r, size_t at,
				       size_t cap)
{
	struct recseen_block *b;

	if (r->nblk == r->capblk) {
		size_t c = r->capblk ? r->capblk * 2 : 4;
		struct recseen_block **nb = realloc(r->blk, c * sizeof(*nb));

		if (!nb)
			return NULL;
		r->blk = nb;
		r->capblk = c;
	}
	b = malloc(sizeof(*b) + cap * sizeof(b->s[0]));
	if (!b)
		return NULL;
	b->n = 0;
	b->cap = (uint32_t)cap;
	memmove(&r->blk[at + 1], &r->blk[at], (r->nblk - at) * sizeof(r->blk[0]));
	r->blk[at] = b;
	r->nblk++;
	return b;
}

/* Room for one more span in block *bi at *i: the block grown, or split in
 * two halves when it holds RECSEEN_BLOCK (bi and i then name the half
 * that takes the span).  -ENOMEM. */
static int block_room(struct recseen_run *r, size_t *bi, size_t *i)
{
	struct recseen_block *b = r->blk[*bi], *nb;
	uint32_t half;

	if (b->n < b->cap)
		return 0;
	if (b->cap < RECSEEN_BLOCK) {
		size_t cap = b->cap * 2 < RECSEEN_BLOCK ? b->cap * 2 : RECSEEN_BLOCK;

		nb = realloc(b, sizeof(*b) + cap * sizeof(b->s[0]));
		if (!nb)
			return -ENOMEM;
		nb->cap = (uint32_t)cap;
		r->blk[*bi] = nb;
		return 0;
	}
	if (!(nb = block_new(r, *bi + 1, RECSEEN_BLOCK)))
		return -ENOMEM;
	b = r->blk[*bi];
	/* Past its last span (seq rising, the common case): the full block
	 * stays full and the span opens the new one; else each half takes
	 * half the spans. */
	half = *i == b->n ? b->n : b->n / 2;
	memcpy(nb->s, &b->s[half], (b->n - half) * sizeof(b->s[0]));
	nb->n = b->n - half;
	if (*i > half || *i == b->n) {
		*i -= half;
		++*bi;
	}
	b->n = half;
	return 0;
}

/* Span i of block bi taken out (the block too when it empties). */
static void span_remove(struct recseen *s, struct recseen_run *r, size_t bi,
			size_t i)
{
	struct recseen_block *b = r->blk[bi];

	memmove(&b->s[i], &b->s[i + 1], (b->n - i - 1) * sizeof(b->s[0]));
	b->n--;
	s->spans--;
	if (b->n)
		return;
	free(b);
	memmove(&r->blk[bi], &r->blk[bi + 1], (r->nblk - bi - 1) * sizeof(r->blk[0]));
	r->nblk--;
}

/* A span [seq, seq] made at span i of block bi.  -ENOMEM. */
static int span_insert(struct recseen *s, struct recseen_run *r, size_t bi,
		       size_t i, uint64_t seq)
{
	struct recseen_block *b;

	if (!r->nblk && !block_new(r, 0, 4))
		return -ENOMEM;
	if (block_room(r, &bi, &i) < 0)
		return -ENOMEM;
	b = r->blk[bi];
	memmove(&b->s[i + 1], &b->s[i], (b->n - i) * sizeof(b->s[0]));
	b->s[i] = (struct recseen_span){ seq, seq };
	b->n++;
	s->spans++;
	return 0;
}

/* seq into run r's spans: 1 new, 0 read before, -ENOMEM.  The span
 * before seq's place is in its block (or there is none: seq is before
 * them all); the one after is the next in the block or the next block's
 * first. */
static int add_seq(struct recseen *s, struct recseen_run *r, uint64_t seq)
{
	size_t bi = r->nblk ? block_of(r, seq) : 0;
	size_t i = r->nblk ? span_after(r->blk[bi], seq) : 0;
	struct recseen_span *prev = i ? &r->blk[bi]->s[i - 1] : NULL;
	size_t nbi = r->nblk && i == r->blk[bi]->n ? bi + 1 : bi;
	size_t ni = nbi == bi ? i : 0;
	struct recseen_span *next = nbi < r->nblk ? &r->blk[nbi]->s[ni] : NULL;
	bool joins_prev = prev && prev->hi != UINT64_MAX && prev->hi + 1 == seq;
	bool joins_next = next && next->lo - 1 == seq;

	if (prev && prev->hi >= seq)
		return 0;
	if (joins_prev && joins_next) {
		/* The gap between two spans closes: one span. */
		prev->hi = next->hi;
		span_remove(s, r, nbi, ni);
	} else if (joins_prev) {
		prev->hi = seq;
	} else if (joins_next) {
		next->lo = seq;
	} else if (span_insert(s, r, bi, i, seq) < 0) {
		return -ENOMEM;
	}
	return 1;
}

int recseen_add(struct recseen *s, const struct rec_meta *m)
{
	struct recseen_run *r;
	int k;

	if ((m->has & (REC_META_RUN | REC_META_SEQ)) !=
	    (REC_META_RUN | REC_META_SEQ))
		return 1;	/* no name to know it by */
	if (!(r = find_run(s, m->run)))
		return -ENOMEM;
	if ((k = add_seq(s, r, m->seq)) == 0)
		s->repeats++;
	return k;
}

size_t recseen_bytes(const struct recseen *s)
{
	size_t b = s->cap * sizeof(*s->runs) + s->idx_cap * sizeof(*s->idx);

	for (size_t i = 0; i < s->nruns; i++) {
		const struct recseen_run *r = &s->runs[i];

		b += r->capblk * sizeof(*r->blk);
		for (size_t k = 0; k < r->nblk; k++)
			b += sizeof(*r->blk[k]) + r->blk[k]->cap * sizeof(r->blk[k]->s[0]);
	}
	return b;
}
