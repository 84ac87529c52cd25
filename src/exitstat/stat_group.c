/* Grouping and the statistics of a group (see stat_group.h). */
#include "stat_group.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

int stat_group_init(struct groups *g, enum group_by by)
{
	memset(g, 0, sizeof(*g));
	g->by = by;
	g->cap = 1024;
	g->t = calloc(g->cap, sizeof(*g->t));
	return g->t ? 0 : -ENOMEM;
}

void stat_group_free(struct groups *g)
{
	free(g->t);
	g->t = NULL;
}

static void make_key(enum group_by by, const struct exit_record *r, struct gkey *k)
{
	memset(k, 0, sizeof(*k));
	switch (by) {
	case BY_COMM:
		k->len = r->comm_len;
		memcpy(k->comm, r->comm, r->comm_len);
		break;
	case BY_UID: k->a = rec_get(r, F_UID); break;
	case BY_TGID: k->a = rec_has(r, F_TGID) ? rec_get(r, F_TGID) : r->id; break;
	case BY_EXE:
		k->a = rec_get(r, F_EXE_DEV);
		k->b = rec_get(r, F_EXE_INODE);
		break;
	}
}

static uint64_t key_hash(const struct gkey *k)
{
	uint64_t h = 1469598103934665603ull ^ k->a ^ (k->b * 0x9e3779b97f4a7c15ull);
	unsigned i;

	for (i = 0; i < k->len; i++)
		h = (h ^ (unsigned char)k->comm[i]) * 1099511628211ull;
	h ^= h >> 29;
	return h * 0xbf58476d1ce4e5b9ull;
}

static bool key_eq(const struct gkey *x, const struct gkey *y)
{
	return x->a == y->a && x->b == y->b && x->len == y->len &&
	       memcmp(x->comm, y->comm, x->len) == 0;
}

static struct group *slot(struct group *t, size_t cap, const struct gkey *k)
{
	size_t i = key_hash(k) & (cap - 1);

	while (t[i].used && !key_eq(&t[i].key, k))
		i = (i + 1) & (cap - 1);
	return &t[i];
}

static int grow(struct groups *g)
{
	size_t cap = g->cap * 2, i;
	struct group *t = calloc(cap, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (i = 0; i < g->cap; i++)
		if (g->t[i].used)
			*slot(t, cap, &g->t[i].key) = g->t[i];
	free(g->t);
	g->t = t;
	g->cap = cap;
	return 0;
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
	gr->exits++;
	gr->cpu_us += rec_get(r, F_UTIME) + rec_get(r, F_STIME);
	gr->cpu_run_ns += rec_get(r, F_CPU_RUN_VIRTUAL_TOTAL);
	gr->elapsed_us += rec_get(r, F_ETIME);
	gr->read_bytes += rec_get(r, F_READ_BYTES);
	gr->write_bytes += rec_get(r, F_WRITE_BYTES);
	if (rec_get(r, F_HIWATER_RSS) > gr->rss_kb)
		gr->rss_kb = rec_get(r, F_HIWATER_RSS);
	if (implausible) {
		gr->implausible++;
		return;
	}
	for (int k = 0; k < 3; k++) {
		gr->delay[k] += rec_get(r, delay_f[k][0]);
		gr->count[k] += rec_get(r, delay_f[k][1]);
		if (rec_has(r, delay_f[k][2])) {
			gr->have_max[k] = true;
			if (rec_get(r, delay_f[k][2]) > gr->max[k])
				gr->max[k] = rec_get(r, delay_f[k][2]);
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
	if (g->n * 2 >= g->cap && grow(g) < 0)
		return -ENOMEM;
	make_key(g->by, r, &k);
	gr = slot(g->t, g->cap, &k);
	if (!gr->used) {
		gr->used = true;
		gr->key = k;
		g->n++;
	}
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
		return gr->have_max[k];
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
	for (i = 0; i < g->cap; i++)
		if (g->t[i].used)
			v[k++] = &g->t[i];
	sort_stat = s;
	sort_up = ascending;
	qsort(v, k, sizeof(*v), cmp_groups);
	return v;
}
