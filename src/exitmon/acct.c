// SPDX-License-Identifier: GPL-2.0-or-later
/* The records' own metrics, counted per shard and merged (acct.h). */
#include "acct.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "hash.h"

const char *const acct_delay_names[ACCT_DELAYS] = {
	"cpu", "blkio", "swapin", "freepages", "thrashing", "compact",
	"wpcopy", "irq",
};

#define US 1000ull
#define MS 1000000ull
#define S 1000000000ull
const uint64_t acct_bucket_ns[ACCT_BUCKETS] = {
	1 * US, 2500, 5 * US, 10 * US, 25 * US, 50 * US, 100 * US, 250 * US,
	500 * US, 1 * MS, 2500 * US, 5 * MS, 10 * MS, 25 * MS, 50 * MS,
	100 * MS, 250 * MS, 500 * MS, 1 * S, 2500 * MS, 5 * S, 10 * S, 25 * S,
	50 * S, 100 * S,
};

/* --- one shard's counts --- */

/* from's sums added to to's (saturating) and from's zeroed. */
static void add_series(struct acct_series *to, struct acct_series *from,
			   bool *sat)
{
	unsigned k;

	to->exits += from->exits;
	to->cpu_ns = acct_sat_add(to->cpu_ns, from->cpu_ns, sat);
	for (k = 0; k < ACCT_DELAYS; k++)
		to->delay_ns[k] = acct_sat_add(to->delay_ns[k], from->delay_ns[k], sat);
	memset(from, 0, sizeof(*from));
}

static unsigned slots_for(unsigned entries)
{
	unsigned n = 16;

	while (n < 2 * entries)
		n *= 2;
	return n;
}

int acct_init(struct acct *a, unsigned max_shown)
{
	unsigned slots, b;

	memset(a, 0, sizeof(*a));
	a->max_shown = max_shown;
	a->cap = max_shown + ACCT_CANDIDATES;
	for (b = 0; b <= 64; b++) {	/* values of b bits: 2^(b-1) and up */
		uint64_t low = b ? 1ull << (b - 1) : 0;

		while (a->first[b] < ACCT_BUCKETS &&
		       acct_bucket_ns[a->first[b]] < low)
			a->first[b]++;
		if (b < 64)
			a->first[b + 1] = a->first[b];
	}
	slots = slots_for(a->cap);
	a->mask = slots - 1;
	a->e = calloc(a->cap, sizeof(*a->e));
	a->slot = calloc(slots, sizeof(*a->slot));
	if (!a->e || !a->slot) {
		acct_free(a);
		return -ENOMEM;
	}
	/* Keyed, so that nobody can name tasks to collide in every run. */
	if (getrandom(&a->seed, sizeof(a->seed), GRND_NONBLOCK) != sizeof(a->seed))
		a->seed = (uint64_t)time(NULL) ^ (uint64_t)(uintptr_t)a;
	a->seed ^= HASH_SEED;
	pthread_mutex_init(&a->lock, NULL);
	return 0;
}

void acct_free(struct acct *a)
{
	if (a->e && a->slot)
		pthread_mutex_destroy(&a->lock);
	free(a->e);
	free(a->slot);
	a->e = NULL;
	a->slot = NULL;
}

/* The slot of comm: its entry's, or the empty one where it would go (the
 * table is never more than half full, so there is one). */
static uint32_t *find(struct acct *a, const char *comm, uint8_t len)
{
	unsigned i = (unsigned)hash_bytes(a->seed, comm, len) & a->mask;

	for (;; i = (i + 1) & a->mask) {
		const struct acct_comm *e;

		if (!a->slot[i])
			return &a->slot[i];
		e = &a->e[a->slot[i] - 1];
		if (e->len == len && !memcmp(e->comm, comm, len))
			return &a->slot[i];
	}
}

static struct acct_comm *append(struct acct *a, uint32_t *slot,
				const char *comm, uint8_t len)
{
	struct acct_comm *e = &a->e[a->n];

	memset(e, 0, sizeof(*e));
	e->len = len;
	memcpy(e->comm, comm, len);
	*slot = ++a->n;
	return e;
}

/* Empty slot i of the index without breaking a probe run: the entries
 * after it that probed past i move back (backward-shift deletion). */
static void unslot(struct acct *a, unsigned i)
{
	unsigned j = i;

	a->slot[i] = 0;
	for (;;) {
		unsigned home;
		const struct acct_comm *e;

		j = (j + 1) & a->mask;
		if (!a->slot[j])
			return;
		e = &a->e[a->slot[j] - 1];
		home = (unsigned)hash_bytes(a->seed, e->comm, e->len) & a->mask;
		/* j's entry may move to i when i lies on its way from home */
		if (((j - home) & a->mask) >= ((j - i) & a->mask)) {
			a->slot[i] = a->slot[j];
			a->slot[j] = 0;
			i = j;
		}
	}
}

/* The candidate with the least CPU (then exits): the one a newcomer
 * takes the place of when the table is full.  A scan, only then. */
static struct acct_comm *lightest(struct acct *a)
{
	struct acct_comm *m = &a->e[a->shown];

	for (unsigned i = a->shown + 1; i < a->n; i++)
		if (a->e[i].s.cpu_ns < m->s.cpu_ns ||
		    (a->e[i].s.cpu_ns == m->s.cpu_ns && a->e[i].s.exits < m->s.exits))
			m = &a->e[i];
	return m;
}

/* A full table: the lightest candidate's sums go to untracked (they were
 * never shown) and comm takes its entry, so that a flood of light names
 * cannot keep a heavy one out of the interval's ranking. */
static struct acct_series *evict(struct acct *a, const char *comm, uint8_t len)
{
	struct acct_comm *e = lightest(a);
	uint32_t *slot;

	a->full = true;
	add_series(&a->untracked, &e->s, &a->saturated);
	unslot(a, (unsigned)(find(a, e->comm, e->len) - a->slot));
	slot = find(a, comm, len);
	*slot = (uint32_t)(e - a->e) + 1;
	e->len = len;
	memcpy(e->comm, comm, len);
	return &e->s;
}

/* The series a record of comm adds to. */
static struct acct_series *series_of(struct acct *a, const char *comm,
				     uint8_t len)
{
	uint32_t *slot = find(a, comm, len);

	if (*slot)
		return &a->e[*slot - 1].s;
	if (a->n >= a->cap)
		return a->n > a->shown ? evict(a, comm, len) : &a->untracked;
	return &append(a, slot, comm, len)->s;
}

/* Bits of ns: 0 for 0, else floor(log2) + 1. */
static unsigned bits(uint64_t ns)
{
	return ns ? 64u - (unsigned)__builtin_clzll(ns) : 0u;
}

/* The bucket of ns (the first bound >= ns) in one compare: from the first
 * bound that can hold a value of its bit length.  Consecutive bounds are at
 * least twice apart, so the one after that is above any such value. */
static inline __attribute__((always_inline)) void
observe(struct acct *a, struct acct_hist *h, uint64_t ns)
{
	unsigned i = a->first[bits(ns)];

	h->sum_ns += ns;	/* acct_add checks that it cannot wrap */
	if (i < ACCT_BUCKETS && ns > acct_bucket_ns[i])
		i++;
	h->n[i]++;
}

/* The delays of struct taskstats, by their constant fields (so that
 * view_get reads 8 bytes straight). */
#define ACCT_DELAY_FIELDS(X) \
	X(ACCT_D_CPU, F_CPU_DELAY_TOTAL) \
	X(ACCT_D_BLKIO, F_BLKIO_DELAY_TOTAL) \
	X(ACCT_D_SWAPIN, F_SWAPIN_DELAY_TOTAL) \
	X(ACCT_D_FREEPAGES, F_FREEPAGES_DELAY_TOTAL) \
	X(ACCT_D_THRASHING, F_THRASHING_DELAY_TOTAL) \
	X(ACCT_D_COMPACT, F_COMPACT_DELAY_TOTAL) \
	X(ACCT_D_WPCOPY, F_WPCOPY_DELAY_TOTAL) \
	X(ACCT_D_IRQ, F_IRQ_DELAY_TOTAL)

/* sum, which acct_add raised by plain (wrapping) `by`, raised by `to`
 * saturating instead. */
static void resat(struct acct *a, uint64_t *sum, uint64_t by, uint64_t to)
{
	*sum = acct_sat_add(*sum - by, to, &a->saturated);
}

/* The rare record that might have wrapped a sum (a->spent, acct.h): its
 * plain additions undone and made saturating; every later one takes this
 * way too, until the merge. */
static __attribute__((noinline)) void
saturate_record(struct acct *a, struct acct_series *s,
		const struct exit_view *v, bool implausible, uint64_t cpu_plain)
{
	a->spent = UINT64_MAX;
	if (view_has(v, F_UTIME) && view_has(v, F_STIME)) {
		uint64_t us = acct_sat_add(view_get(v, F_UTIME), view_get(v, F_STIME),
					   &a->saturated), cpu;

		if (__builtin_mul_overflow(us, US, &cpu)) {
			a->saturated = true;
			cpu = UINT64_MAX;
		}
		resat(a, &s->cpu_ns, cpu_plain, cpu);
		resat(a, &a->cpu.sum_ns, cpu_plain, cpu);
	}
	if (implausible)
		return;
#define RESAT(k, f) \
	if (view_has(v, f)) { \
		resat(a, &s->delay_ns[k], view_get(v, f), view_get(v, f)); \
		resat(a, &a->delay[k].sum_ns, view_get(v, f), view_get(v, f)); \
	}
	ACCT_DELAY_FIELDS(RESAT)
#undef RESAT
}

void acct_add(struct acct *a, const struct exit_view *v, bool implausible)
{
	struct acct_series *s = series_of(a, v->comm, v->comm_len);
	uint64_t any = 0, cpu = 0, wide = 0;	/* any: the values ORed */

	/* Every struct version has ac_exitcode in its header; the check only
	 * keeps a view's offsets honest. */
	a->outcome[exitcode_outcome(view_has(v, F_EXITCODE) ?
				    view_get(v, F_EXITCODE) : 0)]++;
	s->exits++;
	if (view_has(v, F_UTIME) && view_has(v, F_STIME)) {
		uint64_t u = view_get(v, F_UTIME), st = view_get(v, F_STIME);

		wide = (u | st) >> 53;	/* (u + st) * 1000 might not fit */
		cpu = (u + st) * US;
		s->cpu_ns += cpu;
		any |= cpu;
		observe(a, &a->cpu, cpu);
	}
	/* A delay the record's struct version does not have is not counted
	 * (no zero is observed for it). */
#define DELAY(k, f) \
	if (view_has(v, f)) { \
		uint64_t d = view_get(v, f); \
		s->delay_ns[k] += d; \
		any |= d; \
		observe(a, &a->delay[k], d); \
	}
	if (!implausible) {
		ACCT_DELAY_FIELDS(DELAY)
	}
#undef DELAY
	/* No sum of the shard is above a->spent, and none grew by more than
	 * `any`: while their total fits, no plain addition wrapped. */
	if (__builtin_expect(wide || __builtin_add_overflow(a->spent, any, &a->spent), 0))
		saturate_record(a, s, v, implausible, cpu);
}

/* --- the merge, on the main thread --- */

int acct_sum_init(struct acct_sum *s, unsigned max_shown, unsigned shards)
{
	memset(s, 0, sizeof(*s));
	s->max_shown = max_shown;
	s->scratch_cap = (size_t)shards * (max_shown + ACCT_CANDIDATES);
	s->heavy_cap = max_shown + ACCT_CANDIDATES;
	s->shown = calloc(max_shown ? max_shown : 1, sizeof(*s->shown));
	s->shown_w = calloc(max_shown ? max_shown : 1, sizeof(*s->shown_w));
	s->retired = calloc(max_shown ? max_shown : 1, sizeof(*s->retired));
	s->heavy = calloc(s->heavy_cap, sizeof(*s->heavy));
	s->order = calloc(s->heavy_cap, sizeof(*s->order));
	s->fresh = calloc(s->scratch_cap ? s->scratch_cap : 1, sizeof(*s->fresh));
	s->scratch = calloc(s->scratch_cap ? s->scratch_cap : 1,
			    sizeof(*s->scratch));
	if (!s->shown || !s->shown_w || !s->retired || !s->heavy || !s->order ||
	    !s->fresh || !s->scratch) {
		acct_sum_free(s);
		return -ENOMEM;
	}
	return 0;
}

void acct_sum_free(struct acct_sum *s)
{
	free(s->shown);
	free(s->shown_w);
	free(s->retired);
	free(s->heavy);
	free(s->order);
	free(s->fresh);
	free(s->scratch);
	s->shown = NULL;
	s->shown_w = NULL;
	s->retired = NULL;
	s->heavy = NULL;
	s->order = NULL;
	s->fresh = NULL;
	s->scratch = NULL;
}


static void add_hist(struct acct_hist *to, struct acct_hist *from, bool *sat)
{
	unsigned b;

	for (b = 0; b <= ACCT_BUCKETS; b++)
		to->n[b] += from->n[b];
	to->sum_ns = acct_sat_add(to->sum_ns, from->sum_ns, sat);
	memset(from, 0, sizeof(*from));
}

/* Everything of a but its candidates into s; the candidates appended to
 * s's scratch and dropped from a. */
static void drain(struct acct_sum *s, struct acct *a, size_t *ns)
{
	unsigned i, k;

	for (k = 0; k < EXITCODE__COUNT; k++) {
		s->outcome[k] += a->outcome[k];
		a->outcome[k] = 0;
	}
	add_hist(&s->cpu, &a->cpu, &s->saturated);
	for (k = 0; k < ACCT_DELAYS; k++)
		add_hist(&s->delay[k], &a->delay[k], &s->saturated);
	add_series(&s->other, &a->untracked, &s->saturated);
	for (i = 0; i < a->shown; i++) {
		s->shown_w[i] = acct_sat_add(s->shown_w[i], a->e[i].s.cpu_ns,
					     &s->saturated);
		add_series(&s->shown[i].s, &a->e[i].s, &s->saturated);
	}
	s->saturated |= a->saturated;
	a->saturated = false;
	a->spent = 0;
	for (i = a->shown; i < a->n && *ns < s->scratch_cap; i++)
		s->scratch[(*ns)++] = a->e[i];
	a->n = a->shown;
	a->full = false;
}

static int by_comm(const void *x, const void *y)
{
	const struct acct_comm *a = x, *b = y;
	int c = memcmp(a->comm, b->comm, a->len < b->len ? a->len : b->len);

	return c ? c : (int)a->len - (int)b->len;
}

/* Heaviest first: CPU over the run, then this interval's, then exits,
 * then the name (a stable choice). */
static int by_rank(const void *x, const void *y)
{
	const struct acct_comm *a = x, *b = y;

	if (a->rank != b->rank)
		return a->rank > b->rank ? -1 : 1;
	if (a->s.cpu_ns != b->s.cpu_ns)
		return a->s.cpu_ns > b->s.cpu_ns ? -1 : 1;
	if (a->s.exits != b->s.exits)
		return a->s.exits > b->s.exits ? -1 : 1;
	return by_comm(x, y);
}

/* The scratch's commands, one entry each with their sums added up. */
static size_t combine(struct acct_comm *c, size_t n, bool *sat)
{
	size_t i, m = 0;

	qsort(c, n, sizeof(*c), by_comm);
	for (i = 0; i < n; i++) {
		if (m && by_comm(&c[m - 1], &c[i]) == 0)
			add_series(&c[m - 1].s, &c[i].s, sat);
		else
			c[m++] = c[i];
	}
	return m;
}

/* The slot index of a's shown entries alone. */
static void reindex(struct acct *a)
{
	unsigned i;

	memset(a->slot, 0, ((size_t)a->mask + 1) * sizeof(*a->slot));
	for (i = 0; i < a->n; i++)
		*find(a, a->e[i].comm, a->e[i].len) = i + 1;
}

/* --- the run-long ranking (acct.h: which commands are shown) --- */

static bool same(const char *comm, uint8_t len, const char *c2, uint8_t len2)
{
	return len == len2 && !memcmp(comm, c2, len);
}

static struct acct_heavy *heavy_find(struct acct_sum *s, const char *comm,
				     uint8_t len)
{
	for (unsigned i = 0; i < s->n_heavy; i++)
		if (same(comm, len, s->heavy[i].comm, s->heavy[i].len))
			return &s->heavy[i];
	return NULL;
}

/* cpu more for comm; the floor of its CPU over the run.  Full: comm takes
 * the place of the least counted, inheriting its count as err (space
 * saving: a command whose CPU is more than the run's total / heavy_cap is
 * always held, whatever the number of others). */
static uint64_t heavy_add(struct acct_sum *s, const char *comm, uint8_t len,
			  uint64_t cpu)
{
	struct acct_heavy *h = heavy_find(s, comm, len);

	if (!h && s->n_heavy < s->heavy_cap) {
		h = memset(&s->heavy[s->n_heavy++], 0, sizeof(*h));
	} else if (!h) {
		h = &s->heavy[0];
		for (unsigned i = 1; i < s->n_heavy; i++)
			if (s->heavy[i].w < h->w)
				h = &s->heavy[i];
		h->err = h->w;
	}
	if (!same(comm, len, h->comm, h->len)) {
		h->len = len;
		memcpy(h->comm, comm, len);
	}
	h->w = acct_sat_add(h->w, cpu, &s->saturated);
	return h->w - h->err;
}

static void heavy_drop(struct acct_sum *s, const char *comm, uint8_t len)
{
	struct acct_heavy *h = heavy_find(s, comm, len);

	if (h)
		*h = s->heavy[--s->n_heavy];
}

static int heavy_by_comm(const void *x, const void *y)
{
	const struct acct_heavy *a = x, *b = y;
	int c = memcmp(a->comm, b->comm, a->len < b->len ? a->len : b->len);

	return c ? c : (int)a->len - (int)b->len;
}

/* The ranking's places as a min-heap by count (order[0]: the least),
 * entry k's count now w: sifted down to its place. */
static void sift_down(struct acct_order *o, size_t n, size_t k)
{
	for (;;) {
		size_t m = k, l = 2 * k + 1, r = l + 1;
		struct acct_order t;

		if (l < n && o[l].w < o[m].w)
			m = l;
		if (r < n && o[r].w < o[m].w)
			m = r;
		if (m == k)
			return;
		t = o[k];
		o[k] = o[m];
		o[m] = t;
		k = m;
	}
}

/* Candidate c into the ranking at h (a place new to it: err is what h
 * counted before, inherited). */
static void heavy_take(struct acct_sum *s, struct acct_heavy *h,
		       struct acct_comm *c)
{
	h->err = h->w;
	h->len = c->len;
	memcpy(h->comm, c->comm, c->len);
	h->w = acct_sat_add(h->w, c->s.cpu_ns, &s->saturated);
	c->rank = h->w - h->err;
}

/* The merge's candidates counted into the ranking, each given its rank:
 * found by a binary search of the ranking sorted by name; the new ones
 * then take free places, else the place of the least counted, from a
 * heap (not a scan per name: a flood's merge stays O((n + candidates)
 * log n), under the shards' locks). */
static void rank_candidates(struct acct_sum *s, size_t nc)
{
	size_t j, j2, nf = 0, no = 0;

	qsort(s->heavy, s->n_heavy, sizeof(*s->heavy), heavy_by_comm);
	for (j = 0; j < nc; j++) {
		struct acct_comm *c = &s->scratch[j];
		struct acct_heavy key, *h;

		key.len = c->len;
		memcpy(key.comm, c->comm, c->len);
		h = bsearch(&key, s->heavy, s->n_heavy, sizeof(*s->heavy),
			    heavy_by_comm);
		if (!h) {
			s->fresh[nf++] = (uint32_t)j;
			continue;
		}
		h->w = acct_sat_add(h->w, c->s.cpu_ns, &s->saturated);
		c->rank = h->w - h->err;
	}
	for (j = 0; j < nf; j++) {
		struct acct_comm *c = &s->scratch[s->fresh[j]];

		if (s->n_heavy < s->heavy_cap) {
			heavy_take(s, memset(&s->heavy[s->n_heavy++], 0,
					     sizeof(*s->heavy)), c);
			continue;
		}
		if (!no) {	/* the heap, once a merge, when first needed */
			for (no = 0; no < s->n_heavy; no++)
				s->order[no] = (struct acct_order){ s->heavy[no].w,
								    (uint32_t)no };
			for (j2 = no / 2; j2-- > 0;)
				sift_down(s->order, no, j2);
		}
		heavy_take(s, &s->heavy[s->order[0].i], c);
		s->order[0].w = s->heavy[s->order[0].i].w;
		sift_down(s->order, no, 0);
	}
}

/* Shown i's series kept, frozen, among the retired; the lightest retired
 * folded into other when they are max_shown already (other grows by what
 * it loses: every series still monotonic, their sum still the total). */
static void retire(struct acct_sum *s, unsigned i)
{
	struct acct_comm *r = &s->retired[s->n_retired];

	if (s->n_retired == s->max_shown) {
		r = &s->retired[0];
		for (unsigned k = 1; k < s->n_retired; k++)
			if (s->retired[k].s.cpu_ns < r->s.cpu_ns)
				r = &s->retired[k];
		add_series(&s->other, &r->s, &s->saturated);
		s->folded++;
	} else {
		s->n_retired++;
	}
	*r = s->shown[i];
	/* it may come back: ranked from what it had */
	heavy_add(s, r->comm, r->len, s->shown_w[i]);
}

/* c with its series as retired, if it was: the two added up, and its
 * place among the retired freed (before another is retired into it). */
static void revive(struct acct_sum *s, struct acct_comm *c)
{
	for (unsigned k = 0; k < s->n_retired; k++)
		if (same(c->comm, c->len, s->retired[k].comm, s->retired[k].len)) {
			add_series(&s->retired[k].s, &c->s, &s->saturated);
			c->s = s->retired[k].s;
			s->retired[k] = s->retired[--s->n_retired];
			return;
		}
}

/* c shown from now on at index i of the sum and of every shard (a new
 * index when i == n_shown). */
static void show(struct acct_sum *s, struct acct *const *a, unsigned n,
		 const struct acct_comm *c, unsigned i)
{
	s->shown[i] = *c;
	s->shown_w[i] = c->rank;
	heavy_drop(s, c->comm, c->len);
	if (i == s->n_shown)
		s->n_shown++;
	for (unsigned k = 0; k < n; k++) {
		uint32_t slot;	/* reindexed after the merge */

		if (i == a[k]->shown) {
			append(a[k], &slot, c->comm, c->len);
			a[k]->shown = a[k]->n;
		} else {
			a[k]->e[i].len = c->len;
			memcpy(a[k]->e[i].comm, c->comm, c->len);
		}
	}
}

/* The shown command of least CPU over the run: the one a challenger of
 * more than twice its CPU replaces. */
static unsigned lightest_shown(const struct acct_sum *s)
{
	unsigned m = 0;

	for (unsigned i = 1; i < s->n_shown; i++)
		if (s->shown_w[i] < s->shown_w[m])
			m = i;
	return m;
}

/* Where candidate c goes: a free index, the lightest's (c ranks above
 * twice its CPU: the margin keeps two close commands from trading places
 * at every write), or none (-1: to other). */
static int place_of(const struct acct_sum *s, const struct acct_comm *c)
{
	unsigned m;

	if (s->n_shown < s->max_shown)
		return (int)s->n_shown;
	if (!s->n_shown)
		return -1;
	m = lightest_shown(s);
	return c->rank > s->shown_w[m] && c->rank - s->shown_w[m] > s->shown_w[m] ?
	       (int)m : -1;
}

void acct_merge(struct acct_sum *s, struct acct *const *a, unsigned n,
		bool locked, bool promote)
{
	size_t ns = 0, nc, j;
	unsigned i;

	for (i = 0; locked && i < n; i++)
		pthread_mutex_lock(&a[i]->lock);
	for (i = 0; i < n; i++)
		drain(s, a[i], &ns);
	nc = combine(s->scratch, ns, &s->saturated);
	rank_candidates(s, nc);
	qsort(s->scratch, nc, sizeof(*s->scratch), by_rank);
	for (j = 0; j < nc; j++) {
		struct acct_comm *c = &s->scratch[j];
		int at = promote ? place_of(s, c) : -1;

		if (at < 0) {
			add_series(&s->other, &c->s, &s->saturated);
			continue;
		}
		revive(s, c);
		if ((unsigned)at < s->n_shown)
			retire(s, (unsigned)at);
		show(s, a, n, c, (unsigned)at);
	}
	for (i = 0; i < n; i++)
		reindex(a[i]);
	for (i = n; locked && i-- > 0;)
		pthread_mutex_unlock(&a[i]->lock);
}
