// SPDX-License-Identifier: GPL-2.0-or-later
/* The records' metrics (acct.c): outcomes, the bounded command table,
 * "other" that never decreases, every series monotonic and their sum the
 * total, histogram buckets. */
#include <linux/taskstats.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "acct.h"
#include "record.h"
#include "tsbuild.h"

#define FAMILY 0x1c

static const enum rec_field delays[ACCT_DELAYS] = {
	F_CPU_DELAY_TOTAL, F_BLKIO_DELAY_TOTAL, F_SWAPIN_DELAY_TOTAL,
	F_FREEPAGES_DELAY_TOTAL, F_THRASHING_DELAY_TOTAL,
	F_COMPACT_DELAY_TOTAL, F_WPCOPY_DELAY_TOTAL, F_IRQ_DELAY_TOTAL,
};

static struct tsb_msg msg;

static void set(unsigned char *p, enum rec_field f, uint64_t v, unsigned version)
{
	tsb_store(p + tsb_offset(f, version), v, tsb_fields[f].size);
}

/* A pid record of struct version `version` (delay k: delay_ns + k), as
 * the collector views it; valid until the next call. */
static struct exit_view rec_v(unsigned version, const char *comm,
			      uint32_t code, uint64_t cpu_us, uint64_t delay_ns)
{
	static unsigned char stats[TSB_MAX_STATS];
	size_t len = tsb_sizes[version];
	struct exit_views v;
	unsigned k;

	tsb_fill_stats(stats, len, version, version, comm);
	set(stats, F_EXITCODE, code, version);
	set(stats, F_UTIME, cpu_us / 2, version);
	set(stats, F_STIME, cpu_us - cpu_us / 2, version);
	for (k = 0; k < ACCT_DELAYS; k++)
		if (tsb_offset(delays[k], version) != TSB_NONE &&
		    tsb_offset(delays[k], version) + 8u <= len)
			set(stats, delays[k], delay_ns + k, version);
	tsb_begin(&msg, FAMILY, TASKSTATS_CMD_NEW);
	tsb_aggr(&msg, TASKSTATS_TYPE_AGGR_PID, TASKSTATS_TYPE_PID, 4242,
		 stats, len);
	tsb_end(&msg);
	assert_int_equal(record_view_nlmsg(msg.b, msg.len, &v), 0);
	return v.rec[0];
}

static struct exit_view rec(const char *comm, uint32_t code, uint64_t cpu_us,
			    uint64_t delay_ns)
{
	return rec_v(17, comm, code, cpu_us, delay_ns);
}

static void add(struct acct *a, const char *comm, uint32_t code,
		uint64_t cpu_us, uint64_t delay_ns)
{
	struct exit_view v = rec(comm, code, cpu_us, delay_ns);

	acct_add(a, &v, false);
}

static uint64_t hist_count(const struct acct_hist *h)
{
	uint64_t n = 0;

	for (unsigned b = 0; b <= ACCT_BUCKETS; b++)
		n += h->n[b];
	return n;
}

/* The series of comm in s, or NULL. */
static const struct acct_series *shown(const struct acct_sum *s, const char *comm)
{
	for (unsigned i = 0; i < s->n_shown; i++)
		if (s->shown[i].len == strlen(comm) &&
		    !memcmp(s->shown[i].comm, comm, s->shown[i].len))
			return &s->shown[i].s;
	return NULL;
}

/* Every series added up. */
static struct acct_series sum_all(const struct acct_sum *s)
{
	struct acct_series t = s->other;

	for (unsigned i = 0; i < s->n_shown + s->n_retired; i++) {
		const struct acct_comm *c = i < s->n_shown ? &s->shown[i] :
					    &s->retired[i - s->n_shown];

		t.exits += c->s.exits;
		t.cpu_ns += c->s.cpu_ns;
		for (unsigned k = 0; k < ACCT_DELAYS; k++)
			t.delay_ns[k] += c->s.delay_ns[k];
	}
	return t;
}

/* One shard's acct and its sum, for the tests of one shard. */
static struct acct sa;
static struct acct_sum ss;

static void one(unsigned max_shown)
{
	assert_int_equal(acct_init(&sa, max_shown), 0);
	assert_int_equal(acct_sum_init(&ss, max_shown, 1), 0);
}

static void merge(void)
{
	struct acct *pa = &sa;

	acct_merge(&ss, &pa, 1, false, true);
}

static void done(void)
{
	acct_sum_free(&ss);
	acct_free(&sa);
}

static void test_outcomes_and_totals(void **state)
{

	(void)state;
	one(20);
	add(&sa, "ok", 0, 10, 100);
	add(&sa, "ok", 0, 10, 100);
	add(&sa, "bad", 3 << 8, 20, 0);
	add(&sa, "term", 15, 30, 0);
	add(&sa, "segv", 11 | 0x80, 40, 0);
	merge();
	assert_int_equal(ss.outcome[EXITCODE_EXIT0], 2);
	assert_int_equal(ss.outcome[EXITCODE_NONZERO], 1);
	assert_int_equal(ss.outcome[EXITCODE_SIGNAL], 1);
	assert_int_equal(ss.outcome[EXITCODE_CORE], 1);
	assert_int_equal(ss.n_shown, 4);
	/* Heaviest first. */
	assert_memory_equal(ss.shown[0].comm, "segv", 4);
	assert_int_equal(shown(&ss, "ok")->exits, 2);
	assert_int_equal(shown(&ss, "ok")->cpu_ns, 20000);
	assert_int_equal(shown(&ss, "ok")->delay_ns[ACCT_D_CPU], 200);
	assert_int_equal(shown(&ss, "ok")->delay_ns[ACCT_D_IRQ], 214);
	assert_int_equal(ss.other.exits, 0);
	assert_int_equal(hist_count(&ss.cpu), 5);
	assert_int_equal(ss.cpu.sum_ns, 110000);
	assert_int_equal(hist_count(&ss.delay[ACCT_D_BLKIO]), 5);
	/* Drained: a second merge adds nothing. */
	merge();
	assert_int_equal(shown(&ss, "ok")->exits, 2);
	assert_int_equal(hist_count(&ss.cpu), 5);
	done();
}

/* An implausible record's delays are left out; its exit and CPU count. */
static void test_implausible(void **state)
{
	struct exit_view v;

	(void)state;
	one(1);
	v = rec("x", 0, 5, 1000000);
	acct_add(&sa, &v, true);
	merge();
	assert_int_equal(shown(&ss, "x")->exits, 1);
	assert_int_equal(shown(&ss, "x")->cpu_ns, 5000);
	assert_int_equal(shown(&ss, "x")->delay_ns[ACCT_D_CPU], 0);
	assert_int_equal(hist_count(&ss.delay[ACCT_D_CPU]), 0);
	assert_int_equal(hist_count(&ss.cpu), 1);
	done();
}

/* A struct version without a delay counts none of it: v9 has no compact,
 * wpcopy or irq delay. */
static void test_old_struct(void **state)
{
	struct exit_view v;

	(void)state;
	one(1);
	v = rec_v(9, "old", 0, 5, 1000);
	acct_add(&sa, &v, false);
	merge();
	assert_int_equal(hist_count(&ss.delay[ACCT_D_THRASHING]), 1);
	assert_int_equal(hist_count(&ss.delay[ACCT_D_COMPACT]), 0);
	assert_int_equal(hist_count(&ss.delay[ACCT_D_IRQ]), 0);
	assert_int_equal(shown(&ss, "old")->delay_ns[ACCT_D_IRQ], 0);
	assert_int_equal(shown(&ss, "old")->delay_ns[ACCT_D_BLKIO], 1001);
	done();
}

/* Each bound belongs to its own bucket (le: less or equal); past the
 * last, +Inf. */
static void test_buckets(void **state)
{
	unsigned b;

	(void)state;
	assert_int_equal(acct_bucket_ns[0], 1000);
	assert_int_equal(acct_bucket_ns[ACCT_BUCKETS - 1], 100000000000ull);
	for (b = 1; b < ACCT_BUCKETS; b++)
		assert_true(acct_bucket_ns[b] > acct_bucket_ns[b - 1] &&
			    acct_bucket_ns[b] <= acct_bucket_ns[b - 1] * 5 / 2);
	one(0);
	/* CPU in us: 0, 1 us (le 1e-6), 2 us (le 2.5e-6), 100 s, 100 s + 1 us. */
	add(&sa, "c", 0, 0, 0);
	add(&sa, "c", 0, 1, 0);
	add(&sa, "c", 0, 2, 0);
	add(&sa, "c", 0, 100000000, 0);
	add(&sa, "c", 0, 100000001, 0);
	/* Delays in ns (cpu: delay_ns + 0): 1000, 1001. */
	add(&sa, "d", 0, 0, 1000);
	add(&sa, "d", 0, 0, 1001);
	merge();
	assert_int_equal(ss.n_shown, 0);
	assert_int_equal(ss.other.exits, 7);
	assert_int_equal(ss.cpu.n[0], 4);	/* 0, 1 us and d's two 0 */
	assert_int_equal(ss.cpu.n[1], 1);
	assert_int_equal(ss.cpu.n[ACCT_BUCKETS - 1], 1);
	assert_int_equal(ss.cpu.n[ACCT_BUCKETS], 1);
	assert_int_equal(ss.cpu.sum_ns, (0 + 1 + 2 + 100000000ull + 100000001ull) * 1000);
	/* c's five zeros and 1000 in the first, 1001 in the second. */
	assert_int_equal(ss.delay[ACCT_D_CPU].n[0], 6);
	assert_int_equal(ss.delay[ACCT_D_CPU].n[1], 1);
	done();
}

/* Commands enter the shown set only at a merge that promotes, heaviest
 * first, with the sums of that interval; N is never passed; a command
 * never leaves; "other" keeps what it had. */
static void test_shown_set(void **state)
{
	struct acct a[2];
	struct acct_sum s;
	struct acct *pa[2] = { &a[0], &a[1] };

	(void)state;
	assert_int_equal(acct_init(&a[0], 2), 0);
	assert_int_equal(acct_init(&a[1], 2), 0);
	assert_int_equal(acct_sum_init(&s, 2, 2), 0);
	add(&a[0], "heavy", 0, 100, 0);
	add(&a[1], "light", 0, 1, 0);
	acct_merge(&s, pa, 2, true, false);	/* the write at start */
	assert_int_equal(s.n_shown, 0);
	assert_int_equal(s.other.exits, 2);
	assert_int_equal(s.other.cpu_ns, 101000);
	/* Interval 1: heavy on both shards, mid, light. */
	add(&a[0], "heavy", 0, 100, 0);
	add(&a[1], "heavy", 0, 100, 0);
	add(&a[1], "mid", 0, 50, 0);
	add(&a[0], "light", 0, 1, 0);
	acct_merge(&s, pa, 2, true, true);
	assert_int_equal(s.n_shown, 2);
	assert_int_equal(shown(&s, "heavy")->exits, 2);	/* this interval's */
	assert_int_equal(shown(&s, "heavy")->cpu_ns, 200000);
	assert_int_equal(shown(&s, "mid")->exits, 1);
	assert_null(shown(&s, "light"));
	assert_int_equal(s.other.exits, 3);	/* never less than before */
	assert_int_equal(s.other.cpu_ns, 102000);
	/* Interval 2: a newcomer of more than twice the lightest's CPU over
	 * the run takes its place; the lightest's series stays, frozen. */
	add(&a[0], "huge", 0, 100000, 0);
	add(&a[1], "mid", 0, 1, 0);
	acct_merge(&s, pa, 2, true, true);
	assert_int_equal(s.n_shown, 2);
	assert_int_equal(shown(&s, "huge")->exits, 1);
	assert_null(shown(&s, "mid"));
	assert_int_equal(s.n_retired, 1);
	assert_int_equal(s.retired[0].s.exits, 2);	/* its record of this interval too */
	assert_int_equal(s.other.exits, 3);
	assert_int_equal(sum_all(&s).exits, 8);
	/* Interval 3: mid is back but not twice heavy's: stays retired */
	add(&a[1], "mid", 0, 10, 0);
	acct_merge(&s, pa, 2, true, true);
	assert_int_equal(s.other.exits, 4);
	assert_int_equal(s.retired[0].s.exits, 2);
	assert_int_equal(sum_all(&s).exits, 9);
	/* The full set tracks no candidate: the table holds the shown. */
	assert_int_equal(a[0].n, 2);
	assert_int_equal(a[1].n, 2);
	acct_sum_free(&s);
	acct_free(&a[0]);
	acct_free(&a[1]);
}

/* Random records over many merges on three shards: each series only
 * grows, the series add up to the totals exactly, the set never passes
 * N nor loses a command (none of these twelve has twice another's CPU
 * over the run, so none is retired: test_flood_cannot_capture retires). */
static void test_monotonic_random(void **state)
{
	enum { SHARDS = 3, N = 4, ROUNDS = 60, PER = 40 };
	struct acct a[SHARDS];
	struct acct *pa[SHARDS];
	struct acct_sum s;
	struct acct_series want = { 0 }, before_other = { 0 };
	uint64_t before[N] = { 0 };
	unsigned r, i, k, seed = 12345;

	(void)state;
	for (i = 0; i < SHARDS; i++) {
		assert_int_equal(acct_init(&a[i], N), 0);
		pa[i] = &a[i];
	}
	assert_int_equal(acct_sum_init(&s, N, SHARDS), 0);
	for (r = 0; r < ROUNDS; r++) {
		unsigned was = s.n_shown;
		char was_comm[N][TS_COMM_LEN + 1];
		struct acct_series got;

		for (i = 0; i < was; i++)
			snprintf(was_comm[i], sizeof(was_comm[i]), "%.*s",
				 s.shown[i].len, s.shown[i].comm);
		for (i = 0; i < PER; i++) {
			char comm[16];
			unsigned cpu, d;

			seed = seed * 1103515245u + 12345u;
			snprintf(comm, sizeof(comm), "c%u", (seed >> 16) % 12);
			cpu = (seed >> 8) % 1000;
			d = (seed >> 4) % 5000;
			add(&a[(seed >> 20) % SHARDS], comm, 0, cpu, d);
			want.exits++;
			want.cpu_ns += cpu * 1000ull;
			for (k = 0; k < ACCT_DELAYS; k++)
				want.delay_ns[k] += d + k;
		}
		acct_merge(&s, pa, SHARDS, true, r > 0);
		got = sum_all(&s);
		assert_int_equal(got.exits, want.exits);
		assert_int_equal(got.cpu_ns, want.cpu_ns);
		for (k = 0; k < ACCT_DELAYS; k++)
			assert_int_equal(got.delay_ns[k], want.delay_ns[k]);
		assert_true(s.n_shown <= N && s.n_shown >= was);
		for (i = 0; i < was; i++) {
			assert_string_equal(was_comm[i], shown(&s, was_comm[i]) ?
					    was_comm[i] : "(gone)");
			assert_true(s.shown[i].s.exits >= before[i]);
			before[i] = s.shown[i].s.exits;
		}
		for (; i < s.n_shown; i++)
			before[i] = s.shown[i].s.exits;
		assert_true(s.other.exits >= before_other.exits);
		assert_true(s.other.cpu_ns >= before_other.cpu_ns);
		before_other = s.other;
		assert_int_equal(hist_count(&s.cpu), want.exits);
		assert_int_equal(s.cpu.sum_ns, want.cpu_ns);
		assert_int_equal(s.outcome[EXITCODE_EXIT0], want.exits);
	}
	assert_int_equal(s.n_shown, N);
	assert_int_equal(s.n_retired, 0);
	acct_sum_free(&s);
	for (i = 0; i < SHARDS; i++)
		acct_free(&a[i]);
}

/* 2^16 distinct hostile names in one interval: the table stays at its
 * size, the rest go to other, nothing is lost; then the heaviest of those
 * tracked are shown. */
static void test_hostile_flood(void **state)
{
	unsigned i;

	(void)state;
	one(3);
	for (i = 0; i < 65536; i++) {
		char comm[16];

		snprintf(comm, sizeof(comm), "\xff\"\\\n%c%c%c", 1 + (i & 0x7f),
			 0x80 | (i >> 7 & 0x7f), 1 + (i >> 14));
		add(&sa, comm, 0, i % 7, 1);
		assert_true(sa.n <= sa.cap);
	}
	assert_int_equal(sa.cap, 3 + ACCT_CANDIDATES);
	assert_int_equal(sa.n, sa.cap);
	assert_true(acct_full(&sa));
	/* after 65,277 evictions the index still holds each entry once, and
	 * no name twice: every later record found its own */
	{
		unsigned used = 0, j;

		for (j = 0; j <= sa.mask; j++)
			used += sa.slot[j] != 0;
		assert_int_equal(used, sa.n);
		for (i = 0; i < sa.n; i++)
			for (j = i + 1; j < sa.n; j++)
				assert_false(sa.e[i].len == sa.e[j].len &&
					     !memcmp(sa.e[i].comm, sa.e[j].comm, sa.e[i].len));
	}
	merge();
	assert_false(acct_full(&sa));
	assert_int_equal(ss.n_shown, 3);
	assert_int_equal(sum_all(&ss).exits, 65536);
	assert_int_equal(ss.shown[0].s.cpu_ns, 6000);
	done();
}

/* One interval's flood: `names` distinct light names (1 us each), the
 * names of round r, on shard a. */
static void flood(struct acct *a, unsigned r, unsigned names)
{
	for (unsigned i = 0; i < names; i++) {
		char comm[16];

		snprintf(comm, sizeof(comm), "f%u.%u", r, i);
		add(a, comm, 0, 1, 0);
	}
}

/* The attack: right after the start, N + 256 distinct names fill
 * every table slot and would take every shown slot; a command with 99.9%
 * of the CPU must still get its own series, whether it exits in the
 * flood's interval or only after the flood's names were shown, and keep
 * it while the flood goes on.  Nothing is lost or counted twice. */
static void test_flood_cannot_capture(void **state)
{
	enum { N = 3, HEAVY_US = 1000000 };
	struct acct a[2];
	struct acct *pa[2] = { &a[0], &a[1] };
	struct acct_sum s;
	uint64_t exits = 0, heavy_cpu = 0, other = 0;

	(void)state;
	for (unsigned late = 0; late < 2; late++) {
		assert_int_equal(acct_init(&a[0], N), 0);
		assert_int_equal(acct_init(&a[1], N), 0);
		assert_int_equal(acct_sum_init(&s, N, 2), 0);
		exits = heavy_cpu = other = 0;
		acct_merge(&s, pa, 2, true, false);	/* the write at start */
		for (unsigned r = 0; r < 6; r++) {
			/* both shards flooded with fresh names every interval */
			flood(&a[0], r, N + ACCT_CANDIDATES);
			flood(&a[1], r + 100, N + ACCT_CANDIDATES);
			exits += 2 * (N + ACCT_CANDIDATES);
			/* heavy from the flood's interval, or from the third */
			if (!late || r >= 2)
				for (unsigned k = 0; k < 3; k++) {
					add(&a[k & 1], "heavy", 0, HEAVY_US, 0);
					exits++;
					heavy_cpu += HEAVY_US * 1000ull;
				}
			acct_merge(&s, pa, 2, true, true);
			assert_int_equal(sum_all(&s).exits, exits);
			assert_true(s.other.exits >= other);
			other = s.other.exits;
			assert_int_equal(s.n_shown, N);
			if (late && r < 2)
				continue;
			/* shown from its first interval on, every CPU second */
			assert_non_null(shown(&s, "heavy"));
			assert_true(shown(&s, "heavy")->cpu_ns == heavy_cpu);
		}
		/* the flood's names shown at first were retired, not lost */
		if (late)
			assert_true(s.n_retired >= 1);
		assert_true(s.n_retired <= N);
		acct_sum_free(&s);
		acct_free(&a[0]);
		acct_free(&a[1]);
	}
}

/* N = 1 and each interval a command of more than twice the last one's
 * CPU: each takes the slot, the last one retired with its series kept;
 * the retired beyond N folded into other (the lightest first); a retired
 * command that comes back heavier continues its own series. */
static void test_retire_fold(void **state)
{
	uint64_t other = 0;

	(void)state;
	one(1);
	merge();
	add(&sa, "a", 0, 10, 0);
	merge();
	assert_non_null(shown(&ss, "a"));
	add(&sa, "b", 0, 30, 0);	/* 30 > 2 x 10 */
	merge();
	assert_non_null(shown(&ss, "b"));
	assert_int_equal(ss.n_retired, 1);
	assert_int_equal(ss.folded, 0);
	add(&sa, "c", 0, 15, 0);	/* 15 < 2 x 30: to other */
	merge();
	assert_int_equal(ss.other.exits, 1);
	add(&sa, "c", 0, 100, 0);	/* 115 over the run > 2 x 30 */
	merge();
	assert_non_null(shown(&ss, "c"));
	assert_int_equal(shown(&ss, "c")->exits, 1);	/* from its interval on */
	/* b retired, a (the lighter) folded into other */
	assert_int_equal(ss.n_retired, 1);
	assert_int_equal(ss.retired[0].len, 1);
	assert_int_equal(ss.retired[0].comm[0], 'b');
	assert_int_equal(ss.folded, 1);
	assert_int_equal(ss.other.exits, 2);
	other = ss.other.exits;
	/* b comes back heavier than twice c: its series goes on */
	add(&sa, "b", 0, 1000, 0);
	merge();
	assert_non_null(shown(&ss, "b"));
	assert_int_equal(shown(&ss, "b")->exits, 2);
	assert_true(shown(&ss, "b")->cpu_ns == 1030000);
	assert_true(ss.other.exits >= other);
	assert_int_equal(sum_all(&ss).exits, 5);
	done();
}

/* A command light in each interval but heavy over the run is still
 * counted across merges whose floods fill the ranking many times over
 * (space saving: the least counted place is taken, never the heavy's),
 * and takes the slot of one heavy only once. */
static void test_steady_through_floods(void **state)
{
	unsigned r;

	(void)state;
	one(1);
	merge();
	add(&sa, "first", 0, 100, 0);
	merge();
	assert_non_null(shown(&ss, "first"));
	for (r = 0; r < 8 && !shown(&ss, "steady"); r++) {
		flood(&sa, r, 2 * (1 + ACCT_CANDIDATES));
		add(&sa, "steady", 0, 60, 0);
		/* the shard's table fills too: a merge as replay does */
		merge();
	}
	/* 60 us an interval: past twice first's 100 at the fourth */
	assert_non_null(shown(&ss, "steady"));
	assert_int_equal(r, 4);
	assert_int_equal(ss.n_retired, 1);
	done();
}

/* Sums of ns stop at 2^64 - 1 rather than wrap (a wrapped counter reads
 * as a reset, a tiny CPU), in a shard, in the merge, in the histograms'
 * sums, and say so; counts of exits stay exact. */
static void test_saturate(void **state)
{
	const uint64_t half = 1ull << 63;	/* ns: two of them wrap */
	unsigned k;

	(void)state;
	one(2);
	merge();			/* the write at start */
	assert_false(ss.saturated);
	/* CPU in us: 2^63 ns each, two are 2^64 ns */
	add(&sa, "big", 0, half / 1000 + 1, half);
	add(&sa, "big", 0, half / 1000 + 1, half);
	assert_true(sa.saturated);
	merge();
	assert_true(ss.saturated);
	assert_int_equal(shown(&ss, "big")->exits, 2);
	assert_true(shown(&ss, "big")->cpu_ns == UINT64_MAX);
	for (k = 0; k < ACCT_DELAYS; k++)
		assert_true(shown(&ss, "big")->delay_ns[k] == UINT64_MAX);
	assert_true(ss.cpu.sum_ns == UINT64_MAX);
	assert_true(ss.delay[ACCT_D_CPU].sum_ns == UINT64_MAX);
	/* a utime + stime in us whose ns do not fit: the bound, said */
	add(&sa, "lone", 0, UINT64_MAX, 0);
	assert_true(sa.saturated);
	/* and across merges: what was at the bound stays there */
	add(&sa, "big", 0, 1, 1);
	merge();
	assert_true(shown(&ss, "big")->cpu_ns == UINT64_MAX);
	assert_int_equal(shown(&ss, "big")->exits, 3);
	assert_true(ss.saturated);
	done();
}

/* Many records of values that fit, whose sums do not: exact up to the
 * bound, then at the bound (the shard adds plainly while no sum can wrap,
 * and saturating from the record that might). */
static void test_saturate_many(void **state)
{
	const uint64_t us = (1ull << 56) / 1000, ns = us * 1000;
	const uint64_t d = 1ull << 56;
	unsigned i, k;

	(void)state;
	one(2);
	merge();
	for (i = 0; i < 200; i++)
		add(&sa, "many", 0, us, d);
	merge();
	assert_false(ss.saturated);
	assert_true(shown(&ss, "many")->cpu_ns == 200 * ns);
	assert_true(shown(&ss, "many")->delay_ns[ACCT_D_CPU] == 200 * d);
	assert_true(ss.cpu.sum_ns == 200 * ns);
	/* 300 more in one interval (2^64 is 256 of them): the shard's own
	 * sums reach the bound */
	for (i = 0; i < 300; i++)
		add(&sa, "many", 0, us, d);
	assert_true(sa.saturated);
	for (k = 0; k < ACCT_DELAYS; k++)
		assert_true(sa.e[0].s.delay_ns[k] == UINT64_MAX);
	merge();
	assert_true(ss.saturated);
	assert_int_equal(shown(&ss, "many")->exits, 500);
	assert_true(shown(&ss, "many")->cpu_ns == UINT64_MAX);
	assert_true(ss.cpu.sum_ns == UINT64_MAX);
	assert_true(ss.delay[ACCT_D_IRQ].sum_ns == UINT64_MAX);
	/* the next interval adds plainly again, and stays at the bound */
	add(&sa, "many", 0, 1, 1);
	assert_false(sa.saturated);
	assert_true(sa.e[0].s.cpu_ns == 1000);
	merge();
	assert_true(shown(&ss, "many")->cpu_ns == UINT64_MAX);
	done();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_outcomes_and_totals),
		cmocka_unit_test(test_implausible),
		cmocka_unit_test(test_old_struct),
		cmocka_unit_test(test_buckets),
		cmocka_unit_test(test_shown_set),
		cmocka_unit_test(test_monotonic_random),
		cmocka_unit_test(test_hostile_flood),
		cmocka_unit_test(test_saturate),
		cmocka_unit_test(test_steady_through_floods),
		cmocka_unit_test(test_retire_fold),
		cmocka_unit_test(test_saturate_many),
		cmocka_unit_test(test_flood_cannot_capture),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
