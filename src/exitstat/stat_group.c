// SPDX-License-Identifier: GPL-2.0-or-later
/* Grouping and the statistics of a group (see stat_group.h). */
#include "stat_group.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"

static const char *const stat_names[S__COUNT] = {
	"exits", "cpu_us", "cpu_run_virtual_ns", "elapsed_us",
	"cpu_delay_ns", "cpu_delay_avg_ns", "cpu_delay_max_ns",
	"blkio_delay_ns", "blkio_delay_avg_ns", "blkio_delay_max_ns",
	"swapin_delay_ns", "swapin_delay_avg_ns", "swapin_delay_max_ns",
	"read_bytes", "write_bytes", "hiwater_rss_kb", "implausible",
};

const char *stat_group_stat_name(enum stat_id s)
{
	return stat_names[s];
}

int stat_group_stat_from_name(const char *name, enum stat_id *out)
{
	for (int s = 0; s < S__COUNT; s++) {
		if (strcmp(name, stat_names[s]) == 0) {
			*out = (enum stat_id)s;
			return 0;
		}
	}
	return -EINVAL;
}

static void sat_add(uint64_t *sum, uint64_t v, uint8_t *flags)
{
	if (__builtin_add_overflow(*sum, v, sum)) {
		*sum = UINT64_MAX;
		*flags |= G_SATURATED;
	}
}

static void sat_max(uint64_t *m, uint64_t v)
{
	if (v > *m)
		*m = v;
}

int stat_group_init(struct groups *g, enum group_by by, size_t max, enum stat_id fold_by)
{
	memset(g, 0, sizeof(*g));
	if (max < 1 || max >= UINT32_MAX)
		return -EINVAL;
	g->by = by;
	g->max = max;
	g->fold_by = fold_by;
	g->cap = 1024;
	/* Sized for one fold: the first slice opens when the first fold
	 * puts in its keys, and no slice is made for fewer than a fold's. */
	stat_bloom_init(&g->folded_keys, max - max / 2);
	g->idx = calloc(g->cap, sizeof(*g->idx));
	return g->idx ? 0 : -ENOMEM;
}

void stat_group_free(struct groups *g)
{
	for (size_t i = 0; i < g->nchunks; i++)
		free(g->chunk[i]);
	free(g->chunk);
	free(g->idx);
	stat_bloom_free(&g->folded_keys);
	g->chunk = NULL;
	g->idx = NULL;
	g->nchunks = g->n = 0;
}

struct group *stat_group_at(const struct groups *g, size_t i)
{
	return &g->chunk[i / GROUP_CHUNK][i % GROUP_CHUNK];
}

static void make_key(enum group_by by, const struct exit_record *r, struct gkey *k)
{
	memset(k, 0, sizeof(*k));
	switch (by) {
	case BY_COMM:
		k->len = r->comm_len;
		memcpy(k->comm, r->comm, r->comm_len);
		break;
	case BY_UID:	/* unknown is not root */
		k->a = rec_has(r, F_UID) ? rec_get(r, F_UID) : STAT_GROUP_UID_UNKNOWN;
		break;
	case BY_TGID: k->a = rec_has(r, F_TGID) ? rec_get(r, F_TGID) : r->id; break;
	case BY_EXE:
		k->a = rec_get(r, F_EXE_DEV);
		k->b = rec_get(r, F_EXE_INODE);
		break;
	}
}

static uint64_t key_hash(const struct gkey *k)
{
	uint64_t h = hash_bytes(HASH_SEED ^ k->a ^ (k->b * 0x9e3779b97f4a7c15ull),
				k->comm, k->len);

	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	return h ^ (h >> 32);
}

static bool key_eq(const struct gkey *x, const struct gkey *y)
{
	return x->a == y->a && x->b == y->b && x->len == y->len &&
	       memcmp(x->comm, y->comm, x->len) == 0;
}

/* The index slot of k: the one holding it, or the empty one it would go to. */
static uint32_t *slot(const struct groups *g, const struct gkey *k)
{
	size_t i = key_hash(k) & (g->cap - 1);

	while (g->idx[i] && !key_eq(&stat_group_at(g, g->idx[i] - 1)->key, k))
		i = (i + 1) & (g->cap - 1);
	return &g->idx[i];
}

static int reindex(struct groups *g, size_t cap)
{
	uint32_t *idx = calloc(cap, sizeof(*idx));

	if (!idx)
		return -ENOMEM;
	free(g->idx);
	g->idx = idx;
	g->cap = cap;
	for (size_t i = 0; i < g->n; i++)
		*slot(g, &stat_group_at(g, i)->key) = (uint32_t)(i + 1);
	return 0;
}

/* ---- folding ---- */

static void merge(struct group *into, const struct group *gr)
{
	sat_add(&into->exits, gr->exits, &into->flags);
	sat_add(&into->cpu_us, gr->cpu_us, &into->flags);
	sat_add(&into->cpu_run_ns, gr->cpu_run_ns, &into->flags);
	sat_add(&into->elapsed_us, gr->elapsed_us, &into->flags);
	sat_add(&into->implausible, gr->implausible, &into->flags);
	sat_add(&into->read_bytes, gr->read_bytes, &into->flags);
	sat_add(&into->write_bytes, gr->write_bytes, &into->flags);
	sat_max(&into->rss_kb, gr->rss_kb);
	for (int k = 0; k < 3; k++) {
		sat_add(&into->delay[k], gr->delay[k], &into->flags);
		sat_add(&into->count[k], gr->count[k], &into->flags);
		sat_max(&into->max[k], gr->max[k]);
	}
	into->flags |= gr->flags & (G_SATURATED | 7 * G_HAVE_MAX);
}

/* The table is full: the smaller half by fold_by (ties by key, as the
 * output sorts; the larger half under keep_smallest) goes into other, the
 * rest moves down and is indexed anew. */
static int fold_half(struct groups *g)
{
	struct group **v = stat_group_sorted(g, g->fold_by, g->keep_smallest);
	size_t keep = g->max / 2, i, j = 0;

	/* Room in the filter first: a fold that stopped half way would
	 * leave groups neither held nor in other. */
	if (!v || stat_bloom_reserve(&g->folded_keys, g->n - keep) < 0) {
		free(v);
		return -ENOMEM;
	}
	for (i = keep; i < g->n; i++) {
		/* A partial group's key already tests as folded, and stays so
		 * (a Bloom filter only gains bits): not put in twice. */
		if (!(v[i]->flags & G_PARTIAL))
			stat_bloom_add(&g->folded_keys, key_hash(&v[i]->key));
		merge(&g->other, v[i]);
		v[i]->exits = 0;	/* marks it folded: every group has an exit */
		g->folded++;
	}
	free(v);
	for (i = 0; i < g->n; i++) {
		struct group *gr = stat_group_at(g, i);

		if (!gr->exits)
			continue;
		if (i != j)
			*stat_group_at(g, j) = *gr;
		j++;
	}
	g->n = j;
	return reindex(g, g->cap);
}

static int add_chunk(struct groups *g)
{
	struct group **c = realloc(g->chunk, (g->nchunks + 1) * sizeof(*c));

	if (!c)
		return -ENOMEM;
	g->chunk = c;
	c[g->nchunks] = malloc(GROUP_CHUNK * sizeof(struct group));
	if (!c[g->nchunks])
		return -ENOMEM;
	g->nchunks++;
	return 0;
}

/* The group of key k, made (and the table folded or grown) if need be. */
static struct group *find_or_make(struct groups *g, const struct gkey *k)
{
	uint32_t *s = slot(g, k);
	struct group *gr;

	if (*s)
		return stat_group_at(g, *s - 1);
	if (g->n >= g->max) {
		if (fold_half(g) < 0)
			return NULL;
		s = slot(g, k);
	}
	if ((g->n + 1) * 2 > g->cap) {
		if (reindex(g, g->cap * 2) < 0)
			return NULL;
		s = slot(g, k);
	}
	if (g->n == g->nchunks * GROUP_CHUNK && add_chunk(g) < 0)
		return NULL;
	gr = stat_group_at(g, g->n);
	memset(gr, 0, sizeof(*gr));
	gr->key = *k;
	if (g->folded) {
		g->tested++;
		if (stat_bloom_has(&g->folded_keys, key_hash(k)))
			gr->flags |= G_PARTIAL;
	}
	*s = (uint32_t)++g->n;
	return gr;
}

static const enum rec_field delay_f[3][3] = {
	{ F_CPU_DELAY_TOTAL, F_CPU_COUNT, F_CPU_DELAY_MAX },
	{ F_BLKIO_DELAY_TOTAL, F_BLKIO_COUNT, F_BLKIO_DELAY_MAX },
	{ F_SWAPIN_DELAY_TOTAL, F_SWAPIN_COUNT, F_SWAPIN_DELAY_MAX },
};

/* Records with a wait longer than their life (record_implausible, the
 * collector's rule) are kept out of every delay figure and counted. */
static void fold(struct group *gr, const struct exit_record *r, bool implausible)
{
	uint64_t cpu = rec_get(r, F_UTIME);

	if (__builtin_add_overflow(cpu, rec_get(r, F_STIME), &cpu)) {
		cpu = UINT64_MAX;
		gr->flags |= G_SATURATED;
	}
	sat_add(&gr->exits, 1, &gr->flags);
	sat_add(&gr->cpu_us, cpu, &gr->flags);
	sat_add(&gr->cpu_run_ns, rec_get(r, F_CPU_RUN_VIRTUAL_TOTAL), &gr->flags);
	sat_add(&gr->elapsed_us, rec_get(r, F_ETIME), &gr->flags);
	sat_add(&gr->read_bytes, rec_get(r, F_READ_BYTES), &gr->flags);
	sat_add(&gr->write_bytes, rec_get(r, F_WRITE_BYTES), &gr->flags);
	sat_max(&gr->rss_kb, rec_get(r, F_HIWATER_RSS));
	if (implausible) {
		sat_add(&gr->implausible, 1, &gr->flags);
		return;
	}
	for (int k = 0; k < 3; k++) {
		sat_add(&gr->delay[k], rec_get(r, delay_f[k][0]), &gr->flags);
		sat_add(&gr->count[k], rec_get(r, delay_f[k][1]), &gr->flags);
		if (rec_has(r, delay_f[k][2])) {
			gr->flags |= G_HAVE_MAX << k;
			sat_max(&gr->max[k], rec_get(r, delay_f[k][2]));
		}
	}
}

int stat_group_add(struct groups *g, const struct exit_record *r)
{
	struct gkey k;
	struct group *gr;
	bool bad;

	if (r->type != REC_PID) {
		g->tgid_rows++;
		return 0;
	}
	make_key(g->by, r, &k);
	gr = find_or_make(g, &k);
	if (!gr)
		return -ENOMEM;
	bad = record_implausible(r);
	fold(gr, r, bad);
	fold(&g->total, r, bad);
	return 0;
}

bool stat_group_value(const struct group *gr, enum stat_id s, uint64_t *v)
{
	int k = s >= S_SWAPIN_DELAY ? 2 : s >= S_BLKIO_DELAY ? 1 : 0;

	switch (s) {
	case S_EXITS: *v = gr->exits; return true;
	case S_CPU: *v = gr->cpu_us; return true;
	case S_CPU_RUN: *v = gr->cpu_run_ns; return true;
	case S_ELAPSED: *v = gr->elapsed_us; return true;
	case S_CPU_DELAY: case S_BLKIO_DELAY: case S_SWAPIN_DELAY:
		*v = gr->delay[k];
		return true;
	case S_CPU_AVG: case S_BLKIO_AVG: case S_SWAPIN_AVG:
		*v = gr->count[k] ? gr->delay[k] / gr->count[k] : 0;
		return gr->count[k] != 0;
	case S_CPU_MAX: case S_BLKIO_MAX: case S_SWAPIN_MAX:
		*v = gr->max[k];
		return gr->flags & (G_HAVE_MAX << k);
	case S_READ: *v = gr->read_bytes; return true;
	case S_WRITE: *v = gr->write_bytes; return true;
	case S_RSS: *v = gr->rss_kb; return true;
	case S_IMPLAUSIBLE: *v = gr->implausible; return true;
	default: return false;
	}
}

static enum stat_id sort_stat;
static bool sort_up;

static int key_cmp(const struct gkey *x, const struct gkey *y)
{
	int c;

	if (x->a != y->a)
		return x->a < y->a ? -1 : 1;
	if (x->b != y->b)
		return x->b < y->b ? -1 : 1;
	c = memcmp(x->comm, y->comm, x->len < y->len ? x->len : y->len);
	return c ? c : (int)x->len - (int)y->len;
}

static int cmp_groups(const void *pa, const void *pb)
{
	const struct group *a = *(struct group *const *)pa, *b = *(struct group *const *)pb;
	uint64_t va = 0, vb = 0;
	bool ha = stat_group_value(a, sort_stat, &va);
	bool hb = stat_group_value(b, sort_stat, &vb);

	if (ha != hb)
		return ha ? -1 : 1;	/* groups without a value last */
	if (va != vb)
		return (va < vb) == sort_up ? -1 : 1;
	return key_cmp(&a->key, &b->key);
}

struct group **stat_group_sorted(const struct groups *g, enum stat_id s, bool ascending)
{
	struct group **v = malloc((g->n ? g->n : 1) * sizeof(*v));
	size_t i, k = 0;

	if (!v)
		return NULL;
	for (i = 0; i < g->n; i++)
		v[k++] = stat_group_at(g, i);
	sort_stat = s;
	sort_up = ascending;
	qsort(v, k, sizeof(*v), cmp_groups);
	return v;
}
