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

/* The series a record of comm adds to. */
static struct acct_series *series_of(struct acct *a, const char *comm,
				     uint8_t len)
{
	uint32_t *slot = find(a, comm, len);

	if (*slot)
		return &a->e[*slot - 1].s;
	/* Once N are shown no other command can be: straight to other. */
	if (a->shown >= a->max_shown)
		return &a->untracked;
	if (a->n >= a->cap) {
		a->full = true;
		return &a->untracked;
	}
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

	h->sum_ns = acct_sat_add(h->sum_ns, ns, &a->saturated);
	if (i < ACCT_BUCKETS && ns > acct_bucket_ns[i])
		i++;
	h->n[i]++;
}

void acct_add(struct acct *a, const struct exit_view *v, bool implausible)
{
	struct acct_series *s = series_of(a, v->comm, v->comm_len);

	/* Every struct version has ac_exitcode in its header; the check only
	 * keeps a view's offsets honest. */
	a->outcome[exitcode_outcome(view_has(v, F_EXITCODE) ?
				    view_get(v, F_EXITCODE) : 0)]++;
	s->exits++;
	if (view_has(v, F_UTIME) && view_has(v, F_STIME)) {
		uint64_t us = acct_sat_add(view_get(v, F_UTIME), view_get(v, F_STIME),
					   &a->saturated), cpu;

		if (__builtin_mul_overflow(us, US, &cpu)) {
			a->saturated = true;
			cpu = UINT64_MAX;
		}
		s->cpu_ns = acct_sat_add(s->cpu_ns, cpu, &a->saturated);
		observe(a, &a->cpu, cpu);
	}
	if (implausible)
		return;
	/* A delay the record's struct version does not have is not counted
	 * (no zero is observed for it).  Each by its constant field, so that
	 * view_get reads 8 bytes straight. */
#define DELAY(k, f) \
	if (view_has(v, f)) { \
		uint64_t d = view_get(v, f); \
		s->delay_ns[k] = acct_sat_add(s->delay_ns[k], d, &a->saturated); \
		observe(a, &a->delay[k], d); \
	}
	DELAY(ACCT_D_CPU, F_CPU_DELAY_TOTAL)
	DELAY(ACCT_D_BLKIO, F_BLKIO_DELAY_TOTAL)
	DELAY(ACCT_D_SWAPIN, F_SWAPIN_DELAY_TOTAL)
	DELAY(ACCT_D_FREEPAGES, F_FREEPAGES_DELAY_TOTAL)
	DELAY(ACCT_D_THRASHING, F_THRASHING_DELAY_TOTAL)
	DELAY(ACCT_D_COMPACT, F_COMPACT_DELAY_TOTAL)
	DELAY(ACCT_D_WPCOPY, F_WPCOPY_DELAY_TOTAL)
	DELAY(ACCT_D_IRQ, F_IRQ_DELAY_TOTAL)
#undef DELAY
}

/* --- the merge, on the main thread --- */

int acct_sum_init(struct acct_sum *s, unsigned max_shown, unsigned shards)
{
	memset(s, 0, sizeof(*s));
	s->max_shown = max_shown;
	s->scratch_cap = (size_t)shards * (max_shown + ACCT_CANDIDATES);
	s->shown = calloc(max_shown ? max_shown : 1, sizeof(*s->shown));
	s->scratch = calloc(s->scratch_cap ? s->scratch_cap : 1,
			    sizeof(*s->scratch));
	if (!s->shown || !s->scratch) {
		acct_sum_free(s);
		return -ENOMEM;
	}
	return 0;
}

void acct_sum_free(struct acct_sum *s)
{
	free(s->shown);
	free(s->scratch);
	s->shown = NULL;
	s->scratch = NULL;
}

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
	for (i = 0; i < a->shown; i++)
		add_series(&s->shown[i].s, &a->e[i].s, &s->saturated);
	s->saturated |= a->saturated;
	a->saturated = false;
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

/* Heaviest first: CPU, then exits, then the name (a stable choice). */
static int by_cpu(const void *x, const void *y)
{
	const struct acct_comm *a = x, *b = y;

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
	qsort(s->scratch, nc, sizeof(*s->scratch), by_cpu);
	for (j = 0; j < nc; j++) {
		struct acct_comm *c = &s->scratch[j];

		if (!promote || s->n_shown >= s->max_shown) {
			add_series(&s->other, &c->s, &s->saturated);
			continue;
		}
		/* Shown from now on, in every shard, at the same index. */
		s->shown[s->n_shown++] = *c;
		for (i = 0; i < n; i++) {
			uint32_t slot;	/* reindexed below */

			append(a[i], &slot, c->comm, c->len);
			a[i]->shown = a[i]->n;
		}
	}
	for (i = 0; i < n; i++)
		reindex(a[i]);
	for (i = n; locked && i-- > 0;)
		pthread_mutex_unlock(&a[i]->lock);
}
