// SPDX-License-Identifier: GPL-2.0-or-later
#include "probe_ksyms.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Functions taskstats_exit() calls, by what they do.  "local" ones are
 * static in kernel/taskstats.c: when the name occurs more than once the
 * one nearest taskstats_exit is ours. */
static const struct want {
	const char *name;
	unsigned callee;
	bool local;
} wants[] = {
	{ "fill_stats", CALLEE_FILL_STATS, true },
	{ "fill_tgid_exit", CALLEE_TGID, true },
	{ "_raw_spin_lock_irqsave", CALLEE_TGID, false },
	{ "_raw_spin_unlock_irqrestore", CALLEE_TGID, false },
	{ "__delayacct_add_tsk", CALLEE_TGID, false },
	{ "prepare_reply", CALLEE_ALLOC, true },
	{ "__alloc_skb", CALLEE_ALLOC, false },
	{ "mk_reply", CALLEE_MKREPLY, true },
	{ "send_cpu_only", CALLEE_SEND, true },
	{ "netlink_unicast", CALLEE_SEND, false },
	{ "skb_clone", CALLEE_SEND, false },
};
#define NWANTS (sizeof(wants) / sizeof(wants[0]))
#define MAX_CAND 8

static const char *const callee_names[PROBE_NCALLEE] = {
	[CALLEE_SELF] = "self", [CALLEE_FILL_STATS] = "fill_stats",
	[CALLEE_TGID] = "fill_tgid_exit", [CALLEE_ALLOC] = "alloc",
	[CALLEE_MKREPLY] = "mk_reply", [CALLEE_SEND] = "netlink_unicast",
	[CALLEE_OTHER] = "other",
};

const char *probe_ksyms_callee_name(unsigned callee)
{
	return callee < PROBE_NCALLEE ? callee_names[callee] : "?";
}

struct scan {
	uint64_t *addr;		/* every text symbol, for the ends */
	size_t n, cap;
	uint64_t ts;		/* taskstats_exit */
	uint64_t cand[NWANTS][MAX_CAND];
	size_t ncand[NWANTS];
	bool nonzero;
};

static int scan_line(struct scan *s, const char *line)
{
	unsigned long long a;
	char type, name[128];

	if (sscanf(line, "%llx %c %127s", &a, &type, name) != 3)
		return 0;	/* malformed: skip */
	if (type != 't' && type != 'T')
		return 0;
	s->nonzero |= a != 0;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 65536;
		uint64_t *p = realloc(s->addr, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		s->addr = p;
		s->cap = cap;
	}
	s->addr[s->n++] = a;
	if (!strcmp(name, "taskstats_exit"))
		s->ts = a;
	for (size_t i = 0; i < NWANTS; i++)
		if (!strcmp(name, wants[i].name) && s->ncand[i] < MAX_CAND)
			s->cand[i][s->ncand[i]++] = a;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The first symbol address above a (sorted table), or a + 1. */
static uint64_t end_of(const struct scan *s, uint64_t a)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->addr[mid] <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->n ? s->addr[lo] : a + 1;
}

static uint64_t pick(const struct scan *s, size_t i)
{
	uint64_t best = s->cand[i][0];

	for (size_t j = 1; wants[i].local && j < s->ncand[i]; j++) {
		uint64_t d = s->cand[i][j] > s->ts ? s->cand[i][j] - s->ts :
						     s->ts - s->cand[i][j];
		uint64_t db = best > s->ts ? best - s->ts : s->ts - best;

		if (d < db)
			best = s->cand[i][j];
	}
	return best;
}

static void fill(const struct scan *s, struct probe_range *out, __u32 *n)
{
	out[0] = (struct probe_range){ s->ts, end_of(s, s->ts), CALLEE_SELF, 0 };
	*n = 1;
	for (size_t i = 0; i < NWANTS && *n < PROBE_MAX_RANGES; i++) {
		uint64_t a;

		if (!s->ncand[i])
			continue;
		a = pick(s, i);
		out[(*n)++] = (struct probe_range){ a, end_of(s, a),
						    wants[i].callee, 0 };
	}
}

int probe_ksyms_ranges(FILE *kallsyms, struct probe_range *out, __u32 *n)
{
	struct scan s = { 0 };
	char line[512];
	int r = 0;

	while (r == 0 && fgets(line, sizeof(line), kallsyms))
		r = scan_line(&s, line);
	if (r < 0)
		goto out;
	r = -ENOENT;
	if (!s.ts && !s.nonzero && s.n)
		r = -EPERM;
	if (!s.ts)
		goto out;
	qsort(s.addr, s.n, sizeof(*s.addr), cmp_u64);
	fill(&s, out, n);
	r = 0;
out:
	free(s.addr);
	return r;
}
