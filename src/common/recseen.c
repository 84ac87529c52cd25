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
	for (size_t i = 0; i < s->nruns; i++)
		free(s->runs[i].span);
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

/* The first span that begins past seq: n when none does. */
static size_t first_after(const struct recseen_run *r, uint64_t seq)
{
	size_t lo = 0, hi = r->n;

	if (r->n && r->span[r->n - 1].lo <= seq)
		return r->n;	/* past them all: the common case */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->span[mid].lo > seq)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* A span [seq, seq] made at i (spans from i on move up one). */
static int insert_span(struct recseen *s, struct recseen_run *r, size_t i,
		       uint64_t seq)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 4;
		struct recseen_span *ns = realloc(r->span, cap * sizeof(*ns));

		if (!ns)
			return -ENOMEM;
		r->span = ns;
		r->cap = cap;
	}
	memmove(&r->span[i + 1], &r->span[i], (r->n - i) * sizeof(r->span[0]));
	r->span[i] = (struct recseen_span){ seq, seq };
	r->n++;
	s->spans++;
	return 0;
}

/* seq into run r's spans: 1 new, 0 read before, -ENOMEM. */
static int add_seq(struct recseen *s, struct recseen_run *r, uint64_t seq)
{
	size_t i = first_after(r, seq);
	struct recseen_span *prev = i ? &r->span[i - 1] : NULL;
	bool joins_prev = prev && prev->hi != UINT64_MAX && prev->hi + 1 == seq;
	bool joins_next = i < r->n && r->span[i].lo - 1 == seq;

	if (prev && prev->hi >= seq)
		return 0;
	if (joins_prev && joins_next) {
		/* The gap between two spans closes: one span. */
		prev->hi = r->span[i].hi;
		memmove(&r->span[i], &r->span[i + 1],
			(r->n - i - 1) * sizeof(r->span[0]));
		r->n--;
		s->spans--;
	} else if (joins_prev) {
		prev->hi = seq;
	} else if (joins_next) {
		r->span[i].lo = seq;
	} else if (insert_span(s, r, i, seq) < 0) {
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

	for (size_t i = 0; i < s->nruns; i++)
		b += s->runs[i].cap * sizeof(*s->runs[i].span);
	return b;
}
