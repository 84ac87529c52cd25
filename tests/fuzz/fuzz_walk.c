// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target, differential: the collector's one-pass attribute walk
 * (record_walk_attrs: its short way for the common shape, and the general
 * walk for every other) against libnl's nla_parse with the same policies
 * (record_msg_policy, record_aggr_policy) and the stricter rules the
 * parser adds to it (tsnl_attrs: no repeated type, nothing left over; and
 * the message's shape).  The same bytes, as a whole netlink message and as
 * bare attributes, go to both; any disagreement on accepted or refused, on
 * which attribute was found, or on its length or place aborts.  This is
 * the condition on which nla_parse may leave the per-record path (issue
 * 22): it runs in `make test` through fuzz-smoke and sanitize. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "tsnl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond) do { \
	if (!(cond)) { \
		fprintf(stderr, "fuzz_walk: %s:%d: walk and nla_parse " \
			"disagree: %s\n", __FILE__, __LINE__, #cond); \
		abort(); \
	} \
} while (0)

#define TYPE_BIT(t) (1u << (t))

/* Only the types in `allowed` (and padding) are present in tb. */
static int only_types(struct nlattr *const tb[], unsigned allowed)
{
	unsigned t, seen = 0;

	for (t = 0; t < TASKSTATS_TYPE_NULL; t++)
		seen |= (unsigned)(tb[t] != NULL) << t;
	return (seen & ~allowed) == 0;
}

/* The reference: what the parser did before the walk, with libnl. */
static int ref_aggr(const struct nlattr *nest, int id_type,
		    struct rec_walk *w, unsigned i)
{
	struct nlattr *tb[TASKSTATS_TYPE_MAX + 1];

	if (tsnl_attrs(tb, TASKSTATS_TYPE_MAX, tsnl_data(nest), tsnl_len(nest),
		       record_aggr_policy) < 0 ||
	    !only_types(tb, TYPE_BIT(id_type) | TYPE_BIT(TASKSTATS_TYPE_STATS)) ||
	    !tb[id_type] || !tb[TASKSTATS_TYPE_STATS])
		return -EBADMSG;
	w->id[i] = tsnl_u32(tb[id_type]);
	w->stats[i] = tsnl_data(tb[TASKSTATS_TYPE_STATS]);
	w->stats_len[i] = (uint32_t)tsnl_len(tb[TASKSTATS_TYPE_STATS]);
	return 0;
}

static int ref_walk(const void *attrs, size_t len, struct rec_walk *w)
{
	struct nlattr *tb[TASKSTATS_TYPE_MAX + 1];
	const struct nlattr *pid, *tgid;

	w->n = 0;
	if (tsnl_attrs(tb, TASKSTATS_TYPE_MAX, attrs, len, record_msg_policy) < 0 ||
	    !only_types(tb, TYPE_BIT(TASKSTATS_TYPE_AGGR_PID) |
			    TYPE_BIT(TASKSTATS_TYPE_AGGR_TGID)))
		return -EBADMSG;
	pid = tb[TASKSTATS_TYPE_AGGR_PID];
	tgid = tb[TASKSTATS_TYPE_AGGR_TGID];
	if (!pid || (tgid && tgid < pid) ||
	    ref_aggr(pid, TASKSTATS_TYPE_PID, w, 0) < 0)
		return -EBADMSG;
	w->n = 1;
	if (tgid && ref_aggr(tgid, TASKSTATS_TYPE_TGID, w, 1) < 0)
		return -EPROTO;		/* the pid half alone is whole */
	w->n = tgid ? 2 : 1;
	return 0;
}

static void compare(const void *attrs, size_t len)
{
	struct rec_walk a, b;
	int ra, rb;
	unsigned i;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	ra = record_walk_attrs(attrs, len, &a);
	rb = ref_walk(attrs, len, &b);
	CHECK(ra == 0 || ra == -EBADMSG || ra == -EPROTO);
	CHECK(ra == rb);		/* accepted, refused, or the pid half only */
	if (ra == -EBADMSG)
		return;
	CHECK(a.n == b.n);			/* AGGR_TGID found or not */
	for (i = 0; i < a.n; i++) {
		CHECK(a.id[i] == b.id[i]);
		CHECK(a.stats[i] == b.stats[i]);	/* the same attribute */
		CHECK(a.stats_len[i] == b.stats_len[i]);
		CHECK(a.stats[i] >= (const unsigned char *)attrs &&
		      a.stats[i] + a.stats_len[i] <=
		      (const unsigned char *)attrs + len);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct nlattr *attrs;
	size_t attrs_len;
	uint8_t cmd;

	/* As a netlink message (the seed corpus is real ones) ... */
	if (tsnl_genl_msg(data, size, &cmd, &attrs, &attrs_len) == 0)
		compare(attrs, attrs_len);
	/* ... and as bare attributes. */
	compare(data, size);
	return 0;
}
