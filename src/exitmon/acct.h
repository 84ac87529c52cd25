/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What --metrics counts of the records themselves: exits by outcome,
 * exits, CPU and delays per command (the top N by CPU, the rest as
 * "other"), and histograms of CPU and of each delay per exit.
 *
 * Counting rule: only pid records (one per task that exited) that passed
 * the filters are counted.  A tgid record adds up the threads of a group
 * whose pid records were counted already (and carries no exit code and no
 * CPU times), so counting it too would count every thread twice; a process
 * of 4 threads counts 4 exits, exitstat's rule.
 *
 * Two halves: an acct per collector (per shard), written by that shard's
 * thread alone, record by record, with no allocation; and an acct_sum,
 * the main thread's, into which acct_merge drains every shard's acct at
 * each metrics write (under the shard's own lock, which its thread takes
 * around each record it counts and no other shard ever takes: uncontended
 * but at the merge).
 *
 * Commands, and why no flood of names can keep the heaviest out (a user
 * who exits N + 256 distinct names right after the start took every slot
 * under the first-come rule this replaced): each shard keeps a table of at
 * most N + ACCT_CANDIDATES commands (N = --metrics-commands): the shown
 * ones, then the other commands met since the last merge (candidates),
 * each with its own sums.  A command met when the table is full takes the
 * place of the candidate of least CPU (whose sums go to "other": they were
 * never shown), so a light flood cannot keep a heavy command out of the
 * interval.  At a merge the candidates' sums of all shards are added up
 * per command and counted into the run-long ranking (acct_heavy, a
 * space-saving sketch of N + ACCT_CANDIDATES commands by CPU: any command
 * with more than 1/(N + 256) of the run's CPU is held, its CPU known to
 * within the error it inherited; found by a binary search, the least
 * counted place from a heap, so that a flooded merge, which holds every
 * shard's lock, costs O((N + candidates) log N)), then ranked by their
 * floor of CPU over the run.  While fewer than N are shown, the first go into the shown set
 * with their interval's sums (records never written under "other", so
 * "other" loses nothing it showed); after that a candidate whose CPU over
 * the run is more than twice that of the lightest shown takes its index
 * (the margin keeps two close commands from trading places at every
 * write), and the lightest is retired: its series stays in the file,
 * frozen, and continues if it comes back.  At most N are retired; beyond,
 * the lightest retired is folded into "other" (its series ends, "other"
 * grows by as much).  The rest of the candidates is added to "other".
 * So every record is in exactly one series, the series' sum is the total,
 * and no series ever decreases (but one folded and met again, which starts
 * anew).
 *
 * Sums of ns saturate at 2^64 - 1 (about 584 years) rather than wrap,
 * as exitstat's do: a wrapped counter would read as a reset, a tiny CPU
 * where there was most.  A sum that reached the bound stays there and
 * `saturated` says so (the metrics file's exitmon_sums_saturated, and one
 * line on stderr).
 *
 * Memory: per shard, N + ACCT_CANDIDATES entries of sizeof(struct
 * acct_comm) and a slot index of 4 bytes a slot (a power of two, at least
 * twice the entries); the sum holds N shown and N retired commands, the
 * ranking's N + ACCT_CANDIDATES and a scratch of shards x (N +
 * ACCT_CANDIDATES) entries.  Fixed at start: any number of
 * distinct commands costs no more. */
#ifndef EXITMON_ACCT_H
#define EXITMON_ACCT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "exitcode.h"
#include "record.h"

#define ACCT_COMMANDS_DEFAULT 20
#define ACCT_COMMANDS_MAX 1000
/* Commands not shown that a shard tracks per interval, beyond N. */
#define ACCT_CANDIDATES 256

/* The delays of struct taskstats, each a *_delay_total in ns. */
enum acct_delay {
	ACCT_D_CPU, ACCT_D_BLKIO, ACCT_D_SWAPIN, ACCT_D_FREEPAGES,
	ACCT_D_THRASHING, ACCT_D_COMPACT, ACCT_D_WPCOPY, ACCT_D_IRQ,
	ACCT_DELAYS
};
/* Their names as the delay label: cpu, blkio, swapin ... */
extern const char *const acct_delay_names[ACCT_DELAYS];

/* Histogram bounds (le), in ns: 1, 2.5, 5 times each power of ten from
 * 1 us to 100 s. */
#define ACCT_BUCKETS 25
extern const uint64_t acct_bucket_ns[ACCT_BUCKETS];

struct acct_hist {
	uint64_t n[ACCT_BUCKETS + 1];	/* per bucket (not cumulative); the
					 * last: above the largest bound */
	uint64_t sum_ns;
};

/* One series' sums: exits, CPU (user + system) and each delay. */
struct acct_series {
	uint64_t exits, cpu_ns;
	uint64_t delay_ns[ACCT_DELAYS];
};

struct acct_comm {
	struct acct_series s;
	uint64_t rank;		/* the merge's: its CPU over the run, at least */
	uint8_t len;
	char comm[TS_COMM_LEN];
};

/* A command of the run-long ranking (a space-saving sketch by CPU): w its
 * CPU counted, err the part of w it inherited from the command it took the
 * place of, so w - err is a floor of its CPU over the run. */
struct acct_heavy {
	uint64_t w, err;
	uint8_t len;
	char comm[TS_COMM_LEN];
};

/* One collector's counts since the last merge. */
struct acct {
	pthread_mutex_t lock;
	uint64_t outcome[EXITCODE__COUNT];
	struct acct_hist cpu, delay[ACCT_DELAYS];
	struct acct_series untracked;	/* commands not in the table */
	struct acct_comm *e;	/* [0, shown): shown, in the sum's order;
				 * [shown, n): candidates */
	unsigned n, shown, cap, max_shown;
	uint32_t *slot;		/* entry index + 1; 0: empty */
	unsigned mask;
	uint64_t seed;		/* of the hash: commands can be anyone's */
	bool full;		/* a candidate found no room since the merge */
	bool saturated;		/* a sum of ns reached 2^64 - 1 */
	uint64_t spent;		/* the values of the records since the merge,
				 * ORed per record and added up: no sum of ns
				 * here is above it, so while it fits no plain
				 * addition wrapped (UINT64_MAX: every record
				 * added saturating, until the merge) */
	uint8_t first[65];	/* per bit length: the first bucket it can be in */
};

/* The main thread's totals since the start. */
struct acct_sum {
	uint64_t outcome[EXITCODE__COUNT];
	struct acct_hist cpu, delay[ACCT_DELAYS];
	struct acct_series other;
	struct acct_comm *shown;	/* max_shown of them; n_shown used */
	unsigned n_shown, max_shown;
	uint64_t *shown_w;		/* each shown one's CPU over the run (a floor) */
	struct acct_comm *retired;	/* shown no longer: series kept, frozen */
	unsigned n_retired;		/* at most max_shown */
	uint64_t folded;		/* retired series folded into other */
	struct acct_heavy *heavy;	/* the run-long ranking of the others */
	unsigned n_heavy, heavy_cap;
	struct acct_order { uint64_t w; uint32_t i; } *order;	/* heavy_cap: by w */
	uint32_t *fresh;		/* scratch_cap: candidates new to it */
	struct acct_comm *scratch;	/* the candidates of a merge */
	size_t scratch_cap;
	bool saturated;		/* a sum of ns reached 2^64 - 1 (kept there) */
};

/* a + b, or 2^64 - 1 (and *sat set) where it would wrap. */
static inline uint64_t acct_sat_add(uint64_t a, uint64_t b, bool *sat)
{
	uint64_t r;

	if (__builtin_add_overflow(a, b, &r)) {
		*sat = true;
		return UINT64_MAX;
	}
	return r;
}

/* 0 or -ENOMEM. */
int acct_init(struct acct *a, unsigned max_shown);
void acct_free(struct acct *a);
/* One pid record that passed the filters; implausible: its delays are
 * wrong (record_view_implausible) and are left out, as exitstat does. */
void acct_add(struct acct *a, const struct exit_view *v, bool implausible);
/* Whether a command found no room in the table since the last merge. */
static inline bool acct_full(const struct acct *a)
{
	return a->full;
}

/* 0 or -ENOMEM; shards: how many accts will be merged into it. */
int acct_sum_init(struct acct_sum *s, unsigned max_shown, unsigned shards);
void acct_sum_free(struct acct_sum *s);
/* Drain the n accts into s; promote: let commands into the shown set
 * (false at the write before any interval has passed).  Takes each
 * acct's lock when locked. */
void acct_merge(struct acct_sum *s, struct acct *const *a, unsigned n,
		bool locked, bool promote);

#endif
